//! Each furniture rule on a small page, with the body paragraphs that look
//! like furniture but are not (a sentence that starts with "By", a date in
//! a sentence).

use super::lines::{
    is_byline, is_credit, is_dateline, is_link_list_heading, is_prompt, is_read_more_line,
    is_tag_line,
};
mod captions;
mod teasers;

use crate::extract::ablation::{Ablations, Step};
use crate::extract::{extract_html, Algorithm, ExtractOptions};

/// A story of `n` paragraphs with enough text to be selected.
pub(super) fn story(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "<p>Paragraph {i} of the report says the council met on Monday and agreed \
                 the new budget for the town, after a long and heated debate.</p>"
            )
        })
        .collect()
}

/// The text `auto` extracts from a page whose article is `inner`.
pub(super) fn text_of(inner: &str, opts: &ExtractOptions) -> String {
    let html = format!(
        "<html><head><title>Council agrees the budget</title></head><body>\
         <nav><a href=/>Home</a> <a href=/n>News</a></nav>\
         <article><h1>Council agrees the budget</h1>{inner}</article>\
         <footer><a href=/c>Contact</a></footer></body></html>"
    );
    extract_html(&html, None, opts).text
}

pub(super) fn default_text(inner: &str) -> String {
    text_of(inner, &ExtractOptions::default())
}

pub(super) fn ablated(step: Step) -> ExtractOptions {
    ExtractOptions {
        algorithm: Algorithm::Auto,
        ablate: Ablations::default().with(step),
        ..ExtractOptions::default()
    }
}

#[test]
fn byline_box_and_time_line_are_left_out() {
    let inner = format!(
        "<div class=article-byline>By <a href=/a/jr>Jane Roe</a> | Sep 5, 2019</div>\
         <p>Published <time datetime=2019-09-05>5 September 2019</time></p>{}",
        story(4)
    );
    let t = default_text(&inner);
    assert!(!t.contains("Jane Roe"), "{t}");
    assert!(!t.contains("5 September 2019"), "{t}");
    let kept = text_of(&inner, &ablated(Step::Bylines));
    assert!(kept.contains("Jane Roe"), "{kept}");
}

#[test]
fn date_inside_a_sentence_stays() {
    let inner = format!(
        "<p>The vote on <span class=date>5 September</span> was close, and the \
         mayor said the town would have to wait for the new library.</p>{}",
        story(4)
    );
    let t = default_text(&inner);
    assert!(t.contains("The vote on 5 September was close"), "{t}");
}

#[test]
fn byline_and_dateline_lines_are_left_out() {
    let inner = format!(
        "<p>By Jane Roe | Sep 5, 2019</p><p>Updated 3 hours ago</p>{}\
         <p>Posted by jroe on May 3, 2019</p>",
        story(4)
    );
    let t = default_text(&inner);
    assert!(!t.contains("Jane Roe"), "{t}");
    assert!(!t.contains("hours ago"), "{t}");
    assert!(!t.contains("Posted by"), "{t}");
    assert!(t.contains("Paragraph 3 of the report"), "{t}");
}

#[test]
fn body_paragraph_that_starts_with_by_stays() {
    let inner = format!(
        "<p>By Monday, the floods had receded.</p><p>By the end of the year</p>{}",
        story(4)
    );
    let t = default_text(&inner);
    assert!(t.contains("By Monday, the floods had receded."), "{t}");
    assert!(t.contains("By the end of the year"), "{t}");
}

#[test]
fn prompts_and_link_lists_are_left_out() {
    let inner = format!(
        "{}<p>Sign up for our morning newsletter to get the news in your inbox</p>\
         <p>Read next</p><p><a href=/x>Storm hits the coast overnight again</a></p>{}\
         <p>Read more: <a href=/y>Council rejects the new bridge plan</a></p>",
        story(2),
        story(3)
    );
    let t = default_text(&inner);
    assert!(!t.contains("Sign up"), "{t}");
    assert!(!t.contains("Read next"), "{t}");
    assert!(!t.contains("Storm hits"), "{t}");
    assert!(!t.contains("bridge plan"), "{t}");
    assert!(t.contains("Paragraph 2 of the report"), "{t}");
    let kept = text_of(&inner, &ablated(Step::Prompts));
    assert!(kept.contains("Sign up"), "{kept}");
}

