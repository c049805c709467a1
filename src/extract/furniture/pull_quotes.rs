//! Pull quotes: a `<blockquote>` that prints again, in large type, a
//! sentence the story gives in one of its own paragraphs. It is a layout
//! device, so a text that keeps it reads the sentence twice.
//!
//! In: the arena, its statistics and a `<blockquote>`. Out: the box to
//! leave out (the quote with its attribution), when the quote's words run
//! again, in order, in the story's text outside that box. A quotation the
//! story gives only once (a letter, a statement, a social post) is content.

use super::super::dom::{Dom, Stats, Tag};

/// A pull quote and its attribution hold at most this many characters: a
/// longer quotation is a passage the story quotes.
const MAX_CHARS: u32 = 400;
/// The quote's text must hold at least this many words: a few words may
/// run again by chance.
const MIN_WORDS: usize = 6;

/// The element to leave out when `b` is a pull quote: `b`, or the smallest
/// wrapper around it that still holds at most [`MAX_CHARS`] (the box that
/// sets the quote beside its speaker's name).
pub fn pull_quote_box(dom: &Dom<'_>, stats: &[Stats], b: usize) -> Option<usize> {
    if dom.nodes[b].tag != Tag::Blockquote || stats[b].chars == 0 || stats[b].chars > MAX_CHARS {
        return None;
    }
    // The quote is the longest text of the box; the rest is the speaker.
    let quote = (b + 1..dom.nodes[b].end as usize)
        .filter(|&k| dom.nodes[k].tag == Tag::Text)
        .max_by_key(|&k| dom.nodes[k].chars)?;
    let quote = {
        let mut words = String::new();
        push_words(dom.nodes[quote].text, &mut words);
        words
    };
    if quote.split(' ').count() < MIN_WORDS {
        return None;
    }
    let mut top = b;
    loop {
        let p = dom.nodes[top].parent as usize;
        if p == top || dom.nodes[p].tag == Tag::Body || stats[p].chars > MAX_CHARS {
            break;
        }
        top = p;
    }
    let context = dom.nodes[top].parent as usize;
    if context == top {
        return None;
    }
    let (start, end) = (top, dom.nodes[top].end as usize);
    let mut rest = String::from(" ");
    for k in context + 1..dom.nodes[context].end as usize {
        if (start..end).contains(&k) || dom.nodes[k].tag != Tag::Text || dom.nodes[k].chars == 0 {
            continue;
        }
        push_words(dom.nodes[k].text, &mut rest);
        if !rest.ends_with(' ') {
            rest.push(' ');
        }
    }
    rest.contains(&format!(" {quote} ")).then_some(top)
}

/// Append the lower-cased words of `text` to `out`, one space between
/// them (quotation marks and punctuation out: the pull quote drops the
/// story's). One pass without a string per word: the story around every
/// short `<blockquote>` goes through here.
fn push_words(text: &str, out: &mut String) {
    let mut gap = false;
    for c in text.chars() {
        if !c.is_alphanumeric() {
            gap = true;
            continue;
        }
        if gap && !out.is_empty() && !out.ends_with(' ') {
            out.push(' ');
        }
        gap = false;
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else {
            out.extend(c.to_lowercase());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::push_words;

    #[test]
    fn words_are_lower_cased_and_spaced_once_whatever_the_punctuation() {
        let mut out = String::new();
        push_words("“The Council — must ACT,” now!", &mut out);
        assert_eq!(out, "the council must act now");
        out.push(' ');
        push_words("... Über-Größe 42", &mut out);
        assert_eq!(out, "the council must act now über größe 42");
    }
}
