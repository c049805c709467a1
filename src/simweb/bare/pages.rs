//! The HTML of a bare site's pages, in its [`Shape`]'s markup.
//!
//! In: the site, its base URL, which page. Out: the page's HTML. Every page
//! carries the header (sections; a search box on two of the four shapes),
//! the footer (about, privacy, contact, sign-in) and the feed's `<link
//! rel="alternate">` on the home page and section fronts, the only place
//! the feed is announced.

use std::fmt::Write;

use url::Url;

use super::super::pages::esc;
use super::site::{BareSite, Shape, HOME_SIZE, PAGE_SIZE, SECTIONS, TAGS};
use super::FEED_PATH;

/// What the `<head>` declares beyond the title.
#[derive(Default)]
struct Head {
    og_type: Option<&'static str>,
    extra: String,
    feed: bool,
}

fn page(site: &BareSite, title: &str, head: Head, main: &str) -> String {
    let mut h = format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title} | {name}</title>\n",
        lang = site.lang.code(),
        title = esc(title),
        name = esc(&site.display),
    );
    if let Some(t) = head.og_type {
        let _ = writeln!(h, "<meta property=\"og:type\" content=\"{t}\">");
        let _ = writeln!(
            h,
            "<meta property=\"og:site_name\" content=\"{}\">",
            esc(&site.display)
        );
    }
    if head.feed {
        let _ = writeln!(
            h,
            "<link rel=\"alternate\" type=\"application/rss+xml\" title=\"{}\" href=\"{FEED_PATH}\">",
            esc(&site.display)
        );
    }
    h.push_str(&head.extra);
    h.push_str("<script>window.__state={\"page\":1};</script>\n</head>\n<body>\n");
    h.push_str(&header(site));
    h.push_str(main);
    h.push_str(&footer(site));
    h.push_str("</body>\n</html>\n");
    h
}

fn header(site: &BareSite) -> String {
    let mut h = format!(
        "<header class=\"site-header\"><a class=\"logo\" href=\"/\">{}</a>\n<nav><ul>",
        esc(&site.display)
    );
    for (s, (_, label)) in SECTIONS.iter().enumerate() {
        let _ = write!(
            h,
            "<li><a href=\"{}\">{label}</a></li>",
            site.section_path(s, 1)
        );
    }
    h.push_str("</ul></nav>\n");
    if matches!(site.shape, Shape::Dated | Shape::Blog) {
        h.push_str(
            "<form class=\"search-box\" role=\"search\" action=\"/search\"><input type=\"search\" name=\"q\" placeholder=\"Search\"><button>Go</button></form>\n",
        );
    }
    h.push_str("</header>\n");
    h
}

fn footer(site: &BareSite) -> String {
    format!(
        "<footer class=\"site-footer\"><p>© 2026 {name}. All rights reserved.</p>\
         <ul><li><a href=\"/about/\">About us</a></li><li><a href=\"/privacy-policy/\">Privacy</a></li>\
         <li><a href=\"/contact/\">Contact</a></li><li><a href=\"/account/sign-in\">Sign in</a></li>\
         <li><a href=\"/search\">Search</a></li></ul></footer>\n",
        name = esc(&site.display)
    )
}

fn json_ld(value: serde_json::Value) -> String {
    // `</` inside a script would end it early; JSON allows `<\/`.
    let text = value.to_string().replace("</", "<\\/");
    format!("<script type=\"application/ld+json\">{text}</script>\n")
}

