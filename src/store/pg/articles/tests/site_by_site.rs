//! A batch's articles written site by site: a site's learning lock is held
//! only while that site's articles are written, and a batch stopped between
//! two sites leaves every site's counts agreeing with its stored articles.

use postgres::{Client, NoTls};

use super::fixtures::{pg_counts, stream, Mix};
use crate::store::pg::articles::locks::{site_by_site, Commit, SITE_LOCK_CLASS};
use crate::store::pg::articles::write_article;
use crate::store::pg::testing::TestDb;
use crate::store::pg::PgStore;
use crate::store::{StoreError, WriteOutcome};

fn open(url: &str) -> PgStore {
    PgStore::open(url).unwrap_or_else(|e| panic!("{e}"))
}

fn articles() -> Vec<(crate::store::NewArticle, bool)> {
    stream(
        Mix {
            stories: 4,
            dup_every: 0,
            near_every: 0,
            refetch_every: 0,
        },
        21,
    )
}

/// Whether another session could take the site's learning lock now (it
/// is released again at once).
fn lock_is_free(other: &mut Client, site: &str) -> bool {
    let id: i64 = other
        .query_one("SELECT id FROM sites WHERE name = $1", &[&site])
        .unwrap_or_else(|e| panic!("{e}"))
        .get(0);
    let key = i32::try_from(id).unwrap_or_else(|e| panic!("{e}"));
    let free: bool = other
        .query_one(
            "SELECT pg_try_advisory_lock($1, $2)",
            &[&SITE_LOCK_CLASS, &key],
        )
        .unwrap_or_else(|e| panic!("{e}"))
        .get(0);
    if free {
        other
            .execute(
                "SELECT pg_advisory_unlock($1, $2)",
                &[&SITE_LOCK_CLASS, &key],
            )
            .unwrap_or_else(|e| panic!("{e}"));
    }
    free
}

fn stored_of(other: &mut Client, site: &str) -> i64 {
    other
        .query_one(
            "SELECT count(*) FROM articles a JOIN sites s ON s.id = a.site_id WHERE s.name = $1",
            &[&site],
        )
        .unwrap_or_else(|e| panic!("{e}"))
        .get(0)
}

#[test]
fn a_batch_holds_a_sites_learning_lock_only_while_that_site_is_written() {
    let db = TestDb::new();
    let mut store = open(&db.url);
    let mut other = Client::connect(&db.url, NoTls).unwrap_or_else(|e| panic!("{e}"));
    // The sites exist (committed), so the other session can name their locks.
    other
        .batch_execute("INSERT INTO sites (name) VALUES ('alpha'), ('beta'), ('gamma')")
        .unwrap_or_else(|e| panic!("{e}"));
    let batch = articles();
    let sites: Vec<Option<&str>> = batch.iter().map(|(a, _)| Some(a.site.as_str())).collect();
    // (site being written, sites whose lock another session could take,
    // articles of the earlier sites it sees committed) at each write.
    let mut seen: Vec<(String, Vec<String>, i64)> = Vec::new();
    let write = |tx: &mut postgres::Transaction<'_>, i: usize| {
        let (a, refetch) = &batch[i];
        let out = write_article(tx, a.clone(), *refetch)?;
        let free = ["alpha", "beta", "gamma"]
            .into_iter()
            .filter(|s| *s < a.site.as_str() && lock_is_free(&mut other, s))
            .map(String::from)
            .collect();
        let earlier = ["alpha", "beta", "gamma"]
            .into_iter()
            .filter(|s| *s < a.site.as_str())
            .map(|s| stored_of(&mut other, s))
            .sum();
        assert!(!lock_is_free(&mut other, &a.site), "{} unlocked", a.site);
        seen.push((a.site.clone(), free, earlier));
        Ok::<_, StoreError>(out)
    };
    let client = store.client();
    let out = site_by_site(client, &sites, Commit::Durable, write, || {})
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(out
        .iter()
        .all(|o| matches!(o, Some(WriteOutcome::ArticleStored { .. }))));
    // Sites in name order; while one is written, the ones before it are
    // committed and their locks free.
    let last_of = |site: &str| seen.iter().rfind(|(s, _, _)| s == site).cloned();
    assert_eq!(last_of("alpha"), Some(("alpha".into(), vec![], 0)));
    assert_eq!(
        last_of("beta"),
        Some(("beta".into(), vec!["alpha".into()], 4))
    );
    assert_eq!(
        last_of("gamma"),
        Some(("gamma".into(), vec!["alpha".into(), "beta".into()], 8))
    );
}

#[test]
fn a_batch_stopped_between_two_sites_leaves_counts_agreeing_with_articles() {
    let db = TestDb::new();
    let mut store = open(&db.url);
    let batch = articles();
    let sites: Vec<Option<&str>> = batch.iter().map(|(a, _)| Some(a.site.as_str())).collect();
    // The process dies while writing beta's last article: alpha is in,
    // beta's transaction never commits, gamma never starts.
    let last_beta = batch.iter().rposition(|(a, _)| a.site == "beta");
    let write = |tx: &mut postgres::Transaction<'_>, i: usize| {
        if Some(i) == last_beta {
            tx.batch_execute("SELECT pg_terminate_backend(pg_backend_pid())")?;
        }
        let (a, refetch) = &batch[i];
        write_article(tx, a.clone(), *refetch)
    };
    let client = store.client();
    let failed = site_by_site(client, &sites, Commit::FlushedByNext, write, || {});
    assert!(failed.is_err(), "{failed:?}");

    let mut store = open(&db.url);
    let agree = |store: &mut PgStore| {
        let (_, rc) = pg_counts(store);
        let mut other = Client::connect(&db.url, NoTls).unwrap_or_else(|e| panic!("{e}"));
        for site in ["alpha", "beta", "gamma"] {
            let stored = stored_of(&mut other, site);
            assert_eq!(rc.get(site).copied().unwrap_or(0), stored, "{site}");
        }
        rc
    };
    let rc = agree(&mut store);
    assert_eq!(rc.get("alpha"), Some(&4), "{rc:?}");
    assert_eq!(rc.get("beta"), None, "{rc:?}");

    // Run again (another process, once the leases ended): alpha's are
    // duplicates by URL, learning nothing; the rest are stored once.
    let again = store
        .store_articles(&batch)
        .unwrap_or_else(|e| panic!("{e}"));
    for ((a, _), o) in batch.iter().zip(&again) {
        match a.site.as_str() {
            "alpha" => assert!(matches!(o, WriteOutcome::ArticleDuplicate { .. }), "{o:?}"),
            _ => assert!(matches!(o, WriteOutcome::ArticleStored { .. }), "{o:?}"),
        }
    }
    let rc = agree(&mut store);
    assert_eq!(rc.values().copied().collect::<Vec<_>>(), [4, 4, 4]);
}
