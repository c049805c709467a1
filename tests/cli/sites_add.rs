//! `newshound sites add URL`: a site's block from its address alone, on a
//! tiny local site, the rest of the config file kept as it was.

use std::path::Path;

use axum::http::{StatusCode, Uri};
use axum::Router;

use crate::support::{assert_clean_failure, newshound, stderr, stdout};

const RSS: &str = r#"<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>
<item><title>One</title><link>/news/1</link></item></channel></rss>"#;

/// What the tiny site announces.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// A feed on its home page, a sitemap in robots.txt.
    Announce,
    /// Neither (`/feed` answers RSS all the same).
    Nothing,
    /// robots.txt disallows everything.
    Disallow,
}

/// A site on 127.0.0.1 announcing what `mode` says.
fn start(rt: &tokio::runtime::Runtime, mode: Mode) -> String {
    let announce = mode == Mode::Announce;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let b = base.clone();
        let app = Router::new().fallback(move |uri: Uri| {
            let base = b.clone();
            async move {
                let head = if announce {
                    r#"<link rel="alternate" type="application/rss+xml" href="/rss.xml">"#
                } else {
                    ""
                };
                let robots = match mode {
                    Mode::Announce => {
                        format!("User-agent: *\nDisallow:\n\nSitemap: {base}/news-map.xml\n")
                    }
                    Mode::Nothing => "User-agent: *\nDisallow:\n".to_string(),
                    Mode::Disallow => "User-agent: *\nDisallow: /\n".to_string(),
                };
                let (code, ctype, body) = match uri.path() {
                    "/robots.txt" => (StatusCode::OK, "text/plain", robots),
                    "/" => (
                        StatusCode::OK,
                        "text/html",
                        format!("<html><head>{head}</head><body><a href=\"/news/1\">1</a></body></html>"),
                    ),
                    "/rss.xml" | "/feed" => (StatusCode::OK, "application/rss+xml", RSS.to_string()),
                    _ => (StatusCode::NOT_FOUND, "text/html", "<html>no</html>".to_string()),
                };
                (code, [("content-type", ctype)], body)
            }
        });
        tokio::spawn(async move { axum::serve(listener, app).await });
        base
    })
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap()
}

const CONFIG: &str = "# My sites, by hand.\n[fetch]\nallow_private_addresses = true  # a local site\n\n[[sites]]\nname = \"planet\"\nstart = [\"http://planet.test/\"]\narticle_patterns = ['/news/\\d+']\n";

fn read(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("crawler.toml")).unwrap()
}

#[test]
fn sites_add_writes_the_start_feeds_and_sitemaps_and_keeps_the_rest_of_the_file() {
    let rt = runtime();
    let base = start(&rt, Mode::Announce);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("crawler.toml"), CONFIG).unwrap();
    let out = newshound(&["sites", "add", &format!("{base}/")], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = read(dir.path());
    assert!(text.starts_with(CONFIG), "{text}");
    let port = base.rsplit(':').next().unwrap();
    let name = format!("127-0-0-1-{port}");
    let block = format!(
        "\n[[sites]]\nname = \"{name}\"\nstart = [\"{base}/\"]\nfeeds = [\"{base}/rss.xml\"]\n\
         sitemaps = [\"{base}/news-map.xml\"]\n"
    );
    assert_eq!(&text[CONFIG.len()..], block);
    let shown = stdout(&out);
    assert!(
        shown.contains(&format!("newshound sites check {name}")),
        "{shown}"
    );
    // The same name again is refused, and the file left alone.
    let again = newshound(&["sites", "add", &format!("{base}/")], dir.path());
    assert_clean_failure(&again, "is already configured");
    assert_eq!(read(dir.path()), text);
    // The config still loads as the crawler loads it.
    let check = newshound(&["crawl", "--site", "nope"], dir.path());
    assert_clean_failure(&check, "unknown site \"nope\"");
    assert!(stderr(&check).contains(&name), "{}", stderr(&check));
}

#[test]
fn a_site_that_announces_nothing_has_its_usual_paths_probed() {
    let rt = runtime();
    let base = start(&rt, Mode::Nothing);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("crawler.toml"), CONFIG).unwrap();
    // Typed without a scheme: https first, then http (all this site has).
    let address = base.trim_start_matches("http://").to_string();
    let out = newshound(&["sites", "add", &address, "--name", "mine"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = read(dir.path());
    assert!(
        text.ends_with(&format!(
            "[[sites]]\nname = \"mine\"\nstart = [\"{base}/\"]\nfeeds = [\"{base}/feed\"]\n"
        )),
        "{text}"
    );
}

#[test]
fn sites_add_obeys_the_address_guard() {
    let rt = runtime();
    let base = start(&rt, Mode::Announce);
    let dir = tempfile::tempdir().unwrap();
    // A new config file, with the default settings: loopback is refused.
    let out = newshound(
        &["--config", "new.toml", "sites", "add", &format!("{base}/")],
        dir.path(),
    );
    assert_clean_failure(&out, "allow_private_addresses = true");
    assert!(!dir.path().join("new.toml").exists());
}

#[test]
fn sites_add_obeys_robots_txt() {
    let rt = runtime();
    let base = start(&rt, Mode::Disallow);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("crawler.toml"), CONFIG).unwrap();
    let out = newshound(&["sites", "add", &format!("{base}/")], dir.path());
    assert_clean_failure(&out, "robots.txt disallows it");
    assert_eq!(read(dir.path()), CONFIG);
}

