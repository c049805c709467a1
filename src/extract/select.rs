//! Content selection on the arena DOM → article text.
//!
//! In: a [`Dom`]. Out: the article text. `td`/`ctd` run the CETD family
//! exactly as the papers give it; `auto` (the default) adds the heuristics
//! that moved the eval numbers. It runs on an arena whose paragraphs of
//! prose read their links as text
//! ([`Dom::read_prose_links_as_text`](super::dom::Dom::read_prose_links_as_text)).
//! Its steps, referred to by number in the code:
//!
//! 1. The stories an infinite-scroll page appends after the one its title
//!    names go first ([`next_story`]). Guarded removal of hidden elements,
//!    semantic boilerplate and negative class/id elements
//!    ([`heuristics::removal_mask_with`]; heading-anchor ids say nothing
//!    negative, the text-share guard does not hold beside a declared
//!    article, and modals and hidden copies of the story go whatever their
//!    share); statistics recomputed.
//! 2. CTD densities, positive class/id ×1.25, DensitySum → best node. A
//!    gallery that holds it inside the declared article, and the galleries
//!    inside it, are left out and the best node chosen again; the best
//!    node is lifted to its container and to the outermost of its nested
//!    sections ([`candidate`]).
//! 3. Two candidates: CETD marking from the threshold, and the best node plus
//!    its qualifying siblings; the sibling text wins unless it is < 40 % of
//!    the CETD text. CETD regions before the best node that read like
//!    article text (little link text, punctuated) join the sibling text.
//! 4. Link-density pruning inside the chosen content, except link lists
//!    written inside the story ([`candidate::interior_link_lists`]) and the
//!    blocks around the best node (a row that sets a short story beside a
//!    rail of links is link-dense as a whole; the rail is pruned alone).
//! 5. Text assembly, trimming link-heavy / punctuation-free paragraphs at the
//!    edges; the headline (see [`headline`]) goes first.
//! 6. The text ends at a heading that opens related stories ("Related
//!    stories", "You may also like", "Most read", …; [`tail`]), and, unless
//!    comments are kept, where reader comments start that no element of
//!    their own holds (a comments heading, or the `<a name="comments">`
//!    a "comments" link jumps to).
//! 7. A heading that opens the text and repeats the title is the headline:
//!    the headline is returned apart, never as text.
//! 8. With comments kept, the comment threads the selection left out follow
//!    the story ([`comments`]); by default step 1 removes them.
//! 9. Furniture out ([`furniture`]): captions, credits, byline and dateline
//!    boxes join the skip mask in step 4; byline / dateline / credit /
//!    prompt / tag lines, link lists and a plain title line leave the chosen
//!    paragraphs after step 7 (a title line becomes the headline). Its
//!    ablation lines are in docs/algorithms.md ("Furniture").
//!
//! What each step is worth (mean LCS F1 lost when it alone is switched off,
//! tests/corpus, November 2026; page-signal-dev / cleaneval-dev /
//! cleanportaleval, full `auto` = 0.952 / 0.911 / 0.966):
//!
//! | off | ps | ce | cpe |
//! |---|---|---|---|
//! | removal guard (50 % text, declared article) | −0.057 | −0.046 | −0.224 |
//! | negative class/id removal | −0.017 | −0.002 | −0.030 |
//! | best + siblings (always CETD marking) | −0.017 | −0.004 | −0.004 |
//! | link-density pruning | −0.005 | −0.002 | −0.004 |
//! | headline | −0.003 | −0.001 | −0.006 |
//! | edge trimming | −0.003 | −0.001 | 0 |
//! | hidden elements | −0.002 | 0 | 0 |
//! | semantic removal (nav/aside/footer/form/roles) | −0.001 | 0 | 0 |
//! | DensitySum × (1 − link density) | 0 | −0.011 | 0 |
//! | CETD regions before the best node | 0 | −0.011 | 0 |
//! | best node lifted to its container | 0 | −0.001 | −0.005 |
//! | related/headlines heading cut | −0.005 | 0 | 0 |
//!
//! The modern-page steps (`eval --ablate STEP`) and what each is worth:
//! [`super::ablation`].
//!
//! Keeping `<object>` fallback text (strip) added 0.013 on cleanportaleval;
//! the positive class/id boost moves the means by ≤ 0.001.

