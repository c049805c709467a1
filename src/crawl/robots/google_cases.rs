//! Google's robots.txt test suite, the cases a crawler can meet, checked as
//! the crawler checks them: a fetched body, our agent token, a parsed URL.
//!
//! Source: github.com/google/robotstxt, `robots_test.cc` (the tests named
//! in each case). Left out: the cases of a URL that is not percent-encoded
//! (`/foo/bar/ツ`; a parsed URL always is), of an empty URL or agent, and of
//! agent-name validity (our agent token is fixed by the config). Where
//! Google's test counts parsed lines (byte order marks, line endings,
//! `Sitemap:`), the case here checks what those lines decide instead.

use std::time::Instant;

use url::Url;

use super::{Robots, RobotsFetch, Verdict};

mod table;
use table::CASES;

fn verdict(robots: &[u8], agent: &str, url: &str) -> bool {
    let robots = Robots::from_fetch(
        &agent.to_ascii_lowercase(),
        RobotsFetch::Body(robots.to_vec()),
        Instant::now(),
    );
    let url = Url::parse(url).unwrap();
    robots.check(&url) == Verdict::Allowed
}

#[test]
fn google_robots_test_cases_a_crawler_meets() {
    let mut wrong = Vec::new();
    let mut checked = 0;
    for case in CASES {
        for (url, allowed) in case.checks {
            checked += 1;
            if verdict(case.robots, case.agent, url) != *allowed {
                wrong.push(format!(
                    "{}: {} for {url}: expected {}",
                    case.test,
                    case.agent,
                    if *allowed { "allowed" } else { "disallowed" }
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {checked}:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn google_non_standard_line_example_sitemap() {
    // ID_NonStandardLineExample_Sitemap: after the groups, and before them.
    let groups = "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n";
    let line = "Sitemap: http://foo.bar/sitemap.xml\n";
    for txt in [format!("{groups}{line}"), format!("{line}{groups}")] {
        let r = Robots::from_fetch("foo", RobotsFetch::Body(txt.into()), Instant::now());
        let maps: Vec<&str> = r.sitemaps.iter().map(Url::as_str).collect();
        assert_eq!(maps, ["http://foo.bar/sitemap.xml"]);
    }
}

/// GoogleOnly_LineTooLong: Google keeps a line's first 2083 × 8 − 1 bytes
/// (`kMaxLineLen` is a buffer with its final NUL) and ignores the rest of
/// it, so a rule longer than that is the rule cut there. newshound read the
/// whole line.
#[test]
fn regression_a_line_past_googles_limit_was_read_whole() {
    const MAX_LINE_LEN: usize = 2083 * 8;
    let eol = 1;
    // A `Disallow:` cut in its middle disallows what the cut rule matches.
    let disallow = "disallow: ";
    let mut longline = "/x/".to_string();
    while longline.len() < MAX_LINE_LEN - "/x/".len() - disallow.len() + eol {
        longline.push('a');
    }
    let txt = format!("user-agent: FooBot\n{disallow}{longline}/qux\n");
    assert!(verdict(txt.as_bytes(), "FooBot", "http://foo.bar/fux"));
    let cut = format!("http://foo.bar{longline}/fux");
    assert!(!verdict(txt.as_bytes(), "FooBot", &cut));
    // Two `Allow:` lines, the second one matching only once cut.
    let allow = "allow: ";
    let (mut long_a, mut long_b) = ("/x/".to_string(), "/x/".to_string());
    while long_a.len() < MAX_LINE_LEN - "/x/".len() - allow.len() + eol {
        long_a.push('a');
        long_b.push('b');
    }
    let txt =
        format!("user-agent: FooBot\ndisallow: /\n{allow}{long_a}/qux\n{allow}{long_b}/qux\n");
    let txt = txt.as_bytes();
    assert!(!verdict(txt, "FooBot", "http://foo.bar/"));
    assert!(verdict(
        txt,
        "FooBot",
        &format!("http://foo.bar{long_a}/qux")
    ));
    assert!(verdict(
        txt,
        "FooBot",
        &format!("http://foo.bar{long_b}/fux")
    ));
}
