//! `extract` on files, directories, stdin and URLs, with good and bad input.

use crate::support::{
    assert_clean_failure, assert_usage_error, bin, newshound, newshound_piped, stderr, stdout,
};

const PAGE: &str = "<html><head><title>T</title></head><body><article>\
    <p>The council met on Tuesday to discuss the budget for the coming year.</p>\
    <p>Members argued for three hours before the vote was finally taken.</p>\
    </article></body></html>";

fn pages_dir(dir: &std::path::Path) {
    let pages = dir.join("pages");
    std::fs::create_dir(&pages).unwrap();
    std::fs::write(pages.join("a.html"), PAGE).unwrap();
    std::fs::write(pages.join("b.html"), PAGE).unwrap();
}

#[cfg(unix)]
#[test]
fn non_utf8_file_name_is_accepted() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.html");
    std::fs::write(dir.path().join(name), PAGE).unwrap();
    let out = bin()
        .arg("extract")
        .arg(name)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("council met"));
}

#[test]
fn directory_flags_on_one_page_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.html"), PAGE).unwrap();
    for flags in [&["--out", "x"][..], &["--jsonl"], &["--jobs", "2"]] {
        let args = [&["extract", "p.html"][..], flags].concat();
        let out = newshound(&args, dir.path());
        assert_clean_failure(&out, "are for a directory of pages");
    }
    assert!(!dir.path().join("x").exists());
}

#[test]
fn json_on_a_directory_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    pages_dir(dir.path());
    let out = newshound(&["extract", "pages", "--json"], dir.path());
    assert_clean_failure(&out, "--json is for one page");
}

#[test]
fn jobs_zero_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    pages_dir(dir.path());
    let out = newshound(&["extract", "pages", "--jobs", "0"], dir.path());
    assert_usage_error(&out, "must be at least 1");
}

#[test]
fn out_that_is_a_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    pages_dir(dir.path());
    std::fs::write(dir.path().join("afile"), "x").unwrap();
    let out = newshound(&["extract", "pages", "--out", "afile"], dir.path());
    assert_clean_failure(&out, "afile: exists and is not a directory");
}

#[test]
fn directory_writes_texts_and_jsonl() {
    let dir = tempfile::tempdir().unwrap();
    pages_dir(dir.path());
    let out = newshound(
        &["extract", "pages", "--out", "texts", "--jobs", "2"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let a = std::fs::read_to_string(dir.path().join("texts/a.txt")).unwrap();
    assert!(a.contains("council met"));
    let out = newshound(&["extract", "pages"], dir.path());
    assert_eq!(stdout(&out).lines().count(), 2, "JSONL on stdout");
}

#[test]
fn stdin_dash_is_one_page() {
    let dir = tempfile::tempdir().unwrap();
    let out = newshound_piped(&["extract", "-", "--json"], dir.path(), PAGE.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["text"].as_str().unwrap().contains("council met"));
}

/// `cat page.html | newshound extract`: without an input, piped stdin is
/// the page (it was a usage error asking for <INPUT>).
#[test]
fn extract_without_input_reads_piped_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let out = newshound_piped(&["extract"], dir.path(), PAGE.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("council met"), "{}", stdout(&out));
}

#[test]
fn page_without_text_warns_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("empty.html"), "").unwrap();
    let out = newshound(&["extract", "empty.html"], dir.path());
    assert!(out.status.success());
    assert!(stderr(&out).contains("empty.html: warning: no article text found"));
}

#[test]
fn unsupported_url_scheme_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let out = newshound(&["extract", "ftp://127.0.0.1/x.html"], dir.path());
    assert_clean_failure(&out, "unsupported URL scheme \"ftp\"");
}

