//! `crawl` and `demo` through the real binary, only against 127.0.0.1.

use std::process::Stdio;
use std::time::Duration;

use crate::support::{assert_clean_failure, assert_usage_error, bin, newshound, stderr, stdout};
use newshound::simweb::{SimWeb, SimWebSpec};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn config_with_zero_sites_is_rejected_before_the_database_is_created() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.toml"), "[crawler]\nconcurrency = 2\n").unwrap();
    let out = newshound(&["--config", "c.toml", "--db", "x.db", "crawl"], dir.path());
    assert_clean_failure(&out, "c.toml: no sites to crawl");
    assert!(!dir.path().join("x.db").exists());
}

#[test]
fn database_in_a_missing_directory_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = "[[sites]]\nname = \"a\"\nstart = [\"http://127.0.0.1:9/\"]\n";
    std::fs::write(dir.path().join("c.toml"), cfg).unwrap();
    let out = newshound(
        &["--config", "c.toml", "--db", "nope/x.db", "crawl"],
        dir.path(),
    );
    assert_clean_failure(&out, "directory nope does not exist");
}

#[test]
fn crawl_where_nothing_can_be_fetched_exits_1_after_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    // Port 1 on loopback: connection refused at once, no network involved.
    let cfg = "[fetch]\nallow_private_addresses = true\nretries = 0\n\
        [politeness]\nrespect_robots = false\n\
        [[sites]]\nname = \"down\"\nstart = [\"http://127.0.0.1:1/\"]\n";
    std::fs::write(dir.path().join("c.toml"), cfg).unwrap();
    let out = newshound(&["--config", "c.toml", "--db", "x.db", "crawl"], dir.path());
    assert!(
        stdout(&out).contains("pages fetched:    0"),
        "{}",
        stdout(&out)
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("newshound: crawl: no page could be fetched"),
        "{err}"
    );
}

