//! Index pages and the shared parts of every page (head, navigation).
//!
//! In: a [`Ctx`] (site content, base URL, fault links) and which page. Out:
//! HTML for the home page, paginated section pages, the robots-disallowed
//! private page and a 404 page, in the site's own template. Article pages are
//! in [`super::article`].

use std::fmt::Write;

use url::Url;

use super::site::{Article, SiteContent, Template, PAGE_SIZE};

/// Everything a page needs to render.
pub struct Ctx<'a> {
    pub site: &'a SiteContent,
    pub base: &'a Url,
    /// (kind, path) of the fault pages linked from every page of a fault site.
    pub fault_links: &'a [(String, String)],
}

impl Ctx<'_> {
    pub fn url(&self, path: &str) -> Url {
        self.base.join(path).unwrap_or_else(|_| self.base.clone())
    }
}

/// HTML-escape text and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `<!DOCTYPE>` through `</head>`; article pages get og:, canonical and author.
pub fn head(ctx: &Ctx, title: &str, article: Option<(&Article, &Url)>) -> String {
    let site = ctx.site;
    let mut h = format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title} | {name}</title>\n\
         <link rel=\"alternate\" type=\"application/rss+xml\" title=\"{name}\" href=\"/rss.xml\">\n",
        lang = site.lang.code(),
        title = esc(title),
        name = esc(&site.display),
    );
    if let Some((a, url)) = article {
        let _ = write!(
            h,
            "<link rel=\"canonical\" href=\"{url}\">\n<meta property=\"og:type\" content=\"article\">\n\
             <meta property=\"og:title\" content=\"{title}\">\n<meta property=\"og:url\" content=\"{url}\">\n\
             <meta property=\"og:site_name\" content=\"{name}\">\n<meta name=\"description\" content=\"{teaser}\">\n",
            url = esc(url.as_str()),
            title = esc(&a.title),
            name = esc(&site.display),
            teaser = esc(&a.teaser),
        );
        if site.template == Template::Wire {
            // Author and date only in the JSON-LD, as many sites serve them.
            h.push_str(&wire_json_ld(site, a, url));
        } else {
            let _ = write!(
                h,
                "<meta name=\"author\" content=\"{author}\">\n\
                 <meta property=\"article:published_time\" content=\"{dt}\">\n",
                author = esc(&a.author),
                dt = a.published.rfc3339(),
            );
        }
        if matches!(site.template, Template::Planet | Template::Globe) {
            let section = site.sections.get(a.section).map(|s| s.label);
            let ld = serde_json::json!({
                "@context": "https://schema.org",
                "@type": "NewsArticle",
                "headline": a.title,
                "datePublished": a.published.rfc3339(),
                "author": {"@type": "Person", "name": a.author},
                "articleSection": section,
                "keywords": section.into_iter().collect::<Vec<_>>(),
                "publisher": {"@type": "Organization", "name": site.display},
                "mainEntityOfPage": url.as_str(),
                "inLanguage": site.lang.code(),
            });
            // `</` inside a script would end it early; JSON allows `<\/`.
            let ld = ld.to_string().replace("</", "<\\/");
            let _ = writeln!(h, "<script type=\"application/ld+json\">{ld}</script>");
        }
    }
    h.push_str(
        "<style>body{margin:0 auto;max-width:70em}.nav li,.share-bar li{display:inline;margin-right:1em}</style>\n\
         <script>window.dataLayer=window.dataLayer||[];dataLayer.push({\"page\":\"news\"});</script>\n</head>\n",
    );
    h
}

/// `<script type="application/ld+json">` with the `NewsArticle`, its
/// `articleBody`, author and publication date.
fn wire_json_ld(site: &SiteContent, a: &Article, url: &Url) -> String {
    let ld = serde_json::json!({
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        "headline": a.title,
        "datePublished": a.published.rfc3339(),
        "dateModified": a.published.rfc3339(),
        "author": [{"@type": "Person", "name": a.author}],
        "publisher": {"@type": "Organization", "name": site.display},
        "image": {"@type": "ImageObject", "url": format!("/img/{}.jpg", a.id)},
        "mainEntityOfPage": url.as_str(),
        "articleBody": a.body,
        "inLanguage": site.lang.code(),
    });
    // `</` inside a script would end it early; JSON allows `<\/`.
    let ld = ld.to_string().replace("</", "<\\/");
    format!("<script type=\"application/ld+json\">{ld}</script>\n")
}

/// The site's navigation bar: home, sections, the private area.
pub fn nav(ctx: &Ctx) -> String {
    let site = ctx.site;
    let home = match site.template {
        Template::Globe => "Accueil",
        Template::Huaxia => "首页",
        _ => "Home",
    };
    let mut items = vec![("/".to_string(), home.to_string())];
    for s in 0..site.sections.len() {
        items.push((site.section_path(s, 1), site.sections[s].label.to_string()));
    }
    let mut out = String::new();
    match site.template {
        Template::Globe => {
            out.push_str("<nav class=\"main-nav\" aria-label=\"Rubriques\"><ul>");
            for (href, label) in &items {
                let _ = write!(out, "<li><a href=\"{}\">{}</a></li>", esc(href), esc(label));
            }
            out.push_str("</ul></nav>");
        }
        Template::Huaxia => {
            out.push_str("<div class=\"nav_box\">");
            for (href, label) in &items {
                let _ = write!(out, "<a href=\"{}\">{}</a> ", esc(href), esc(label));
            }
            out.push_str("</div>");
        }
        _ => {
            out.push_str("<ul class=\"nav\">");
            for (href, label) in &items {
                let _ = write!(out, "<li><a href=\"{}\">{}</a></li>", esc(href), esc(label));
            }
            let _ = write!(
                out,
                "<li><a href=\"{}\">Members</a></li></ul>",
                site.private_path()
            );
        }
    }
    out
}

