//! robots.txt rules (RFC 9309): the groups that apply to one agent, and the
//! verdict of those rules for a path.
//!
//! In: the body of `/robots.txt` and our agent token. Out: [`Rules`] — the
//! `Allow`/`Disallow` patterns of our group (or of `*`), the `Crawl-delay`
//! and the `Sitemap:` values. Pure.
//!
//! Bounds against a hostile file: only the first [`MAX_BYTES`] are read
//! (RFC 9309 §2.5 lets a crawler stop there; Google does), and of each line
//! its first [`MAX_LINE_BYTES`] (Google's limit), so the rules kept are at
//! most that much text; identical rules are kept once. Wildcards are
//! matched here, segment by segment with a substring search (linear in the
//! path and the pattern), instead of compiling each rule into a regex: a
//! compiled wildcard rule took ~30 KB, so a file of 290,000 of them took
//! gigabytes.
//!
//! Matching (RFC 9309 §2.2.2): the longest matching pattern wins, `Allow`
//! on a tie; `*` matches any run of characters, a final `$` anchors the
//! end; patterns and paths are compared percent-encoded, with the hex digits
//! of `%xx` upper-cased on both sides.
//!
//! Google's reading, followed where a crawler meets it: a UTF-8 byte order
//! mark, whole or its first bytes, is skipped at the start; `Allow:
//! /dir/index.html` (or `.htm`) allows `/dir/` too, the address a server
//! answers with that page.

/// robots.txt bytes read at most; the rest is ignored (RFC 9309 §2.5).
pub const MAX_BYTES: usize = 500 * 1024;

/// Bytes of a line read at most, the rest of the line ignored: Google's
/// limit (its line buffer is 2083 × 8 bytes, the longest URL browsers take
/// times eight, with a final NUL), so a rule longer than that is read as
/// Google reads it, cut.
pub const MAX_LINE_BYTES: usize = 2083 * 8 - 1;

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The rules of robots.txt that apply to one agent.
#[derive(Debug, Default)]
pub struct Rules {
    /// Longest pattern first, `Allow` before `Disallow` on equal lengths: the
    /// first match is the verdict.
    rules: Vec<Rule>,
    /// `Crawl-delay` of our group (else one written before any group), as
    /// written.
    pub crawl_delay: Option<f64>,
    /// Every `Sitemap:` value, in order (they apply to all agents).
    pub sitemaps: Vec<String>,
}

#[derive(Debug, PartialEq, Eq)]
struct Rule {
    /// Normalised pattern, the final `$` included.
    pattern: Box<[u8]>,
    allow: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    UserAgent,
    Allow,
    Disallow,
    Sitemap,
    CrawlDelay,
}

/// Field names, with the misspellings and spacings seen on real sites.
const KEYS: &[(&str, Key)] = &[
    ("user-agent", Key::UserAgent),
    ("user agent", Key::UserAgent),
    ("useragent", Key::UserAgent),
    ("allow", Key::Allow),
    ("disallow", Key::Disallow),
    ("dissallow", Key::Disallow),
    ("dissalow", Key::Disallow),
    ("disalow", Key::Disallow),
    ("diasllow", Key::Disallow),
    ("disallaw", Key::Disallow),
    ("sitemap", Key::Sitemap),
    ("site-map", Key::Sitemap),
    ("site map", Key::Sitemap),
    ("crawl-delay", Key::CrawlDelay),
    ("crawl delay", Key::CrawlDelay),
    ("crawldelay", Key::CrawlDelay),
];

/// The first [`MAX_BYTES`] of `body`, cut after the last whole line when
/// longer (a rule cut in the middle would be another rule).
pub fn truncate(body: &[u8]) -> &[u8] {
    if body.len() <= MAX_BYTES {
        return body;
    }
    let head = &body[..MAX_BYTES];
    match memchr::memrchr2(b'\n', b'\r', head) {
        Some(end) => &head[..end],
        None => head,
    }
}

