//! `serve`: bind, say where, serve until Ctrl-C. In: the address and the
//! database. Out: the server's lifetime; errors as one line.

use std::net::SocketAddr;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::{status, Globals};
use newshound::serve::{Pool, ServeOptions};

pub fn serve(globals: &Globals, addr: SocketAddr, allow_hosts: Vec<String>) -> Result<ExitCode> {
    let config = globals.config()?;
    let db = globals.store_target(&config);
    // Opened before anything is announced: a database that cannot be read
    // is the one error, said once.
    let pool = Pool::open_target(&db)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("{addr}: cannot listen"))?;
        let local = listener.local_addr().unwrap_or(addr);
        status(format_args!(
            "serving {db} read-only on http://{local}/ (Ctrl-C stops)"
        ));
        if !local.ip().is_loopback() {
            status(format_args!(
                "warning: {local} is reachable from other machines, and the API has no \
                 authentication: anyone who can reach it can read the corpus"
            ));
        }
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        let options = ServeOptions {
            allow_hosts,
            query_budget: Some(config.serve.query_budget),
            ..ServeOptions::new(config.boilerplate.line_window)
        };
        newshound::serve::serve_pool(listener, pool, &options, shutdown).await?;
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
