//! robots.txt parsing and matching on byte strings.

use super::*;

fn rules(txt: &str) -> Rules {
    Rules::parse("newshound", txt.as_bytes())
}

#[test]
fn longest_match_wins_and_allow_wins_a_tie() {
    let r = rules(
        "User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /a/b/c\nAllow: /x\nDisallow: /x\n",
    );
    assert!(!r.allowed("/a"));
    assert!(r.allowed("/a/b"));
    assert!(!r.allowed("/a/b/c/d"));
    assert!(r.allowed("/x/1"));
    assert!(r.allowed("/elsewhere"));
}

#[test]
fn wildcards_and_end_anchor() {
    let r = rules(
        "User-agent: *\nDisallow: /*.pdf$\nDisallow: /news/*x0000001*.html$\nDisallow: /tmp*/y\nDisallow: /exact$\n",
    );
    assert!(!r.allowed("/files/report.pdf"));
    assert!(r.allowed("/files/report.pdf?download=1"));
    assert!(!r.allowed("/news/2026/x0000001/story.html"));
    assert!(r.allowed("/news/2026/x0000001/story.htmlx"));
    assert!(r.allowed("/news/2026/story.html"));
    assert!(!r.allowed("/tmpdir/a/y/z"));
    assert!(r.allowed("/tmpdir/a/z"));
    assert!(!r.allowed("/exact"));
    assert!(r.allowed("/exact/more"));
    // Segments are found in order and do not overlap.
    let r = rules("User-agent: *\nDisallow: /*ab*ba$\n");
    assert!(!r.allowed("/xabxxba"));
    assert!(r.allowed("/xaba"));
    assert!(!r.allowed("/abba"));
}

#[test]
fn a_dollar_inside_a_pattern_is_a_character() {
    let r = rules("User-agent: *\nDisallow: /price$list\n");
    assert!(!r.allowed("/price$list/1"));
    assert!(r.allowed("/price"));
}

#[test]
fn our_groups_are_merged_and_replace_star() {
    let r = rules(
        "User-agent: *\nDisallow: /\n\nUser-agent: NewsHound/2.0\nDisallow: /a\n\n\
         User-agent: other\nDisallow: /b\n\nUser-agent: newshound\nDisallow: /c\n",
    );
    assert!(!r.allowed("/a/1"));
    assert!(r.allowed("/b/1"));
    assert!(!r.allowed("/c/1"));
    assert!(r.allowed("/d"));
}

#[test]
fn consecutive_agent_lines_share_a_group() {
    let r = rules("User-agent: other\nUser-agent: newshound\nDisallow: /shared\nCrawl-delay: 3\n");
    assert!(!r.allowed("/shared/1"));
    assert_eq!(r.crawl_delay, Some(3.0));
}

#[test]
fn star_applies_when_we_are_not_named() {
    let r =
        rules("User-agent: other\nDisallow: /o\n\nUser-agent: *\nDisallow: /s\nCrawl-delay: 4\n");
    assert!(r.allowed("/o/1"));
    assert!(!r.allowed("/s/1"));
    assert_eq!(r.crawl_delay, Some(4.0));
}

#[test]
fn rules_before_any_group_apply_only_without_groups() {
    let r = rules("Disallow: /secret\n");
    assert!(!r.allowed("/secret/1"));
    let r = rules("Disallow: /secret\nUser-agent: *\nDisallow: /other\n");
    assert!(r.allowed("/secret/1"));
    assert!(!r.allowed("/other"));
    // A Crawl-delay before the groups is a default for all of them.
    let r = rules("Crawl-delay: 7\nUser-agent: *\nDisallow: /x\n");
    assert_eq!(r.crawl_delay, Some(7.0));
}

