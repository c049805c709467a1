//! Each signal of the judgement on its own (an article's evidence with one
//! thing changed), then whole pages through extraction.

use super::*;

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

mod pages;
