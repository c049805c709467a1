//! `sites check NAME --fetch N`: up to N of the links found fetched (through
//! the check's politeness; blocked links never) and judged by the crawl's
//! own page path, as the crawl would queue them; nothing stored.
//!
//! In: the labelled links of a check, the site's learned shapes, N. Out:
//! each fetched link's [`JudgedLink`]: the verdict, its reason and the
//! evidence weighed (declared type, body, date, where the link was listed,
//! its URL shape), in words ([`JudgedLink::evidence_text`]) and as fields.
//! Article links are fetched first, then links explored, then index pages:
//! what the crawl would store comes first.

use url::Url;

use super::label::{LinkLabel, LinkSource};
use super::Check;
use crate::crawl::fetch::{Expect, Validators};
use crate::crawl::judge::{Evidence, LINK_LIST_DENSITY};
use crate::crawl::page::{self, PageInput};
use crate::crawl::shapes::{by_shapes, shape_of, ShapeClass, ShapeTable};
use crate::crawl::worker::now_ms;
use crate::extract::ExtractOptions;
use crate::store::UrlKind;
use crate::urls::host_key;

/// What a fetched link's page was judged.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct JudgedLink {
    /// `article` or `not_article`; `None` when the page could not be
    /// fetched.
    pub verdict: Option<&'static str>,
    /// The reason that decided (`listed`, `undated`, `pattern`…).
    pub reason: Option<&'static str>,
    /// What the judgement weighed (`None` when patterns decided).
    pub evidence: Option<Evidence>,
    /// The URL's shape, and its learned class (`/world/{slug}/ (learned:
    /// article)`).
    pub shape: String,
    /// Why it was not judged (a fetch error), if so.
    pub failed: Option<String>,
}

impl JudgedLink {
    /// The evidence in words: `og:type=article, publication time; 412
    /// words in 7 paragraphs, a headline, dated; 8 % link text; listed: a
    /// feed entry; shape /news/{slug}-{id} (learned: article)`.
    pub fn evidence_text(&self, source: LinkSource) -> String {
        let listed = match source {
            LinkSource::FeedEntry => "listed: a feed entry",
            LinkSource::SitemapEntry => "listed: a sitemap entry",
            LinkSource::Page => "not listed: a link of a start page",
        };
        let Some(e) = &self.evidence else {
            return format!("{listed}; shape {}", self.shape);
        };
        let mut declared = Vec::new();
        match e.og_article {
            Some(true) => declared.push("og:type=article"),
            Some(false) => declared.push("og:type of another kind"),
            None => {}
        }
        if e.ld_article {
            declared.push("JSON-LD story");
        }
        if e.ld_not_article {
            declared.push("JSON-LD page of another kind");
        }
        if e.published_declared {
            declared.push("publication time");
        }
        if e.article_headline {
            declared.push("<article> with its headline");
        }
        let declared = if declared.is_empty() {
            "declares nothing".to_string()
        } else {
            format!("declares {}", declared.join(", "))
        };
        let yes_no = |b: bool, yes: &'static str, no: &'static str| if b { yes } else { no };
        let mut found = vec![
            format!(
                "{} words in {} paragraph{}",
                e.body_words,
                e.body_paragraphs,
                if e.body_paragraphs == 1 { "" } else { "s" }
            ),
            yes_no(e.headline, "a headline", "no headline").to_string(),
            yes_no(e.dated, "dated", "no date").to_string(),
            format!("{:.0} % link text", 100.0 * e.link_density),
        ];
        if e.linked_headings > 0 {
            found.push(format!(
                "{} linked headings ({} in the text)",
                e.linked_headings, e.teasers_in_body
            ));
        }
        if e.password_fields + e.text_fields + e.search_fields > 0 {
            found.push("a form".to_string());
        }
        if e.link_density >= LINK_LIST_DENSITY {
            found.push("mostly links".to_string());
        }
        format!(
            "{declared}; {}; {listed}; shape {}",
            found.join(", "),
            self.shape
        )
    }
}

/// The order links are fetched in: articles, then links explored, then
/// index pages.
fn rank(label: LinkLabel) -> u8 {
    match label {
        LinkLabel::Article => 0,
        LinkLabel::Other => 1,
        LinkLabel::Index => 2,
        LinkLabel::Blocked => 3,
    }
}

impl Check<'_> {
    /// Fetch and judge up to `n` of the labelled links (see the module doc).
    pub(super) async fn judge_links(
        &mut self,
        table: &ShapeTable,
        n: usize,
        opts: &ExtractOptions,
    ) {
        let mut order: Vec<usize> = (0..self.out.links.len())
            .filter(|&i| {
                let l = &self.out.links[i];
                l.label != LinkLabel::Blocked && !self.queued.contains_key(&l.url)
            })
            .collect();
        order.sort_by_key(|&i| rank(self.out.links[i].label));
        for i in order.into_iter().take(n) {
            let (url, label) = (self.out.links[i].url.clone(), self.out.links[i].label);
            let judged = match Url::parse(&url) {
                Ok(url) => self.judge(&url, label, table, opts).await,
                Err(e) => failed(format!("not a URL: {e}"), String::new()),
            };
            self.out.links[i].judged = Some(judged);
        }
    }

    async fn judge(
        &mut self,
        url: &Url,
        label: LinkLabel,
        table: &ShapeTable,
        opts: &ExtractOptions,
    ) -> JudgedLink {
        let shapes = by_shapes(self.site).then_some(table);
        let shape = shape_of(url);
        let shape_text = match table.class_of(&shape) {
            ShapeClass::Unknown => format!("{} (not learned yet)", shape.exact),
            class => format!("{} (learned: {})", shape.exact, class.as_str()),
        };
        let host = host_key(url);
        let sent = self.politeness.wait_turn(&host).await;
        let fetched = (self.fetcher)
            .fetch(url, &Validators::default(), Expect::Html)
            .await;
        drop(sent);
        let fetched = match fetched {
            Ok(f) => f,
            Err(e) => return failed(format!("{}: {e}", e.kind().as_str()), shape_text),
        };
        // As the crawl queues it: an article link (listed, or of an article
        // shape) as an article, an index shape's link as an index page.
        let kind = match label {
            LinkLabel::Article => UrlKind::Article,
            LinkLabel::Index => UrlKind::Index,
            _ => UrlKind::Page,
        };
        let out = page::process(&PageInput {
            site: self.site,
            kind,
            depth: 1,
            max_depth: self.config.crawler.max_depth,
            final_url: &fetched.final_url,
            redirected: !fetched.redirects.is_empty(),
            content_type: fetched.content_type.as_deref(),
            body: &fetched.body,
            extract: opts,
            now_ms: now_ms(),
            trailing_slash: self.config.crawler.trailing_slash,
            max_links: self.config.crawler.max_links_per_page,
            max_index_sitemaps: self.config.crawler.max_sitemaps_per_index,
            entries: crate::crawl::discover::EntryBound {
                max: self.config.crawler.max_entries_per_feed,
                cut: fetched.cut,
            },
            site_rule: None,
            link_memo: None,
            shapes,
            explore: None,
        });
        let verdict = out.judgement.map(|j| {
            if j.is_article() {
                "article"
            } else {
                "not_article"
            }
        });
        JudgedLink {
            verdict,
            reason: out.judgement.map(|j| j.reason.as_str()),
            evidence: out.evidence,
            shape: shape_text,
            failed: None,
        }
    }
}

fn failed(why: String, shape: String) -> JudgedLink {
    JudgedLink {
        verdict: None,
        reason: None,
        evidence: None,
        shape,
        failed: Some(why),
    }
}