/// `key: value` (or `key value`) of one line, comment removed.
fn field(line: &[u8]) -> Option<(Key, &[u8])> {
    let line = match memchr::memchr(b'#', line) {
        Some(hash) => &line[..hash],
        None => line,
    };
    let line = line.trim_ascii_start();
    KEYS.iter().find_map(|(name, key)| {
        let head = line.get(..name.len())?;
        if !head.eq_ignore_ascii_case(name.as_bytes()) {
            return None;
        }
        let rest = &line[name.len()..];
        let spaced = rest.trim_ascii_start();
        if let Some(value) = spaced.strip_prefix(b":") {
            Some((*key, value.trim_ascii()))
        } else if spaced.len() < rest.len() {
            Some((*key, spaced.trim_ascii()))
        } else {
            None
        }
    })
}

/// The product token of a `User-agent:` value (`Newshound/1.0` → `newshound`).
fn product_token(value: &[u8]) -> Vec<u8> {
    let end = value
        .iter()
        .position(|b| *b == b'/' || b.is_ascii_whitespace())
        .unwrap_or(value.len());
    value[..end].to_ascii_lowercase()
}

/// Bytes percent-encoded in patterns and paths alike (what the URL parser
/// encodes in a path), so that both sides compare in one form.
fn must_encode(b: u8) -> bool {
    b <= b' ' || b >= 0x7f || matches!(b, b'"' | b'<' | b'>' | b'`' | b'{' | b'}')
}

/// `s` percent-encoded where [`must_encode`] says, with the hex digits of
/// existing `%xx` upper-cased.
pub fn normalize(s: &[u8]) -> Vec<u8> {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let b = s[i];
        if b == b'%'
            && i + 2 < s.len()
            && s[i + 1].is_ascii_hexdigit()
            && s[i + 2].is_ascii_hexdigit()
        {
            out.extend_from_slice(&[
                b'%',
                s[i + 1].to_ascii_uppercase(),
                s[i + 2].to_ascii_uppercase(),
            ]);
            i += 3;
            continue;
        }
        if must_encode(b) {
            out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
        } else {
            out.push(b);
        }
        i += 1;
    }
    out
}

/// Whether `pattern` (normalised, `*` wildcards, optional final `$`) matches
/// `path` from its start. Each literal segment is found at its leftmost
/// place after the previous one, which is optimal for `*`: linear time.
fn matches(pattern: &[u8], path: &[u8]) -> bool {
    let (pattern, anchored) = match pattern.strip_suffix(b"$") {
        Some(p) => (p, true),
        None => (pattern, false),
    };
    let mut segments = pattern.split(|b| *b == b'*');
    let first = segments.next().unwrap_or_default();
    if !path.starts_with(first) {
        return false;
    }
    let mut at = first.len();
    let mut last: Option<&[u8]> = None;
    for segment in segments {
        // The previous segment followed a `*`: find it now, leftmost.
        if let Some(seg) = last.replace(segment) {
            match memchr::memmem::find(&path[at..], seg) {
                Some(i) => at += i + seg.len(),
                None => return false,
            }
        }
    }
    match (last, anchored) {
        // No `*`: a prefix, or the whole path with `$`.
        (None, false) => true,
        (None, true) => at == path.len(),
        (Some(seg), false) => memchr::memmem::find(&path[at..], seg).is_some(),
        // After a `*`, the last segment must end the path.
        (Some(seg), true) => path.len() - at >= seg.len() && path.ends_with(seg),
    }
}

