//! Article pages: one [`Article`] + its site → a full HTML page.
//!
//! In: the site's content, its base URL and the article's index. Out: HTML in
//! the site's own template — header, navigation, share bar, body, newsletter
//! pitch, comments, related stories, most read, footer. Every line of
//! [`SiteContent::template_lines`] is rendered in its own block element; the
//! body paragraphs are rendered exactly (HTML-escaped) as in the true body.

use std::fmt::Write;

use url::Url;

use super::pages::{esc, fault_box, head, nav, Ctx};
use super::site::{Article, SiteContent, Template};

/// The HTML page of article `i` of the site.
pub fn article_page(ctx: &Ctx, i: usize) -> String {
    let Some(a) = ctx.site.articles.get(i) else {
        return String::new();
    };
    let url = ctx.url(&a.path);
    match ctx.site.template {
        Template::Planet => planet(ctx, a, &url),
        Template::Globe => globe(ctx, a, &url),
        Template::Huaxia => huaxia(ctx, a, &url),
        Template::Wire => super::modern::wire(ctx, a, &url),
        Template::Faults | Template::RobotsFail => gazette(ctx, a, &url),
    }
}

fn links(ctx: &Ctx, items: &[usize], absolute: bool) -> String {
    let mut out = String::new();
    for &j in items {
        if let Some(r) = ctx.site.articles.get(j) {
            let href = if absolute {
                ctx.url(&r.path).to_string()
            } else {
                r.path.clone()
            };
            let _ = write!(
                out,
                "<li><a href=\"{}\">{}</a></li>",
                esc(&href),
                esc(&r.title)
            );
        }
    }
    out
}

/// `p` escaped, with its first `n` words wrapped in a link to `href`.
fn linked_words(p: &str, n: usize, href: &str) -> String {
    let cut = p
        .match_indices(' ')
        .nth(n.saturating_sub(1))
        .map_or(p.len(), |(i, _)| i);
    format!(
        "<a href=\"{}\">{}</a>{}",
        esc(href),
        esc(&p[..cut]),
        esc(&p[cut..])
    )
}

/// The body as `<p>` elements; the second paragraph links its opening words
/// to a related story, as newsrooms do: body text inside a link must survive
/// extraction.
fn body_with_inline_link(h: &mut String, ctx: &Ctx, a: &Article) {
    let related = a.related.first().and_then(|&j| ctx.site.articles.get(j));
    for (k, p) in a.paragraphs().enumerate() {
        match related {
            Some(r) if k == 1 => {
                let href = ctx.url(&r.path);
                let _ = writeln!(h, "<p>{}</p>", linked_words(p, 4, href.as_str()));
            }
            _ => {
                let _ = writeln!(h, "<p>{}</p>", esc(p));
            }
        }
    }
}

fn lines(site: &SiteContent) -> Vec<String> {
    site.template_lines().iter().map(|l| esc(l)).collect()
}

fn planet(ctx: &Ctx, a: &Article, url: &Url) -> String {
    let site = ctx.site;
    let t = lines(site);
    let mut h = head(ctx, &a.title, Some((a, url)));
    let _ = write!(
        h,
        "<body class=\"story-page\">\n<div id=\"page\">\n<div class=\"masthead\"><a href=\"/\" class=\"logo\">{name}</a> \
         <span class=\"tagline\">News you can rely on</span></div>\n{nav}\n\
         <div class=\"content\">\n<div class=\"story\">\n<h1 class=\"headline\">{title}</h1>\n\
         <div class=\"meta\"><span class=\"byline\">By {author}</span> | <time datetime=\"{dt}\">{date}</time></div>\n\
         <ul class=\"share-bar\"><li><a href=\"/share/facebook?id={id}\">{s1}</a></li>\
         <li><a href=\"/share/x?id={id}\">{s2}</a></li><li><a href=\"/share/email?id={id}\">{s3}</a></li></ul>\n\
         <div class=\"story-body\">\n",
        name = esc(&site.display),
        nav = nav(ctx),
        title = esc(&a.title),
        author = esc(&a.author),
        dt = a.published.rfc3339(),
        date = a.published.fmt("%B %-d, %Y"),
        id = a.id,
        s1 = t[2],
        s2 = t[3],
        s3 = t[4],
    );
    body_with_inline_link(&mut h, ctx, a);
    let _ = write!(
        h,
        "</div>\n<div class=\"newsletter-box\"><p>{pitch}</p><form action=\"/newsletter\" method=\"post\">\
         <input type=\"email\" name=\"email\" placeholder=\"Your email\"><button>Sign up</button></form></div>\n\
         <div class=\"comments\"><h3>{ch}</h3><p class=\"policy\">{cp}</p>\n",
        pitch = t[1],
        ch = t[7],
        cp = t[8],
    );
    for (name, text) in &a.comments {
        let _ = writeln!(
            h,
            "<div class=\"comment\"><span class=\"commenter\">{}</span><p>{}</p></div>",
            esc(name),
            esc(text)
        );
    }
    let _ = write!(
        h,
        "</div>\n</div>\n<div class=\"sidebar\"><h3>{rs}</h3><ul class=\"related\">{rel}</ul>\
         <h3>{mr}</h3><ol class=\"most-read\">{most}</ol></div>\n</div>\n{faults}\
         <div class=\"footer\"><p>{copy}</p><p><a href=\"/about\">About us</a> · <a href=\"/rss.xml\">RSS</a> · \
         <a href=\"{private}\">Members area</a></p></div>\n</div>\n</body>\n</html>\n",
        rs = t[5],
        rel = links(ctx, &a.related, true),
        mr = t[6],
        most = links(ctx, &site.most_read, true),
        faults = fault_box(ctx),
        copy = t[0],
        private = site.private_path(),
    );
    h
}