#[test]
fn html5ever_repair_warnings_stay_quiet() {
    // Text directly inside <table> makes html5ever warn "foster parenting
    // not implemented" through `log`; one line per page drowned real output.
    let dir = tempfile::tempdir().unwrap();
    let page = "<html><body><table>stray text<tr><td>cell</td></tr></table>\
        <p>A paragraph with enough words in it to be the article.</p></body></html>";
    std::fs::write(dir.path().join("t.html"), page).unwrap();
    let out = newshound(&["extract", "t.html"], dir.path());
    assert!(out.status.success());
    assert!(!stderr(&out).contains("foster"), "{}", stderr(&out));
}

#[test]
fn extract_url_on_loopback_is_refused_unless_allow_private() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let web = rt
        .block_on(newshound::simweb::SimWeb::start(
            newshound::simweb::SimWebSpec {
                sites: 1,
                articles_per_site: 2,
                ..Default::default()
            },
        ))
        .unwrap();
    let url = web.sites()[0].article_urls[0].to_string();
    let upper = url.replacen("http://", "HTTP://", 1);
    let dir = tempfile::tempdir().unwrap();
    // No config file: the crawler's guard applies (an untrusted URL must
    // not reach the machine's own services, on any redirect hop).
    let out = newshound(&["extract", &url], dir.path());
    assert_clean_failure(&out, "(loopback) (pass --allow-private to fetch it anyway)");
    for u in [&url, &upper] {
        let out = newshound(&["extract", u, "--allow-private"], dir.path());
        assert!(out.status.success(), "{u}: {}", stderr(&out));
        let body = web.true_body(&url).unwrap();
        let first = body.split("\n\n").next().unwrap();
        assert!(stdout(&out).contains(first), "{}", stdout(&out));
    }
    rt.block_on(web.shutdown());
}

#[cfg(unix)]
#[test]
fn endless_input_is_refused_at_the_body_limit() {
    // `extract /dev/zero` used to read until memory ran out.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("c.toml"),
        "[fetch]\nmax_body_bytes = 100000\n",
    )
    .unwrap();
    let out = newshound(&["--config", "c.toml", "extract", "/dev/zero"], dir.path());
    assert_clean_failure(&out, "/dev/zero: larger than 100000 bytes");
}

#[test]
fn absurd_jobs_is_a_usage_error() {
    // Each job is an OS thread, spawned whatever the number of pages.
    let dir = tempfile::tempdir().unwrap();
    pages_dir(dir.path());
    let out = newshound(&["extract", "pages", "--jobs", "100000"], dir.path());
    assert_usage_error(&out, "must be at most 256");
    let out = newshound(
        &[
            "eval", "--html", "pages", "--gold", "pages", "--jobs", "100000",
        ],
        dir.path(),
    );
    assert_usage_error(&out, "must be at most 256");
}

#[test]
fn timezone_reads_local_dates_and_unknown_zones_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let page = PAGE.replace(
        "<article>",
        "<article><p class=\"date\">2019年09月05日 11:10</p>",
    );
    std::fs::write(dir.path().join("p.html"), page).unwrap();
    let published = |extra: &[&str]| {
        let mut args = vec!["extract", "p.html", "--json"];
        args.extend_from_slice(extra);
        let out = newshound(&args, dir.path());
        assert!(out.status.success(), "{}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["published_at"].as_str().map(String::from)
    };
    assert_eq!(published(&[]).as_deref(), Some("2019-09-05T11:10:00Z"));
    assert_eq!(
        published(&["--timezone", "Asia/Shanghai"]).as_deref(),
        Some("2019-09-05T11:10:00+08:00")
    );
    // From the config's [extract] section when the flag is absent.
    std::fs::write(
        dir.path().join("crawler.toml"),
        "[extract]\ntimezone = \"America/New_York\"\n",
    )
    .unwrap();
    assert_eq!(published(&[]).as_deref(), Some("2019-09-05T11:10:00-04:00"));
    let out = newshound(
        &["extract", "p.html", "--timezone", "Mars/Olympus"],
        dir.path(),
    );
    assert_usage_error(&out, "unknown time zone \"Mars/Olympus\"");
}

