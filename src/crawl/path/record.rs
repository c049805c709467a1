//! The page path's last step: a page's [`Outcome`](super::Outcome) → the
//! writer's operations, the same for a crawled page and an archived one.
//!
//! In: where the page came from ([`Source`]: its site, URL, fetch time),
//! what the path found (article, judgement, `tree` rule outcome), its kept
//! response, and what the run has learned so far ([`Learned`]: every site's
//! URL shapes and `tree` rule). Out: the [`WriteOp`]s for the store writer —
//! the `tree` rule's use, the URL shape's counts (and the held pages a
//! shape now vouches for, judged again), the article — and what the page is
//! for the rest of the run ([`AfterJudgement`]).

use std::collections::HashMap;
use std::sync::Mutex;

use url::Url;

use super::super::fetch::Fetched;
use super::super::frontier;
use super::super::judge::{JudgeReason, Judgement};
use super::super::pool::PageTools;
use super::super::shapes::{self, Judged, LiveShapes};
use crate::config::SiteSettings;
use crate::extract::tree::rule::{RuleOutcome, SiteRule};
use crate::extract::Article;
use crate::store::{KeptHtml, NewArticle, NewUrl, Rejudge, SiteRuleUpdate, UrlKind, WriteOp};

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
    /// `[store] max_text_bytes`: an article's text is cut after its last
    /// whole line within it.
    pub max_text_bytes: usize,
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

/// The response kept with an article whose body is already compressed:
/// an archived record's gzip member, which holds the page and is read back
/// as it ([`KeptHtml::of_compressed`]).
pub fn kept_member(fetched: &Fetched, member: Vec<u8>) -> KeptHtml {
    KeptHtml::of_compressed(
        fetched.final_url.as_str(),
        fetched.status,
        fetched.kept_headers(),
        fetched.fetched_at,
        fetched.body.len() as u64,
        member,
    )
}

/// What a judged page is for the rest of the run.
#[derive(Debug, Default)]
pub struct AfterJudgement {
    /// Judged on its evidence (a site without patterns).
    pub judged: bool,
    /// A list of links of a site without patterns: a crawl revisits it
    /// like an index page.
    pub listing: bool,
    /// Judged not an article for want of evidence a listing or its shape
    /// may bring: a crawl holds it back (`LiveShapes::hold`) once its
    /// writes are sent.
    pub hold: bool,
    /// The article's text was cut at `max_text_bytes`: its length before
    /// and after.
    pub text_cut: Option<(usize, usize)>,
}

/// The writes of one processed page, appended to `ops`: the `tree` rule's
/// use, the page's shape counted (and the held pages its shape now vouches
/// for judged again), the article. `judgement` is `None` for documents
/// that are not pages (feeds, sitemaps).
pub fn writes(
    from: &Source<'_>,
    article: Option<Article>,
    judgement: Option<Judgement>,
    rule: Option<RuleOutcome>,
    html: Option<KeptHtml>,
    learned: &Learned,
    ops: &mut Vec<WriteOp>,
) -> AfterJudgement {
    let site = from.site;
    if let Some(outcome) = rule {
        ops.push(WriteOp::SiteRule(learned.rules.update(&site.name, outcome)));
    }
    let mut after = AfterJudgement::default();
    let judged = match judgement {
        Some(j) if shapes::by_shapes(site) => {
            after.judged = true;
            after.listing = j.is_listing();
            // Only a page found through links waits for new evidence: a
            // listed one had all it will get.
            after.hold =
                j.reason.revisable() && matches!(from.kind, UrlKind::Page | UrlKind::Index);
            // A start page is a list of links, whatever its text.
            match j.shape_evidence() {
                Some(e) if from.kind == UrlKind::Seed && e != Judged::Article => {
                    Some(Judged::Listing)
                }
                e => e,
            }
        }
        _ => shapes::judged_by_kind(site, from.kind, article.is_some()),
    };
    let revision = learned.shapes.observe(&site.name, from.page_url, judged);
    ops.extend(revision.update.map(WriteOp::Shapes));
    if !revision.rejudge.is_empty() {
        let urls = (revision.rejudge.into_iter()).map(|u| as_article(u, &site.name));
        ops.push(rejudge(urls.collect()));
    }
    if let Some(mut article) = article {
        if let Some(len) = article.cap_text(from.max_text_bytes) {
            after.text_cut = Some((len, article.text.len()));
        }
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
    after
}

/// Judge `urls` again, if their last judgement was one new evidence may
/// change.
pub fn rejudge(urls: Vec<NewUrl>) -> WriteOp {
    WriteOp::Rejudge(Rejudge {
        urls,
        reasons: JudgeReason::revisable_strs(),
    })
}

/// A URL of `site` to judge again, as an article: due first.
pub fn as_article(url: String, site: &str) -> NewUrl {
    NewUrl {
        url,
        site: site.to_string(),
        kind: UrlKind::Article,
        depth: 1,
        priority: frontier::priority(UrlKind::Article, 1),
    }
}
