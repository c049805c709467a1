//! Switching single heuristics of `auto` off, to measure what each is worth
//! (`eval --ablate NAME,…`): the ablation lines below are reproducible with
//! one command each.
//!
//! In: a comma-separated list of step names. Out: [`Ablations`], a set the
//! steps consult through [`Ablations::off`]. The default (empty) set is what
//! `extract` and the crawler run.
//!
//! What each modern-page step is worth: mean LCS F1 lost when it alone is
//! off (`newshound eval --set SET --ablate STEP`, release build, November 2026;
//! readability-dev / page-signal-dev / cleaneval-dev / cleanportaleval, full
//! `auto` = 0.9712 / 0.9596 / 0.9111 / 0.9661). The older steps of `auto`
//! are in `select`'s module doc.
//!
//! | off (`--ablate`) | rd | ps | ce | cpe |
//! |---|---|---|---|---|
//! | `comments`: comment threads removed (select step 1) | −0.0079 | −0.0025 | 0 | 0 |
//! | `leading-headline` (step 7) | −0.0017 | +0.0004 | 0 | 0 |
//! | `ancestor-siblings` (step 3) | −0.0020 | 0 | −0.0006 | 0 |
//! | `teaser-lists` (step 4) | −0.0042 | 0 | 0 | 0 |
//! | `slug-ids`: a heading-anchor id is not a widget name (step 1) | −0.0027 | 0 | 0 | 0 |
//! | `declared-beside`: no text-share guard beside a declared article (step 1) | −0.0039 | 0 | 0 | 0 |
//! | `gallery-in-body`: a gallery holding the best node, or inside it, left out (step 2) | −0.0062 | 0 | 0 | 0 |
//! | `nested-sections`: best lifted to the outermost section (step 2) | −0.0001 | −0.0002 | 0 | 0 |
//! | `declared-main`: best widened to the declared main around it (step 2) | −0.0036 | 0 | 0 | 0 |
//! | `interior-link-lists`: link lists inside the story kept (step 4) | −0.0009 | 0 | −0.00004 | 0 |
//!
//!
//! The steps for trafilatura's benchmark: snippet F lost on trafilatura-dev
//! (full `auto` F 0.9401: tp 1421, fn 59, fp 122, tn 1368), then mean LCS F1
//! lost on rd / ps / ce / cpe (full `auto` = 0.9721 / 0.9596 / 0.9116 /
//! 0.9732; debug build, same output):
//!
//! | off (`--ablate`) | td (snippet F) | rd | ps | ce | cpe |
//! |---|---|---|---|---|---|
//! | `format-chars`: soft hyphens, zero-width spaces out of words | −0.0014 | +0.0001 | 0 | 0 | 0 |
//! | `state-words`: `field--label-hidden`, `has-ads` are states | −0.0044 | 0 | 0 | 0 | 0 |
//! | `author-bios`: author boxes, "About the author" ends the text | −0.0028 | −0.0002 | 0 | 0 | 0 |
//! | `recipes`: best widened to the recipe around it | −0.0017 | 0 | 0 | 0 | 0 |
//! | `nav-articles`: `<article>` teasers in a `<nav>` protect nothing | −0.0007 | −0.0001 | 0 | 0 | 0 |
//!
//! Two steps that came later (debug build, same output; full `auto` =
//! 0.9764 / 0.9596 / 0.9116 / 0.9732, trafilatura-dev F 0.9408):
//!
//! | off (`--ablate`) | td (snippet F) | rd | ps | ce | cpe |
//! |---|---|---|---|---|---|
//! | `script-links`: a `javascript:` link wrapping blocks is no link | 0 | −0.0043 | 0 | 0 | 0 |
//! | `figure-lists`: a one-item list under a figure is its caption | 0 | 0 | 0 | 0 | 0 |
//!
//! Reader comments written after the story without an element of their
//! own (release build; full `auto` = 0.9764 / 0.9659 / 0.9116 / 0.9732,
//! trafilatura-dev F 0.9424: tp 1422, fn 58, fp 116, tn 1374):
//!
//! | off (`--ablate`) | td (snippet F) | rd | ps | ce | cpe |
//! |---|---|---|---|---|---|
//! | `comment-sections`: cut at a comments heading or anchor (step 6) | −0.0016 | 0 | −0.0063 | 0 | 0 |
//!
//! It moves five page-signal-dev pages, all up (0.19 → 0.98 and 0.29 →
//! 0.92 where a thread of 38 and 40 comments followed the story in its
//! container; 0.51 → 0.90, 0.91 → 1.00, 0.93 → 0.97), and two
//! trafilatura-dev pages (five `without` snippets out, no `with` snippet
//! lost); scored body-only, page-signal-dev 0.9522 → 0.9584 and no other
//! set moves. cleaneval-dev is scored with comments kept, where the step
//! is off. A singular "Comment", "Kommentar" or "Komentarz" alone is no
//! heading (a table column on readability-dev's dropbox-blog, an analysis
//! section on a trafilatura-dev page), nor is a heading inside a table.
//!
//! `script-links` moves one page of the corpus (Readability's own test of
//! a story wrapped in `<a href="javascript:">`); the narrow form (only a
//! link around blocks, never a button's label) changes nothing on the
//! other 392 corpus pages that hold `javascript:` links. `figure-lists` is a
//! furniture step for `extract`'s output: the sets whose gold keeps
//! captions are scored with captions kept, and the others have no such
//! list. Scored body-only (`--gold-has-captions=false
//! --gold-has-bylines=false`) it takes guardian-1's eight captions out, which
//! Readability's gold keeps: readability-dev 0.9719 with it off, 0.9710 with
//! it (0.9677 before both steps).
//!
//! `prose-links` (the links written into a paragraph's prose read as its
//! text; 2026-11-30) is worth, with `gallery-in-body` on: readability-dev
//! +0.0006, cleaneval-dev +0.0033, fundus-dev +0.0002, page-signal-dev and
//! cleanportaleval 0, trafilatura-dev snippet F 0;
//! on pages whose stories link a third of their words (`benches/lenses`,
//! `links 0.3`) 0.003–0.016 on each set's held-out half
//! (docs/algorithms.md).
//!
//! `slug-ids`, `declared-beside` and `gallery-in-body` each change one page
//! of the corpus (a Sphinx manual, a live-blog sidebar beside the
//! `<article>`, a 50-photo gallery inside `itemprop=articleBody`) and no
//! other page of the four sets; they are kept narrow for that reason.
//! `declared-main` moves five readability-dev pages (three up, two down by
//! ≤ 0.015); `nested-sections` one readability-dev page (a Sphinx manual's
//! nested `div.section`s; Google's SRE book, which nests `<section>`s, is
//! now also caught by `declared-main`) and one page-signal-dev page.
//!
//! Tried and left out (no net gain): limiting the text to the declared
//! `itemprop=articleBody` when density agrees (rd −0.0001: Readability's gold
//! keeps author notes and headings outside it); removing every gallery /
//! slideshow / carousel element (rd ±0: a slideshow of other stories on one
//! page, photo captions the gold keeps on another; `gallery-in-body` removes
//! one only when it holds the best node inside the declared article);
//! keeping every link list between kept text (rd +0.0010 but ps −0.0001,
//! cpe −0.0003: pull-out boxes of related links, "A A A" font controls,
//! sponsored links — hence the paragraph-flow and item-length checks);
//! byline lines anywhere in the text, not only among the first and last
//! paragraphs, and bare byline words ("By", "Por") left when the name was
//! taken out (rd +0.0001, but scored body-only page-signal-dev 0.9522 →
//! 0.9521 and cleaneval-dev page 4 −0.001: AP bylines between the
//! paragraphs, and a "by" over the author's name, that those golds keep).

