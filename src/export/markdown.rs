//! Stored articles → one Markdown stream, rendered by the extraction's
//! Markdown renderer (`crate::extract::markdown`).
//!
//! In: an [`AnyStore`] (the SQLite or the PostgreSQL store), a
//! [`Selection`] and the [`Rendering`] settings (the
//! `[extract]` options and each site's line settings). Out: per article a
//! YAML front matter block of its metadata (`front_matter`), `# title`,
//! its URL on the next line, then its body; one article at a time
//! (constant memory), and an [`ExportSummary`] whose `from_stored_text`
//! counts the articles written from their stored text.
//!
//! 1. An article with a kept page: the page is decoded and extracted again
//!    with Markdown on ([`crate::extract::Article::markdown`]: headings,
//!    lists, quotes, tables). 2. The lines the site's line table judges
//!    boilerplate in that extraction's plain text ([`LineJudge`],
//!    the removal `reextract` applies: current counts, nothing learned) are
//!    dropped from the Markdown: a line whose text, without its quote, heading
//!    or list marker, is one of them goes; table rows and code blocks stay
//!    whole; a heading that repeats the title goes (the export opens
//!    with the title). 3. Without a kept page, or when the extraction gives no
//!    Markdown (only `auto` renders it) or no text, the stored text is
//!    written instead, one paragraph per line. 4. Nothing a page says is
//!    markup: the title and the stored text are escaped as the renderer
//!    escapes page text (`escape`), and the URL is a link only when it is
//!    http(s).

use std::collections::HashSet;
use std::io::Write;

use super::{ExportError, ExportSummary, Rendering};
use crate::boilerplate::{line_hash, normalize_with, LineHash};
use crate::extract::markdown::escape;
use crate::extract::{ExtractOptions, Extractor, Page};
use crate::store::{AnyStore, LineJudge};
use crate::store::{Selection, StoreError, StoredArticle, StoredHtml};

