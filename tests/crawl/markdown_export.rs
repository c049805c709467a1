//! `export --format markdown` on a crawl of the simulated web (127.0.0.1):
//! the body rendered again from the kept page keeps the `wire` page's list,
//! and lines the sites' line tables learned as boilerplate are not in it.

use crate::corpus_out::crawl_into;
use crate::support::start_web;
use crate::support::stored_in;
use newshound::export::{self, Format};
use newshound::extract::{ExtractOptions, Extractor, Page};
use newshound::simweb::SimWebSpec;
use newshound::store::{AnyStore, Selection, Store, StoredArticle};

/// A Markdown line's text without the quote, heading or list marker.
fn markdown_line_text(line: &str) -> &str {
    let line = line.trim_start_matches(['>', ' ']);
    let line = line.trim_start_matches('#').trim_start();
    let line = line.strip_prefix("- ").unwrap_or(line);
    line.trim()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn markdown_export_keeps_lists_from_kept_html_and_drops_learned_boilerplate() {
    let spec = SimWebSpec {
        sites: 4,
        articles_per_site: 12,
        seed: 36,
        faults: false,
    };
    let (web, dir, mut cfg) = start_web(spec).await;
    crate::support::set_rate_per_host(&mut cfg, 20.0);
    let db = dir.path().join("markdown.db");
    crawl_into(&cfg, &db).await;
    let mut store = AnyStore::from(Store::open(&db).unwrap());
    let articles = stored_in(&mut store);
    let rendering = export::Rendering {
        extract: ExtractOptions::default(),
        config: Some(&cfg),
    };
    let mut out = Vec::new();
    let summary = export::write_with(
        &mut store,
        &Selection::default(),
        Format::Markdown,
        &rendering,
        &mut out,
    )
    .unwrap();
    assert_eq!(summary.written, articles.len() as u64);
    assert_eq!(summary.from_stored_text, 0, "every page was kept");
    let md = String::from_utf8(out).unwrap();

    // The wire page's bulleted paragraph is a Markdown list, which the
    // stored plain text cannot show.
    let items = md.lines().filter(|l| l.starts_with("- ")).count();
    assert!(items >= 2, "list items kept:\n{md}");
    for a in &articles {
        assert!(!a.article.text.lines().any(|l| l.starts_with("- ")));
    }

    // Lines the line table learned as boilerplate (in every article of a
    // site) that are in a page's fresh extraction are not in the export.
    let md_opts = ExtractOptions {
        markdown: true,
        ..ExtractOptions::default()
    };
    let mut checked = Vec::new();
    for site in ["dailyplanet", "globe", "huaxia-news", "wire"] {
        let of_site: Vec<&StoredArticle> = articles.iter().filter(|a| a.site == site).collect();
        let learned: Vec<String> = store
            .top_lines(site, 20)
            .unwrap()
            .into_iter()
            .filter(|(_, lc)| *lc >= of_site.len() as u64)
            .map(|(sample, _)| sample)
            .collect();
        let page = store.kept_html(of_site[0].id).unwrap().unwrap();
        let fresh = Extractor::new(md_opts.clone())
            .extract(Page::from_bytes(
                &page.body,
                page.headers.content_type.as_deref(),
            ))
            .article
            .markdown
            .unwrap();
        let (_, exported) = md
            .split_once(&format!("<{}>\n", page.url))
            .expect("the article is exported");
        let exported = exported.split("\n# ").next().unwrap_or_default();
        for line in learned
            .iter()
            .filter(|l| fresh.lines().any(|m| markdown_line_text(m) == l.as_str()))
        {
            assert!(
                !exported
                    .lines()
                    .any(|m| markdown_line_text(m) == line.as_str()),
                "{site}: boilerplate line {line:?} exported:\n{exported}"
            );
            checked.push(line.clone());
        }
    }
    assert!(
        !checked.is_empty(),
        "no learned line was in a fresh extraction"
    );
    println!("boilerplate lines dropped from the Markdown: {checked:?}");
    web.shutdown().await;
}
