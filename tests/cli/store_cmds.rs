//! `search`, `show`, `export` (every format), `stats`, `reclean`, `reextract`
//! on good and bad input.

use crate::support::{
    assert_clean_failure, assert_usage_error, demo_db, newshound, stderr, stdout,
};
use chrono::{DateTime, FixedOffset, NaiveDate, TimeDelta, Utc};

#[test]
fn search_with_no_words_is_an_error_not_an_empty_result() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 3);
    for q in ["", "   ", "*", "\"", "(", "-"] {
        let out = newshound(&["--db", "demo.db", "search", q], dir.path());
        assert_clean_failure(&out, "has no words to look for");
    }
}

#[test]
fn search_limit_zero_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = newshound(
        &["--db", "demo.db", "search", "x", "--limit", "0"],
        dir.path(),
    );
    assert_usage_error(&out, "must be at least 1");
}

#[test]
fn search_fts_syntax_beyond_ours_is_plain_text_and_no_match_goes_to_stderr() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 3);
    for q in [
        "foo AND",
        "NEAR(",
        "title:x",
        "zzqq OR NOT",
        "\"unclosed",
        "x*",
    ] {
        let out = newshound(&["--db", "demo.db", "search", q], dir.path());
        assert!(out.status.success(), "{q}: {}", stderr(&out));
        assert_eq!(stdout(&out), "", "{q}: data only on stdout");
        assert!(stderr(&out).contains("no articles match"), "{q}");
    }
    let out = newshound(&["--db", "demo.db", "search", "zzqq", "--json"], dir.path());
    assert_eq!(stdout(&out).trim(), "[]");
}

#[test]
fn show_names_what_was_not_found() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 3);
    let db = ["--db", "demo.db", "show"];
    let run = |arg: &str| newshound(&[&db[..], &[arg]].concat(), dir.path());
    assert_clean_failure(&run("999999"), "no article with id 999999");
    assert_clean_failure(&run(""), "give an article id");
    assert_clean_failure(&run("not a url"), "neither an article id nor a URL");
    assert_clean_failure(
        &run("http://127.0.0.1:9/x"),
        "no stored article has this URL",
    );
    // Surrounding blanks (copied from a terminal) are not part of the id.
    let out = run(" 1 ");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("site "));
}

#[test]
fn export_unknown_site_lists_known_ones_and_creates_no_file() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 3);
    let out = newshound(
        &[
            "--db", "demo.db", "export", "--site", "nope", "--out", "x.jsonl",
        ],
        dir.path(),
    );
    assert_clean_failure(&out, "unknown site \"nope\"");
    assert!(stderr(&out).contains("globe"), "{}", stderr(&out));
    assert!(!dir.path().join("x.jsonl").exists());
}

#[test]
fn export_out_in_missing_directory_is_named() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 3);
    let out = newshound(
        &["--db", "demo.db", "export", "--out", "no/such/dir/x.jsonl"],
        dir.path(),
    );
    assert_clean_failure(&out, "no/such/dir/x.jsonl: cannot create");
}

#[test]
fn reclean_unknown_site_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 3);
    let out = newshound(
        &["--db", "demo.db", "reclean", "--site", "nope"],
        dir.path(),
    );
    assert_clean_failure(&out, "unknown site \"nope\"");
}

#[test]
fn stats_of_empty_database_prints_no_table() {
    let dir = tempfile::tempdir().unwrap();
    // A database with the schema and nothing in it (an empty file is not
    // a database: `errors::regression_read_commands_wrote_a_schema…`).
    drop(newshound::store::Store::open(&dir.path().join("empty.db")).unwrap());
    let out = newshound(&["--db", "empty.db", "stats"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).contains("holds no sites yet"));
}

#[test]
fn stats_json_includes_top_lines_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 3);
    let out = newshound(
        &["--db", "demo.db", "stats", "--json", "--top", "2"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let sites = v.as_array().unwrap();
    assert_eq!(sites.len(), 3);
    let mut listed = 0;
    for s in sites {
        let top = s["top_lines"].as_array().unwrap();
        assert!(top.len() <= 2, "{s}");
        // Only lines that recur (seen in 2+ articles) are listed.
        for line in top {
            assert!(line["count"].as_u64().unwrap() >= 2, "{s}");
        }
        listed += top.len();
    }
    // The Chinese site's newsletter pitch survives extraction and recurs.
    assert!(listed >= 1, "{v}");
}

#[test]
fn database_path_that_is_a_directory_is_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("d.db")).unwrap();
    let out = newshound(&["--db", "d.db", "stats"], dir.path());
    assert_clean_failure(&out, "d.db: is a directory");
}

