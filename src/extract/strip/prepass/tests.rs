use super::*;

fn pre(html: &str) -> String {
    prepass(html, 512).into_owned()
}

#[test]
fn untouched_page_is_borrowed() {
    let html = "<html><body><div class=a><p id='x'>Text &amp; more</p></div></body></html>";
    assert!(matches!(prepass(html, 512), Cow::Borrowed(_)));
}

#[test]
fn comments_in_every_form_go() {
    assert_eq!(pre("a<!-- c -->b"), "ab");
    assert_eq!(pre("a<!-->b"), "ab");
    assert_eq!(pre("a<!--->b"), "ab");
    assert_eq!(pre("a<!-- x --!>b"), "ab");
    assert_eq!(pre("a<!-- - -- ->b-->c"), "ac");
    assert_eq!(pre("a<!--[if IE]><p>old</p><![endif]-->b"), "ab");
    // Never closed: the tokenizer reads the rest of the page as the comment.
    assert_eq!(pre("a<!-- open <p>b</p>"), "a");
}

#[test]
fn scripts_styles_and_raw_text_elements_go_with_their_content() {
    let out = pre(
        "<head><style>p{}</style><script>var s='<p>x</p>';</script></head>\
         <body><noscript><p>Enable JS</p></noscript><iframe src=x>fallback</iframe>\
         <textarea>typed <b>text</b></textarea><p>Hello</p>\
         <SCRIPT type=text/javascript>if (a</b) {}</SCRIPT ><p>World</p></body>",
    );
    assert_eq!(
        out, "<head></head><body><p>Hello</p><p>World</p></body>",
        "{out}"
    );
}

#[test]
fn script_end_needs_a_real_end_tag() {
    // `</scripts` does not end a script; `</script/` does.
    let out = pre("<script>a='</scripts>'</script/>after");
    assert_eq!(out, "after");
    // A script that never ends holds the rest of the page.
    assert_eq!(pre("<p>x</p><script>var a = 1; <p>y</p>"), "<p>x</p>");
}

#[test]
fn regression_a_self_closing_title_in_an_svg_swallowed_the_rest_of_the_page() {
    // Icon sets write `<svg><title/>…</svg>`: in foreign content that is an
    // empty element, so a script after it still goes and links still count.
    let out = pre("<svg><title/><path/></svg><p>a</p><script>s</script><p>b</p>");
    assert_eq!(out, "<svg><title/><path/></svg><p>a</p><p>b</p>", "{out}");
    let out = pre("<math><title/></math><script>s</script>c");
    assert_eq!(out, "<math><title/></math>c", "{out}");
    // Outside foreign content `<title/>` is raw text up to `</title>`, as
    // the parser reads it; after `</svg>` too.
    assert_eq!(
        pre("<title/>a<script>s</script></title>b"),
        "<title/>a<script>s</script></title>b"
    );
    let out = pre("<svg/><title/>a<script>s</script></title>b");
    assert_eq!(out, "<svg/><title/>a<script>s</script></title>b", "{out}");
}

#[test]
fn json_ld_is_kept() {
    let html =
        r#"<script type="application/ld+json">{"a":"<!-- not a comment -->"}</script><p>x</p>"#;
    assert_eq!(pre(html), html);
}

#[test]
fn markup_inside_attribute_values_and_rcdata_is_text() {
    // `<script` and `<!--` inside a quoted value are not markup.
    let html = r#"<div class="a<script>b" id='<!--'>keep</div><title>a <!-- b</title><p>c</p>"#;
    assert_eq!(pre(html), html);
}