#[test]
fn lenient_syntax_of_real_files() {
    let r = rules(
        "\u{FEFF}USER-AGENT : *\r\ndisalow /typo\r\nDisallow:/nospace # comment\r\n\
         Dissallow: /twice\0Allow: /twice/open\nSite-map: http://h/s.xml\nSitemap: http://h/t.xml #c\n\
         Disallow:\nAllowed: /not-a-rule\n",
    );
    assert!(!r.allowed("/typo"));
    assert!(!r.allowed("/nospace"));
    assert!(!r.allowed("/twice"));
    assert!(r.allowed("/twice/open"));
    assert!(r.allowed("/anything"));
    assert_eq!(r.sitemaps, vec!["http://h/s.xml", "http://h/t.xml"]);
    assert_eq!(r.rule_count(), 4);
}

#[test]
fn patterns_and_paths_compare_percent_encoded() {
    let r = rules("User-agent: *\nDisallow: /café\nDisallow: /a%2fb\nDisallow: /sp ace\n");
    assert!(!r.allowed("/caf%C3%A9/1"));
    assert!(!r.allowed("/a%2Fb"));
    assert!(!r.allowed("/sp%20ace"));
    assert!(r.allowed("/cafe"));
}

#[test]
fn robots_txt_itself_is_always_allowed() {
    let r = rules("User-agent: *\nDisallow: /\n");
    assert!(r.allowed("/robots.txt"));
    assert!(!r.allowed("/index.html"));
}

#[test]
fn identical_rules_are_kept_once_and_stars_collapsed() {
    let txt = "User-agent: *\n".to_string() + &"Disallow: /a***b\nDisallow: /a*b\n".repeat(1000);
    let r = rules(&txt);
    assert_eq!(r.rule_count(), 1);
    assert!(!r.allowed("/a/x/b"));
}

#[test]
fn only_the_first_500_kib_are_read_cut_at_a_line() {
    let mut txt = "User-agent: *\nDisallow: /early\n".to_string();
    while txt.len() < MAX_BYTES - 10 {
        txt.push_str("# filler filler filler filler filler\n");
    }
    // This line straddles the limit: cut, not read as `Disallow: /l`.
    txt.push_str("Disallow: /line-across-the-limit\nDisallow: /late\n");
    let r = rules(&txt);
    assert!(!r.allowed("/early"));
    assert!(r.allowed("/late"));
    assert!(r.allowed("/line-across-the-limit"));
    let head = truncate(txt.as_bytes());
    assert!(head.len() <= MAX_BYTES);
    assert_eq!(txt.as_bytes()[head.len()], b'\n');
}

#[test]
fn distinct_wildcard_rules_keep_little_memory() {
    // The shape of the hostile file, 500 KiB of distinct wildcard rules.
    let mut txt = "User-agent: *\n".to_string();
    let mut n = 0;
    while txt.len() < MAX_BYTES {
        n += 1;
        txt.push_str(&format!("Disallow: /news/*x{n:07}*.html$\n"));
    }
    let r = rules(&txt);
    assert!(
        r.rule_count() > 10_000 && r.rule_count() < n,
        "{}",
        r.rule_count()
    );
    let kept: usize = r.rules.iter().map(|r| r.pattern.len()).sum();
    assert!(kept < MAX_BYTES, "{kept}");
    assert!(!r.allowed("/news/a/x0000042/b.html"));
    assert!(r.allowed("/news/a/b.html"));
}

#[test]
fn regression_a_partial_byte_order_mark_hid_the_first_line() {
    // The first one or two bytes of a BOM (a file cut by a careless editor):
    // `User-agent: newshound` is still the first line, as Google reads it.
    for start in [&b"\xEF"[..], b"\xEF\xBB", b"\xEF\xBB\xBF"] {
        let mut txt = start.to_vec();
        txt.extend_from_slice(
            b"User-agent: newshound\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n",
        );
        let r = Rules::parse("newshound", &txt);
        assert!(!r.allowed("/a"), "{start:?}");
        assert!(r.allowed("/b"), "{start:?}");
    }
}
