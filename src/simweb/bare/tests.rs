//! The bare web serves what a reader meets: every page kind answers, the
//! feed is announced only in pages' heads and the sitemap only in
//! robots.txt, and the hand-written patterns match exactly the articles.

use super::*;

async fn get(url: &Url) -> (u16, String) {
    let reply = super::super::tests::client::get(url).await;
    (reply.status, reply.text())
}

#[tokio::test]
async fn every_page_kind_answers_and_discovery_is_announced_only_where_readers_see_it() {
    let web = BareWeb::start(BareSpec::default()).await.unwrap();
    assert_eq!(web.sites().len(), 4);
    for site in web.sites() {
        assert_eq!(site.article_urls.len(), 12);
        for url in &site.article_urls {
            let (status, html) = get(url).await;
            assert_eq!(status, 200, "{url}");
            let body = web.true_body(url.as_str()).expect("true body");
            let first = body.split("\n\n").next().unwrap();
            assert!(html.contains(&esc(first)), "{url}: body not on the page");
        }
        let kinds: std::collections::HashSet<&str> =
            site.other_urls.iter().map(|(k, _)| *k).collect();
        for k in [
            "home", "section", "tag", "author", "about", "privacy", "contact", "sign-in", "search",
        ] {
            assert!(kinds.contains(k), "{}: no {k} page", site.name);
        }
        let later_pages = site
            .other_urls
            .iter()
            .filter(|(k, u)| *k == "section" && (u.as_str().contains('2')))
            .count();
        assert!(
            later_pages > 0,
            "{}: no section has a second page",
            site.name
        );
        for (kind, url) in &site.other_urls {
            let (status, _) = get(url).await;
            assert_eq!(status, 200, "{kind} {url}");
        }
        let (_, home) = get(&site.base_url).await;
        assert!(
            home.contains(
                "rel=\"alternate\" type=\"application/rss+xml\" title=\"The Bare Courier"
            ),
            "{home}"
        );
        assert!(home.contains(FEED_PATH));
        let (_, robots) = get(&site.base_url.join("/robots.txt").unwrap()).await;
        assert!(robots.contains(SITEMAP_PATH), "{robots}");
        let (_, feed) = get(&site.base_url.join(FEED_PATH).unwrap()).await;
        assert!(feed.contains(site.article_urls[0].as_str()));
        // Only the newest are listed.
        assert!(!feed.contains(site.article_urls[11].as_str()));
    }
    web.shutdown().await;
}

#[tokio::test]
async fn hand_written_patterns_match_the_articles_and_nothing_else() {
    let web = BareWeb::start(BareSpec::default()).await.unwrap();
    let with = web.config_toml(true);
    let bare = web.config_toml(false);
    assert!(!bare.contains("patterns"));
    let cfg =
        crate::config::Config::parse(&with, std::path::Path::new("t"), std::path::Path::new("."))
            .unwrap();
    for (site, settings) in web.sites().iter().zip(&cfg.sites) {
        for url in &site.article_urls {
            assert!(settings.is_article(url), "{url}");
        }
        for (kind, url) in &site.other_urls {
            assert!(!settings.is_article(url), "{kind} {url}");
            let index = matches!(*kind, "home" | "section");
            assert_eq!(settings.is_index(url), index, "{kind} {url}");
        }
    }
    web.shutdown().await;
}
