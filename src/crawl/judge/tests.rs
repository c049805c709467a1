//! Each signal of the judgement on its own (an article's evidence with one
//! thing changed), then whole pages through extraction.

use url::Url;

use super::*;
use crate::extract::strip::links::LinkAttrs;
use crate::extract::{Extractor, Page};

/// A plain story: a long body with a headline and a date, declaring nothing.
fn story() -> Evidence {
    Evidence {
        body_words: 400,
        body_paragraphs: 7,
        headline: true,
        dated: true,
        link_density: 0.2,
        linked_headings: 0,
        ..Evidence::default()
    }
}

fn verdict(e: &Evidence) -> (PageVerdict, &'static str) {
    let j = judge(e);
    (j.verdict, j.reason.as_str())
}

use PageVerdict::{Article as A, NotArticle as N};

#[test]
fn a_long_dated_body_with_a_headline_is_an_article_without_declarations() {
    assert_eq!(verdict(&story()), (A, "body_headline_date"));
    // Any one of the three missing, and nothing else speaks for it: not.
    let undated = Evidence {
        dated: false,
        ..story()
    };
    assert_eq!(verdict(&undated), (N, "undated"));
    let short = Evidence {
        body_words: 120,
        body_paragraphs: 2,
        ..story()
    };
    assert_eq!(verdict(&short), (N, "no_article_evidence"));
    let untitled = Evidence {
        headline: false,
        ..story()
    };
    assert_eq!(verdict(&untitled), (N, "no_article_evidence"));
}

#[test]
fn json_ld_story_type_with_a_date_decides_even_beside_teasers_and_a_search_box() {
    let e = Evidence {
        ld_article: true,
        body_words: 90,
        body_paragraphs: 2,
        linked_headings: 8,
        search_fields: 1,
        ..story()
    };
    assert_eq!(verdict(&e), (A, "declared_news_article"));
    // Undated, the declaration alone does not decide.
    let undated = Evidence {
        dated: false,
        ..e.clone()
    };
    assert_eq!(verdict(&undated).0, N);
    // Story items inside a declared list are a section front's teasers.
    let listed_items = Evidence {
        ld_not_article: true,
        ..e
    };
    assert_eq!(verdict(&listed_items), (N, "teaser_list"));
}

#[test]
fn og_type_article_needs_a_date_so_policy_pages_that_declare_it_are_not_stored() {
    let declared = Evidence {
        og_article: Some(true),
        body_words: 100,
        body_paragraphs: 2,
        ..story()
    };
    assert_eq!(verdict(&declared), (A, "declared_og_article"));
    let policy = Evidence {
        dated: false,
        ..declared.clone()
    };
    assert_eq!(verdict(&policy), (N, "undated"));
    let website = Evidence {
        og_article: Some(false),
        ..declared
    };
    assert_eq!(verdict(&website), (N, "no_article_evidence"));
}

#[test]
fn an_article_element_holding_the_headline_counts_as_a_declaration() {
    let e = Evidence {
        article_headline: true,
        body_words: 100,
        body_paragraphs: 2,
        ..story()
    };
    assert_eq!(verdict(&e), (A, "article_element"));
}

#[test]
fn a_declared_publication_time_keeps_a_page_from_its_index_shape() {
    let e = Evidence {
        shape_hint: Some(false),
        body_words: 100,
        body_paragraphs: 2,
        ..story()
    };
    assert_eq!(verdict(&e), (N, "index_shape"));
    let declared = Evidence {
        published_declared: true,
        ..e
    };
    assert_eq!(verdict(&declared), (N, "no_article_evidence"));
}

#[test]
fn regression_a_learned_index_shape_outweighed_a_long_story_its_feed_listed() {
    // Three undated stories once taught their shape "not an article", and
    // every later story of it, 600 words and listed in the feed, was
    // judged `index_shape`.
    let listed = Evidence {
        shape_hint: Some(false),
        dated: false,
        listed: true,
        ..story()
    };
    assert_eq!(verdict(&listed), (A, "listed"));
    let dated = Evidence {
        shape_hint: Some(false),
        ..story()
    };
    assert_eq!(verdict(&dated), (A, "body_headline_date"));
    // Unlisted and undated, it waits for evidence: a story, revisable.
    let waiting = judge(&Evidence {
        listed: false,
        ..listed
    });
    assert_eq!(waiting.reason, JudgeReason::Undated);
    assert!(waiting.story && waiting.reason.revisable());
    assert_eq!(waiting.shape_evidence(), Some(Judged::Story));
}

