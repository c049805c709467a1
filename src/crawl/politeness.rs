//! Per-host politeness: request spacing, Crawl-delay, concurrency caps,
//! pauses and parking.
//!
//! In: host keys ([`crate::urls::host_key`]: `host` or `host:port`, since the
//! simulated web runs one site per port), the configured rates, and what
//! happened on each fetch. Out: permission to fetch — a per-host concurrency
//! permit ([`Politeness::try_permit`]), the right to send one request now
//! ([`Politeness::try_send`], a [`Sent`] held until the response has been
//! read), and the time a paused or parked host may be contacted again
//! ([`Politeness::blocked_until`]).
//!
//! Spacing is judged the way the server sees it. A request's turn is taken
//! only at the moment it is sent (the caller holds its global fetch slot
//! already, so no wait falls between the turn and the request), and the
//! next turn of the host is `SPACING_FACTOR / rate` later plus a random
//! jitter of up to [`JITTER_FACTOR`] of the period: the margin absorbs the
//! few (under load, tens of) milliseconds between handing a request to the
//! HTTP client and its arrival, so a host never sees more than `rate`
//! requests in a second. A robots.txt `Crawl-delay` (capped by
//! `max_crawl_delay_secs`) lowers the rate to at most 1/delay, makes the host
//! serial (one request in flight) and counts from the end of the previous
//! response, as robots.txt means it.
//!
//! Two mechanisms hold this together, each for what it does well. The rate
//! itself is a per-host `governor` GCRA limiter (burst 1, period
//! `SPACING_FACTOR / rate`), checked — never awaited — in
//! [`Politeness::try_send`], i.e. at the moment of sending, so its verdict is
//! about the request the server will see. A per-host `next_send` instant adds
//! what a token bucket cannot express: the jitter, and a Crawl-delay counted
//! from the end of the previous response; it is also the hint of when to ask
//! again.
//!
//! A host that fails `PARK_AFTER` times in a row (timeouts, resets,
//! connection failures, 5xx) is parked: nothing is sent to it until the park
//! ends, and each further park doubles (capped by `backoff_max_secs`). A
//! `Retry-After` pauses the whole host, not just the URL.
//!
//! The map is bounded: beyond `MAX_HOSTS` entries, idle hosts (no permit out,
//! not paused) are evicted, oldest first.
//!
//! Several crawler processes on one PostgreSQL store share each host's
//! turns: right after this process's turn, the worker takes the host's turn
//! in the database, spaced by [`Politeness::spacing`]; when another process
//! had it, the host is [`Politeness::defer`]red to the shared turn (see the
//! worker's `send_turn` and `store::pg::turns`).

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::config::{Config, FetchConfig, PolitenessConfig};

/// Consecutive host failures before the host is parked.
pub const PARK_AFTER: u32 = 5;
/// Hosts remembered at once (limiters, semaphores, failure counts).
pub const MAX_HOSTS: usize = 10_000;
/// Requests to a host leave at least this many periods (1/rate) apart.
pub const SPACING_FACTOR: f64 = 1.05;
/// Up to this share of a period is added at random to each spacing, so
/// workers of many hosts do not fall into step.
pub const JITTER_FACTOR: f64 = 0.05;
/// How often a request to a serial (Crawl-delay) host looks again while the
/// host's previous request is still in flight.
pub const BUSY_POLL: Duration = Duration::from_millis(50);

/// Per-host rate limiting, concurrency caps and parking for one crawl.
pub struct Politeness {
    default_rate: f64,
    per_host_concurrency: usize,
    max_crawl_delay: f64,
    backoff_base: f64,
    backoff_max: f64,
    /// Site rates by host key (a site's `rate` applies to all its hosts).
    site_rates: HashMap<String, f64>,
    max_hosts: usize,
    hosts: Mutex<HashMap<String, HostState>>,
}