#[test]
fn title_repeated_as_a_plain_first_line_is_left_out() {
    let inner = format!("<p class=title>Council agrees the budget</p>{}", story(4));
    let html = format!(
        "<html><head><title>Council agrees the budget</title></head><body>\
         <div class=story>{inner}</div></body></html>"
    );
    let t = extract_html(&html, None, &ExtractOptions::default()).text;
    assert!(!t.starts_with("Council agrees the budget"), "{t}");
    assert!(t.contains("Paragraph 0 of the report"), "{t}");
}

#[test]
fn byline_lines() {
    for line in [
        "By Jane Roe",
        "By JANE ROE, AP Technology Writer",
        "By Jane Roe | Sep 5, 2019",
        "By Julian Linden in Sydney",
        "By Jane Q. Public",
        "// By Arun Sai Krishnan • Nov 11, 2020",
        "Posted by jroe on May 3, 2019",
        "Par Jean Dupont",
        "Por Steven Lee Myers, Keith Bradsher y Tariq Panja",
        "By STEVEN DAVIDOFF SOLOMON JULY 29, 2016",
    ] {
        assert!(is_byline(line), "{line}");
    }
    for line in [
        "By Monday, the floods had receded.",
        "By the end of the year the council had spent it all",
        "By Monday the river rose",
        "By 2020 most towns had one",
        "Bystanders said nothing",
        "Par ailleurs, le maire a parlé",
    ] {
        assert!(!is_byline(line), "{line}");
    }
}

#[test]
fn dateline_lines() {
    for line in [
        "24 July 2015",
        "April 5, 2018 | 6:00 PM",
        "08.04.2015 12:46",
        "Published Thu 27 Jul 2017",
        "Updated 3 hours ago",
        "Alex Perry 1 day ago",
        "Dan Goodin - Apr 16, 2015 8:02 pm UTC",
        "10.15.15",
        "April 28, 2019 at 6:01 am Updated April 29, 2019 at 3:33 pm",
    ] {
        assert!(is_dateline(line), "{line}");
    }
    for line in [
        "The vote on 5 September was close.",
        "2017 Budget",
        "600",
        "$915",
        "1/50 United goin down",
        "Drive capacity 10001",
    ] {
        assert!(!is_dateline(line), "{line}");
    }
}

#[test]
fn credit_lines() {
    for line in [
        "Getty Images",
        "GETTY IMAGES",
        "AFP/Getty Images",
        "Oli Scarff | Getty Images",
        "ChinaFotoPress/ChinaFotoPress via Getty Images",
        "Photo: Jane Roe / Reuters",
        "(photo AFP)",
        "CreditPiotr Redlinski for The New York Times",
        "Reuters",
        "AP",
    ] {
        assert!(is_credit(line), "{line}");
    }
    for line in [
        "Credit card debt rises again",
        "Apple signs a deal with AP",
        "The photo was taken by Reuters.",
        "Credit Suisse",
    ] {
        assert!(!is_credit(line), "{line}");
    }
}

#[test]
fn prompt_and_link_list_lines() {
    assert!(is_prompt("Sign up for our newsletter"));
    assert!(is_prompt(
        "We use cookies to improve your experience. Accept all"
    ));
    assert!(!is_prompt(
        "Subscribers to the service complained about the price."
    ));
    for invite in [
        "Ground Game: Sign up for AP’s weekly politics newsletter to get it in your inbox every Monday.",
        "Keep up to date with the news. Receive our free E-Newsletter",
        "Never miss the latest news by signing up to our newsletter today!",
        "Nichts Neues verpassen! - Newsletter abonnieren",
        "Coaching-Newsletter erhalten",
    ] {
        assert!(is_prompt(invite), "{invite}");
    }
    for story in [
        "The newsletter, which has 40,000 subscribers, said it would close in May.",
        "Readers can sign up for the newsletter on its website.",
    ] {
        assert!(!is_prompt(story), "{story}");
    }
    assert!(is_link_list_heading("Read next"));
    assert!(is_link_list_heading("More from Politics"));
    assert!(is_link_list_heading("Related coverage"));
    assert!(!is_link_list_heading(
        "More from the council meeting on Monday night when the mayor spoke at length"
    ));
    assert!(is_read_more_line("Read more: Council rejects the bridge"));
    assert!(!is_read_more_line("Read the report"));
}

