//! Several processes storing one site's articles at once: the counts they
//! learn together, and the texts after the re-clean, equal one writer's
//! over the same articles; a deadlock between two batches is retried.

use std::sync::{Arc, Barrier};
use std::thread;

use super::fixtures::{by_body, pg_counts, pg_texts, stream, Mix, Rng};
use crate::boilerplate::LineSettings;
use crate::store::pg::articles::{is_retryable, write_article, Tx};
use crate::store::pg::testing::TestDb;
use crate::store::pg::PgStore;
use crate::store::portable::writes::site_id_created;
use crate::store::rules::ArticleSql;
use crate::store::Which;
use crate::store::{NewArticle, StoreError, WriteOutcome};

fn open(url: &str) -> PgStore {
    PgStore::open(url).unwrap_or_else(|e| panic!("{e}"))
}

/// url → (site, content hash) of the article each stored URL leads to.
fn url_bodies(s: &mut PgStore) -> Vec<(String, String, String)> {
    s.client()
        .query(
            "SELECT u.url, s.name, a.content_hash FROM article_urls u
             JOIN articles a ON a.id = u.article_id JOIN sites s ON s.id = a.site_id
             ORDER BY u.url",
            &[],
        )
        .unwrap_or_else(|e| panic!("{e}"))
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect()
}

#[test]
fn three_writers_sharing_the_articles_learn_the_counts_of_one_writer() {
    // Exact duplicates but no near-duplicates: which of two near copies is
    // the original depends on the order, and so do the lines each teaches;
    // any order of the same exact copies teaches the same.
    let articles = stream(
        Mix {
            stories: 30,
            dup_every: 5,
            near_every: 0,
            refetch_every: 0,
        },
        7,
    );
    let single_db = TestDb::new();
    let mut single = open(&single_db.url);
    for a in &articles {
        single
            .store_articles(std::slice::from_ref(a))
            .unwrap_or_else(|e| panic!("{e}"));
    }

    let shared_db = TestDb::new();
    drop(open(&shared_db.url)); // migrated once, before the writers start
    let mut shuffled = articles.clone();
    Rng::new(3).shuffle(&mut shuffled);
    let writers: Vec<_> = (0..3)
        .map(|w| {
            let share: Vec<(NewArticle, bool)> =
                shuffled.iter().skip(w).step_by(3).cloned().collect();
            let url = shared_db.url.clone();
            thread::spawn(move || {
                let mut store = open(&url);
                for a in &share {
                    store.store_articles(std::slice::from_ref(a))?;
                }
                Ok::<_, StoreError>(())
            })
        })
        .collect();
    for w in writers {
        w.join()
            .unwrap_or_else(|_| panic!("writer panicked"))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let mut shared = open(&shared_db.url);

    let (lc, rc) = pg_counts(&mut single);
    assert!(lc.values().any(|&c| c > 20), "template lines were learned");
    assert_eq!(pg_counts(&mut shared), (lc, rc));
    // Every body stored once, every URL leading to it.
    assert_eq!(url_bodies(&mut shared), url_bodies(&mut single));

    for store in [&mut single, &mut shared] {
        store
            .reclean(None, Which::Changed, |_| LineSettings::default())
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let texts = by_body(&pg_texts(&mut single));
    assert_eq!(by_body(&pg_texts(&mut shared)), texts);
    assert!(texts.values().all(|t| !t.contains("Share this story")));
}

#[test]
fn a_deadlock_between_two_batches_is_retried_not_lost() {
    let articles = stream(
        Mix {
            stories: 1,
            dup_every: 0,
            near_every: 0,
            refetch_every: 0,
        },
        11,
    );
    let (a, b) = (articles[0].0.clone(), articles[1].0.clone());
    assert_ne!(a.site, b.site);
    let db = TestDb::new();
    drop(open(&db.url));
    // Two batches taking the two sites in opposite orders, without
    // `lock_sites`: each holds one site and waits for the other's.
    let barrier = Arc::new(Barrier::new(2));
    let run = |first: NewArticle, second: NewArticle| {
        let (url, barrier) = (db.url.clone(), barrier.clone());
        thread::spawn(move || -> Result<(), StoreError> {
            let mut store = open(&url);
            let mut tx = store.client().transaction()?;
            let stored = write_article(&mut tx, first, false);
            barrier.wait();
            stored?;
            write_article(&mut tx, second, false)?;
            tx.commit()?;
            Ok(())
        })
    };
    let one = run(a.clone(), b.clone());
    let two = run(b.clone(), a.clone());
    let results = [one, two].map(|t| t.join().unwrap_or_else(|_| panic!("panicked")));
    let failed: Vec<&StoreError> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert_eq!(failed.len(), 1, "{results:?}");
    assert!(is_retryable(failed[0]), "{}", failed[0]);

    // The victim's batch run again (what `store_articles` does): both
    // articles are there once, counted once.
    let mut store = open(&db.url);
    let again = store
        .store_articles(&[(a, false), (b, false)])
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        again
            .iter()
            .all(|o| matches!(o, WriteOutcome::ArticleDuplicate { .. })),
        "{again:?}"
    );
    let (_, rc) = pg_counts(&mut store);
    assert_eq!(rc.values().copied().collect::<Vec<_>>(), [1, 1]);
}

#[test]
fn batches_of_several_sites_from_three_writers_never_deadlock() {
    let articles = stream(
        Mix {
            stories: 12,
            dup_every: 0,
            near_every: 0,
            refetch_every: 0,
        },
        5,
    );
    let db = TestDb::new();
    drop(open(&db.url));
    let writers: Vec<_> = (0..3u64)
        .map(|w| {
            let mut mine = articles.clone();
            Rng::new(w + 1).shuffle(&mut mine);
            let url = db.url.clone();
            thread::spawn(move || {
                let mut store = open(&url);
                let mut tx_count = 0;
                for batch in mine.chunks(3) {
                    // One attempt: `lock_sites` orders the sites, so no
                    // batch may fail as a deadlock's victim.
                    let mut tx = store.client().transaction()?;
                    let mut sites: Vec<&str> = batch.iter().map(|(a, _)| a.site.as_str()).collect();
                    sites.sort_unstable();
                    let mut w = Tx::plain(&mut tx);
                    let mut ids = Vec::new();
                    for site in sites {
                        ids.push(site_id_created(&mut w, site)?);
                    }
                    ids.sort_unstable();
                    ids.dedup();
                    w.lock_sites(&ids)?;
                    for (a, refetch) in batch {
                        write_article(&mut tx, a.clone(), *refetch)?;
                    }
                    tx.commit()?;
                    tx_count += 1;
                }
                Ok::<_, StoreError>(tx_count)
            })
        })
        .collect();
    for w in writers {
        let done = w
            .join()
            .unwrap_or_else(|_| panic!("writer panicked"))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(done, articles.len().div_ceil(3));
    }
    let mut store = open(&db.url);
    let (_, rc) = pg_counts(&mut store);
    // Each article learned once, whichever writer stored it first.
    assert_eq!(rc.values().sum::<i64>(), articles.len() as i64);
}
