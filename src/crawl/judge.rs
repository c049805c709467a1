//! Is a fetched page an article? Evidence in, verdict and reason out (pure).
//!
//! In: [`Evidence`] about one HTML page of a site configured without
//! `article_patterns`: what the page declares (`og:type`, JSON-LD `@type`, a
//! declared publication time, an `<article>` holding the headline), what
//! extraction found (a body of sentences, a headline, a date, how much of
//! the page is link text, teaser headings, form fields), and where its URL
//! came from (a feed or sitemap entry; the URL's learned shape). Out: a
//! [`Judgement`], the verdict with the one reason that decided it (stored
//! beside the fetch, shown by `sites check`). Patterns, when a site gives
//! them, are the user's word and decide before any of this
//! ([`Judgement::by_pattern`]).
//!
//! No signal decides alone: sites declare `og:type=article` on their about
//! and privacy pages (WordPress does), section fronts carry dates and
//! sentences, and many article pages declare nothing at all. The rules, in
//! the order [`judge`] applies them:
//!
//! 1. A story declared in JSON-LD (and no list declared around it) with a
//!    body and a date is an article, whatever rails of teasers or header
//!    search boxes surround it.
//! 2. A page whose body is short next to a form (sign-in, contact) is a
//!    form page; a form for a reader comment is a story's, not one.
//! 3. A page with too little body text is not an article (a search page
//!    when it has a search box, a list of links when link text dominates,
//!    else thin text).
//! 4. A page of teasers (linked headings outnumbering half its paragraphs,
//!    unless a long body has a declared publication time, or is dated,
//!    under a headline, and holds none of the teasers) is a listing; so is
//!    a page of mostly link text without a long body (portals wrap long
//!    stories in navigation of more text than the story).
//! 5. A page that declares another kind (JSON-LD `CollectionPage`,
//!    `ProfilePage`…) is not an article; nor is a page whose URL has a
//!    learned index shape, that declares nothing and has no long body: a
//!    shape never outweighs a story on the page itself.
//! 6. Otherwise it is an article when, beside its body, it has a date and
//!    declares itself (`og:type=article`, an `<article>` with its headline);
//!    or it was listed in a feed or sitemap, or has a learned article shape,
//!    and has a headline; or its body is long, with a headline and a date.
//! 7. Anything else is not an article: undated, or without evidence. Such
//!    a page with a long body under a headline looks like a story
//!    ([`Judgement::story`]); being listed or a learned article shape
//!    would make it one, so these verdicts are revisable
//!    ([`JudgeReason::revisable`]): the crawl judges the page again when
//!    that evidence comes.
//!
//! The thresholds below were set together on the simulated web's bare sites
//! and the extraction corpus's news pages; they count words as `eval` does
//! (each CJK character one word).

mod alone;
pub use alone::extract_and_judge;

use super::shapes::Judged;
use crate::extract::metadata::{squash, PageSignals, TeaserText};
use crate::extract::strip::links::FormFields;
use crate::extract::Article;

/// Fewer body words than this is no article (a news brief has ~80).
pub const MIN_BODY_WORDS: usize = 60;
/// A long body: enough words in enough paragraphs that, with a headline and
/// a date, nothing needs declaring.
pub const LONG_BODY_WORDS: usize = 120;
pub const LONG_BODY_PARAGRAPHS: usize = 3;
/// A paragraph of the body has at least this many words (a teaser's one
/// sentence may have as many: teasers are counted apart).
pub const PARAGRAPH_WORDS: usize = 12;
/// Linked headings from which a page may be a list of teasers.
pub const MIN_TEASERS: u32 = 4;
/// Link text share from which a page is a list of links.
pub const LINK_LIST_DENSITY: f64 = 0.55;

/// Article or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageVerdict {
    Article,
    NotArticle,
}

