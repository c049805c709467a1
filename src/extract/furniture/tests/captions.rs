//! The caption rules: figure captions, caption-like boxes and lines, and
//! the figures and boxes whose text is the story's although they look like
//! captions.

use super::{ablated, default_text, story, text_of};
use crate::extract::ablation::Step;
use crate::extract::furniture::lines::is_prompt;
use crate::extract::ExtractOptions;

#[test]
fn figcaption_and_credit_spans_are_left_out() {
    let inner = format!(
        "{}<figure><img src=a.jpg><figcaption><span class=caption>The mayor speaks \
         to residents outside the hall.</span> <span class=credit>Photo: Jane Roe / \
         Reuters</span></figcaption></figure>{}",
        story(2),
        story(3)
    );
    let t = default_text(&inner);
    assert!(!t.contains("The mayor speaks"), "{t}");
    assert!(!t.contains("Jane Roe"), "{t}");
    assert!(t.contains("Paragraph 2 of the report"), "{t}");
    let kept = text_of(&inner, &ablated(Step::Captions));
    assert!(kept.contains("The mayor speaks"), "{kept}");
    let keep_captions = ExtractOptions {
        keep: crate::extract::furniture::Keep {
            captions: true,
            bylines: false,
        },
        ..ExtractOptions::default()
    };
    let kept = text_of(&inner, &keep_captions);
    assert!(kept.contains("The mayor speaks"), "{kept}");
    assert!(kept.contains("Jane Roe"), "a kept caption keeps its credit");
}

#[test]
fn caption_state_class_is_no_caption() {
    // buzzfeed-1 (readability-dev): list items are `<div class="… no_caption">`
    // holding a heading and a photo; the heading is text.
    let inner = format!(
        "{}<div class='superlist_item no_caption'><h2>The mother described how her \
         daughter was burning up from within.</h2><img src=a.jpg></div>{}",
        story(2),
        story(2)
    );
    let t = default_text(&inner);
    assert!(t.contains("burning up from within"), "{t}");
}

#[test]
fn a_one_item_list_under_a_figure_is_its_caption() {
    let inner = format!(
        "{}<figure><img src=a.jpg></figure><ul><li><p>The mayor at her farm, where she \
         was born and grew up</p></li></ul>{}<ul><li>A list of one point that follows \
         a paragraph stays in the story.</li></ul>{}",
        story(2),
        story(2),
        story(2)
    );
    let t = default_text(&inner);
    assert!(!t.contains("The mayor at her farm"), "{t}");
    assert!(t.contains("A list of one point"), "{t}");
    let kept = text_of(&inner, &ablated(Step::FigureLists));
    assert!(kept.contains("The mayor at her farm"), "{kept}");
    // A figure with a caption of its own is followed by the story's list.
    let captioned = inner.replace(
        "<img src=a.jpg></figure>",
        "<img src=a.jpg><figcaption>The hall.</figcaption></figure>",
    );
    let t = default_text(&captioned);
    assert!(t.contains("The mayor at her farm"), "{t}");
}

#[test]
fn enlarge_caption_lines_and_cookie_notices_are_left_out() {
    assert!(crate::extract::furniture::lines::is_caption_line(
        "Vergrößern Eine kleine runde Aussparung für die Facetime-Kamera im Display."
    ));
    assert!(!crate::extract::furniture::lines::is_caption_line(
        "Enlarge leaders' photos & mount next to bio sketches."
    ));
    assert!(!crate::extract::furniture::lines::is_caption_line(
        "Vergrößern Sie das Bild mit einem Klick."
    ));
    assert!(is_prompt(
        "Zachęcamy do regularnych odwiedzin naszej strony. Informujemy, że korzystamy z cookies."
    ));
    let inner = format!(
        "{}<div class=visual><img src=a.jpg><div class=description>Vergrößern Das neue \
         Rathaus am Markt, von Süden gesehen.</div></div>{}",
        story(2),
        story(2)
    );
    let t = default_text(&inner);
    assert!(!t.contains("Das neue Rathaus"), "{t}");
    let kept = text_of(&inner, &ablated(Step::Captions));
    assert!(kept.contains("Das neue Rathaus"), "{kept}");
}

#[test]
fn a_figure_with_a_heading_is_a_listicle_item_and_its_caption_is_text() {
    // A listicle written as figures: each item a heading, a photo and the
    // item's text in the figcaption.
    let item = |n: usize| {
        format!(
            "<figure><div><h2>Costume {n}</h2></div><img src=a{n}.jpg><figcaption>\
             What you need for costume {n}: a hat, a coat and some fake blood on the \
             side of your mouth.</figcaption></figure>"
        )
    };
    let inner = format!("{}{}{}{}", story(2), item(1), item(2), item(3));
    let t = default_text(&inner);
    assert!(t.contains("What you need for costume 3"), "{t}");
    // Without the heading the same figure is a photo and its caption.
    let plain = default_text(&inner.replace("<h2>Costume 2</h2>", ""));
    assert!(!plain.contains("What you need for costume 2"), "{plain}");
    assert!(plain.contains("What you need for costume 3"), "{plain}");
}

/// A photo's box with a short text and nothing else, whatever its class
/// says (hashed class names, as CSS modules write them): the caption.
#[test]
fn a_short_block_alone_beside_a_photo_is_its_caption() {
    let inner = format!(
        "{}<div class=x1f70><a href=/p><img src=a.jpg></a><div class=x89c2>Workers \
         repair the bridge on Monday. Photo: AP</div></div>{}",
        story(2),
        story(3)
    );
    let t = default_text(&inner);
    assert!(!t.contains("Workers repair the bridge"), "{t}");
    assert!(t.contains("Paragraph 2 of the report"), "{t}");
    let kept = text_of(&inner, &ablated(Step::PhotoCaptions));
    assert!(kept.contains("Workers repair the bridge"), "{kept}");
}

/// Texts that sit by a photo but are the story's: a paragraph beside a
/// photo box that carries its own caption, a listicle item under its
/// heading, a step of a list, and a page told in photos and their texts.
#[test]
fn texts_beside_photos_that_are_the_story_stay() {
    let lead = "The council voted on Monday to close the old bridge for a year.";
    let beside_captioned_box = format!(
        "<div><p>{lead}</p><div><div><img src=a.jpg></div><div>The bridge in \
         2019. Photo: AP</div></div></div>{}",
        story(3)
    );
    let t = default_text(&beside_captioned_box);
    assert!(t.contains(lead), "{t}");
    assert!(!t.contains("The bridge in 2019"), "{t}");

    let item = "Its wide terraces look over the river and the old town.";
    let listicle = format!(
        "{}<div><h3>1. The castle</h3><img src=a.jpg><p>{item}</p></div>{}",
        story(2),
        story(2)
    );
    assert!(default_text(&listicle).contains(item));

    let step = "Stir the flour into the yeast and leave it for five minutes.";
    let steps = format!(
        "{}<ul><li><div>{step}</div><div><img src=a.jpg></div></li>\
         <li><div>Knead the dough on a floured board.</div><div><img src=b.jpg></div></li></ul>{}",
        story(2),
        story(2)
    );
    assert!(default_text(&steps).contains(step));

    let photo_post = (1..=4)
        .map(|k| format!("<div><img src={k}.jpg><p>Day {k} of the trip took us further up the coast.</p></div>"))
        .collect::<String>();
    let t = default_text(&photo_post);
    assert!(t.contains("Day 3 of the trip"), "{t}");
}
