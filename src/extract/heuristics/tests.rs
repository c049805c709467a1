//! Unit tests of the element hints and the guarded removal mask.

use super::*;

#[test]
fn class_words() {
    let h = |c: &str, id: &str| combine(words_of(c, true), words_of(id, true));
    assert!(h("sidebar-left", "").negative);
    assert!(h("share-tools", "").negative);
    assert!(h("", "ad").negative);
    assert!(!h("header", "").negative, "ad only as a whole token");
    assert!(
        !h("article-comments-intro", "").negative,
        "maybe word rescues"
    );
    assert!(h("story-body", "").positive);
    assert!(h("Post", "").positive);
    assert!(!h("related-posts", "").positive, "negative wins");
    assert!(h("epoch-comment-body", "").comment);
    assert!(h("", "disqus_thread").comment);
    assert!(h("comments-area wide", "").comment);
    assert!(!h("commentary column", "").comment, "whole parts only");
    assert!(
        !h("post comments-open", "").comment,
        "a state, not a thread"
    );
    assert!(!h("comment-article", "").comment, "an opinion piece");
    assert!(h("article-comments", "").comment);
}

#[test]
fn teaser_lists_but_not_bulleted_text() {
    let item = "<li><h3><a href=/s>Storm hits the coast overnight</a></h3>\
                <p>Thousands were left without power as the wind rose.</p></li>";
    let bullet = "<li>The council agreed the budget, see <a href=/b>the minutes</a> for more.</li>";
    let html = format!(
        "<body><ul>{}</ul><ul>{}</ul></body>",
        item.repeat(4),
        bullet.repeat(4)
    );
    let doc = scraper::Html::parse_document(&html);
    let dom = Dom::build(&doc);
    let stats = dom.stats(&vec![false; dom.len()]);
    let lists: Vec<usize> = dom.children(0).collect();
    assert!(is_teaser_list(&dom, &stats, lists[0]));
    assert!(!is_teaser_list(&dom, &stats, lists[1]));
}

#[test]
fn wordpress_comment_articles_are_not_the_story() {
    let para = "<p>The council met on Monday and agreed the budget, after a long debate.</p>";
    let comment = "<article class=comment-body><p>I disagree with this, it is far too much money for the town.</p></article>";
    let html = format!(
        "<body><article class=post><div itemprop=articleBody>{para}</div></article>\
         <div id=comments>{}</div></body>",
        comment.repeat(8)
    );
    let doc = scraper::Html::parse_document(&html);
    let dom = Dom::build(&doc);
    let stats = dom.stats(&vec![false; dom.len()]);
    let comments = dom
        .nodes
        .iter()
        .position(|nd| nd.id == "comments")
        .unwrap_or(0);
    let dropped = removal_mask(&dom, &stats, &Flags::compute(&dom, true));
    assert!(
        dropped[comments],
        "the thread outweighs the story, still removed"
    );
    let kept = removal_mask(&dom, &stats, &Flags::compute(&dom, false));
    assert!(!kept[comments], "comments kept on request");
}

/// A story's wrapper filed under a comment word (a CMS's `tag-comments`
/// or `category-kommentare` alone, without the rest of a post class list)
/// around its real thread: the wrapper holds a third of the page's text
/// outside the comments it holds, a few paragraphs, and stays; the thread
/// holds only its named comments and goes.
#[test]
fn regression_a_story_wrapper_named_like_comments_was_removed_as_a_thread() {
    let para = "<p>The council met on Monday and agreed the budget, after a long debate.</p>";
    let comment = "<div class=comment><p>I disagree with this, it is far too much money.</p></div>";
    let thread = format!("<div id=comments>{}</div>", comment.repeat(3));
    let removed = |wrapper: &str, drop: bool| {
        let html = format!(
            "<body><div class=\"{wrapper}\">{}{thread}</div></body>",
            para.repeat(10)
        );
        let doc = scraper::Html::parse_document(&html);
        let dom = Dom::build(&doc);
        let stats = dom.stats(&vec![false; dom.len()]);
        let at = |name: &str| {
            (0..dom.len())
                .find(|&i| dom.nodes[i].class == name || dom.nodes[i].id == name)
                .unwrap_or(0)
        };
        let mask = removal_mask(&dom, &stats, &Flags::compute(&dom, drop));
        (mask[at(wrapper)], mask[at("comments")])
    };
    assert_eq!(removed("tag-comments", true), (false, true));
    assert_eq!(removed("category-kommentare", true), (false, true));
    assert!(!removed("tag-comments", false).0, "comments kept");
    // A thread whose comments are not named, with little of the page's
    // text, is still a thread.
    let html = format!(
        "<body><h1>Budget agreed</h1>{}<div class=comments><p>Too much money.</p></div></body>",
        para.repeat(4)
    );
    let doc = scraper::Html::parse_document(&html);
    let dom = Dom::build(&doc);
    let flags = Flags::compute(&dom, true);
    let thread = (0..dom.len())
        .find(|&i| dom.nodes[i].class == "comments")
        .unwrap_or(0);
    assert!(flags.in_comments[thread]);
}

