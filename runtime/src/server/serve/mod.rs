//! Serving a router in production: connection cap, timeouts, a bounded request head,
//! graceful shutdown on SIGINT and SIGTERM, compression, the optional rate limit, request
//! ids. One call: [`serve`] (or [`Server`] for the bound address and a shutdown handle).
//!
//! The server, its accept loop and its shutdown are here; its configuration in `config.rs`,
//! the service of one connection in `answering.rs`, signals and descriptor limits in `os.rs`.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;

mod answering;
mod config;
mod os;

pub use config::ServeConfig;

use super::compress;
use super::conn::{ConnState, Expired, Guarded, Limits, is_refused};
use answering::{PerConnection, PerRequest, ServedRoutes};
use os::{connection_cap, spawn_signal_listener};

/// Serves `router` as `config` says until SIGINT or SIGTERM (see [`ServeConfig`]), then
/// finishes the requests in flight within `config.shutdown_timeout` and returns.
///
/// ```no_run
/// # async fn run(router: axum::Router) -> std::io::Result<()> {
/// use mrds_runtime::server::{ServeConfig, serve};
/// serve(router, ServeConfig::default().with_addr(([0, 0, 0, 0], 8080).into())).await
/// # }
/// ```
pub async fn serve(router: Router, config: ServeConfig) -> io::Result<()> {
    Server::bind(config).await?.serve(router).await
}

/// Starts a shutdown of a [`Server`]: the first call is graceful (no new connections, the
/// requests in flight finish within the shutdown timeout), the second ends it at once.
#[derive(Clone, Debug)]
pub struct ShutdownHandle(Arc<watch::Sender<u32>>);

impl ShutdownHandle {
    /// Asks the server to stop (see the type).
    pub fn shutdown(&self) {
        self.0.send_modify(|n| *n += 1);
    }
}

/// A bound listener with its configuration, ready to [`serve`](Server::serve) a router.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    config: ServeConfig,
    stop: ShutdownHandle,
}

impl Server {
    /// Listens on `config.addr`.
    pub async fn bind(config: ServeConfig) -> io::Result<Self> {
        let listener = TcpListener::bind(config.addr).await?;
        Ok(Self::from_listener(listener, config))
    }

    /// Serves on `listener` (`config.addr` is ignored).
    pub fn from_listener(listener: TcpListener, config: ServeConfig) -> Self {
        Self {
            listener,
            config,
            stop: ShutdownHandle(Arc::new(watch::channel(0).0)),
        }
    }

    /// The address listened on (the port chosen when `addr` asked for port 0).
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// A handle that stops the server, as a signal does.
    pub fn shutdown_handle(&self) -> ShutdownHandle {
        self.stop.clone()
    }

    /// Serves `router` until shut down (a signal when `handle_signals`, or the
    /// [`ShutdownHandle`]). Returns once every connection is closed: after the requests in
    /// flight finished, when the shutdown timeout passed, or at a second stop request.
    pub async fn serve(self, router: Router) -> io::Result<()> {
        let Server {
            listener,
            config,
            stop,
        } = self;
        let slots = Arc::new(Semaphore::new(connection_cap(config.max_connections)));
        let serving = Serving::new(router, &config, slots.clone());
        let mut stop_requests = stop.0.subscribe();
        if config.handle_signals {
            spawn_signal_listener(stop.clone())?;
        }
        tracing::info!(
            addr = %listener.local_addr()?,
            max_connections = slots.available_permits(),
            "serving"
        );

        let graceful = GracefulShutdown::new();
        let mut connections = JoinSet::new();
        loop {
            while connections.try_join_next().is_some() {}
            let permit = tokio::select! {
                biased;
                _ = stop_requests.changed() => break,
                permit = slots.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
            };
            let (tcp, peer) = tokio::select! {
                biased;
                _ = stop_requests.changed() => break,
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        accept_failed(e).await;
                        continue;
                    }
                },
            };
            let _ = tcp.set_nodelay(true);
            let (conn, state) = serving.connection(tcp, peer);
            let conn = graceful.watch(conn);
            connections.spawn(async move {
                let _permit = permit;
                if let Err(e) = conn.await {
                    connection_failed(&e, peer, &state);
                }
            });
        }

        drop(listener);
        let open = graceful.count();
        tracing::info!(
            open_connections = open,
            timeout_secs = config.shutdown_timeout.as_secs_f64(),
            "shutting down: finishing the requests in flight"
        );
        tokio::select! {
            _ = graceful.shutdown() => tracing::info!("shut down"),
            _ = tokio::time::sleep(config.shutdown_timeout) => tracing::warn!(
                open_connections = connections.len(),
                "shutdown timeout passed: closing the remaining connections"
            ),
            _ = stop_requests.changed() => tracing::warn!(
                open_connections = connections.len(),
                "second stop request: closing every connection now"
            ),
        }
        connections.shutdown().await;
        Ok(())
    }
}

