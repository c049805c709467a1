//! A fetched page's judgement as the store keeps it.
//!
//! In: the crawl's verdict on an HTML page (article or not, the reason
//! that decided, the kind it gives the URL). Out: the values of
//! `fetches.judged` and `fetches.judge_reason`, and the URL's new kind, the
//! same on both stores.

use super::UrlKind;

/// A fetched page's judgement as stored with its fetch (`fetches.judged`,
/// `fetches.judge_reason`): the crawl's `judge` decides, the store keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageJudgement {
    pub article: bool,
    /// Machine-readable (`declared_news_article`, `teaser_list`, `pattern`…).
    pub reason: &'static str,
    /// The URL's kind from now on when the judgement changes it
    /// ([`PageJudgement::kind_after`]); `None` leaves it.
    pub kind: Option<UrlKind>,
}

impl PageJudgement {
    /// The kind a URL of `kind` takes when its page is judged `article`:
    /// a plain page (found through links) or an index page (queued by a
    /// learned index shape) judged an article is an article URL from then
    /// on, refetched as one (`refetch_articles_after_secs`) and no longer
    /// revisited as a list; `None` when the kind stays.
    pub fn kind_after(article: bool, kind: UrlKind) -> Option<UrlKind> {
        (article && matches!(kind, UrlKind::Page | UrlKind::Index)).then_some(UrlKind::Article)
    }

    /// The `judged` column's value.
    pub fn verdict(&self) -> &'static str {
        if self.article {
            "article"
        } else {
            "not_article"
        }
    }
}
