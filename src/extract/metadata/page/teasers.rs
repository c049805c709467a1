//! The teasers of a page, as the metadata pass meets them: each linked
//! heading's text and the summary under it, for the crawl's judgement to
//! look for in the extracted body ([`PageSignals::teasers`]).

use scraper::ElementRef;

use super::{bounded_text, Page, HINT_TEXT_LIMIT};
use crate::extract::metadata::signals::{TeaserText, MAX_TEASER_TEXTS};

#[cfg(doc)]
use crate::extract::metadata::PageSignals;

/// Text nodes after a teaser's heading read for its summary (the heading's
/// own text, a kicker, a date, then the summary).
const SUMMARY_TEXTS_SEEN: usize = 6;
/// A teaser's summary is at least this long (shorter texts are kickers,
/// dates, author names).
const SUMMARY_MIN_CHARS: usize = 40;

impl Page {
    /// A teaser's heading text; its summary is the next longer text that
    /// is not a link ([`Page::read_summary`]), before the next heading.
    pub(super) fn keep_teaser(&mut self, heading: ElementRef) {
        if self.signals.teasers.len() >= MAX_TEASER_TEXTS {
            return;
        }
        if let Some(heading) = bounded_text(heading, HINT_TEXT_LIMIT, false) {
            self.signals.teasers.push(TeaserText {
                heading,
                summary: None,
            });
            self.summary_texts_left = SUMMARY_TEXTS_SEEN;
        }
    }

    /// The summary of the last teaser, if `text` is one: long enough, and
    /// not a link's text (the heading's own, a "read more").
    pub(super) fn read_summary(&mut self, node: ego_tree::NodeRef<scraper::Node>, text: &str) {
        let t = text.trim();
        if t.chars().count() < SUMMARY_MIN_CHARS
            || node
                .ancestors()
                .take(4)
                .filter_map(ElementRef::wrap)
                .any(|a| a.value().name() == "a")
        {
            return;
        }
        if let Some(last) = self.signals.teasers.last_mut() {
            last.summary = Some(t.split_whitespace().collect::<Vec<_>>().join(" "));
        }
        self.summary_texts_left = 0;
    }
}
