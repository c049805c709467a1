//! The page path's last step: a page's [`Outcome`](super::Outcome) → the
//! writer's operations, the same for a crawled page and an archived one.
//!
//! In: where the page came from ([`Source`]: its site, URL, fetch time),
//! what the path found (article, judgement, `tree` rule outcome), its kept
//! response, and what the run has learned so far ([`Learned`]: every site's
//! URL shapes and `tree` rule). Out: the [`WriteOp`]s for the store writer —
//! the `tree` rule's use, the URL shape's counts, the article — and what
//! the page counted as for its shape ([`Judged`]).

use std::collections::HashMap;
use std::sync::Mutex;

use url::Url;

use super::super::fetch::Fetched;
use super::super::judge::Judgement;
use super::super::pool::PageTools;
use super::super::shapes::{self, Judged, LiveShapes};
use crate::config::SiteSettings;
use crate::extract::tree::rule::{RuleOutcome, SiteRule};
use crate::extract::Article;
use crate::store::{KeptHtml, NewArticle, SiteRuleUpdate, UrlKind, WriteOp};

/// Where a processed page came from.
pub struct Source<'a> {
    pub site: &'a SiteSettings,
    /// What the source knew of the URL (see [`super::PageIn::kind`]).
    pub kind: UrlKind,
    /// The URL the article is stored under: the frontier's, or the
    /// archived record's.
    pub url: &'a str,
    /// The frontier's id of `url` (`None`: not a frontier URL).
    pub url_id: Option<i64>,
    /// The page's own URL (after redirects): its shape is counted.
    pub page_url: &'a Url,
    /// When the page was fetched (unix ms).
    pub fetched_at: i64,
    /// A stored article's URL fetched again to catch updates.
    pub refetch: bool,
}

/// What a run learns while pages go through the path: every site's URL
/// shapes and, with `tree`, its content rule.
#[derive(Default)]
pub struct Learned {
    pub shapes: LiveShapes,
    pub rules: LiveRules,
}

/// `tree`: each site's current content rule (loaded from the store when a
/// run starts, updated as pages learn or drop rules).
#[derive(Default)]
pub struct LiveRules {
    rules: Mutex<HashMap<String, SiteRule>>,
}

impl LiveRules {
    pub fn new(rules: HashMap<String, SiteRule>) -> LiveRules {
        LiveRules {
            rules: Mutex::new(rules),
        }
    }

    /// The site's rule now.
    pub fn get(&self, site: &str) -> Option<SiteRule> {
        self.rules.lock().ok()?.get(site).cloned()
    }

    /// Record what a `tree` page did to its site's rule: keep the map
    /// current and say what the store records.
    pub fn update(&self, site: &str, outcome: RuleOutcome) -> SiteRuleUpdate {
        let (by_rule, dropped, learned) = match outcome {
            RuleOutcome::ByRule => (true, false, None),
            RuleOutcome::Learned(r) => (false, false, r),
            RuleOutcome::Relearned(r) => (false, true, r),
        };
        if let Ok(mut rules) = self.rules.lock() {
            if dropped {
                rules.remove(site);
            }
            if let Some(r) = &learned {
                rules.insert(site.to_string(), r.clone());
            }
        }
        SiteRuleUpdate {
            site: site.to_string(),
            by_rule,
            dropped,
            learned: learned.map(|r| (r.to_json(), r.display())),
        }
    }
}

/// The response kept with an article (`[store] keep_html`): `body` (the
/// fetch's, taken out of it) compressed with the pool thread's context.
pub fn kept_page(tools: &mut PageTools, fetched: &Fetched, body: &[u8]) -> Option<KeptHtml> {
    let kept = tools.kept.as_mut()?;
    let url = fetched.final_url.as_str();
    kept.keep(
        url,
        fetched.status,
        fetched.kept_headers(),
        fetched.fetched_at,
        body,
    )
    // Compression fails only when zstd cannot allocate: the article is
    // still stored, without its page.
    .ok()
}

/// The writes of one processed page, appended to `ops`; returns what the
/// page counted as for its URL's shape (`None`: nothing, e.g. a feed).
/// `judgement` is `None` for documents that are not pages (feeds,
/// sitemaps).
pub fn writes(
    from: &Source<'_>,
    article: Option<Article>,
    judgement: Option<Judgement>,
    rule: Option<RuleOutcome>,
    html: Option<KeptHtml>,
    learned: &Learned,
    ops: &mut Vec<WriteOp>,
) -> Option<Judged> {
    let site = from.site;
    if let Some(outcome) = rule {
        ops.push(WriteOp::SiteRule(learned.rules.update(&site.name, outcome)));
    }
    let judged = match judgement {
        Some(j) if shapes::by_shapes(site) => Some(Judged::of_judgement(
            j.is_article(),
            j.is_listing() || matches!(from.kind, UrlKind::Seed | UrlKind::Index),
        )),
        _ => shapes::judged_by_kind(site, from.kind, article.is_some()),
    };
    if let Some(j) = judged {
        if let Some(update) = learned.shapes.observe(&site.name, from.page_url, j) {
            ops.push(WriteOp::Shapes(update));
        }
    }
    if let Some(article) = article {
        let new = NewArticle {
            url: from.url.to_string(),
            url_id: from.url_id,
            site: site.name.clone(),
            fetched_at: from.fetched_at,
            article,
            lines: site.lines,
            html,
        };
        ops.push(if from.refetch {
            WriteOp::Refetched(new)
        } else {
            WriteOp::Article(new)
        });
    }
    judged
}
