//! The extraction method per article (`articles.method`, migration 0009):
//! written with the article, read back, filled in by `reextract`.

use super::*;
use crate::extract::Method;

fn stored_method(s: &Store, id: i64) -> Option<Method> {
    s.article(ArticleRef::Id(id)).unwrap().unwrap().method
}

#[test]
fn the_method_is_stored_with_the_article_and_read_back() {
    let mut s = Store::open_in_memory().unwrap();
    let mut a = article("https://a.test/1", "a", "T", "Body from the JSON-LD.");
    a.article.method = Method::Schema;
    let WriteOutcome::ArticleStored { id, .. } = store_one(&mut s, a) else {
        panic!("stored")
    };
    assert_eq!(stored_method(&s, id), Some(Method::Schema));
    let got = s.article(ArticleRef::Id(id)).unwrap().unwrap();
    assert_eq!(got.article.method, Method::Schema);
}

#[test]
fn reextract_records_the_method_of_articles_stored_before_0009() {
    let mut s = Store::open_in_memory().unwrap();
    let WriteOutcome::ArticleStored { id, .. } =
        store_one(&mut s, article("https://a.test/1", "a", "T", "Same text."))
    else {
        panic!("stored")
    };
    s.conn
        .execute("UPDATE articles SET method = NULL WHERE id = ?1", [id])
        .unwrap();
    assert_eq!(stored_method(&s, id), None, "unknown before 0009");
    let again = Reextracted {
        article_id: id,
        article: Article {
            text: "Same text.".into(),
            title: Some("T".into()),
            published_at: Some("2026-11-26T01:00:00Z".into()),
            method: Method::Fallback,
            ..Article::default()
        },
    };
    let mut any = AnyStore::from(s);
    let counts = any
        .apply_reextracted("k", &[again], id, &|_| off())
        .unwrap();
    let AnyStore::Sqlite(s) = any else {
        unreachable!("opened on SQLite")
    };
    assert_eq!((counts.changed, counts.metadata_only), (0, 1));
    assert_eq!(stored_method(&s, id), Some(Method::Fallback));
}
