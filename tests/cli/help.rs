//! Every command, argument and flag has help text, and `eval` rejects
//! flag combinations it would silently ignore.

use crate::support::{assert_clean_failure, assert_usage_error, newshound, stdout};

const COMMANDS: &[&str] = &[
    "crawl", "extract", "search", "show", "export", "stats", "reclean", "eval", "demo", "sites",
    "import",
];

#[test]
fn every_flag_and_argument_is_documented() {
    let dir = tempfile::tempdir().unwrap();
    for cmd in COMMANDS {
        let out = newshound(&[cmd, "-h"], dir.path());
        assert!(out.status.success());
        let help = stdout(&out);
        let mut section = "";
        for line in help.lines() {
            if line.ends_with(':') && !line.starts_with(' ') {
                section = line;
                continue;
            }
            if !(section == "Options:" || section == "Arguments:") || line.trim().is_empty() {
                continue;
            }
            // "  -v, --verbose...  More log output" / "      --json  Print ..." /
            // "  <QUERY>  The words": the flag, two or more spaces, the text.
            let trimmed = line.trim_start();
            if !(trimmed.starts_with('-') || trimmed.starts_with('<')) {
                continue; // the wrapped rest of a description
            }
            let described = trimmed
                .split_once("  ")
                .is_some_and(|(_, text)| !text.trim().is_empty());
            assert!(
                described,
                "`newshound {cmd}`: undocumented: {line:?}\n{help}"
            );
        }
    }
}

#[test]
fn help_command_works_for_every_command() {
    let dir = tempfile::tempdir().unwrap();
    for cmd in COMMANDS {
        let out = newshound(&["help", cmd], dir.path());
        assert!(out.status.success(), "{cmd}");
        assert!(stdout(&out).contains("Usage: newshound"), "{cmd}");
    }
}

#[test]
fn eval_sequence_rejects_worst_and_jobs() {
    let dir = tempfile::tempdir().unwrap();
    for flags in [&["--worst", "3"][..], &["--jobs", "2"]] {
        let args = [
            &["eval", "--html", "h", "--gold", "g", "--sequence"][..],
            flags,
        ]
        .concat();
        let out = newshound(&args, dir.path());
        assert_usage_error(&out, "cannot be used with");
    }
}

#[test]
fn eval_with_missing_gold_directory_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("h");
    std::fs::create_dir(&html).unwrap();
    for i in 0..3 {
        std::fs::write(html.join(format!("s_{i}.html")), "<p>x</p>").unwrap();
    }
    for seq in [false, true] {
        let mut args = vec!["eval", "--html", "h", "--gold", "nope"];
        if seq {
            args.push("--sequence");
        }
        let out = newshound(&args, dir.path());
        assert_clean_failure(&out, "nope: no such directory of gold texts");
    }
}

#[test]
fn eval_sequence_without_any_gold_text_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    for d in ["h", "g"] {
        std::fs::create_dir(dir.path().join(d)).unwrap();
    }
    for i in 0..3 {
        std::fs::write(dir.path().join(format!("h/s_{i}.html")), "<p>x</p>").unwrap();
    }
    let out = newshound(
        &["eval", "--html", "h", "--gold", "g", "--sequence"],
        dir.path(),
    );
    assert_clean_failure(&out, "none of the 3 pages has a gold text");
}

#[test]
fn global_options_are_listed_after_the_command_options() {
    let dir = tempfile::tempdir().unwrap();
    let help = stdout(&newshound(&["eval", "-h"], dir.path()));
    let at = |flag: &str| help.find(flag).unwrap_or_else(|| panic!("{flag}: {help}"));
    assert!(at("--sequence") < at("--config"), "{help}");
    assert!(at("--html") < at("--verbose"), "{help}");
}

#[test]
fn eval_sequence_names_a_gold_text_that_is_not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    for d in ["h", "g"] {
        std::fs::create_dir(dir.path().join(d)).unwrap();
    }
    std::fs::write(dir.path().join("h/s_1.html"), "<p>x</p>").unwrap();
    std::fs::write(dir.path().join("g/s_1.txt"), b"caf\xe9\n").unwrap();
    let out = newshound(
        &["eval", "--html", "h", "--gold", "g", "--sequence"],
        dir.path(),
    );
    assert_clean_failure(&out, "s_1.txt: cannot read gold text");
}

/// `--db` and `--config` are global options; the help of a command that
/// ignores one listed it all the same, and giving it did nothing.
#[test]
fn regression_db_and_config_appeared_in_the_help_of_commands_that_ignore_them() {
    let dir = tempfile::tempdir().unwrap();
    let help = |args: &[&str]| stdout(&newshound(&[args, &["-h"]].concat(), dir.path()));
    let shows = |h: &str, flag: &str| h.lines().any(|l| l.trim_start().starts_with(flag));
    for (cmd, ignores) in [
        (&["copy"][..], &["--config", "--db"][..]),
        (&["train"], &["--config", "--db"]),
        (&["eval"], &["--db"]),
        (&["extract"], &["--db"]),
        (&["demo"], &["--config"]),
        (&["sites", "add"], &["--db"]),
    ] {
        let h = help(cmd);
        for flag in ignores {
            assert!(!shows(&h, flag), "`{}` shows {flag}:\n{h}", cmd.join(" "));
        }
    }
    // Those that use them still show them.
    for (cmd, flag) in [
        (&["crawl"][..], "--db"),
        (&["crawl"], "--config"),
        (&["sites", "check"], "--db"),
        (&["extract"], "--config"),
        (&["demo"], "--db"),
        (&["search"], "--db"),
    ] {
        assert!(shows(&help(cmd), flag), "`{}` hides {flag}", cmd.join(" "));
    }
    // Given anyway, before or after the command: said, not silently dropped.
    std::fs::write(
        dir.path().join("p.html"),
        "<html><body><p>Hi there.</p></body></html>",
    )
    .unwrap();
    for args in [
        &["--db", "x.db", "extract", "p.html"][..],
        &["extract", "--db", "x.db", "p.html"],
    ] {
        let out = newshound(args, dir.path());
        let err = crate::support::stderr(&out);
        assert!(
            err.contains("--db has no effect on `extract`"),
            "{args:?}: {err}"
        );
        assert!(!dir.path().join("x.db").exists());
    }
}
