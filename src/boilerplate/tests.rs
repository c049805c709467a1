//! Unit tests of the pure line rule: normalisation, hashing, the exact
//! threshold, the interior guard and text reassembly.

use super::*;

fn counts(rc: u64, lines: &[(&str, u64)]) -> SiteCounts {
    SiteCounts {
        rc,
        lc: lines
            .iter()
            .map(|(l, n)| (line_hash(&normalize_line(l)), *n))
            .collect(),
    }
}

const PLAIN: Variant = Variant {
    mask_digits: true,
    guard_long_interior: false,
    guard_mostly_dropped: false,
};

#[test]
fn normalize_trims_collapses_and_composes() {
    assert_eq!(
        normalize_line("  Share \t this\u{a0} story  "),
        "Share this story"
    );
    // "é" decomposed (e + combining acute) and precomposed hash the same.
    assert_eq!(
        normalize_line("Caf\u{65}\u{301}"),
        normalize_line("Caf\u{e9}")
    );
    assert_eq!(normalize_line("zero\u{200b}width"), "zerowidth");
    assert_eq!(normalize_line(" \t "), "");
}

#[test]
fn digits_are_masked_so_years_match() {
    assert_eq!(normalize_line("© 2011 BBC"), normalize_line("© 2012 BBC"));
    assert_eq!(normalize_line("Comments (3)"), "Comments (#)");
    assert_eq!(normalize_line("１２月"), "#月");
    assert_ne!(
        normalize_with("© 2011", false),
        normalize_with("© 2012", false)
    );
}

#[test]
fn line_hash_is_md5() {
    // MD5("abc") from RFC 1321.
    let h = line_hash("abc");
    let hex: String = h.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hex, "900150983cd24fb0d6963f7d28e17f72");
}

#[test]
fn rule_boundaries_are_exact() {
    let rule = LineRule { window: 50 };
    // RC < 50: int(1 + RC/50) = 1, so a second sighting is boilerplate.
    assert!(!rule.is_boilerplate(1, 1));
    assert!(rule.is_boilerplate(2, 2));
    assert!(rule.is_boilerplate(2, 49));
    // RC = 50: threshold 2.
    assert!(!rule.is_boilerplate(2, 50));
    assert!(rule.is_boilerplate(3, 50));
    // RC = 99: still 2 (integer division); RC = 100: 3.
    assert!(rule.is_boilerplate(3, 99));
    assert!(!rule.is_boilerplate(3, 100));
    assert!(rule.is_boilerplate(4, 100));
    assert_eq!(rule.threshold(1234), 25);
    // A window of 0 must not panic.
    assert_eq!(LineRule { window: 0 }.threshold(5), 6);
}

#[test]
fn filter_keeps_paragraph_structure() {
    let text = "Menu\nHome\n\nFirst paragraph.\n\nCopyright 2011\n\nSecond paragraph.\nSame block.\n\nShare\n";
    let c = counts(
        10,
        &[
            ("Menu", 9),
            ("Home", 9),
            ("Copyright 2099", 10),
            ("Share", 3),
        ],
    );
    let out = filter(text, &LineRule::default(), &PLAIN, &c);
    assert_eq!(
        out.text,
        "First paragraph.\n\nSecond paragraph.\nSame block."
    );
    assert_eq!(out.dropped, 4);
}

#[test]
fn filter_collapses_blank_runs_and_never_leads_or_trails_blank() {
    let text = "\n\n  A  \n\n\n\nX\n\n\nB\n\n";
    let c = counts(5, &[("X", 5)]);
    let out = filter(text, &LineRule::default(), &PLAIN, &c);
    assert_eq!(out.text, "A\n\nB");
    // A dropped line inside a block keeps the block together.
    let out = filter("A\nX\nB", &LineRule::default(), &PLAIN, &c);
    assert_eq!(out.text, "A\nB");
    // All dropped: empty.
    let out = filter("X\n\nX", &LineRule::default(), &PLAIN, &c);
    assert_eq!((out.text.as_str(), out.dropped), ("", 2));
}

#[test]
fn long_paragraph_with_recurring_sentence_is_kept() {
    let sentence = "Sign up for our newsletter.";
    let paragraph = format!(
        "The council voted on Tuesday to close the bridge. {sentence} Repairs start in May."
    );
    let text = format!("{sentence}\n\n{paragraph}");
    // The sentence alone recurs everywhere; the paragraph is new.
    let c = counts(200, &[(sentence, 200)]);
    let out = filter(&text, &LineRule::default(), &PLAIN, &c);
    assert_eq!(out.text, paragraph);
}