struct HostState {
    /// Shared with the [`Sent`] guards of requests in flight.
    timing: Arc<Mutex<Timing>>,
    /// Requests per second in force (site rate, lowered by Crawl-delay).
    rate: f64,
    permits: Arc<Semaphore>,
    /// No request before this (Retry-After, or parked).
    blocked_until: Option<Instant>,
    failures: u32,
    parks: u32,
    last_used: Instant,
}

/// When the next request to a host may leave.
struct Timing {
    /// The host's rate as a GCRA quota (burst 1), checked at send time.
    limiter: DefaultDirectRateLimiter,
    next_send: Instant,
    in_flight: u32,
    /// robots.txt `Crawl-delay` (capped): counted from a response's end.
    crawl_delay: Option<Duration>,
}

impl std::fmt::Debug for Timing {
    // The limiter's state is opaque; the rest says where the host stands.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Timing")
            .field("next_send", &self.next_send)
            .field("in_flight", &self.in_flight)
            .field("crawl_delay", &self.crawl_delay)
            .finish_non_exhaustive()
    }
}

fn lock_timing(timing: &Mutex<Timing>) -> MutexGuard<'_, Timing> {
    // Every update is a few assignments that cannot panic half-way.
    timing.lock().unwrap_or_else(|p| p.into_inner())
}

/// Permission to have one request in flight to a host.
#[derive(Debug)]
pub struct HostPermit {
    _permit: OwnedSemaphorePermit,
}

/// One request sent to a host. Drop it when the response has been read (or
/// the request failed): a Crawl-delay counts from then.
#[derive(Debug)]
pub struct Sent {
    timing: Arc<Mutex<Timing>>,
}

impl Drop for Sent {
    fn drop(&mut self) {
        let mut t = lock_timing(&self.timing);
        t.in_flight = t.in_flight.saturating_sub(1);
        if let Some(delay) = t.crawl_delay {
            t.next_send = t.next_send.max(Instant::now() + delay);
        }
    }
}

impl Politeness {
    pub fn new(politeness: &PolitenessConfig, fetch: &FetchConfig) -> Politeness {
        Politeness {
            default_rate: politeness.rate_per_host,
            per_host_concurrency: politeness.per_host_concurrency.max(1),
            max_crawl_delay: politeness.max_crawl_delay.as_secs_f64(),
            backoff_base: fetch.backoff_base.as_secs_f64(),
            backoff_max: fetch.backoff_max.as_secs_f64(),
            site_rates: HashMap::new(),
            max_hosts: MAX_HOSTS,
            hosts: Mutex::new(HashMap::new()),
        }
    }

    /// With every site's `rate` applied to the site's hosts.
    pub fn for_config(cfg: &Config) -> Politeness {
        let mut p = Politeness::new(&cfg.politeness, &cfg.fetch);
        for site in &cfg.sites {
            for host in &site.hosts {
                p.site_rates.insert(host.clone(), site.rate);
            }
        }
        p
    }

