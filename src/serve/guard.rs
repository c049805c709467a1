//! What every response of `serve` goes through: the `Host` allow-list and
//! `X-Content-Type-Options: nosniff`.
//!
//! In: a request and the allow-list ([`Hosts`]). Out: the route's response
//! with `nosniff`, or 421 when the request names a host not served here.
//!
//! DNS rebinding: a web page the user visits can point its own name
//! (`evil.example`) at 127.0.0.1 and read `serve`'s answers as same-origin
//! responses; its requests then carry `Host: evil.example:PORT`. Only
//! these hosts are answered: the bound address (any IP address when bound
//! to all interfaces: an address cannot be rebound), `localhost`, and the
//! names given with `--allow-host`.

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::ApiError;

/// The hosts a request may name.
#[derive(Debug, Clone)]
pub struct Hosts {
    bound: IpAddr,
    /// Lower-cased names (`localhost` and `--allow-host`).
    names: Vec<String>,
}

impl Hosts {
    pub fn new(bound: IpAddr, allow: &[String]) -> Hosts {
        let mut names = vec!["localhost".to_string()];
        names.extend(
            allow
                .iter()
                .map(|n| n.trim_end_matches('.').to_ascii_lowercase()),
        );
        Hosts { bound, names }
    }

    /// Whether a request whose `Host` is `host` (with or without a port) is
    /// answered.
    pub fn allows(&self, host: &str) -> bool {
        let name = host_name(host);
        if let Ok(ip) = name
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
        {
            return ip == self.bound || self.bound.is_unspecified();
        }
        let name = name.trim_end_matches('.').to_ascii_lowercase();
        self.names.contains(&name)
    }

    /// The allowed hosts, for the refusal message.
    fn shown(&self) -> String {
        let bound = if self.bound.is_unspecified() {
            "any IP address".to_string()
        } else {
            self.bound.to_string()
        };
        std::iter::once(bound)
            .chain(self.names.iter().cloned())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// `host[:port]` → `host` (`[::1]:80` → `[::1]`).
fn host_name(host: &str) -> &str {
    let host = host.trim();
    if host.starts_with('[') {
        return host.find(']').map_or(host, |end| &host[..=end]);
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

/// The middleware: 421 for a host not served here, `nosniff` on every
/// response.
pub async fn guard(State(hosts): State<Arc<Hosts>>, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .or_else(|| req.uri().authority().map(|a| a.to_string()));
    let mut response = match host {
        Some(h) if hosts.allows(&h) => next.run(req).await,
        Some(h) => ApiError {
            status: StatusCode::MISDIRECTED_REQUEST,
            message: format!(
                "host {h:?} is not served here (served: {}; add a name with --allow-host)",
                hosts.shown()
            ),
        }
        .into_response(),
        None => ApiError::bad_request("the request names no host (a Host header is required)")
            .into_response(),
    };
    response.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regression_dns_rebinding_hosts_were_answered() {
        let loopback = Hosts::new("127.0.0.1".parse().unwrap(), &["news.lan".into()]);
        assert!(loopback.allows("127.0.0.1:8080"));
        assert!(loopback.allows("localhost:8080"));
        assert!(loopback.allows("LOCALHOST."));
        assert!(loopback.allows("news.lan:8080"));
        assert!(!loopback.allows("evil.example:8080"));
        assert!(!loopback.allows("127.0.0.1.evil.example"));
        assert!(!loopback.allows("10.0.0.1:8080"));
        let v6 = Hosts::new("::1".parse().unwrap(), &[]);
        assert!(v6.allows("[::1]:8080"));
        assert!(!v6.allows("127.0.0.1:8080"));
        let any = Hosts::new("0.0.0.0".parse().unwrap(), &[]);
        assert!(any.allows("192.168.1.5:8080"));
        assert!(!any.allows("evil.example"));
    }
}
