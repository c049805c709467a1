//! The query syntax, term by term.

use super::*;

fn term(text: &str) -> Term {
    Term {
        text: text.to_string(),
        prefix: false,
        exact: is_number_like(text),
    }
}

fn parse(q: &str) -> Query {
    Query::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"))
}

#[test]
fn words_are_anded_and_repeats_count_once() {
    let q = parse("climate Summit climate summit");
    assert_eq!(q.clauses, vec![vec![term("climate")], vec![term("Summit")]]);
    // `the` × 400 used to take 38 s in snippet(): now one term.
    let q = parse(&"the ".repeat(1000));
    assert_eq!(q.clauses, vec![vec![term("the")]]);
}

#[test]
fn too_many_distinct_terms_are_refused_with_the_counts() {
    // 1,000 CJK terms gave "Expression tree is too large (maximum depth 1000)".
    let cjk: String = (0..1000u32)
        .map(|i| char::from_u32(0x4E00 + i).unwrap_or('中').to_string() + " ")
        .collect();
    assert_eq!(
        Query::parse(&cjk),
        Err(QueryError::TooManyTerms {
            count: 1000,
            max: MAX_TERMS
        })
    );
    let words: Vec<String> = (0..=MAX_TERMS).map(|i| format!("w{i}")).collect();
    assert!(Query::parse(&words.join(" ")).is_err());
    assert!(Query::parse(&words[..MAX_TERMS].join(" ")).is_ok());
}

#[test]
fn phrases_or_and_not_are_syntax() {
    let q = parse("\"climate summit\" paris OR berlin -brexit NOT \"trade war\"");
    assert_eq!(
        q.clauses,
        vec![
            vec![term("climate summit")],
            vec![term("paris"), term("berlin")]
        ]
    );
    assert_eq!(q.excluded, vec![term("brexit"), term("trade war")]);
    let q = parse("-\"trade war\" tariffs");
    assert_eq!(q.excluded, vec![term("trade war")]);
    // An unclosed quote runs to the end.
    assert_eq!(
        parse("\"unclosed phrase").clauses,
        vec![vec![term("unclosed phrase")]]
    );
}

#[test]
fn other_fts5_syntax_is_plain_text() {
    let q = parse("foo AND NEAR( title:x or");
    let texts: Vec<&str> = q.clauses.iter().map(|c| c[0].text.as_str()).collect();
    assert_eq!(texts, ["foo", "AND", "NEAR(", "title:x", "or"]);
    // A dangling OR is ignored, not an error.
    assert_eq!(parse("OR foo OR").clauses, vec![vec![term("foo")]]);
}

#[test]
fn queries_without_words_or_only_exclusions_are_errors() {
    for q in ["", "  ", "*", "\"", "(", "-", "OR", "NOT"] {
        assert!(
            matches!(Query::parse(q), Err(QueryError::NoWords(_))),
            "{q:?}"
        );
    }
    assert_eq!(Query::parse("-foo NOT bar"), Err(QueryError::OnlyExcluded));
}

#[test]
fn trailing_star_is_a_prefix() {
    let q = parse("teach*");
    assert_eq!(
        q.clauses,
        vec![vec![Term {
            text: "teach".into(),
            prefix: true,
            exact: false
        }]]
    );
}

#[test]
fn decimal_numbers_and_mixed_cjk_digits_stay_whole() {
    // `7.1亿元` was split at `.` into `7` and `1亿元`; `7` matched `12:47`.
    assert_eq!(parse("7.1亿元").clauses, vec![vec![term("7.1亿元")]]);
    assert!(parse("7.1亿元").clauses[0][0].exact);
    assert!(parse("3.5").clauses[0][0].exact);
    assert!(!parse("don't").clauses[0][0].exact);
    // CJK punctuation still separates terms, and so does a dot that is
    // not between digits.
    assert_eq!(
        parse("中国，经济。增长").clauses,
        vec![vec![term("中国")], vec![term("经济")], vec![term("增长")]]
    );
    assert_eq!(
        parse("价格1,000元.涨").clauses,
        vec![vec![term("价格1,000元")], vec![term("涨")]]
    );
}

#[test]
fn regression_a_nul_in_a_query_made_fts5_fail() {
    for q in [
        "har\0bour",
        "\0",
        "harbour\u{7f}",
        "a \u{1b}[31m",
        "北\u{85}京\u{9c}",
    ] {
        let c = q.chars().find(|c| crate::words::is_stray_control(*c));
        match c {
            Some(c) => assert_eq!(
                Query::parse(q),
                Err(QueryError::ControlCharacter(c)),
                "{q:?}"
            ),
            None => assert!(Query::parse(q).is_ok(), "{q:?}"),
        }
    }
    let err = Query::parse("har\0bour").unwrap_err().to_string();
    assert!(err.contains("U+0000"), "{err}");
    // Tabs and line breaks are whitespace.
    assert_eq!(parse("harbour\tstrike\r\n").clauses.len(), 2);
}
