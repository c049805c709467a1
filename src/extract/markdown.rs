//! The selected content as Markdown: the same text nodes as the plain text,
//! with headings, lists, block quotes, tables and preformatted blocks kept
//! (`extract --format markdown`).
//!
//! In: the arena and an `emit` mask of the text nodes the selection kept
//! (what `auto` puts in `text`). Out: Markdown. Pure; links and inline
//! emphasis are written as their text (what language-model pipelines ask
//! for), images are left out. The page's text is escaped ([`escape`]): only
//! the structure above is markup, nothing the page's text says.

pub mod escape;

use super::dom::{Dom, Tag};

/// The Markdown of the text nodes marked in `emit`.
pub fn render(dom: &Dom<'_>, emit: &[bool]) -> String {
    let n = dom.len().min(emit.len());
    // Elements holding an emitted text node: only they open blocks.
    let mut holds = vec![false; n];
    for i in (1..n).rev() {
        if emit[i] && dom.nodes[i].tag == Tag::Text || holds[i] {
            holds[dom.nodes[i].parent as usize] = true;
        }
    }
    let mut w = Writer::default();
    let mut open: Vec<(usize, Tag)> = Vec::new();
    let mut i = 0;
    while i < n {
        while let Some(&(e, tag)) = open.last() {
            if (dom.nodes[e].end as usize) > i {
                break;
            }
            open.pop();
            w.close(tag, &open);
        }
        let nd = &dom.nodes[i];
        if nd.tag == Tag::NoText || (nd.tag != Tag::Text && !holds[i]) {
            i = (nd.end as usize).max(i + 1);
            continue;
        }
        match nd.tag {
            Tag::Text if emit[i] => w.text(nd.text, open.iter().any(|&(_, t)| t == Tag::Pre)),
            Tag::Text => {}
            Tag::Br => w.line_break(open.iter().any(|&(_, t)| t == Tag::Pre)),
            tag if tag.is_block() => {
                w.flush(&open);
                open.push((i, tag));
                w.open(dom, i, tag);
            }
            _ => {}
        }
        i += 1;
    }
    while let Some((_, tag)) = open.pop() {
        w.close(tag, &open);
    }
    w.flush(&open);
    w.out.trim_end().to_string()
}

/// `h1`…`h6` → 1…6.
fn heading_level(dom: &Dom<'_>, i: usize) -> Option<usize> {
    let name = dom.nodes[i].el?.name();
    let b = name.as_bytes();
    (b.len() == 2 && b[0] == b'h' && (b'1'..=b'6').contains(&b[1]))
        .then(|| usize::from(b[1] - b'0'))
}

#[derive(Default)]
struct Writer {
    out: String,
    /// The paragraph being written (collapsed whitespace).
    buf: String,
    /// Prefix of the paragraph being written (heading marks, list marker).
    lead: String,
    /// Cells of the table row being written.
    row: Option<Vec<String>>,
    /// Rows written in the innermost table (a separator follows the first).
    rows_in_table: Vec<usize>,
    /// Item counters of open ordered lists (`None` for bullet lists).
    lists: Vec<Option<usize>>,
    /// Preformatted text collected verbatim.
    pre: Option<String>,
}

impl Writer {
    fn text(&mut self, text: &str, in_pre: bool) {
        if in_pre {
            if let Some(p) = self.pre.as_mut() {
                p.push_str(text);
            }
            return;
        }
        for (k, word) in text.split(char::is_whitespace).enumerate() {
            if k > 0 && !self.buf.ends_with(' ') && !self.buf.is_empty() {
                self.buf.push(' ');
            }
            if !word.is_empty() {
                if text.starts_with(char::is_whitespace)
                    && k == 0
                    && !self.buf.is_empty()
                    && !self.buf.ends_with(' ')
                {
                    self.buf.push(' ');
                }
                let word: String = word.chars().filter(|c| !c.is_control()).collect();
                self.buf.push_str(&escape::inline(&word));
            }
        }
    }

    fn line_break(&mut self, in_pre: bool) {
        if in_pre {
            if let Some(p) = self.pre.as_mut() {
                p.push('\n');
            }
        } else if !self.buf.trim().is_empty() {
            // A hard line break in Markdown: two trailing spaces.
            let t = self.buf.trim_end().len();
            self.buf.truncate(t);
            self.buf.push_str("  \n");
        }
    }

    fn open(&mut self, dom: &Dom<'_>, i: usize, tag: Tag) {
        if let Some(level) = heading_level(dom, i) {
            self.lead = format!("{} ", "#".repeat(level));
            return;
        }
        match tag {
            Tag::List => {
                let ordered = dom.nodes[i].el.is_some_and(|e| e.name() == "ol");
                self.lists.push(ordered.then_some(0));
            }
            Tag::Li => {
                let depth = self.lists.len().saturating_sub(1);
                let marker = match self.lists.last_mut() {
                    Some(Some(k)) => {
                        *k += 1;
                        format!("{k}.")
                    }
                    _ => "-".to_string(),
                };
                self.lead = format!("{}{marker} ", "  ".repeat(depth));
            }
            Tag::Table => self.rows_in_table.push(0),
            Tag::Tr if self.row.is_none() => self.row = Some(Vec::new()),
            Tag::Pre => self.pre = Some(String::new()),
            _ => {}
        }
    }

