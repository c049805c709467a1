//! The store's outputs, recorded for a before/after comparison of a change
//! that must not change behaviour (run by hand, see
//! `docs/dev/store-snapshot.sh`):
//!
//! `NEWSHOUND_SNAPSHOT_DIR=dir cargo test --test pg_crawl -- --ignored store_outputs_snapshot`
//!
//! In: the simulated web crawled by the real binary into SQLite and into
//! PostgreSQL (one worker, so both crawls store the pages in one order).
//! Out: `dir/{sqlite,pg}/NN-name.txt`: exports (JSONL, CSV, Markdown,
//! WARC), `stats --json`, searches, then `reclean` and `reextract` with the
//! exports after each; fetch times, record ids, digests, dates of the
//! servers' replies, temporary paths and the web's ports masked. The
//! crawl's workers still store the pages in an order of their own, so
//! article ids differ from run to run: compare the files' sorted lines
//! (`docs/dev/store-snapshot.sh compare`).

use std::io::Read;
use std::path::Path;
use std::process::Command;

use newshound::simweb::SimWebSpec;

use crate::{finish, Setup};

/// The commands run on each store, in order, with the file each output
/// goes to. `OUT` stands for a file the command writes (`--out`).
const STEPS: &[(&str, &[&str])] = &[
    ("export-jsonl", &["export"]),
    ("export-csv", &["export", "--format", "csv"]),
    ("export-markdown", &["export", "--format", "markdown"]),
    (
        "export-warc",
        &["export", "--format", "warc", "--out", "OUT"],
    ),
    ("stats", &["stats", "--json"]),
    ("stats-top", &["stats", "--top", "5"]),
    ("search-reform", &["search", "reform", "--json"]),
    ("search-minister", &["search", "minister"]),
    (
        "search-site",
        &["search", "the", "--site", "planet", "--json"],
    ),
    ("reclean-site", &["reclean", "--site", "globe"]),
    ("reclean", &["reclean"]),
    ("after-reclean", &["export"]),
    ("reextract", &["reextract"]),
    ("after-reextract", &["export"]),
    (
        "after-reextract-markdown",
        &["export", "--format", "markdown"],
    ),
    ("stats-after", &["stats", "--json"]),
];

#[test]
#[ignore = "records outputs for a before/after comparison (see the module doc)"]
fn store_outputs_snapshot() {
    let out_dir = std::env::var_os("NEWSHOUND_SNAPSHOT_DIR")
        .expect("set NEWSHOUND_SNAPSHOT_DIR to the directory to write to");
    let spec = SimWebSpec {
        sites: 3,
        articles_per_site: 20,
        seed: 24,
        faults: false,
    };
    let setup = Setup::new(spec, 50.0, "[store]\nkeep_html = true\n");
    // One worker, one request per host at a time: the pages are stored in
    // one order on both stores, so learning sees them in that order.
    let toml = std::fs::read_to_string(&setup.config).expect("config");
    let toml = toml
        .replace("concurrency = 8", "concurrency = 1")
        .replace("per_host_concurrency = 4", "per_host_concurrency = 1");
    std::fs::write(&setup.config, toml).expect("config");
    let sqlite = setup.dir.path().join("snapshot.db");
    let stores = [
        ("sqlite", sqlite.to_string_lossy().into_owned()),
        ("pg", setup.db.url.clone()),
    ];
    for (name, db) in &stores {
        let crawl = finish(setup.crawl_into(Path::new(db)));
        assert!(crawl.status.success(), "{name}: crawl failed");
        let dir = Path::new(&out_dir).join(name);
        std::fs::create_dir_all(&dir).expect("snapshot dir");
        for (n, (step, args)) in STEPS.iter().enumerate() {
            let text = run_step(&setup, db, args);
            std::fs::write(dir.join(format!("{n:02}-{step}.txt")), mask(&text)).expect("write");
        }
    }
}

/// One command's output: its stdout, or the file it wrote, and its stderr
/// when it failed.
fn run_step(setup: &Setup, db: &str, args: &[&str]) -> String {
    let file = setup.dir.path().join("out.bin");
    let _ = std::fs::remove_file(&file);
    let file_arg = file.to_string_lossy().into_owned();
    let args: Vec<&str> = args
        .iter()
        .map(|a| if *a == "OUT" { file_arg.as_str() } else { a })
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_newshound"))
        .arg("--config")
        .arg(&setup.config)
        .arg("--db")
        .arg(db)
        .args(&args)
        .current_dir(setup.dir.path())
        .output()
        .expect("run newshound");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    if file.exists() {
        // WARC: one gzip member per record.
        let bytes = std::fs::read(&file).expect("read output");
        let mut plain = Vec::new();
        flate2::read::MultiGzDecoder::new(&bytes[..])
            .read_to_end(&mut plain)
            .expect("gunzip");
        text.push_str(&String::from_utf8_lossy(&plain));
    }
    if !out.status.success() {
        text.push_str(&format!(
            "\nexit {:?}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    text
}

/// What changes from run to run masked: ports, fetch times, ids, digests.
fn mask(text: &str) -> String {
    let rules: &[(&str, &str)] = &[
        (r"127\.0\.0\.1:\d+", "127.0.0.1:PORT"),
        (r#""fetched_at":"[^"]*""#, r#""fetched_at":"TIME""#),
        (r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", "FETCHED-TIME"),
        (r"WARC-Date: .*", "WARC-Date: TIME"),
        (r"(?m)^ETag: .*", "ETag: TAG"),
        (r"/tmp/\.tmp[A-Za-z0-9]+/", "/tmp/DIR/"),
        (r"postgres://[^ :]+", "postgres://DB"),
        (r"(?m)^Date: .*", "Date: TIME"),
        (r"<urn:uuid:[^>]*>", "<urn:uuid:ID>"),
        (r"(WARC-[A-Za-z]+-Digest): .*", "$1: DIGEST"),
        (r#""id":\s*\d+"#, r#""id":ID"#),
        (r"(?m)^\d+,", "ID,"),
        // Right-aligned ids: their width varies with the crawl's order.
        (r"(?m)^\s*\d+\s+\[", "ID ["),
        (r"(?m)^(id|article): \d+", "$1: ID"),
        (r"newshound/\d+\.\d+\.\d+", "newshound/VERSION"),
        (r"in \d+(\.\d+)? ?(ms|s)\b", "in SECS"),
    ];
    let mut text = text.to_string();
    for (pattern, with) in rules {
        let re = regex::Regex::new(pattern).expect("mask pattern");
        text = re.replace_all(&text, *with).into_owned();
    }
    text
}