/// Serves one connection over `io`, any byte stream, as [`Server::serve`] serves each
/// connection it accepts (`peer` the client's address, `config`'s limits, timeouts,
/// compression and request ids; the connection cap and signals aside), until the connection
/// closes. For tests and fuzzing over in-memory streams; not part of the API.
#[doc(hidden)]
pub async fn serve_connection<IO>(
    io: IO,
    peer: SocketAddr,
    router: Router,
    config: &ServeConfig,
) -> Result<(), hyper::Error>
where
    IO: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let serving = Serving::new(router, config, Arc::new(Semaphore::new(1)));
    let (conn, state) = serving.connection(io, peer);
    let served = conn.await;
    if let Err(e) = &served {
        connection_failed(e, peer, &state);
    }
    served
}

/// What serving a connection takes, made once per server.
struct Serving {
    routes: ServedRoutes,
    shared: Arc<PerRequest>,
    http: hyper::server::conn::http1::Builder,
    limits: Limits,
    /// The connection slots (a resting connection gives its slot up early when none is free).
    slots: Arc<Semaphore>,
}

impl Serving {
    fn new(router: Router, config: &ServeConfig, slots: Arc<Semaphore>) -> Self {
        let compressed = config
            .compression
            .then(|| compress::layer(&router, config.compression_min_bytes))
            .flatten();
        Self {
            routes: ServedRoutes {
                plain: router,
                compressed,
            },
            shared: Arc::new(PerRequest::new(config)),
            http: config.http1(),
            limits: config.limits(),
            slots,
        }
    }

    /// One connection: `io` behind the connection's timers, served by hyper with the routes.
    fn connection<IO>(
        &self,
        io: IO,
        peer: SocketAddr,
    ) -> (
        hyper::server::conn::http1::Connection<TokioIo<Guarded<IO>>, PerConnection>,
        Arc<ConnState>,
    )
    where
        IO: AsyncRead + AsyncWrite + Unpin,
    {
        let state = Arc::new(ConnState::new(peer));
        let io = Guarded::new(io, state.clone(), self.limits, self.slots.clone());
        let service = PerConnection {
            routes: self.routes.clone(),
            state: state.clone(),
            peer,
            shared: self.shared.clone(),
        };
        (self.http.serve_connection(TokioIo::new(io), service), state)
    }
}

/// An accept error: a connection that failed before it was accepted is nothing; running out
/// of descriptors or memory is waited out rather than spun on.
async fn accept_failed(error: io::Error) {
    use io::ErrorKind::*;
    if matches!(
        error.kind(),
        ConnectionAborted | ConnectionReset | ConnectionRefused | Interrupted | WouldBlock
    ) {
        return;
    }
    tracing::error!(error = %error, "accept failed; retrying in 100 ms");
    tokio::time::sleep(Duration::from_millis(100)).await;
}

/// Logs why a connection ended early: which timer closed it, or why it failed. (A refused
/// head is logged where it is answered, by the connection's socket wrapper, `state`.)
fn connection_failed(error: &hyper::Error, peer: SocketAddr, state: &ConnState) {
    let io_error = std::error::Error::source(error).and_then(|e| e.downcast_ref::<io::Error>());
    if io_error.is_some_and(is_refused) || (state.refused() && error.is_parse()) {
        // Logged when it was answered.
        return;
    }
    let expired = io_error.and_then(Expired::of);
    match expired {
        Some(Expired::KeepAlive) => tracing::debug!(%peer, "{}", Expired::KeepAlive.message()),
        Some(expired) => tracing::info!(%peer, "connection closed: {}", expired.message()),
        // hyper left without answering (a head refused while an answer was still being
        // written, the HTTP/2 preface): what it found.
        None if error.is_parse() => tracing::warn!(
            %peer,
            error = %error,
            "request rejected before routing, unanswered"
        ),
        None if error.is_incomplete_message() || error.is_canceled() => {
            tracing::debug!(%peer, error = %error, "connection closed by the client")
        }
        None => tracing::info!(%peer, error = %error, "connection failed"),
    }
}
