//! The `newshound import` binary stopped half-way — killed with -9, or
//! asked to stop with Ctrl-C — then run again with the same command: it
//! goes on where it stopped, and at the end every page of the archive is
//! stored once, none lost, none read into the corpus twice.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::stored;
use crate::warc_files::{warc_gz, web_records};
use newshound::simweb::{SimWeb, SimWebSpec};

/// An archive of `per_site` pages of each of 3 sites (with noise), its
/// config (commits every 50 ms, not the default 2 s, so that commits land
/// half-way on any machine), and where the database goes.
struct Archive {
    dir: tempfile::TempDir,
    config: PathBuf,
    file: PathBuf,
    db: PathBuf,
    pages: usize,
    records: usize,
}

async fn archive(seed: u64, per_site: usize) -> Archive {
    let spec = SimWebSpec {
        sites: 3,
        articles_per_site: per_site,
        seed,
        faults: false,
    };
    let web = SimWeb::start(spec).await.expect("simweb starts");
    let dir = tempfile::tempdir().expect("tempdir");
    let records = web_records(&web, per_site, true);
    let config = dir.path().join("crawler.toml");
    // Commits every 50 ms: some land half-way however fast the machine.
    let toml = format!("{}\n[store]\nimport_commit_ms = 50\n", web.config_toml());
    std::fs::write(&config, toml).expect("config");
    web.shutdown().await;
    let file = dir.path().join("archive.warc.gz");
    std::fs::write(&file, warc_gz(&records)).expect("archive");
    let db = dir.path().join("import.db");
    Archive {
        dir,
        config,
        file,
        db,
        pages: 3 * per_site,
        records: records.len(),
    }
}

impl Archive {
    fn import(&self) -> Child {
        Command::new(env!("CARGO_BIN_EXE_newshound"))
            .arg("--config")
            .arg(&self.config)
            .arg("--db")
            .arg(&self.db)
            .arg("import")
            .arg(&self.file)
            .current_dir(self.dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn newshound import")
    }

    /// The records the store says are read, once it says any.
    fn records_read(&self) -> u64 {
        let Ok(conn) = rusqlite::Connection::open(&self.db) else {
            return 0;
        };
        conn.query_row(
            "SELECT coalesce(sum(records), 0) FROM import_files",
            [],
            |r| r.get::<_, i64>(0),
        )
        .map_or(0, |n| n as u64)
    }

    /// Wait until some records but not all are recorded as read.
    fn wait_half_way(&self, child: &mut Child) {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(120) {
            let read = self.records_read();
            if read > 0 && read * 3 < self.records as u64 * 2 {
                return;
            }
            assert!(
                child.try_wait().expect("child").is_none() && read < self.records as u64,
                "the import ended before it could be stopped half-way ({read} records)"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the import recorded no progress");
    }

    fn finish(&self) -> Output {
        let out = self.import().wait_with_output().expect("import");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// Every page stored once, the file done, every record counted once.
    fn assert_complete(&self, db: &Path) {
        let articles = stored(db);
        let mut urls: Vec<&str> = articles.iter().map(|a| a.url.as_str()).collect();
        urls.sort_unstable();
        urls.dedup();
        assert_eq!(urls.len(), articles.len(), "an article stored twice");
        assert_eq!(articles.len(), self.pages, "an article lost");
        let conn = rusqlite::Connection::open(db).unwrap();
        let (state, records): (String, i64) = conn
            .query_row("SELECT state, records FROM import_files", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!(state, "done");
        assert_eq!(
            records as usize, self.records,
            "records read twice or never"
        );
        let check: String = conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(check, "ok");
    }
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_import_killed_half_way_goes_on_where_it_stopped() {
    let archive = archive(61, 200).await;
    let mut child = archive.import();
    archive.wait_half_way(&mut child);
    // SIGKILL: no chance to flush or give the file back.
    child.kill().expect("kill -9");
    let _ = child.wait();
    let before = stored(&archive.db).len();
    println!("killed with {before} of {} articles stored", archive.pages);
    assert!(before < archive.pages);
    let out = archive.finish();
    let summary = text(&out);
    assert!(summary.contains("duplicates:          0"), "{summary}");
    archive.assert_complete(&archive.db);
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_import_stopped_with_ctrl_c_says_so_and_goes_on_when_run_again() {
    let archive = archive(62, 200).await;
    let mut child = archive.import();
    archive.wait_half_way(&mut child);
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill -INT");
    assert!(kill.success());
    let out = child.wait_with_output().expect("stopped import");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("goes on where it stopped"), "{stderr}");
    assert!(text(&out).contains("1 stopped"), "{}", text(&out));
    // The file was given back: not held by a lease.
    let conn = rusqlite::Connection::open(&archive.db).unwrap();
    let leased: Option<String> = conn
        .query_row("SELECT leased_by FROM import_files", [], |r| r.get(0))
        .unwrap();
    assert_eq!(leased, None);
    drop(conn);
    let out = archive.finish();
    assert!(text(&out).contains("1 read to the end"), "{}", text(&out));
    archive.assert_complete(&archive.db);
}