#[test]
fn japanese_paywall_lines_are_prompts_and_sentences_about_members_are_not() {
    assert!(is_prompt(
        "有料会員になると会員限定の有料記事もお読みいただけます。"
    ));
    assert!(is_prompt("この記事は会員限定です。"));
    assert!(is_prompt("会員向け記事が読み放題"));
    // A story about a membership business, in its own words.
    assert!(!is_prompt("同社の有料会員数は前年より２割増えた。"));
    // A long sentence of the story that names the paywall is not a line of it.
    let long = format!(
        "{}会員限定の記事について説明した。",
        "記者会見で".repeat(12)
    );
    assert!(!is_prompt(&long));
}

#[test]
fn heading_with_a_slug_id_is_not_a_dateline() {
    // google-sre-book-1 (readability-dev): `<dt id="comparing-over-time-or-
    // experiment-groups">`; "time" in a slug names nothing.
    let inner = format!(
        "{}<dl><dt id=comparing-over-time-or-experiment-groups>Comparing over time</dt>\
         <dd>Are queries faster with one database than the other, and by how much?</dd></dl>{}",
        story(2),
        story(2)
    );
    let t = default_text(&inner);
    assert!(t.contains("Comparing over time"), "{t}");
}

#[test]
fn tag_lines_and_tool_words() {
    for line in [
        "Tags: FAQ",
        "Categories: News",
        "Filed under: Politics",
        "Share",
        "12 Comments",
        "Advertisement",
        "Anzeige",
        "[PR]",
        "Advertisements",
    ] {
        assert!(is_tag_line(line), "{line}");
    }
    for line in [
        "Tags are what the council wants on every bag.",
        "Share prices fell",
        "Comments from the mayor surprised everyone",
        "Advertisement revenue fell by a third.",
        "PR firms were hired.",
    ] {
        assert!(!is_tag_line(line), "{line}");
    }
    let inner = format!(
        "{}<p>Share</p>{}<p>Tags: Council, Budget</p>",
        story(2),
        story(3)
    );
    let t = default_text(&inner);
    assert!(!t.contains("Tags:") && !t.contains("\nShare\n"), "{t}");
    let kept = text_of(&inner, &ablated(Step::TagLines));
    assert!(kept.contains("Tags: Council"), "{kept}");
}

#[test]
fn pull_quote_credit_is_not_a_photo_credit() {
    // cleanportaleval bbc pages: `<span class="quote-credit">` names who is
    // quoted, and the gold keeps it.
    let inner = format!(
        "{}<div class=story-feature><blockquote><p>Just because it is digital does not \
         mean it always works.</p></blockquote><span class=quote-credit>Russell Glass</span></div>{}",
        story(2),
        story(2)
    );
    let t = default_text(&inner);
    assert!(t.contains("Russell Glass"), "{t}");
}

#[test]
fn the_line_steps_are_every_step_but_the_markup_ones() {
    assert_eq!(super::STEPS[0], Step::Captions);
    assert_eq!(super::FURNITURE_LINE_STEPS.len(), super::STEPS.len() - 3);
    assert!(!super::FURNITURE_LINE_STEPS.contains(&Step::FigureLists));
    assert!(!super::FURNITURE_LINE_STEPS.contains(&Step::PullQuotes));
    assert!(!super::FURNITURE_LINE_STEPS.contains(&Step::Captions));
}

#[test]
fn german_and_other_language_furniture_lines() {
    for line in [
        "Themen: Kritik aus dem Internet",
        "Schlagworte: Wald, Jagd",
        "Dieses Skript als PDF herunterladen",
        "Teilen",
        "Permalink",
    ] {
        assert!(is_tag_line(line), "{line}");
    }
    for line in [
        "Themen wie die Energiewende bestimmen den Wahlkampf.",
        "Teilen Sie die Sorge der Anwohner?",
    ] {
        assert!(!is_tag_line(line), "{line}");
    }
    for line in [
        "Wir verwenden Cookies, um Ihnen das beste Erlebnis zu bieten.",
        "Korzystamy z cookies.",
        "Jetzt den Newsletter abonnieren",
        "For the latest stories and breaking news updates download the Nationnews apps for iOS and Android.",
    ] {
        assert!(is_prompt(line), "{line}");
    }
    assert!(!is_prompt(
        "Cookies und Kuchen gab es beim Fest der Feuerwehr."
    ));
    for line in [
        "Zum Weiterlesen:",
        "Lesen Sie auch",
        "Mehr zu Klima und Konsum",
        "Czytaj także",
    ] {
        assert!(is_link_list_heading(line), "{line}");
    }
    assert!(!is_link_list_heading(
        "Mehr zu sagen hatte der Bürgermeister am Montag nicht."
    ));
}

