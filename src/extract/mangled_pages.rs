//! Corpus pages damaged at random go through the whole extraction of every
//! algorithm without a panic. A crawl that runs for a month meets pages cut
//! short by a dropped connection, spliced by a broken cache, with stray
//! bytes, NULs, unclosed raw-text elements, absurd dates and thousands of
//! nested tags; the test build also panics on an arithmetic overflow that
//! the release build would wrap silently. The seed is fixed; for a longer
//! search, `NH_MANGLE_SEED=N NH_MANGLE_ROUNDS=5000 cargo test --release
//! --lib mangled`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use super::seeded::{draws, env_or};
use super::{Algorithm, ExtractOptions, Extractor, Page};

/// Markup and bytes dropped into a page: what tokenizers, charset sniffing,
/// metadata and the text rules each treat specially.
const PIECES: &[&[u8]] = &[
    b"<div>",
    b"</div>",
    b"<p>",
    b"</p>",
    b"<table><tr><td>",
    b"</td></tr></table>",
    b"<script>",
    b"</script>",
    b"<style>",
    b"<!--",
    b"-->",
    b"<![CDATA[",
    b"<title>",
    b"</title>",
    b"<svg>",
    b"<math>",
    b"<pre>",
    b"<textarea>",
    b"<plaintext>",
    b"<select>",
    b"<button>",
    b"<a href=\"javascript:void(0)\">",
    b"</a>",
    b"<h1>",
    b"<h2>Related stories</h2>",
    b"<ul><li>",
    b"<br>",
    b"<figure><figcaption>",
    b"<blockquote>",
    b"<article>",
    b"<main>",
    b"<aside class=\"related widget\">",
    b"<div class=\"comments\" id=\"gallery\" style=\"display:none\" hidden>",
    b"<meta charset=\"shift_jis\">",
    b"<meta http-equiv=\"content-type\" content=\"text/html; charset=utf-16\">",
    b"<script type=\"application/ld+json\">{\"@type\":\"NewsArticle\",\"articleBody\":\"",
    b"\"}</script>",
    b"<time datetime=\"9999-99-99T99:99\">",
    b"<meta property=\"article:published_time\" content=\"-0001-13-45T25:61:61+99:99\">",
    b"<meta name=\"author\" content=\"By , and / | \">",
    b"Published 31.02.99999 99:99 | By ",
    b"&#x10FFFF;",
    b"&#0;",
    b"&#xD800;",
    b"&amp",
    b"&",
    b"\0",
    b"\xff\xfe",
    b"\xc3",
    b"\xe2\x80",
    b"\xef\xbb\xbf",
    b"\r",
    b"\xc2\xad",
    b"\xe2\x80\x8b",
    "中文。日本語の記事、한국어".as_bytes(),
    "עברית العربية".as_bytes(),
];

/// `page` damaged once, in one of the ways a crawl meets.
fn damage(page: &mut Vec<u8>, draw: &mut impl FnMut(usize) -> usize) {
    let at = draw(page.len() + 1);
    match draw(6) {
        // Cut short, as by a dropped connection.
        0 => page.truncate(at),
        // A stretch lost.
        1 => {
            let len = draw(page.len() / 10 + 1);
            page.drain(at..(at + len).min(page.len()));
        }
        // A stretch written again elsewhere.
        2 => {
            let from = draw(page.len() + 1);
            let len = draw(page.len() / 10 + 1).min(page.len() - from);
            let copy = page[from..from + len].to_vec();
            page.splice(at..at, copy);
        }
        // Thousands of nested elements.
        3 => {
            let tag = [&b"<div>"[..], b"<b>", b"<li>", b"<span>"][draw(4)];
            page.splice(at..at, tag.repeat(500 + draw(3_000)));
        }
        // One word longer than any line.
        4 => {
            page.splice(at..at, std::iter::repeat_n(b'x', 10_000 + draw(50_000)));
        }
        _ => {
            page.splice(at..at, PIECES[draw(PIECES.len())].iter().copied());
        }
    }
}

#[test]
fn mangled_corpus_pages_never_panic_any_algorithm() {
    let pages = crate::corpus_archive::repo_corpus_pages();
    assert!(pages.len() >= 1_000, "the corpus has {} pages", pages.len());
    let rounds = env_or("NH_MANGLE_ROUNDS", 160usize);
    let mut draw = draws(env_or("NH_MANGLE_SEED", 29u64));
    let extractors: Vec<(Algorithm, bool, Extractor)> = Algorithm::ALL
        .iter()
        .flat_map(|&algorithm| [false, true].map(|text_only| (algorithm, text_only)))
        .map(|(algorithm, text_only)| {
            let opts = ExtractOptions {
                algorithm,
                text_only,
                ..ExtractOptions::default()
            };
            (algorithm, text_only, Extractor::new(opts))
        })
        .collect();
    let mut failed = Vec::new();
    let mut extracted = 0usize;
    for round in 0..rounds {
        let path = &pages[draw(pages.len())];
        let mut page = std::fs::read(path).expect("a corpus page");
        for _ in 0..1 + draw(3) {
            damage(&mut page, &mut draw);
        }
        // `auto` (the crawl's) on every page, the others on every eighth.
        for (algorithm, text_only, extractor) in &extractors {
            if *algorithm != Algorithm::Auto && round % 8 != 0 {
                continue;
            }
            extracted += 1;
            let run = catch_unwind(AssertUnwindSafe(|| {
                extractor.extract(Page::from_bytes(&page, None))
            }));
            if run.is_err() {
                failed.push(format!(
                    "round {round}, {}, {algorithm:?}, text_only {text_only}",
                    path.display()
                ));
            }
        }
    }
    println!("{extracted} extractions of {rounds} damaged pages");
    assert!(failed.is_empty(), "panicked: {failed:#?}");
}