#[test]
fn interior_guard_keeps_long_body_line_seen_twice() {
    let long = "A long paragraph of a story that was published once and then updated under a new address, so it recurs.";
    assert!(long.chars().count() >= LONG_LINE_CHARS);
    let text = format!("Share\n\nIntro line.\n\n{long}\n\nOutro line.\n\nShare");
    let c = counts(3, &[("Share", 3), (long, 2)]);
    let guarded = Variant {
        guard_long_interior: true,
        ..PLAIN
    };
    let out = filter(&text, &LineRule::default(), &guarded, &c);
    assert_eq!(out.text, format!("Intro line.\n\n{long}\n\nOutro line."));
    // Without the guard the plain rule drops it...
    let out = filter(&text, &LineRule::default(), &PLAIN, &c);
    assert_eq!(out.text, "Intro line.\n\nOutro line.");
    // ...and with the guard, enough evidence (LC > 2·threshold) still drops it.
    let c = counts(3, &[("Share", 3), (long, 3)]);
    let out = filter(&text, &LineRule::default(), &guarded, &c);
    assert_eq!(out.text, "Intro line.\n\nOutro line.");
}

#[test]
fn interior_guard_does_not_protect_edges() {
    let long = "Sign up for the daily briefing: the top stories of the day delivered to your inbox every morning at six.";
    let text = format!("Body line one.\n\nBody line two.\n\n{long}");
    let c = counts(3, &[(long, 2)]);
    let guarded = Variant {
        guard_mostly_dropped: false,
        ..Variant::default()
    };
    let out = filter(&text, &LineRule::default(), &guarded, &c);
    assert_eq!(out.text, "Body line one.\n\nBody line two.");
}

#[test]
fn mostly_dropped_guard_keeps_a_republished_story() {
    let story = "Read comments on mobile Web\n\nOur latest release includes the ability to read comments.\n\nThanks for reading!";
    let text = format!("Menu\n\n{story}");
    let c = counts(
        4,
        &[
            ("Menu", 4),
            ("Read comments on mobile Web", 2),
            (
                "Our latest release includes the ability to read comments.",
                2,
            ),
            ("Thanks for reading!", 2),
        ],
    );
    let guarded = Variant {
        guard_mostly_dropped: true,
        ..PLAIN
    };
    // The whole story was seen before: the plain rule empties the page...
    assert_eq!(filter(&text, &LineRule::default(), &PLAIN, &c).text, "");
    // ...the guard drops only the line with strong evidence (LC 4 > 2·1).
    let out = filter(&text, &LineRule::default(), &guarded, &c);
    assert_eq!((out.text.as_str(), out.dropped), (story, 1));
}

#[test]
fn distinct_lines_counts_repeats_once() {
    let pieces = split_lines("A\n\nB\nA\n\nA", &Variant::default());
    let d = distinct_lines(&pieces);
    assert_eq!(d.len(), 2);
    assert_eq!(d[0].normalized, "A");
    assert_eq!(d[1].normalized, "B");
}

#[test]
fn status_boundaries_are_the_thresholds_judge_uses() {
    let rule = LineRule { window: 50 };
    // RC = 100: t = 3, 2t = 6.
    let statuses: Vec<u8> = (0..=8).map(|lc| rule.status(lc, 100)).collect();
    assert_eq!(statuses, [0, 0, 0, 0, 1, 1, 1, 2, 2]);
}

#[test]
fn judge_depends_on_counts_only_through_status() {
    // Two count tables giving every line the same status give the same
    // judgement, whatever the counts; the re-clean of changed lines relies
    // on this.
    let long = "A long paragraph inside the story that some other page quoted word for word.";
    let text = format!("Menu\n\n{long}\n\nStory.\n\nShare\nFooter");
    let lines = ["Menu", long, "Story.", "Share", "Footer"];
    let rule = LineRule { window: 5 };
    let variant = Variant::default();
    let pieces = split_lines(&text, &variant);
    for rc in [1, 4, 5, 12, 40] {
        let t = rule.threshold(rc);
        // For each status, the lowest and the highest LC that has it.
        let low = [0, t + 1, 2 * t + 1];
        let high = [t, 2 * t, rc.max(2 * t + 1)];
        for combo in 0..3u32.pow(lines.len() as u32) {
            let status = |i: usize| (combo / 3u32.pow(i as u32) % 3) as usize;
            let table = |pick: &[u64; 3]| SiteCounts {
                rc,
                lc: lines
                    .iter()
                    .enumerate()
                    .map(|(i, l)| (line_hash(&normalize_line(l)), pick[status(i)]))
                    .collect(),
            };
            let a = judge(&pieces, &rule, &variant, &table(&low));
            let b = judge(&pieces, &rule, &variant, &table(&high));
            assert_eq!(a, b, "rc {rc} statuses {combo}");
        }
    }
}
