//! Fetch limits against a tiny local server (127.0.0.1 only).

use std::time::Duration;

use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use super::*;
use crate::crawl::test_server::serve;

fn cfg() -> FetchConfig {
    FetchConfig {
        connect_timeout: Duration::from_secs(2),
        read_timeout: Duration::from_secs(2),
        timeout: Duration::from_secs(5),
        max_body_bytes: 10_000,
        max_redirects: 3,
        allow_private_addresses: true,
        ..FetchConfig::default()
    }
}

fn fetcher(cfg: &FetchConfig) -> Fetcher {
    Fetcher::new(cfg, "newshound-test/0.1 (+http://127.0.0.1/)").unwrap()
}

fn html(body: String) -> impl IntoResponse {
    ([("content-type", "text/html; charset=utf-8")], body)
}

fn drip() -> axum::body::Body {
    let stream = futures_util::stream::unfold(0u32, |n| async move {
        if n > 0 {
            tokio::time::sleep(Duration::from_secs(3)).await;
        }
        (n < 3).then(|| {
            let chunk: Result<Vec<u8>, std::io::Error> = Ok(b"<p>x</p>".to_vec());
            (chunk, n + 1)
        })
    });
    axum::body::Body::from_stream(stream)
}

fn endless() -> axum::body::Body {
    let stream = futures_util::stream::unfold((), |_| async {
        let chunk: Result<Vec<u8>, std::io::Error> = Ok(vec![b'a'; 4096]);
        Some((chunk, ()))
    });
    axum::body::Body::from_stream(stream)
}

async fn start() -> Url {
    let router = Router::new()
        .route("/ok", get(|| async { html("<p>hello</p>".into()) }))
        .route("/big", get(|| async { html("a".repeat(100_000)) }))
        .route(
            "/stream",
            get(|| async { ([("content-type", "text/html")], endless()) }),
        )
        .route(
            "/drip",
            get(|| async { ([("content-type", "text/html")], drip()) }),
        )
        .route(
            "/slow",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(10)).await;
                html("late".into())
            }),
        )
        .route("/loop-a", get(|| async { redirect("/loop-b") }))
        .route("/loop-b", get(|| async { redirect("/loop-a") }))
        .route("/r1", get(|| async { redirect("/r2") }))
        .route(
            "/to-loopback",
            get(|headers: HeaderMap| async move {
                let host = headers
                    .get("host")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("")
                    .replace("localhost", "127.0.0.1");
                (
                    StatusCode::FOUND,
                    [("location", format!("http://{host}/ok"))],
                )
            }),
        )
        .route("/r2", get(|| async { redirect("/ok") }))
        .route("/chain/1", get(|| async { redirect("/chain/2") }))
        .route("/chain/2", get(|| async { redirect("/chain/3") }))
        .route("/chain/3", get(|| async { redirect("/chain/4") }))
        .route("/chain/4", get(|| async { redirect("/chain/5") }))
        .route("/chain/5", get(|| async { redirect("/ok") }))
        .route(
            "/png-as-html",
            get(|| async {
                (
                    [("content-type", "text/html")],
                    vec![0x89u8, b'P', b'N', b'G', 0, 0],
                )
            }),
        )
        .route(
            "/png",
            get(|| async {
                (
                    [("content-type", "image/png")],
                    vec![0x89u8, b'P', b'N', b'G'],
                )
            }),
        )
        .route(
            "/busy",
            get(|| async {
                (
                    StatusCode::SERVICE_UNAVAILABLE,
                    [("retry-after", "7")],
                    "busy",
                )
            }),
        )
        .route(
            "/robots.txt",
            get(|| async {
                (
                    [("content-type", "text/plain")],
                    "Disallow: /x\n".repeat(80_000),
                )
            }),
        )
        .route(
            "/robots-endless.txt",
            get(|| async { ([("content-type", "text/plain")], endless()) }),
        )
        .route("/gone", get(|| async { StatusCode::NOT_FOUND }))
        .route(
            "/etag",
            get(|headers: HeaderMap| async move {
                let matches = headers
                    .get("if-none-match")
                    .and_then(|v| v.to_str().ok())
                    .is_some_and(|v| v == "\"v1\"");
                if matches {
                    StatusCode::NOT_MODIFIED.into_response()
                } else {
                    (
                        [("content-type", "application/rss+xml"), ("etag", "\"v1\"")],
                        "<rss/>",
                    )
                        .into_response()
                }
            }),
        );
    let addr = serve(router).await;
    Url::parse(&format!("http://{addr}/")).unwrap()
}

fn redirect(to: &'static str) -> impl IntoResponse {
    (StatusCode::FOUND, [("location", to)])
}