#[test]
fn author_bio_box_and_about_the_author_section_are_left_out() {
    let inner = format!(
        "{}<section class='author-bio clr'><div class=author-bio-description><p>Jane Roe \
         covers local politics for the paper and has written two books about the town.</p>\
         </div></section>",
        story(4)
    );
    let t = default_text(&inner);
    assert!(t.contains("Paragraph 3 of the report"), "{t}");
    assert!(!t.contains("Jane Roe covers"), "{t}");
    let kept = text_of(&inner, &ablated(Step::AuthorBios));
    assert!(kept.contains("Jane Roe covers"), "{kept}");

    let inner = format!(
        "{}<p><b>Über den Autor</b></p><p>Max Muster schreibt seit 2010 über Wein, \
         lebt in Bozen und leitet eine kleine Weinschule.</p>",
        story(4)
    );
    let t = default_text(&inner);
    assert!(
        !t.contains("Über den Autor") && !t.contains("Max Muster"),
        "{t}"
    );
    let kept = text_of(&inner, &ablated(Step::AuthorBios));
    assert!(kept.contains("Max Muster"), "{kept}");
}

#[test]
fn about_box_with_a_copyright_notice_is_not_a_bio() {
    let inner = format!(
        "{}<div class=authorbio><b>About the Wire</b> Copyright © 2007 The Wire. All rights \
         reserved.</div>",
        story(4)
    );
    let t = default_text(&inner);
    assert!(t.contains("All rights reserved"), "{t}");
}

#[test]
fn byline_with_contributor_roles_and_section_label_are_left_out() {
    // guardian-1 and bbc-1 (readability-dev).
    assert!(is_byline(
        "by Eleanor Ainge Roy (reporting) and Adrian Malloch (photography)"
    ));
    assert!(!is_byline("by the sea (reporting) there was a storm"));
    assert!(is_tag_line("From the section US & Canada"));
    assert!(!is_tag_line(
        "from the section of the report that the council kept"
    ));
    let inner = format!(
        "<p>From the section US &amp; Canada</p>{}<p>by Jane Roe (reporting) and John Doe \
         (photography)</p>",
        story(4)
    );
    let t = default_text(&inner);
    assert!(
        !t.contains("From the section") && !t.contains("Jane Roe"),
        "{t}"
    );
    let kept = text_of(&inner, &ablated(Step::TagLines));
    assert!(kept.contains("From the section"), "{kept}");
}

#[test]
fn a_camel_case_author_box_is_left_out() {
    let inner = format!(
        "{}<div id=writerProfile><div>The writer of this article</div><a href=/r/1>Jane Roe</a>\
         <div>Tokyo city desk; war, peace and the constitution</div></div>",
        story(5)
    );
    let t = default_text(&inner);
    assert!(t.contains("Paragraph 4 of the report"), "{t:?}");
    assert!(!t.contains("Jane Roe"), "{t:?}");
    // The same box named in one word of lower case is not read as one.
    let plain = default_text(&inner.replace("writerProfile", "writerprofile"));
    assert!(plain.contains("Jane Roe"), "{plain:?}");
}

#[test]
fn blockquote_the_story_prints_again_is_a_pull_quote() {
    let said = "The council must act now, before the winter comes.";
    let inner = format!(
        "{}<p>“{said}” the mayor said on Monday, and the members agreed the plan \
         after midnight.</p><div class=box><blockquote><p>“{said}”</p></blockquote>\
         <div>Jane Roe, mayor</div></div>{}",
        story(2),
        story(2)
    );
    let t = default_text(&inner);
    assert!(t.contains("the mayor said on Monday"), "{t}");
    assert!(!t.contains("Jane Roe, mayor"), "{t}");
    assert_eq!(t.matches("before the winter comes").count(), 1, "{t}");
    let kept = text_of(&inner, &ablated(Step::PullQuotes));
    assert!(kept.contains("Jane Roe, mayor"), "{kept}");
    // A quotation the story gives once is its text.
    let inner = format!(
        "{}<blockquote><p>We will not close the library, whatever the budget says.</p>\
         </blockquote>{}",
        story(2),
        story(2)
    );
    assert!(default_text(&inner).contains("We will not close the library"));
}
