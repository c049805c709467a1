//! The end-of-crawl re-clean on the simulated web: it reads only the
//! articles with a line whose status changed, and leaves exactly
//! the texts a full re-clean of every article would.

use std::path::Path;

use crate::support::{crawl_into, set_rate_per_host, start_web};
use newshound::simweb::SimWebSpec;
use newshound::store::{AnyStore, Selection, Store, Which};

fn texts(store: &mut AnyStore) -> Vec<(String, String)> {
    let mut all = Vec::new();
    store
        .export(&Selection::default(), &mut |a| {
            all.push((a.url.clone(), a.article.text.clone()));
            Ok(())
        })
        .expect("export");
    all
}

fn raw_texts_as_stored(db: &Path) -> usize {
    let conn = rusqlite::Connection::open(db).expect("open db");
    conn.query_row(
        "SELECT count(*) FROM articles WHERE text = raw_text",
        [],
        |r| r.get::<_, i64>(0),
    )
    .expect("count") as usize
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_incremental_reclean_of_a_crawl_leaves_what_a_full_reclean_would() {
    let spec = SimWebSpec {
        sites: 3,
        articles_per_site: 40,
        seed: 7,
        faults: false,
    };
    let (_web, dir, mut cfg) = start_web(spec).await;
    // Politeness is not what is tested here.
    set_rate_per_host(&mut cfg, 1000.0);
    let db = dir.path().join("crawl.db");
    let summary = crawl_into(&cfg, &db).await;
    assert!(summary.articles_stored >= 100, "{summary}");
    assert!(summary.articles_recleaned > 0, "{summary}");

    let mut store = AnyStore::from(Store::open(&db).expect("reopen store"));
    let after_crawl = texts(&mut store);
    // Nothing is pending: the crawl's re-clean emptied the change list.
    let mut any = AnyStore::from(Store::open(&db).expect("reopen store"));
    let settings = |name: &str| cfg.line_settings(Some(name));
    let again = any
        .reclean(None, Which::Changed, &settings)
        .expect("reclean changed");
    assert_eq!(again.examined, 0, "{again:?}");
    // The full walk (every article from its raw text) changes nothing.
    let all = any.reclean(None, Which::All, &settings).expect("reclean");
    assert_eq!(all.changed, 0);
    drop(any);
    assert_eq!(texts(&mut store), after_crawl);
    // And the web's template lines that extraction keeps did go: a site's
    // recurring newsletter line (one site in three has one extraction
    // cannot know) leaves at least a quarter of the articles unlike their
    // raw text.
    drop(store);
    assert!(raw_texts_as_stored(&db) < after_crawl.len() * 3 / 4);
}
