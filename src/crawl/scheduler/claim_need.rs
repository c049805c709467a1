//! Whether the scheduler's waiting URLs need a claim now.
//!
//! In: what the scheduler holds ([`Holding`]: URLs waiting in total and per
//! host, its targets, whether fetch slots are free that no queued host can
//! use, whether a host's queue ran dry since the last claim). Out: claim or
//! not ([`Holding::needs_claim`]).
//!
//! Why it matters: every claim commits the writer's buffer first, so a claim
//! per finished page makes a one-page commit per page. With many hosts the
//! fetch slots bound the crawl and claiming when the queue is down to half
//! batches the commits. With few hosts (1–7 at the default caps) each host's
//! own concurrency or rate bounds it, slots are always free ("starved"), and
//! claiming whenever starved claimed after every finished page, for the one
//! URL its host had just used. A starved scheduler now claims only when some
//! host is down to half its own target or ran dry (or nothing waits at all):
//! a host with a full queue gains nothing from a claim.

/// What the scheduler holds when it decides.
#[derive(Debug, Clone, Copy)]
pub(super) struct Holding {
    /// URLs waiting over all hosts.
    pub queued: usize,
    /// URLs to keep waiting when the slots bound the crawl (doubled when
    /// starved, as hosts may then take more).
    pub queue_target: usize,
    /// Fetch slots are free that no queued host can use.
    pub starved: bool,
    /// URLs to keep waiting per host.
    pub per_host_target: usize,
    /// The shortest queue of a host holding URLs (`None`: no host does).
    pub shortest_host_queue: Option<usize>,
    /// A host's queue emptied since the last claim: the frontier may have
    /// more of its URLs (found by the pages since).
    pub host_ran_dry: bool,
}

impl Holding {
    /// URLs wanted in total: the queue target, doubled when starved.
    pub fn want(&self) -> usize {
        if self.starved {
            self.queue_target * 2
        } else {
            self.queue_target
        }
    }

    /// Whether a claim is worth its commit now.
    pub fn needs_claim(&self) -> bool {
        let want = self.want();
        if self.queued >= want {
            return false;
        }
        if !self.starved {
            return self.queued <= want / 2;
        }
        self.queued == 0
            || self.host_ran_dry
            || self
                .shortest_host_queue
                .is_some_and(|n| n <= self.per_host_target / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three hosts at per-host target 32, concurrency 16 (queue target 64).
    fn few_hosts(shortest: usize, starved: bool) -> Holding {
        Holding {
            queued: 64 + shortest,
            queue_target: 64,
            starved,
            per_host_target: 32,
            shortest_host_queue: Some(shortest),
            host_ran_dry: false,
        }
    }

    #[test]
    fn regression_few_host_crawls_claimed_after_every_finished_page() {
        // One page of a host with a full queue finished: nothing to claim.
        assert!(!few_hosts(31, true).needs_claim());
        assert!(!few_hosts(17, true).needs_claim());
        // Down to half its target: the host needs URLs.
        assert!(few_hosts(16, true).needs_claim());
    }

    #[test]
    fn a_host_that_ran_dry_or_an_empty_queue_is_claimed_for() {
        let dry = Holding {
            host_ran_dry: true,
            ..few_hosts(31, true)
        };
        assert!(dry.needs_claim());
        let empty = Holding {
            queued: 0,
            shortest_host_queue: None,
            ..few_hosts(0, true)
        };
        assert!(empty.needs_claim());
        let not_starved_empty = Holding {
            starved: false,
            ..empty
        };
        assert!(not_starved_empty.needs_claim());
    }

    #[test]
    fn with_slots_binding_the_queue_is_refilled_at_half() {
        let h = |queued| Holding {
            queued,
            starved: false,
            ..few_hosts(1, false)
        };
        // Short host queues do not matter when the slots bind.
        assert!(!h(33).needs_claim());
        assert!(h(32).needs_claim());
        assert!(h(0).needs_claim());
    }

    #[test]
    fn a_full_queue_is_never_claimed_for() {
        let full = Holding {
            queued: 128,
            host_ran_dry: true,
            ..few_hosts(0, true)
        };
        assert!(!full.needs_claim());
    }
}