#[test]
fn heading_anchor_ids_are_not_share_widgets() {
    let doc = scraper::Html::parse_document(
        "<body><div class=section id=sharing-with-a-single-developer>\
         <h2>Sharing with a single developer<a href=#s>¶</a></h2><p>Text.</p></div>\
         <div id=share-buttons-top><h2>Share this story</h2></div></body>",
    );
    let dom = Dom::build(&doc);
    let divs: Vec<usize> = dom.children(0).collect();
    assert!(is_heading_anchor(&dom, divs[0]));
    assert!(!is_heading_anchor(&dom, divs[1]));
    let on = Flags::compute_with(&dom, true, Ablations::default());
    assert!(!on.hint[divs[0]].negative && on.hint[divs[1]].negative);
    let off = Flags::compute_with(&dom, true, Ablations::default().with(Step::SlugIds));
    assert!(off.hint[divs[0]].negative, "ablated: the id's word counts");
}

#[test]
fn aside_outweighing_the_declared_article_is_still_removed() {
    let para = "<p>The minister said on Thursday that the first plane had landed with the rescued passengers.</p>";
    let entry = "<li><p>14:10 Another short update of the live feed, with news from elsewhere today.</p></li>";
    let html = format!(
        "<body><div role=main><article>{}</article><aside><ul>{}</ul></aside></div></body>",
        para.repeat(8),
        entry.repeat(20)
    );
    let doc = scraper::Html::parse_document(&html);
    let dom = Dom::build(&doc);
    let stats = dom.stats(&vec![false; dom.len()]);
    let flags = Flags::compute(&dom, true);
    let aside = (0..dom.len())
        .find(|&i| dom.nodes[i].tag == Tag::Aside)
        .unwrap_or(0);
    assert!(removal_mask_with(&dom, &stats, &flags, true)[aside]);
    assert!(
        !removal_mask_with(&dom, &stats, &flags, false)[aside],
        "ablated: the text-share guard keeps it"
    );
}

#[test]
fn a_modal_longer_than_the_story_is_not_the_page() {
    let para = "<p>The minister said on Thursday that the first plane had landed with the rescued passengers.</p>";
    let purpose = "<h3>Performance cookies</h3><p>These cookies allow us to count visits and \
                   traffic sources so we can measure and improve the performance of our site.</p>";
    let modals = [
        "<div aria-modal=true role=region aria-label='Preference center'>",
        "<div role=dialog>",
        "<div role=alertdialog>",
    ];
    for open in modals {
        let story = format!("<div>{}</div>", para.repeat(3));
        let modal = format!("{open}{}</div>", purpose.repeat(12));
        // Under a `<form>` (ASP.NET) the story is guarded by its share of
        // the page's text, which the modal's must not dilute.
        let html = format!("<body><form>{story}</form>{modal}</body>");
        let doc = scraper::Html::parse_document(&html);
        let dom = Dom::build(&doc);
        let stats = dom.stats(&vec![false; dom.len()]);
        let flags = Flags::compute(&dom, true);
        let removed = removal_mask(&dom, &stats, &flags);
        let first = |tag: Tag| {
            (0..dom.len())
                .find(|&i| dom.nodes[i].tag == tag)
                .unwrap_or(0)
        };
        let modal = dom.children(first(Tag::Body)).last().unwrap_or(0);
        assert_ne!(dom.nodes[modal].flags & attr_flags::MODAL, 0, "{open}");
        assert!(removed[modal], "{open}: the modal goes");
        assert!(!removed[first(Tag::Form)], "{open}: the story stays");
        assert!(!removed[first(Tag::P)], "{open}");
    }
    // A page that is the modal alone (an interstitial) keeps it.
    let html = format!("<body><div role=dialog>{}</div></body>", purpose.repeat(4));
    let doc = scraper::Html::parse_document(&html);
    let dom = Dom::build(&doc);
    let stats = dom.stats(&vec![false; dom.len()]);
    let flags = Flags::compute(&dom, true);
    let removed = removal_mask(&dom, &stats, &flags);
    assert!(!removed.iter().any(|&r| r), "the interstitial stays");
}

