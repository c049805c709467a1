//! `[store] url` as a SQLite path replaces `[crawler] database` for every
//! command, as `--db` does. The bug: `reclean`, `serve` and `crawl` still
//! opened `[crawler] database`.

use crate::support::{demo_db, newshound, stderr, stdout};

#[test]
fn regression_store_url_path_was_ignored_by_reclean_serve_and_crawl() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 2);
    std::fs::write(
        dir.path().join("c.toml"),
        "[crawler]\ndatabase = \"elsewhere.db\"\n\n[store]\nurl = \"demo.db\"\n",
    )
    .unwrap();
    for args in [
        vec!["stats"],
        vec!["show", "1"],
        vec!["search", "the"],
        vec!["export"],
        vec!["reclean"],
    ] {
        let mut a = vec!["--config", "c.toml"];
        a.extend(&args);
        let out = newshound(&a, dir.path());
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let mut direct = vec!["--db", "demo.db"];
        direct.extend(&args);
        assert_eq!(
            stdout(&out),
            stdout(&newshound(&direct, dir.path())),
            "{args:?}"
        );
    }
    assert!(!dir.path().join("elsewhere.db").exists());
}
