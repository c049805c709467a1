//! The search syntax: what the user typed → a [`Query`] (pure, no SQL).
//!
//! In: the query text. Out: AND-ed clauses of OR-ed terms plus excluded
//! terms, or a [`QueryError`] a user can act on. The syntax, documented in
//! `newshound help search` and docs/search.md:
//!
//! - words: every word must occur, in any order (`climate summit`);
//! - `"…"`: a phrase, its words next to each other in this order;
//! - `OR` (upper case) between two words or phrases: either will do;
//! - `-word`, `NOT word` (upper case), `-"…"`: leave out articles with it;
//! - `word*`: a prefix (`teach*` finds teach, teacher, teaching);
//! - Chinese and Japanese match as substrings; numbers keep their decimal
//!   point and separators (`7.1亿元`, `3.5`, `1,000` match as written).
//!
//! Nothing else is syntax: `AND`, `NEAR`, `(`, `:` and `^` are plain text,
//! so no query can make FTS5 fail; a control character other than
//! whitespace (a NUL ended FTS5's reading of the query) is refused. Repeated terms count once (`the` × 400
//! made `snippet()` super-linear), and at most [`MAX_TERMS`] distinct words
//! are searched (1,000 CJK terms overflowed SQLite's expression depth).

use std::collections::HashSet;

use crate::words::{is_han_or_kana, is_stray_control};

/// Most distinct words a query may hold (phrase words included).
pub const MAX_TERMS: usize = 16;

/// Most indexed words one `prefix*` may stand for: FTS5 merges the posting
/// list of every word it expands to (`w*` over 5,000 words took 30 s on
/// 20,000 articles, a prefix of 111 words 1.2 s of CPU on 100,000).
pub const MAX_PREFIX_WORDS: usize = 50;

/// Why a query cannot be searched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    #[error("the query {0:?} has no words to look for")]
    NoWords(String),
    #[error("the query only excludes words (-word, NOT word); add a word to look for")]
    OnlyExcluded,
    #[error(
        "the query has {count} distinct words; at most {max} are searched at once (shorten it)"
    )]
    TooManyTerms { count: usize, max: usize },
    #[error(
        "{prefix}* stands for more than {max} different words in the index \
         (give more letters)"
    )]
    PrefixTooBroad { prefix: String, max: usize },
    #[error("the query holds the control character U+{:04X}, which no text has; remove it", u32::from(*.0))]
    ControlCharacter(char),
}

/// One word or phrase to match.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Term {
    /// The text to match: a word, or a phrase's words separated by spaces.
    pub text: String,
    /// `word*`: a prefix search.
    pub prefix: bool,
    /// A number such as `7.1` or `1,000`: the full-text index splits it at
    /// its punctuation, so the match is checked against the text as written.
    pub exact: bool,
}

/// A parsed query: every clause must match (a clause matches when any of
/// its terms does), and no excluded term may.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Query {
    pub clauses: Vec<Vec<Term>>,
    pub excluded: Vec<Term>,
}

/// A token of the query text before operators are applied.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String),
    Phrase(String),
    Or,
    Not,
}

impl Query {
    pub fn parse(text: &str) -> Result<Query, QueryError> {
        if let Some(c) = text.chars().find(|c| is_stray_control(*c)) {
            return Err(QueryError::ControlCharacter(c));
        }
        let mut query = Query::default();
        let mut negate_next = false;
        let mut join_next = false;
        for token in tokenize(text) {
            let (body, negated) = match token {
                Token::Or => {
                    join_next = !query.clauses.is_empty();
                    continue;
                }
                Token::Not => {
                    negate_next = true;
                    continue;
                }
                Token::Word(w) => match w.strip_prefix('-') {
                    Some(rest) if rest.chars().any(char::is_alphanumeric) => {
                        (Token::Word(rest.to_string()), true)
                    }
                    _ => (Token::Word(w), false),
                },
                phrase => (phrase, false),
            };
            let negated = negated || std::mem::take(&mut negate_next);
            let terms = terms_of(&body);
            if terms.is_empty() {
                continue;
            }
            if negated {
                query.excluded.extend(terms);
                join_next = false;
            } else if std::mem::take(&mut join_next) && terms.len() == 1 {
                if let Some(last) = query.clauses.last_mut() {
                    last.extend(terms);
                }
            } else {
                query.clauses.extend(terms.into_iter().map(|t| vec![t]));
            }
        }
        query.dedup();
        if query.clauses.is_empty() {
            if query.excluded.is_empty() {
                return Err(QueryError::NoWords(text.to_string()));
            }
            return Err(QueryError::OnlyExcluded);
        }
        let count = query.word_count();
        if count > MAX_TERMS {
            return Err(QueryError::TooManyTerms {
                count,
                max: MAX_TERMS,
            });
        }
        Ok(query)
    }

    /// The query as one boolean expression in a backend's words: each
    /// term as `term` writes it, a clause's alternatives joined by `or`,
    /// the clauses by `and`, and the exclusions (as alternatives) after
    /// `not`, following the rest in parentheses.
    pub(crate) fn expression(
        &self,
        mut term: impl FnMut(&Term) -> String,
        [or, and, not]: [&str; 3],
    ) -> String {
        let mut any_of = |terms: &[Term]| {
            let alternatives: Vec<String> = terms.iter().map(&mut term).collect();
            format!("({})", alternatives.join(or))
        };
        let all: Vec<String> = self.clauses.iter().map(|c| any_of(c)).collect();
        let mut expr = all.join(and);
        if !self.excluded.is_empty() {
            expr = format!("({expr}){not}{}", any_of(&self.excluded));
        }
        expr
    }