#[test]
fn a_hidden_copy_of_the_story_goes_and_a_hidden_only_copy_stays() {
    let paras =
        "<p>The minister said on Thursday that the first plane had landed with the rescued \
                 passengers, and that a second would follow in the morning.</p><p>Families waited \
                 at the airport through the night for news of the second flight.</p>";
    let copy = format!(
        "<div itemscope itemtype=https://schema.org/NewsArticle style='display:none'>\
         <div itemprop=articleBody>{paras}</div></div>"
    );
    let nav = "<nav><a href=/a>Home</a> <a href=/b>World</a></nav>";
    // A tabloid's one-sentence paragraphs.
    let short = "<p>The minister said the first plane had landed.</p><p>Families waited at the \
                 airport through the night.</p>";
    let short_copy = format!(
        "<div itemscope style='display:none'><div itemprop=articleBody>{short}</div></div>"
    );
    let pages = [
        (
            format!("<body>{nav}<div class=story>{short}</div>{short_copy}</body>"),
            true,
        ),
        // The copy for search engines beside the story the page shows.
        (
            format!("<body>{nav}<div class=story>{paras}</div>{copy}</body>"),
            true,
        ),
        // A story the page reveals with a script is its only copy.
        (format!("<body>{nav}{copy}</body>"), false),
    ];
    for (html, goes) in pages {
        let doc = scraper::Html::parse_document(&html);
        let dom = Dom::build(&doc);
        let stats = dom.stats(&vec![false; dom.len()]);
        let flags = Flags::compute(&dom, true);
        let removed = removal_mask(&dom, &stats, &flags);
        let hidden = (0..dom.len())
            .find(|&i| dom.nodes[i].flags & attr_flags::HIDDEN != 0)
            .unwrap_or(0);
        assert_eq!(removed[hidden], goes, "{html}");
        let shown = (0..dom.len()).find(|&i| dom.nodes[i].class == "story");
        assert!(shown.is_none_or(|i| !removed[i]), "{html}");
    }
}

#[test]
fn hidden_and_roles_from_attrs() {
    let doc = scraper::Html::parse_document(
        "<body><div style='DISPLAY: none'>a</div><div aria-hidden=true>b</div>\
         <div role=navigation>c</div><div itemprop=articleBody>d</div><div hidden>e</div></body>",
    );
    let dom = Dom::build(&doc);
    let divs: Vec<usize> = dom.children(0).collect();
    let f = |k: usize| dom.nodes[divs[k]].flags;
    assert_ne!(f(0) & attr_flags::HIDDEN, 0);
    assert_ne!(f(1) & attr_flags::HIDDEN, 0);
    assert!(is_semantic_noise(&dom, divs[2]));
    assert!(is_declared_article(&dom, divs[3]));
    assert_ne!(f(4) & attr_flags::HIDDEN, 0);
}