use super::ablation::Step;
use super::candidate;
use super::comments;
use super::density::{
    cetd, densities, density_sums, mark_content, max_density_sum, threshold, Density,
};
use super::dom::{link_density, non_link, Dom, Stats, Tag};
use super::furniture;
use super::headline;
use super::heuristics::{removal_mask_with, skip_teaser_lists, Flags};
use super::link_pruning;
use super::next_story;
use super::tail;
use super::text::{assemble_kept, Para, TextSink};
use super::{ExtractOptions, Method, Selection};

/// Plain CETD with DensitySum selection and threshold marking.
pub fn cetd_text(dom: &Dom<'_>, kind: Density) -> String {
    let removed = vec![false; dom.len()];
    let stats = dom.stats(&removed);
    let c = cetd(dom, &stats, kind, &removed);
    let mut sink = TextSink::default();
    assemble_kept(dom, 0, &removed, Some(&c.keep), &mut sink);
    sink.finish()
}

/// Calibrated together on the corpus, tests/corpus (see the module doc for the steps).
mod tune {
    /// Step 2: density factor for a positive class/id.
    pub const POSITIVE_BOOST: f64 = 1.25;
    /// Step 3: sibling text below this share of the CETD text → CETD wins.
    pub const SIBLING_MIN_SHARE: f64 = 0.4;
    /// Step 3: a sibling qualifies with link density below this …
    pub const SIBLING_MAX_LINK_DENSITY: f64 = 0.25;
    /// … and at least this many non-link characters (or sentence punctuation).
    pub const SIBLING_MIN_TEXT: u32 = 80;
    /// Step 3: a CETD region before the best node is added with at least
    /// this much non-link text …
    pub const REGION_MIN_TEXT: u32 = 80;
    /// … link density below this …
    pub const REGION_MAX_LINK_DENSITY: f64 = 0.25;
    /// … and at least this many punctuation marks per 100 characters.
    pub const REGION_MIN_PUNCT_PERCENT: u32 = 1;
    /// Step 3: ancestors of the best node whose same-class siblings are
    /// merged (a body split into sections).
    pub const ANCESTOR_LEVELS: usize = 3;
}