    /// Whether any term holds Chinese or Japanese (substring search).
    pub fn has_cjk(&self) -> bool {
        self.terms().any(|t| t.text.chars().any(is_han_or_kana))
    }

    /// Whether some clause has a character of the class in each of its
    /// alternatives: only a text holding such a character can match (a
    /// substring search may then keep to the articles indexed for it).
    pub(crate) fn needs_char(&self, in_class: impl Fn(char) -> bool) -> bool {
        let needs = |t: &Term| t.text.chars().any(&in_class);
        self.clauses.iter().any(|c| c.iter().all(needs))
    }

    /// Every term, clauses first, then the excluded ones.
    pub fn terms(&self) -> impl Iterator<Item = &Term> {
        self.clauses.iter().flatten().chain(&self.excluded)
    }

    /// Distinct words over all terms (a phrase's words each count).
    fn word_count(&self) -> usize {
        let words: HashSet<String> = self
            .terms()
            .flat_map(|t| t.text.split_whitespace())
            .map(str::to_lowercase)
            .collect();
        words.len()
    }

    /// Repeated terms (any case) count once, in each clause and overall;
    /// a clause equal to an earlier one is dropped.
    fn dedup(&mut self) {
        let key = |t: &Term| (t.text.to_lowercase(), t.prefix);
        let mut seen_clauses = HashSet::new();
        self.clauses.retain_mut(|clause| {
            let mut seen = HashSet::new();
            clause.retain(|t| seen.insert(key(t)));
            let mut keys: Vec<_> = clause.iter().map(key).collect();
            keys.sort();
            seen_clauses.insert(keys)
        });
        let mut seen = HashSet::new();
        self.excluded.retain(|t| seen.insert(key(t)));
    }
}

/// Words, `"phrases"` (an unclosed quote runs to the end), `OR`, `NOT`.
fn tokenize(text: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        let Some(first) = rest.chars().next() else {
            break;
        };
        // `-"phrase"`: the minus applies to the phrase.
        let negated_phrase = rest.starts_with("-\"");
        if first == '"' || negated_phrase {
            let inner = &rest[if negated_phrase { 2 } else { 1 }..];
            let (phrase, after) = match inner.find('"') {
                Some(end) => (&inner[..end], &inner[end + 1..]),
                None => (inner, ""),
            };
            if negated_phrase {
                tokens.push(Token::Not);
            }
            tokens.push(Token::Phrase(phrase.to_string()));
            rest = after;
            continue;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '"')
            .unwrap_or(rest.len());
        let word = &rest[..end];
        tokens.push(match word {
            "OR" => Token::Or,
            "NOT" => Token::Not,
            w => Token::Word(w.to_string()),
        });
        rest = &rest[end..];
    }
    tokens
}

/// The terms a word or phrase token stands for: none when it holds no
/// letter or digit; a word with CJK splits at punctuation (`中国，经济`
/// is two terms) but not inside numbers (`7.1亿元` is one).
fn terms_of(token: &Token) -> Vec<Term> {
    match token {
        Token::Phrase(p) => {
            let words: Vec<&str> = p.split_whitespace().collect();
            if !words.iter().any(|w| w.chars().any(char::is_alphanumeric)) {
                return Vec::new();
            }
            let text = words.join(" ");
            vec![Term {
                exact: is_number_like(&text),
                text,
                prefix: false,
            }]
        }
        Token::Word(w) => {
            let (body, prefix) = match w.strip_suffix('*') {
                Some(b) => (b, true),
                None => (w.as_str(), false),
            };
            let pieces: Vec<&str> = if body.chars().any(is_han_or_kana) {
                split_keeping_numbers(body)
            } else {
                vec![body]
            };
            let n = pieces.len();
            pieces
                .into_iter()
                .enumerate()
                .filter(|(_, p)| p.chars().any(char::is_alphanumeric))
                .map(|(i, p)| Term {
                    text: p.to_string(),
                    // Only the last piece carried the `*`.
                    prefix: prefix && i + 1 == n,
                    exact: is_number_like(p),
                })
                .collect()
        }
        Token::Or | Token::Not => Vec::new(),
    }
}

/// Split at characters that are neither letters nor digits, except a `.`,
/// `,` or `:` between two digits (a decimal point, a thousands separator,
/// a time).
fn split_keeping_numbers(s: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let mut pieces = Vec::new();
    let mut start = 0;
    for (i, &(at, c)) in chars.iter().enumerate() {
        if c.is_alphanumeric() {
            continue;
        }
        let digit = |j: Option<&(usize, char)>| j.is_some_and(|(_, c)| c.is_ascii_digit());
        let inside_number = matches!(c, '.' | ',' | ':')
            && i > 0
            && digit(chars.get(i - 1))
            && digit(chars.get(i + 1));
        if !inside_number {
            if start < at {
                pieces.push(&s[start..at]);
            }
            start = at + c.len_utf8();
        }
    }
    if start < s.len() {
        pieces.push(&s[start..]);
    }
    pieces
}

/// A digit, then `.`, `,` or `:`, then a digit: punctuation the word index
/// splits at, where the user means the number as written.
fn is_number_like(s: &str) -> bool {
    let b = s.as_bytes();
    b.windows(3).any(|w| {
        w[0].is_ascii_digit() && matches!(w[1], b'.' | b',' | b':') && w[2].is_ascii_digit()
    })
}

#[cfg(test)]
mod tests;