const WITH_COMMENTS: &str = "<html><head><title>Budget agreed</title></head><body>\
    <article><h1>Budget agreed</h1><div itemprop=articleBody>\
    <p>The council met on Tuesday to discuss the budget for the coming year.</p>\
    <p>Members argued for three hours before the vote was finally taken.</p></div></article>\
    <section id=comments><h3>3 comments</h3>\
    <article class=comment><p>Jane says: this is far too much money for a small town.</p></article>\
    <article class=comment><p>Bob says: the roads needed it, and the vote was fair.</p></article>\
    <article class=comment><p>Ann says: I watched the whole meeting and it was a mess.</p></article>\
    </section></body></html>";

#[test]
fn reader_comments_are_left_out_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.html"), WITH_COMMENTS).unwrap();
    let out = newshound(&["extract", "p.html"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("council met") && !text.contains("Jane says"),
        "{text}"
    );
    assert!(
        !text.contains("Budget agreed"),
        "the headline is the title: {text}"
    );

    let out = newshound(&["extract", "p.html", "--comments"], dir.path());
    assert!(stdout(&out).contains("Jane says"), "{}", stdout(&out));

    std::fs::write(dir.path().join("c.toml"), "[extract]\ncomments = true\n").unwrap();
    let out = newshound(&["--config", "c.toml", "extract", "p.html"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Jane says"), "{}", stdout(&out));
}

#[test]
fn json_says_which_method_found_the_text() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.html"), WITH_COMMENTS).unwrap();
    let out = newshound(&["extract", "p.html", "--json"], dir.path());
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["method"], "density", "{json}");
    assert_eq!(json["title"], "Budget agreed", "{json}");
}

#[test]
fn eval_prints_the_gold_convention_of_the_set() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("page-signal-dev");
    for sub in ["html", "gold"] {
        std::fs::create_dir_all(set.join(sub)).unwrap();
    }
    std::fs::write(set.join("html/p.html"), WITH_COMMENTS).unwrap();
    std::fs::write(
        set.join("gold/p.txt"),
        "Budget agreed\n\nThe council met on Tuesday to discuss the budget for the coming year.\n\n\
         Members argued for three hours before the vote was finally taken.\n",
    )
    .unwrap();
    let args = [
        "eval",
        "--html",
        "page-signal-dev/html",
        "--gold",
        "page-signal-dev/gold",
    ];
    let out = newshound(&args, dir.path());
    let report = stdout(&out);
    assert!(
        report.contains("gold convention (known set): headline counted"),
        "{report}"
    );
    assert!(
        report.contains("F1 1.000"),
        "headline + text match the gold: {report}"
    );
    let out = newshound(
        &[&args[..], &["--gold-has-title=false"]].concat(),
        dir.path(),
    );
    let report = stdout(&out);
    assert!(
        report.contains("headline not counted") && !report.contains("F1 1.000"),
        "{report}"
    );
}

#[test]
fn format_markdown_keeps_headings_and_lists() {
    let dir = tempfile::tempdir().unwrap();
    let page = "<html><body><article>\
        <p>The council met on Tuesday to discuss the budget for the coming year.</p>\
        <h2>What was agreed</h2><ul><li>New roads for the north of the town, at last.</li>\
        <li>A library that opens on Sundays, from next spring.</li></ul>\
        <p>Members argued for three hours before the vote was finally taken.</p>\
        </article></body></html>";
    std::fs::write(dir.path().join("p.html"), page).unwrap();
    let out = newshound(&["extract", "p.html", "--format", "markdown"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let md = stdout(&out);
    assert!(md.contains("\n## What was agreed\n"), "{md}");
    assert!(md.contains("\n- New roads for the north"), "{md}");
    let out = newshound(&["extract", "p.html"], dir.path());
    assert!(!stdout(&out).contains("## "), "text stays plain");
    let out = newshound(&["extract", "p.html", "--format", "html"], dir.path());
    assert_usage_error(&out, "html");
}