/// The default: CETD plus heuristics (steps 1–6 of the module doc). The
/// headline is returned apart from the text.
pub fn auto_select(dom: &Dom<'_>, title: Option<&str>, opts: &ExtractOptions) -> Selection {
    let n = dom.len();
    let off = |step| opts.ablate.off(step);
    // 1.
    let mut stats0 = dom.stats(&vec![false; n]);
    // The stories an infinite-scroll page appends go first: the guards
    // below weigh an element's text against the page's own.
    let appended = if off(Step::NextStories) {
        Vec::new()
    } else {
        next_story::appended_stories(dom, &stats0, title)
    };
    let remove_appended = |mask: &mut [bool]| {
        for &s in &appended {
            mask[s..dom.nodes[s].end as usize].fill(true);
        }
    };
    if !appended.is_empty() {
        let mut mask = vec![false; n];
        remove_appended(&mut mask);
        stats0 = dom.stats(&mask);
    }
    let drop_comments = !opts.comments && !off(Step::Comments);
    let flags = Flags::compute_with(dom, drop_comments, opts.ablate);
    let mut removed = removal_mask_with(dom, &stats0, &flags, !off(Step::DeclaredBeside));
    remove_appended(&mut removed);
    // 2.
    let (mut stats, mut dens, mut ds, mut best) = densest(dom, &flags, &removed);
    let gallery_names = candidate::gallery_names(dom);
    if !off(Step::GalleryInBody) {
        if let Some(g) = candidate::gallery_in_declared_body(dom, &stats, best) {
            removed[g..dom.nodes[g].end as usize].fill(true);
            (stats, dens, ds, best) = densest(dom, &flags, &removed);
        }
        let inside = candidate::galleries_inside(dom, &stats, best, &gallery_names);
        if !inside.is_empty() {
            for g in inside {
                removed[g..dom.nodes[g].end as usize].fill(true);
            }
            (stats, dens, ds, best) = densest(dom, &flags, &removed);
        }
    }
    // A single long paragraph can outscore its container (its text children
    // carry no tag or link penalty): select the container.
    while best != 0 && !is_container(dom.nodes[best].tag) {
        best = dom.nodes[best].parent as usize;
    }
    if !off(Step::NestedSections) {
        best = candidate::outermost_section(dom, &stats, best);
    }
    if !off(Step::DeclaredMain) {
        best = candidate::declared_main_around(dom, &stats, best).unwrap_or(best);
    }
    if !off(Step::Recipes) {
        best = candidate::recipe_around(dom, &stats, best).unwrap_or(best);
    }
    // 3.
    let gallery = candidate::in_galleries(dom, &gallery_names);
    let t = threshold(dom, &dens, best);
    let keep_cetd = mark_content(dom, &dens, &ds, t, &removed);
    let keep_sib = best_with_siblings(dom, &stats, best, &removed, opts);
    let chars_cetd = kept_chars(dom, &keep_cetd, &removed);
    let chars_sib = kept_chars(dom, &keep_sib, &removed);
    let mut keep = if (chars_sib as f64) < tune::SIBLING_MIN_SHARE * chars_cetd as f64 {
        keep_cetd
    } else {
        let mut keep = keep_sib;
        add_good_regions_before(dom, &stats, &keep_cetd, &gallery, &mut keep, best);
        keep
    };
    // 4.
    let interior = if off(Step::InteriorLinkLists) {
        vec![false; n]
    } else {
        candidate::interior_link_lists(dom, &stats, best, &keep, &removed)
    };
    // The blocks around the story are not pruned whole: a layout row that
    // holds a short story beside a rail of links is link-dense, and its
    // rail is pruned on its own.
    let mut exempt = interior;
    let mut a = best;
    while a != 0 {
        a = dom.nodes[a].parent as usize;
        exempt[a] = true;
    }
    let mut skip = link_pruning::prune_link_dense(dom, &stats, &removed, &exempt);
    if !opts.ablate.off(Step::TeaserLists) {
        skip_teaser_lists(dom, &stats, &keep, &mut skip);
    }
    // 9. Furniture the markup names (captions, credits, bylines).
    furniture::skip_named(dom, &stats, &mut skip, opts);
    dom.close_removed(&mut skip);
    // 5.
    let start = (0..n)
        .find(|&i| dom.nodes[i].tag == Tag::Text && keep[i] && !skip[i] && dom.nodes[i].chars > 0)
        .unwrap_or(n);
    let headline = headline::find(dom, title, start, &skip);
    // Between the headline and the text: the standfirst, a kicker; not a
    // photo gallery's captions.
    if let Some(h) = headline {
        for (k, g) in keep.iter_mut().zip(&gallery).take(start).skip(h) {
            if !*g {
                *k = true;
            }
        }
    }
    let mut sink = TextSink::keeping_format_chars(off(Step::FormatChars));
    assemble_kept(dom, 0, &skip, Some(&keep), &mut sink);
    let paras = sink.paras().to_vec();
    let head_range = headline.map_or(0..0, |h| h..dom.nodes[h].end as usize);
    let first_content = paras
        .iter()
        .position(|p| p.node as usize >= start)
        .unwrap_or(paras.len());
    let mut body = trim_edges(&paras[first_content..]);
    if body.is_empty() {
        // Trimming is for the edges of a real article; when it would leave
        // nothing, the short text is all there is.
        body = 0..paras.len() - first_content;
    }
    // 6.
    let author_bios = !off(Step::AuthorBios);
    let comment_cut = (!opts.comments && !off(Step::CommentSections)).then(|| tail::CommentCut {
        dom,
        anchor: tail::comment_anchor(dom),
    });
    let tail = tail::tail_section(
        dom,
        &sink,
        &paras,
        first_content,
        body.clone(),
        author_bios,
        comment_cut,
    );
    if let Some(cut) = tail.cut {
        let trimmed = trim_edges(&paras[first_content + body.start..first_content + cut]);
        body = if trimmed.is_empty() {
            body.start..cut
        } else {
            body.start + trimmed.start..body.start + trimmed.end
        };
    }
    let in_headline = |i: usize| head_range.contains(&(paras[i].node as usize));
    let headline_paras: Vec<usize> = (0..first_content).filter(|&i| in_headline(i)).collect();
    let headline = (!headline_paras.is_empty()).then(|| sink.join(headline_paras));
    let prefix = (0..first_content).filter(|&i| !in_headline(i) && !linky(&paras[i]));
    let in_box = |k: usize| tail.boxes.iter().any(|b| b.contains(&(k - first_content)));
    let mut chosen: Vec<usize> = prefix
        .chain(((body.start + first_content)..(body.end + first_content)).filter(|&k| !in_box(k)))
        .collect();
    // 7. A heading that opens the text and repeats the title is the headline.
    let mut headline = headline;
    if let Some(&first) = chosen.first() {
        let repeats_title = !opts.ablate.off(Step::LeadingHeadline)
            && in_heading(dom, paras[first].node as usize)
            && title.is_some_and(|t| headline::matches_title(sink.para_text(first), t));
        if repeats_title {
            if headline.is_none() {
                headline = Some(sink.para_text(first).to_string());
            }
            chosen.remove(0);
        }
    }
    // 9. Furniture lines out; a plain line that repeats the title is the
    // headline.
    if let Some(line) = furniture::drop_lines(&sink, &paras, &mut chosen, title, opts) {
        headline.get_or_insert(line);
    }
    // The text nodes of the chosen paragraphs, for Markdown.
    let markdown = opts.markdown.then(|| {
        let mut emit = vec![false; n];
        for &k in &chosen {
            let from = paras[k].node as usize;
            let to = paras.get(k + 1).map_or(n, |p| p.node as usize);
            for i in from..to.max(from + 1).min(n) {
                emit[i] = dom.nodes[i].tag == Tag::Text && keep[i] && !skip[i];
            }
        }
        super::markdown::render(dom, &emit)
    });
    let mut text = sink.join(chosen);
    // 8. Comments kept on request: the threads the selection left out.
    if opts.comments {
        let taken: Vec<bool> = (0..n).map(|i| keep[i] && !skip[i]).collect();
        let threads = comments::thread_text(dom, &taken);
        if !threads.is_empty() {
            if !text.is_empty() {
                text.push_str("\n\n");
            }
            text.push_str(&threads);
        }
    }
    Selection {
        text,
        headline,
        method: Method::Density,
        markdown,
    }
}

