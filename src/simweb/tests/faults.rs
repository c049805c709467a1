//! One test per fault mode of the `faults` and `faults-robots` sites.
//!
//! In: a web started with `faults: true`. Out: assertions that each fault
//! misbehaves exactly as documented in [`crate::simweb::faults`], and that a
//! crawl can reach every fault page by following links.

use std::io::Read;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use url::Url;

use super::client::{get, get_limited};
use crate::simweb::{SimSite, SimWeb, SimWebSpec};

async fn web() -> SimWeb {
    SimWeb::start(SimWebSpec {
        sites: 1,
        articles_per_site: 6,
        seed: 3,
        faults: true,
    })
    .await
    .expect("web starts")
}

fn site<'a>(web: &'a SimWeb, name: &str) -> &'a SimSite {
    web.sites()
        .iter()
        .find(|s| s.name == name)
        .expect("site exists")
}

fn fault(web: &SimWeb, kind: &str) -> Url {
    web.sites()
        .iter()
        .flat_map(|s| &s.fault_urls)
        .find(|(k, _)| k == kind)
        .map(|(_, u)| u.clone())
        .expect("fault kind exists")
}

#[tokio::test]
async fn every_fault_page_is_linked_from_the_faults_home_page_and_articles() {
    let web = web().await;
    let faults = site(&web, "faults");
    assert!(faults.fault_urls.len() >= 13);
    let home = get(&faults.base_url).await.text();
    let article = get(&faults.article_urls[0]).await.text();
    for (kind, url) in faults.fault_urls.iter().filter(|(k, _)| k != "link-farm") {
        let target = match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_string(),
        };
        let href = format!("href=\"{}\"", crate::simweb::pages::esc(&target));
        assert!(home.contains(&href), "{kind} not linked from home");
        assert!(article.contains(&href), "{kind} not linked from articles");
    }
    // The farm is reachable only when seeded: it would crowd out the rest.
    assert!(!home.contains("/farm/") && !article.contains("/farm/"));
    web.shutdown().await;
}

#[tokio::test]
async fn slow_drip_sends_headers_then_stalls_longer_than_the_read_timeout() {
    let web = web().await;
    let url = fault(&web, "slow-drip");
    let mut s = TcpStream::connect(("127.0.0.1", url.port().unwrap_or(80)))
        .await
        .unwrap();
    let req = format!(
        "GET {} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        url.path()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&got).contains("Loading") {
        let n = s.read(&mut buf).await.unwrap();
        assert!(n > 0, "closed early");
        got.extend_from_slice(&buf[..n]);
    }
    assert!(got.starts_with(b"HTTP/1.1 200"));
    // The server sleeps DRIP_INTERVAL (3 s) before the next byte; tokio's
    // sleep never ends early, so nothing can arrive within 1 s.
    let next = tokio::time::timeout(Duration::from_secs(1), s.read(&mut buf)).await;
    assert!(next.is_err(), "drip sent data before its interval");
    web.shutdown().await;
}

#[tokio::test]
async fn connection_reset_cuts_the_body_short_of_its_content_length() {
    let web = web().await;
    let r = get_limited(&fault(&web, "connection-reset"), "", 1 << 20)
        .await
        .unwrap();
    assert_eq!(r.status, 200);
    let declared: usize = r.header("content-length").unwrap().parse().unwrap();
    assert_eq!(declared, 200_000);
    assert!(r.body.len() < declared, "{} bytes", r.body.len());
    assert!(r.body.len() >= 8 * 1024);
    web.shutdown().await;
}

#[tokio::test]
async fn storm_pages_always_answer_500_and_busy_answers_503_with_retry_after() {
    let web = web().await;
    let faults = site(&web, "faults");
    let storms: Vec<&Url> = faults
        .fault_urls
        .iter()
        .filter(|(k, _)| k == "500-storm")
        .map(|(_, u)| u)
        .collect();
    assert_eq!(storms.len(), 3);
    for _ in 0..2 {
        for url in &storms {
            assert_eq!(get(url).await.status, 500);
        }
    }
    let busy = get(&fault(&web, "503-retry-after")).await;
    assert_eq!(busy.status, 503);
    assert_eq!(busy.header("retry-after"), Some("1"));
    let log = web.requests();
    assert_eq!(log.iter().filter(|r| r.status == 500).count(), 6);
    web.shutdown().await;
}

#[tokio::test]
async fn redirect_loop_bounces_between_two_pages() {
    let web = web().await;
    let a = fault(&web, "redirect-loop");
    let first = get(&a).await;
    assert_eq!(first.status, 302);
    let b = a.join(first.header("location").unwrap()).unwrap();
    assert_ne!(a, b);
    let second = get(&b).await;
    assert_eq!(second.status, 302);
    assert_eq!(a.join(second.header("location").unwrap()).unwrap(), a);
    web.shutdown().await;
}