    fn base_rate(&self, host: &str) -> f64 {
        self.site_rates
            .get(host)
            .copied()
            .unwrap_or(self.default_rate)
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, HostState>> {
        // A panic while holding the lock cannot leave the map inconsistent
        // (every update is a single assignment), so poisoning is ignored.
        self.hosts.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn with_host<T>(&self, host: &str, f: impl FnOnce(&mut HostState) -> T) -> T {
        let mut hosts = self.lock();
        if !hosts.contains_key(host) {
            if hosts.len() >= self.max_hosts {
                evict_idle(&mut hosts, self.max_hosts / 10 + 1);
            }
            let rate = self.base_rate(host);
            hosts.insert(
                host.to_string(),
                HostState {
                    timing: Arc::new(Mutex::new(Timing {
                        limiter: rate_limiter(rate),
                        next_send: Instant::now(),
                        in_flight: 0,
                        crawl_delay: None,
                    })),
                    rate,
                    permits: Arc::new(Semaphore::new(self.per_host_concurrency)),
                    blocked_until: None,
                    failures: 0,
                    parks: 0,
                    last_used: Instant::now(),
                },
            );
        }
        let state = hosts
            .get_mut(host)
            .expect("inserted above while holding the lock");
        state.last_used = Instant::now();
        f(state)
    }

    /// A concurrency permit for `host`, if one is free and the host is not
    /// paused or parked. Never waits.
    pub fn try_permit(&self, host: &str) -> Option<HostPermit> {
        let now = Instant::now();
        self.with_host(host, |s| {
            if s.blocked_until.is_some_and(|t| t > now) {
                return None;
            }
            s.permits
                .clone()
                .try_acquire_owned()
                .ok()
                .map(|p| HostPermit { _permit: p })
        })
    }

    /// When a paused or parked host may be contacted again.
    pub fn blocked_until(&self, host: &str) -> Option<Instant> {
        let now = Instant::now();
        self.with_host(host, |s| s.blocked_until.filter(|t| *t > now))
    }

    /// Send one request to `host` now, if its turn has come: the turn is
    /// taken (the next one is a spaced period later) and the returned
    /// [`Sent`] is held until the response has been read. Otherwise the
    /// earliest time to ask again. Call it right before sending, with every
    /// other wait (the global fetch slot) already behind.
    pub fn try_send(&self, host: &str) -> Result<Sent, Instant> {
        let (timing, rate) = self.with_host(host, |s| (s.timing.clone(), s.rate));
        let now = Instant::now();
        let mut t = lock_timing(&timing);
        if t.crawl_delay.is_some() && t.in_flight > 0 {
            return Err(t.next_send.max(now + BUSY_POLL));
        }
        if t.next_send > now {
            return Err(t.next_send);
        }
        if let Err(not_until) = t.limiter.check() {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            return Err(now + wait.max(Duration::from_millis(1)));
        }
        let period = 1.0 / rate.max(1e-6);
        let jitter = random_unit() * JITTER_FACTOR * period;
        let spacing =
            Duration::try_from_secs_f64(SPACING_FACTOR * period + jitter).unwrap_or(Duration::MAX);
        t.next_send = now.checked_add(spacing).unwrap_or(now + MAX_SPACING);
        t.in_flight += 1;
        drop(t);
        Ok(Sent { timing })
    }

    /// The spacing between two requests to `host` at its rate in force
    /// (the site's rate, lowered by a Crawl-delay): what its shared turn
    /// across processes is spaced by.
    pub fn spacing(&self, host: &str) -> Duration {
        let rate = self.with_host(host, |s| s.rate);
        Duration::try_from_secs_f64(SPACING_FACTOR / rate.max(1e-6)).unwrap_or(MAX_SPACING)
    }

    /// No request to `host` before `until` (its shared turn is later).
    pub fn defer(&self, host: &str, until: Instant) {
        let timing = self.with_host(host, |s| s.timing.clone());
        let mut t = lock_timing(&timing);
        t.next_send = t.next_send.max(until);
    }

    /// When `host` may be sent its next request (now or later); a hint for
    /// waiting before [`Politeness::try_send`].
    pub fn send_ready_at(&self, host: &str) -> Instant {
        let timing = self.with_host(host, |s| s.timing.clone());
        let t = lock_timing(&timing);
        t.next_send
    }

    /// Wait for `host`'s turn and take it (for callers that hold no other
    /// resource while waiting, as `sites check`; the crawl itself uses
    /// `try_send` with a slot).
    pub async fn wait_turn(&self, host: &str) -> Sent {
        loop {
            match self.try_send(host) {
                Ok(sent) => return sent,
                Err(at) => tokio::time::sleep_until(at.into()).await,
            }
        }
    }

    /// Requests per second currently allowed to `host`.
    #[cfg(test)]
    pub fn rate(&self, host: &str) -> f64 {
        self.with_host(host, |s| s.rate)
    }

    /// Apply a robots.txt `Crawl-delay` (seconds, capped by
    /// `max_crawl_delay_secs`): the host's rate becomes at most 1/delay, it
    /// gets one request in flight at a time, and each next request waits a
    /// full delay after the previous response ended. Call it just after the
    /// response carrying robots.txt was read: the delay counts from now.
    pub fn set_crawl_delay(&self, host: &str, delay_secs: f64) {
        let delay = delay_secs.min(self.max_crawl_delay);
        if !(delay.is_finite() && delay > 0.0) {
            return;
        }
        let Ok(delay) = Duration::try_from_secs_f64(delay) else {
            return;
        };
        let base = self.base_rate(host);
        let (timing, rate) = self.with_host(host, |s| {
            s.rate = base.min(1.0 / delay.as_secs_f64());
            (s.timing.clone(), s.rate)
        });
        let mut t = lock_timing(&timing);
        t.limiter = rate_limiter(rate);
        t.crawl_delay = Some(delay);
        t.next_send = t.next_send.max(Instant::now() + delay);
    }

    /// Pause the host (a `Retry-After`), keeping the later of two pauses.
    pub fn pause(&self, host: &str, for_: Duration) {
        let until = Instant::now() + for_;
        self.with_host(host, |s| {
            s.blocked_until = Some(s.blocked_until.map_or(until, |t| t.max(until)));
        });
    }

    pub fn record_success(&self, host: &str) {
        self.with_host(host, |s| {
            s.failures = 0;
            s.parks = 0;
        });
    }

    /// Count a host failure; returns how long the host is parked if this
    /// failure parked it.
    pub fn record_failure(&self, host: &str) -> Option<Duration> {
        let (base, max) = (self.backoff_base, self.backoff_max);
        self.with_host(host, |s| {
            s.failures += 1;
            if s.failures < PARK_AFTER {
                return None;
            }
            s.failures = 0;
            let secs = (base * 2f64.powi(s.parks.min(30) as i32 + 2)).min(max);
            s.parks += 1;
            let park = Duration::from_secs_f64(secs.max(0.0));
            let until = Instant::now() + park;
            s.blocked_until = Some(s.blocked_until.map_or(until, |t| t.max(until)));
            Some(park)
        })
    }

    /// Hosts currently remembered.
    #[cfg(test)]
    pub fn hosts_tracked(&self) -> usize {
        self.lock().len()
    }
}

/// A host's quota: one request per `SPACING_FACTOR / rate`, no burst.
fn rate_limiter(rate: f64) -> DefaultDirectRateLimiter {
    let period = Duration::try_from_secs_f64(SPACING_FACTOR / rate.max(1e-6))
        .unwrap_or(MAX_SPACING)
        .clamp(Duration::from_micros(1), MAX_SPACING);
    let quota = Quota::with_period(period).expect("period is at least 1 µs");
    RateLimiter::direct(quota)
}

/// Longest spacing between two requests (a rate near zero).
const MAX_SPACING: Duration = Duration::from_secs(24 * 3600);

/// A number in [0, 1) that differs from call to call (for jitter; std's
/// randomly keyed hasher, so no random-number crate is needed).
fn random_unit() -> f64 {
    let bits = std::collections::hash_map::RandomState::new().hash_one(Instant::now());
    (bits >> 11) as f64 / (1u64 << 53) as f64
}

/// Drop up to `n` idle hosts (no permit out, not blocked), least recently used first.
fn evict_idle(hosts: &mut HashMap<String, HostState>, n: usize) {
    let now = Instant::now();
    let mut idle: Vec<(Instant, String)> = hosts
        .iter()
        .filter(|(_, s)| {
            Arc::strong_count(&s.permits) == 1
                && s.permits.available_permits() > 0
                && Arc::strong_count(&s.timing) == 1
                && s.blocked_until.is_none_or(|t| t <= now)
        })
        .map(|(k, s)| (s.last_used, k.clone()))
        .collect();
    idle.sort();
    for (_, key) in idle.into_iter().take(n) {
        hosts.remove(&key);
    }
}

#[cfg(test)]
mod tests;