#[test]
fn export_over_the_database_itself_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 3);
    let before = std::fs::metadata(dir.path().join("demo.db")).unwrap().len();
    let out = newshound(
        &["--db", "demo.db", "export", "--out", "./demo.db"],
        dir.path(),
    );
    assert_clean_failure(&out, "this is the database itself");
    let after = std::fs::metadata(dir.path().join("demo.db")).unwrap().len();
    assert_eq!(before, after, "the database was truncated");
    let out = newshound(&["--db", "demo.db", "stats"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
}

/// `stats` printed `RC`, `line table` and `boilerpl.` without saying what
/// they mean.
#[test]
fn regression_stats_columns_were_unexplained() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 2);
    let out = newshound(&["--db", "demo.db", "stats"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let header = text.lines().next().unwrap();
    for abbreviation in ["RC", "line table", "boilerpl."] {
        assert!(!header.contains(abbreviation), "{header}");
    }
    for name in header.split_whitespace().map(|c| c.trim_end_matches(';')) {
        if name != "site" {
            assert!(
                text.contains(&format!("{name}: ")),
                "{name} unexplained:\n{text}"
            );
        }
    }
}

#[test]
fn export_out_dash_is_stdout() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 3);
    let out = newshound(&["--db", "demo.db", "export", "--out", "-"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 9);
    assert!(!dir.path().join("-").exists());
}

/// (id, published instant) of every exported article.
fn published(dir: &std::path::Path, extra: &[&str]) -> Vec<(i64, Option<DateTime<Utc>>)> {
    let mut args = vec!["--db", "demo.db", "export"];
    args.extend_from_slice(extra);
    let out = newshound(&args, dir);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let at = v["published_at"]
                .as_str()
                .map(|s| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc));
            (v["id"].as_i64().unwrap(), at)
        })
        .collect()
}

#[test]
fn export_and_search_filter_by_site_and_publication_day() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 8);
    let all = published(dir.path(), &[]);
    let mut days: Vec<NaiveDate> = all
        .iter()
        .filter_map(|(_, d)| d.map(|d| d.date_naive()))
        .collect();
    days.sort_unstable();
    let day = days[days.len() / 2];
    let start = day.and_hms_opt(0, 0, 0).unwrap().and_utc();
    let end = start + TimeDelta::days(1);
    let ids = |keep: &dyn Fn(DateTime<Utc>) -> bool| -> Vec<i64> {
        all.iter()
            .filter(|(_, d)| d.is_some_and(keep))
            .map(|(id, _)| *id)
            .collect()
    };
    let got = |extra: &[&str]| -> Vec<i64> {
        published(dir.path(), extra)
            .into_iter()
            .map(|(id, _)| id)
            .collect()
    };
    let day_arg = day.to_string();
    let since = ids(&|d| d >= start);
    let until = ids(&|d| d < end);
    assert!(
        !since.is_empty() && since.len() < all.len(),
        "{day}: {since:?}"
    );
    assert_eq!(got(&["--since", &day_arg]), since);
    assert_eq!(got(&["--until", &day_arg]), until);
    assert_eq!(
        got(&["--since", &day_arg, "--until", &day_arg]),
        ids(&|d| d >= start && d < end)
    );
    // An instant with an offset is the same bound as its UTC spelling.
    let noon =
        (start + TimeDelta::hours(12)).with_timezone(&FixedOffset::east_opt(8 * 3600).unwrap());
    assert_eq!(
        got(&["--since", &noon.to_rfc3339()]),
        ids(&|d| d >= start + TimeDelta::hours(12))
    );
    // Search takes the same filter.
    let out = newshound(
        &[
            "--db", "demo.db", "search", "the", "--site", "globe", "--since", &day_arg, "--json",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let hits: Vec<serde_json::Value> = serde_json::from_str(&stdout(&out)).unwrap_or_default();
    assert!(hits.iter().all(|h| h["site"] == "globe"), "{hits:?}");
    // Bad bounds are named.
    let out = newshound(
        &["--db", "demo.db", "export", "--since", "yesterday"],
        dir.path(),
    );
    assert_usage_error(&out, "expected a day (2026-11-01)");
    let out = newshound(
        &[
            "--db",
            "demo.db",
            "export",
            "--since",
            "2026-11-02",
            "--until",
            "2026-11-01",
        ],
        dir.path(),
    );
    assert_clean_failure(&out, "is after --until");
    let out = newshound(
        &["--db", "demo.db", "search", "x", "--site", "nope"],
        dir.path(),
    );
    assert_clean_failure(&out, "nope");
}

#[test]
fn regression_reextract_without_kept_pages_said_text_changed_in_0_articles() {
    use newshound::boilerplate::LineSettings;
    use newshound::extract::Article;
    use newshound::store::{NewArticle, Store, WriteOp};
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("bare.db")).unwrap();
    let ops = (0..3)
        .map(|i| {
            WriteOp::Article(NewArticle {
                url: format!("http://127.0.0.1:9/a/{i}"),
                url_id: None,
                site: "bare".into(),
                fetched_at: 1,
                article: Article {
                    title: Some(format!("Story {i}")),
                    text: format!("Story number {i} is told here without its page."),
                    ..Article::default()
                },
                lines: LineSettings {
                    enabled: false,
                    ..LineSettings::default()
                },
                html: None,
            })
        })
        .collect();
    store.write_batch(ops).unwrap();
    drop(store);
    let out = newshound(&["--db", "bare.db", "reextract"], dir.path());
    assert_clean_failure(&out, "none of the 3 selected articles has a kept page");
}

