//! Batched writes: atomicity, article de-duplication, word counts.

use super::*;
use crate::store::Which;

#[test]
fn write_batch_is_atomic() {
    let mut s = Store::open_in_memory().unwrap();
    s.add_urls(&[url("https://a.test/1", "a", UrlKind::Article, 1)])
        .unwrap();
    let r = s.write_batch(vec![
        WriteOp::AddUrls(vec![url("https://a.test/2", "a", UrlKind::Article, 1)]),
        WriteOp::Article(article("https://a.test/1", "a", "T", "some text")),
        // No such frontier URL: this op fails, so the whole batch must go.
        WriteOp::Fetched(fetched(424242, NextState::Done, None)),
    ]);
    assert!(r.is_err());
    assert_eq!(s.counts().unwrap().queued, 1);
    assert_eq!(
        s.export(&crate::store::Selection::default(), |_| Ok(()))
            .unwrap(),
        0
    );
    assert!(s.search("text", 10).unwrap().is_empty());
}

#[test]
fn same_url_twice_and_same_body_twice_store_one_article() {
    let mut s = Store::open_in_memory().unwrap();
    let first = store_one(
        &mut s,
        article("https://a.test/1", "a", "T", "Line one.\nLine two."),
    );
    let WriteOutcome::ArticleStored { id, lines_dropped } = first else {
        panic!("{first:?}")
    };
    assert_eq!(lines_dropped, 0);
    assert_eq!(
        store_one(&mut s, article("https://a.test/1", "a", "T", "changed")),
        WriteOutcome::ArticleDuplicate { id }
    );
    assert_eq!(
        store_one(
            &mut s,
            article("https://a.test/1?amp", "a", "T", "Line one.\nLine two.")
        ),
        WriteOutcome::ArticleDuplicate { id }
    );
    // The same body on another site is another site's article.
    assert!(matches!(
        store_one(
            &mut s,
            article("https://b.test/1", "b", "T", "Line one.\nLine two.")
        ),
        WriteOutcome::ArticleStored { .. }
    ));
    assert_eq!(
        s.export(&crate::store::Selection::site("a"), |_| Ok(()))
            .unwrap(),
        1
    );
    let alias = s
        .article(ArticleRef::Url("https://a.test/1?amp".into()))
        .unwrap()
        .unwrap();
    assert_eq!(alias.id, id);
    assert_eq!(alias.url, "https://a.test/1");
    let hit = s.article(ArticleRef::Id(id)).unwrap().unwrap();
    assert_eq!(hit.article.text, "Line one.\nLine two.");
    assert_eq!(hit.word_count, 4);
    assert!(s.article(ArticleRef::Id(id + 100)).unwrap().is_none());
    assert!(s
        .article(ArticleRef::Url("https://nowhere.test/".into()))
        .unwrap()
        .is_none());
}

#[test]
fn article_lookup_accepts_an_unnormalised_url() {
    let mut s = Store::open_in_memory().unwrap();
    let WriteOutcome::ArticleStored { id, .. } = store_one(
        &mut s,
        article("https://a.test/story", "a", "T", "Body text."),
    ) else {
        panic!()
    };
    let got = s
        .article(ArticleRef::Url(
            "HTTPS://A.test:443/story?utm_source=rss#top".into(),
        ))
        .unwrap();
    assert_eq!(got.map(|a| a.id), Some(id));
}

#[test]
fn empty_text_is_not_stored() {
    let mut s = Store::open_in_memory().unwrap();
    assert_eq!(
        store_one(&mut s, article("https://a.test/1", "a", "T", "  \n\n ")),
        WriteOutcome::ArticleEmpty
    );
    assert_eq!(
        s.export(&crate::store::Selection::default(), |_| Ok(()))
            .unwrap(),
        0
    );
}

#[test]
fn content_hash_is_md5_hex() {
    assert_eq!(
        crate::store::rules::article::content_hash("hello"),
        "5d41402abc4b2a76b9719d911017c592"
    );
}