fn globe(ctx: &Ctx, a: &Article, url: &Url) -> String {
    let site = ctx.site;
    let t = lines(site);
    let kicker = site.sections.get(a.section).map_or("", |s| s.label);
    let mut h = head(ctx, &a.title, Some((a, url)));
    let _ = write!(
        h,
        "<body>\n<header class=\"site-header\"><p class=\"brand\"><a href=\"/\">{name}</a></p>{nav}</header>\n\
         <main id=\"main\">\n<article class=\"article\">\n<header class=\"article__header\">\
         <p class=\"article__kicker\">{kicker}</p><h1 class=\"article__title\">{title}</h1>\
         <p class=\"article__byline\">Par <span class=\"author\">{author}</span>, publié le \
         <time datetime=\"{dt}\">{date}</time></p></header>\n\
         <ul class=\"social-share\"><li><a href=\"/partage/facebook/{id}\">{s1}</a></li>\
         <li><a href=\"/partage/x/{id}\">{s2}</a></li><li><a href=\"/partage/email/{id}\">{s3}</a></li></ul>\n\
         <section class=\"article__content\">\n",
        name = esc(&site.display),
        nav = nav(ctx),
        kicker = esc(kicker),
        title = esc(&a.title),
        author = esc(&a.author),
        dt = a.published.rfc3339(),
        date = a.published.fmt("%d/%m/%Y à %Hh%M"),
        id = a.id,
        s1 = t[2],
        s2 = t[3],
        s3 = t[4],
    );
    for (k, p) in a.paragraphs().enumerate() {
        let _ = writeln!(h, "<p class=\"article__paragraph\">{}</p>", esc(p));
        // An in-body teaser for another story, not part of the article.
        if k == 2 {
            if let Some(r) = a.related.first().and_then(|&j| site.articles.get(j)) {
                let _ = writeln!(
                    h,
                    "<p class=\"article__mention\">Lire aussi : <a href=\"{}\">{}</a></p>",
                    esc(&r.path),
                    esc(&r.title)
                );
            }
        }
    }
    let _ = write!(
        h,
        "</section>\n<aside class=\"newsletter\"><h2>La lettre du Globe</h2><p>{pitch}</p>\
         <a class=\"btn\" href=\"/newsletters\">S’inscrire</a></aside>\n</article>\n\
         <aside class=\"related\"><h2>{rs}</h2><ul>{rel}</ul></aside>\n\
         <section id=\"comments\" class=\"comments\"><h2>{ch}</h2><p>{cp}</p>\n",
        pitch = t[1],
        rs = t[5],
        rel = links(ctx, &a.related, false),
        ch = t[7],
        cp = t[8],
    );
    for (name, text) in &a.comments {
        let _ = writeln!(
            h,
            "<article class=\"comment\"><h3>{}</h3><p>{}</p></article>",
            esc(name),
            esc(text)
        );
    }
    let _ = write!(
        h,
        "</section>\n<aside class=\"most-read\"><h2>{mr}</h2><ol>{most}</ol></aside>\n</main>\n{faults}\
         <footer class=\"site-footer\"><p>{copy}</p><ul><li><a href=\"/mentions-legales\">Mentions légales</a></li>\
         <li><a href=\"{private}\">Espace abonnés</a></li></ul></footer>\n</body>\n</html>\n",
        mr = t[6],
        most = links(ctx, &site.most_read, false),
        faults = fault_box(ctx),
        copy = t[0],
        private = site.private_path(),
    );
    h
}

