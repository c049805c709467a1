//! Per-site learning on the simulated news web: every article of each site
//! is fetched (raw HTTP on 127.0.0.1), turned into text and fed in order
//! through `store::lines::learn_and_clean` on an in-memory database. After
//! 20 pages of a site its template lines (which the web lists) must be
//! absent from 99 % of later articles, and no line of a true body (which the
//! web knows) that was in the text may be dropped by learning.
//!
//! Two texts per page: the extractor's output (the real pipeline; it already
//! removes most template blocks) and the whole page's text, one block per
//! line (every template line present: the rule does all the work).

use newshound::boilerplate::normalize_line;
use newshound::boilerplate::LineSettings;
use newshound::extract::{ExtractOptions, Extractor, Page};
use newshound::simweb::{SimWeb, SimWebSpec};
use newshound::store::lines::learn_and_clean;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use url::Url;

const WARM_UP: usize = 20;

/// GET a 127.0.0.1 URL: (content type, body), chunked framing removed.
async fn get(url: &Url) -> (Option<String>, Vec<u8>) {
    assert_eq!(url.host_str(), Some("127.0.0.1"));
    let port = url.port().expect("simweb URLs carry a port");
    let mut s = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    let req = format!(
        "GET {} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n",
        url.path()
    );
    s.write_all(req.as_bytes()).await.expect("send");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.expect("read");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("headers");
    let head = String::from_utf8_lossy(&raw[..split]).to_lowercase();
    let mut body = raw[split + 4..].to_vec();
    let header = |name: &str| {
        head.lines().find_map(|l| {
            l.strip_prefix(&format!("{name}:"))
                .map(|v| v.trim().to_string())
        })
    };
    assert!(head.starts_with("http/1.1 200"), "{url}: {head}");
    if header("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        let mut out = Vec::new();
        let mut rest = &body[..];
        loop {
            let eol = rest
                .windows(2)
                .position(|w| w == b"\r\n")
                .expect("chunk size");
            let size_text = String::from_utf8_lossy(&rest[..eol]);
            let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
                .expect("chunk size");
            if size == 0 {
                break;
            }
            out.extend_from_slice(&rest[eol + 2..eol + 2 + size]);
            rest = &rest[eol + 2 + size + 2..];
        }
        body = out;
    }
    (header("content-type"), body)
}

/// The page's visible text, one line per block element.
fn page_text(html: &[u8]) -> String {
    fn walk(node: ego_tree::NodeRef<'_, scraper::Node>, out: &mut String) {
        match node.value() {
            scraper::Node::Text(t) => out.push_str(t),
            scraper::Node::Element(e) => {
                if matches!(
                    e.name(),
                    "script" | "style" | "noscript" | "template" | "head"
                ) {
                    return;
                }
                let block = !matches!(
                    e.name(),
                    "a" | "span" | "b" | "i" | "em" | "strong" | "small" | "time" | "abbr" | "code"
                );
                if block {
                    out.push('\n');
                }
                for child in node.children() {
                    walk(child, out);
                }
                if block {
                    out.push('\n');
                }
            }
            _ => {
                for child in node.children() {
                    walk(child, out);
                }
            }
        }
    }
    let doc = scraper::Html::parse_document(&String::from_utf8_lossy(html));
    let mut out = String::new();
    walk(doc.tree.root(), &mut out);
    out
}

fn normalized_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(normalize_line)
        .filter(|l| !l.is_empty())
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn extracted_text_template_lines_vanish_and_no_body_line_is_lost() {
    run(false).await;
}

#[tokio::test(flavor = "current_thread")]
async fn whole_page_template_lines_vanish_and_no_body_line_is_lost() {
    run(true).await;
}

async fn run(whole_page: bool) {
    let spec = SimWebSpec {
        articles_per_site: 60,
        ..SimWebSpec::default()
    };
    let web = SimWeb::start(spec).await.expect("simweb");
    // The store's schema as it migrates it (learning also writes the
    // tables of later migrations).
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("lines.db");
    drop(newshound::store::Store::open(&db).unwrap());
    let mut conn = rusqlite::Connection::open(&db).unwrap();
    let settings = LineSettings::default();
    let extractor = Extractor::new(ExtractOptions::default());

    for (site_id, site) in (1i64..).zip(web.sites()) {
        conn.execute(
            "INSERT INTO sites (id, name) VALUES (?1, ?2)",
            rusqlite::params![site_id, site.name],
        )
        .unwrap();
        let template: Vec<String> = site
            .template_lines
            .iter()
            .map(|l| normalize_line(l))
            .collect();
        let mut present = vec![0usize; template.len()];
        let mut extracted_with = vec![0usize; template.len()];
        let mut later = 0;
        let mut body_lines_lost = Vec::new();
        // Oldest first, as a crawl of the archive would mostly go.
        for (n, url) in site.article_urls.iter().rev().enumerate() {
            let (content_type, bytes) = get(url).await;
            let text = if whole_page {
                page_text(&bytes)
            } else {
                let page = Page::from_bytes(&bytes, content_type.as_deref()).url(url);
                extractor.extract(page).article.text
            };
            let tx = conn.transaction().unwrap();
            let cleaned = learn_and_clean(&tx, site_id, &text, &settings).unwrap();
            tx.commit().unwrap();

            let kept = normalized_lines(&cleaned.text);
            let truth = web.true_body(url.as_str()).expect("true body");
            let extracted = normalized_lines(&text);
            for line in normalized_lines(truth) {
                if extracted.contains(&line) && !kept.contains(&line) {
                    body_lines_lost.push(format!("{url}: {line}"));
                }
            }
            if n >= WARM_UP {
                later += 1;
                for (i, t) in template.iter().enumerate() {
                    present[i] += usize::from(kept.contains(t));
                    extracted_with[i] += usize::from(extracted.contains(t));
                }
            }
        }
        println!(
            "{} (whole page: {whole_page}): of {later} later articles, template lines \
             in the text {extracted_with:?}, kept {present:?}",
            site.name
        );
        assert!(later >= 40);
        for (t, n) in template.iter().zip(&present) {
            assert!(
                *n * 100 <= later,
                "{}: template line {t:?} left in {n} of {later} later articles",
                site.name
            );
        }
        assert!(
            body_lines_lost.is_empty(),
            "{}: body lines dropped: {body_lines_lost:#?}",
            site.name
        );
    }
}
