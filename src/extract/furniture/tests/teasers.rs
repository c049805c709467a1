//! Teasers of other stories inside the text: a summary that ends in the
//! "more" word of its link; the "Further information" heading over a box of
//! them.

use super::{ablated, default_text, story, text_of};
use crate::extract::ablation::Step;
use crate::extract::furniture::lines::{is_link_list_heading, is_teaser_line};

/// `middle` between two parts of a story: the link-list step leaves
/// `needle` out and keeps the story; without the step, `needle` stays.
fn assert_link_lists_leave_out(middle: &str, needle: &str) {
    let inner = format!("{}{middle}{}", story(3), story(3));
    let t = default_text(&inner);
    assert!(!t.contains(needle), "{t}");
    assert!(t.contains("Paragraph 2 of the report"), "{t}");
    let kept = text_of(&inner, &ablated(Step::LinkLists));
    assert!(kept.contains(needle), "{kept}");
}

#[test]
fn a_teaser_summary_ending_in_more_is_left_out() {
    // A teaser card between two parts of the story: its headline is a
    // link the pruning takes, its summary ends in the "mehr" of a button.
    assert_link_lists_leave_out(
        "<div class=card><p>Bereits als Landesministerin war sie umstritten - zuletzt hieß \
         es oft, sie sei überfordert. <span class=link>mehr</span></p></div>",
        "überfordert",
    );
}

#[test]
fn teaser_lines_and_the_lines_that_are_not() {
    for line in [
        "Der Komet trägt jetzt den Namen seines Entdeckers. mehr",
        "The council voted on Monday. Continue reading →",
        "Le conseil a voté lundi. Lire la suite",
    ] {
        assert!(is_teaser_line(line), "{line}");
    }
    for line in [
        // A listing's excerpt cut mid-word: gold texts keep such entries.
        "For a memorable golf experience, you must visit the Algonquin and enjoy your luxuriou ... more",
        // "more" inside a sentence.
        "The council wants more.",
        "Sie wollen nicht mehr. Und nun mehr davon, sagte sie, und dann noch mehr",
    ] {
        assert!(!is_teaser_line(line), "{line}");
    }
}

#[test]
fn a_further_information_heading_over_links_is_left_out() {
    assert_link_lists_leave_out(
        "<h2>Weitere Informationen</h2><p><a href=/a>Ukraine-Geflüchtete in Hessen</a></p>\
         <p><a href=/b>Wie die Städte die Unterkünfte planen</a></p>",
        "Weitere Informationen",
    );
    for line in [
        "Weitere Informationen",
        "More information",
        "Further information:",
        "Más información",
    ] {
        assert!(is_link_list_heading(line), "{line}");
    }
    // A sentence that starts with the words is no heading.
    assert!(!is_link_list_heading(
        "More information will be released on Monday."
    ));
}