#[tokio::test]
async fn huge_page_is_30_mib_of_html() {
    let web = web().await;
    let r = get(&fault(&web, "huge-page")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-length"), Some("31457280"));
    assert_eq!(r.body.len(), 30 * 1024 * 1024);
    assert!(r.body.starts_with(b"<!DOCTYPE html>"));
    web.shutdown().await;
}

#[tokio::test]
async fn gzip_bomb_is_small_on_the_wire_and_inflates_past_a_gibibyte() {
    let web = web().await;
    let r = get(&fault(&web, "gzip-bomb")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-encoding"), Some("gzip"));
    let wire: usize = r.header("content-length").unwrap().parse().unwrap();
    assert_eq!(r.body.len(), wire);
    assert!(wire < 2 * 1024 * 1024, "{wire} bytes on the wire");
    // ISIZE (inflated size mod 2^32) closes the member.
    let tail: [u8; 4] = r.body[wire - 4..].try_into().unwrap();
    assert_eq!(u32::from_le_bytes(tail) as u64, 1088 * 1024 * 1024);
    // Inflate only the first 16 MiB: all zeros, and the stream goes on.
    let mut d = flate2::read::GzDecoder::new(&r.body[..]);
    let mut buf = vec![1u8; 16 * 1024 * 1024];
    d.read_exact(&mut buf).expect("inflates at least 16 MiB");
    assert!(buf.iter().all(|&b| b == 0));
    web.shutdown().await;
}

#[tokio::test]
async fn content_types_lie_about_html_and_png() {
    let web = web().await;
    let html = get(&fault(&web, "html-as-png")).await;
    assert_eq!(html.header("content-type"), Some("image/png"));
    assert!(html.body.starts_with(b"<!DOCTYPE html>"));
    let png = get(&fault(&web, "png-as-html")).await;
    assert!(png.header("content-type").unwrap().starts_with("text/html"));
    assert!(png.body.starts_with(b"\x89PNG\r\n\x1a\n"));
    let pdf = get(&fault(&web, "binary")).await;
    assert_eq!(pdf.header("content-type"), Some("application/pdf"));
    assert!(pdf.body.starts_with(b"%PDF-"));
    assert!(std::str::from_utf8(&pdf.body).is_err());
    web.shutdown().await;
}

#[tokio::test]
async fn lying_charset_page_is_gbk_declared_utf8_and_has_a_true_body() {
    let web = web().await;
    let url = fault(&web, "lying-charset");
    let r = get(&url).await;
    assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"));
    assert!(
        std::str::from_utf8(&r.body).is_err(),
        "must not be valid UTF-8"
    );
    let (decoded, _, had_errors) = encoding_rs::GBK.decode(&r.body);
    assert!(!had_errors);
    assert!(decoded.contains("<meta charset=\"utf-8\">"));
    let body = web
        .true_body(url.as_str())
        .expect("true body of the GBK page");
    for p in body.split("\n\n") {
        assert!(decoded.contains(p), "missing paragraph {p}");
    }
    web.shutdown().await;
}

#[tokio::test]
async fn link_and_calendar_traps_never_end() {
    let web = web().await;
    let trap = fault(&web, "link-trap");
    let far = trap.join("/trap/1000000").unwrap();
    let page = get(&far).await;
    assert_eq!(page.status, 200);
    assert!(page.text().contains("href=\"/trap/1000001\""));
    let cal = fault(&web, "calendar-trap");
    let page = get(&cal).await.text();
    assert!(page.contains("href=\"/calendar?date=2026-11-26\""));
    assert!(page.contains("href=\"/calendar?date=2026-12-25\""));
    let far = cal.join("/calendar?date=3999-12-31").unwrap();
    assert!(get(&far).await.text().contains("date=4000-01-01"));
    let farm = get(&fault(&web, "link-farm").join("/farm/3").unwrap())
        .await
        .text();
    let children = (61..=80)
        .filter(|c| farm.contains(&format!("href=\"/farm/{c}\"")))
        .count();
    assert_eq!(children, 20);
    web.shutdown().await;
}

#[tokio::test]
async fn robots_txt_of_the_robots_site_answers_500() {
    let web = web().await;
    let robots = fault(&web, "robots-500");
    assert_eq!(get(&robots).await.status, 500);
    let robots_site = site(&web, "faults-robots");
    assert_eq!(robots.port(), robots_site.base_url.port());
    // The rest of that site works.
    assert_eq!(get(&robots_site.article_urls[0]).await.status, 200);
    // The faults site's own robots.txt is fine.
    let ok = site(&web, "faults").base_url.join("/robots.txt").unwrap();
    assert_eq!(get(&ok).await.status, 200);
    web.shutdown().await;
}

#[tokio::test]
async fn duplicate_and_tracked_urls_serve_the_first_article_again() {
    let web = web().await;
    let faults = site(&web, "faults");
    let original = &faults.article_urls[0];
    let page = get(original).await.body;
    let dup = fault(&web, "duplicate-content");
    assert_eq!(get(&dup).await.body, page);
    assert_eq!(
        web.true_body(dup.as_str()),
        web.true_body(original.as_str())
    );
    let tracked = fault(&web, "tracking-params");
    assert!(tracked.query().unwrap().contains("utm_source="));
    assert_eq!(tracked.path(), original.path());
    assert_eq!(get(&tracked).await.body, page);
    assert_eq!(
        web.true_body(tracked.as_str()),
        web.true_body(original.as_str())
    );
    web.shutdown().await;
}