/// Links to the fault pages (empty on ordinary sites).
pub fn fault_box(ctx: &Ctx) -> String {
    if ctx.fault_links.is_empty() {
        return String::new();
    }
    let mut out = String::from("<div class=\"tools\"><h4>Tools</h4><ul>");
    for (kind, path) in ctx.fault_links {
        let _ = write!(out, "<li><a href=\"{}\">{}</a></li>", esc(path), esc(kind));
    }
    out.push_str("</ul></div>\n");
    out
}

/// The home page (`section` = None) or page `page` of a section.
pub fn index_page(ctx: &Ctx, section: Option<usize>, page: usize) -> String {
    let site = ctx.site;
    let (heading, items, pages) = match section {
        None => (
            site.display.clone(),
            (0..site.articles.len().min(12)).collect::<Vec<_>>(),
            0,
        ),
        Some(s) => {
            let all = site.section_articles(s);
            let items = all
                .iter()
                .copied()
                .skip((page.saturating_sub(1)) * PAGE_SIZE)
                .take(PAGE_SIZE)
                .collect();
            let label = site.sections.get(s).map_or("", |x| x.label).to_string();
            (label, items, site.section_pages(s))
        }
    };
    let mut h = head(ctx, &heading, None);
    let (list_open, list_close, item_class) = match site.template {
        Template::Globe => (
            "<main><section class=\"teasers\">",
            "</section></main>",
            "teaser",
        ),
        Template::Huaxia => (
            "<div class=\"w1000\"><ul class=\"list_16\">",
            "</ul></div>",
            "li",
        ),
        _ => (
            "<div class=\"content\"><div class=\"river\">",
            "</div></div>",
            "item",
        ),
    };
    let _ = write!(
        h,
        "<body class=\"index\">\n<div class=\"masthead\"><a href=\"/\">{name}</a></div>\n{nav}\n<h1>{heading}</h1>\n{list_open}\n",
        name = esc(&site.display),
        nav = nav(ctx),
        heading = esc(&heading),
    );
    for &i in &items {
        let a = &site.articles[i];
        let date = a.published.fmt("%Y-%m-%d");
        if site.template == Template::Huaxia {
            let _ = writeln!(
                h,
                "<li><a href=\"{}\">{}</a><span>{date}</span><p>{}</p></li>",
                esc(&a.path),
                esc(&a.title),
                esc(&a.teaser)
            );
        } else {
            let _ = writeln!(
                h,
                "<div class=\"{item_class}\"><h2><a href=\"{}\">{}</a></h2><p class=\"summary\">{}</p><time datetime=\"{}\">{date}</time></div>",
                esc(&a.path),
                esc(&a.title),
                esc(&a.teaser),
                a.published.rfc3339()
            );
        }
    }
    h.push_str(list_close);
    if let Some(s) = section {
        h.push_str("\n<div class=\"pagination\">");
        for p in 1..=pages {
            if p == page {
                let _ = write!(h, "<span class=\"current\">{p}</span> ");
            } else {
                let _ = write!(h, "<a href=\"{}\">{p}</a> ", esc(&site.section_path(s, p)));
            }
        }
        h.push_str("</div>");
    }
    let copy = site.template_lines().into_iter().next().unwrap_or_default();
    let members = match site.template {
        Template::Globe => "Espace abonnés",
        Template::Huaxia => "会员中心",
        _ => "Members area",
    };
    let _ = write!(
        h,
        "\n{faults}<div class=\"footer\"><p>{copy}</p><p><a href=\"{private}\">{members}</a> · <a href=\"/rss.xml\">RSS</a></p></div>\n</body>\n</html>\n",
        faults = fault_box(ctx),
        copy = esc(&copy),
        private = site.private_path(),
    );
    h
}

/// The page behind robots.txt's `Disallow`: served (and logged) anyway.
pub fn private_page(ctx: &Ctx) -> String {
    let mut h = head(ctx, "Members only", None);
    let _ = write!(
        h,
        "<body>\n{}\n<h1>Members only</h1>\n<p>This area is reserved for subscribers.</p>\n</body>\n</html>\n",
        nav(ctx)
    );
    h
}

pub fn not_found_page(ctx: &Ctx) -> String {
    let mut h = head(ctx, "Page not found", None);
    let _ = write!(
        h,
        "<body>\n{}\n<h1>Page not found</h1>\n<p>The page you asked for does not exist.</p>\n</body>\n</html>\n",
        nav(ctx)
    );
    h
}