/// Throughput check, run by hand:
/// `cargo test --lib article_write_scale -- --ignored --nocapture`.
#[test]
#[ignore]
fn article_write_scale() {
    use std::time::Instant;
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(&dir.path().join("articles.db")).unwrap();
    let para = "The council met on Tuesday to discuss the harbour budget and the new tram line. ";
    let t = Instant::now();
    let n = 5000;
    for batch in 0..n / 100 {
        let ops = (0..100)
            .map(|i| {
                let k = batch * 100 + i;
                let text = format!("Story {k}.\n{}", para.repeat(40));
                WriteOp::Article(article(&format!("https://a.test/{k}"), "a", "T", &text))
            })
            .collect();
        s.write_batch(ops).unwrap();
    }
    let el = t.elapsed();
    println!(
        "{n} articles of ~3.3 kB in batches of 100: {el:?} ({:.0}/s)",
        n as f64 / el.as_secs_f64()
    );
    let sizes = s.conn.prepare(
        "SELECT CASE WHEN name LIKE 'articles_fts_cjk%' THEN 'trigram index'
                     WHEN name LIKE 'articles_fts%' THEN 'unicode61 index'
                     ELSE 'other' END AS part, sum(pgsize) FROM dbstat GROUP BY part",
    );
    if let Ok(mut q) = sizes {
        let rows = q
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
            .unwrap();
        for r in rows.flatten() {
            println!("{}: {:.1} MB", r.0, r.1 as f64 / 1e6);
        }
    }
    let t = Instant::now();
    let hits = s.search("harbour tram", 20).unwrap();
    println!("search over {n}: {:?}", t.elapsed());
    assert_eq!(hits.len(), 20);
}

/// The plain Li & Jiang rule: these tests are about the store's plumbing
/// (same transaction, reclean, FTS), not the guards measured in `boilerplate`.
pub(super) fn learning() -> crate::boilerplate::LineSettings {
    crate::boilerplate::LineSettings {
        variant: crate::boilerplate::Variant {
            mask_digits: true,
            guard_long_interior: false,
            guard_mostly_dropped: false,
        },
        ..Default::default()
    }
}

pub(super) fn learning_article(u: &str, body: &str) -> NewArticle {
    let mut a = article(u, "a", "T", body);
    a.lines = learning();
    a
}

const FIRST: &str =
    "The first story of the day tells of a harbour strike that ended on Monday night.";
const SECOND: &str =
    "The second story reports that the council passed its budget after a long debate.";

#[test]
fn boilerplate_lines_are_learned_and_dropped_in_the_write() {
    let mut s = Store::open_in_memory().unwrap();
    let template = "Subscribe to our newsletter today.\nCopyright Example News Group.";
    let first = store_one(
        &mut s,
        learning_article("https://a.test/1", &format!("{FIRST}\n{template}")),
    );
    assert!(matches!(
        first,
        WriteOutcome::ArticleStored {
            lines_dropped: 0,
            ..
        }
    ));
    let second = store_one(
        &mut s,
        learning_article("https://a.test/2", &format!("{SECOND}\n{template}")),
    );
    let WriteOutcome::ArticleStored { id, lines_dropped } = second else {
        panic!("{second:?}")
    };
    assert_eq!(lines_dropped, 2);
    let stored = s.article(ArticleRef::Id(id)).unwrap().unwrap();
    assert_eq!(stored.article.text, SECOND);
    assert_eq!(stored.word_count, 14);
    let stats = s.site_stats(50).unwrap();
    assert_eq!(stats[0].articles_processed, 2);
    assert_eq!(stats[0].boilerplate_lines, 2);
    // The raw text is kept for re-cleaning: the first article loses its
    // template once the site's lines are known.
    let changed = s
        .reclean(Some("a"), Which::All, |_| learning())
        .unwrap()
        .changed;
    assert_eq!(changed, 1);
    let first = s
        .article(ArticleRef::Url("https://a.test/1".into()))
        .unwrap()
        .unwrap();
    assert_eq!(first.article.text, FIRST);
    assert!(s.search("newsletter", 10).unwrap().is_empty());
}

#[test]
fn an_article_of_nothing_but_boilerplate_is_empty() {
    let mut s = Store::open_in_memory().unwrap();
    store_one(
        &mut s,
        learning_article(
            "https://a.test/1",
            "Share this story.\nAll rights reserved.",
        ),
    );
    // Same lines in another order: a different body hash, all lines known.
    let second = learning_article(
        "https://a.test/2",
        "All rights reserved.\nShare this story.",
    );
    assert_eq!(store_one(&mut s, second), WriteOutcome::ArticleEmpty);
    assert_eq!(
        s.export(&crate::store::Selection::default(), |_| Ok(()))
            .unwrap(),
        1
    );
}

#[test]
fn a_failed_batch_does_not_count_its_articles_in_the_line_table() {
    let mut s = Store::open_in_memory().unwrap();
    let r = s.write_batch(vec![
        WriteOp::Article(learning_article("https://a.test/1", "Body.\nFooter line.")),
        WriteOp::Fetched(fetched(999, NextState::Done, None)),
    ]);
    assert!(r.is_err());
    // Had RC/LC survived the rollback, the retry would see the footer twice.
    let again = store_one(
        &mut s,
        learning_article("https://a.test/1", "Body.\nFooter line."),
    );
    assert!(matches!(
        again,
        WriteOutcome::ArticleStored {
            lines_dropped: 0,
            ..
        }
    ));
    assert_eq!(s.site_stats(50).unwrap()[0].articles_processed, 1);
}

