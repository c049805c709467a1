//! Furniture out of the selected article text: photo captions and credits,
//! byline and dateline lines, newsletter / subscription / cookie prompts,
//! "Read next" / "More from" link lists, and the headline repeated as a
//! plain first line.
//!
//! In: the selection of `auto` (the arena, its statistics and the skip
//! mask; then the assembled paragraphs and the chosen ones). Out: the skip
//! mask grown by the furniture elements the markup names
//! ([`skip_named`], rules in [`markup`]), and the chosen paragraphs without
//! the furniture lines the words give away ([`drop_lines`], rules in
//! [`lines`]). Every rule is a step of [`Ablations`](super::ablation) and
//! was kept only where it did not lose F1 over the four corpus sets (the
//! figures are in `select.rs`'s module doc and docs/algorithms.md).
//!
//! Gold sets that count captions or bylines as text are scored with them
//! kept ([`Keep`], set by `eval`'s gold convention), never by keeping them
//! in `extract`'s output.

mod disclosures;
pub mod lines;
pub mod markup;
mod prompt_words;
mod pull_quotes;
mod tag_lines;

use super::ablation::Step;
use super::dom::{Dom, Stats};
use super::headline;
use super::text::{Para, TextSink};
use super::ExtractOptions;

/// Every step of this module (`eval --ablate`; the bench switches them
/// all off to measure what they cost).
pub const STEPS: [Step; 10] = [
    Step::Captions,
    Step::FigureLists,
    Step::PullQuotes,
    Step::Credits,
    Step::Bylines,
    Step::Prompts,
    Step::LinkLists,
    Step::TitleLine,
    Step::TagLines,
    Step::AuthorBios,
];

/// The steps of [`drop_lines`]: every step but `Captions`, `FigureLists`
/// and `PullQuotes` (the first three), which work on the markup.
const FURNITURE_LINE_STEPS: &[Step] = STEPS.split_at(3).1;

/// Furniture a caller wants kept in the text (a gold set that counts it);
/// all false for `extract` and the crawler.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Keep {
    /// Photo captions with their credits (a gold that keeps captions, as
    /// Readability's, keeps the credit line in them).
    pub captions: bool,
    /// Byline and dateline lines.
    pub bylines: bool,
}

/// Calibrated together on the corpus (tests/corpus, all four sets with gold).
mod tune {
    /// An id with more parts than this is a slug of the text, not a name.
    pub const ID_MAX_PARTS: usize = 3;
    /// A caption element holds at most this many characters …
    pub const CAPTION_MAX_CHARS: u32 = 400;
    /// … a credit element this many …
    pub const CREDIT_MAX_CHARS: u32 = 120;
    /// … a byline or dateline box this many …
    pub const BYLINE_MAX_CHARS: u32 = 120;
    /// … and a box about the author this many.
    pub const BIO_MAX_CHARS: u32 = 1500;
    /// An inline element is furniture only when its block holds at most
    /// this many characters besides it ("By" before the author's span).
    pub const INLINE_SLACK_CHARS: u32 = 12;
    /// A byline or dateline line holds at most this many characters …
    pub const LINE_MAX_CHARS: usize = 120;
    /// … and words.
    pub const LINE_MAX_WORDS: usize = 16;
    /// A dateline may start with a name of at most this many words.
    pub const DATELINE_MAX_NAME_WORDS: usize = 3;
    /// A credit line holds at most this many words.
    pub const CREDIT_MAX_WORDS: usize = 8;
    /// Non-whitespace characters above which a paragraph is prose, not a
    /// furniture line (the longest line rule, prompts, allows 200 with
    /// spaces).
    pub const SHORT_LINE_CHARS: u32 = 200;
    /// A prompt line holds at most this many characters …
    pub const PROMPT_MAX_CHARS: usize = 200;
    /// … a newsletter invitation anywhere in its line this many (a
    /// sentence of a story about a newsletter runs longer) …
    pub const NEWSLETTER_INVITE_MAX_CHARS: usize = 120;
    /// … and a Japanese paywall line this many (a sentence of the story
    /// runs longer; the longest paywall line seen held 51).
    pub const MEMBER_PROMPT_MAX_CHARS: usize = 64;
    /// A link-list heading holds at most this many characters.
    pub const LINK_HEADING_MAX_CHARS: usize = 40;
    /// Bylines and datelines are looked for among the first paragraphs up
    /// to the first one of this many characters (the story's first) …
    pub const LEAD_PARA_CHARS: u32 = 150;
    /// … at most this many of them …
    pub const LEAD_MAX_PARAS: usize = 6;
    /// … and among the last this many paragraphs.
    pub const TAIL_PARAS: usize = 3;
}