#[test]
fn reextract_prints_how_many_texts_changed_and_export_writes_each_format() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 3);
    let run = |args: &[&str]| newshound(&[&["--db", "demo.db"], args].concat(), dir.path());
    // Same options as the crawl: nothing changes; another algorithm: some do.
    let same = run(&["reextract"]);
    assert!(same.status.success(), "{}", stderr(&same));
    assert!(
        stdout(&same).starts_with("text changed in 0 articles"),
        "{}",
        stdout(&same)
    );
    assert!(
        stdout(&same).contains(", 0 without a kept page)"),
        "{}",
        stdout(&same)
    );
    let td = run(&["reextract", "--algorithm", "td"]);
    assert!(td.status.success(), "{}", stderr(&td));
    assert!(
        !stdout(&td).starts_with("text changed in 0 "),
        "{}",
        stdout(&td)
    );
    assert_clean_failure(&run(&["reextract", "--site", "nope"]), "unknown site");

    let n = stdout(&run(&["export"])).lines().count();
    let show = stdout(&run(&["show", "1"]));
    assert!(
        ["density", "schema", "fallback"]
            .iter()
            .any(|m| show.contains(&format!("\nmethod     {m}\n"))),
        "show prints the stored method:\n{show}"
    );
    let csv = run(&["export", "--format", "csv"]);
    let crlf = stdout(&csv).matches("\r\n").count();
    assert!(crlf > n, "header + rows: {crlf} for {n} articles");
    let md = run(&["export", "--format", "markdown"]);
    let headings: Vec<String> = stdout(&md)
        .lines()
        .filter(|l| l.starts_with("# "))
        .map(String::from)
        .collect();
    assert_eq!(headings.len(), n, "{headings:#?}");
    assert!(
        stderr(&md).contains(&format!("exported {n} articles (0 from their stored text")),
        "{}",
        stderr(&md)
    );
    let warc = run(&["export", "--format", "warc", "--out", "demo.warc.gz"]);
    assert!(
        stderr(&warc).contains(&format!("exported {n} articles (0 skipped: no kept HTML)")),
        "{}",
        stderr(&warc)
    );
    let bytes = std::fs::read(dir.path().join("demo.warc.gz")).unwrap();
    assert_eq!(&bytes[..2], b"\x1f\x8b", "gzip");
    assert_usage_error(&run(&["export", "--format", "xml"]), "invalid value");
}

#[test]
fn since_with_a_two_digit_year_is_refused() {
    // `--since 26-11-01` was read as the year 26.
    let dir = tempfile::tempdir().unwrap();
    for cmd in ["search", "export"] {
        let mut args = vec!["--db", "x.db", cmd];
        if cmd == "search" {
            args.push("x");
        }
        args.extend(["--since", "26-11-01"]);
        let out = newshound(&args, dir.path());
        assert_usage_error(&out, "the year must have four digits");
    }
}

#[cfg(unix)]
#[test]
fn regression_export_out_force_wrote_through_a_symbolic_link() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 3);
    let target = dir.path().join("precious.txt");
    std::fs::write(&target, "not to be overwritten\n").unwrap();
    std::os::unix::fs::symlink(&target, dir.path().join("link.jsonl")).unwrap();
    let out = newshound(
        &[
            "--db",
            "demo.db",
            "export",
            "--out",
            "link.jsonl",
            "--force",
        ],
        dir.path(),
    );
    assert_clean_failure(&out, "link.jsonl: is a symbolic link; not followed");
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "not to be overwritten\n"
    );
}

