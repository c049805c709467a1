//! Regression tests of the whole `auto` pipeline (html → text) on kinds of
//! markup that today's news pages share across publishers, each named
//! after the failure it pins.

use super::tests::auto_text;
use super::*;

fn auto(html: &str) -> String {
    extract_text(html, Algorithm::Auto)
}

fn story(paragraphs: usize) -> String {
    (0..paragraphs)
        .map(|i| {
            format!(
                "<p>Paragraph {i} of the story tells what happened, where, and why it \
                 matters to the readers of this paper.</p>"
            )
        })
        .collect()
}

#[test]
fn regression_a_photo_carousel_between_headline_and_story_was_kept() {
    let slides: String = (1..=6)
        .map(|k| {
            format!(
                "<div class=Carousel-slide><span>{k} of 6 |</span><p>A supporter listens as \
                 the candidate speaks at a campaign event in Detroit, Monday. (Photo/AP)</p></div>"
            )
        })
        .collect();
    let html = format!(
        "<html><head><title>The campaigns brace for the sprint</title></head><body><main>\
         <h1>The campaigns brace for the sprint</h1><div class=lead><div class=Carousel-slides>\
         {slides}</div></div><div class=story-page><div class=RichTextStoryBody>{}</div></div>\
         </main></body></html>",
        story(8)
    );
    let t = auto(&html);
    assert!(t.contains("Paragraph 7 of the story"), "{t:?}");
    assert!(
        !t.contains("supporter listens") && !t.contains("of 6"),
        "{t:?}"
    );
}

#[test]
fn regression_a_story_the_page_renders_from_its_json_ld_was_cut_to_the_teaser() {
    let body: String = (0..30)
        .map(|i| format!("Sentence {i} of the full story, which a script renders into the page. "))
        .collect();
    let html = format!(
        r#"<html><head><title>Playbook</title><script type="application/ld+json">
        {{"@type":"NewsArticle","headline":"Playbook","articleBody":"{body}"}}</script></head>
        <body><article><h1>Playbook</h1><p>The teaser of the story, the only paragraph the
        markup holds before the script runs, says what it is about.</p></article></body></html>"#
    );
    let t = auto(&html);
    assert!(t.contains("Sentence 29 of the full story"), "{t:?}");
    // A story the markup holds whole keeps its own text.
    let whole = format!(
        r#"<html><head><script type="application/ld+json">
        {{"@type":"NewsArticle","articleBody":"A summary."}}</script></head><body><article>{}</article></body></html>"#,
        story(8)
    );
    assert!(auto(&whole).contains("Paragraph 7 of the story"));
}

#[test]
fn regression_a_dateline_time_between_the_header_blocks_was_kept_as_text() {
    let html = format!(
        "<html><head><title>Nepal disputes the bird strike</title></head><body><article>\
         <div class=header><span><nav><a href=/business/>Business</a></nav></span>\
         <time><span>2 minute read</span><span>April 25, 2023</span></time>\
         <h1>Nepal disputes the bird strike</h1></div><div class=body>\
         <p>On <time>Tuesday</time> the authority said there was no proof of it.</p>{}</div>\
         </article></body></html>",
        story(6)
    );
    let t = auto(&html);
    assert!(!t.contains("minute read"), "{t:?}");
    // A time inside a sentence is the sentence's.
    assert!(t.contains("On Tuesday the authority said"), "{t:?}");
}

#[test]
fn regression_the_headline_under_its_kicker_was_kept_as_text() {
    let page = |top: &str| {
        format!(
            "<html><head><title>Council agrees the budget after a long debate</title></head>\
             <body><article>{top}<div class=hl>Council agrees the budget after a long debate</div>\
             <div class=hl>Council agrees the budget after a long debate</div>{}</article>\
             </body></html>",
            story(6)
        )
    };
    let t = auto(&page("<div class=kicker>Local politics</div>"));
    assert!(t.starts_with("Paragraph 0"), "{t:?}");
    // A sentence over the headline is the story's, and so is what follows.
    let t = auto(&page("<div>The council met on Monday.</div>"));
    assert!(t.starts_with("The council met on Monday."), "{t:?}");
}

#[test]
fn regression_a_short_story_in_a_row_beside_a_rail_of_links_was_pruned_with_the_row() {
    // A one-paragraph news brief in a layout row whose other column is a
    // list of links: the row is mostly link text, and link pruning took it
    // whole, story and all; a notice under the page was left as the text.
    let rail: String = (0..12)
        .map(|k| {
            format!("<li><a href=/s{k}>Another story of the day, number {k}, read it now</a></li>")
        })
        .collect();
    let html = format!(
        "<html><body><div class=header><a href=/>Home</a></div>\
         <div class=\"layout row\"><div class=w600><div class=art_context><div class=art_box>\
         <p>The transport ministry said on Thursday that fast rail will link every city \
         of the region within five years, cutting journeys between <a href=/c>neighbours</a> \
         to an hour and a half.</p></div></div></div>\
         <div class=w300><ul>{rail}</ul></div></div>\
         <div class=statement><p>Disclaimer: this article is the author's view only and \
         does not represent the site; readers act at their own risk.</p></div></body></html>"
    );
    let t = auto(&html);
    assert!(t.contains("fast rail will link every city"), "{t}");
    assert!(!t.contains("Another story of the day"), "{t}");
}

