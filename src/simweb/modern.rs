//! The `wire` site's article page: today's news markup.
//!
//! In: the site's content, an [`Article`] and its URL. Out: the page (its
//! head carries the JSON-LD `NewsArticle`, the only place with the author
//! and the time: see [`super::pages::head`]): a cookie banner, a byline without a machine-readable date, a lead
//! photo with caption and credit, the body in `itemprop="articleBody"`
//! interrupted by an ad slot and a "Read next" teaser (its fourth and fifth
//! paragraphs shown as a bulleted list), a newsletter box, a
//! related-stories rail and a WordPress-style comment thread ("NAME says:").
//! [`furniture`] lists the page's visible lines that are not the body.

use std::fmt::Write;

use chrono::TimeDelta;
use url::Url;

use super::pages::{esc, fault_box, nav, Ctx};
use super::site::{Article, Published, SiteContent};

/// The lead photo's caption and credit: different on every article.
fn caption(a: &Article) -> (String, String) {
    let name = |k: usize| a.comments.get(k).map_or("A resident", |c| c.0.as_str());
    (
        format!(
            "{} talks to neighbours on {}.",
            name(1),
            a.published.fmt("%B %-d")
        ),
        format!("Photo: {} / Reuters", name(2)),
    )
}

/// Visible lines of the page of `a` that are not its body, each with its
/// kind: `headline`, `caption`, `credit`, `related` (the "Read next" and
/// rail titles) and `comment`.
pub fn furniture(site: &SiteContent, a: &Article) -> Vec<(&'static str, String)> {
    let (caption, credit) = caption(a);
    let mut out = vec![
        ("headline", a.title.clone()),
        ("caption", caption),
        ("credit", credit),
    ];
    out.extend(
        a.related
            .iter()
            .filter_map(|&j| site.articles.get(j))
            .map(|r| ("related", r.title.clone())),
    );
    out.extend(a.comments.iter().map(|c| ("comment", c.1.clone())));
    out
}

/// `<li>` links to articles `items` of the site.
fn titles(site: &SiteContent, items: &[usize]) -> String {
    let mut out = String::new();
    for r in items.iter().filter_map(|&j| site.articles.get(j)) {
        let _ = write!(
            out,
            "<li><a href=\"{}\">{}</a></li>",
            esc(&r.path),
            esc(&r.title)
        );
    }
    out
}

/// The related-stories rail: a card per story, kicker over title.
fn rail(site: &SiteContent, a: &Article) -> String {
    let mut out = String::new();
    for r in a.related.iter().filter_map(|&j| site.articles.get(j)) {
        let kicker = site.sections.get(r.section).map_or("", |s| s.label);
        let _ = write!(
            out,
            "<li class=\"card\"><a href=\"{}\"><span class=\"card__kicker\">{}</span>\
             <h3 class=\"card__title\">{}</h3></a></li>",
            esc(&r.path),
            esc(kicker),
            esc(&r.title)
        );
    }
    out
}

/// The wire page shows its fourth and fifth paragraphs as the two items
/// of a bulleted list (`Some` with both when the body has five or more):
/// the same words and lines as the true body, so scores and the line
/// table do not move, and the Markdown export has a list to keep.
fn listed(a: &Article) -> Option<(&str, &str)> {
    let mut p = a.paragraphs().skip(LISTED_FROM);
    Some((p.next()?, p.next()?))
}

/// Index of the first listed paragraph.
const LISTED_FROM: usize = 3;

/// The list element of [`listed`] paragraphs.
fn list_html(items: (&str, &str)) -> String {
    format!(
        "<ul class=\"key-points\"><li>{}</li><li>{}</li></ul>",
        esc(items.0),
        esc(items.1)
    )
}