#[test]
fn drupal_label_hidden_field_and_has_ads_section_are_not_boilerplate() {
    let h = |c: &str| combine(words_of(c, true), words_of("", true));
    assert!(!h("field field--name-body field--label-hidden").negative);
    assert!(!h("field field-name-body field-label-hidden").negative);
    assert!(!h("o-section o-section--has-ads js-section--has-ads").negative);
    assert!(!h("layout no-sidebar").negative);
    assert!(h("is-hidden").negative, "the element itself is hidden");
    assert!(h("sidebar has-ads").negative, "one negative name is enough");
    assert!(h("c-card--sidebar").negative);
    assert!(!h("elementor-element elementor-widget elementor-widget-text-editor").negative);
    assert!(h("elementor-element sidebar-box").negative);
    let ablated = combine(
        words_of("field field--label-hidden", false),
        words_of("", false),
    );
    assert!(ablated.negative);
}

#[test]
fn regression_a_post_wrappers_taxonomy_classes_removed_the_story() {
    let h = |c: &str| combine(words_of(c, true), words_of("", true));
    // WordPress's post class list: the terms are the story's subject.
    let post = "post-4711 type-post status-publish hentry category-kommentare tag-social-media";
    assert!(!h(post).negative && !h(post).comment, "{post}");
    // Without the list's other names, such a name is still read.
    assert!(h("tag-social-media").negative);
    assert!(h("widget category-comments").comment);
    // Switched off, the old reading (the bug).
    assert!(words_of(post, false).0);
}

#[test]
fn regression_responsive_visibility_and_typed_widgets_removed_the_story() {
    let h = |c: &str| combine(words_of(c, true), words_of("", true));
    assert!(!h("col-md-8 hidden-xs").negative, "hidden on phones only");
    assert!(!h("hidden-print").negative, "hidden on paper only");
    assert!(h("hidden").negative && h("hide-me").negative);
    assert!(!h("widget Blog").negative, "Blogger's posts");
    assert!(h("widget").negative && h("widget widget_recent_entries").negative);
}

/// Whether each link of `html` is in the removal mask, in page order.
fn links_removed(html: &str) -> Vec<bool> {
    let doc = scraper::Html::parse_document(html);
    let dom = Dom::build(&doc);
    let stats = dom.stats(&vec![false; dom.len()]);
    let removed = removal_mask(&dom, &stats, &Flags::compute(&dom, true));
    (0..dom.len())
        .filter(|&i| dom.nodes[i].tag == Tag::A)
        .map(|i| removed[i])
        .collect()
}

#[test]
fn regression_tag_links_inside_a_sentence_were_cut_out_of_it() {
    // A publisher that links names in the story to their tag pages
    // (`<a class="tag-link">`): the words went, the sentence kept a hole.
    let html = "<body><div><p>The former star <a class=tag-link href=/tags/1>Jane Roe</a> \
                was in trouble with <a class=tag-link href=/tags/2>the network</a>, and the \
                scandal spread to sport as sponsors withdrew.</p>\
                <div class=tags>Tags: <a class=tag-link href=/tags/1>Jane Roe</a>, \
                <a class=tag-link href=/tags/2>Network</a></div>\
                <p class=tag-cloud><a class=tag-link href=/tags/3>Sport</a> \
                <a class=tag-link href=/tags/4>Scandals</a></p></div></body>";
    let removed = links_removed(html);
    assert_eq!(removed.len(), 6);
    assert!(!removed[0] && !removed[1], "in the sentence");
    assert!(
        removed[2..].iter().all(|&r| r),
        "a tag list and a cloud of tag links are no sentence"
    );
}

#[test]
fn regression_a_paragraph_of_many_tag_links_was_walked_once_per_link() {
    // Each link looked at all of its parent's children to find its
    // neighbours: quadratic in a paragraph of many links.
    let links: String = (0..20_000)
        .map(|k| format!("<a class=tag-link href=/t/{k}>T{k}</a>, "))
        .collect();
    let html = format!(
        "<body><p>The story names <a class=tag-link href=/a>Jane Roe</a> here, then lists \
         {links}and ends with <a class=tag-link href=/z>John Doe</a></p></body>"
    );
    let removed = links_removed(&html);
    assert_eq!(removed.len(), 20_002);
    // Words touch the named ones and the first and last of the list.
    let n = removed.len();
    for k in [0, 1, n - 2, n - 1] {
        assert!(!removed[k], "link {k}");
    }
    assert!(
        removed[2..n - 2].iter().all(|&r| r),
        "commas between links are no sentence"
    );
}