/// Stream the selected articles as Markdown.
pub fn write_markdown(
    store: &mut AnyStore,
    sel: &Selection,
    rendering: &Rendering<'_>,
    out: &mut dyn Write,
) -> Result<ExportSummary, ExportError> {
    let opts = ExtractOptions {
        markdown: true,
        ..rendering.extract.clone()
    };
    let mut from_stored_text = 0;
    // A store error inside the stream ends it and is returned as itself.
    let mut failed: Option<StoreError> = None;
    let streamed = store.articles_with_html(sel, &mut |judge, a, page| {
        let rendered = match page.map(|p| rerender(judge, a, p, &opts, rendering)) {
            Some(Err(e)) => {
                failed = Some(e);
                return Err(std::io::Error::other("line table unreadable"));
            }
            Some(Ok(md)) => md,
            None => None,
        };
        if rendered.is_none() {
            from_stored_text += 1;
        }
        write_article(out, a, rendered.as_deref())
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    Ok(ExportSummary {
        written: streamed?,
        from_stored_text,
        ..ExportSummary::default()
    })
}

/// The article's Markdown from its kept page, boilerplate lines dropped;
/// `None` when the extraction gives no Markdown or no text.
fn rerender(
    judge: &mut LineJudge<'_>,
    a: &StoredArticle,
    page: &StoredHtml,
    opts: &ExtractOptions,
    rendering: &Rendering<'_>,
) -> Result<Option<String>, StoreError> {
    let url = url::Url::parse(&page.url).ok();
    let page = Page::from_bytes(&page.body, page.headers.content_type.as_deref()).url(url.as_ref());
    let article = Extractor::new(opts.clone()).extract(page).article;
    let Some(md) = article.markdown.filter(|m| !m.trim().is_empty()) else {
        return Ok(None);
    };
    let settings = rendering.line_settings(&a.site);
    let dropped = judge(&a.site, &article.text, &settings)?;
    let kept = drop_boilerplate(&md, &dropped, settings.variant.mask_digits);
    // As when storing: an all-template page keeps its extracted text rather
    // than coming out empty.
    let md = if kept.is_empty() { md } else { kept };
    let md = without_title_headings(&md, a.article.title.as_deref());
    Ok((!md.is_empty()).then_some(md))
}

/// The Markdown without the headings that repeat the title: the text never
/// holds the headline (it is `title`), but the rendering of some pages
/// keeps it as a heading (`globe`, or after `reextract --algorithm td`),
/// and the export already opens with `# title`.
fn without_title_headings(md: &str, title: Option<&str>) -> String {
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let Some(title) = title.map(words).filter(|t| !t.is_empty()) else {
        return md.to_string();
    };
    let is_title = |line: &str| {
        let text = line.trim_start_matches('#');
        line.starts_with('#') && text.starts_with(' ') && words(&escape::unescape(text)) == title
    };
    let mut kept: Vec<&str> = Vec::new();
    let mut after_title = false;
    for line in md.lines() {
        if is_title(line) {
            after_title = true;
            continue;
        }
        // The blank line that followed the heading goes with it.
        if after_title && line.trim().is_empty() {
            after_title = false;
            if kept.last().is_none_or(|l| l.trim().is_empty()) {
                continue;
            }
        }
        after_title = false;
        kept.push(line);
    }
    while kept.last().is_some_and(|l| l.trim().is_empty()) {
        kept.pop();
    }
    kept.join("\n")
}

/// The article's metadata as a YAML front matter block (`---` lines around
/// `key: value` lines), the fields it has only. Every value is written as
/// JSON (a string in double quotes with its escapes, a list in brackets,
/// a boolean), which YAML reads as it is: nothing a page says can end the
/// block or become YAML of its own.
fn front_matter(a: &StoredArticle) -> String {
    use serde_json::{json, Value};
    let art = &a.article;
    let opt = |v: &Option<String>| v.as_ref().map(|s| json!(s));
    let list = |v: &[String]| (!v.is_empty()).then(|| json!(v));
    let fields: [(&str, Option<Value>); 11] = [
        ("title", opt(&art.title)),
        ("url", Some(json!(a.url))),
        ("site", Some(json!(a.site))),
        ("published_at", opt(&art.published_at)),
        ("authors", list(&art.authors)),
        ("section", opt(&art.section)),
        ("tags", list(&art.tags)),
        ("description", opt(&art.description)),
        ("image", opt(&art.image)),
        ("paywalled", art.paywalled.map(Value::Bool)),
        ("language", opt(&art.language)),
    ];
    let mut out = String::from("---\n");
    for (key, value) in fields {
        if let Some(v) = value {
            out.push_str(&format!("{key}: {v}\n"));
        }
    }
    out.push_str("---\n");
    out
}

fn write_article(
    out: &mut dyn Write,
    a: &StoredArticle,
    markdown: Option<&str>,
) -> std::io::Result<()> {
    writeln!(out, "{}", front_matter(a))?;
    let title = a
        .article
        .title
        .as_deref()
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| "(untitled)".to_string());
    writeln!(out, "# {}", escape::line(&title))?;
    writeln!(out, "{}", escape::link(&a.url))?;
    match markdown {
        Some(md) => {
            writeln!(out)?;
            writeln!(out, "{md}")?;
        }
        None => {
            for line in a.article.text.lines() {
                let line = line.trim();
                if line.is_empty() {
                    continue;
                }
                writeln!(out)?;
                writeln!(out, "{}", escape::line(line))?;
            }
        }
    }
    writeln!(out)
}

/// The Markdown without the lines whose text hashes into `dropped`; blank
/// lines left doubled by a removal are merged.
pub fn drop_boilerplate(md: &str, dropped: &HashSet<LineHash>, mask_digits: bool) -> String {
    let mut kept: Vec<&str> = Vec::new();
    let mut in_code = false;
    for line in md.lines() {
        let content = without_quote(line);
        if content.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && !content.starts_with('|') {
            let text = without_block_marker(content);
            let normalized = normalize_with(&escape::unescape(text), mask_digits);
            if !normalized.is_empty() && dropped.contains(&line_hash(&normalized)) {
                continue;
            }
        }
        let blank = line.trim().is_empty();
        if blank && kept.last().is_none_or(|l| l.trim().is_empty()) {
            continue;
        }
        kept.push(line);
    }
    while kept.last().is_some_and(|l| l.trim().is_empty()) {
        kept.pop();
    }
    kept.join("\n")
}

/// A line without its block-quote marks (`> `, or a bare `>`).
fn without_quote(line: &str) -> &str {
    let mut rest = line;
    while let Some(r) = rest.strip_prefix('>') {
        rest = r.strip_prefix(' ').unwrap_or(r);
    }
    rest
}

/// A line's text without the heading marks or list marker the renderer
/// put in front of it.
fn without_block_marker(line: &str) -> &str {
    let line = line.trim_start();
    let hashes = line.chars().take_while(|&c| c == '#').count();
    if (1..=6).contains(&hashes) {
        if let Some(rest) = line[hashes..].strip_prefix(' ') {
            return rest;
        }
    }
    if let Some(rest) = line.strip_prefix("- ") {
        return rest;
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 {
        if let Some(rest) = line[digits..].strip_prefix(". ") {
            return rest;
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regression_markdown_export_titles_and_stored_text_became_markup() {
        let a = StoredArticle {
            id: 1,
            url: "javascript:alert(1)".into(),
            site: "s".into(),
            fetched_at: 0,
            word_count: 0,
            article: crate::extract::Article {
                title: Some("XSSTITLE <script>alert(1)</script>".into()),
                text: "&lt;b&gt; is <b>\n# not a heading\n[x](javascript:alert(1))".into(),
                ..Default::default()
            },
            method: None,
        };
        let mut out = Vec::new();
        write_article(&mut out, &a, None).unwrap();
        let want = "# XSSTITLE \\<script\\>alert(1)\\</script\\>\njavascript:alert(1)\n\n\
                    \\&lt;b\\&gt; is \\<b\\>\n\n\\# not a heading\n\n\\[x\\](javascript:alert(1))\n\n";
        let out = String::from_utf8(out).unwrap();
        assert!(out.ends_with(want), "{out}");
        assert!(out.starts_with(&front_matter(&a)), "{out}");
    }

    #[test]
    fn front_matter_holds_the_metadata_as_json_values_yaml_reads() {
        let a = StoredArticle {
            id: 1,
            url: "https://a.test/1".into(),
            site: "s".into(),
            fetched_at: 0,
            word_count: 0,
            article: crate::extract::Article {
                title: Some("A \"quoted\"\n---\ntitle: injected".into()),
                authors: vec!["Jane Roe".into(), "John Doe".into()],
                tags: vec!["Port".into()],
                paywalled: Some(false),
                ..Default::default()
            },
            method: None,
        };
        let fm = front_matter(&a);
        assert_eq!(
            fm,
            "---\ntitle: \"A \\\"quoted\\\"\\n---\\ntitle: injected\"\n\
             url: \"https://a.test/1\"\nsite: \"s\"\nauthors: [\"Jane Roe\",\"John Doe\"]\n\
             tags: [\"Port\"]\npaywalled: false\n---\n"
        );
        // The block's lines: the two fences, one line per field.
        assert_eq!(fm.lines().filter(|l| *l == "---").count(), 2);
    }

    #[test]
    fn escaped_boilerplate_lines_and_title_headings_are_still_found() {
        let md = "## Share \\*this\\* story\n\nBody \\<one\\>.\n\n## A \\[plan\\]";
        let dropped = hashes(&["Share *this* story"]);
        assert_eq!(
            drop_boilerplate(md, &dropped, true),
            "Body \\<one\\>.\n\n## A \\[plan\\]"
        );
        assert_eq!(
            without_title_headings(md, Some("A [plan]")),
            "## Share \\*this\\* story\n\nBody \\<one\\>."
        );
    }

    fn hashes(lines: &[&str]) -> HashSet<LineHash> {
        lines
            .iter()
            .map(|l| line_hash(&normalize_with(l, true)))
            .collect()
    }

    #[test]
    fn boilerplate_lines_go_whatever_their_markup_structure_stays() {
        let md = "## Share this story\n\nBody one.\n\n- Item one\n- Follow us on 2 sites\n\
                  - Item two\n\n> Quote.\n> Subscribe now\n>\n1. First\n2. Share this story\n\n\
                  | Share this story | 1 |\n| --- | --- |\n\n```\nSubscribe now\n```\n\n\
                  Subscribe now";
        let dropped = hashes(&["Share this story", "Subscribe now", "Follow us on 9 sites"]);
        let want = "Body one.\n\n- Item one\n- Item two\n\n> Quote.\n>\n1. First\n\n\
                    | Share this story | 1 |\n| --- | --- |\n\n```\nSubscribe now\n```";
        assert_eq!(drop_boilerplate(md, &dropped, true), want);
    }

    #[test]
    fn headings_that_repeat_the_title_go() {
        let md = "# The  plan\n\nText.\n\n## The plan\n\nMore.\n\n## Another";
        assert_eq!(
            without_title_headings(md, Some("The plan")),
            "Text.\n\nMore.\n\n## Another"
        );
        assert_eq!(without_title_headings(md, Some("Other")), md);
        assert_eq!(without_title_headings("Text.", Some("Text.")), "Text.");
    }

    #[test]
    fn nothing_dropped_leaves_the_markdown_as_rendered() {
        let md = "## Head\n\nText.\n\n- a\n- b";
        assert_eq!(drop_boilerplate(md, &HashSet::new(), true), md);
    }
}
