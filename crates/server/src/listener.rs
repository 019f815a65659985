//! The listening socket, with a bound on open connections per address: a connection over
//! the bound is closed as it is accepted, before any byte is read (the audit held 2,000
//! websockets and 1,000 half-sent requests from one client). Websockets are connections
//! too, so this bounds them as well.

use crate::limits::{ConnectionGuard, Limiter};
use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener};
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// A TCP listener that counts connections per peer address (`None`: no bound, as behind a
/// proxy whose own address every connection has).
pub struct Bounded {
    inner: TcpListener,
    limiter: Option<Arc<Limiter>>,
}

impl Bounded {
    /// Wraps `inner`.
    pub fn new(inner: TcpListener, limiter: Option<Arc<Limiter>>) -> Bounded {
        Bounded { inner, limiter }
    }
}

/// An accepted connection and its place in its address's count.
pub struct Counted {
    stream: TcpStream,
    _guard: Option<ConnectionGuard>,
}

/// The peer of a connection, as handlers see it (`ConnectInfo<Peer>`).
#[derive(Clone, Copy, Debug)]
pub struct Peer(pub SocketAddr);

impl Connected<IncomingStream<'_, Bounded>> for Peer {
    fn connect_info(stream: IncomingStream<'_, Bounded>) -> Peer {
        Peer(*stream.remote_addr())
    }
}

impl Listener for Bounded {
    type Io = Counted;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Counted, SocketAddr) {
        loop {
            let (stream, addr) = match self.inner.accept().await {
                Ok(x) => x,
                Err(e) => {
                    // Out of file descriptors and the like: wait rather than spin.
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            };
            let guard = match &self.limiter {
                None => None,
                Some(limiter) => match limiter.connect(addr.ip()) {
                    Some(guard) => Some(guard),
                    None => {
                        tracing::debug!("refused a connection from {addr}: too many open");
                        continue;
                    }
                },
            };
            return (Counted { stream, _guard: guard }, addr);
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}