#[test]
fn export_out_refuses_an_existing_file_without_force() {
    // `export --out FILE` replaced an existing file silently.
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 3);
    let file = dir.path().join("x.jsonl");
    std::fs::write(&file, "an earlier export\n").unwrap();
    let out = newshound(
        &["--db", "demo.db", "export", "--out", "x.jsonl"],
        dir.path(),
    );
    assert_clean_failure(&out, "x.jsonl: already exists; pass --force to replace it");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "an earlier export\n"
    );
    let out = newshound(
        &["--db", "demo.db", "export", "--out", "x.jsonl", "--force"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 9);
    // fetched_at is RFC 3339 like the other dates (it was epoch ms).
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let fetched = first["fetched_at"].as_str().unwrap_or_default();
    assert!(
        DateTime::parse_from_rfc3339(fetched).is_ok(),
        "fetched_at {:?}",
        first["fetched_at"]
    );
    let out = newshound(&["--db", "demo.db", "export", "--force"], dir.path());
    assert_usage_error(&out, "--out");
}

/// Byte 18 of an SQLite header: 1 = rollback journal, 2 = WAL.
fn header_journal_byte(path: &std::path::Path) -> u8 {
    std::fs::read(path).unwrap()[18]
}

#[test]
fn read_commands_never_write_so_they_work_on_a_read_only_database() {
    // `stats`, `search`, `export` and `show` failed on a read-only file
    // with "attempt to write a readonly database": opening switched the
    // journal to WAL and migrated. (The test runs as root on CI machines,
    // where a read-only mode does not stop writes; the journal byte does.)
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 3);
    let db = dir.path().join("demo.db");
    let c = rusqlite::Connection::open(&db).unwrap();
    let mode: String = c
        .pragma_update_and_check(None, "journal_mode", "DELETE", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "delete");
    drop(c);
    assert_eq!(header_journal_byte(&db), 1);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o444)).unwrap();
    }
    let before = std::fs::read(&db).unwrap();
    for args in [
        &["stats"][..],
        &["stats", "--json"],
        &["search", "the"],
        &["export"],
        &["show", "1"],
    ] {
        let out = newshound(&[&["--db", "demo.db"][..], args].concat(), dir.path());
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
    assert_eq!(
        header_journal_byte(&db),
        1,
        "a read command switched to WAL"
    );
    assert!(
        std::fs::read(&db).unwrap() == before,
        "a read command wrote"
    );
}

#[test]
fn a_damaged_database_is_named_with_what_to_do() {
    // Users saw "database disk image is malformed: Error code 11".
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 3);
    let db = dir.path().join("demo.db");
    let c = rusqlite::Connection::open(&db).unwrap();
    c.pragma_update(None, "journal_mode", "DELETE").unwrap();
    drop(c);
    // Keep the header and schema page, scribble over the article pages.
    let mut bytes = std::fs::read(&db).unwrap();
    let page = u16::from_be_bytes([bytes[16], bytes[17]]) as usize;
    for b in bytes[4 * page..].iter_mut() {
        *b ^= 0x5a;
    }
    std::fs::write(&db, bytes).unwrap();
    let out = newshound(&["--db", "demo.db", "export"], dir.path());
    assert_clean_failure(&out, "demo.db: the database file is damaged");
    assert!(stderr(&out).contains("restore it from a backup"));
    assert!(!stderr(&out).contains("Error code"), "{}", stderr(&out));
}

#[cfg(unix)]
#[test]
fn a_device_as_database_is_refused_in_one_line() {
    // `--db /dev/null` gave "invalid utf-8 sequence of 1 bytes from index 3".
    let dir = tempfile::tempdir().unwrap();
    for cmd in [&["stats"][..], &["search", "x"], &["reclean"]] {
        let out = newshound(&[&["--db", "/dev/null"][..], cmd].concat(), dir.path());
        assert_clean_failure(&out, "/dev/null: not a regular file");
    }
}

#[test]
fn export_parquet_writes_one_row_per_article() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 3);
    let out = newshound(
        &[
            "--db",
            "demo.db",
            "export",
            "--format",
            "parquet",
            "--out",
            "a.parquet",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("exported 9 articles"),
        "{}",
        stderr(&out)
    );
    let file = std::fs::File::open(dir.path().join("a.parquet")).unwrap();
    let reader = SerializedFileReader::new(file).unwrap();
    assert_eq!(reader.metadata().file_metadata().num_rows(), 9);
}
