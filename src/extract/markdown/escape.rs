//! Page text made safe to write into Markdown: nothing a page says becomes
//! markup. A page that wrote `&lt;img onerror=…&gt;` (text, once decoded)
//! must not come out as a raw `<img …>` tag; `[x](javascript:…)` not as a
//! link; a paragraph starting `#` not as a heading.
//!
//! In: text. Out: the same text with CommonMark backslash escapes (any
//! ASCII punctuation may be escaped; a renderer shows it as itself).
//! [`inline`] escapes the characters that open inline markup (emphasis,
//! code, links, raw HTML, entities, tables); [`block_start`] the start of a
//! line that a renderer would read as a block (heading, list, quote, rule,
//! setext underline). [`unescape`] undoes both, for comparing the Markdown
//! with plain text.

/// Characters that start or close inline markup: `\` itself, emphasis
/// (`*`, `_`, `~`), code spans, links and images (`[`, `]`), raw HTML and
/// autolinks (`<`, `>`), entities (`&`), table cells (`|`).
fn is_inline_special(c: char) -> bool {
    matches!(
        c,
        '\\' | '`' | '*' | '_' | '~' | '[' | ']' | '<' | '>' | '&' | '|'
    )
}

/// `text` with every inline special character backslash-escaped.
pub fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_inline_special(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `line` (already [`inline`]-escaped) with its first character escaped
/// when a renderer would read the line as block markup: `#` (heading),
/// `-`, `+` (list item, rule), `=` (setext underline), `1.` / `1)` (ordered
/// list).
pub fn block_start(line: &str) -> String {
    if line.starts_with(['#', '-', '+', '=']) {
        return format!("\\{line}");
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && matches!(line.as_bytes().get(digits), Some(b'.' | b')')) {
        return format!("{}\\{}", &line[..digits], &line[digits..]);
    }
    line.to_string()
}

/// Both escapes of one line of plain text.
pub fn line(text: &str) -> String {
    block_start(&inline(text))
}

/// The text of escaped Markdown: a backslash before ASCII punctuation goes.
pub fn unescape(md: &str) -> std::borrow::Cow<'_, str> {
    if !md.contains('\\') {
        return md.into();
    }
    let mut out = String::with_capacity(md.len());
    let mut chars = md.chars().peekable();
    while let Some(c) = chars.next() {
        match chars.peek() {
            Some(&next) if c == '\\' && next.is_ascii_punctuation() => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out.into()
}

/// A code fence longer than any run of backticks in `body`, so that no line
/// of the page's preformatted text can close it.
pub fn fence_for(body: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in body.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat((longest + 1).max(3))
}

/// `<url>` (an autolink) for an http(s) URL that holds nothing that could
/// end it; anything else as escaped text, never a link.
pub fn link(url: &str) -> String {
    let http = url.starts_with("http://") || url.starts_with("https://");
    let plain =
        !url.contains(|c: char| c.is_whitespace() || c.is_control() || c == '<' || c == '>');
    if http && plain {
        format!("<{url}>")
    } else {
        inline(url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_text_never_becomes_markup() {
        assert_eq!(
            line("<img src=x onerror=alert(1)>"),
            "\\<img src=x onerror=alert(1)\\>"
        );
        assert_eq!(
            line("[x](javascript:alert(1))"),
            "\\[x\\](javascript:alert(1))"
        );
        assert_eq!(line("# not a heading"), "\\# not a heading");
        assert_eq!(line("- not a list"), "\\- not a list");
        assert_eq!(line("1984. A year"), "1984\\. A year");
        assert_eq!(
            line("*bold* and `code` &amp;"),
            "\\*bold\\* and \\`code\\` \\&amp;"
        );
        assert_eq!(line("1984 was a year"), "1984 was a year");
        assert_eq!(line("Plain text, 北京."), "Plain text, 北京.");
    }

    #[test]
    fn unescape_gives_the_text_back() {
        for text in [
            "<b>x</b> [y](z) # *a* _b_ \\ 1. & |",
            "plain",
            "C:\\path",
            "\\*",
        ] {
            assert_eq!(unescape(&line(text)), text);
        }
    }

    #[test]
    fn fences_outgrow_the_backticks_inside() {
        assert_eq!(fence_for("let x = 1;"), "```");
        assert_eq!(fence_for("```\nrm -rf\n```"), "````");
    }

    #[test]
    fn only_http_urls_become_links() {
        assert_eq!(link("https://h/a?b=1"), "<https://h/a?b=1>");
        assert_eq!(link("javascript:alert(1)"), "javascript:alert(1)");
        assert_eq!(link("http://h/a> <script>"), "http://h/a\\> \\<script\\>");
    }
}