async fn get_url(f: &Fetcher, base: &Url, path: &str) -> Result<Fetched, FetchError> {
    f.fetch(
        &base.join(path).unwrap(),
        &Validators::default(),
        Expect::Html,
    )
    .await
}

#[tokio::test]
async fn body_over_the_cap_is_too_large_with_and_without_content_length() {
    let base = start().await;
    let f = fetcher(&cfg());
    let ok = get_url(&f, &base, "/ok").await.unwrap();
    assert_eq!(ok.body, b"<p>hello</p>");
    assert_eq!(ok.status, 200);
    for path in ["/big", "/stream"] {
        let err = get_url(&f, &base, path).await.unwrap_err();
        assert_eq!(err.kind().as_str(), "too_large", "{path}: {err}");
        assert!(err.retry_delay(0, &cfg()).is_none());
    }
}

#[tokio::test]
async fn regression_robots_txt_is_read_up_to_500_kib_then_ignored() {
    let base = start().await;
    let f = fetcher(&FetchConfig {
        max_body_bytes: 10 << 20,
        ..cfg()
    });
    // A 1 MB file with its Content-Length, and one that never ends.
    for path in ["/robots.txt", "/robots-endless.txt"] {
        let url = base.join(path).unwrap();
        let got = f.fetch(&url, &Validators::default(), Expect::Text).await;
        let got = got.unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(got.body.len(), robots::rules::MAX_BYTES, "{path}");
    }
    // Under a smaller body cap, robots.txt stops at the cap, still read.
    let small = fetcher(&cfg());
    let url = base.join("/robots.txt").unwrap();
    let got = small
        .fetch(&url, &Validators::default(), Expect::Text)
        .await;
    assert_eq!(got.unwrap().body.len(), 10_000);
}

#[tokio::test]
async fn redirects_are_followed_recorded_and_limited() {
    let base = start().await;
    let f = fetcher(&cfg());
    let ok = get_url(&f, &base, "/r1").await.unwrap();
    assert_eq!(ok.final_url.path(), "/ok");
    let chain: Vec<&str> = ok.redirects.iter().map(|u| u.path()).collect();
    assert_eq!(chain, ["/r1", "/r2"]);
    let err = get_url(&f, &base, "/loop-a").await.unwrap_err();
    assert_eq!(err.kind().as_str(), "redirect_loop", "{err}");
    let err = get_url(&f, &base, "/chain/1").await.unwrap_err();
    assert_eq!(err.kind().as_str(), "too_many_redirects", "{err}");
}

#[tokio::test]
async fn slow_answers_and_slow_drips_time_out() {
    let base = start().await;
    let mut c = cfg();
    c.timeout = Duration::from_millis(500);
    c.read_timeout = Duration::from_millis(300);
    let f = fetcher(&c);
    for path in ["/slow", "/drip"] {
        let err = get_url(&f, &base, path).await.unwrap_err();
        assert_eq!(err.kind().as_str(), "timeout", "{path}: {err}");
        assert_eq!(err.retry_delay(1, &c), Some(Duration::from_secs(4)));
    }
}

#[tokio::test]
async fn private_addresses_are_refused_unless_allowed() {
    let base = start().await;
    let mut c = cfg();
    c.allow_private_addresses = false;
    let f = fetcher(&c);
    let err = get_url(&f, &base, "/ok").await.unwrap_err();
    assert_eq!(err.kind().as_str(), "blocked_address", "{err}");
    // A name that resolves to loopback is refused by the resolver.
    let port = base.port().unwrap();
    let named = Url::parse(&format!("http://localhost:{port}/ok")).unwrap();
    let err = f
        .fetch(&named, &Validators::default(), Expect::Html)
        .await
        .unwrap_err();
    assert_eq!(err.kind().as_str(), "blocked_address", "{err}");
}

#[tokio::test]
async fn every_redirect_hop_is_checked_against_the_address_guard() {
    let base = start().await;
    let port = base.port().unwrap();
    // This client's resolver lets `localhost` through; the hop check must
    // still refuse the redirect to a loopback IP literal.
    let mut f = fetcher(&cfg());
    f.allow_private = false;
    let url = Url::parse(&format!("http://localhost:{port}/to-loopback")).unwrap();
    let err = f
        .fetch(&url, &Validators::default(), Expect::Html)
        .await
        .unwrap_err();
    assert_eq!(err.kind().as_str(), "blocked_address", "{err}");
}

#[tokio::test]
async fn conditional_get_yields_not_modified() {
    let base = start().await;
    let f = fetcher(&cfg());
    let url = base.join("/etag").unwrap();
    let first = f
        .fetch(&url, &Validators::default(), Expect::Feed)
        .await
        .unwrap();
    assert!(!first.not_modified());
    assert_eq!(first.etag.as_deref(), Some("\"v1\""));
    let again = Validators {
        etag: first.etag.clone(),
        last_modified: None,
    };
    let second = f.fetch(&url, &again, Expect::Feed).await.unwrap();
    assert!(second.not_modified());
    assert!(second.body.is_empty());
}