#[test]
fn crawl_ends_with_reclean_so_a_later_reclean_changes_nothing() {
    // README: reclean "also runs at the end of each crawl". Without it the
    // first pages of a site kept their newsletter/copyright lines.
    let dir = tempfile::tempdir().unwrap();
    let out = newshound(&["--db", "demo.db", "demo", "--articles", "12"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("articles re-cleaned:"));
    let out = newshound(&["--db", "demo.db", "reclean"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "re-cleaned 0 articles");
}

/// `newshound.db.lock` and `demo.db.lock` stayed behind after every run.
#[test]
fn regression_lock_files_stayed_beside_the_database_after_every_run() {
    let dir = tempfile::tempdir().unwrap();
    crate::support::demo_db(dir.path(), 2);
    assert!(dir.path().join("demo.db").exists());
    assert!(
        !dir.path().join("demo.db.lock").exists(),
        "demo.db.lock left"
    );
    let cfg = "[fetch]\nallow_private_addresses = true\nretries = 0\n\
        [politeness]\nrespect_robots = false\n\
        [[sites]]\nname = \"down\"\nstart = [\"http://127.0.0.1:1/\"]\n";
    std::fs::write(dir.path().join("c.toml"), cfg).unwrap();
    let out = newshound(&["--config", "c.toml", "--db", "x.db", "crawl"], dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!dir.path().join("x.db.lock").exists(), "x.db.lock left");
}

/// Plain `demo` used a temporary database without saying how to keep one.
#[test]
fn regression_plain_demo_did_not_say_how_to_keep_its_database() {
    let dir = tempfile::tempdir().unwrap();
    let out = newshound(&["demo", "--articles", "2"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("`newshound demo --db demo.db`"), "{text}");
    assert!(!dir.path().join("demo.db").exists());
}

/// Offline, the crawl printed one ~250-character warning per host and did
/// not suggest `demo`: now one short line per host, and the last line says
/// what to try without a network.
#[test]
fn regression_an_offline_crawl_printed_long_warnings_and_did_not_suggest_demo() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = "[fetch]\nallow_private_addresses = true\nretries = 0\n\
        [[sites]]\nname = \"down\"\nstart = [\"http://127.0.0.1:1/\"]\n\
        [[sites]]\nname = \"also\"\nstart = [\"http://127.0.0.2:1/\"]\n";
    std::fs::write(dir.path().join("c.toml"), cfg).unwrap();
    let out = newshound(&["--config", "c.toml", "--db", "x.db", "crawl"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("WARN")).collect();
    assert_eq!(warnings.len(), 2, "one line per host:\n{err}");
    for host in ["127.0.0.1", "127.0.0.2"] {
        let line = warnings.iter().find(|l| l.contains(host)).expect(host);
        assert!(
            line.chars().count() <= 120,
            "{} characters: {line}",
            line.chars().count()
        );
    }
    assert!(
        err.lines().last().unwrap().contains("`newshound demo`"),
        "{err}"
    );
}

#[test]
fn demo_articles_zero_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = newshound(&["demo", "--articles", "0"], dir.path());
    assert_usage_error(&out, "must be at least 1");
}

#[test]
fn demo_articles_beyond_the_bound_is_a_usage_error_not_capacity_overflow() {
    // `--articles 18446744073709551615` died with "capacity overflow",
    // `--articles 1000000000` aborted on a 200 GB allocation.
    let dir = tempfile::tempdir().unwrap();
    for n in ["18446744073709551615", "1000000000", "10001"] {
        let out = newshound(&["demo", "--articles", n], dir.path());
        assert_usage_error(&out, "must be at most 10000");
    }
}

#[test]
fn demo_on_a_database_in_use_is_refused_by_the_crawl_lock() {
    // Two demos on one --db interleaved, hit "database is locked" and stored
    // duplicates: demo now takes the crawl lock like crawl does.
    let dir = tempfile::tempdir().unwrap();
    let lock = std::fs::File::create(dir.path().join("x.db.lock")).unwrap();
    lock.try_lock().unwrap();
    let out = newshound(&["--db", "x.db", "demo", "--articles", "2"], dir.path());
    assert_clean_failure(&out, "x.db: another crawl or import is using this database");
    assert_eq!(stdout(&out), "");
    drop(lock);
}

#[cfg(unix)]
#[test]
fn ctrl_c_finishes_in_flight_pages_prints_summary_and_exits_0() {
    let rt = runtime();
    let (web, dir, child) = slow_crawl_child(&rt);
    std::thread::sleep(Duration::from_millis(1500));
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(stdout(&out).contains("crawl finished"), "{}", stdout(&out));
    assert!(err.contains("stopped by Ctrl-C"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // Stopped early: not every article was stored, and the next run resumes.
    let articles: usize = 3 * 30;
    let out = newshound(&["--db", "sim.db", "export"], dir.path());
    let stored = stdout(&out).lines().count();
    assert!(
        stored < articles,
        "{stored} articles: the crawl was not interrupted"
    );
    rt.block_on(web.shutdown());
}

#[test]
fn demo_with_a_bad_database_fails_before_printing_anything() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.db"), "not a database\n".repeat(300)).unwrap();
    let out = newshound(&["--db", "notes.db", "demo", "--articles", "2"], dir.path());
    assert_clean_failure(&out, "notes.db: not a newshound database");
    assert_eq!(stdout(&out), "");
}

#[test]
fn second_crawl_on_the_same_database_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = "[[sites]]\nname = \"a\"\nstart = [\"http://127.0.0.1:9/\"]\n";
    std::fs::write(dir.path().join("c.toml"), cfg).unwrap();
    // Stand in for a running crawl: hold the database's crawl lock.
    let lock = std::fs::File::create(dir.path().join("x.db.lock")).unwrap();
    lock.try_lock().unwrap();
    let out = newshound(&["--config", "c.toml", "--db", "x.db", "crawl"], dir.path());
    assert_clean_failure(&out, "x.db: another crawl or import is using this database");
    drop(lock);
}

#[cfg(unix)]
#[test]
fn regression_sigterm_killed_the_crawl_without_finishing_in_flight_pages() {
    // systemd and Docker stop services with SIGTERM: it must be as graceful
    // as Ctrl-C (summary printed, exit 0, the database consistent).
    let rt = runtime();
    let (web, dir, child) = slow_crawl_child(&rt);
    // Wait until the crawl is under way (articles served), then stop it.
    let started = std::time::Instant::now();
    while web.requests().len() < 20 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let kill = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(stdout(&out).contains("crawl finished"), "{}", stdout(&out));
    assert!(err.contains("crawl stopped by SIGTERM"), "{err}");
    // Nothing left in flight: a second crawl resumes and completes.
    let out = newshound(&["--db", "sim.db", "export"], dir.path());
    let stored = stdout(&out).lines().count();
    assert!(
        stored < 3 * 30,
        "{stored} articles: the crawl was not interrupted"
    );
    rt.block_on(web.shutdown());
}

/// A site without `article_patterns` once stored nothing (and was warned
/// about); its pages are judged now, so there is nothing to warn about.
#[test]
fn regression_a_site_without_article_patterns_stored_nothing_without_a_word() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = "[fetch]\nallow_private_addresses = true\nretries = 0\n\
        [politeness]\nrespect_robots = false\n\
        [[sites]]\nname = \"plain\"\nstart = [\"http://127.0.0.1:1/\"]\n";
    std::fs::write(dir.path().join("c.toml"), cfg).unwrap();
    let out = newshound(&["--config", "c.toml", "--db", "x.db", "crawl"], dir.path());
    let err = stderr(&out);
    assert!(!err.contains("article_patterns"), "{err}");
    assert!(stdout(&out).contains("not articles:"), "{}", stdout(&out));
}

#[test]
fn regression_a_crawl_blocked_by_the_private_address_guard_asked_if_the_network_was_reachable() {
    let dir = tempfile::tempdir().unwrap();
    // Loopback without `allow_private_addresses`: refused before connecting.
    let cfg = "[fetch]\nretries = 0\n\
        [[sites]]\nname = \"local\"\nstart = [\"http://127.0.0.1:1/\"]\narticle_patterns = ['/a/']\n";
    std::fs::write(dir.path().join("c.toml"), cfg).unwrap();
    let out = newshound(&["--config", "c.toml", "--db", "x.db", "crawl"], dir.path());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let last = err.lines().last().unwrap_or_default();
    assert!(last.contains("allow_private_addresses = true"), "{err}");
    assert!(!last.contains("network reachable"), "{err}");
}

/// A crawl of a 3 × 30-article simulated web in a child process, slowed to
/// 2 requests per second per host so that it is still running when a test
/// signals it. The web and the directory (with `sim.db`) stay alive with the
/// returned values.
#[cfg(unix)]
fn slow_crawl_child(
    rt: &tokio::runtime::Runtime,
) -> (SimWeb, tempfile::TempDir, std::process::Child) {
    let web = rt
        .block_on(SimWeb::start(SimWebSpec {
            articles_per_site: 30,
            ..SimWebSpec::default()
        }))
        .unwrap();
    let cfg = web
        .config_toml()
        .replace("rate_per_host = 50.0", "rate_per_host = 2.0");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("sim.toml"), cfg).unwrap();
    let child = bin()
        .args(["--config", "sim.toml", "--db", "sim.db", "crawl"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    (web, dir, child)
}

/// A site whose server was down once had every URL wait (robots.txt
/// unavailable) for five minutes: a new crawl fetched nothing and exited
/// 0 without saying when anything was due. Now a crawl of a site whose
/// every URL waits tries them at once; if they still cannot be fetched it
/// says what waits until when and exits 1.
#[test]
fn regression_a_crawl_of_a_site_whose_every_url_waited_fetched_nothing_and_exited_0() {
    let rt = runtime();
    // A port nothing listens on (bound, then freed).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cfg = format!(
        "[fetch]\nallow_private_addresses = true\nretries = 0\n\
         [[sites]]\nname = \"down\"\nstart = [\"http://127.0.0.1:{port}/\"]\n"
    );
    std::fs::write(dir.path().join("c.toml"), cfg).unwrap();
    let crawl = || newshound(&["--config", "c.toml", "--db", "x.db", "crawl"], dir.path());
    let first = crawl();
    assert!(
        stdout(&first).contains("robots_unavailable"),
        "{}",
        stdout(&first)
    );
    // Still down: tried at once, nothing fetched, and it says why.
    let second = crawl();
    let err = stderr(&second);
    assert_eq!(second.status.code(), Some(1), "{}\n{err}", stdout(&second));
    assert!(
        stdout(&second).contains("waits lifted:"),
        "{}",
        stdout(&second)
    );
    let last = err.lines().last().unwrap_or_default();
    assert!(last.contains("nothing was fetched"), "{err}");
    assert!(last.contains("robots_unavailable of down until"), "{err}");
    assert!(last.contains("--retry-failed"), "{err}");
    // Back up: the next crawl does not wait five minutes.
    let listener = rt.block_on(tokio::net::TcpListener::bind(("127.0.0.1", port)));
    let app = axum::Router::new()
        .fallback(|| async { axum::response::Html("<html><body><p>Home</p></body></html>") });
    let _server = rt.spawn(async move { axum::serve(listener.unwrap(), app).await });
    let third = crawl();
    assert_eq!(third.status.code(), Some(0), "{}", stderr(&third));
    assert!(
        !stdout(&third).contains("pages fetched:    0"),
        "{}",
        stdout(&third)
    );
}
