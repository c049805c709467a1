//! A failed request as the crawl acts on it: the HTTP client's error (and
//! its chain of causes) → a [`FetchError`] variant.

use super::FetchError;
use crate::crawl::addr::AddressRefused;

/// Map a reqwest error to what callers act on.
pub(super) fn classify(err: reqwest::Error) -> FetchError {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&err);
    let mut reset = false;
    while let Some(e) = source {
        if let Some(refused) = e.downcast_ref::<AddressRefused>() {
            return FetchError::BlockedAddress(refused.name.clone());
        }
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            use std::io::ErrorKind::*;
            if matches!(
                io.kind(),
                ConnectionReset | ConnectionAborted | BrokenPipe | UnexpectedEof
            ) {
                reset = true;
            }
            if io.kind() == TimedOut {
                return FetchError::Timeout;
            }
        }
        // hyper reports a peer that hung up early only in its message.
        let msg = e.to_string().to_ascii_lowercase();
        if msg.contains("connection closed") || msg.contains("end of file") || msg.contains("reset")
        {
            reset = true;
        }
        source = e.source();
    }
    if err.is_timeout() {
        FetchError::Timeout
    } else if err.is_connect() {
        FetchError::Connect(chain_text(&err))
    } else if reset {
        FetchError::Reset
    } else if err.is_body() || err.is_decode() {
        FetchError::Body(chain_text(&err))
    } else {
        FetchError::Request(chain_text(&err))
    }
}

fn chain_text(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}
