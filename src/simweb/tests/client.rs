//! A tiny raw HTTP/1.1 client for the simweb tests.
//!
//! In: a 127.0.0.1 URL (and extra header lines). Out: status, headers and the
//! body exactly as sent (chunked framing removed, nothing decompressed), over
//! a tokio `TcpStream` with `Connection: close`, so no client library hides
//! what the server did.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use url::Url;

pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// GET `url` (127.0.0.1 only) and read the whole reply, up to `limit` body bytes.
pub async fn get_limited(url: &Url, extra: &str, limit: usize) -> std::io::Result<Reply> {
    assert_eq!(url.host_str(), Some("127.0.0.1"));
    let port = url.port().unwrap_or(80);
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await?;
    let target = match url.query() {
        Some(q) => format!("{}?{q}", url.path()),
        None => url.path().to_string(),
    };
    let req = format!(
        "GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUser-Agent: simweb-test\r\n{extra}Connection: close\r\n\r\n"
    );
    stream.write_all(req.as_bytes()).await?;
    let mut raw = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    // A read error (reset) ends the reply like EOF: keep what came.
    while let Ok(n) = stream.read(&mut buf).await {
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
        if raw.len() > limit + 64 * 1024 {
            break;
        }
    }
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| std::io::Error::other("no header end"))?;
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    if chunked {
        body = dechunk(&body);
    }
    Ok(Reply {
        status,
        headers,
        body,
    })
}

pub async fn get(url: &Url) -> Reply {
    get_limited(url, "", 64 * 1024 * 1024)
        .await
        .expect("GET succeeds")
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = data.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&data[..eol])
            .ok()
            .and_then(|s| usize::from_str_radix(s.trim(), 16).ok())
            .unwrap_or(0);
        if size == 0 || data.len() < eol + 2 + size {
            out.extend_from_slice(&data[(eol + 2).min(data.len())..]);
            break;
        }
        out.extend_from_slice(&data[eol + 2..eol + 2 + size]);
        data = &data[(eol + 4 + size).min(data.len())..];
    }
    out
}
