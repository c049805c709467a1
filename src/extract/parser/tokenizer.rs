//! The stripped page's tokens for html5ever's tree builder, read with byte
//! searches instead of html5ever's tokenizer (a state machine that takes
//! one character at a time through a queue of buffers: over a quarter of
//! the extraction's instructions).
//!
//! It reads what the prepass leaves, which is nearly every page whole:
//! text, start and end tags with their attributes (quoted, unquoted, empty,
//! duplicated), character references, comments and bogus comments
//! (`<?xml …?>`, `<![if …]>`), the doctype, line breaks (CR LF and CR are
//! LF), and the raw text of `<title>`, `<textarea>`, `<style>` and JSON-LD
//! scripts. Each is read as the standard's tokenizer reads it, down to the
//! parse errors the tree builder can see, and the tree builder that
//! receives the tokens is html5ever's own, with its answers obeyed (it
//! says when text is raw, as inside `<title>` but not inside an SVG's
//! `<title>`). Anything else (a NUL anywhere, input ending inside a tag or
//! a comment, CDATA inside SVG or MathML, `<plaintext>`, a script with
//! `<!--` in it, a doctype of unusual shape) is [`Unread`]: the caller
//! parses the page with html5ever instead, so the tree is the same either
//! way.

use std::borrow::Cow;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{Tag, TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::{ns, Attribute, LocalName, QualName};

use super::char_ref::char_ref;

mod declarations;

/// The page holds a construct this reader leaves to html5ever.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Unread;

/// The tokenizer's line number, which the tree builder only hands to the
/// sink for error messages.
const LINE: u64 = 1;

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b' ')
}

/// Feed the tokens of `input` to `sink`, through to the end of the input
/// (`EOFToken` and [`TokenSink::end`]); `Err` at the first construct not
/// read here, with the sink left part-way.
pub(super) fn feed<S: TokenSink>(input: &str, sink: &S) -> Result<(), Unread> {
    if input.len() >= u32::MAX as usize || memchr::memchr(b'\0', input.as_bytes()).is_some() {
        return Err(Unread);
    }
    let input = newlines(input);
    // The tokenizer drops a byte order mark at the start.
    let input = input.strip_prefix('\u{feff}').unwrap_or(&input);
    let reader = Reader {
        input,
        bytes: input.as_bytes(),
        whole: StrTendril::from_slice(input),
        sink,
        last_start_tag: None,
    };
    reader.run()
}

struct Reader<'a, S> {
    input: &'a str,
    bytes: &'a [u8],
    /// The input as one shared buffer: text tokens and attribute values are
    /// slices of it, as html5ever's are of its input.
    whole: StrTendril,
    sink: &'a S,
    /// For raw text: only an end tag of this name ends it.
    last_start_tag: Option<LocalName>,
}

/// Where reading goes on after a tag, and in which state.
enum After {
    Data(usize),
    Raw(usize, RawKind),
}

impl<'a, S: TokenSink> Reader<'a, S> {
    fn run(mut self) -> Result<(), Unread> {
        let mut pos = 0;
        loop {
            let after = self.data(pos)?;
            pos = match after {
                None => break,
                Some(After::Data(at)) => at,
                Some(After::Raw(at, kind)) => self.raw(at, kind)?,
            };
        }
        self.send(Token::EOFToken);
        self.sink.end();
        Ok(())
    }

    fn slice(&self, start: usize, end: usize) -> StrTendril {
        self.whole.subtendril(start as u32, (end - start) as u32)
    }

    fn text(&self, start: usize, end: usize) {
        if end > start {
            self.send(Token::CharacterTokens(self.slice(start, end)));
        }
    }

    fn emit(&self, token: Token) -> TokenSinkResult<S::Handle> {
        self.sink.process_token(token, LINE)
    }

    /// A token the tree builder always answers with `Continue` (all but
    /// tags: html5ever's tokenizer asserts as much).
    fn send(&self, token: Token) {
        let _ = self.emit(token);
    }

    fn error(&self) {
        self.send(Token::ParseError(Cow::Borrowed("parse error")));
    }

    /// A character reference in text that ends by `end` (raw text's end
    /// tag): the text before it, an error if the tokenizer reports one, and
    /// its characters. Returns where the pending text now starts and where
    /// the search for markup goes on.
    fn text_char_ref(&self, text_start: usize, amp: usize, end: usize) -> (usize, usize) {
        let r = char_ref(&self.input[..end], amp, false);
        let Some((c1, c2)) = r.chars else {
            if !r.error {
                // A literal `&` inside the text run.
                return (text_start, amp + 1);
            }
            self.text(text_start, amp);
            self.error();
            // The `&` and what follows it are text again.
            return (amp, amp + 1);
        };
        self.text(text_start, amp);
        if r.error {
            self.error();
        }
        let mut chars = StrTendril::from_char(c1);
        if let Some(c2) = c2 {
            chars.push_char(c2);
        }
        self.send(Token::CharacterTokens(chars));
        (r.end, r.end)
    }