#[tokio::test]
async fn wrong_content_type_and_http_errors_are_classified() {
    let base = start().await;
    let f = fetcher(&cfg());
    let err = get_url(&f, &base, "/png").await.unwrap_err();
    assert_eq!(err.kind().as_str(), "bad_content_type");
    let err = get_url(&f, &base, "/png-as-html").await.unwrap_err();
    assert_eq!(err.kind().as_str(), "binary");
    let err = get_url(&f, &base, "/busy").await.unwrap_err();
    assert_eq!(err.kind().as_str(), "http_5xx");
    assert_eq!(err.retry_after(), Some(Duration::from_secs(7)));
    assert_eq!(err.retry_delay(0, &cfg()), Some(Duration::from_secs(7)));
    // Obeyed even beyond the backoff cap: the server said when.
    let short = FetchConfig {
        backoff_max: Duration::from_millis(500),
        ..cfg()
    };
    assert_eq!(err.retry_delay(0, &short), Some(Duration::from_secs(7)));
    let err = get_url(&f, &base, "/gone").await.unwrap_err();
    assert_eq!(err.kind().as_str(), "http_4xx");
    assert!(err.retry_delay(0, &cfg()).is_none());
}

#[tokio::test]
async fn a_peer_hanging_up_is_a_reset() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            use tokio::io::AsyncReadExt;
            let mut buf = [0u8; 1024];
            let _ = sock.read(&mut buf).await;
            drop(sock);
        }
    });
    let f = fetcher(&cfg());
    let url = Url::parse(&format!("http://{addr}/x")).unwrap();
    let err = f
        .fetch(&url, &Validators::default(), Expect::Html)
        .await
        .unwrap_err();
    assert_eq!(err.kind().as_str(), "reset", "{err}");
    assert!(err.is_host_failure());
}

#[test]
fn backoff_doubles_and_is_capped() {
    let c = FetchConfig {
        backoff_base: Duration::from_secs(2),
        backoff_max: Duration::from_secs(10),
        ..FetchConfig::default()
    };
    let secs: Vec<u64> = (0..5).map(|a| backoff(a, &c).as_secs()).collect();
    assert_eq!(secs, [2, 4, 8, 10, 10]);
}

#[test]
fn binary_bodies_are_recognised() {
    assert!(looks_binary(b"\x89PNG\r\n\x1a\n...."));
    assert!(looks_binary(b"%PDF-1.7\n"));
    assert!(looks_binary(b"<html>\x00\x01</html>"));
    assert!(!looks_binary("<html><p>héllo 你好</p></html>".as_bytes()));
    assert!(!looks_binary(b"\xff\xfe<\x00h\x00"));
}

#[test]
fn content_type_filter_matches_expectation() {
    assert!(content_type_ok("text/html; charset=gbk", Expect::Html));
    assert!(!content_type_ok("application/pdf", Expect::Html));
    assert!(content_type_ok("application/rss+xml", Expect::Feed));
    assert!(content_type_ok("text/xml", Expect::Feed));
    assert!(!content_type_ok("text/html", Expect::Feed));
    assert!(content_type_ok("application/x-gzip", Expect::Feed));
    assert!(content_type_ok("", Expect::Html));
    // robots.txt is read whatever a server calls it.
    for ctype in [
        "text/plain",
        "application/octet-stream",
        "image/png",
        "text/html",
    ] {
        assert!(content_type_ok(ctype, Expect::Text), "{ctype}");
    }
}

/// Offline, every host's robots.txt warning was ~250 characters of the HTTP
/// client's error chain: the brief form keeps the cause alone.
#[test]
fn regression_an_unreachable_host_was_reported_in_250_characters() {
    let dns = FetchError::Connect(
        "error sending request for url (https://www.bbc.co.uk/robots.txt): client error \
         (Connect): dns error: error resolving DNS: failed to lookup address information: \
         Name or service not known"
            .into(),
    );
    assert_eq!(dns.brief(), "cannot connect: host name not resolved");
    let refused = FetchError::Connect(
        "error sending request for url (http://127.0.0.1:1/robots.txt): client error \
         (Connect): tcp connect error: Connection refused (os error 111)"
            .into(),
    );
    assert_eq!(refused.brief(), "cannot connect: connection refused");
    let other = FetchError::Request("error sending request: builder error: odd thing".into());
    assert_eq!(other.brief(), "request failed: odd thing");
    assert_eq!(FetchError::Timeout.brief(), "timed out");
}
