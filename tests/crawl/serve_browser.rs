//! The search page in a real browser: headless Chromium driven through
//! chromedriver's WebDriver protocol (plain HTTP + JSON, spoken with
//! reqwest, so no extra crate). The test types a search into the page, sees
//! results, opens an article, checks that `/?q=WORD` opens with the search
//! done, and saves a screenshot in its temp dir (path printed).
//!
//! Chromium and chromedriver come from Debian's `chromium` and
//! `chromium-driver` packages, which `.ci/run` installs when missing. When
//! they are missing the test FAILS and says how to install them: a browser
//! test that skips itself silently proves nothing.
//!
//! Everything stays on 127.0.0.1: the browser is started with background
//! networking, component updates, sync and QUIC off, and a fresh profile.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::serve::{a_word, client, crawled, serve};

/// How long the page may take to show something before the test gives up
/// (a bound on waiting, not a timing assertion).
const PATIENCE: Duration = Duration::from_secs(60);

/// The W3C WebDriver element key.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in names {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

fn browser_tools() -> (PathBuf, PathBuf) {
    let chromium = on_path(&["chromium", "chromium-browser"]);
    let driver = on_path(&["chromedriver"]);
    match (chromium, driver) {
        (Some(c), Some(d)) => (c, d),
        (c, d) => panic!(
            "the browser test needs Chromium and chromedriver (found chromium: {}, chromedriver: {}); \
             install them with `apt-get update && apt-get install -y chromium chromium-driver` \
             (.ci/run does this when they are missing)",
            c.map_or("no".into(), |p| p.display().to_string()),
            d.map_or("no".into(), |p| p.display().to_string()),
        ),
    }
}