/// Why a page was judged as it was; [`JudgeReason::as_str`] is the stored,
/// machine-readable form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JudgeReason {
    /// The site's patterns decided (either way).
    Pattern,
    /// JSON-LD declares a story, with a body and a date.
    DeclaredNewsArticle,
    /// `og:type=article` with a body and a date.
    DeclaredOgArticle,
    /// An `<article>` holding the headline, with a body and a date.
    ArticleElement,
    /// Listed in a feed or sitemap, with a body and a headline.
    Listed,
    /// The URL has the site's learned article shape, with a body and a
    /// headline.
    ArticleShape,
    /// Declares nothing, but a long body, a headline and a date.
    BodyHeadlineDate,
    /// A form (sign-in, search, contact) with little text.
    FormPage,
    /// Too little body text.
    ThinText,
    /// Mostly link text.
    LinkList,
    /// Teasers: linked headings outnumber the paragraphs.
    TeaserList,
    /// JSON-LD declares a page of another kind.
    DeclaredNotArticle,
    /// The URL has the site's learned index shape and the page declares
    /// nothing.
    IndexShape,
    /// A body, but no date and no listing: an about or policy page.
    Undated,
    /// A dated body that neither declares itself nor was listed.
    NoEvidence,
}

/// The reasons new evidence about a page's URL (a feed or sitemap
/// listing it, its shape learned as an article shape) may change: the
/// page had a body, and what it lacked was evidence of that kind.
pub const REVISABLE: [JudgeReason; 3] = [
    JudgeReason::Undated,
    JudgeReason::NoEvidence,
    JudgeReason::IndexShape,
];

impl JudgeReason {
    /// See [`REVISABLE`].
    pub fn revisable(self) -> bool {
        REVISABLE.contains(&self)
    }

    /// [`REVISABLE`] as stored.
    pub fn revisable_strs() -> Vec<&'static str> {
        REVISABLE.iter().map(|r| r.as_str()).collect()
    }

    pub fn as_str(self) -> &'static str {
        match self {
            JudgeReason::Pattern => "pattern",
            JudgeReason::DeclaredNewsArticle => "declared_news_article",
            JudgeReason::DeclaredOgArticle => "declared_og_article",
            JudgeReason::ArticleElement => "article_element",
            JudgeReason::Listed => "listed",
            JudgeReason::ArticleShape => "article_shape",
            JudgeReason::BodyHeadlineDate => "body_headline_date",
            JudgeReason::FormPage => "form_page",
            JudgeReason::ThinText => "thin_text",
            JudgeReason::LinkList => "link_list",
            JudgeReason::TeaserList => "teaser_list",
            JudgeReason::DeclaredNotArticle => "declared_not_article",
            JudgeReason::IndexShape => "index_shape",
            JudgeReason::Undated => "undated",
            JudgeReason::NoEvidence => "no_article_evidence",
        }
    }
}

/// A verdict and the reason that decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Judgement {
    pub verdict: PageVerdict,
    pub reason: JudgeReason,
    /// Not an article for want of evidence, but it looks like a story: a
    /// long body under a headline. Its URL's shape counts it as a story,
    /// which keeps the shape from being trusted as an index shape.
    pub story: bool,
}

impl Judgement {
    fn article(reason: JudgeReason) -> Judgement {
        Judgement {
            verdict: PageVerdict::Article,
            reason,
            story: false,
        }
    }

    fn not(reason: JudgeReason) -> Judgement {
        Judgement {
            verdict: PageVerdict::NotArticle,
            reason,
            story: false,
        }
    }

    /// What the site's patterns said about the page.
    pub fn by_pattern(article: bool) -> Judgement {
        Judgement {
            verdict: if article {
                PageVerdict::Article
            } else {
                PageVerdict::NotArticle
            },
            reason: JudgeReason::Pattern,
            story: false,
        }
    }

    /// What the page is as evidence for its URL's shape; `None` when the
    /// shape itself decided (an index shape's verdict teaches the shape
    /// nothing new, and counting it would keep a wrong shape forever).
    pub fn shape_evidence(&self) -> Option<Judged> {
        Some(match self.reason {
            _ if self.is_article() => Judged::Article,
            JudgeReason::IndexShape => return None,
            JudgeReason::LinkList | JudgeReason::TeaserList => Judged::Listing,
            _ if self.story => Judged::Story,
            _ => Judged::Other,
        })
    }

