//! Arena subtree → plain text: one paragraph per line, a blank line between
//! blocks, `<br>` as a line break, whitespace runs collapsed to one space.
//!
//! In: a [`Dom`], a root index and a `skip` mask (nodes whose subtrees are left
//! out). Out: the text. Entities were decoded by the parser already.

use super::dom::{Dom, Tag};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Break {
    None,
    Space,
    Line,
    Para,
}

/// Statistics of one output paragraph (a run of text between block breaks).
#[derive(Debug, Clone, Copy, Default)]
pub struct Para {
    /// Byte offset of the paragraph in the output.
    pub start: usize,
    /// Byte offset one past its end.
    pub end: usize,
    /// Non-whitespace characters.
    pub chars: u32,
    pub link_chars: u32,
    pub punct: u32,
    /// Arena index of its first text node.
    pub node: u32,
}

/// Accumulates text with pending breaks, so that no line starts or ends with
/// whitespace and no more than one blank line separates paragraphs; records
/// per-paragraph statistics for edge trimming.
pub struct TextSink {
    out: String,
    pending: Break,
    paras: Vec<Para>,
    /// Keep invisible format characters ([`is_invisible_format`]) in words
    /// (`eval --ablate format-chars`); dropped by default.
    keep_format: bool,
}

impl Default for TextSink {
    fn default() -> Self {
        TextSink {
            out: String::new(),
            pending: Break::None,
            paras: Vec::new(),
            keep_format: false,
        }
    }
}

/// Characters a reader never sees that split a word for search and
/// matching: the soft hyphen (U+00AD, which German sites put between the
/// syllables of long words, "Ita\u{ad}li\u{ad}ens"), zero-width spaces
/// and word joiners, direction marks and embeddings, and a stray byte-order
/// mark. The zero-width (non-)joiners stay: they shape Persian, Indic and
/// emoji text.
pub fn is_invisible_format(c: char) -> bool {
    matches!(c,
        '\u{ad}'
        | '\u{200b}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{2069}'
        | '\u{feff}')
}

impl TextSink {
    /// A sink that keeps invisible format characters in words (the
    /// `format-chars` ablation).
    pub fn keeping_format_chars(keep: bool) -> TextSink {
        TextSink {
            keep_format: keep,
            ..TextSink::default()
        }
    }

    fn want(&mut self, b: Break) {
        if b > self.pending {
            self.pending = b;
        }
    }

    pub fn para(&mut self) {
        self.want(Break::Para);
    }

    pub fn line(&mut self) {
        self.want(Break::Line);
    }

    /// Append the text of arena node `node`.
    pub fn push_text(&mut self, text: &str, in_link: bool, node: u32) {
        // Fast path: already-normal text (ASCII, single spaces, no controls)
        // goes in as one piece.
        let inner = text.trim_matches(' ');
        let b = inner.as_bytes();
        if !b.is_empty()
            && b.iter().all(|&c| c > b' ' && c < 0x7f || c == b' ')
            && !inner.contains("  ")
        {
            if inner.len() < text.len() && text.starts_with(' ') {
                self.want(Break::Space);
            }
            self.push_word(inner, in_link, node);
            if text.ends_with(' ') {
                self.want(Break::Space);
            }
            return;
        }
        for (k, word) in text.split(char::is_whitespace).enumerate() {
            if k > 0 {
                self.want(Break::Space);
            }
            if !word.is_empty() {
                self.push_word(word, in_link, node);
            }
        }
    }

