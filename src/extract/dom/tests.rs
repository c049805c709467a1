use super::count::is_punct;
use super::*;

#[test]
fn count_text_counts_as_chars_do() {
    let by_chars = |t: &str| {
        let kept = t.chars().filter(|c| !c.is_whitespace());
        let punct = t.chars().filter(|&c| is_punct(c)).count();
        (kept.count() as u32, punct as u32)
    };
    for t in [
        "",
        "Plain ASCII, with punctuation: yes!\t\n",
        "\u{201c}Quoted\u{201d} \u{2014} a dash\u{a0}and a no-break space\u{2026}",
        "Ita\u{ad}li\u{ad}ens Stra\u{df}e. \u{3000}\u{4e2d}\u{6587}\u{3002}\u{ff0c}\u{3001}",
        "\u{1f600} emoji \u{2028} \u{85}\u{1680}\u{202f}\u{205f}\u{2009} end.",
        "0123456789abcde\u{e9}\u{e9} straddles eight-byte words \u{2026}",
    ] {
        assert_eq!(count_text(t), by_chars(t), "{t:?}");
    }
}

#[test]
fn arena_ranges_and_stats() {
    let doc = Html::parse_document(
        "<body><div><p>Hello, world.</p><a href=x>link</a></div><p>two</p></body>",
    );
    let dom = Dom::build(&doc);
    assert_eq!(dom.nodes[0].tag, Tag::Body);
    let st = dom.stats(&vec![false; dom.len()]);
    // body: div, p, a, p = 5 tags with itself; chars 12 + 4 + 3.
    assert_eq!(st[0].tags, 5);
    assert_eq!(st[0].chars, 19);
    assert_eq!(st[0].link_chars, 4);
    assert_eq!(st[0].link_tags, 1);
    assert_eq!(st[0].punct, 2);
    let kids: Vec<usize> = dom.children(0).collect();
    assert_eq!(kids.len(), 2);
    assert_eq!(dom.nodes[kids[0]].tag, Tag::Div);
    let mut removed = vec![false; dom.len()];
    removed[kids[0]] = true;
    let st = dom.stats(&removed);
    assert_eq!(st[0].chars, 3);
    assert_eq!(st[0].tags, 2);
}

#[test]
fn itemprop_articlebody_in_lower_case_is_the_article_body() {
    let doc = Html::parse_document(
        "<body><span itemprop=articlebody class=rs_skip>Text.</span>             <div itemprop='articleBody'>More.</div><p itemprop=headline>H</p></body>",
    );
    let dom = Dom::build(&doc);
    let body: Vec<bool> = dom
        .nodes
        .iter()
        .map(|n| n.flags & attr_flags::ARTICLE_BODY != 0)
        .collect();
    let flagged: Vec<&str> = (0..dom.len())
        .filter(|&i| body[i])
        .filter_map(|i| dom.nodes[i].el.map(|e| e.name()))
        .collect();
    assert_eq!(flagged, ["span", "div"]);
}
