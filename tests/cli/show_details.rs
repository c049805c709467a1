//! `show` prints what the publisher said about a stored article (authors,
//! section, tags, lead image, description) as the JSON export holds it.

use crate::support::{demo_db, newshound, stderr, stdout};

#[test]
fn show_prints_the_authors_section_tags_image_and_description_the_export_holds() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 6);
    let out = newshound(&["--db", "demo.db", "export"], dir.path());
    assert!(out.status.success(), "export: {}", stderr(&out));
    let records: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let detailed = records
        .iter()
        .find(|r| r["section"].is_string() && !r["tags"].as_array().unwrap().is_empty())
        .expect("a demo article with a section and tags");
    let id = detailed["id"].to_string();
    let out = newshound(&["--db", "demo.db", "show", &id], dir.path());
    assert!(out.status.success(), "show: {}", stderr(&out));
    let shown = stdout(&out);
    let names = |key: &str| {
        detailed[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect::<Vec<_>>()
            .join("; ")
    };
    let mut expected = vec![
        format!("section    {}", detailed["section"].as_str().unwrap()),
        format!("tags       {}", names("tags")),
    ];
    if !detailed["authors"].as_array().unwrap().is_empty() {
        expected.push(format!("authors    {}", names("authors")));
    }
    for (key, label) in [("image", "image"), ("description", "summary")] {
        if let Some(v) = detailed[key].as_str() {
            expected.push(format!("{label:<10} {v}"));
        }
    }
    for line in expected {
        assert!(
            shown.lines().any(|l| l == line),
            "no line {line:?} in:\n{shown}"
        );
    }
}
