//! When a URL that did not get through is tried again (pure).
//!
//! In: the configuration, a failure's kind and the URL's attempts. Out:
//! the fingerprint of the settings that refused a URL, and the next state
//! of a URL whose fetch failed.
//!
//! Three rules, one home:
//! - A URL refused by a setting (the address guard, robots.txt) is retried
//!   when that setting changed: the store keeps the [`refusal`] fingerprint
//!   in force when it was refused (`urls.refused_under`), and a crawl
//!   queues again the URLs refused under other settings than its own
//!   ([`refusals`]) before it starts.
//! - A transient failure (timeout, reset, 5xx, 429) that used up the run's
//!   retries waits [`LATER_RETRY`] and longer for a later crawl, up to
//!   [`LATER_TRIES`] times, before it counts as failed
//!   ([`after_failure`]).
//! - Anything else that failed stays failed until `crawl --retry-failed`.
//!
//! And the user's word lifts waits ([`requeue`]): URLs that wait after a
//! skip or a failure (robots.txt unavailable, a transient failure's later
//! try) are made due at once by `crawl --retry-failed`, and by any crawl of
//! a site none of whose URLs is due (a crawl that would otherwise fetch
//! nothing of it). A crawl that still fetches nothing while URLs wait says
//! so and fails ([`crate::crawl::CrawlSummary::stalled`]).

use std::time::Duration;

use crate::config::Config;
use crate::crawl::kinds::{ErrorKind, SkipKind};
use crate::store::Requeue;

/// The reasons whose URLs are retried when the setting behind them
/// changed, and the setting: what [`refusal`] fingerprints.
pub const REFUSAL_REASONS: [&str; 2] = [
    ErrorKind::BlockedAddress.as_str(),
    SkipKind::RobotsDisallowed.as_str(),
];

/// The settings in force that refuse URLs for `reason` (an error or skip
/// kind), as a short text the store keeps with a refused URL; `None` for a
/// reason no setting decides.
pub fn refusal(cfg: &Config, reason: &str) -> Option<String> {
    if reason == ErrorKind::BlockedAddress.as_str() {
        Some(format!(
            "allow_private_addresses={}",
            cfg.fetch.allow_private_addresses
        ))
    } else if reason == SkipKind::RobotsDisallowed.as_str() {
        Some(format!(
            "respect_robots={};user_agent={}",
            cfg.politeness.respect_robots, cfg.crawler.user_agent
        ))
    } else {
        None
    }
}

/// Every refusal reason with the fingerprint of today's settings: a URL
/// refused for one of these reasons under another fingerprint (or before
/// fingerprints were kept) is queued again.
pub fn refusals(cfg: &Config) -> Vec<(String, String)> {
    REFUSAL_REASONS
        .iter()
        .filter_map(|r| refusal(cfg, r).map(|f| (r.to_string(), f)))
        .collect()
}

/// What a crawl queues again before it starts, at `now_ms`: URLs refused
/// under other settings; with `retry_failed` every failed or refused one
/// and every wait; without, the waits of a site with nothing due.
pub fn requeue(cfg: &Config, retry_failed: bool, now_ms: i64) -> Requeue {
    Requeue {
        refusals: refusals(cfg),
        failed: retry_failed,
        now_ms,
    }
}

/// A transient failure that used up a run's retries waits this long for
/// the next crawl, doubled at each later try.
pub const LATER_RETRY: Duration = Duration::from_secs(3600);
/// Later tries of a transient failure before it counts as failed.
pub const LATER_TRIES: u32 = 3;

/// What happens to a URL whose fetch failed, with `attempts` failed before
/// this one and `retries` allowed within a run (`[fetch] retries`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterFailure {
    /// Tried again within this run after `delay` (the fetch backoff).
    RetrySoon(Duration),
    /// Tried again by a later crawl, after `delay`.
    RetryLater(Duration),
    /// Given up: failed until the setting changes or `--retry-failed`.
    GiveUp,
}

/// The rule for a failed fetch: `backoff` is the failure's retry delay
/// (`None` when it is not transient).
pub fn after_failure(backoff: Option<Duration>, attempts: u32, retries: u32) -> AfterFailure {
    let Some(delay) = backoff else {
        return AfterFailure::GiveUp;
    };
    if attempts < retries {
        return AfterFailure::RetrySoon(delay);
    }
    let later = attempts - retries;
    if later < LATER_TRIES {
        return AfterFailure::RetryLater(LATER_RETRY * 2u32.pow(later).max(1));
    }
    AfterFailure::GiveUp
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn config(extra: &str) -> Config {
        let text = format!("{extra}\n[[sites]]\nname = \"s\"\nstart = [\"http://127.0.0.1:9/\"]\n");
        Config::parse(&text, Path::new("t.toml"), Path::new(".")).unwrap()
    }

    #[test]
    fn the_address_guard_refusal_changes_with_allow_private_addresses() {
        let off = config("");
        let on = config("[fetch]\nallow_private_addresses = true");
        let (a, b) = (
            refusal(&off, "blocked_address").unwrap(),
            refusal(&on, "blocked_address").unwrap(),
        );
        assert_ne!(a, b);
        // Other settings do not count.
        let other = config("[fetch]\nretries = 5");
        assert_eq!(refusal(&other, "blocked_address").unwrap(), a);
    }

    #[test]
    fn the_robots_refusal_changes_with_respect_robots_and_the_user_agent() {
        let base = refusal(&config(""), "robots_disallowed").unwrap();
        let ignore = config("[politeness]\nrespect_robots = false");
        let agent = config("[crawler]\nuser_agent = \"other/1.0\"");
        assert_ne!(refusal(&ignore, "robots_disallowed").unwrap(), base);
        assert_ne!(refusal(&agent, "robots_disallowed").unwrap(), base);
    }

    #[test]
    fn reasons_no_setting_decides_have_no_refusal() {
        let cfg = config("");
        assert_eq!(refusal(&cfg, "http_4xx"), None);
        assert_eq!(refusal(&cfg, "timeout"), None);
        let all: Vec<String> = refusals(&cfg).into_iter().map(|(r, _)| r).collect();
        assert_eq!(all, ["blocked_address", "robots_disallowed"]);
    }

    #[test]
    fn a_transient_failure_is_retried_in_the_run_then_by_later_crawls_then_given_up() {
        let d = Some(Duration::from_secs(2));
        assert_eq!(
            after_failure(d, 0, 2),
            AfterFailure::RetrySoon(Duration::from_secs(2))
        );
        assert_eq!(
            after_failure(d, 1, 2),
            AfterFailure::RetrySoon(Duration::from_secs(2))
        );
        assert_eq!(
            after_failure(d, 2, 2),
            AfterFailure::RetryLater(LATER_RETRY)
        );
        assert_eq!(
            after_failure(d, 3, 2),
            AfterFailure::RetryLater(LATER_RETRY * 2)
        );
        assert_eq!(
            after_failure(d, 4, 2),
            AfterFailure::RetryLater(LATER_RETRY * 4)
        );
        assert_eq!(after_failure(d, 5, 2), AfterFailure::GiveUp);
    }

    #[test]
    fn a_permanent_failure_is_given_up_at_once() {
        assert_eq!(after_failure(None, 0, 2), AfterFailure::GiveUp);
    }
}