    /// The data state from `pos` to the next tag that changes the state, or
    /// to the end (`None`).
    fn data(&mut self, mut pos: usize) -> Result<Option<After>, Unread> {
        let bytes = self.bytes;
        let mut text_start = pos;
        loop {
            let Some(i) = memchr::memchr2(b'<', b'&', &bytes[pos..]) else {
                self.text(text_start, bytes.len());
                return Ok(None);
            };
            let at = pos + i;
            if bytes[at] == b'&' {
                (text_start, pos) = self.text_char_ref(text_start, at, bytes.len());
                continue;
            }
            match bytes.get(at + 1) {
                Some(b) if b.is_ascii_alphabetic() => {
                    self.text(text_start, at);
                    return self.tag(at + 1, TagKind::StartTag).map(Some);
                }
                Some(b'/') => match bytes.get(at + 2) {
                    Some(b) if b.is_ascii_alphabetic() => {
                        self.text(text_start, at);
                        return self.tag(at + 2, TagKind::EndTag).map(Some);
                    }
                    Some(b'>') => {
                        // `</>`: an error, and nothing.
                        self.text(text_start, at);
                        self.error();
                        pos = at + 3;
                        text_start = pos;
                    }
                    None => return Err(Unread),
                    Some(_) => {
                        self.text(text_start, at);
                        pos = self.bogus_comment(at + 2)?;
                        text_start = pos;
                    }
                },
                Some(b'!') => {
                    self.text(text_start, at);
                    pos = self.markup_declaration(at)?;
                    text_start = pos;
                }
                Some(b'?') => {
                    self.text(text_start, at);
                    pos = self.bogus_comment(at + 1)?;
                    text_start = pos;
                }
                None => return Err(Unread),
                // `<` before anything else is text, after an error.
                Some(_) => {
                    self.text(text_start, at);
                    self.error();
                    text_start = at;
                    pos = at + 1;
                }
            }
        }
    }

    /// A tag whose name starts at `name_start`, read to its `>` and given
    /// to the tree builder; what the builder answers sets the next state.
    fn tag(&mut self, name_start: usize, kind: TagKind) -> Result<After, Unread> {
        let bytes = self.bytes;
        let mut at = name_start;
        while bytes
            .get(at)
            .is_some_and(|&b| !is_space(b) && b != b'/' && b != b'>')
        {
            at += 1;
        }
        let name = local_name(&self.input[name_start..at]);
        self.finish_tag(name, kind, at)
    }

    /// The attributes from `at` (after the tag's name), the tag's token,
    /// and the state the tree builder asks for.
    fn finish_tag(
        &mut self,
        name: LocalName,
        kind: TagKind,
        mut at: usize,
    ) -> Result<After, Unread> {
        let bytes = self.bytes;
        let mut attrs: Vec<Attribute> = Vec::new();
        let mut duplicated = false;
        let mut self_closing = false;
        loop {
            // Before an attribute's name.
            while bytes.get(at).is_some_and(|&b| is_space(b)) {
                at += 1;
            }
            match *bytes.get(at).ok_or(Unread)? {
                b'>' => {
                    at += 1;
                    break;
                }
                b'/' => {
                    at += 1;
                    if bytes.get(at) == Some(&b'>') {
                        self_closing = true;
                        at += 1;
                        break;
                    }
                    continue;
                }
                _ => {}
            }
            // The name: its first char whatever it is (`=` too), then up to
            // a space, `/`, `>` or `=`.
            let name_start = at;
            at += utf8_len(bytes[at]);
            while bytes
                .get(at)
                .is_some_and(|&b| !is_space(b) && b != b'/' && b != b'>' && b != b'=')
            {
                at += 1;
            }
            let attr_name = local_name(&self.input[name_start..at]);
            while bytes.get(at).is_some_and(|&b| is_space(b)) {
                at += 1;
            }
            let value = if bytes.get(at) == Some(&b'=') {
                at += 1;
                while bytes.get(at).is_some_and(|&b| is_space(b)) {
                    at += 1;
                }
                let (value, end) = self.attr_value(at)?;
                at = end;
                value
            } else {
                StrTendril::new()
            };
            if attrs.iter().any(|a| a.name.local == attr_name) {
                duplicated = true;
            } else {
                attrs.push(Attribute {
                    name: QualName::new(None, ns!(), attr_name),
                    value,
                });
            }
        }
        if kind == TagKind::StartTag {
            self.last_start_tag = Some(name.clone());
        }
        let token = Token::TagToken(Tag {
            kind,
            name,
            self_closing,
            attrs,
            had_duplicate_attributes: duplicated,
        });
        match self.emit(token) {
            TokenSinkResult::RawData(kind) => match kind {
                RawKind::Rcdata | RawKind::Rawtext | RawKind::ScriptData => {
                    Ok(After::Raw(at, kind))
                }
                RawKind::ScriptDataEscaped(_) => Err(Unread),
            },
            TokenSinkResult::Plaintext => Err(Unread),
            TokenSinkResult::Continue => Ok(After::Data(at)),
            // html5ever's tokenizer stops after a script's end tag and a
            // `<meta charset>`; its driver restarts it, and the restart
            // drops a byte order mark where it resumes, as at the start.
            TokenSinkResult::Script(_) | TokenSinkResult::EncodingIndicator(_) => {
                let bom = '\u{feff}'.len_utf8();
                if self.input[at..].starts_with('\u{feff}') {
                    Ok(After::Data(at + bom))
                } else {
                    Ok(After::Data(at))
                }
            }
        }
    }

