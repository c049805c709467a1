//! Judging again on both stores: a page judged not an article for want
//! of evidence is queued again when that evidence comes (and only such a
//! page), a page judged an article becomes an article URL, a shape's
//! stories are counted and a revised shape's listings dropped.

use crate::store::pg::testing::TestDb;
use crate::store::pg::PgStore;
use crate::store::{
    AnyStore, ClaimFilter, FetchRecord, NewUrl, NextState, PageJudgement, Rejudge, ShapeCounts,
    ShapeUpdate, Store, UrlKind, WriteOp, WriteOutcome,
};

fn new_url(url: &str, kind: UrlKind) -> NewUrl {
    NewUrl {
        url: url.into(),
        site: "news".into(),
        kind,
        depth: 1,
        priority: 0,
    }
}

fn fetched(url_id: i64, reason: &'static str, article: bool, kind: UrlKind) -> WriteOp {
    WriteOp::Fetched(FetchRecord {
        url_id,
        started_at: 5_000,
        status: Some(200),
        error_kind: None,
        bytes: 100,
        elapsed_ms: 1,
        final_url: None,
        content_type: Some("text/html".into()),
        etag: None,
        last_modified: None,
        next: NextState::Done,
        judgement: Some(PageJudgement {
            article,
            reason,
            kind: PageJudgement::kind_after(article, kind),
        }),
        refused_under: None,
        note: None,
    })
}

const UNDATED: &str = "http://n.test/world/storm-hits-the-coast/";
const LISTED: &str = "http://n.test/world/council-passes-budget/";
const FORM: &str = "http://n.test/account/sign-in";
const STORY: &str = "http://n.test/world/schools-reopen-today/";

/// (kind, state) of the URL `url`.
fn row(store: &mut AnyStore, url: &str) -> (String, String) {
    store
        .sql()
        .one(
            "SELECT kind, state FROM urls WHERE url = ?1",
            &[url.into()],
            |r| Ok((r.text(0)?, r.text(1)?)),
        )
        .unwrap_or_else(|e| panic!("{url}: {e}"))
}

fn judged_again(store: &mut AnyStore) {
    let write =
        |store: &mut AnyStore, ops| store.write_batch(ops).unwrap_or_else(|e| panic!("{e}"));
    write(
        store,
        vec![WriteOp::AddUrls(vec![
            new_url(UNDATED, UrlKind::Page),
            new_url(LISTED, UrlKind::Article),
            new_url(FORM, UrlKind::Page),
            new_url(STORY, UrlKind::Page),
        ])],
    );
    let claimed = store
        .claim_due_for(i64::MAX, 10, &ClaimFilter::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(claimed.len(), 4);
    let ops = (claimed.iter())
        .map(|q| match q.url.as_str() {
            UNDATED => fetched(q.id, "undated", false, q.kind),
            LISTED => fetched(q.id, "undated", false, q.kind),
            FORM => fetched(q.id, "form_page", false, q.kind),
            _ => fetched(q.id, "body_headline_date", true, q.kind),
        })
        .collect();
    write(store, ops);
    // Found through a link and judged an article: an article URL now.
    assert_eq!(row(store, STORY).0, "article");
    assert_eq!(row(store, UNDATED).0, "page");
    assert_eq!(
        store
            .judged_for(&["news".into()], &["undated", "index_shape"], 10)
            .unwrap_or_else(|e| panic!("{e}")),
        [("news".to_string(), UNDATED.to_string())],
        "a listed page had its evidence; a form is no story"
    );
    // New evidence for all four: only the undated page found through a
    // link is queued again, as an article.
    let all = [UNDATED, LISTED, FORM, STORY].map(|u| new_url(u, UrlKind::Article));
    let out = write(
        store,
        vec![WriteOp::Rejudge(Rejudge {
            urls: all.to_vec(),
            reasons: vec!["undated", "no_article_evidence", "index_shape"],
        })],
    );
    assert_eq!(out, [WriteOutcome::UrlsRejudged(1)]);
    assert_eq!(row(store, UNDATED), ("article".into(), "queued".into()));
    for url in [LISTED, FORM, STORY] {
        assert_eq!(row(store, url).1, "done", "{url}");
    }
    let due = store
        .claim_due_for(0, 10, &ClaimFilter::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(due.len(), 1, "due at once");
    // Stories counted; a revised shape's listings and others dropped.
    let counts = |a, l, o, s| ShapeCounts {
        shape: "/world/{slug}/".into(),
        articles: a,
        listings: l,
        others: o,
        stories: s,
    };
    let update = |c, revised: bool| {
        WriteOp::Shapes(ShapeUpdate {
            site: "news".into(),
            counts: vec![c],
            revised: if revised {
                vec!["/world/{slug}/".into()]
            } else {
                Vec::new()
            },
        })
    };
    write(store, vec![update(counts(0, 3, 1, 0), false)]);
    write(
        store,
        vec![
            update(counts(0, 0, 0, 1), true),
            update(counts(1, 0, 0, 0), false),
        ],
    );
    let shapes = store.url_shapes().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(shapes, [("news".to_string(), counts(1, 0, 0, 1))]);
}

#[test]
fn pages_are_judged_again_on_new_evidence_on_sqlite() {
    let mut store = AnyStore::from(Store::open_in_memory().unwrap_or_else(|e| panic!("{e}")));
    judged_again(&mut store);
}

#[test]
fn pages_are_judged_again_on_new_evidence_on_postgres() {
    let db = TestDb::new();
    let mut store = AnyStore::from(PgStore::open(&db.url).unwrap_or_else(|e| panic!("{e}")));
    judged_again(&mut store);
}