    fn close(&mut self, tag: Tag, open: &[(usize, Tag)]) {
        match tag {
            Tag::Cell => {
                // `|` is escaped with the rest of the text.
                let cell = std::mem::take(&mut self.buf).trim().to_string();
                self.lead.clear();
                if let Some(row) = self.row.as_mut() {
                    row.push(cell);
                }
            }
            Tag::Tr => {
                self.flush(open);
                if let Some(row) = self.row.take().filter(|r| !r.is_empty()) {
                    self.out.push_str(&format!("| {} |\n", row.join(" | ")));
                    if let Some(count) = self.rows_in_table.last_mut() {
                        if *count == 0 {
                            let sep = vec!["---"; row.len()].join(" | ");
                            self.out.push_str(&format!("| {sep} |\n"));
                        }
                        *count += 1;
                    }
                }
            }
            Tag::Table => {
                self.rows_in_table.pop();
                self.end_block();
            }
            Tag::List => {
                self.flush(open);
                self.lists.pop();
                if self.lists.is_empty() {
                    self.end_block();
                }
            }
            Tag::Pre => {
                if let Some(p) = self.pre.take() {
                    let body = p.trim_matches('\n');
                    if !body.trim().is_empty() {
                        let quote = quote_prefix(open);
                        // No line of the page's text can close this fence.
                        let fence = escape::fence_for(body);
                        self.out.push_str(&format!("{quote}{fence}\n"));
                        for line in body.lines() {
                            self.out.push_str(&format!("{quote}{line}\n"));
                        }
                        self.out.push_str(&format!("{quote}{fence}\n\n"));
                    }
                }
            }
            _ => self.flush(open),
        }
    }

    /// Write the paragraph being collected, if any.
    fn flush(&mut self, open: &[(usize, Tag)]) {
        if self.row.is_some() && open.iter().any(|&(_, t)| t == Tag::Cell) {
            return; // cell text is written with its row
        }
        let text = std::mem::take(&mut self.buf);
        let text = text.trim();
        let lead = std::mem::take(&mut self.lead);
        if text.is_empty() {
            return;
        }
        let quote = quote_prefix(open);
        let in_list = !self.lists.is_empty();
        for (k, line) in text.split('\n').enumerate() {
            let first = if k == 0 { lead.as_str() } else { "" };
            let line = escape::block_start(line.trim_start());
            self.out.push_str(&format!("{quote}{first}{line}\n"));
        }
        if !in_list {
            self.end_block_quoted(&quote);
        }
    }

    fn end_block(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
    }

    fn end_block_quoted(&mut self, quote: &str) {
        if quote.is_empty() {
            self.end_block();
        } else {
            self.out.push_str(quote.trim_end());
            self.out.push('\n');
        }
    }
}

/// `> ` once per open block quote.
fn quote_prefix(open: &[(usize, Tag)]) -> String {
    "> ".repeat(open.iter().filter(|&&(_, t)| t == Tag::Blockquote).count())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn md(html: &str) -> String {
        let doc = scraper::Html::parse_document(html);
        let dom = Dom::build(&doc);
        let emit: Vec<bool> = dom.nodes.iter().map(|n| n.tag == Tag::Text).collect();
        render(&dom, &emit)
    }

    #[test]
    fn headings_lists_quotes_tables() {
        let out = md("<body><h2>The plan</h2><p>It has   two parts.</p>\
             <ul><li>First <a href=x>part</a></li><li>Second</li></ul>\
             <ol><li>One</li><li>Two</li></ol>\
             <blockquote><p>We will win.</p></blockquote>\
             <table><tr><th>City</th><th>Votes</th></tr><tr><td>Lyon</td><td>12</td></tr></table>\
             <pre>let x = 1;\n  x + 1</pre></body>");
        let want =
            "## The plan\n\nIt has two parts.\n\n- First part\n- Second\n\n1. One\n2. Two\n\n\
                    > We will win.\n>\n| City | Votes |\n| --- | --- |\n| Lyon | 12 |\n\n\
                    ```\nlet x = 1;\n  x + 1\n```";
        assert_eq!(out, want);
    }

    #[test]
    fn regression_markdown_page_text_became_live_markup() {
        let out = md("<body><h2>&lt;script&gt;x&lt;/script&gt;</h2>\
             <p>&lt;img src=x onerror=alert(1)&gt;</p><p>[x](javascript:alert(1))</p>\
             <p># not a heading</p><p>1. not a list</p><ul><li># item</li></ul>\
             <table><tr><td>a|b</td></tr></table><pre>```\n&lt;b&gt;x&lt;/b&gt;\n```</pre></body>");
        let want = "## \\<script\\>x\\</script\\>\n\n\\<img src=x onerror=alert(1)\\>\n\n\
                    \\[x\\](javascript:alert(1))\n\n\\# not a heading\n\n1\\. not a list\n\n\
                    - \\# item\n\n| a\\|b |\n| --- |\n\n````\n```\n<b>x</b>\n```\n````";
        assert_eq!(out, want);
    }

    #[test]
    fn only_emitted_text_is_written() {
        let doc = scraper::Html::parse_document("<body><p>Keep me.</p><p>Drop me.</p></body>");
        let dom = Dom::build(&doc);
        let emit: Vec<bool> = dom.nodes.iter().map(|n| n.text == "Keep me.").collect();
        assert_eq!(render(&dom, &emit), "Keep me.");
    }
}