#[test]
fn inputs_go_and_images_stay_bare() {
    assert_eq!(
        pre(r#"<p>a<img src="x.png" alt="A > B">b<input type=text value=v>c</p>"#),
        "<p>a<img>bc</p>"
    );
}

#[test]
fn unread_attributes_go_and_read_ones_stay() {
    let out = pre(
        r#"<a href="/x" title=t class=c onclick="f('>')" rel=author>l</a><link rel=canonical href="https://e.com/a"><div data-x='1' style="color:red" ID=k>d</div><div style="display: NONE">h</div><meta property="og:title" content="T">"#,
    );
    assert_eq!(
        out,
        r#"<a class=c rel=author>l</a><link rel=canonical href="https://e.com/a"><div ID=k>d</div><div style="display: NONE">h</div><meta property="og:title" content="T">"#
    );
}

#[test]
fn self_closing_slash_survives_but_not_a_value_slash() {
    assert_eq!(pre("<br data-a=1/>"), "<br>");
    assert_eq!(pre("<br data-a=1 />"), "<br/>");
    assert_eq!(pre("<p class=a data-b=c/>x"), "<p class=a>x");
}

#[test]
fn unfinished_tag_at_the_end_is_left_alone() {
    let html = "<p>x</p><div data-a=\"1";
    assert_eq!(pre(html), html);
}

#[test]
fn attributes_without_spaces_and_stray_quotes() {
    // `class="a"id="b"`: two attributes; `x"y` is one attribute name.
    assert_eq!(
        pre(r#"<div class="a"id="b"data-c="d" x"y>t</div>"#),
        r#"<div class="a" id="b">t</div>"#
    );
}

#[test]
fn deep_nesting_is_flattened_and_text_kept() {
    let html = "<div><div><div><p>x</div></div></div>";
    assert!(matches!(prepass(html, 3), Cow::Borrowed(_)));
    let deep = "<div><div><span a='>'>t</span></div></div>";
    assert_eq!(prepass(deep, 1), "<div>t</div>");
    let mut many = String::new();
    for _ in 0..10_000 {
        many.push_str("<div>");
    }
    many.push_str("deep text");
    let out = prepass(&many, 512);
    assert_eq!(out.matches("<div>").count(), 512);
    assert!(out.ends_with("deep text"));
}

#[test]
fn odd_bytes_do_not_panic() {
    for html in [
        "",
        "<",
        "<!",
        "<!-",
        "<!--",
        "</",
        "</>",
        "<a",
        "<a ",
        "<a b",
        "<a b=",
        "<a b='",
        "<a b=\"",
        "<script",
        "<script>",
        "</script",
        "<title>",
        "<plaintext><!-- x",
        "<p>é<!--ü-->漢</p>",
        "<\u{1F600}>",
        "a < b > c",
    ] {
        let out = prepass(html, 4);
        assert!(out.len() <= html.len(), "{html:?} -> {out:?}");
    }
    assert_eq!(pre("<p>é<!--ü-->漢</p>"), "<p>é漢</p>");
}

#[test]
fn line_breaks_in_text_become_one_space_outside_pre() {
    assert_eq!(
        pre("<p>one\n  two</p>\n\n  <p>three \r\n\tfour</p>"),
        "<p>one two</p> <p>three four</p>"
    );
    // Single spaces and runs without a line break are left as they are.
    let html = "<p>a  b</p> <p>c</p>";
    assert!(matches!(prepass(html, 512), Cow::Borrowed(_)));
    // In <pre> the line breaks are text.
    let pre_block = "<pre>line 1\n  line 2</pre>\n<PRE><b>x</b>\ny</PRE>";
    assert_eq!(
        pre(pre_block),
        "<pre>line 1\n  line 2</pre> <PRE><b>x</b>\ny</PRE>"
    );
    // Inside raw-text elements and attribute values nothing is touched.
    let raw = "<title>a\nb</title><div class=\"x\ny\">t</div>";
    assert_eq!(pre(raw), raw);
}

/// Random soups of the tokens the scan cares about: no panic (a cut inside
/// a UTF-8 sequence would panic), and text outside tags is never invented.
#[test]
fn token_soup_never_panics() {
    const TOKENS: [&str; 24] = [
        "<", ">", "!--", "-->", "--!>", "script", "</", "style", "pre", "\"", "'", "=", " ", "\n",
        "a", "é", "漢", "/", "img", "title", "x", "ld+json", "href", "data-x",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..20_000 {
        let len = (next() % 40) as usize;
        let soup: String = (0..len)
            .map(|_| TOKENS[(next() % TOKENS.len() as u64) as usize])
            .collect();
        let out = prepass(&soup, 3);
        if !soup.contains('<') {
            // Without markup only line-break runs change.
            assert_eq!(
                out.replace(' ', ""),
                soup.replace([' ', '\n'], ""),
                "{soup:?}"
            );
        }
    }
}

#[test]
fn find_ci_finds_the_first_match_in_any_case_from_the_offset() {
    let hay = b"a<TiTle x><title></TITLE";
    assert_eq!(find_ci(hay, 0, b"<title"), Some(1));
    assert_eq!(find_ci(hay, 2, b"<title"), Some(10));
    assert_eq!(find_ci(hay, 0, b"</title"), Some(17));
    assert_eq!(find_ci(hay, 18, b"</title"), None);
    assert_eq!(find_ci(hay, 0, b"<tit"), Some(1));
    assert_eq!(find_ci(b"<ti", 0, b"<title"), None);
    // Needles are lower case: an upper-case one matches nothing.
    assert_eq!(find_ci(hay, 0, b"TITLE"), None);
}

#[test]
fn common_character_references_in_text_become_their_characters() {
    assert_eq!(
        pre(
            "<p class=\"a&nbsp;b\">A&nbsp;B &quot;C&#8217;s&quot; &amp; &lt;D&gt; &copy&nbsp x</p>"
        ),
        "<p class=\"a&nbsp;b\">A\u{a0}B \"C\u{2019}s\" &amp; &lt;D&gt; &copy&nbsp x</p>"
    );
}

#[test]
fn character_references_stay_where_the_parser_does_not_decode_them() {
    // A doctype, a bogus comment and an SVG CDATA section keep them; a
    // raw-text title is left to the parser.
    let html = "<!DOCTYPE x &nbsp;><?xml &nbsp;?></ &nbsp;><title>&nbsp;</title>\
                <svg><![CDATA[&nbsp;]]></svg><p>&nbsp;</p>";
    assert_eq!(
        pre(html),
        "<!DOCTYPE x &nbsp;><?xml &nbsp;?></ &nbsp;><title>&nbsp;</title>\
         <svg><![CDATA[&nbsp;]]></svg><p>\u{a0}</p>"
    );
}

#[test]
fn plain_selects_and_buttons_go_whole() {
    assert_eq!(
        pre("a<select name=x><option value='</select>'>One<option>Two</option>\
             <optgroup label=g><option>3</optgroup></select >b<BUTTON type=submit>Go &amp; see</button>c"),
        "abc"
    );
    // Anything else inside is left to the lol_html pass (which finds their
    // end as it always did).
    for html in [
        "<button><span>Go</span></button>",
        "<select><option>1</option><select><option>2</select></select>",
        "<button>Go",
        "<svg><button>Go</button></svg>",
    ] {
        assert!(
            pre(html).contains("Go") || pre(html).contains("<option>"),
            "{html}"
        );
    }
}

#[test]
fn strip_removes_form_controls_as_the_rewriter_does() {
    // The same text whether the prepass or the lol_html pass removes them.
    let page = "<p>Before</p>\n  <select>\n<option>One\n<option>Two</select>\n  \
                <p>Mid <button>Send</button> after</p><button><b>Bold</b></button><p>End</p>";
    let stripped = super::super::strip(page);
    assert_eq!(
        stripped, "<p>Before</p>  <p>Mid  after</p><p>End</p>",
        "{stripped}"
    );
}

#[test]
fn regression_an_icon_sprite_of_self_closing_paths_took_the_page_after_it() {
    // An SVG sprite of more self-closing shapes than the depth limit: each
    // `<path/>` is a whole element, so none deepens the tree, the `</svg>`
    // stays, and the article after the sprite survives the strip.
    let sprite: String = (0..600)
        .map(|k| format!("<symbol id=i{k}><path d='M0 0'/></symbol>"))
        .collect();
    let page =
        format!("<body><svg width=0>{sprite}</svg><article><p>The story.</p></article></body>");
    let out = pre(&page);
    assert!(
        out.contains("</svg><article><p>The story.</p>"),
        "{}",
        &out[out.len() - 200..]
    );
    let stripped = super::super::strip(&page);
    assert!(stripped.contains("The story."), "{stripped}");
    // Open elements still count inside foreign content.
    let deep = format!("<svg>{}</svg><p>after</p>", "<g>".repeat(600));
    assert!(pre(&deep).contains("<p>after</p>"));
}
