//! The end-of-crawl re-clean reads only the articles with a line whose
//! status changed after they were cleaned, and leaves the texts the full
//! re-clean would.

use super::writes::{learning, learning_article};
use super::*;
use crate::store::{Recleaned, Which};

const TEMPLATE: &str = "Subscribe to our newsletter today.\nCopyright Example News Group.";

fn texts(s: &Store) -> Vec<String> {
    let mut all = Vec::new();
    s.export(&Selection::default(), |a| {
        all.push(a.article.text.clone());
        Ok(())
    })
    .unwrap();
    all
}

/// A distinct story line per number (digits would be masked alike).
fn story(n: usize) -> String {
    const TOPICS: [&str; 10] = [
        "harbour", "council", "bridge", "orchard", "railway", "museum", "library", "stadium",
        "market", "theatre",
    ];
    let topic = TOPICS[n % TOPICS.len()];
    format!("The {topic} story tells how the {topic} reopened after the long winter storms.")
}

#[test]
fn reclean_reads_only_articles_whose_lines_changed_status() {
    let mut s = Store::open_in_memory().unwrap();
    // 1: stored before the template is known, so it keeps it.
    store_one(
        &mut s,
        learning_article("https://a.test/1", &format!("{}\n{TEMPLATE}", story(1))),
    );
    // 2: the template lines become boilerplate here (LC 2 > 1), so 2 is
    // cleaned with them dropped; only 1 was cleaned before the change.
    store_one(
        &mut s,
        learning_article("https://a.test/2", &format!("{}\n{TEMPLATE}", story(2))),
    );
    // 3: none of its lines ever changed status.
    store_one(&mut s, learning_article("https://a.test/3", &story(3)));
    let done = s
        .reclean(Some("a"), Which::Changed, |_| learning())
        .unwrap();
    assert_eq!(
        done,
        Recleaned {
            examined: 1,
            changed: 1
        }
    );
    assert_eq!(texts(&s), [story(1), story(2), story(3)]);
    // Nothing pending any more, and the full walk finds nothing to change.
    let again = s.reclean(None, Which::Changed, |_| learning()).unwrap();
    assert_eq!(again, Recleaned::default());
    assert_eq!(
        s.reclean(None, Which::All, |_| learning()).unwrap().changed,
        0
    );
}

#[test]
fn a_line_that_falls_back_below_the_threshold_is_restored_where_it_was_dropped() {
    // L = 10: t = 1 until RC = 10, then 2. "Menu" is in articles 1 and 2:
    // LC 2 > 1 drops it from 2; at RC = 10, LC 2 ≤ 2 keeps it again, so 2
    // must get it back (the threshold step, with no LC change).
    let settings = LineSettings {
        rule: crate::boilerplate::LineRule { window: 10 },
        ..learning()
    };
    let with_settings = |u: &str, body: &str| {
        let mut a = learning_article(u, body);
        a.lines = settings;
        a
    };
    let mut s = Store::open_in_memory().unwrap();
    for n in 1..=2 {
        let body = format!("Menu\n{}", story(n));
        store_one(&mut s, with_settings(&format!("https://a.test/{n}"), &body));
    }
    assert_eq!(texts(&s)[1], story(2));
    for n in 3..=10 {
        store_one(
            &mut s,
            with_settings(&format!("https://a.test/{n}"), &story(n)),
        );
    }
    let done = s.reclean(None, Which::Changed, |_| settings).unwrap();
    assert_eq!(
        done,
        Recleaned {
            examined: 2,
            changed: 1
        }
    );
    assert_eq!(texts(&s)[1], format!("Menu\n{}", story(2)));
    assert_eq!(
        s.reclean(None, Which::All, |_| settings).unwrap().changed,
        0
    );
}

#[test]
fn a_site_stored_without_learning_for_a_while_gets_the_full_walk() {
    let mut s = Store::open_in_memory().unwrap();
    // Learning off: stored raw, lines not indexed.
    for n in 1..=2 {
        let body = format!("{}\n{TEMPLATE}", story(n));
        store_one(
            &mut s,
            article(&format!("https://a.test/{n}"), "a", "T", &body),
        );
    }
    for n in 3..=4 {
        let body = format!("{}\n{TEMPLATE}", story(n));
        store_one(
            &mut s,
            learning_article(&format!("https://a.test/{n}"), &body),
        );
    }
    let done = s.reclean(None, Which::Changed, |_| learning()).unwrap();
    assert_eq!(
        done,
        Recleaned {
            examined: 4,
            changed: 3
        }
    );
    assert_eq!(texts(&s), (1..=4).map(story).collect::<Vec<_>>());
    // The walk indexed every line: the next re-clean is incremental again.
    store_one(&mut s, learning_article("https://a.test/5", &story(5)));
    assert_eq!(
        s.reclean(None, Which::Changed, |_| learning())
            .unwrap()
            .examined,
        0
    );
}

#[test]
fn changed_line_settings_make_the_next_reclean_walk_every_article() {
    let mut s = Store::open_in_memory().unwrap();
    for n in 1..=3 {
        let body = format!("{}\n{TEMPLATE}", story(n));
        store_one(
            &mut s,
            learning_article(&format!("https://a.test/{n}"), &body),
        );
    }
    s.reclean(None, Which::Changed, |_| learning()).unwrap();
    // A window of 1: t = 1 + RC, so the template (LC 3 ≤ 4) is kept again.
    let wide = LineSettings {
        rule: crate::boilerplate::LineRule { window: 1 },
        ..learning()
    };
    let done = s.reclean(None, Which::Changed, |_| wide).unwrap();
    assert_eq!(
        done,
        Recleaned {
            examined: 3,
            changed: 3
        }
    );
    assert!(texts(&s)
        .iter()
        .all(|t| t.ends_with("Copyright Example News Group.")));
}

#[test]
fn a_refetched_article_is_found_by_its_new_lines() {
    let mut s = Store::open_in_memory().unwrap();
    store_one(&mut s, learning_article("https://a.test/1", &story(1)));
    // The refetched body carries a line the site has not seen yet; it turns
    // into boilerplate with article 2, after the refetch was cleaned.
    let mut refetch = learning_article("https://a.test/1", &format!("{}\nPromo line", story(1)));
    refetch.fetched_at += 1;
    let out = s.write_batch(vec![WriteOp::Refetched(refetch)]).unwrap();
    assert!(
        matches!(out[0], WriteOutcome::ArticleUpdated { .. }),
        "{out:?}"
    );
    // LC counts articles learned from; the refetch learned nothing, so two
    // more articles push "Promo line" past t = 1.
    for n in 2..=3 {
        let body = format!("{}\nPromo line", story(n));
        store_one(
            &mut s,
            learning_article(&format!("https://a.test/{n}"), &body),
        );
    }
    let done = s.reclean(None, Which::Changed, |_| learning()).unwrap();
    assert!(done.changed >= 1, "{done:?}");
    assert_eq!(texts(&s)[0], story(1));
    assert_eq!(
        s.reclean(None, Which::All, |_| learning()).unwrap().changed,
        0
    );
}