/// The furniture kinds switched on for this run.
fn wanted(opts: &ExtractOptions, kind: markup::Kind) -> bool {
    match kind {
        markup::Kind::Caption => !opts.keep.captions && !opts.ablate.off(Step::Captions),
        markup::Kind::Credit => !opts.keep.captions && !opts.ablate.off(Step::Credits),
        markup::Kind::Byline => !opts.keep.bylines && !opts.ablate.off(Step::Bylines),
        markup::Kind::AuthorBio => !opts.ablate.off(Step::AuthorBios),
    }
}

/// Adds to `skip` the elements the markup names as captions, credits,
/// bylines and datelines (closed under descendants).
pub fn skip_named<'a>(dom: &Dom<'a>, stats: &[Stats], skip: &mut [bool], opts: &ExtractOptions) {
    let kinds = [
        markup::Kind::Caption,
        markup::Kind::Credit,
        markup::Kind::Byline,
        markup::Kind::AuthorBio,
    ];
    if !kinds.iter().any(|&k| wanted(opts, k)) {
        return;
    }
    let figure_lists = wanted(opts, markup::Kind::Caption) && !opts.ablate.off(Step::FigureLists);
    // A gold that keeps captions keeps the other display text set in the
    // story's flow too (bbc's pull quotes with their credit on
    // cleanportaleval, medium's on readability-dev).
    let pull_quotes = !opts.keep.captions && !opts.ablate.off(Step::PullQuotes);
    let n = dom.len();
    let mut classes = markup::ClassCache::default();
    let mut i = 1;
    while i < n {
        let nd = &dom.nodes[i];
        if skip[i] {
            i = nd.end as usize;
            continue;
        }
        let furniture = markup::kind_of(dom, stats, i, &mut classes)
            .filter(|&k| wanted(opts, k))
            .is_some_and(|k| {
                // Caption and credit spans sit inside a caption block; a
                // byline word on an inline element may be a date in prose.
                k != markup::Kind::Byline
                    || nd.tag.is_block()
                    || alone_in_block(dom, stats, i)
                    || markup::alone_on_its_line(dom, i)
            })
            || (figure_lists && markup::is_figure_list(dom, stats, i));
        if let Some(top) = pull_quotes
            .then(|| pull_quotes::pull_quote_box(dom, stats, i))
            .flatten()
        {
            // The box may start before the quote (a quote icon); its
            // earlier nodes were passed but are skipped now.
            let end = dom.nodes[top].end as usize;
            for s in &mut skip[top..end] {
                *s = true;
            }
            i = end;
            continue;
        }
        if furniture {
            let end = nd.end as usize;
            for s in &mut skip[i..end] {
                *s = true;
            }
            i = end;
            continue;
        }
        i += 1;
    }
    if wanted(opts, markup::Kind::Caption) && !opts.ablate.off(Step::PhotoCaptions) {
        skip_photo_captions(dom, stats, skip);
    }
}

/// Adds to `skip` the short blocks that sit in a photo's box with no other
/// text ([`markup::beside_a_photo`]): captions whatever their class says.
/// Not when they hold a third of the page's text or more: then the page
/// is told in photos and their texts (a photo blog, a short post set
/// beside pictures), and those texts are its story.
fn skip_photo_captions(dom: &Dom<'_>, stats: &[Stats], skip: &mut [bool]) {
    let photos = markup::photos_under(dom);
    if !photos[0] {
        return;
    }
    let mut captions = Vec::new();
    let mut i = 1;
    while i < dom.len() {
        if !skip[i] && markup::beside_a_photo(dom, stats, &photos, i) {
            captions.push(i);
            i = dom.nodes[i].end as usize;
        } else {
            i += 1;
        }
    }
    let caption_chars: u32 = captions.iter().map(|&c| stats[c].chars).sum();
    if caption_chars * 3 >= stats[0].chars {
        return;
    }
    for c in captions {
        let end = dom.nodes[c].end as usize;
        for s in &mut skip[c..end] {
            *s = true;
        }
    }
}

/// An inline element that is (nearly) all of its nearest block's text: a
/// `<span class="date">` line, not a date inside a sentence.
fn alone_in_block(dom: &Dom<'_>, stats: &[Stats], i: usize) -> bool {
    let mut b = dom.nodes[i].parent as usize;
    while b != 0 && !dom.nodes[b].tag.is_block() {
        b = dom.nodes[b].parent as usize;
    }
    stats[b].chars <= stats[i].chars + tune::INLINE_SLACK_CHARS
}