#[test]
fn what_a_verdict_teaches_the_shape_of_its_url() {
    let of = |e: &Evidence| judge(e).shape_evidence();
    assert_eq!(of(&story()), Some(Judged::Article));
    // The index shape's own verdict teaches it nothing.
    let held = Evidence {
        shape_hint: Some(false),
        body_words: 100,
        body_paragraphs: 2,
        ..story()
    };
    assert_eq!(judge(&held).reason, JudgeReason::IndexShape);
    assert_eq!(of(&held), None);
    let teasers = Evidence {
        linked_headings: 8,
        body_paragraphs: 2,
        ..story()
    };
    assert_eq!(of(&teasers), Some(Judged::Listing));
    // A short undated page is another page, not a story.
    let short = Evidence {
        dated: false,
        body_words: 80,
        body_paragraphs: 2,
        ..story()
    };
    let j = judge(&short);
    assert_eq!((j.reason, j.story), (JudgeReason::Undated, false));
    assert_eq!(j.shape_evidence(), Some(Judged::Other));
    let form = Evidence {
        password_fields: 1,
        body_words: 30,
        ..story()
    };
    assert!(!judge(&form).reason.revisable());
    assert_eq!(
        JudgeReason::revisable_strs(),
        ["undated", "no_article_evidence", "index_shape"]
    );
}

#[test]
fn feed_listing_and_article_shape_stand_in_for_a_date() {
    let short_undated = Evidence {
        dated: false,
        body_words: 80,
        body_paragraphs: 2,
        ..story()
    };
    assert_eq!(verdict(&short_undated).0, N);
    let listed = Evidence {
        listed: true,
        ..short_undated.clone()
    };
    assert_eq!(verdict(&listed), (A, "listed"));
    let shaped = Evidence {
        shape_hint: Some(true),
        ..short_undated
    };
    assert_eq!(verdict(&shaped), (A, "article_shape"));
    // Neither rescues a page without a body.
    let thin = Evidence {
        body_words: 20,
        ..listed
    };
    assert_eq!(verdict(&thin), (N, "thin_text"));
}

#[test]
fn teasers_outnumbering_the_paragraphs_make_a_listing() {
    // A section front: its text is its teasers' summaries.
    let front = Evidence {
        linked_headings: 12,
        teasers_in_body: 12,
        body_paragraphs: 12,
        ..story()
    };
    assert_eq!(verdict(&front), (N, "teaser_list"));
    // One teaser in the text is enough to call it a front …
    let one_in = Evidence {
        teasers_in_body: 1,
        ..front.clone()
    };
    assert_eq!(verdict(&one_in), (N, "teaser_list"));
    // … and with none of them in it, a long dated story under a headline
    // has a rail of teasers beside it.
    let beside = Evidence {
        teasers_in_body: 0,
        ..front.clone()
    };
    assert_eq!(verdict(&beside), (A, "body_headline_date"));
    let undated = Evidence {
        dated: false,
        ..beside
    };
    assert_eq!(verdict(&undated), (N, "teaser_list"));
    // A long story with a rail of four "more" headings is still a story.
    let rail = Evidence {
        linked_headings: 4,
        body_paragraphs: 9,
        ..story()
    };
    assert_eq!(verdict(&rail), (A, "body_headline_date"));
    // So is one under two dozen headline links, when it declares its
    // publication time (a section front declares none).
    let portal = Evidence {
        linked_headings: 25,
        published_declared: true,
        og_article: Some(true),
        ..story()
    };
    assert_eq!(verdict(&portal), (A, "declared_og_article"));
}

#[test]
fn mostly_link_text_is_a_link_list_unless_a_long_body_stands_beside_it() {
    let e = Evidence {
        link_density: 0.7,
        body_words: 110,
        body_paragraphs: 3,
        ..story()
    };
    assert_eq!(verdict(&e), (N, "link_list"));
    let portal_story = Evidence {
        link_density: 0.7,
        ..story()
    };
    assert_eq!(verdict(&portal_story), (A, "body_headline_date"));
    let thin = Evidence {
        body_words: 10,
        ..e
    };
    assert_eq!(verdict(&thin), (N, "link_list"));
}

#[test]
fn forms_with_little_text_are_form_pages_but_a_header_search_box_is_not() {
    let sign_in = Evidence {
        password_fields: 1,
        text_fields: 1,
        body_words: 30,
        body_paragraphs: 1,
        dated: false,
        ..story()
    };
    assert_eq!(verdict(&sign_in), (N, "form_page"));
    let contact = Evidence {
        text_fields: 3,
        body_words: 90,
        body_paragraphs: 2,
        ..story()
    };
    assert_eq!(verdict(&contact), (N, "form_page"));
    let story_with_search_box = Evidence {
        search_fields: 1,
        body_words: 100,
        body_paragraphs: 2,
        og_article: Some(true),
        ..story()
    };
    assert_eq!(verdict(&story_with_search_box).0, A);
    let search_page = Evidence {
        body_words: 8,
        ..story_with_search_box
    };
    assert_eq!(verdict(&search_page), (N, "form_page"));
}

#[test]
fn a_declared_list_page_is_not_an_article() {
    let e = Evidence {
        ld_not_article: true,
        ..story()
    };
    assert_eq!(verdict(&e), (N, "declared_not_article"));
}

#[test]
fn patterns_decide_both_ways_with_their_own_reason() {
    assert!(Judgement::by_pattern(true).is_article());
    assert!(!Judgement::by_pattern(false).is_article());
    assert_eq!(Judgement::by_pattern(false).reason.as_str(), "pattern");
}

// Whole pages: extraction's signals and the prepass's form fields.

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
