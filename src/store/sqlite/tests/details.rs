//! An article's details (authors as a list, description, section, tags,
//! image, paywall): written with the article, read back, rewritten by
//! `reextract`, filled in for the articles of older databases, and the
//! filters of `search` and `export` on them.

use super::*;

fn detailed(u: &str, authors: &[&str], section: &str, tags: &[&str]) -> NewArticle {
    let mut a = article(u, "a", "Harbour reopens", "The harbour reopened on Monday.");
    a.article.authors = authors.iter().map(|s| s.to_string()).collect();
    a.article.section = Some(section.into());
    a.article.tags = tags.iter().map(|s| s.to_string()).collect();
    a.article.description = Some("After a month of repairs.".into());
    a.article.image = Some("https://a.test/lead.jpg".into());
    a.article.paywalled = Some(true);
    a
}

fn urls(s: &Store, sel: &Selection) -> Vec<String> {
    let mut out = Vec::new();
    s.export(sel, |a| {
        out.push(a.url.clone());
        Ok(())
    })
    .unwrap();
    out
}

#[test]
fn details_are_stored_with_the_article_and_read_back() {
    let mut s = Store::open_in_memory().unwrap();
    let a = detailed(
        "https://a.test/1",
        &["Jane Roe", "John Doe"],
        "Local",
        &["Harbour", "Port"],
    );
    let WriteOutcome::ArticleStored { id, .. } = store_one(&mut s, a.clone()) else {
        panic!("stored")
    };
    let got = s.article(ArticleRef::Id(id)).unwrap().unwrap().article;
    assert_eq!(got.authors, a.article.authors);
    assert_eq!(got.author().as_deref(), Some("Jane Roe, John Doe"));
    assert_eq!(got.section, a.article.section);
    assert_eq!(got.tags, a.article.tags);
    assert_eq!(got.description, a.article.description);
    assert_eq!(got.image, a.article.image);
    assert_eq!(got.paywalled, Some(true));
    // The joined display string stays in `author` for older readers.
    let author: Option<String> = s
        .conn
        .query_row("SELECT author FROM articles WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(author.as_deref(), Some("Jane Roe, John Doe"));
}

#[test]
fn filters_by_author_section_and_tag_fold_case_width_and_spacing() {
    let mut s = Store::open_in_memory().unwrap();
    store_one(
        &mut s,
        detailed("https://a.test/1", &["Łukasz Żak"], "Politik", &["Klima"]),
    );
    let mut other = detailed(
        "https://a.test/2",
        &["Jane Roe"],
        "Sport",
        &["Klimawandel", "100%"],
    );
    other.article.text = "Another story entirely.".into();
    store_one(&mut s, other);
    let by = |author: Option<&str>, section: Option<&str>, tag: Option<&str>| {
        urls(
            &s,
            &Selection {
                author: author.map(str::to_string),
                section: section.map(str::to_string),
                tag: tag.map(str::to_string),
                ..Selection::default()
            },
        )
    };
    assert_eq!(by(Some("łukasz  ŻAK"), None, None), ["https://a.test/1"]);
    assert_eq!(
        by(Some("Jane"), None, None),
        Vec::<String>::new(),
        "a whole name"
    );
    assert_eq!(by(None, Some("politik"), None), ["https://a.test/1"]);
    // A tag is a whole tag: "Klima" is not "Klimawandel".
    assert_eq!(by(None, None, Some("KLIMA")), ["https://a.test/1"]);
    assert_eq!(by(None, None, Some("100%")), ["https://a.test/2"]);
    assert_eq!(
        by(None, None, Some("1_0%")),
        Vec::<String>::new(),
        "no wildcard"
    );
    assert_eq!(
        by(Some("Jane Roe"), Some("Politik"), None),
        Vec::<String>::new()
    );
    let hits = s
        .search_in(
            "story",
            10,
            &Selection {
                author: Some("jane roe".into()),
                ..Selection::default()
            },
        )
        .unwrap();
    assert_eq!(hits.len(), 1, "{hits:?}");
}

#[test]
fn reextract_writes_changed_details() {
    let mut s = Store::open_in_memory().unwrap();
    let a = detailed("https://a.test/1", &["Jane Roe"], "Local", &[]);
    let WriteOutcome::ArticleStored { id, .. } = store_one(&mut s, a.clone()) else {
        panic!("stored")
    };
    let mut again = a.article.clone();
    again.authors = vec!["Jane Roe".into(), "John Doe".into()];
    again.tags = vec!["Port".into()];
    let mut any = AnyStore::from(s);
    let counts = any
        .apply_reextracted(
            "k",
            &[Reextracted {
                article_id: id,
                article: again,
            }],
            id,
            &|_| off(),
        )
        .unwrap();
    assert_eq!((counts.changed, counts.metadata_only), (0, 1));
    let got = any.article(ArticleRef::Id(id)).unwrap().unwrap().article;
    assert_eq!(got.authors, ["Jane Roe", "John Doe"]);
    assert_eq!(got.tags, ["Port"]);
    let by_tag = Selection {
        tag: Some("port".into()),
        ..Selection::default()
    };
    assert_eq!(any.export(&by_tag, &mut |_| Ok(())).unwrap(), 1);
}

#[test]
fn migrating_an_older_database_splits_its_authors_into_the_list() {
    use crate::store::sqlite::migrate::MIGRATIONS;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("before.db");
    {
        // Every migration before the one adding the details, as an older
        // newshound left the database (found by what it does, not by its
        // number).
        let c = rusqlite::Connection::open(&path).unwrap();
        let adds = MIGRATIONS
            .iter()
            .position(|(_, sql)| sql.contains("ADD COLUMN authors"))
            .expect("a migration adds the authors");
        for (_, sql) in &MIGRATIONS[..adds] {
            c.execute_batch(sql).unwrap();
        }
        for (v, _) in &MIGRATIONS[..adds] {
            c.execute("INSERT INTO schema_migrations(version) VALUES (?1)", [v])
                .unwrap();
        }
        c.pragma_update(None, "user_version", MIGRATIONS[adds - 1].0)
            .unwrap();
        c.execute_batch(
            "INSERT INTO sites(id, name) VALUES (1, 'a');
             INSERT INTO articles(url, site_id, title, author, text, raw_text, content_hash,
                                  word_count, fetched_at)
             VALUES ('https://a.test/1', 1, 'T', 'Jane \"JR\" Roe, John Doe', 'x', 'x', 'h1', 1, 0),
                    ('https://a.test/2', 1, 'T', NULL, 'y', 'y', 'h2', 1, 0);",
        )
        .unwrap();
    }
    let s = Store::open(&path).unwrap();
    let got = s
        .article(ArticleRef::Url("https://a.test/1".into()))
        .unwrap()
        .unwrap();
    assert_eq!(got.article.authors, ["Jane \"JR\" Roe", "John Doe"]);
    let none = s
        .article(ArticleRef::Url("https://a.test/2".into()))
        .unwrap()
        .unwrap();
    assert!(none.article.authors.is_empty());
    let by = Selection {
        author: Some("john doe".into()),
        ..Selection::default()
    };
    assert_eq!(urls(&s, &by), ["https://a.test/1"]);
}
