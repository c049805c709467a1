//! Global politeness on PostgreSQL: each host's next turn, shared by every
//! crawler process of the database (`hosts.next_turn_at`).
//!
//! In: a host, and the spacing its rate (or Crawl-delay) asks for. Out:
//! the turn taken (the request may leave now), or how long until the
//! host's next turn. A turn is taken only when it is due, in one atomic
//! statement on the database server's clock (so the machines' clocks do
//! not matter), and the next one is set a spacing later: the requests of
//! all processes together keep the host's rate.
//!
//! A robots.txt Crawl-delay read by any process raises the host's spacing
//! for all of them (`hosts.delay_spacing_ms`).
//!
//! The calls are async (`tokio-postgres`, a connection of its own in the
//! crawl's runtime): workers ask right before they send, with their fetch
//! slot in hand, and must not block the runtime's threads.

use std::time::Duration;

use super::frontier::{millis, server_now_ms};
use super::{reason_of, PgStore};
use crate::store::StoreError;

/// Take the host's turn if it is due; in both cases say how many ms
/// remain until the host's next turn.
const TAKE_TURN_SQL: &str = concat!(
    "WITH now AS (SELECT ",
    server_now_ms!(),
    " AS ms),
     took AS (
         INSERT INTO hosts AS h (host, next_turn_at)
         SELECT $1, ms + $2 FROM now
         ON CONFLICT (host) DO UPDATE
         SET next_turn_at = (SELECT ms FROM now) + greatest($2, h.delay_spacing_ms)
         WHERE h.next_turn_at <= (SELECT ms FROM now)
         RETURNING h.next_turn_at
     )
     SELECT EXISTS (SELECT 1 FROM took),
            coalesce((SELECT next_turn_at FROM took),
                     (SELECT next_turn_at FROM hosts WHERE host = $1), 0)
            - (SELECT ms FROM now)"
);

/// Record the spacing a host's robots.txt Crawl-delay asks for, for every
/// process, counted from now (the robots.txt response just ended).
const DELAY_SQL: &str = concat!(
    "WITH now AS (SELECT ",
    server_now_ms!(),
    " AS ms)
     INSERT INTO hosts AS h (host, next_turn_at, delay_spacing_ms)
     SELECT $1, ms + $2, $2 FROM now
     ON CONFLICT (host) DO UPDATE
     SET delay_spacing_ms = $2,
         next_turn_at = greatest(h.next_turn_at, (SELECT ms FROM now) + $2)"
);

/// Where to connect for the turns (the store's database), before the
/// crawl's runtime runs.
pub struct TurnsAt {
    url: String,
    shown: String,
}

impl PgStore {
    /// The database's host turns, to connect to from the crawl's runtime.
    pub fn host_turns(&self) -> TurnsAt {
        TurnsAt {
            url: self.url.clone(),
            shown: self.shown.clone(),
        }
    }
}

impl TurnsAt {
    /// Connect (in the calling runtime; the connection runs as a task of it).
    pub async fn connect(self) -> Result<HostTurns, StoreError> {
        let connect = |e: tokio_postgres::Error| StoreError::PgConnect {
            url: self.shown.clone(),
            reason: reason_of(&e),
        };
        let (client, connection) = tokio_postgres::connect(&self.url, tokio_postgres::NoTls)
            .await
            .map_err(connect)?;
        let shown = self.shown.clone();
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::warn!("{shown}: host turns connection ended: {}", reason_of(&e));
            }
        });
        let take = client.prepare(TAKE_TURN_SQL).await.map_err(connect)?;
        Ok(HostTurns { client, take })
    }
}

/// The shared turns of every host, over one connection.
pub struct HostTurns {
    client: tokio_postgres::Client,
    take: tokio_postgres::Statement,
}

/// What asking for a host's turn gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// Taken: send now. The next turn is `spacing` later.
    Taken,
    /// Another request (of any process) had it: ask again after this long.
    NotFor(Duration),
}

impl HostTurns {
    /// A process read `host`'s robots.txt and its Crawl-delay asks for
    /// `spacing` between requests: from now on every process's turns of
    /// the host are at least that far apart, the next one `spacing` from
    /// now. (Until some process has read it, the host's turns keep its
    /// rate: processes starting together may each read robots.txt once at
    /// that spacing.)
    pub async fn set_delay_spacing(&self, host: &str, spacing: Duration) -> Result<(), StoreError> {
        let spacing = millis(spacing + Duration::from_micros(999)).max(1);
        self.client.execute(DELAY_SQL, &[&host, &spacing]).await?;
        Ok(())
    }

    /// Take `host`'s turn if it is due (the next one is then `spacing`
    /// later, for every process).
    pub async fn take(&self, host: &str, spacing: Duration) -> Result<Turn, StoreError> {
        let spacing = millis(spacing + Duration::from_micros(999)).max(1);
        let row = self
            .client
            .query_one(&self.take, &[&host, &spacing])
            .await?;
        let taken: bool = row.get(0);
        let left: i64 = row.get(1);
        Ok(if taken {
            Turn::Taken
        } else {
            Turn::NotFor(Duration::from_millis(
                u64::try_from(left).unwrap_or(0).max(1),
            ))
        })
    }
}