/// A list of teasers (home, section, tag, author pages).
fn teasers(site: &BareSite, items: &[usize]) -> String {
    let mut h = String::from("<div class=\"river\">\n");
    for &i in items {
        let a = &site.articles[i];
        let time = if site.shape.dates() {
            format!(
                "<time datetime=\"{}\">{}</time>",
                a.published.rfc3339(),
                a.published.fmt("%d %b %Y")
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            h,
            "<article class=\"card\"><h2><a href=\"{p}\">{t}</a></h2><p class=\"standfirst\">{s}</p>\
             {time}</article>",
            p = esc(&a.path),
            t = esc(&a.title),
            s = esc(&a.teaser),
        );
    }
    h.push_str("</div>\n");
    h
}

/// Links to the pages of a list (`path(p)` is page `p`).
fn pager(pages: usize, current: usize, path: impl Fn(usize) -> String) -> String {
    if pages < 2 {
        return String::new();
    }
    let mut h = String::from("<div class=\"pagination\">");
    for p in 1..=pages {
        if p == current {
            let _ = write!(h, "<span>{p}</span> ");
        } else {
            let _ = write!(h, "<a href=\"{}\">{p}</a> ", path(p));
        }
    }
    h.push_str("</div>\n");
    h
}

fn list_head(site: &BareSite, items: &[usize], base: &Url) -> Head {
    let extra = match site.shape {
        // Section fronts that type their teasers as stories, inside a list.
        Shape::Dated => json_ld(serde_json::json!({
            "@context": "https://schema.org",
            "@type": "ItemList",
            "itemListElement": items.iter().enumerate().map(|(n, &i)| {
                let a = &site.articles[i];
                serde_json::json!({"@type": "ListItem", "position": n + 1, "item": {
                    "@type": "NewsArticle", "headline": a.title,
                    "datePublished": a.published.rfc3339(),
                    "url": base.join(&a.path).map(String::from).unwrap_or_default()}})
            }).collect::<Vec<_>>(),
        })),
        Shape::Blog => json_ld(serde_json::json!({
            "@context": "https://schema.org", "@type": "CollectionPage"})),
        _ => String::new(),
    };
    Head {
        og_type: match site.shape {
            Shape::Blog => Some("article"),
            Shape::StoryId | Shape::Plain => None,
            _ => Some("website"),
        },
        extra,
        feed: true,
    }
}

pub fn home(site: &BareSite, base: &Url) -> String {
    let items: Vec<usize> = (0..site.articles.len().min(HOME_SIZE)).collect();
    let main = format!(
        "<main><h1 class=\"visually-hidden\">{}</h1>\n{}</main>\n",
        esc(&site.display),
        teasers(site, &items)
    );
    page(site, "Home", list_head(site, &items, base), &main)
}

/// Page `page` of section `s` (`None` past its last page).
pub fn section(site: &BareSite, base: &Url, s: usize, page_no: usize) -> Option<String> {
    let all = site.in_section(s);
    let pages = BareSite::pages(all.len());
    if page_no == 0 || page_no > pages {
        return None;
    }
    let items: Vec<usize> = all
        .into_iter()
        .skip((page_no - 1) * PAGE_SIZE)
        .take(PAGE_SIZE)
        .collect();
    let label = SECTIONS[s].1;
    let main = format!(
        "<main><h1>{label}</h1>\n{}{}</main>\n",
        teasers(site, &items),
        pager(pages, page_no, |p| site.section_path(s, p))
    );
    Some(page(site, label, list_head(site, &items, base), &main))
}

pub fn tag(site: &BareSite, base: &Url, t: usize) -> String {
    let items = site.with_tag(t);
    let main = format!(
        "<main><h1>Tagged: {}</h1>\n{}</main>\n",
        TAGS[t],
        teasers(site, &items)
    );
    page(site, TAGS[t], list_head(site, &items, base), &main)
}

pub fn author(site: &BareSite, base: &Url, a: usize) -> String {
    let items = site.by_author(a);
    let name = &site.authors[a];
    let main = format!(
        "<main><div class=\"author-bio\"><h1>{n}</h1><p>{n} reports for {d} on public affairs and \
         writes a weekly column.</p></div>\n<h2>Latest from {n}</h2>\n{}</main>\n",
        teasers(site, &items),
        n = esc(name),
        d = esc(&site.display),
    );
    let mut head = list_head(site, &items, base);
    if site.shape == Shape::Blog {
        head.extra = json_ld(serde_json::json!({
            "@context": "https://schema.org", "@type": "ProfilePage",
            "mainEntity": {"@type": "Person", "name": name}}));
    }
    page(site, name, head, &main)
}

/// The about or privacy page: long text, no date of publication.
pub fn text_page(site: &BareSite, title: &str, paragraphs: &[String], updated: bool) -> String {
    let mut main = format!("<main><div class=\"page\"><h1>{}</h1>\n", esc(title));
    if updated {
        main.push_str("<p class=\"updated\">Last updated: 3 March 2025</p>\n");
    }
    for p in paragraphs {
        let _ = writeln!(main, "<p>{}</p>", esc(p));
    }
    main.push_str("</div></main>\n");
    // The blog CMS declares every page an article, and its last change.
    let head = if site.shape == Shape::Blog {
        Head {
            og_type: Some("article"),
            extra:
                "<meta property=\"article:modified_time\" content=\"2025-03-03T09:00:00+00:00\">\n"
                    .into(),
            feed: false,
        }
    } else {
        Head::default()
    };
    page(site, title, head, &main)
}

pub fn contact(site: &BareSite) -> String {
    let main = "<main><h1>Contact us</h1>\n<p>Write to the newsroom at 12 Harbour Street, or use the \
        form below. We read every message and answer within two working days.</p>\n\
        <form action=\"/contact/send\" method=\"post\"><label>Name <input type=\"text\" name=\"name\"></label>\
        <label>E-mail <input type=\"email\" name=\"email\"></label><label>Message <textarea name=\"message\"></textarea></label>\
        <button>Send</button></form></main>\n";
    page(site, "Contact", Head::default(), main)
}

pub fn sign_in(site: &BareSite) -> String {
    let main = "<main><h1>Sign in</h1>\n<form action=\"/account/session\" method=\"post\">\
        <label>E-mail <input type=\"email\" name=\"email\"></label>\
        <label>Password <input type=\"password\" name=\"password\"></label><button>Sign in</button></form>\n\
        <p>No account yet? <a href=\"/account/sign-in?register=1\">Register</a> to comment on stories.</p></main>\n";
    page(site, "Sign in", Head::default(), main)
}

pub fn search(site: &BareSite) -> String {
    let main = "<main><h1>Search</h1>\n<form action=\"/search\"><input type=\"search\" name=\"q\">\
        <button>Search</button></form>\n<p>Type a word to search the archive.</p></main>\n";
    page(site, "Search", Head::default(), main)
}

pub fn article(site: &BareSite, base: &Url, i: usize) -> String {
    let a = &site.articles[i];
    let url = base.join(&a.path).map(String::from).unwrap_or_default();
    let author = &site.authors[a.author];
    let mut extra = format!("<link rel=\"canonical\" href=\"{}\">\n", esc(&url));
    let ld = |ty: &str| {
        json_ld(serde_json::json!({
            "@context": "https://schema.org", "@type": ty, "headline": a.title,
            "datePublished": a.published.rfc3339(),
            "author": {"@type": "Person", "name": author}, "mainEntityOfPage": url}))
    };
    let og = match site.shape {
        Shape::Dated => {
            extra.push_str(&ld("NewsArticle"));
            Some("article")
        }
        Shape::NewsId => {
            let _ = writeln!(
                extra,
                "<meta property=\"article:published_time\" content=\"{}\">",
                a.published.rfc3339()
            );
            Some("article")
        }
        Shape::StoryId | Shape::Plain => None,
        Shape::Blog => {
            extra.push_str(&ld("BlogPosting"));
            Some("article")
        }
    };
    let body: String = a
        .body
        .split("\n\n")
        .map(|p| format!("<p>{}</p>\n", esc(p)))
        .collect();
    let tags: String = a
        .tags
        .iter()
        .map(|&t| format!("<a href=\"{}\">{}</a> ", site.tag_path(t), TAGS[t]))
        .collect();
    let byline = format!(
        "By <a href=\"{}\">{}</a>",
        site.author_path(a.author),
        esc(author)
    );
    let date = a.published.fmt("%d %B %Y, %H:%M");
    let more: String = site
        .in_section(a.section)
        .into_iter()
        .filter(|&j| j != i)
        .take(4)
        .map(|j| {
            let o = &site.articles[j];
            format!(
                "<h3><a href=\"{}\">{}</a></h3>\n",
                esc(&o.path),
                esc(&o.title)
            )
        })
        .collect();
    let title = esc(&a.title);
    let main = match site.shape {
        Shape::Dated => format!(
            "<main><article><header><h1>{title}</h1><p class=\"byline\">{byline} · \
             <time datetime=\"{d}\">{date}</time></p></header>\n<div class=\"article-body\">{body}</div>\n\
             <footer class=\"tags\">Topics: {tags}</footer></article>\n\
             <aside class=\"related\"><h2>Related</h2>{more}</aside></main>\n",
            d = a.published.rfc3339()
        ),
        Shape::NewsId => format!(
            "<div class=\"page\"><article class=\"story\"><h1>{title}</h1><div class=\"meta\">{byline}</div>\n\
             {body}<p class=\"topics\">{tags}</p></article>\n<div class=\"more-stories\"><h2>More stories</h2>{more}</div></div>\n"
        ),
        Shape::StoryId => format!(
            "<div id=\"content\"><div class=\"story-head\"><h1>{title}</h1>\
             <p class=\"dateline\">Published: {date}</p><p>{byline}</p></div>\n\
             <div class=\"story-text\">{body}</div>\n<div class=\"tags\">{tags}</div></div>\n\
             <div class=\"sidebar\"><h2>Most read</h2>{more}</div>\n"
        ),
        Shape::Blog => format!(
            "<main><article class=\"post\"><header><h1 class=\"entry-title\">{title}</h1>\
             <span class=\"posted-on\"><time class=\"entry-date published\" datetime=\"{d}\">{date}</time></span> \
             <span class=\"author vcard\">{byline}</span></header>\n<div class=\"entry-content\">{body}</div>\n\
             <footer class=\"entry-footer\">Tagged {tags}</footer></article>\n\
             <nav class=\"post-navigation\">{more}</nav></main>\n",
            d = a.published.rfc3339()
        ),
        // No date anywhere, no declared type, no canonical link: a page of
        // the mid-2000s.
        Shape::Plain => format!(
            "<div id=\"main\"><div class=\"content\"><h1>{title}</h1><p class=\"byline\">{byline}</p>\n\
             <div class=\"text\">{body}</div>\n<p class=\"tags\">Tags: {tags}</p></div>\n\
             <div class=\"sidebar\"><h2>Also in this section</h2>{more}</div></div>\n"
        ),
    };
    if site.shape == Shape::Plain {
        extra.clear();
    }
    let head = Head {
        og_type: og,
        extra,
        feed: false,
    };
    page(site, &a.title, head, &main)
}
