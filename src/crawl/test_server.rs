//! Test helper: serve an axum router on 127.0.0.1:0.
//!
//! In: a router. Out: the bound address; the server runs until the test's
//! runtime ends.

use std::net::SocketAddr;

pub async fn serve(router: axum::Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    addr
}
