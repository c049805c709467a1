//! Markup declarations in the data state: comments, the doctype, and the
//! bogus comments the standard makes of `<?…>`, `</ …>` and any other
//! `<!…>` (CDATA outside SVG and MathML too).

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{Doctype, Token, TokenSink};

use super::{is_space, Reader, Unread};

impl<S: TokenSink> Reader<'_, S> {
    /// `<!--…-->` or `<!DOCTYPE …>` at `at`; returns where data goes on.
    pub(super) fn markup_declaration(&self, at: usize) -> Result<usize, Unread> {
        let rest = &self.bytes[at + 2..];
        if rest.starts_with(b"--") {
            let start = at + 4;
            let body = &self.bytes[start..];
            if body.starts_with(b">") || body.starts_with(b"->") {
                return Err(Unread);
            }
            let end = memchr::memmem::find(body, b"-->").ok_or(Unread)?;
            if memchr::memmem::find(&body[..end], b"--!>").is_some() {
                return Err(Unread);
            }
            self.send(Token::CommentToken(self.slice(start, start + end)));
            return Ok(start + end + 3);
        }
        if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
            return self.doctype(at + 9);
        }
        // CDATA is read so only inside SVG or MathML; elsewhere `<![CDATA[`
        // opens a bogus comment as any other `<!` does.
        if rest.starts_with(b"[CDATA[")
            && self
                .sink
                .adjusted_current_node_present_but_not_in_html_namespace()
        {
            return Err(Unread);
        }
        self.bogus_comment(at + 2)
    }

    /// A bogus comment (`<?xml …?>`, `<![if …]>`, `</ …>`) whose text
    /// starts at `start`: everything up to the next `>`, after an error.
    pub(super) fn bogus_comment(&self, start: usize) -> Result<usize, Unread> {
        let len = memchr::memchr(b'>', &self.bytes[start..]).ok_or(Unread)?;
        self.error();
        self.send(Token::CommentToken(self.slice(start, start + len)));
        Ok(start + len + 1)
    }

    /// A doctype of the usual shapes: a name, then nothing, or a PUBLIC
    /// and maybe a system identifier, or a SYSTEM one, each quoted.
    fn doctype(&self, mut at: usize) -> Result<usize, Unread> {
        let bytes = self.bytes;
        let skip = |at: &mut usize| {
            let from = *at;
            while bytes.get(*at).is_some_and(|&b| is_space(b)) {
                *at += 1;
            }
            *at > from
        };
        if !skip(&mut at) {
            return Err(Unread);
        }
        let name_start = at;
        while bytes.get(at).is_some_and(|&b| !is_space(b) && b != b'>') {
            at += 1;
        }
        if at == name_start || at == bytes.len() {
            return Err(Unread);
        }
        let name = StrTendril::from_slice(&self.input[name_start..at].to_ascii_lowercase());
        let quoted = |at: &mut usize| -> Result<StrTendril, Unread> {
            let q = *bytes.get(*at).ok_or(Unread)?;
            if q != b'"' && q != b'\'' {
                return Err(Unread);
            }
            let start = *at + 1;
            let len = memchr::memchr(q, &bytes[start..]).ok_or(Unread)?;
            if bytes[start..start + len].contains(&b'>') {
                return Err(Unread);
            }
            *at = start + len + 1;
            Ok(StrTendril::from_slice(&self.input[start..start + len]))
        };
        let mut doctype = Doctype {
            name: Some(name),
            ..Doctype::default()
        };
        let spaced = skip(&mut at);
        let keyword = |at: usize, word: &[u8]| {
            bytes.len() >= at + 6 && bytes[at..at + 6].eq_ignore_ascii_case(word)
        };
        if spaced && keyword(at, b"public") {
            at += 6;
            if !skip(&mut at) {
                return Err(Unread);
            }
            doctype.public_id = Some(quoted(&mut at)?);
            if skip(&mut at) && bytes.get(at) != Some(&b'>') {
                doctype.system_id = Some(quoted(&mut at)?);
                skip(&mut at);
            }
        } else if spaced && keyword(at, b"system") {
            at += 6;
            if !skip(&mut at) {
                return Err(Unread);
            }
            doctype.system_id = Some(quoted(&mut at)?);
            skip(&mut at);
        }
        if bytes.get(at) != Some(&b'>') {
            return Err(Unread);
        }
        self.send(Token::DoctypeToken(doctype));
        Ok(at + 1)
    }
}
