//! Memory and CPU bounds of a crawl that do not belong to one stage: the
//! budget of body bytes held at once ([`BodyBudget`], `[fetch]
//! max_bytes_in_flight`), the size above which pages are processed one at a
//! time ([`LARGE_PAGE`]) and how many pages are processed at once
//! ([`cpu_slots`]).
//!
//! In: the configured limits; reservations asked for by workers. Out:
//! semaphore permits whose lifetime is the memory they stand for.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Bodies above this size are processed one at a time (see `worker::Ctx::large_pages`).
pub const LARGE_PAGE: usize = 1024 * 1024;

/// Pages processed at once (the threads of `pool::ProcessPool`): the cores this
/// process may use, 1 when that cannot be told.
pub fn cpu_slots() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// The bound on body bytes held at once over all fetches and pages waiting
/// for or in processing. A fetch reserves the most its body may take
/// (`max_body_bytes`) before it is sent — waiting here, holding nothing else,
/// so the wait cannot shorten a host's spacing — and gives back what its
/// body did not use once it has been read; the rest is held until the page
/// has been processed. Reserving the worst case up front means a reservation
/// never has to grow, so fetches can never hold parts of the budget while
/// waiting for each other.
#[derive(Clone)]
pub struct BodyBudget {
    kib: Arc<Semaphore>,
    max_body_kib: u32,
}

impl BodyBudget {
    pub fn new(max_bytes_in_flight: u64, max_body_bytes: u64) -> BodyBudget {
        let total = kib(max_bytes_in_flight).max(1);
        BodyBudget {
            kib: Arc::new(Semaphore::new(total as usize)),
            max_body_kib: kib(max_body_bytes).clamp(1, total),
        }
    }

    /// Wait for room for one whole body.
    pub async fn reserve(&self) -> Option<OwnedSemaphorePermit> {
        self.kib
            .clone()
            .acquire_many_owned(self.max_body_kib)
            .await
            .ok()
    }

    /// Keep only what a body of `len` bytes needs.
    pub fn shrink(reserved: &mut OwnedSemaphorePermit, len: usize) {
        let keep = kib(len as u64).max(1) as usize;
        if reserved.num_permits() > keep {
            drop(reserved.split(reserved.num_permits() - keep));
        }
    }

    /// KiB free right now.
    #[cfg(test)]
    fn available_kib(&self) -> usize {
        self.kib.available_permits()
    }
}

/// Bytes in whole KiB, rounded up; at most what a semaphore can count.
fn kib(bytes: u64) -> u32 {
    u32::try_from(bytes.div_ceil(1024)).unwrap_or(u32::MAX >> 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_reservation_is_one_whole_body_and_shrinks_to_what_the_body_took() {
        let budget = BodyBudget::new(10 * 1024 * 1024, 4 * 1024 * 1024);
        let mut a = budget.reserve().await.expect("room");
        let _b = budget.reserve().await.expect("room");
        assert_eq!(budget.available_kib(), 2 * 1024);
        // A third whole body does not fit until one shrinks.
        assert!(budget.kib.clone().try_acquire_many_owned(4 * 1024).is_err());
        BodyBudget::shrink(&mut a, 10_000);
        assert_eq!(budget.available_kib(), 2 * 1024 + 4 * 1024 - 10);
        let _c = budget.reserve().await.expect("room after the shrink");
        drop(a);
        assert_eq!(budget.available_kib(), 2 * 1024);
    }
}