    pub fn is_article(&self) -> bool {
        self.verdict == PageVerdict::Article
    }

    /// Judged a page of links to other pages (a section front, a later
    /// page of one, a tag or author page), or held one by its index shape:
    /// revisited like an index page.
    pub fn is_listing(&self) -> bool {
        matches!(
            self.reason,
            JudgeReason::LinkList | JudgeReason::TeaserList | JudgeReason::IndexShape
        )
    }
}

/// Everything [`judge`] weighs about one page.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Evidence {
    // What the page declares.
    /// `og:type`: `Some(true)` article, `Some(false)` another type, `None`
    /// not given.
    pub og_article: Option<bool>,
    /// JSON-LD types a story (`NewsArticle`, `BlogPosting`…).
    pub ld_article: bool,
    /// JSON-LD types a page of another kind (`CollectionPage`…).
    pub ld_not_article: bool,
    /// A publication time is declared in the markup.
    pub published_declared: bool,
    /// An `<article>` element holds an `<h1>`.
    pub article_headline: bool,

    // What extraction found.
    /// Words of the extracted body.
    pub body_words: usize,
    /// Lines of the body of at least [`PARAGRAPH_WORDS`] words.
    pub body_paragraphs: usize,
    /// A headline (title) was found.
    pub headline: bool,
    /// A publication date was found (declared, in the text, or in the URL).
    pub dated: bool,
    /// Share of the page's text inside links.
    pub link_density: f64,
    /// Teaser headings: `h2`–`h4` that are links, outside the page's chrome
    /// and related-stories blocks.
    pub linked_headings: u32,
    /// Of those, the ones whose heading or summary is in the extracted
    /// body: a section front's teasers are its text, a story's rail of
    /// teasers is beside it.
    pub teasers_in_body: u32,
    /// Form fields asking for text (name, e-mail, message).
    pub text_fields: u32,
    pub password_fields: u32,
    pub search_fields: u32,
    /// Text areas for a reader comment: the form is the story's own.
    pub comment_fields: u32,

    // Where the URL came from and what it looks like.
    /// Listed in one of the site's feeds or sitemaps.
    pub listed: bool,
    /// The URL's learned shape on this site: `Some(true)` an article shape,
    /// `Some(false)` an index shape, `None` unknown.
    pub shape_hint: Option<bool>,
}

impl Evidence {
    /// The evidence of an extracted page: its article, the signals read in
    /// the metadata pass and its form fields (from the strip prepass), and
    /// what the frontier knows of its URL.
    pub fn of(
        article: &Article,
        signals: &PageSignals,
        fields: FormFields,
        listed: bool,
        shape_hint: Option<bool>,
    ) -> Evidence {
        let mut body_words = 0;
        let mut body_paragraphs = 0;
        for line in article.text.lines() {
            let words = crate::words::word_count(line);
            body_words += words;
            if words >= PARAGRAPH_WORDS {
                body_paragraphs += 1;
            }
        }
        Evidence {
            og_article: signals.og_type.as_deref().map(|t| t == "article"),
            ld_article: signals.ld_article,
            ld_not_article: signals.ld_not_article,
            published_declared: signals.published_declared,
            article_headline: signals.article_headline,
            body_words,
            body_paragraphs,
            headline: article.title.is_some(),
            // A declared time the date parser cannot read still dates the page.
            dated: article.published_at.is_some() || signals.published_declared,
            link_density: signals.link_density(),
            linked_headings: signals.linked_headings,
            teasers_in_body: teasers_in(&signals.teasers, &article.text),
            text_fields: fields.text,
            password_fields: fields.password,
            search_fields: fields.search,
            comment_fields: fields.comment,
            listed,
            shape_hint,
        }
    }

    fn has_body(&self) -> bool {
        self.body_words >= MIN_BODY_WORDS
    }

    fn long_body(&self) -> bool {
        self.body_words >= LONG_BODY_WORDS && self.body_paragraphs >= LONG_BODY_PARAGRAPHS
    }

