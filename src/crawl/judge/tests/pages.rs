//! Whole pages through extraction and the judgement, as a crawl judges
//! them, and the verdicts on the corpus's real pages.

use url::Url;

use super::super::*;
use super::{A, N};
use crate::extract::strip::links::LinkAttrs;
use crate::extract::{Extractor, Page};

fn judge_page(html: &str, url: &str) -> Judgement {
    let url = Url::parse(url).unwrap();
    let mut links = LinkAttrs::new(100);
    let page = Page::from_html(html).url(&url).collect_links(&mut links);
    let got = Extractor::default().extract(page);
    judge(&Evidence::of(
        &got.article,
        &got.signals,
        links.form_fields,
        false,
        None,
    ))
}

const PARAS: [&str; 5] = [
    "The city council voted on Tuesday to extend the night bus network to the northern districts, after two years of complaints from shift workers who had no way home.",
    "Officials said the new routes would start in March and cost about four million a year, paid for by a small rise in parking fees in the centre.",
    "Opposition members argued that the money would be better spent on the tram line, which has been delayed twice and is now expected to open in late 2028.",
    "A survey of riders last spring found that most of them travel between midnight and five in the morning, and that many change buses at least once.",
    "The mayor said the council would review the routes after a year and publish the numbers of riders on each line every quarter from now on.",
];

fn body() -> String {
    PARAS.iter().map(|p| format!("<p>{p}</p>\n")).collect()
}

fn nav() -> &'static str {
    "<header><nav><a href=\"/\">Home</a> <a href=\"/news/\">News</a> <a href=\"/sport/\">Sport</a> \
     <form action=\"/search\"><input type=\"search\" name=\"q\"></form></nav></header>"
}

#[test]
fn a_story_that_declares_nothing_is_judged_by_its_body_headline_and_date() {
    let html = format!(
        "<html><head><title>Night buses reach the north | Gazette</title></head><body>{}\
         <div class=\"story\"><h1>Night buses reach the north</h1><p class=\"date\">Published: 12 March 2026</p>{}</div>\
         <footer><a href=\"/about\">About</a> <a href=\"/privacy\">Privacy</a></footer></body></html>",
        nav(),
        body()
    );
    let j = judge_page(
        &html,
        "https://gazette.test/local/night-buses-reach-the-north",
    );
    assert_eq!((j.verdict, j.reason.as_str()), (A, "body_headline_date"));
}

#[test]
fn a_privacy_page_declaring_og_article_and_its_last_update_is_not_an_article() {
    let html = format!(
        "<html><head><title>Privacy policy | Gazette</title>\
         <meta property=\"og:type\" content=\"article\">\
         <meta property=\"article:modified_time\" content=\"2025-03-03T10:00:00Z\"></head><body>{}\
         <main><h1>Privacy policy</h1><p>Last updated: 3 March 2025</p>{}</main></body></html>",
        nav(),
        body()
    );
    let j = judge_page(&html, "https://gazette.test/privacy");
    assert_eq!(j.verdict, N, "{j:?}");
}

/// A short blog post above its comment form (name, e-mail, website and
/// the comment), a sign-in box beside it: the form is the post's own. A
/// contact page's form, which asks for a message, still makes a form page.
/// The bug: the post was a form page, a verdict a feed listing it could
/// not revise.
#[test]
fn regression_a_short_post_above_its_comment_form_was_a_form_page() {
    let form = |area: &str| {
        format!(
            "<form action=\"/post\" method=\"post\"><input type=\"text\" name=\"author\">\
             <input type=\"email\" name=\"email\"><input type=\"url\" name=\"url\">{area}\
             <button>Send</button></form>"
        )
    };
    let page = |area: &str| {
        format!(
            "<html><head><title>Night buses | Gazette</title><meta property=\"og:type\" content=\"article\">\
             <meta property=\"article:published_time\" content=\"2026-03-12T08:00:00Z\"></head><body>{}\
             <aside><form action=\"/login\"><input type=\"text\" name=\"log\"><input type=\"password\" name=\"pwd\"></form></aside>\
             <main><h1>Night buses reach the north</h1><p>{}</p><p>{}</p><h3>Leave a reply</h3>{}</main></body></html>",
            nav(),
            PARAS[0],
            PARAS[1],
            form(area)
        )
    };
    let url = "https://gazette.test/2026/03/12/night-buses";
    let post = judge_page(
        &page("<textarea id=\"comment\" name=\"comment\"></textarea>"),
        url,
    );
    assert_eq!(
        (post.verdict, post.reason.as_str()),
        (A, "declared_og_article")
    );
    let contact = judge_page(&page("<textarea name=\"message\"></textarea>"), url);
    assert_eq!((contact.verdict, contact.reason.as_str()), (N, "form_page"));
}

#[test]
fn a_sign_in_page_is_a_form_page() {
    let html = format!(
        "<html><head><title>Sign in | Gazette</title></head><body>{}\
         <main><h1>Sign in</h1><form action=\"/login\" method=\"post\"><label>E-mail <input type=\"email\" name=\"email\"></label>\
         <label>Password <input type=\"password\" name=\"password\"></label><button>Sign in</button></form>\
         <p>New here? Create an account to read every story and join the conversation.</p></main></body></html>",
        nav()
    );
    let j = judge_page(&html, "https://gazette.test/account/sign-in");
    assert_eq!((j.verdict, j.reason.as_str()), (N, "form_page"));
}

