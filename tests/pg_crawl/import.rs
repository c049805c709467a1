//! Three `newshound import` processes on one PostgreSQL database with one
//! list of archive files: each file is read by one of them, the one killed
//! with -9 while it holds a file has that file taken over when its lease
//! ends, and at the end every page is stored once and every record
//! counted once.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::warc_files::{warc_gz, web_records};
use crate::{finish, Setup};
use newshound::simweb::SimWebSpec;
use newshound::store::pg::PgStore;
use newshound::store::AnyStore;

/// A number after `label` on a line of an import's summary.
fn number_after(summary: &str, label: &str) -> u64 {
    let at = summary
        .find(label)
        .unwrap_or_else(|| panic!("{label:?} in {summary}"));
    summary[at + label.len()..]
        .split(|c: char| !c.is_ascii_digit())
        .find(|s| !s.is_empty())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a number after {label:?} in {summary}"))
}

/// The rows of a query of two columns.
fn pairs<A, B>(client: &mut postgres::Client, sql: &str) -> Vec<(A, B)>
where
    A: for<'a> postgres::types::FromSql<'a>,
    B: for<'a> postgres::types::FromSql<'a>,
{
    client
        .query(sql, &[])
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect()
}

#[test]
fn import_processes_share_one_list_of_files_and_take_over_a_dead_ones() {
    let spec = SimWebSpec {
        sites: 2,
        articles_per_site: 300,
        seed: 71,
        faults: false,
    };
    let setup = Setup::new(spec, 50.0, "[store]\nlease_seconds = 5");
    // Three files of 200 pages each (with noise records), one per
    // process, one site's pages spread over several files.
    let records = web_records(setup.web(), 300, true);
    let pages = 600;
    let per_file = records.len().div_ceil(3);
    let files: Vec<_> = records
        .chunks(per_file)
        .enumerate()
        .map(|(i, chunk)| {
            let path = setup.dir.path().join(format!("part-{i}.warc.gz"));
            std::fs::write(&path, warc_gz(chunk)).expect("write archive");
            path
        })
        .collect();
    drop(PgStore::open(&setup.db.url).expect("migrate"));
    let import = || -> Child {
        Command::new(env!("CARGO_BIN_EXE_newshound"))
            .arg("--config")
            .arg(&setup.config)
            .arg("--db")
            .arg(&setup.db.url)
            .arg("import")
            .args(&files)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn newshound import")
    };
    let mut client = postgres::Client::connect(&setup.db.url, postgres::NoTls).expect("connect");
    let holders = |client: &mut postgres::Client| -> Vec<String> {
        client
            .query(
                "SELECT leased_by FROM import_files WHERE leased_by IS NOT NULL",
                &[],
            )
            .map(|rows| rows.iter().map(|r| r.get(0)).collect())
            .unwrap_or_default()
    };
    let mut victim = import();
    let victim_mark = format!(":{}:", victim.id());
    let others = [import(), import()];
    // The victim dies holding a file (read in part or not at all: an
    // import commits every 2 s, and a file may take it less; resuming a
    // file half-read is `tests/crawl/import_kill`'s).
    let started = Instant::now();
    loop {
        let held = holders(&mut client);
        if held.iter().any(|h| h.contains(&victim_mark)) {
            break;
        }
        if let Some(status) = victim.try_wait().unwrap() {
            let mut err = String::new();
            let _ = std::io::Read::read_to_string(victim.stderr.as_mut().unwrap(), &mut err);
            panic!("the victim ended ({status}) before it held a file: {err}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the victim never held a file"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    victim.kill().expect("kill -9");
    let _ = victim.wait();
    let mut read = 0;
    for child in others {
        let out = finish(child);
        assert!(
            out.status.success(),
            "a surviving import failed: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        // How many files each survivor read is the scheduler's: under load
        // one may start late and find every file claimed (the victim's
        // still leased), so only their sum is checked below.
        let summary = String::from_utf8_lossy(&out.stdout).into_owned();
        read += number_after(&summary, "s: ");
    }
    let done: Vec<(String, i64)> = pairs(
        &mut client,
        "SELECT state, records FROM import_files ORDER BY id",
    );
    println!("files: {done:?}; read to the end by the survivors: {read}");
    assert!(done.iter().all(|(state, _)| state == "done"), "{done:?}");
    let records_counted: i64 = done.iter().map(|(_, n)| n).sum();
    assert_eq!(
        records_counted as usize,
        records.len(),
        "records counted once"
    );
    // The survivors read the files the victim did not finish, the one it
    // held included (it finished at most the others).
    assert!(read >= 2, "{read}");
    let (articles, _) = setup.stored();
    assert_eq!(articles.len(), pages, "every page stored");
    assert!(articles.values().all(|&n| n == 1), "a page stored twice");
    // Each page is kept as its record's gzip member, and reads back from
    // PostgreSQL as it was archived.
    let members: i64 = client
        .query_one(
            "SELECT count(*) FROM article_html WHERE substring(body_zstd FROM 1 FOR 2) = '\\x1f8b'::bytea",
            &[],
        )
        .expect("kept pages")
        .get(0);
    assert_eq!(members as usize, pages, "every page kept as its member");
    let sample: Vec<(i64, String)> = pairs(
        &mut client,
        "SELECT id, url FROM articles ORDER BY id LIMIT 20",
    );
    let mut store = AnyStore::from(PgStore::open(&setup.db.url).expect("open"));
    for (id, url) in sample {
        let kept = store.kept_html(id).expect("read").expect("a kept page");
        let archived = setup
            .web()
            .page_html(&url.parse().expect("url"))
            .expect("a page");
        assert_eq!(kept.body, archived.as_bytes(), "{url}");
    }
}