#[test]
fn a_known_canonical_url_is_never_claimed_and_names_the_article() {
    let mut s = Store::open_in_memory().unwrap();
    s.add_urls(&[
        url("https://a.test/story", "a", UrlKind::Article, 1),
        url("https://a.test/story-amp", "a", UrlKind::Article, 1),
    ])
    .unwrap();
    let claimed = s.claim_due(0, 1).unwrap();
    assert_eq!(claimed[0].url, "https://a.test/story");
    s.reset_in_flight().unwrap();
    // The AMP variant is fetched; it declares the plain URL canonical.
    let mut a = article("https://a.test/story-amp", "a", "T", "Storm text.");
    a.article.canonical_url = Some("https://a.test/story".into());
    let out = s
        .write_batch(vec![
            WriteOp::Known(vec![url("https://a.test/story", "a", UrlKind::Article, 1)]),
            WriteOp::Article(a),
        ])
        .unwrap();
    let id = match out[1] {
        WriteOutcome::ArticleStored { id, .. } => id,
        ref o => panic!("{o:?}"),
    };
    // Queued before: now done, so no claim hands it out.
    let left: Vec<String> = s
        .claim_due(0, 10)
        .unwrap()
        .into_iter()
        .map(|q| q.url)
        .collect();
    assert_eq!(left, ["https://a.test/story-amp"]);
    let c = s.counts().unwrap();
    assert_eq!(c.done, 1);
    assert_eq!(s.pages_by_site().unwrap()["a"], 0, "known is not fetched");
    let by_canonical = s
        .article(ArticleRef::Url("https://a.test/story".into()))
        .unwrap()
        .expect("found by its canonical URL");
    assert_eq!(by_canonical.id, id);
    // Another variant with the same canonical but a different body is the
    // same article.
    let mut b = article(
        "https://a.test/story?page=all",
        "a",
        "T",
        "Storm text, longer.",
    );
    b.article.canonical_url = Some("https://a.test/story".into());
    assert_eq!(store_one(&mut s, b), WriteOutcome::ArticleDuplicate { id });
    // A canonical URL the crawler did not record (another site) is not an alias.
    let mut c = article("https://a.test/other", "a", "T", "Different words.");
    c.article.canonical_url = Some("https://elsewhere.test/x".into());
    assert!(matches!(
        store_one(&mut s, c),
        WriteOutcome::ArticleStored { .. }
    ));
}

#[test]
fn a_refetched_article_is_updated_only_when_its_body_changed_and_learns_nothing() {
    let mut s = Store::open_in_memory().unwrap();
    let template = "Subscribe to our newsletter today.";
    let first = store_one(
        &mut s,
        learning_article("https://a.test/1", &format!("{FIRST}\n{template}")),
    );
    let WriteOutcome::ArticleStored { id, .. } = first else {
        panic!("{first:?}")
    };
    store_one(
        &mut s,
        learning_article("https://a.test/2", &format!("{SECOND}\n{template}")),
    );
    let lines_before = s.site_stats(1).unwrap()[0].clone();
    let refetch = |s: &mut Store, body: &str| {
        let a = learning_article("https://a.test/1", body);
        s.write_batch(vec![WriteOp::Refetched(a)])
            .unwrap()
            .pop()
            .unwrap()
    };
    // Same body: nothing happens.
    let same = refetch(&mut s, &format!("{FIRST}\n{template}"));
    assert_eq!(same, WriteOutcome::ArticleUnchanged { id });
    // A correction: text, raw text and the search index follow.
    let fixed = FIRST.replace("harbour strike", "dockworkers walkout");
    let out = refetch(&mut s, &format!("{fixed}\n{template}"));
    assert_eq!(out, WriteOutcome::ArticleUpdated { id });
    let stored = s.article(ArticleRef::Id(id)).unwrap().unwrap();
    assert!(stored.article.text.contains("dockworkers walkout"));
    assert!(!stored.article.text.contains("harbour"));
    assert_eq!(s.search("dockworkers", 10).unwrap()[0].id, id);
    assert!(s.search("harbour", 10).unwrap().is_empty());
    // The line table and RC are as before: the article counted once.
    let lines_after = s.site_stats(1).unwrap()[0].clone();
    assert_eq!(
        lines_after.articles_processed,
        lines_before.articles_processed
    );
    assert_eq!(lines_after.lines_tracked, lines_before.lines_tracked);
    // A body another article already has: left alone (one row per body).
    let taken = refetch(&mut s, &format!("{SECOND}\n{template}"));
    assert_eq!(taken, WriteOutcome::ArticleUnchanged { id });
    // An alias (duplicate URL) does not rewrite the article it points to.
    let dup = store_one(
        &mut s,
        learning_article("https://a.test/1-copy", &format!("{fixed}\n{template}")),
    );
    assert_eq!(dup, WriteOutcome::ArticleDuplicate { id });
    let a = learning_article("https://a.test/1-copy", "Something else entirely.");
    let out = s.write_batch(vec![WriteOp::Refetched(a)]).unwrap();
    assert_eq!(out, [WriteOutcome::ArticleUnchanged { id }]);
    assert!(s
        .article(ArticleRef::Id(id))
        .unwrap()
        .unwrap()
        .article
        .text
        .contains("dockworkers"));
}

