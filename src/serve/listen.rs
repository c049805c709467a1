//! The accept loop of `serve`: HTTP/1.1 connections with a header
//! timeout, at most [`MAX_CONNECTIONS`] open at once, and a graceful stop.
//!
//! In: the listener, the router, the header timeout and a shutdown future.
//! Out: connections served until shutdown, then the open ones finished.
//!
//! Without a timeout, a socket that sent half its headers stayed open for
//! good, and a few hundred of them used up the process's file descriptors.
//! Now a connection must send a whole request head within the timeout
//! (hyper's `header_read_timeout`), which also closes a keep-alive
//! connection idle that long; and beyond [`MAX_CONNECTIONS`] new
//! connections wait in the listen backlog until one closes.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use super::limits::MAX_CONNECTIONS;

/// Serve `app` on `listener` until `shutdown` resolves.
pub async fn run(
    listener: TcpListener,
    app: Router,
    header_timeout: Duration,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .keep_alive(true);
    let graceful = GracefulShutdown::new();
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    tokio::pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of descriptors, or a connection reset before it
                    // was accepted: wait a moment rather than spin.
                    tracing::warn!("serve: accept: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let conn =
            http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            // A client gone away or a header timeout: nothing to report.
            let _ = conn.await;
            drop(slot);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}