/// Step 2: statistics without the removed nodes, CTD densities (positive
/// class/id boosted), DensitySums and the node with the largest one.
/// Link-heavy containers hold the text nodes between links (" | " menus,
/// tag clouds): their DensitySum is discounted by their link density.
fn densest(
    dom: &Dom<'_>,
    flags: &Flags,
    removed: &[bool],
) -> (Vec<Stats>, Vec<f64>, Vec<f64>, usize) {
    let stats = dom.stats(removed);
    let mut dens = densities(dom, &stats, Density::Composite);
    for (d, h) in dens.iter_mut().zip(&flags.hint) {
        if h.positive {
            *d *= tune::POSITIVE_BOOST;
        }
    }
    let mut ds = density_sums(dom, &dens, removed);
    for (d, s) in ds.iter_mut().zip(&stats) {
        *d *= 1.0 - link_density(s);
    }
    let best = max_density_sum(dom, &ds, removed);
    (stats, dens, ds, best)
}

/// The text node's nearest block ancestor is a heading.
fn in_heading(dom: &Dom<'_>, text_node: usize) -> bool {
    let mut i = text_node;
    while i != 0 {
        i = dom.nodes[i].parent as usize;
        let tag = dom.nodes[i].tag;
        if tag.is_block() {
            return matches!(tag, Tag::H1 | Tag::H);
        }
    }
    false
}

fn is_container(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Div
            | Tag::Article
            | Tag::Main
            | Tag::Section
            | Tag::Cell
            | Tag::Body
            | Tag::Form
            | Tag::Blockquote
            | Tag::Table
            | Tag::OtherBlock
            | Tag::List
    )
}

fn linky(p: &Para) -> bool {
    p.link_chars * 2 > p.chars
}

