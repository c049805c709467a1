//! The real-pages web over loopback HTTP: pages served byte for byte, every
//! article linked from exactly one index page, and a config that crawls it.

use std::collections::HashSet;
use std::path::Path;

use super::*;
use crate::config::Config;
use crate::simweb::tests::client::get;

fn pages(n: usize) -> Vec<RealPage> {
    (0..n)
        .map(|i| RealPage {
            name: format!("set/{i:03}.html"),
            // Not UTF-8 on purpose: served as saved, never re-encoded.
            bytes: format!("<html><body><p>page {i} caf\u{e9}</p></body></html>")
                .into_bytes()
                .into_iter()
                .map(|b| if b == 0xC3 { 0xE9 } else { b })
                .collect::<Vec<u8>>()
                .into(),
        })
        .collect()
}

fn hrefs(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn every_page_is_served_as_saved_and_linked_from_exactly_one_index_page() {
    let spec = RealSpec {
        sites: 3,
        per_index: 4,
    };
    let web = RealWeb::start(pages(23), &spec).await.unwrap();
    let sizes: Vec<usize> = web.sites().iter().map(|s| s.articles.len()).collect();
    assert_eq!(sizes, [8, 8, 7]);
    let mut names = HashSet::new();
    for site in web.sites() {
        assert_eq!(site.index_urls.len(), site.articles.len().div_ceil(4));
        let mut linked = Vec::new();
        for index in &site.index_urls {
            let reply = get(index).await;
            assert_eq!(reply.status, 200, "{index}");
            linked.extend(hrefs(&reply.text()));
        }
        // Articles once each, then the next index pages.
        let (next, stories): (Vec<String>, Vec<String>) =
            linked.into_iter().partition(|h| h.starts_with("/page/"));
        let want: Vec<String> = (site.articles.iter())
            .map(|(u, _)| u.path().to_string())
            .collect();
        assert_eq!(stories, want);
        let want_next: Vec<String> = (site.index_urls.iter().skip(1))
            .map(|u| u.path().to_string())
            .collect();
        assert_eq!(next, want_next);
        for (url, page) in &site.articles {
            let reply = get(url).await;
            assert_eq!(reply.status, 200);
            assert_eq!(reply.body, &page.bytes[..], "{url}");
            assert_eq!(reply.header("content-type"), Some("text/html"));
            assert_eq!(web.page_at(url).map(|p| &p.name), Some(&page.name));
            names.insert(page.name.clone());
        }
        let beyond = site
            .base_url
            .join(&format!("/story/{}.html", site.articles.len()));
        assert_eq!(get(&beyond.unwrap()).await.status, 404);
        let beyond = site
            .base_url
            .join(&format!("/page/{}", site.index_urls.len() + 1));
        assert_eq!(get(&beyond.unwrap()).await.status, 404);
        let robots = get(&site.base_url.join("/robots.txt").unwrap()).await;
        assert_eq!(robots.status, 200);
    }
    assert_eq!(names.len(), 23, "each page on one site only");
    web.shutdown().await;
}

#[tokio::test]
async fn the_config_names_every_site_and_its_patterns_match_its_pages_only() {
    let web = RealWeb::start(pages(5), &RealSpec::default())
        .await
        .unwrap();
    // More sites asked for than pages: one page each, none empty.
    assert_eq!(web.sites().len(), 5);
    let toml = web.config_toml(64, true);
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config::parse(&toml, Path::new("real.toml"), dir.path()).unwrap();
    assert_eq!(cfg.crawler.concurrency, 64);
    assert_eq!(cfg.sites.len(), 5);
    for (site, settings) in web.sites().iter().zip(&cfg.sites) {
        assert_eq!(settings.name, site.name);
        let (article, _) = &site.articles[0];
        assert!(settings.is_article(article));
        assert!(!settings.is_index(article));
        assert!(settings.is_index(&site.index_urls[0]));
        assert!(!settings.is_article(&site.index_urls[0]));
        let other = web.sites().iter().find(|s| s.name != site.name).unwrap();
        assert!(!settings.is_article(&other.articles[0].0));
        let elsewhere = site.base_url.join("/news/story/1.html").unwrap();
        assert!(!settings.is_article(&elsewhere));
    }
    web.shutdown().await;
}