#[test]
fn regression_an_infinite_scroll_page_kept_the_next_story() {
    let unit = |headline: &str, topic: &str| {
        let paragraphs: String = (0..6)
            .map(|i| {
                format!(
                    "<p>Paragraph {i} about {topic} tells what happened, where, and why it \
                     matters.</p>"
                )
            })
            .collect();
        format!(
            "<div class=scrollblock><article class=entry><header><h1 class=headline>{headline}\
             </h1></header><div class=entry-content>{paragraphs}</div></article></div>"
        )
    };
    let html = format!(
        "<html><head><title>Council approves the harbour plan | The Daily</title></head><body>\
         <main>{}{}</main></body></html>",
        unit("Council approves the harbour plan", "the harbour"),
        // The next story is the longer: density alone would take it.
        unit(
            "Teachers strike over pay",
            "the strike over pay in the schools of the region"
        )
    );
    let t = auto(&html);
    assert!(t.contains("Paragraph 5 about the harbour"), "{t:?}");
    assert!(!t.contains("strike"), "{t:?}");
}

#[test]
fn regression_a_consent_managers_preference_center_was_kept_as_the_text() {
    let purposes: String = [
        "Strictly necessary",
        "Performance",
        "Functional",
        "Targeting",
    ]
    .iter()
    .map(|kind| {
        format!(
            "<h3>{kind} cookies</h3><p>These cookies may be set by us or by third party \
                 providers whose services we have added to our pages, to measure and improve \
                 the performance of our site and to show you relevant adverts.</p>\
                 <span>Always active</span>"
        )
    })
    .collect();
    // No class names: the modal is known by its declaration alone, as on a
    // site whose consent manager names nothing a word list knows.
    let html = format!(
        "<html><head><title>Council approves the harbour plan</title></head><body><div>\
         <h1>Council approves the harbour plan</h1>{}</div><div aria-modal=\"true\" \
         role=\"region\" aria-label=\"Preference center\"><h2>Privacy preference center</h2>\
         {}</div></body></html>",
        story(3),
        purposes.repeat(2)
    );
    let t = auto(&html);
    assert!(t.contains("Paragraph 2 of the story"), "{t:?}");
    assert!(
        !t.contains("cookies") && !t.contains("Always active"),
        "{t:?}"
    );
}

#[test]
fn regression_a_hidden_microdata_copy_of_the_story_printed_it_twice() {
    let paragraphs = story(8);
    // The copy beside the story's block, where a block of the story's
    // text would be merged with it.
    let html = format!(
        "<html><head><title>Council approves the harbour plan</title></head><body>\
         <div class=\"page\"><h1>Council approves the harbour plan</h1><div class=\"text\">\
         {paragraphs}</div><div itemscope itemtype=\"https://schema.org/NewsArticle\" \
         style=\"display:none\"><div itemprop=\"articleBody\">{paragraphs}</div></div></div>\
         </body></html>"
    );
    let t = auto(&html);
    assert_eq!(t.matches("Paragraph 7 of the story").count(), 1, "{t:?}");
    assert!(t.contains("Paragraph 0 of the story"), "{t:?}");
}

#[test]
fn regression_a_story_that_links_many_of_its_words_lost_to_a_list_of_headlines() {
    // A CMS that links keywords: about a third of each paragraph's words.
    let linked: String = (0..8)
        .map(|i| {
            format!(
                "<p>Paragraph {i} says that the <a href=/t/{i}a>harbour authority</a> will \
                 repair the <a href=/t/{i}b>old market hall</a> before the spring, as the \
                 <a href=/t/{i}c>city council</a> agreed after a long debate on Monday \
                 night, and that the <a href=/t/{i}d>ferry company</a> will pay for half.</p>"
            )
        })
        .collect();
    // The paper's most read: each headline a link over its summary.
    let teasers: String = (1..=10)
        .map(|k| {
            format!(
                "<li><span>{k}</span><a href=/s/{k}>Headline {k}: the ferry to the islands \
                 runs again</a><p>Summary {k}: the crossing takes forty minutes, and the first \
                 boat leaves at six in the morning.</p></li>"
            )
        })
        .collect();
    let html = format!(
        "<html><body><div><div>{linked}</div><div><ul>{teasers}</ul></div></div></body></html>"
    );
    let t = auto(&html);
    assert!(t.contains("Paragraph 7 says"), "{t:?}");
    assert!(!t.contains("Summary 4"), "{t:?}");
    let ablated = auto_text(&html, "prose-links");
    assert!(
        !ablated.contains("Paragraph 7 says") || ablated.contains("Summary 4"),
        "the bug: {ablated:?}"
    );
}

#[test]
fn regression_a_gallery_inside_the_story_was_read_as_the_story() {
    let captions: String = (1..=8)
        .map(|k| {
            format!(
                "<li><h2>{k}/8 Record year</h2><p>Caption {k}: the company said its revenue \
                 rose again last year, driven by sales abroad and a weaker pound.</p></li>"
            )
        })
        .collect();
    let html = format!(
        "<html><body><div class=text-wrapper>{}<div class=gallery><ul>{captions}</ul></div>{}\
         </div><div><a href=/a>Home</a></div></body></html>",
        story(8),
        story(4)
    );
    let t = auto(&html);
    assert!(t.contains("Paragraph 3 of the story"), "{t:?}");
    assert!(!t.contains("Caption 7"), "{t:?}");
    let ablated = auto_text(&html, "gallery-in-body");
    assert!(ablated.contains("Caption 7"), "the bug: {ablated:?}");
}