pub fn wire(ctx: &Ctx, a: &Article, url: &Url) -> String {
    let site = ctx.site;
    let t: Vec<String> = site.template_lines().iter().map(|l| esc(l)).collect();
    let section = site.sections.get(a.section).map_or("", |s| s.label);
    let (caption, credit) = caption(a);
    let mut h = super::pages::head(ctx, &a.title, Some((a, url)));
    let _ = write!(
        h,
        "<body class=\"article-page\">\n<div id=\"cookie-banner\" class=\"cookie-consent\" role=\"dialog\" \
         aria-label=\"Cookie consent\"><p>{cookie}</p><button>Accept all</button> <button>Manage choices</button></div>\n\
         <header class=\"site-header\"><a href=\"/\" class=\"logo\">{name}</a>{nav}</header>\n<main id=\"main-content\">\n\
         <article class=\"story\" itemscope itemtype=\"https://schema.org/NewsArticle\">\n\
         <header class=\"story-header\"><a class=\"kicker\" href=\"{sec_path}\">{section}</a>\
         <h1 itemprop=\"headline\">{title}</h1>\
         <div class=\"byline\">By <span class=\"author-name\">{author}</span> · <span>{date}</span></div></header>\n\
         <div class=\"share-tools\"><a href=\"/share/facebook/{id}\">{s1}</a> <a href=\"/share/x/{id}\">{s2}</a> \
         <a href=\"/share/email/{id}\">{s3}</a></div>\n\
         <figure class=\"lead-image\"><img src=\"/img/{id}.jpg\" alt=\"\" width=\"1200\" height=\"800\">\
         <figcaption><span class=\"caption\">{caption}</span> <span class=\"credit\">{credit}</span></figcaption></figure>\n\
         <div class=\"article-body\" itemprop=\"articleBody\">\n",
        cookie = t[9],
        name = esc(&site.display),
        nav = nav(ctx),
        sec_path = esc(&site.section_path(a.section, 1)),
        section = esc(section),
        title = esc(&a.title),
        author = esc(&a.author),
        date = a.published.fmt("%b %-d, %Y"),
        id = a.id,
        s1 = t[2],
        s2 = t[3],
        s3 = t[4],
        caption = esc(&caption),
        credit = esc(&credit),
    );
    let list = listed(a);
    for (k, p) in a.paragraphs().enumerate() {
        match list {
            Some(items) if k == LISTED_FROM => {
                let _ = writeln!(h, "{}", list_html(items));
            }
            Some(_) if k == LISTED_FROM + 1 => {}
            _ => {
                let _ = writeln!(h, "<p>{}</p>", esc(p));
            }
        }
        if k == 1 {
            h.push_str("<div class=\"ad-slot\" aria-label=\"Advertisement\"><span>Advertisement</span></div>\n");
        }
        if k == 2 {
            if let Some(r) = a.related.first().and_then(|&j| site.articles.get(j)) {
                let _ = writeln!(
                    h,
                    "<aside class=\"read-next\"><h4>Read next</h4><a href=\"{}\">{}</a></aside>",
                    esc(&r.path),
                    esc(&r.title)
                );
            }
        }
    }
    let _ = write!(
        h,
        "</div>\n<div class=\"newsletter-signup\"><p>{pitch}</p><form action=\"/newsletter\" method=\"post\">\
         <input type=\"email\" name=\"email\"><button>Subscribe</button></form></div>\n</article>\n\
         <aside class=\"related-rail\"><h2>{rs}</h2><ul>{rel}</ul></aside>\n\
         <section id=\"comments\" class=\"comments-area\"><h2 class=\"comments-title\">{ch}</h2>\
         <p class=\"comment-policy\">{cp}</p>\n<ol class=\"comment-list\">\n",
        pitch = t[1],
        rs = t[5],
        rel = rail(site, a),
        ch = t[7],
        cp = t[8],
    );
    for (k, (name, text)) in a.comments.iter().enumerate() {
        // Readers answer later: no comment shares the story's time.
        let at = Published(a.published.0 + TimeDelta::minutes(37 * (k as i64 + 1)));
        let _ = writeln!(
            h,
            "<li class=\"comment\"><article class=\"comment-body\"><footer class=\"comment-meta\">\
             <b class=\"fn\">{}</b> <span class=\"says\">says:</span> <time datetime=\"{dt}\">{date}</time></footer>\
             <div class=\"comment-content\"><p>{}</p></div><a class=\"comment-reply-link\" href=\"#comments\">Reply</a></article></li>",
            esc(name),
            esc(text),
            dt = at.rfc3339(),
            date = at.fmt("%B %-d, %Y at %-I:%M %p"),
        );
    }
    let _ = write!(
        h,
        "</ol></section>\n<aside class=\"most-read\"><h2>{mr}</h2><ol>{most}</ol></aside>\n</main>\n{faults}\
         <footer class=\"site-footer\"><p>{copy}</p><p><a href=\"/about\">About us</a> · <a href=\"/rss.xml\">RSS</a> · \
         <a href=\"{private}\">Members area</a></p></footer>\n</body>\n</html>\n",
        mr = t[6],
        most = titles(site, &site.most_read),
        faults = fault_box(ctx),
        copy = t[0],
        private = site.private_path(),
    );
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simweb::site::{Template, COOKIE_NOTICE};

    #[test]
    fn wire_page_has_json_ld_article_body_banner_caption_and_comments() {
        let site = SiteContent::generate(3, 3, Template::Wire, 6);
        let base = Url::parse("http://127.0.0.1:8080/").expect("url");
        let ctx = Ctx {
            site: &site,
            base: &base,
            fault_links: &[],
        };
        let mut lists = 0;
        for a in &site.articles {
            let html = wire(&ctx, a, &base.join(&a.path).expect("url"));
            let (_, rest) = html
                .split_once("<script type=\"application/ld+json\">")
                .expect("JSON-LD");
            let (ld_text, _) = rest.split_once("</script>").expect("closed");
            let ld: serde_json::Value = serde_json::from_str(ld_text).expect("valid JSON-LD");
            assert_eq!(ld["@type"], "NewsArticle");
            assert_eq!(ld["author"][0]["name"], a.author.as_str());
            assert_eq!(ld["datePublished"], a.published.rfc3339().as_str());
            assert_eq!(ld["articleBody"], a.body.as_str());
            // Author and time of day are nowhere else on the page.
            let outside_ld = html.replace(ld_text, "");
            assert!(!outside_ld.contains("name=\"author\""));
            assert!(!outside_ld.contains("article:published_time"));
            assert!(!outside_ld.contains(&a.published.fmt("%H:%M")));
            assert!(!outside_ld.contains(&a.published.fmt("%-I:%M %p")));
            let (_, body) = html
                .split_once("<div class=\"article-body\" itemprop=\"articleBody\">")
                .expect("articleBody");
            let (body, _) = body.split_once("<div class=\"newsletter").expect("end");
            let list = listed(a);
            for (k, p) in a.paragraphs().enumerate() {
                let shown = match list {
                    Some(_) if (LISTED_FROM..=LISTED_FROM + 1).contains(&k) => {
                        format!("<li>{}</li>", esc(p))
                    }
                    _ => format!("<p>{}</p>", esc(p)),
                };
                assert!(body.contains(&shown), "{p}");
            }
            if let Some(items) = list {
                assert!(body.contains(&list_html(items)));
            }
            lists += usize::from(body.contains("<ul class=\"key-points\"><li>"));
            assert!(html.contains(&format!("<p>{}</p><button>", esc(COOKIE_NOTICE))));
            for (kind, line) in furniture(&site, a) {
                assert!(html.contains(&esc(&line)), "{kind} missing: {line}");
                assert!(!a.body.contains(&line), "{kind} in the body: {line}");
            }
            let (caption, credit) = caption(a);
            assert!(html.contains(&format!(
                "<figcaption><span class=\"caption\">{}</span> <span class=\"credit\">{}</span>",
                esc(&caption),
                esc(&credit)
            )));
            assert_eq!(html.matches("<li class=\"comment\">").count(), 3);
        }
        assert!(lists > 0, "some page shows a paragraph as a list");
    }
}