    /// The page asks the reader to sign in or write. A search box alone is
    /// not counted: most sites put one in the header of every page; nor is
    /// a form for a reader comment, which only a story has (a blog post's
    /// short text above its comment form, perhaps beside a sign-in box).
    fn has_form(&self) -> bool {
        (self.password_fields > 0 || self.text_fields >= 2) && self.comment_fields == 0
    }

    /// Teasers outnumber the body. A long body under a declared
    /// publication time is a story with rails of headlines around it
    /// (section fronts declare no publication time of their own); so is a
    /// long, dated body under a headline that holds none of the teasers,
    /// neither a heading nor a summary (a section front's text is its
    /// teasers' summaries).
    fn teasers(&self) -> bool {
        let beside_rails =
            self.long_body() && self.headline && self.dated && self.teasers_in_body == 0;
        self.linked_headings >= MIN_TEASERS
            && self.linked_headings as usize * 2 > self.body_paragraphs
            && !(self.published_declared && self.long_body())
            && !beside_rails
    }
}

/// How many `teasers` are in `text`, by their heading or their summary,
/// compared by letters and digits alone (case and spacing aside). A text
/// too short to be told from the story's words says nothing either way: a
/// linked heading of a word or two ("Home", "Sport", "首页") is a menu's
/// label, which a story's page prints around it as a section front does.
fn teasers_in(teasers: &[TeaserText], text: &str) -> u32 {
    if teasers.is_empty() {
        return 0;
    }
    let body = squash(text);
    let holds = |s: &str| {
        let k = squash(s);
        k.chars().count() >= MIN_TEASER_KEY_CHARS
            && memchr::memmem::find(body.as_bytes(), k.as_bytes()).is_some()
    };
    let in_body = |t: &&TeaserText| holds(&t.heading) || t.summary.as_deref().is_some_and(holds);
    teasers.iter().filter(in_body).count() as u32
}

/// Letters and digits a teaser's heading needs before its absence from the
/// body says anything.
const MIN_TEASER_KEY_CHARS: usize = 12;

/// The verdict on one page (see the module doc for the rules).
pub fn judge(e: &Evidence) -> Judgement {
    use JudgeReason::*;
    // 1. A declared story (not the story items of a declared list: section
    // fronts type their teasers `NewsArticle` inside an `ItemList`).
    if e.ld_article && !e.ld_not_article && e.dated && e.has_body() {
        return Judgement::article(DeclaredNewsArticle);
    }
    // 2. Forms, with a short body next to them.
    if e.has_form() && !e.long_body() {
        return Judgement::not(FormPage);
    }
    // 3. Too little text (a search page's is its search box).
    if !e.has_body() {
        return Judgement::not(if e.search_fields > 0 {
            FormPage
        } else if e.link_density >= LINK_LIST_DENSITY {
            LinkList
        } else {
            ThinText
        });
    }
    // 4. Listings.
    if e.teasers() {
        return Judgement::not(TeaserList);
    }
    // A long body beside a portal's mega-navigation is still a body.
    if e.link_density >= LINK_LIST_DENSITY && !e.long_body() {
        return Judgement::not(LinkList);
    }
    // 5. Declared or learned as another kind.
    if e.ld_not_article {
        return Judgement::not(DeclaredNotArticle);
    }
    let declares = e.og_article == Some(true) || e.article_headline || e.published_declared;
    if e.shape_hint == Some(false) && !declares && !e.long_body() {
        return Judgement::not(IndexShape);
    }
    // 6. A body and two more signals.
    if e.dated && e.og_article == Some(true) {
        return Judgement::article(DeclaredOgArticle);
    }
    if e.dated && e.article_headline {
        return Judgement::article(ArticleElement);
    }
    if e.listed && e.headline {
        return Judgement::article(Listed);
    }
    if e.shape_hint == Some(true) && e.headline {
        return Judgement::article(ArticleShape);
    }
    if e.long_body() && e.headline && e.dated {
        return Judgement::article(BodyHeadlineDate);
    }
    // 7. Nothing says article (yet).
    Judgement {
        story: e.long_body() && e.headline,
        ..Judgement::not(if e.dated { NoEvidence } else { Undated })
    }
}

#[cfg(test)]
mod tests;