#[test]
fn a_section_front_of_dated_teasers_is_a_teaser_list() {
    let teasers: String = (0..10)
        .map(|i| {
            format!(
                "<div class=\"card\"><h3><a href=\"/local/story-{i}\">Story number {i} of the day</a></h3>\
                 <p>{}</p><time datetime=\"2026-03-1{}T08:00:00Z\">March</time></div>\n",
                PARAS[i % 5],
                i % 9
            )
        })
        .collect();
    let html = format!(
        "<html><head><title>Local | Gazette</title><meta property=\"og:type\" content=\"website\"></head><body>{}\
         <main><h1>Local</h1>{teasers}<div class=\"pager\"><a href=\"/local/?page=2\">Next</a></div></main></body></html>",
        nav()
    );
    let j = judge_page(&html, "https://gazette.test/local/");
    assert_eq!((j.verdict, j.reason.as_str()), (N, "teaser_list"));
}

/// A story that declares nothing, dated on the page, with more teasers of
/// other stories after it than it has paragraphs: none of them is in its
/// text, so they are a rail beside it. The bug: judged a teaser list, and
/// lost by a crawl even when a feed listed it.
#[test]
fn regression_a_story_with_a_long_rail_of_teasers_after_it_was_a_teaser_list() {
    let rail: String = (0..8)
        .map(|i| {
            format!(
                "<article class=\"box\"><figure><a href=\"/s/{i}\"><img src=\"/{i}.jpg\"></a></figure>\
                 <ul><li>Jane Roe</li></ul><h3><a href=\"/s/{i}\">Another headline of the week, number {i}</a></h3></article>\n"
            )
        })
        .collect();
    let html = format!(
        "<html><head><title>Night buses reach the north | Gazette</title></head><body>{}\
         <div class=\"story\"><h1>Night buses reach the north</h1><div class=\"info\"><span>12.03.2026</span></div>{}</div>\
         <section class=\"boxes\"><h2>Weitere Artikel</h2>{rail}</section></body></html>",
        nav(),
        body()
    );
    let j = judge_page(&html, "https://gazette.test/night-buses-reach-the-north/");
    assert_eq!((j.verdict, j.reason.as_str()), (A, "body_headline_date"));
}

/// A story under a site menu built of linked headings ("Home", "About
/// us", …), outside any `<nav>`, as small sites' templates write them: the
/// labels are too short to be found in (or missed from) the story's text.
/// The bug: each counted as a teaser in the body, so the menu outnumbered
/// the story's paragraphs and it was judged a teaser list.
#[test]
fn regression_a_story_under_a_menu_of_linked_headings_was_a_teaser_list() {
    let menu: String = [
        "Home",
        "About us",
        "Departments",
        "Services",
        "Research",
        "Contact",
        "News",
    ]
    .iter()
    .map(|label| format!("<li><h3><a href=\"/{label}\">{label}</a></h3></li>"))
    .collect();
    let html = format!(
        "<html><head><title>Night buses reach the north | Gazette</title></head><body>\
         <div><ul>{menu}</ul></div>\
         <div class=\"story\"><h1>Night buses reach the north</h1><p>12.03.2026</p>{}</div></body></html>",
        body()
    );
    let j = judge_page(&html, "https://gazette.test/night-buses-reach-the-north/");
    assert_eq!((j.verdict, j.reason.as_str()), (A, "body_headline_date"));
}

#[test]
fn a_story_with_json_ld_is_declared_even_with_a_rail_of_more_stories() {
    let rail: String = (0..6)
        .map(|i| format!("<h3><a href=\"/local/other-{i}\">Another story {i}</a></h3>"))
        .collect();
    let html = format!(
        "<html><head><title>Night buses | Gazette</title>\
         <script type=\"application/ld+json\">{{\"@type\":\"NewsArticle\",\"headline\":\"Night buses\",\"datePublished\":\"2026-03-12T09:00:00Z\"}}</script>\
         </head><body>{}<h1>Night buses</h1><div>{}</div><div class=\"more\">{rail}</div></body></html>",
        nav(),
        PARAS[..3].iter().map(|p| format!("<p>{p}</p>")).collect::<String>()
    );
    let j = judge_page(&html, "https://gazette.test/local/night-buses");
    assert_eq!((j.verdict, j.reason.as_str()), (A, "declared_news_article"));
}

/// Run by hand: `cargo test --lib judge_corpus -- --ignored --nocapture`.
/// The verdicts on the real news pages of the repository's corpus (article pages,
/// nearly all): how many a bare site would keep, and why the others not.
#[test]
#[ignore]
fn judge_corpus_pages() {
    let root = crate::corpus_archive::repo_corpus();
    for set in [
        "page-signal-dev",
        "readability-dev",
        "zh-dev",
        "cleanportaleval",
    ] {
        let Ok(dir) = std::fs::read_dir(root.join(set).join("html")) else {
            continue;
        };
        let mut reasons: std::collections::BTreeMap<&str, usize> = Default::default();
        let mut articles = 0;
        let mut pages = 0;
        for f in dir.flatten() {
            let raw = std::fs::read(f.path()).unwrap();
            let html = crate::extract::charset::decode(&raw, None, None).text;
            let j = judge_page(&html, "https://corpus.example.com/page");
            pages += 1;
            articles += usize::from(j.is_article());
            *reasons.entry(j.reason.as_str()).or_default() += 1;
        }
        println!("{set}: {articles}/{pages} judged articles; {reasons:?}");
    }
}
