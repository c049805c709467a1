//! `import` through the library, on archives of the simulated web: the
//! round trip with `export --format warc`, noise records counted and left
//! out, bad files named (and a cut one read on later without a page lost
//! or stored twice), `--any-site` and the filters.

use std::path::{Path, PathBuf};

use crate::support::{start_web, stored};
use crate::warc_files::{warc_gz, web_records, ARCHIVED_MS};
use newshound::config::Config;
use newshound::export::{self, Format};
use newshound::import::{self, Filters, ImportOptions, ImportSummary};
use newshound::simweb::SimWebSpec;
use newshound::store::{AnyStore, Selection, Store, StoredArticle};
use newshound::warc::WarcReader;

/// Import into the SQLite store at `db` (created if new), to the end.
pub async fn import_into(cfg: &Config, db: &Path, opts: ImportOptions) -> ImportSummary {
    let open = || AnyStore::from(Store::open(db).expect("open store"));
    let opts = ImportOptions {
        sole_user: true,
        ..opts
    };
    import::run(cfg, open(), open(), opts, std::future::pending())
        .await
        .unwrap_or_else(|e| panic!("import: {e}"))
}

fn files(list: &[&PathBuf]) -> ImportOptions {
    ImportOptions {
        files: list.iter().map(|p| p.to_path_buf()).collect(),
        ..ImportOptions::default()
    }
}

fn spec(seed: u64) -> SimWebSpec {
    SimWebSpec {
        sites: 3,
        articles_per_site: 12,
        seed,
        faults: false,
    }
}

