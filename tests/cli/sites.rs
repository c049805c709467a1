//! `sites check NAME [--json] [--fetch N]` through the real binary, against
//! the simulated web on 127.0.0.1.

use crate::support::{assert_clean_failure, newshound, stderr, stdout};
use newshound::simweb::{SimWeb, SimWebSpec};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn sites_check_json_labels_every_link_and_stores_nothing() {
    let rt = runtime();
    let web = rt
        .block_on(SimWeb::start(SimWebSpec {
            sites: 1,
            articles_per_site: 6,
            seed: 23,
            faults: false,
        }))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("sim.toml"), web.config_toml()).unwrap();
    let name = web.sites()[0].name.clone();
    let args = [
        "--config", "sim.toml", "--db", "sim.db", "sites", "check", &name,
    ];
    let out = newshound(&[&args[..], &["--json"]].concat(), dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let links: Vec<serde_json::Value> = (text.lines())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert!(!links.is_empty());
    for l in &links {
        let label = l["label"].as_str().unwrap_or_default();
        assert!(
            ["article", "index", "other", "blocked"].contains(&label),
            "{l}"
        );
        assert!(
            l["url"].as_str().is_some_and(|u| u.starts_with("http")),
            "{l}"
        );
        assert!(l["reason"].as_str().is_some_and(|r| !r.is_empty()), "{l}");
    }
    let article_urls: Vec<String> = web.sites()[0]
        .article_urls
        .iter()
        .map(|u| u.to_string())
        .collect();
    assert!(
        links
            .iter()
            .any(|l| l["label"] == "article" && article_urls.iter().any(|u| l["url"] == *u)),
        "{text}"
    );
    assert!(
        !dir.path().join("sim.db").exists(),
        "a dry run creates no database"
    );

    // The table: documents, a header, one row per link, the totals.
    let out = newshound(&args, dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    assert!(table.contains("fetched start"), "{table}");
    assert!(table.lines().any(|l| l.starts_with("label ")), "{table}");
    assert!(
        table.contains(&format!("{} links: ", links.len())),
        "{table}"
    );

    let out = newshound(
        &["--config", "sim.toml", "sites", "check", "nope"],
        dir.path(),
    );
    assert_clean_failure(&out, "unknown site \"nope\"");
    rt.block_on(web.shutdown());
}

#[test]
fn stats_shows_each_sites_learned_url_shapes() {
    let dir = tempfile::tempdir().unwrap();
    crate::support::demo_db(dir.path(), 6);
    let out = newshound(&["--db", "demo.db", "stats", "--json"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let sites: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let sites = sites.as_array().unwrap();
    assert!(!sites.is_empty());
    for s in sites {
        let shapes = s["url_shapes"].as_array().unwrap();
        let article = shapes.iter().find(|c| c["class"] == "article");
        assert!(
            article.is_some_and(|c| c["articles"].as_u64() >= Some(3)),
            "{s}"
        );
    }
    let out = newshound(&["--db", "demo.db", "stats"], dir.path());
    let text = stdout(&out);
    assert!(text.contains("url shapes: "), "{text}");
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("article ") && l.contains("{yyyy}")),
        "{text}"
    );
}

#[test]
fn sites_check_fetch_judges_the_links_the_crawl_would_store_and_shows_the_evidence() {
    use newshound::simweb::bare::{BareSpec, BareWeb, Shape};
    let rt = runtime();
    let web = rt
        .block_on(BareWeb::start(BareSpec {
            sites: 1,
            articles_per_site: 10,
            seed: 5,
            shapes: vec![Shape::Plain],
            ..BareSpec::default()
        }))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bare.toml"), web.config_toml(false)).unwrap();
    let site = &web.sites()[0];
    let args = [
        "--config",
        "bare.toml",
        "--db",
        "bare.db",
        "sites",
        "check",
        &site.name,
        "--fetch",
        "4",
    ];
    let out = newshound(&args, dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // The feed's entries come first: undated stories, listed, so stored.
    assert!(text.contains("judged 4 pages as the crawl would"), "{text}");
    assert!(
        text.contains("4 of 4 would be stored as articles"),
        "{text}"
    );
    let judged: Vec<&str> = (text.lines())
        .filter(|l| l.starts_with("article ") && l.contains(" listed "))
        .collect();
    assert_eq!(judged.len(), 4, "{text}");
    assert!(
        text.contains("declares nothing;")
            && text.contains("no date")
            && text.contains("listed: a feed entry"),
        "{text}"
    );
    assert!(
        !dir.path().join("bare.db").exists(),
        "a dry run stores nothing"
    );

    // Enough to reach the pages found through links: the about page is
    // judged, and not an article.
    let mut all = args.to_vec();
    all[8] = "60";
    all.push("--json");
    let out = newshound(&all, dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let links: Vec<serde_json::Value> = (stdout(&out).lines())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let about = links
        .iter()
        .find(|l| l["url"].as_str().is_some_and(|u| u.ends_with("/about/")))
        .expect("the about page is a link");
    assert_eq!(about["judged"]["verdict"], "not_article", "{about}");
    assert!(
        about["judged"]["evidence"]["body_words"].as_u64() > Some(0),
        "{about}"
    );
    let stored = (links.iter())
        .filter(|l| l["judged"]["verdict"] == "article")
        .filter_map(|l| l["url"].as_str())
        .collect::<Vec<_>>();
    for url in &stored {
        assert!(
            site.article_urls.iter().any(|u| u.as_str() == *url),
            "{url}"
        );
    }
    rt.block_on(web.shutdown());
}
