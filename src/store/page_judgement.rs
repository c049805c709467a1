//! A fetched page's judgement as the store keeps it.
//!
//! In: the crawl's verdict on an HTML page (article or not, and the reason
//! that decided). Out: the values of `fetches.judged` and
//! `fetches.judge_reason`, the same on both stores.

/// A fetched page's judgement as stored with its fetch (`fetches.judged`,
/// `fetches.judge_reason`): the crawl's `judge` decides, the store keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageJudgement {
    pub article: bool,
    /// Machine-readable (`declared_news_article`, `teaser_list`, `pattern`…).
    pub reason: &'static str,
}

impl PageJudgement {
    /// The `judged` column's value.
    pub fn verdict(&self) -> &'static str {
        if self.article {
            "article"
        } else {
            "not_article"
        }
    }
}