/// What must survive a round trip of an article.
fn key(
    a: &StoredArticle,
) -> (
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    String,
    i64,
) {
    (
        a.url.clone(),
        a.site.clone(),
        a.article.title.clone(),
        a.article.published_at.clone(),
        a.article.modified_at.clone(),
        a.article.text.clone(),
        // WARC-Date has whole seconds.
        a.fetched_at / 1000,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crawls_warc_export_imported_into_a_new_database_gives_the_same_articles() {
    let (web, dir, cfg) = start_web(spec(41)).await;
    let crawled = dir.path().join("crawled.db");
    crate::corpus_out::crawl_into(&cfg, &crawled).await;
    web.shutdown().await;
    let mut warc = Vec::new();
    let mut store = AnyStore::from(Store::open(&crawled).unwrap());
    export::write(&mut store, &Selection::default(), Format::Warc, &mut warc).unwrap();
    drop(store);
    let file = dir.path().join("corpus.warc.gz");
    std::fs::write(&file, &warc).unwrap();

    let imported = dir.path().join("imported.db");
    let summary = import_into(&cfg, &imported, files(&[&file])).await;
    let before = stored(&crawled);
    let after = stored(&imported);
    assert_eq!(summary.articles_stored as usize, before.len(), "{summary}");
    assert_eq!(summary.files_read, 1, "{summary}");
    assert_eq!(summary.skipped.get("warcinfo"), Some(&1), "{summary}");
    let mut a: Vec<_> = before.iter().map(key).collect();
    let mut b: Vec<_> = after.iter().map(key).collect();
    a.sort();
    b.sort();
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x, y, "an article changed on the way");
    }
    // Canonical URLs too, and every article keeps its page.
    let canon = |v: &[StoredArticle]| {
        let mut c: Vec<_> = v
            .iter()
            .map(|a| (a.url.clone(), a.article.canonical_url.clone()))
            .collect();
        c.sort();
        c
    };
    assert_eq!(canon(&before), canon(&after));
    let mut store = AnyStore::from(Store::open(&imported).unwrap());
    assert_eq!(store.kept_sizes().unwrap().pages, after.len() as u64);
    // Each page is kept as its record's gzip member, not compressed again,
    // and reads back as the crawl kept it.
    let members: i64 = rusqlite::Connection::open(&imported)
        .unwrap()
        .query_row(
            "SELECT count(*) FROM article_html WHERE substr(body_zstd, 1, 2) = X'1f8b'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(members as usize, after.len());
    let mut crawled_store = AnyStore::from(Store::open(&crawled).unwrap());
    let page = |store: &mut AnyStore, url: &str, all: &[StoredArticle]| {
        let id = all.iter().find(|a| a.url == url).unwrap().id;
        let html = store.kept_html(id).unwrap().expect("a kept page");
        (html.url, html.status, html.headers, html.body)
    };
    for a in &before {
        assert_eq!(
            page(&mut store, &a.url, &after),
            page(&mut crawled_store, &a.url, &before),
            "{}",
            a.url
        );
    }
    drop(crawled_store);
    // Imported again: done before, nothing read twice.
    drop(store);
    let again = import_into(&cfg, &imported, files(&[&file])).await;
    assert_eq!((again.files_already_done, again.records), (1, 0), "{again}");
    assert_eq!(stored(&imported).len(), after.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn noise_records_are_counted_and_left_out() {
    let (web, dir, cfg) = start_web(spec(42)).await;
    let records = web_records(&web, 4, true);
    web.shutdown().await;
    let file = dir.path().join("noisy.warc.gz");
    std::fs::write(&file, warc_gz(&records)).unwrap();
    let db = dir.path().join("noisy.db");
    let summary = import_into(&cfg, &db, files(&[&file])).await;
    let pages = 3 * 4;
    assert_eq!(summary.records as usize, records.len(), "{summary}");
    assert_eq!(summary.pages, pages, "{summary}");
    for (reason, n) in [
        ("request", pages),
        ("metadata", pages),
        ("status", pages),
        ("not_html", pages),
        ("site", pages),
        ("warcinfo", 1),
    ] {
        assert_eq!(summary.skipped.get(reason), Some(&n), "{reason}: {summary}");
    }
    assert_eq!(summary.articles_stored, pages, "{summary}");
    let text = summary.to_string();
    assert!(
        text.contains("left out:") && text.contains("request 12"),
        "{text}"
    );
    // Each article stored under its site, dated by WARC-Date.
    let articles = stored(&db);
    assert!(articles.iter().all(|a| a.fetched_at == ARCHIVED_MS));
    let sites: std::collections::BTreeSet<_> = articles.iter().map(|a| a.site.clone()).collect();
    assert_eq!(sites.len(), 3);
}

/// The records of a gzip-per-record file, as each record's bytes.
fn split_records(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut reader = WarcReader::new(bytes, 0).unwrap();
    let mut starts = Vec::new();
    while let Some(head) = reader.next_head().unwrap() {
        starts.push(head.resume.offset as usize);
    }
    starts.push(bytes.len());
    starts
        .windows(2)
        .map(|w| bytes[w[0]..w[1]].to_vec())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_files_are_named_and_a_cut_file_is_read_on_later_without_loss_or_repeat() {
    let (web, dir, cfg) = start_web(spec(43)).await;
    let records = web_records(&web, 6, false);
    web.shutdown().await;
    let all = split_records(&warc_gz(&records));
    // Two halves of the pages; the second one cut inside its last record.
    let half = all.len() / 2;
    let first: Vec<u8> = all[..half].concat();
    let second: Vec<u8> = all[half..].concat();
    let archives = dir.path().join("archives");
    std::fs::create_dir(&archives).unwrap();
    let write = |name: &str, bytes: &[u8]| std::fs::write(archives.join(name), bytes).unwrap();
    write("a-first.warc.gz", &first);
    write("b-second.warc.gz", &second[..second.len() - 40]);
    write("c-empty.warc.gz", b"");
    write(
        "d-old.arc",
        b"filedesc://IA-001102.arc 0.0.0.0 20001102000000 text/plain 76\n",
    );
    write(
        "e-page.warc",
        b"<!DOCTYPE html><html><body>not an archive</body></html>",
    );
    write("notes.txt", b"not an archive by its name: not read");
    let db = dir.path().join("cut.db");
    let summary = import_into(&cfg, &db, files(&[&archives])).await;
    assert_eq!(summary.files, 5, "{summary}");
    assert_eq!(summary.files_read, 1, "{summary}");
    let failed: Vec<&str> = summary
        .files_failed
        .iter()
        .map(|(_, why)| why.as_str())
        .collect();
    assert_eq!(failed.len(), 3, "{summary}");
    assert!(failed[0].contains("empty file"), "{failed:?}");
    assert!(
        failed[1].contains("ARC file") && failed[1].contains("not supported"),
        "{failed:?}"
    );
    assert!(failed[2].contains("not a WARC file"), "{failed:?}");
    assert_eq!(summary.files_retry.len(), 1, "{summary}");
    assert!(summary.files_retry[0].0.ends_with("b-second.warc.gz"));
    assert!(summary.files_retry[0].1.contains("gzip"), "{summary}");
    let pages = records.len() - 1;
    let first_run = stored(&db).len();
    assert!(
        first_run < pages && first_run >= half - 1,
        "{first_run} of {pages}"
    );

    // The cut file arrives whole: the next import reads it on from where it
    // stopped; the failed files stay failed, the first is done.
    write("b-second.warc.gz", &second);
    let again = import_into(&cfg, &db, files(&[&archives])).await;
    assert_eq!(again.files_already_done, 1, "{again}");
    assert_eq!(again.files_read, 1, "{again}");
    assert_eq!(again.files_failed.len(), 3, "{again}");
    assert_eq!(again.duplicates, 0, "nothing stored twice: {again}");
    assert!(
        again.records < (all.len() - half) as u64,
        "read on, not again: {again}"
    );
    let articles = stored(&db);
    assert_eq!(articles.len(), pages, "nothing lost");
    let mut urls: Vec<&str> = articles.iter().map(|a| a.url.as_str()).collect();
    urls.dedup();
    assert_eq!(urls.len(), pages);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn any_site_takes_every_host_as_a_site_of_its_own() {
    let (web, dir, _) = start_web(spec(44)).await;
    let records = web_records(&web, 3, false);
    let first = web.sites()[0].clone();
    web.shutdown().await;
    let file = dir.path().join("any.warc.gz");
    std::fs::write(&file, warc_gz(&records)).unwrap();
    // A config that knows the first site only.
    let text = format!(
        "[[sites]]\nname = \"known\"\nstart = [\"{}\"]\n",
        first.base_url
    );
    let one = Config::parse(&text, Path::new("one.toml"), dir.path()).unwrap();
    let db = dir.path().join("any.db");
    let only = import_into(&one, &db, files(&[&file])).await;
    assert_eq!(only.articles_stored, 3, "{only}");
    assert_eq!(only.skipped.get("site"), Some(&6), "{only}");

    let db = dir.path().join("any2.db");
    let opts = ImportOptions {
        any_site: true,
        ..files(&[&file])
    };
    let all = import_into(&one, &db, opts).await;
    assert_eq!(all.articles_stored, 9, "{all}");
    let names: std::collections::BTreeSet<String> = all
        .articles_by_site
        .iter()
        .map(|(s, _)| s.clone())
        .collect();
    assert!(names.contains("known"), "{names:?}");
    // The others are named from their hosts (127.0.0.1:PORT), as `sites
    // add` names a site.
    let port = |u: &url::Url| u.port().unwrap();
    for site in &records_hosts(&records)[1..] {
        let expect = format!("127-0-0-1-{}", port(site));
        assert!(names.contains(&expect), "{expect} in {names:?}");
    }
}

/// The distinct hosts of the records' pages, in order.
fn records_hosts(records: &[newshound::export::warc::Record]) -> Vec<url::Url> {
    let mut hosts: Vec<url::Url> = Vec::new();
    for r in records {
        let Some((_, uri)) = r.fields.iter().find(|(n, _)| *n == "WARC-Target-URI") else {
            continue;
        };
        let Ok(mut u) = url::Url::parse(uri) else {
            continue;
        };
        u.set_path("/");
        if !hosts.contains(&u) {
            hosts.push(u);
        }
    }
    hosts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_date_and_language_filters_leave_articles_out() {
    let (web, dir, cfg) = start_web(spec(45)).await;
    let records = web_records(&web, 6, true);
    web.shutdown().await;
    let file = dir.path().join("dated.warc.gz");
    std::fs::write(&file, warc_gz(&records)).unwrap();
    let run = |filters: Filters, name: &str| {
        let db = dir.path().join(name);
        let opts = ImportOptions {
            filters,
            ..files(&[&file])
        };
        let cfg = cfg.clone();
        async move { (import_into(&cfg, &db, opts).await, stored(&db)) }
    };
    let (everything, all) = run(Filters::default(), "all.db").await;
    assert_eq!(everything.articles_stored, 18, "{everything}");
    // The middle publication date splits the articles.
    let mut dates: Vec<_> = all
        .iter()
        .map(|a| {
            chrono::DateTime::parse_from_rfc3339(a.article.published_at.as_deref().unwrap())
                .unwrap()
        })
        .collect();
    dates.sort();
    let middle = dates[dates.len() / 2];
    let (since, kept) = run(
        Filters {
            since: Some(middle),
            ..Filters::default()
        },
        "since.db",
    )
    .await;
    let expect = dates.iter().filter(|d| **d >= middle).count();
    assert_eq!(kept.len(), expect, "{since}");
    assert_eq!(
        since.skipped.get("date").copied(),
        Some((dates.len() - expect) as u64),
        "{since}"
    );
    let (until, kept) = run(
        Filters {
            until: Some(middle),
            ..Filters::default()
        },
        "until.db",
    )
    .await;
    assert_eq!(
        kept.len(),
        dates.iter().filter(|d| **d <= middle).count(),
        "{until}"
    );
    let language = all[0].article.language.clone().expect("a language");
    let (same, kept) = run(
        Filters {
            lang: Some(language),
            ..Filters::default()
        },
        "lang.db",
    )
    .await;
    assert!(!kept.is_empty(), "{same}");
    let (other, kept) = run(
        Filters {
            lang: Some("zzz".into()),
            ..Filters::default()
        },
        "zzz.db",
    )
    .await;
    assert!(kept.is_empty(), "{other}");
    assert_eq!(other.skipped.get("lang"), Some(&18), "{other}");
}