use std::fmt;

/// A heuristic of `auto` that can be switched off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Reader-comment threads removed (when comments are not kept).
    Comments,
    /// A heading at the start of the text that matches the title is the
    /// headline, not text.
    LeadingHeadline,
    /// Sibling content blocks of the selection's ancestors merged.
    AncestorSiblings,
    /// Lists of story teasers (headline link over a summary) left out.
    TeaserLists,
    /// An id that spells out a heading says nothing negative.
    SlugIds,
    /// A declared article beside a noise element lifts its text-share guard.
    DeclaredBeside,
    /// The best node lifted to the outermost of its nested sections.
    NestedSections,
    /// A gallery holding the best node inside the declared article left out.
    GalleryInBody,
    /// Link lists between the story's text kept (not link-density pruned).
    InteriorLinkLists,
    /// The best node widened to the declared main container around it.
    DeclaredMain,
    /// Photo captions left out (`<figcaption>`, caption classes).
    Captions,
    /// Photo credits left out (credit classes, "Photo: …", "… / Getty Images").
    Credits,
    /// Byline and dateline boxes and lines left out.
    Bylines,
    /// Newsletter, subscription and cookie prompt lines left out.
    Prompts,
    /// "Read next" / "More from" / "Read more:" link lists left out.
    LinkLists,
    /// A plain first line that repeats the title left out.
    TitleLine,
    /// Tag / category lines and lone share-bar words left out.
    TagLines,
    /// Invisible format characters (soft hyphens, zero-width spaces)
    /// dropped from words.
    FormatChars,
    /// A boilerplate word qualified by another part of a class name
    /// (`field--label-hidden`, `has-ads`) is a state, not a role.
    StateWords,
    /// Boxes about the author left out (`author-bio` markup, an "About the
    /// author" heading ends the text).
    AuthorBios,
    /// The best node widened to the recipe around it (ingredients, times
    /// and nutrition beside the method).
    Recipes,
    /// `<article>` teasers inside navigation (a mega-menu) do not protect
    /// it from removal.
    NavArticles,
    /// A `javascript:` link is a script's button: its text is not link
    /// text (a story wrapped in one is not pruned as a link list).
    ScriptLinks,
    /// A one-item list right after a `<figure>` without its own caption
    /// is the figure's caption.
    FigureLists,
    /// Reader comments written after the story without an element of their
    /// own cut at their heading or anchor (when comments are not kept).
    CommentSections,
    /// A `<blockquote>` whose sentence the story prints again in its own
    /// paragraphs (a pull quote) left out, with its attribution.
    PullQuotes,
    /// A short block alone in a photo's box (whatever its class) is the
    /// photo's caption.
    PhotoCaptions,
    /// The words of class and id values are read at all (off: every
    /// element's class and id read as empty, as on the site of a publisher
    /// whose names say nothing: CSS modules, utility classes).
    ClassNames,
    /// The stories an infinite-scroll page appends after its own, in the
    /// template of its own, removed.
    NextStories,
    /// The links written into a paragraph's prose read as its text
    /// (`dom/prose_links.rs`).
    ProseLinks,
}

