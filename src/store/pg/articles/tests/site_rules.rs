//! `tree` site rules on PostgreSQL: learned, counted, dropped, relearned;
//! processes add up.

use crate::store::pg::testing::TestDb;
use crate::store::pg::PgStore;
use crate::store::portable::writes::record_site_rule;
use crate::store::SiteRuleUpdate;

fn update(by_rule: bool, dropped: bool, learned: Option<&str>) -> SiteRuleUpdate {
    SiteRuleUpdate {
        site: "news".into(),
        by_rule,
        dropped,
        learned: learned.map(|d| (format!("{{\"path\":\"{d}\"}}"), d.to_string())),
    }
}

/// (display, pages by rule, pages by tree, dropped) of the site.
fn rule_of(store: &mut PgStore) -> (Option<String>, i64, i64, i64) {
    let row = store
        .client()
        .query_one(
            "SELECT r.display, r.pages_by_rule, r.pages_by_tree, r.dropped FROM site_rules r
             JOIN sites s ON s.id = r.site_id WHERE s.name = 'news'",
            &[],
        )
        .unwrap_or_else(|e| panic!("{e}"));
    (row.get(0), row.get(1), row.get(2), row.get(3))
}

fn record(store: &mut PgStore, updates: Vec<SiteRuleUpdate>) {
    let mut tx = store
        .client()
        .transaction()
        .unwrap_or_else(|e| panic!("{e}"));
    for u in updates {
        record_site_rule(&mut tx, &u).unwrap_or_else(|e| panic!("{e}"));
    }
    tx.commit().unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn rule_is_learned_counted_dropped_and_relearned_on_postgres() {
    let db = TestDb::new();
    let mut store = PgStore::open(&db.url).unwrap_or_else(|e| panic!("{e}"));
    record(
        &mut store,
        vec![
            update(false, false, Some("div#story")),
            update(true, false, None),
            update(true, false, None),
        ],
    );
    // A second process's pages add to the same counts.
    let mut other = PgStore::open(&db.url).unwrap_or_else(|e| panic!("{e}"));
    record(&mut other, vec![update(true, false, None)]);
    assert_eq!(rule_of(&mut store), (Some("div#story".into()), 3, 1, 0));

    // A redesign: the rule is dropped; no new one could be learned.
    record(&mut store, vec![update(false, true, None)]);
    assert_eq!(rule_of(&mut store), (None, 3, 2, 1));

    // Relearned on the next page.
    record(
        &mut other,
        vec![update(false, false, Some("main > article"))],
    );
    assert_eq!(
        rule_of(&mut store),
        (Some("main > article".into()), 3, 3, 1)
    );
}