    fn push_word(&mut self, word: &str, in_link: bool, node: u32) {
        // Control characters (other than whitespace) are never text, nor
        // are invisible format characters inside a word.
        let drop = |c: char| c.is_control() || (!self.keep_format && is_invisible_format(c));
        let cleaned: std::borrow::Cow<'_, str> = if !word.is_ascii() && word.chars().any(drop) {
            word.chars()
                .filter(|&c| !drop(c))
                .collect::<String>()
                .into()
        } else if word.bytes().any(|b| b.is_ascii_control()) {
            word.chars()
                .filter(|c| !c.is_control())
                .collect::<String>()
                .into()
        } else {
            word.into()
        };
        if cleaned.is_empty() {
            return;
        }
        if self.paras.is_empty() || self.pending == Break::Para {
            if let Some(last) = self.paras.last_mut() {
                last.end = self.out.len();
                self.out.push_str("\n\n");
            }
            self.paras.push(Para {
                start: self.out.len(),
                node,
                ..Para::default()
            });
        } else {
            match self.pending {
                Break::Space => self.out.push(' '),
                Break::Line => self.out.push('\n'),
                Break::None | Break::Para => {}
            }
        }
        self.pending = Break::None;
        self.out.push_str(&cleaned);
        let (chars, punct) = super::dom::count_text(&cleaned);
        if let Some(p) = self.paras.last_mut() {
            p.chars += chars;
            if in_link {
                p.link_chars += chars;
            }
            p.punct += punct;
        }
    }

    /// The paragraphs so far (the last one's `end` is set by [`Self::finish`]
    /// and [`Self::paras`]).
    pub fn paras(&mut self) -> &[Para] {
        let len = self.out.len();
        if let Some(last) = self.paras.last_mut() {
            last.end = len;
        }
        &self.paras
    }

    /// Text of paragraph `i` (after [`Self::paras`]).
    pub fn para_text(&self, i: usize) -> &str {
        self.paras.get(i).map_or("", |p| &self.out[p.start..p.end])
    }

    /// The paragraphs at `indices` (ascending) joined by blank lines.
    pub fn join(&mut self, indices: impl IntoIterator<Item = usize>) -> String {
        self.paras();
        let mut out = String::with_capacity(self.out.len());
        for i in indices {
            let Some(p) = self.paras.get(i) else { continue };
            if !out.is_empty() {
                out.push_str("\n\n");
            }
            out.push_str(&self.out[p.start..p.end]);
        }
        out
    }

    pub fn finish(self) -> String {
        self.out
    }
}

/// Text of the subtree of `root`, leaving out subtrees where `skip[i]`.
pub fn assemble(dom: &Dom<'_>, root: usize, skip: &[bool], sink: &mut TextSink) {
    assemble_kept(dom, root, skip, None, sink);
}

/// Like [`assemble`], but text nodes are emitted only where `keep[i]`.
pub fn assemble_kept(
    dom: &Dom<'_>,
    root: usize,
    skip: &[bool],
    keep: Option<&[bool]>,
    sink: &mut TextSink,
) {
    let Some(r) = dom.nodes.get(root) else {
        return;
    };
    let end = r.end as usize;
    // Open block elements, as their subtree ends.
    let mut open: Vec<u32> = Vec::new();
    let mut i = root;
    while i < end {
        while open.last().is_some_and(|&e| e as usize <= i) {
            open.pop();
            sink.para();
        }
        let n = &dom.nodes[i];
        if skip.get(i).copied().unwrap_or(false) || n.tag == Tag::NoText {
            i = n.end as usize;
            continue;
        }
        match n.tag {
            Tag::Text if keep.is_none_or(|k| k.get(i).copied().unwrap_or(false)) => {
                sink.push_text(n.text, n.in_link, i as u32)
            }
            Tag::Text => {}
            Tag::Br => sink.line(),
            t if t.is_block() => {
                sink.para();
                open.push(n.end);
            }
            _ => {}
        }
        i += 1;
    }
    if !open.is_empty() {
        sink.para();
    }
}

/// Convenience: the text of one subtree.
pub fn subtree_text(dom: &Dom<'_>, root: usize, skip: &[bool]) -> String {
    let mut sink = TextSink::default();
    assemble(dom, root, skip, &mut sink);
    sink.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use scraper::Html;

    fn text_of(html: &str) -> String {
        let doc = Html::parse_document(html);
        let dom = Dom::build(&doc);
        subtree_text(&dom, 0, &[])
    }

    #[test]
    fn paragraphs_lines_and_whitespace() {
        let t = text_of(
            "<body>  <h1>Title</h1><p>One   two\n three</p><p>a<br>b</p>\
             <div>x <span>y</span><b>z</b></div></body>",
        );
        assert_eq!(t, "Title\n\nOne two three\n\na\nb\n\nx yz");
    }

    #[test]
    fn entities_decoded() {
        let t = text_of("<p>Fish &amp; chips &mdash; &#8220;good&#8221;&nbsp;food</p>");
        assert_eq!(t, "Fish & chips — “good” food");
    }

    #[test]
    fn soft_hyphens_and_zero_width_spaces_do_not_split_words() {
        let t = text_of("<p>Ita&shy;li&shy;ens Regierung\u{200b}s&shy;chef, x\u{200d}y</p>");
        assert_eq!(t, "Italiens Regierungschef, x\u{200d}y");
        let doc = Html::parse_document("<p>Ita&shy;li&shy;ens</p>");
        let dom = Dom::build(&doc);
        let mut sink = TextSink::keeping_format_chars(true);
        assemble(&dom, 0, &[], &mut sink);
        assert_eq!(sink.finish(), "Ita\u{ad}li\u{ad}ens");
    }

    #[test]
    fn cjk_text_kept() {
        let t = text_of("<p>中文新闻，测试。</p><p>第二段</p>");
        assert_eq!(t, "中文新闻，测试。\n\n第二段");
    }
}
