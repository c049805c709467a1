//! Per-host politeness: rate limits, concurrency caps, pauses and parking.
//!
//! In: host keys ([`crate::urls::host_key`]: `host` or `host:port`, since the
//! simulated web runs one site per port), the configured rates, and what
//! happened on each fetch. Out: permission to fetch — a per-host concurrency
//! permit ([`Politeness::try_permit`]), a wait for the host's rate limiter
//! ([`Politeness::wait_turn`]), and the time a paused or parked host may be
//! contacted again ([`Politeness::blocked_until`]).
//!
//! Every host has its own governor limiter because hosts differ in rate (a
//! site's `rate`, or robots.txt `Crawl-delay` capped by
//! `max_crawl_delay_secs`); governor's keyed limiter has a single quota. The
//! quota has a burst of one, so requests to a host are spaced by at least
//! 1/rate; jitter (up to a tenth of the period) only ever adds delay.
//!
//! A host that fails `PARK_AFTER` times in a row (timeouts, resets,
//! connection failures, 5xx) is parked: nothing is sent to it until the park
//! ends, and each further park doubles (capped by `backoff_max_secs`). A
//! `Retry-After` pauses the whole host, not just the URL.
//!
//! The map is bounded: beyond `MAX_HOSTS` entries, idle hosts (no permit out,
//! not paused) are evicted, oldest first.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use governor::{DefaultDirectRateLimiter, Jitter, Quota, RateLimiter};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::config::{Config, FetchConfig, PolitenessConfig};

/// Consecutive host failures before the host is parked.
pub const PARK_AFTER: u32 = 5;
/// Hosts remembered at once (limiters, semaphores, failure counts).
pub const MAX_HOSTS: usize = 10_000;

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
    limiter: Arc<DefaultDirectRateLimiter>,
    /// Requests per second in force (site rate, lowered by Crawl-delay).
    rate: f64,
    permits: Arc<Semaphore>,
    /// No request before this (Retry-After, or parked).
    blocked_until: Option<Instant>,
    failures: u32,
    parks: u32,
    last_used: Instant,
}

/// Permission to have one request in flight to a host.
#[derive(Debug)]
pub struct HostPermit {
    _permit: OwnedSemaphorePermit,
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
                    limiter: Arc::new(limiter(rate)),
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

    /// Wait until the host's rate limit allows one more request.
    pub async fn wait_turn(&self, host: &str) {
        let (limiter, rate) = self.with_host(host, |s| (s.limiter.clone(), s.rate));
        let jitter = Jitter::up_to(Duration::from_secs_f64(0.1 / rate));
        limiter.until_ready_with_jitter(jitter).await;
    }

    /// Requests per second currently allowed to `host`.
    #[cfg(test)]
    pub fn rate(&self, host: &str) -> f64 {
        self.with_host(host, |s| s.rate)
    }

    /// Apply a robots.txt `Crawl-delay` (seconds, capped by
    /// `max_crawl_delay_secs`): the host's rate becomes at most 1/delay.
    /// Call it just after the request that fetched robots.txt.
    pub fn set_crawl_delay(&self, host: &str, delay_secs: f64) {
        let delay = delay_secs.min(self.max_crawl_delay);
        if !(delay.is_finite() && delay > 0.0) {
            return;
        }
        let base = self.base_rate(host);
        self.with_host(host, |s| {
            let rate = base.min(1.0 / delay);
            if (rate - s.rate).abs() > f64::EPSILON {
                s.rate = rate;
                let fresh = limiter(rate);
                // Called right after the robots.txt request: that request
                // counts, so the next one waits a full delay.
                let _ = fresh.check();
                s.limiter = Arc::new(fresh);
            }
        });
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

fn limiter(rate: f64) -> DefaultDirectRateLimiter {
    let period = Duration::from_secs_f64(1.0 / rate.max(1e-6));
    let quota = Quota::with_period(period)
        .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
        .allow_burst(NonZeroU32::MIN);
    RateLimiter::direct(quota)
}

/// Drop up to `n` idle hosts (no permit out, not blocked), least recently used first.
fn evict_idle(hosts: &mut HashMap<String, HostState>, n: usize) {
    let now = Instant::now();
    let mut idle: Vec<(Instant, String)> = hosts
        .iter()
        .filter(|(_, s)| {
            Arc::strong_count(&s.permits) == 1
                && s.permits.available_permits() > 0
                && Arc::strong_count(&s.limiter) == 1
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