fn huaxia(ctx: &Ctx, a: &Article, url: &Url) -> String {
    let site = ctx.site;
    let t = lines(site);
    let mut h = head(ctx, &a.title, Some((a, url)));
    let _ = write!(
        h,
        "<body>\n<div class=\"top_nav\"><a href=\"/\">{name}首页</a> | <a href=\"{private}\">会员中心</a></div>\n\
         <div class=\"header\"><div class=\"logo\"><a href=\"/\">{name}</a></div></div>\n{nav}\n\
         <div class=\"w1000 clearfix\">\n<div class=\"left_box fl\">\n<div class=\"text_title\"><h1>{title}</h1>\n\
         <p class=\"sou\"><time datetime=\"{dt}\">{date}</time>&nbsp;&nbsp;来源：{name}&nbsp;&nbsp;作者：{author}</p></div>\n\
         <div class=\"share\"><span><a href=\"/share/wx/{id}\">{s1}</a></span><span><a href=\"/share/wb/{id}\">{s2}</a></span>\
         <span><a href=\"/share/qz/{id}\">{s3}</a></span></div>\n<div id=\"rwb_zw\" class=\"box_con\">\n",
        name = esc(&site.display),
        private = site.private_path(),
        nav = nav(ctx),
        title = esc(&a.title),
        dt = a.published.rfc3339(),
        date = a.published.fmt("%Y年%m月%d日%H:%M"),
        author = esc(&a.author),
        id = a.id,
        s1 = t[2],
        s2 = t[3],
        s3 = t[4],
    );
    for p in a.paragraphs() {
        let _ = writeln!(h, "<p>\u{3000}\u{3000}{}</p>", esc(p));
    }
    let _ = write!(
        h,
        "</div>\n<div class=\"edit\">（责任编辑：{editor}）</div>\n\
         <div class=\"dyzx\"><p>{pitch}</p><a href=\"/dingyue.html\">立即订阅</a></div>\n\
         <div class=\"comment_box\"><h3>{ch}</h3><p class=\"tip\">{cp}</p>\n",
        editor = esc(&a.comments.first().map_or(String::new(), |c| c.0.clone())),
        pitch = t[1],
        ch = t[7],
        cp = t[8],
    );
    for (name, text) in &a.comments {
        let _ = writeln!(
            h,
            "<dl class=\"pl\"><dt>{}：</dt><dd>{}</dd></dl>",
            esc(name),
            esc(text)
        );
    }
    let _ = write!(
        h,
        "</div>\n</div>\n<div class=\"right_box fr\"><h2>{rs}</h2><ul class=\"list_14\">{rel}</ul>\
         <h2>{mr}</h2><ul class=\"list_14\">{most}</ul></div>\n</div>\n{faults}\
         <div class=\"copyright\"><p>{copy}</p><p>未经书面授权禁止复制或建立镜像</p></div>\n</body>\n</html>\n",
        rs = t[5],
        rel = links(ctx, &a.related, false),
        mr = t[6],
        most = links(ctx, &site.most_read, false),
        faults = fault_box(ctx),
        copy = t[0],
    );
    h
}

/// The fault sites: an old table layout.
fn gazette(ctx: &Ctx, a: &Article, url: &Url) -> String {
    let site = ctx.site;
    let t = lines(site);
    let mut h = head(ctx, &a.title, Some((a, url)));
    let _ = write!(
        h,
        "<body>\n<table width=\"100%\" class=\"layout\"><tr><td colspan=\"2\" class=\"top\">\
         <font size=\"6\"><a href=\"/\">{name}</a></font><br>{nav}</td></tr>\n<tr><td class=\"main\" valign=\"top\">\n\
         <h1>{title}</h1><p class=\"by\">By {author} — <time datetime=\"{dt}\">{date}</time></p>\n\
         <table class=\"share\"><tr><td><a href=\"/share/fb/{id}\">{s1}</a></td><td><a href=\"/share/x/{id}\">{s2}</a></td>\
         <td><a href=\"/share/mail/{id}\">{s3}</a></td></tr></table>\n<div class=\"text\">\n",
        name = esc(&site.display),
        nav = nav(ctx),
        title = esc(&a.title),
        author = esc(&a.author),
        dt = a.published.rfc3339(),
        date = a.published.fmt("%d %b %Y"),
        id = a.id,
        s1 = t[2],
        s2 = t[3],
        s3 = t[4],
    );
    body_with_inline_link(&mut h, ctx, a);
    let _ = write!(
        h,
        "</div>\n<p class=\"pitch\">{}</p>\n<h3>{}</h3><p>{}</p>\n",
        t[1], t[7], t[8]
    );
    for (name, text) in &a.comments {
        let _ = writeln!(
            h,
            "<p class=\"comment\"><b>{}</b>: {}</p>",
            esc(name),
            esc(text)
        );
    }
    let _ = write!(
        h,
        "</td><td class=\"side\" valign=\"top\" width=\"250\"><h3>{rs}</h3><ul>{rel}</ul><h3>{mr}</h3><ul>{most}</ul>\
         {faults}</td></tr>\n<tr><td colspan=\"2\" class=\"bottom\"><p>{copy}</p><p><a href=\"{private}\">Members</a></p></td></tr></table>\n\
         </body>\n</html>\n",
        rs = t[5],
        rel = links(ctx, &a.related, false),
        mr = t[6],
        most = links(ctx, &site.most_read, false),
        faults = fault_box(ctx),
        copy = t[0],
        private = site.private_path(),
    );
    h
}