impl Step {
    pub const ALL: [Step; 30] = [
        Step::Comments,
        Step::LeadingHeadline,
        Step::AncestorSiblings,
        Step::TeaserLists,
        Step::SlugIds,
        Step::DeclaredBeside,
        Step::NestedSections,
        Step::GalleryInBody,
        Step::InteriorLinkLists,
        Step::DeclaredMain,
        Step::Captions,
        Step::Credits,
        Step::Bylines,
        Step::Prompts,
        Step::LinkLists,
        Step::TitleLine,
        Step::TagLines,
        Step::FormatChars,
        Step::StateWords,
        Step::AuthorBios,
        Step::Recipes,
        Step::NavArticles,
        Step::ScriptLinks,
        Step::FigureLists,
        Step::CommentSections,
        Step::PullQuotes,
        Step::PhotoCaptions,
        Step::ClassNames,
        Step::NextStories,
        Step::ProseLinks,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Step::Comments => "comments",
            Step::LeadingHeadline => "leading-headline",
            Step::AncestorSiblings => "ancestor-siblings",
            Step::TeaserLists => "teaser-lists",
            Step::SlugIds => "slug-ids",
            Step::DeclaredBeside => "declared-beside",
            Step::NestedSections => "nested-sections",
            Step::GalleryInBody => "gallery-in-body",
            Step::InteriorLinkLists => "interior-link-lists",
            Step::DeclaredMain => "declared-main",
            Step::Captions => "captions",
            Step::Credits => "credits",
            Step::Bylines => "bylines",
            Step::Prompts => "prompts",
            Step::LinkLists => "link-lists",
            Step::TitleLine => "title-line",
            Step::TagLines => "tag-lines",
            Step::FormatChars => "format-chars",
            Step::StateWords => "state-words",
            Step::AuthorBios => "author-bios",
            Step::Recipes => "recipes",
            Step::NavArticles => "nav-articles",
            Step::ScriptLinks => "script-links",
            Step::CommentSections => "comment-sections",
            Step::FigureLists => "figure-lists",
            Step::PullQuotes => "pull-quotes",
            Step::PhotoCaptions => "photo-captions",
            Step::ClassNames => "class-names",
            Step::NextStories => "next-stories",
            Step::ProseLinks => "prose-links",
        }
    }

    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// A set of switched-off steps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ablations(u32);

impl Ablations {
    /// Whether `step` is switched off.
    pub fn off(self, step: Step) -> bool {
        self.0 & step.bit() != 0
    }

    pub fn with(self, step: Step) -> Ablations {
        Ablations(self.0 | step.bit())
    }

    /// `comments,leading-headline`; an unknown name is an error that lists
    /// the known ones.
    pub fn parse(list: &str) -> Result<Ablations, String> {
        let mut set = Ablations::default();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let step = Step::ALL.iter().find(|s| s.name() == name).ok_or_else(|| {
                let known: Vec<&str> = Step::ALL.iter().map(|s| s.name()).collect();
                format!("unknown step {name:?} (known: {})", known.join(", "))
            })?;
            set = set.with(*step);
        }
        Ok(set)
    }
}

impl fmt::Display for Ablations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Step::ALL
            .iter()
            .filter(|s| self.off(**s))
            .map(|s| s.name())
            .collect();
        write!(f, "{}", names.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_names_and_reject_unknown() {
        let a = Ablations::parse("comments, leading-headline").unwrap_or_default();
        assert!(a.off(Step::Comments) && a.off(Step::LeadingHeadline));
        assert!(!a.off(Step::AncestorSiblings));
        assert_eq!(a.to_string(), "comments,leading-headline");
        let err = Ablations::parse("comments,nope").err().unwrap_or_default();
        assert!(
            err.contains("\"nope\"") && err.contains("ancestor-siblings"),
            "{err}"
        );
        assert_eq!(Ablations::parse(""), Ok(Ablations::default()));
    }
}
