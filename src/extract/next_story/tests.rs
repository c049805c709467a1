use super::*;
use scraper::Html;

fn roots(html: &str) -> Vec<String> {
    let doc = Html::parse_document(html);
    let dom = Dom::build(&doc);
    let stats = dom.stats(&vec![false; dom.len()]);
    let title = super::super::dom::doc_title(&doc);
    appended_stories(&dom, &stats, title.as_deref())
        .into_iter()
        .map(|i| subtree_text(&dom, i, &[]))
        .collect()
}

fn paragraphs(topic: &str, n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "<p>Paragraph {i} about {topic} tells what happened, where, and why it matters \
                 to the readers of this paper.</p>"
            )
        })
        .collect()
}

/// A unit of the template: the headline in the header, the story below.
fn unit(headline: &str, topic: &str) -> String {
    format!(
        "<article class=\"entry\"><header class=\"entry-head\"><h1 class=\"title\">{headline}\
         </h1><time>Today</time></header><div class=\"entry-body\">{}</div></article>",
        paragraphs(topic, 4)
    )
}

fn page(title: &str, body: &str) -> String {
    format!("<html><head><title>{title} | The Daily</title></head><body>{body}</body></html>")
}

#[test]
fn the_stories_after_the_one_the_title_names_are_appended() {
    let body = format!(
        "<div class=\"stream\">{}<div class=\"ad\">Advertisement</div>{}{}</div>",
        unit("Council approves the harbour plan", "the harbour"),
        unit("Teachers strike over pay", "the strike"),
        unit("Storm warning for the coast", "the storm")
    );
    let found = roots(&page("Council approves the harbour plan", &body));
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].starts_with("Teachers strike over pay"),
        "{found:?}"
    );
    assert!(found[1].starts_with("Storm warning"), "{found:?}");
}

#[test]
fn the_page_own_story_is_the_one_the_title_names_wherever_it_stands() {
    // The page's story is the second unit: only the one after it goes.
    let body = format!(
        "{}{}{}",
        unit("Teachers strike over pay", "the strike"),
        unit("Council approves the harbour plan", "the harbour"),
        unit("Storm warning for the coast", "the storm")
    );
    let found = roots(&page("Council approves the harbour plan", &body));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("Storm warning"), "{found:?}");
}

#[test]
fn a_blog_front_page_whose_title_names_no_post_keeps_every_post() {
    let body = format!(
        "{}{}",
        unit("Council approves the harbour plan", "the harbour"),
        unit("Teachers strike over pay", "the strike")
    );
    assert!(roots(&page("Notes from the harbour town", &body)).is_empty());
    assert!(roots(&body).is_empty(), "a page without a title");
}

#[test]
fn sections_headed_unlike_the_headline_are_the_story() {
    // A long read whose first section holds the headline and whose later
    // sections have `<h1>` headings of their own, written differently.
    let body = format!(
        "<section class=\"part\"><header class=\"entry-head\"><h1 class=\"title\">Council \
         approves the harbour plan</h1></header>{}</section><section class=\"part\"><h1>What \
         the plan costs</h1>{}</section>",
        paragraphs("the harbour", 4),
        paragraphs("the cost", 4)
    );
    assert!(roots(&page("Council approves the harbour plan", &body)).is_empty());
}

#[test]
fn a_teaser_in_the_template_is_no_story() {
    let teaser = "<article class=\"entry\"><header class=\"entry-head\"><h1 class=\"title\">\
                  Teachers strike over pay</h1><time>Today</time></header><div \
                  class=\"entry-body\"><p>Schools close on Monday.</p></div></article>";
    let body = format!(
        "{}{teaser}",
        unit("Council approves the harbour plan", "the harbour")
    );
    assert!(roots(&page("Council approves the harbour plan", &body)).is_empty());
}
