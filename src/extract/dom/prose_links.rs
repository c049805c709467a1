//! Links written into a paragraph's prose are read as its text.
//!
//! In: the arena. Out: the same arena, with the text of such links no
//! longer marked as link text ([`Node::in_link`](super::Node::in_link)).
//!
//! Link density is how every step of `auto` tells navigation, teaser lists
//! and link rails from prose. A story that links some of its words (a name
//! to its topic page, a claim to its source, the keywords a CMS links by
//! itself) is as much prose as one that links none, yet the more it links
//! the more it reads as a link list: its paragraphs are pruned, and the
//! page's densest block becomes a list of headlines. A paragraph that holds
//! at least [`PROSE_MIN_TEXT`] characters of its own words, and no more
//! link text than that, is prose whatever it links: a menu or a teaser is
//! its links, with a few words at most around them.

use super::{Dom, Tag};

/// A paragraph with at least this many characters outside its links, and
/// at least as many as inside them, reads its links as text.
pub const PROSE_MIN_TEXT: u32 = 100;

impl Dom<'_> {
    /// Every `<p>` that is prose ([`PROSE_MIN_TEXT`]) reads its links as
    /// text. The paragraphs' subtrees are visited once each (a `<p>` holds
    /// no `<p>`).
    pub fn read_prose_links_as_text(&mut self) {
        let mut i = 0;
        while i < self.nodes.len() {
            if self.nodes[i].tag != Tag::P {
                i += 1;
                continue;
            }
            let end = self.nodes[i].end as usize;
            let (mut own, mut linked) = (0u32, 0u32);
            for nd in &self.nodes[i + 1..end] {
                if nd.tag == Tag::Text {
                    if nd.in_link {
                        linked += nd.chars;
                    } else {
                        own += nd.chars;
                    }
                }
            }
            if linked > 0 && own >= PROSE_MIN_TEXT && linked <= own {
                for nd in &mut self.nodes[i + 1..end] {
                    nd.in_link = false;
                }
            }
            i = end.max(i + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{link_density, Dom, Tag};
    use scraper::Html;

    fn p_link_densities(html: &str) -> Vec<f64> {
        let doc = Html::parse_document(html);
        let mut dom = Dom::build(&doc);
        dom.read_prose_links_as_text();
        let none = vec![false; dom.len()];
        let stats = dom.stats(&none);
        (0..dom.len())
            .filter(|&i| dom.nodes[i].tag == Tag::P)
            .map(|i| link_density(&stats[i]))
            .collect()
    }

    #[test]
    fn a_paragraph_that_links_some_of_its_words_is_text() {
        let prose = "<p>The council met on Monday and, after a long debate about the \
                     <a href=/budget>city budget</a>, agreed to repair the old market hall \
                     before <a href=/spring>the spring</a>, when the ferries run again.</p>";
        assert_eq!(p_link_densities(prose), vec![0.0]);
        // Under 100 characters of its own: a short line keeps its links.
        let short = "<p>The council met on Monday about the <a href=/budget>city budget</a>.</p>";
        assert!(p_link_densities(short)[0] > 0.0);
    }

    #[test]
    fn menus_teasers_and_mostly_linked_lines_stay_links() {
        let menu = "<p><a href=/a>Politics</a> | <a href=/b>Sport</a> | <a href=/c>Culture</a></p>";
        let teaser = "<p><a href=/s>Council approves the new budget after a long debate on \
                      Monday night</a> Read more.</p>";
        let mostly = "<p>See also: <a href=/x>The council met on Monday and agreed the budget \
                      after a debate that went on late into the night and past midnight</a> \
                      and <a href=/y>the market hall reopens in spring</a>.</p>";
        for page in [menu, teaser, mostly] {
            let d = p_link_densities(page);
            assert!(d[0] > 0.5, "{page}: {d:?}");
        }
    }
}
