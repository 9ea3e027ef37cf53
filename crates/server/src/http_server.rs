//! The accept loop, with the bounds `axum::serve` lacks: a cap on open connections (past it,
//! new ones wait in the kernel's backlog), a header-read timeout (hyper also applies it while a
//! kept-alive connection waits for its next request, so it is the idle timeout as well: a
//! client that stalls mid-request or idles holds nothing for long), and a shutdown deadline
//! (connections get a graceful close; whatever is still open when it passes is dropped). With a
//! TLS acceptor (`tls.rs`) every connection is HTTPS.

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio_rustls::TlsAcceptor;
use tower::ServiceExt;

/// How the server bounds its connections; `Default` is what `kubelab serve` uses.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionBounds {
    pub max_connections: u32,
    /// From a connection's first byte (or its last response) to a whole request head.
    pub header_read_timeout: Duration,
    /// How long shutdown waits for open connections to finish.
    pub shutdown_deadline: Duration,
}

impl Default for ConnectionBounds {
    fn default() -> ConnectionBounds {
        ConnectionBounds {
            max_connections: 4096,
            header_read_timeout: Duration::from_secs(10),
            shutdown_deadline: Duration::from_secs(10),
        }
    }
}

/// Serves `app` on `listener` until `stop` resolves, then closes connections within the deadline.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    (bounds, tls): (ConnectionBounds, Option<TlsAcceptor>),
    stop: impl Future<Output = ()>,
) {
    let permits = Arc::new(Semaphore::new(bounds.max_connections as usize));
    let (closing_tx, closing) = watch::channel(false);
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            accepted = accept(&listener, &permits) => accepted,
            () = &mut stop => break,
        };
        let Some((stream, peer, permit)) = accepted else { continue };
        let service = app.clone().map_request(move |mut request: axum::http::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            request
        });
        let (closing, tls) = (closing.clone(), tls.clone());
        tokio::spawn(async move {
            match tls {
                None => serve_one(stream, service, bounds, closing).await,
                // The handshake is bounded as a request head is.
                Some(tls) => match tokio::time::timeout(bounds.header_read_timeout, tls.accept(stream)).await {
                    Ok(Ok(stream)) => serve_one(stream, service, bounds, closing).await,
                    Ok(Err(error)) => tracing::debug!(%error, %peer, "TLS handshake failed"),
                    Err(_) => tracing::debug!(%peer, "TLS handshake timed out"),
                },
            }
            drop(permit);
        });
    }
    drop(listener);
    closing_tx.send_replace(true);
    // Every permit back means every connection is closed.
    let all = permits.acquire_many(bounds.max_connections);
    if tokio::time::timeout(bounds.shutdown_deadline, all).await.is_err() {
        let open = bounds.max_connections as usize - permits.available_permits();
        tracing::warn!(open, deadline = ?bounds.shutdown_deadline, "connections still open at the shutdown deadline; dropping them");
    }
}

/// One connection, HTTP/1.1 with upgrades (WebSockets), until it ends or the server closes.
async fn serve_one<IO, S>(io: IO, service: S, bounds: ConnectionBounds, closing: watch::Receiver<bool>)
where
    IO: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
    S: tower::Service<
            axum::http::Request<Incoming>,
            Response = axum::response::Response,
            Error = std::convert::Infallible,
        > + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
{
    let connection = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(bounds.header_read_timeout)
        .serve_connection(TokioIo::new(io), TowerToHyperService::new(service))
        .with_upgrades();
    tokio::pin!(connection);
    tokio::select! {
        _ = connection.as_mut() => {}
        () = closing_begins(closing) => {
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        }
    }
}

async fn closing_begins(mut closing: watch::Receiver<bool>) {
    let _ = closing.wait_for(|closing| *closing).await;
}

/// The next connection, once there is room for it; `None` when accepting failed (out of file
/// descriptors, say: the loop goes on after a pause rather than spinning).
async fn accept(
    listener: &TcpListener,
    permits: &Arc<Semaphore>,
) -> Option<(tokio::net::TcpStream, SocketAddr, tokio::sync::OwnedSemaphorePermit)> {
    let permit = Arc::clone(permits).acquire_owned().await.ok()?;
    match listener.accept().await {
        Ok((stream, peer)) => Some((stream, peer, permit)),
        Err(error) => {
            tracing::warn!(%error, "accept failed");
            tokio::time::sleep(Duration::from_millis(100)).await;
            None
        }
    }
}