#[test]
fn regression_credentials_in_a_site_address_were_stored_and_sent() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("crawler.toml"), CONFIG).unwrap();
    // Refused before any request: no server is needed to see it.
    let out = newshound(
        &["sites", "add", "http://user:secret@127.0.0.1:9/"],
        dir.path(),
    );
    assert_clean_failure(&out, "credentials in a site's address are refused");
    assert!(!stderr(&out).contains("secret"), "{}", stderr(&out));
    assert_eq!(read(dir.path()), CONFIG);
    // In the config file, the crawl refuses them too, naming the key.
    let with = CONFIG.replace("http://planet.test/", "https://user:secret@planet.test/");
    std::fs::write(dir.path().join("crawler.toml"), &with).unwrap();
    let crawl = newshound(&["crawl"], dir.path());
    assert_clean_failure(&crawl, "sites[0].start[0]");
    assert!(
        stderr(&crawl).contains("credentials in a site's address are refused"),
        "{}",
        stderr(&crawl)
    );
    assert!(!stderr(&crawl).contains("secret"), "{}", stderr(&crawl));
}

#[test]
fn regression_sites_add_rewrote_crlf_as_lf_and_dropped_a_bom() {
    let rt = runtime();
    let base = start(&rt, Mode::Nothing);
    let dir = tempfile::tempdir().unwrap();
    let before = format!("\u{feff}{}", CONFIG.replace('\n', "\r\n"));
    std::fs::write(dir.path().join("crawler.toml"), &before).unwrap();
    let out = newshound(
        &["sites", "add", &format!("{base}/"), "--name", "mine"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let after = read(dir.path());
    assert!(after.starts_with(&before), "{after:?}");
    assert_eq!(
        &after[before.len()..],
        format!("\r\n[[sites]]\r\nname = \"mine\"\r\nstart = [\"{base}/\"]\r\nfeeds = [\"{base}/feed\"]\r\n")
    );
}

/// `sites add URL --config FILE` printed its next commands without
/// `--config FILE`; run as printed they read another file and failed with
/// "unknown site … (configured: none)", which named no file.
#[test]
fn regression_sites_add_printed_next_commands_that_read_another_config() {
    let rt = runtime();
    let base = start(&rt, Mode::Announce);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mine.toml"), CONFIG).unwrap();
    let out = newshound(
        &[
            "--config",
            "mine.toml",
            "sites",
            "add",
            &format!("{base}/"),
            "--name",
            "local",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let shown = stdout(&out);
    let next: Vec<&str> = (shown.lines())
        .filter_map(|l| {
            l.trim_start()
                .strip_prefix("next:")
                .or(Some(l.trim_start()))
        })
        .filter(|l| l.trim_start().starts_with("newshound "))
        .map(str::trim)
        .collect();
    assert_eq!(next.len(), 2, "{shown}");
    for line in &next {
        assert!(line.starts_with("newshound --config mine.toml "), "{shown}");
    }
    // Run as printed (the hint in brackets aside), the check works.
    let check: Vec<&str> = next[0]
        .split("   (")
        .next()
        .unwrap()
        .split(' ')
        .skip(1)
        .collect();
    let out = newshound(&check, dir.path());
    assert!(out.status.success(), "{check:?}: {}", stderr(&out));
    // Without the file, the error says which file was read (none).
    let out = newshound(&["sites", "check", "local"], dir.path());
    assert_clean_failure(
        &out,
        "no config file was read (crawler.toml is not in this directory",
    );
    let out = newshound(
        &["--config", "mine.toml", "sites", "check", "nope"],
        dir.path(),
    );
    assert_clean_failure(&out, "sites in mine.toml: planet, local");
}

/// The same host added under a second name was accepted, and one of the
/// two sites then never crawled.
#[test]
fn regression_the_same_host_under_a_second_name_was_accepted() {
    let rt = runtime();
    let base = start(&rt, Mode::Announce);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("crawler.toml"), CONFIG).unwrap();
    let first = newshound(
        &["sites", "add", &format!("{base}/"), "--name", "one"],
        dir.path(),
    );
    assert!(first.status.success(), "{}", stderr(&first));
    let before = read(dir.path());
    let second = newshound(
        &["sites", "add", &format!("{base}/news/"), "--name", "two"],
        dir.path(),
    );
    let host = base.trim_start_matches("http://");
    assert_clean_failure(
        &second,
        &format!("{host} is already crawled as the site \"one\""),
    );
    assert_eq!(read(dir.path()), before, "the file is left alone");
}