/// chromedriver on a free loopback port, killed on drop.
struct Driver {
    child: Child,
    base: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn start_driver(driver: &Path, log: &Path) -> Driver {
    let port = free_port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .arg("--allowed-ips=127.0.0.1")
        .arg(format!("--log-path={}", log.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let d = Driver {
        child,
        base: format!("http://127.0.0.1:{port}"),
    };
    let http = client();
    let started = Instant::now();
    loop {
        if let Ok(r) = http.get(format!("{}/status", d.base)).send().await {
            if let Ok(v) = json_of(r).await {
                if v["value"]["ready"] == true {
                    return d;
                }
            }
        }
        assert!(started.elapsed() < PATIENCE, "chromedriver did not start");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

struct Session {
    http: reqwest::Client,
    url: String,
}

impl Session {
    async fn start(driver: &Driver, chromium: &Path, profile: &Path) -> Session {
        let http = client();
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium.display().to_string(),
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1200,900",
                    format!("--user-data-dir={}", profile.display()),
                ]
            }
        }}});
        let r = http
            .post(format!("{}/session", driver.base))
            .header("content-type", "application/json")
            .body(caps.to_string())
            .send()
            .await
            .expect("new session");
        let r = json_of(r).await.expect("session reply");
        let id = r["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {r}"))
            .to_string();
        Session {
            http,
            url: format!("{}/session/{id}", driver.base),
        }
    }

    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut req = self.http.request(method, format!("{}{path}", self.url));
        if let Some(b) = body {
            req = req
                .header("content-type", "application/json")
                .body(b.to_string());
        }
        let v = json_of(req.send().await.unwrap()).await.unwrap();
        v["value"].clone()
    }

    async fn goto(&self, url: &str) {
        let v = self
            .call(reqwest::Method::POST, "/url", Some(json!({"url": url})))
            .await;
        assert!(v.get("error").is_none(), "navigate: {v}");
    }

    async fn find_all(&self, css: &str) -> Vec<String> {
        let v = self
            .call(
                reqwest::Method::POST,
                "/elements",
                Some(json!({"using": "css selector", "value": css})),
            )
            .await;
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|e| e[ELEMENT].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Wait until `css` matches an element whose text is not empty.
    async fn wait_text(&self, css: &str) -> (String, String) {
        let started = Instant::now();
        loop {
            for e in self.find_all(css).await {
                let text = self.text(&e).await;
                if !text.trim().is_empty() {
                    return (e, text);
                }
            }
            assert!(
                started.elapsed() < PATIENCE,
                "nothing shown for {css}; page text: {}",
                self.page_text().await
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn text(&self, element: &str) -> String {
        let v = self
            .call(
                reqwest::Method::GET,
                &format!("/element/{element}/text"),
                None,
            )
            .await;
        v.as_str().unwrap_or("").to_string()
    }

    async fn page_text(&self) -> String {
        match self.find_all("body").await.first() {
            Some(b) => self.text(b).await,
            None => String::new(),
        }
    }

    async fn type_into(&self, element: &str, text: &str) {
        self.call(
            reqwest::Method::POST,
            &format!("/element/{element}/value"),
            Some(json!({"text": text})),
        )
        .await;
    }

    async fn click(&self, element: &str) {
        self.call(
            reqwest::Method::POST,
            &format!("/element/{element}/click"),
            Some(json!({})),
        )
        .await;
    }

    async fn screenshot(&self, to: &Path) {
        let v = self.call(reqwest::Method::GET, "/screenshot", None).await;
        let png = base64_decode(v.as_str().expect("screenshot data"));
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        std::fs::write(to, png).unwrap();
    }

    async fn end(self) {
        let _ = self.http.delete(&self.url).send().await;
    }
}

/// A WebDriver reply's JSON (reqwest is built without its `json` feature).
async fn json_of(r: reqwest::Response) -> Result<Value, String> {
    let bytes = r.bytes().await.map_err(|e| e.to_string())?;
    serde_json::from_slice(&bytes).map_err(|e| e.to_string())
}

fn base64_decode(s: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut bits, mut n) = (0u32, 0);
    for v in s.bytes().filter_map(value) {
        bits = (bits << 6) | v;
        n += 6;
        if n >= 8 {
            n -= 8;
            out.push((bits >> n) as u8);
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_search_typed_in_headless_chromium_shows_results_and_opens_an_article() {
    let (chromium, chromedriver) = browser_tools();
    let c = crawled(43).await;
    let server = serve(&c.db).await;
    let base = format!("http://{}", server.addr);
    let en = c
        .articles
        .iter()
        .find(|a| a.article.language.as_deref() == Some("eng"))
        .expect("an English article");
    let word = a_word(en);

    let driver = start_driver(&chromedriver, &c.dir.path().join("chromedriver.log")).await;
    let session = Session::start(&driver, &chromium, &c.dir.path().join("profile")).await;

    // The overview first: the chart is an inline SVG drawn from /api/stats.
    session.goto(&format!("{base}/")).await;
    session.wait_text("#summary").await;
    let started = Instant::now();
    while session.find_all("#chart svg rect").await.is_empty() {
        assert!(started.elapsed() < PATIENCE, "no chart bars");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Type a search, submit, see results.
    let q = session.find_all("#q").await;
    session.type_into(&q[0], &word).await;
    let go = session.find_all("#go").await;
    session.click(&go[0]).await;
    let (_, first) = session.wait_text("#hits li.hit a").await;
    let titles: Vec<String> = {
        let mut t = Vec::new();
        for e in session.find_all("#hits li.hit a").await {
            t.push(session.text(&e).await);
        }
        t
    };
    let en_title = en.article.title.clone().unwrap_or_default();
    assert!(
        titles.iter().any(|t| t.trim() == en_title.trim()),
        "{word}: {en_title:?} among {titles:?}"
    );

    // Matches are highlighted, not shown as the store's `[word]` markers.
    let (_, mark) = session.wait_text("#hits li.hit p.snippet mark").await;
    assert!(
        mark.to_lowercase().contains(&word.to_lowercase()),
        "{mark:?}"
    );
    for e in session.find_all("#hits li.hit p.snippet").await {
        let snippet = session.text(&e).await;
        assert!(!snippet.contains('['), "literal marker in {snippet:?}");
    }
    // Counts in proper plural ("1 recurring lines" before).
    let counted = session
        .call(
            reqwest::Method::POST,
            "/execute/sync",
            Some(json!({"script": "return [plural(1, 'recurring line'), plural(2, 'recurring line')]", "args": []})),
        )
        .await;
    assert_eq!(counted, json!(["1 recurring line", "2 recurring lines"]));

    // Open the first result: its title and text show.
    let links = session.find_all("#hits li.hit a").await;
    session.click(&links[0]).await;
    let (_, title) = session.wait_text("#article-title").await;
    assert_eq!(title.trim(), first.trim());
    let (_, body) = session.wait_text("#article-text p").await;
    assert!(!body.is_empty());
    let shot = c.dir.path().join("serve-article.png");
    session.screenshot(&shot).await;

    // A shared link `/?q=WORD` opens with the search done.
    session.goto(&format!("{base}/?q={word}")).await;
    session.wait_text("#hits li.hit a").await;
    let shot_results = c.dir.path().join("serve-results.png");
    session.screenshot(&shot_results).await;
    println!(
        "screenshots: {} and {}",
        shot.display(),
        shot_results.display()
    );
    // Kept for a look by hand when NEWSHOUND_KEEP_SCREENSHOTS names a dir.
    if let Some(dir) = std::env::var_os("NEWSHOUND_KEEP_SCREENSHOTS") {
        let dir = PathBuf::from(dir);
        let _ = std::fs::copy(&shot, dir.join("serve-article.png"));
        let _ = std::fs::copy(&shot_results, dir.join("serve-results.png"));
    }

    session.end().await;
    drop(driver);
    server.shutdown().await;
    c.web.shutdown().await;
}
