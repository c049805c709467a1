//! One page judged on its own, as `extract --json` shows it: the crawl's
//! extraction and [`judge`] of a page, for a site the store has learned
//! nothing about.
//!
//! In: the page's bytes, its `Content-Type` and its real address, and the
//! extractor. Out: the [`Article`] and the [`Judgement`] a crawl would
//! give the page: the same evidence ([`Evidence::of`]), without what only
//! a crawl knows (whether a feed or sitemap listed the URL, the site's
//! learned URL shapes).

use url::Url;

use super::{judge, Evidence, Judgement};
use crate::extract::strip::links::LinkAttrs;
use crate::extract::{Article, Extractor, Page};

/// Extract the page and judge it (see the module doc).
pub fn extract_and_judge(
    extractor: &Extractor,
    bytes: &[u8],
    content_type: Option<&str>,
    url: Option<&Url>,
) -> (Article, Judgement) {
    // Only the form fields are wanted: no link is kept.
    let mut attrs = LinkAttrs::new(0);
    let page = Page::from_bytes(bytes, content_type)
        .url(url)
        .collect_links(&mut attrs);
    let extraction = extractor.extract(page);
    let evidence = Evidence::of(
        &extraction.article,
        &extraction.signals,
        attrs.form_fields,
        false,
        None,
    );
    (extraction.article, judge(&evidence))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crawl::judge::{JudgeReason, PageVerdict};
    use crate::extract::ExtractOptions;

    #[test]
    fn a_declared_story_is_an_article_and_a_sign_in_page_is_not() {
        let extractor = Extractor::new(ExtractOptions::default());
        let para = "The council approved the new bridge after a long debate about its cost, \
                    and work on the foundations will start in the spring, officials said.";
        let story = format!(
            r#"<html><head><script type="application/ld+json">{{"@type":"NewsArticle",
            "headline":"Bridge approved","datePublished":"2026-05-03T09:00:00Z"}}</script></head>
            <body><h1>Bridge approved</h1><p>{para}</p><p>{para}</p><p>{para}</p></body></html>"#
        );
        let url = Url::parse("https://news.example.org/2026/05/03/bridge").ok();
        let (article, judged) = extract_and_judge(&extractor, story.as_bytes(), None, url.as_ref());
        assert_eq!(article.title.as_deref(), Some("Bridge approved"));
        assert_eq!(judged.verdict, PageVerdict::Article);
        assert_eq!(judged.reason, JudgeReason::DeclaredNewsArticle);
        let sign_in = r#"<html><body><h1>Sign in</h1><form><input name="user">
            <input type="password" name="pw"></form><p>Welcome back.</p></body></html>"#;
        let (_, judged) = extract_and_judge(&extractor, sign_in.as_bytes(), None, None);
        assert_eq!(judged.verdict, PageVerdict::NotArticle);
        assert_eq!(judged.reason, JudgeReason::FormPage);
    }
}