/// Add the CETD regions (top nodes of the CETD keep mask) before `best` and
/// outside `keep` that read like article text: enough non-link text, few
/// links, sentences. Only before: after the article, such regions were
/// promotions, teasers and copyright notes (page-signal-dev lost 0.011 F1
/// with them), while before it they were the first part of a split text
/// (cleaneval-dev gained 0.011).
fn add_good_regions_before(
    dom: &Dom<'_>,
    stats: &[Stats],
    keep_cetd: &[bool],
    gallery: &[bool],
    keep: &mut [bool],
    best: usize,
) {
    let n = best;
    let mut i = 1;
    while i < n {
        let nd = &dom.nodes[i];
        let end = nd.end as usize;
        if keep_cetd[i] && !keep_cetd[nd.parent as usize] && !keep[i] {
            let st = &stats[i];
            let good = non_link(st) >= tune::REGION_MIN_TEXT
                && link_density(st) < tune::REGION_MAX_LINK_DENSITY
                && st.punct * 100 >= tune::REGION_MIN_PUNCT_PERCENT * st.chars
                && !gallery[i];
            if good {
                for k in keep.iter_mut().take(end).skip(i) {
                    *k = true;
                }
            }
            i = end;
            continue;
        }
        i += 1;
    }
}

/// Non-whitespace characters of kept, non-removed text nodes.
fn kept_chars(dom: &Dom<'_>, keep: &[bool], removed: &[bool]) -> u64 {
    dom.nodes
        .iter()
        .enumerate()
        .filter(|(i, nd)| nd.tag == Tag::Text && keep[*i] && !removed[*i])
        .map(|(_, nd)| u64::from(nd.chars))
        .sum()
}

/// Keep mask: the subtree of `best` plus the subtrees of its siblings that
/// look like more of the article (low link density, enough text).
fn best_with_siblings(
    dom: &Dom<'_>,
    stats: &[Stats],
    best: usize,
    removed: &[bool],
    opts: &ExtractOptions,
) -> Vec<bool> {
    let n = dom.len();
    let mut roots = vec![false; n];
    roots[best] = true;
    if best != 0 {
        let parent = dom.nodes[best].parent as usize;
        let best_class = dom.nodes[best].class.trim();
        for s in dom.children(parent) {
            if s == best || removed[s] {
                continue;
            }
            let st = &stats[s];
            let ld = link_density(st);
            let same_class = !best_class.is_empty() && dom.nodes[s].class.trim() == best_class;
            let qualifies = (same_class && ld < 0.5)
                || (ld < tune::SIBLING_MAX_LINK_DENSITY
                    && (non_link(st) >= tune::SIBLING_MIN_TEXT
                        || (non_link(st) > 0 && st.punct > 0 && dom.nodes[s].tag != Tag::Text)));
            if qualifies {
                roots[s] = true;
            }
        }
        if !opts.ablate.off(Step::AncestorSiblings) {
            add_ancestor_siblings(dom, stats, best, removed, &mut roots);
        }
    }
    for i in 1..n {
        if roots[dom.nodes[i].parent as usize] {
            roots[i] = true;
        }
    }
    roots
}

/// Step 3: sibling content blocks of the best node's ancestors: a body split into
/// sections around figures, ads, video players or "read more" widgets
/// repeats the section's tag and class. Such siblings that read like text
/// (few links, punctuated) are merged into `roots`.
fn add_ancestor_siblings(
    dom: &Dom<'_>,
    stats: &[Stats],
    best: usize,
    removed: &[bool],
    roots: &mut [bool],
) {
    let mut a = dom.nodes[best].parent as usize;
    for _ in 0..tune::ANCESTOR_LEVELS {
        if a == 0 {
            break;
        }
        let parent = dom.nodes[a].parent as usize;
        let (tag, class) = (dom.nodes[a].tag, dom.nodes[a].class.trim());
        if !class.is_empty() {
            for s in dom.children(parent) {
                let st = &stats[s];
                let textual = link_density(st) < tune::SIBLING_MAX_LINK_DENSITY
                    && st.punct > 0
                    && non_link(st) >= tune::SIBLING_MIN_TEXT;
                if s != a
                    && !removed[s]
                    && dom.nodes[s].tag == tag
                    && dom.nodes[s].class.trim() == class
                    && textual
                {
                    roots[s] = true;
                }
            }
        }
        a = parent;
    }
}

/// Drop paragraphs at the edges that are mostly link text, or short and
/// without sentence punctuation at the end.
fn trim_edges(paras: &[Para]) -> std::ops::Range<usize> {
    let mut a = 0;
    let mut b = paras.len();
    while a < b && linky(&paras[a]) {
        a += 1;
    }
    while b > a && (linky(&paras[b - 1]) || (paras[b - 1].punct == 0 && paras[b - 1].chars < 40)) {
        b -= 1;
    }
    a..b
}
