//! Serving accepted connections: HTTP/1 (websockets upgrade from it) with a deadline for
//! each request's head. `axum::serve` gives hyper no timer, so a client that opens a
//! connection and sends half a request, or nothing, held it for as long as it liked (the
//! audit held 1,000 half-sent requests for 35 s and more); with a timer, hyper closes a
//! connection whose request head is not complete within
//! [`crate::limits::Limits::header_timeout`] — also one left idle between requests.

use crate::listener::{Bounded, Peer};
use axum::Router;
use axum::extract::ConnectInfo;
use axum::serve::Listener;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::time::Duration;
use tower::ServiceExt;

/// Accepts connections from `listener` and serves `router` on each until `stop` is ready
/// (connections already open finish on their own).
pub async fn serve(
    mut listener: Bounded,
    router: Router,
    header_timeout: Duration,
    stop: impl Future<Output = ()>,
) {
    let mut stop = std::pin::pin!(stop);
    loop {
        let (io, addr) = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stop => return,
        };
        let router = router.clone();
        tokio::spawn(async move {
            // Each request knows its peer (`ConnectInfo<Peer>`), as axum's
            // `into_make_service_with_connect_info` would tell it.
            let service = router.map_request(move |req: axum::http::Request<Incoming>| {
                let mut req = req.map(axum::body::Body::new);
                req.extensions_mut().insert(ConnectInfo(Peer(addr)));
                req
            });
            let served = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(io), TowerToHyperService::new(service))
                .with_upgrades()
                .await;
            if let Err(e) = served {
                tracing::trace!("connection from {addr}: {e}");
            }
        });
    }
}