/// Removes from `chosen` (indices of `paras`, ascending) the furniture lines:
/// bylines and datelines among the first and last paragraphs, credits,
/// prompts, tag lines and link lists anywhere, and a first line that is
/// the title.
/// Returns that title line: it is the headline (`title`), never text.
pub fn drop_lines(
    sink: &TextSink,
    paras: &[Para],
    chosen: &mut Vec<usize>,
    title: Option<&str>,
    opts: &ExtractOptions,
) -> Option<String> {
    if FURNITURE_LINE_STEPS.iter().all(|&s| opts.ablate.off(s)) {
        return None;
    }
    let text = |k: usize| sink.para_text(chosen[k]);
    let len = chosen.len();
    let mut drop = vec![false; len];
    let bylines = !opts.keep.bylines && !opts.ablate.off(Step::Bylines);
    if bylines {
        let lead_end = (0..len.min(tune::LEAD_MAX_PARAS))
            .find(|&k| paras[chosen[k]].chars >= tune::LEAD_PARA_CHARS)
            .unwrap_or(len.min(tune::LEAD_MAX_PARAS));
        let tail_start = len.saturating_sub(tune::TAIL_PARAS).max(lead_end);
        for k in (0..lead_end).chain(tail_start..len) {
            if paras[chosen[k]].chars > tune::SHORT_LINE_CHARS {
                continue;
            }
            let t = text(k);
            drop[k] = lines::is_byline(t) || lines::is_dateline(t);
        }
    }
    let credits = !opts.keep.captions && !opts.ablate.off(Step::Credits);
    let captions = !opts.keep.captions && !opts.ablate.off(Step::Captions);
    let prompts = !opts.ablate.off(Step::Prompts);
    let tag_lines = !opts.ablate.off(Step::TagLines);
    let link_lists = !opts.ablate.off(Step::LinkLists);
    let linky = |k: usize| {
        let p = &paras[chosen[k]];
        p.link_chars * 2 > p.chars
    };
    let mut k = 0;
    while k < len {
        // Disclosures run to a few sentences of legal wording.
        if prompts
            && paras[chosen[k]].chars as usize <= disclosures::DISCLOSURE_MAX_CHARS
            && disclosures::is_disclosure(text(k))
        {
            drop[k] = true;
            k += 1;
            continue;
        }
        // Every rule below is for short lines: prose is passed at once.
        if paras[chosen[k]].chars > tune::SHORT_LINE_CHARS {
            k += 1;
            continue;
        }
        let t = text(k);
        if (credits && lines::is_credit(t))
            || (captions && lines::is_caption_line(t))
            || (prompts && lines::is_prompt(t))
            || (tag_lines && lines::is_tag_line(t))
            || (link_lists && lines::is_read_more_line(t) && linky(k))
            || (link_lists && lines::is_teaser_line(t))
        {
            drop[k] = true;
        } else if link_lists && lines::is_link_list_heading(t) {
            // The heading goes with the links under it; alone, it is what
            // is left of a list that link pruning took.
            let run = (k + 1..len).take_while(|&j| linky(j)).count();
            for d in &mut drop[k..=k + run] {
                *d = true;
            }
            k += run + 1;
            continue;
        }
        k += 1;
    }
    let mut headline = None;
    if !opts.ablate.off(Step::TitleLine) {
        if let Some(title) = title {
            let mut open = (0..len).filter(|&k| !drop[k]);
            let (first, second) = (open.next(), open.next());
            // The headline may come under its kicker ("Extremism"), a
            // label of a few words that is no sentence.
            let at = match (first, second) {
                (Some(f), _) if repeats_title(text(f), title) => Some(f),
                (Some(f), Some(s)) if is_kicker(text(f)) && repeats_title(text(s), title) => {
                    drop[f] = true;
                    Some(s)
                }
                _ => None,
            };
            if let Some(at) = at {
                drop[at] = true;
                headline = Some(text(at).to_string());
                // Pages that print the headline twice (a mobile and a
                // desktop copy) give it twice in a row.
                if let Some(next) = (at + 1..len).find(|&k| !drop[k]) {
                    if repeats_title(text(next), title) {
                        drop[next] = true;
                    }
                }
            }
        }
    }
    let mut k = 0;
    chosen.retain(|_| {
        k += 1;
        !drop[k - 1]
    });
    headline
}

/// A kicker over a headline: at most four words, no sentence.
fn is_kicker(line: &str) -> bool {
    let line = line.trim();
    let words = line.split_whitespace().count();
    (1..=4).contains(&words)
        && line.chars().count() <= 40
        && !line.ends_with(['.', '!', '?', ':', '。'])
}

/// A plain first line (not a heading element: step 7 of `select` takes
/// those) that is the page title, or the title is it plus a site name.
fn repeats_title(line: &str, title: &str) -> bool {
    let norm = |s: &str| -> String {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let (line, title) = (norm(line), norm(title));
    line.chars().count() >= 10
        && (line == title || title.starts_with(&line))
        && headline::matches_title(&line, &title)
}

#[cfg(test)]
mod tests;