impl Rules {
    /// The rules of `body` for `agent` (a product token, compared without
    /// case): the groups naming it, merged, or else those of `*`. Rules
    /// written before any `User-agent:` line apply only when there is none.
    pub fn parse(agent: &str, body: &[u8]) -> Rules {
        let agent = agent.to_ascii_lowercase().into_bytes();
        let body = truncate(body);
        // A byte order mark, or the start of one (as Google skips it).
        let body = &body[BOM.iter().zip(body).take_while(|(a, b)| a == b).count()..];
        let mut ours = Group::default();
        let mut star = Group::default();
        let mut before_groups = Group::default();
        // The group being read applies to us / to `*`; a run of
        // `User-agent:` lines names one group.
        let (mut to_us, mut to_star, mut in_agents, mut any_agent) = (false, false, false, false);
        let (mut named_us, mut sitemaps) = (false, Vec::new());
        for line in body.split(|b| matches!(b, b'\n' | b'\r' | 0)) {
            let line = &line[..line.len().min(MAX_LINE_BYTES)];
            let Some((key, value)) = field(line) else {
                continue;
            };
            if key == Key::UserAgent {
                if !in_agents {
                    (to_us, to_star) = (false, false);
                }
                in_agents = true;
                any_agent = true;
                let token = product_token(value);
                if token == agent {
                    to_us = true;
                    named_us = true;
                } else if token == b"*" {
                    to_star = true;
                }
                continue;
            }
            if key == Key::Sitemap {
                if let Ok(url) = std::str::from_utf8(value) {
                    if !url.is_empty() {
                        sitemaps.push(url.to_string());
                    }
                }
                continue;
            }
            in_agents = false;
            if !any_agent {
                before_groups.add(key, value);
            }
            if to_us {
                ours.add(key, value);
            }
            if to_star {
                star.add(key, value);
            }
        }
        let fallback_delay = before_groups.crawl_delay;
        let group = if named_us {
            ours
        } else if any_agent {
            star
        } else {
            before_groups
        };
        let mut rules = group.rules;
        rules.sort_by(|a, b| {
            b.pattern
                .len()
                .cmp(&a.pattern.len())
                .then(b.allow.cmp(&a.allow))
                .then(a.pattern.cmp(&b.pattern))
        });
        rules.dedup();
        rules.shrink_to_fit();
        Rules {
            rules,
            crawl_delay: group.crawl_delay.or(fallback_delay),
            sitemaps,
        }
    }

    /// Whether `path_and_query` (as in a URL: percent-encoded, from the first
    /// `/`) may be fetched.
    pub fn allowed(&self, path_and_query: &str) -> bool {
        if path_and_query == "/robots.txt" {
            return true;
        }
        let path = normalize(path_and_query.as_bytes());
        self.rules
            .iter()
            .find(|r| matches(&r.pattern, &path))
            .is_none_or(|r| r.allow)
    }

    /// Rules kept (identical ones once).
    pub fn rule_count(&self) -> usize {
        self.rules.len()
    }
}

/// Rules and delay gathered for one audience while reading.
#[derive(Default)]
struct Group {
    rules: Vec<Rule>,
    crawl_delay: Option<f64>,
}

impl Group {
    fn add(&mut self, key: Key, value: &[u8]) {
        match key {
            // An empty rule says nothing (`Disallow:` allows all).
            Key::Allow | Key::Disallow if !value.is_empty() => {
                let mut pattern = normalize(value);
                collapse_stars(&mut pattern);
                let allow = key == Key::Allow;
                if allow {
                    if let Some(directory) = index_page_directory(&pattern) {
                        self.rules.push(Rule {
                            pattern: directory,
                            allow,
                        });
                    }
                }
                self.rules.push(Rule {
                    pattern: pattern.into_boxed_slice(),
                    allow,
                });
            }
            Key::CrawlDelay if self.crawl_delay.is_none() => {
                self.crawl_delay = std::str::from_utf8(value)
                    .ok()
                    .and_then(|v| v.parse::<f64>().ok());
            }
            _ => {}
        }
    }
}

/// `/dir/` (anchored) for a pattern naming `/dir/index.htm…`: Google allows
/// the directory where the index page is allowed, since a server answers
/// the one with the other.
fn index_page_directory(pattern: &[u8]) -> Option<Box<[u8]>> {
    let slash = memchr::memrchr(b'/', pattern)?;
    if !pattern[slash..].starts_with(b"/index.htm") {
        return None;
    }
    let mut directory = pattern[..=slash].to_vec();
    directory.push(b'$');
    Some(directory.into_boxed_slice())
}

/// `a**b` → `a*b`: the same pattern, shorter to keep.
fn collapse_stars(pattern: &mut Vec<u8>) {
    pattern.dedup_by(|a, b| *a == b'*' && *b == b'*');
}

#[cfg(test)]
mod tests;
