//! `stats --top N` on a site whose lines never repeat.

use crate::support::{newshound, stderr, stdout};

/// With no line seen in two articles, `--top 5` printed nothing at all for
/// the site: no line, no word.
#[test]
fn regression_stats_top_printed_nothing_when_no_line_repeats() {
    use newshound::boilerplate::LineSettings;
    use newshound::extract::Article;
    use newshound::store::{NewArticle, Store, WriteOp};
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("one.db")).unwrap();
    let ops = ["alpha", "beta"]
        .iter()
        .enumerate()
        .map(|(i, word)| {
            WriteOp::Article(NewArticle {
                url: format!("http://127.0.0.1:9/a/{i}"),
                url_id: None,
                site: "quiet".into(),
                fetched_at: 1,
                article: Article {
                    title: Some(format!("Story {i}")),
                    text: format!("The {word} story has a line of its own.\nAnd {word} more."),
                    ..Article::default()
                },
                lines: LineSettings::default(),
                html: None,
            })
        })
        .collect();
    store.write_batch(ops).unwrap();
    drop(store);
    let out = newshound(&["--db", "one.db", "stats", "--top", "5"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("no line repeats yet: of its 2 articles, no line was seen in two"),
        "{text}"
    );
}