    /// An attribute's value at `at` (after `=` and spaces): quoted or not,
    /// its character references read. Returns it and where the tag goes on.
    fn attr_value(&self, at: usize) -> Result<(StrTendril, usize), Unread> {
        let bytes = self.bytes;
        let (start, end, next) = match *bytes.get(at).ok_or(Unread)? {
            q @ (b'"' | b'\'') => {
                let len = memchr::memchr(q, &bytes[at + 1..]).ok_or(Unread)?;
                (at + 1, at + 1 + len, at + len + 2)
            }
            // `>` where a value should be: an empty value, and the tag ends.
            b'>' => return Ok((StrTendril::new(), at)),
            _ => {
                let mut end = at;
                while bytes.get(end).is_some_and(|&b| !is_space(b) && b != b'>') {
                    end += 1;
                }
                if end == bytes.len() {
                    return Err(Unread);
                }
                (at, end, end)
            }
        };
        let raw = &bytes[start..end];
        if memchr::memchr(b'&', raw).is_none() {
            return Ok((self.slice(start, end), next));
        }
        let mut value = StrTendril::new();
        let mut from = start;
        while let Some(i) = memchr::memchr(b'&', &bytes[from..end]) {
            let amp = from + i;
            // A reference reads no further than the value.
            let r = char_ref(&self.input[..end], amp, true);
            if let Some((c1, c2)) = r.chars {
                value.push_slice(&self.input[from..amp]);
                value.push_char(c1);
                if let Some(c2) = c2 {
                    value.push_char(c2);
                }
                from = r.end;
            } else {
                value.push_slice(&self.input[from..amp + 1]);
                from = amp + 1;
            }
        }
        value.push_slice(&self.input[from..end]);
        Ok((value, next))
    }

    /// Raw text from `pos` (after its start tag) to the end tag of the last
    /// start tag's name; returns where data goes on after that end tag.
    fn raw(&mut self, pos: usize, kind: RawKind) -> Result<usize, Unread> {
        let bytes = self.bytes;
        let name = self.last_start_tag.clone().ok_or(Unread)?;
        let name_bytes = name.as_bytes();
        let mut search = pos;
        let (end_tag, name_end) = loop {
            let i = memchr::memmem::find(&bytes[search..], b"</").ok_or(Unread)?;
            let lt = search + i;
            let name_start = lt + 2;
            let mut name_end = name_start;
            while bytes.get(name_end).is_some_and(|b| b.is_ascii_alphabetic()) {
                name_end += 1;
            }
            let matches = bytes[name_start..name_end].eq_ignore_ascii_case(name_bytes);
            let closes = bytes
                .get(name_end)
                .is_some_and(|&b| is_space(b) || b == b'/' || b == b'>');
            if matches && closes {
                break (lt, name_end);
            }
            search = lt + 2;
        };
        let text = &bytes[pos..end_tag];
        match kind {
            RawKind::ScriptData if memchr::memmem::find(text, b"<!--").is_some() => {
                return Err(Unread)
            }
            RawKind::Rcdata => {
                let mut start = pos;
                let mut from = pos;
                while let Some(i) = memchr::memchr(b'&', &bytes[from..end_tag]) {
                    let amp = from + i;
                    (start, from) = self.text_char_ref(start, amp, end_tag);
                }
                self.text(start, end_tag);
            }
            _ => self.text(pos, end_tag),
        }
        match self.finish_tag(name, TagKind::EndTag, name_end)? {
            After::Data(at) => Ok(at),
            After::Raw(..) => Err(Unread),
        }
    }
}

/// The input with its line breaks as the tokenizer reads them: CR LF and a
/// lone CR are LF.
fn newlines(input: &str) -> Cow<'_, str> {
    if memchr::memchr(b'\r', input.as_bytes()).is_none() {
        return Cow::Borrowed(input);
    }
    Cow::Owned(input.replace("\r\n", "\n").replace('\r', "\n"))
}

/// A tag or attribute name as the tokenizer makes it: ASCII letters lower
/// case.
fn local_name(name: &str) -> LocalName {
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        LocalName::from(name.to_ascii_lowercase())
    } else {
        LocalName::from(name)
    }
}

/// The length of the UTF-8 sequence that starts with `lead`.
fn utf8_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}