/// Five distinct paragraphs of a story; `changed` replaces paragraph `i`.
/// (Paragraphs differ in words: lines that differ only in digits are one
/// line to the line table.)
fn story(topic: &str, changed: Option<(usize, &str)>) -> String {
    ["first", "second", "third", "fourth", "fifth"]
        .iter()
        .enumerate()
        .map(|(i, nth)| match changed {
            Some((j, text)) if i == j => text.to_string(),
            _ => format!(
                "The {nth} paragraph of the {topic} story tells what the council decided about {topic} and why residents care."
            ),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn regression_a_republished_copy_was_stored_again_and_taught_the_line_table() {
    let mut s = Store::open_in_memory().unwrap();
    let WriteOutcome::ArticleStored { id, .. } = store_one(
        &mut s,
        learning_article("https://a.test/1", &story("harbour", None)),
    ) else {
        panic!("the original is stored")
    };
    let update = story(
        "harbour",
        Some((2, "An update added this sentence about the harbour vote.")),
    );
    assert_eq!(
        store_one(&mut s, learning_article("https://a.test/1-v2", &update)),
        WriteOutcome::ArticleNearDuplicate { id }
    );
    // Counted once: the copy did not add to RC or to its lines' LC.
    let rc: i64 = s
        .conn
        .query_row("SELECT articles_processed FROM site_stats", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(rc, 1);
    let max_lc: i64 = s
        .conn
        .query_row("SELECT max(count) FROM line_hashes", [], |r| r.get(0))
        .unwrap();
    assert_eq!(max_lc, 1);
    // The copy's URL shows the article; its own text is kept as a version.
    let shown = s
        .article(ArticleRef::Url("https://a.test/1-v2".into()))
        .unwrap()
        .unwrap();
    assert_eq!(shown.id, id);
    let kept: String = s
        .conn
        .query_row(
            "SELECT raw_text FROM article_versions WHERE url = 'https://a.test/1-v2'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(kept, update);
    // Another story is an article of its own.
    assert!(matches!(
        store_one(
            &mut s,
            learning_article("https://a.test/2", &story("school", None))
        ),
        WriteOutcome::ArticleStored { .. }
    ));
}

#[test]
fn regression_an_original_after_two_stored_copies_was_stored_again() {
    // Two copies of one story, each with a long paragraph of its own, share
    // too little to be versions of each other, so both are stored and the
    // story's own lines reach LC 2. The original arriving next shares those
    // lines: it is a version of the first copy, not a third article.
    let mut s = Store::open_in_memory().unwrap();
    let para = |topic: &str, words: usize| -> String {
        (0..words)
            .map(|i| format!("{topic}{}", i % 7))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let (p0, p1) = (para("harbour", 14), para("council", 14));
    let original = format!("{p0}\n{p1}\n{}", para("vote", 20));
    let copy_a = format!("{p0}\n{p1}\n{}", para("update", 34));
    let copy_b = format!("{p0}\n{p1}\n{}", para("syndicated", 42));
    let WriteOutcome::ArticleStored { id: a, .. } =
        store_one(&mut s, learning_article("https://a.test/a", &copy_a))
    else {
        panic!("the first copy is stored")
    };
    assert!(matches!(
        store_one(&mut s, learning_article("https://a.test/b", &copy_b)),
        WriteOutcome::ArticleStored { .. }
    ));
    assert_eq!(
        store_one(&mut s, learning_article("https://a.test/o", &original)),
        WriteOutcome::ArticleNearDuplicate { id: a }
    );
}
