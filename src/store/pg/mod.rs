//! PostgreSQL storage: the same corpus as the SQLite [`Store`](super::Store)
//! (`store::sqlite`, beside this module),
//! in a database that many crawler processes on many machines share.
//!
//! In: a `postgres://` URL. Out: a connection with the schema of
//! `migrations/postgres/` applied (`migrate`), and the store operations
//! built on it (one file per concern, like the SQLite store).
//!
//! The calls block (the `postgres` crate drives `tokio-postgres` on a
//! runtime of its own), like rusqlite's: the crawl makes them from its
//! writer's blocking task, never from an async worker.

mod articles;
mod frontier;
mod migrate;
mod search;
mod sql;
#[cfg(test)]
pub(crate) mod testing;
mod turns;
mod writes;

pub use turns::{HostTurns, Turn, TurnsAt};
pub use writes::BATCH_ATTEMPTS;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::rules::ArticleSql;
use super::target::redacted;
use super::StoreError;

/// How long a claimed URL stays this process's by default: after that
/// (the process died or hangs) any process may claim it again.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);

/// A PostgreSQL store.
pub struct PgStore {
    client: Client,
    /// The URL without its password, for messages.
    shown: String,
    /// This process's name in leases and the fetch log: `host:pid:nonce`.
    owner: String,
    /// How long a claim holds its URLs.
    lease: Duration,
    /// The URL as given (password included), for the crawl's own
    /// connection of host turns.
    url: String,
    /// The frontier's per-connection memory (site ids, URL counts).
    frontier: frontier::FrontierCache,
    /// The article writes' statements, prepared on `client`.
    article_sql: articles::Prepared,
    /// The connection's `statement_timeout` as last set (`None`: the
    /// server's default, never set).
    statement_timeout_ms: Option<u128>,
}

impl PgStore {
    /// Connect and apply the migrations this database lacks (one process at
    /// a time: the migration holds an advisory lock).
    pub fn open(url: &str) -> Result<PgStore, StoreError> {
        let shown = redacted(url);
        let connect = |reason: String| StoreError::PgConnect {
            url: shown.clone(),
            reason,
        };
        let config: postgres::Config = url
            .parse()
            .map_err(|e: postgres::Error| connect(format!("not a valid PostgreSQL URL: {e}")))?;
        let mut client = config
            .connect(postgres::NoTls)
            .map_err(|e| connect(reason_of(&e)))?;
        migrate::migrate(&mut client, &shown)?;
        Ok(PgStore {
            client: Client(Some(client)),
            owner: owner_name(),
            shown,
            lease: DEFAULT_LEASE,
            url: url.to_string(),
            frontier: frontier::FrontierCache::default(),
            article_sql: articles::Prepared::default(),
            statement_timeout_ms: None,
        })
    }

    /// The database URL without its password.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// This process's name in leases and the fetch log.
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// How long claims hold their URLs (`[store] lease_seconds`).
    pub fn set_lease(&mut self, lease: Duration) {
        self.lease = lease;
    }

    pub fn lease(&self) -> Duration {
        self.lease
    }

    /// Bound each statement from now on to `budget` (`None`: no bound):
    /// the server cancels one still running when it is spent
    /// (`statement_timeout`), and it fails as [`StoreError::OverBudget`].
    pub fn set_query_budget(&mut self, budget: Option<Duration>) -> Result<(), StoreError> {
        // Whole milliseconds, at least one (0 would turn the bound off).
        let ms = budget.map_or(0, |b| b.as_millis().clamp(1, i32::MAX as u128));
        if self.statement_timeout_ms != Some(ms) {
            self.client
                .batch_execute(&format!("SET statement_timeout = {ms}"))?;
            self.statement_timeout_ms = Some(ms);
        }
        Ok(())
    }

    /// The connection: the store's own modules, `copy` and tests query it.
    pub fn client(&mut self) -> &mut postgres::Client {
        &mut self.client
    }

    /// `f` over the article statements (prepared once per connection) of
    /// one transaction, committed when it succeeds.
    pub(in crate::store) fn in_article_transaction<T>(
        &mut self,
        f: impl FnOnce(&mut dyn ArticleSql) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut tx = self.client.transaction()?;
        let out = f(&mut articles::Tx::prepared(&mut tx, &mut self.article_sql))?;
        tx.commit()?;
        Ok(out)
    }
}

/// The connection, dropped off any async runtime. The `postgres` client
/// blocks on a runtime of its own, in its calls and when it is dropped (it
/// says goodbye to the server), and panics when that happens on a thread of
/// another runtime. The crawl calls the store only from blocking tasks, but
/// the store is dropped wherever an error ends the crawl: the client is
/// then dropped on a thread of its own.
struct Client(Option<postgres::Client>);

impl std::ops::Deref for Client {
    type Target = postgres::Client;
    fn deref(&self) -> &postgres::Client {
        self.0
            .as_ref()
            .expect("the client is taken only when dropped")
    }
}

impl std::ops::DerefMut for Client {
    fn deref_mut(&mut self) -> &mut postgres::Client {
        self.0
            .as_mut()
            .expect("the client is taken only when dropped")
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let Some(client) = self.0.take() else { return };
        if tokio::runtime::Handle::try_current().is_ok() {
            // Joined: the goodbye to the server takes a round trip, and the
            // process may exit right after.
            let _ = std::thread::spawn(move || drop(client)).join();
        }
    }
}

/// The server's own words for a failure (`password authentication failed
/// for user "x"`, `database "y" does not exist`), else the client's.
pub(crate) fn reason_of(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => db.message().to_string(),
        None => {
            let s = e.to_string();
            match std::error::Error::source(e) {
                Some(cause) if !s.contains(&cause.to_string()) => format!("{s}: {cause}"),
                _ => s,
            }
        }
    }
}

/// `host:pid:nonce`: unique per process, readable in the frontier.
/// This process's name in leases and logs: `host:pid:nonce` (the nonce
/// tells apart two processes that reused a pid).
pub fn owner_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "host".to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("{host}:{}:{nanos:08x}", std::process::id())
}

#[cfg(test)]
mod tests;
