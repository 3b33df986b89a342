//! Serving a router in production: connection cap, timeouts, a bounded request head,
//! graceful shutdown on SIGINT and SIGTERM, compression, the optional rate limit, request
//! ids. One call: [`serve`] (or [`Server`] for the bound address and a shutdown handle).

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::Response;
use axum::http::header;
use http_body_util::Either;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;
use tower::ServiceExt;
use tower::util::Oneshot;

use super::REQUEST_ID_HEADER;
use super::compress::{self, Compressed, CompressedBody, When};
use super::conn::{ConnState, Expired, Guarded, Limits, RequestBody, Tracked, is_refused};
use super::pipeline::{BodyLimit, PeerAddr, RequestTimeout};
use super::rate_limit::{RateLimit, RateLimiter};
use super::request_id::{RequestId, is_valid_request_id};
use crate::DEFAULT_BODY_LIMIT;

/// How [`serve`] serves: every limit, with production defaults.
///
/// | setting | default | why |
/// |---|---|---|
/// | [`addr`](Self::addr) | `127.0.0.1:8080` | listening beyond the machine is a decision to make explicitly |
/// | [`max_connections`](Self::max_connections) | 1,024 | each connection holds a file descriptor and up to `max_head_bytes` of buffer; 1,024 is far more than a read-only API behind a load balancer needs at once, and fits under the soft descriptor limit once `serve` raises it (it raises the soft `RLIMIT_NOFILE` towards the hard one, and lowers the cap with a warning when it cannot). Excess connections wait in the listen backlog (accepted when a slot frees), so they never cost a descriptor |
/// | [`header_read_timeout`](Self::header_read_timeout) | 10 s | a client sends a request head in one packet; 10 s allows slow links and closes idle or byte-dripping sockets (slowloris) |
/// | [`keep_alive_timeout`](Self::keep_alive_timeout) | 75 s | longer than the 60 s idle timeout of common load balancers, so the balancer, not the server, closes an idle connection (the other way round, a request can race the close and fail). At the connection cap a connection that has rested for `header_read_timeout` is closed to free its slot (resting connections look every `header_read_timeout`) |
/// | [`request_timeout`](Self::request_timeout) | 30 s | an implementation that has not answered in 30 s (a stuck database call) answers 500 `INTERNAL_ERROR` in the envelope, and its work is dropped; 30 s is far beyond a normal answer (milliseconds) and shorter than the 60 s after which common load balancers give up with an answer of their own, outside the envelope |
/// | [`write_timeout`](Self::write_timeout) | 30 s | a client that reads nothing of an answer for 30 s is gone or hostile; it no longer holds a slot and the answer's memory (a large kline is 1.7 MB) |
/// | [`max_head_bytes`](Self::max_head_bytes) | 16 KiB | the request line and headers: a valid request of this API is well under 1 KiB; 1,024 unfinished heads then hold at most 32 MiB (hyper's buffer, and the copy each connection keeps to say what was wrong with a head it refuses). Larger heads get 431, except a request line that does not fit on its own (a request target too long): 414 `URI Too Long`; both in the envelope |
/// | [`max_body_bytes`](Self::max_body_bytes) | 1 MiB | the JSON body of an endpoint that takes one (a `POST`); larger bodies get 413 `PAYLOAD_TOO_LARGE` in the envelope, announced ones (`Content-Length`) before a byte of them is read, and the connection closes after it. A body of this API is a few records; 1 MiB leaves room and bounds the memory 1,024 connections can make the server hold |
/// | [`max_headers`](Self::max_headers) | 100 | a client of this API sends fewer than 10; 100 is hyper's own limit, which it keeps on the stack (any other limit costs two buffers filled on every request), and `max_head_bytes` bounds the head anyway |
/// | [`shutdown_timeout`](Self::shutdown_timeout) | 10 s | answers take milliseconds; 10 s lets slow ones finish (and their connections close lingering, below) and stays well inside the 30 s an orchestrator waits between SIGTERM and SIGKILL |
/// | [`compression`](Self::compression) | on, gzip, above 4 KiB | large answers shrink 5–10× for clients that send `Accept-Encoding: gzip`; small ones (a few records) are sent as they are, where compressing costs more than it saves; requests without `Accept-Encoding` skip the layer and its cost |
/// | [`rate_limit`](Self::rate_limit) | off | the quota is the operator's decision; see [`RateLimit`] |
/// | [`trust_request_id`](Self::trust_request_id) | off | an id the caller chooses is neither unique nor unguessable; turn on behind a proxy that sets `x-request-id` |
/// | [`handle_signals`](Self::handle_signals) | on | SIGINT and SIGTERM start a graceful shutdown; a second one ends it at once |
///
/// **Refused heads.** A request head refused before a request exists to route (malformed:
/// 400; a request line longer than `max_head_bytes`: 414; a larger head, or more than
/// `max_headers` headers: 431) is answered in the error envelope all the same:
/// `INVALID_PARAMETER` with that status, a message naming what was wrong (the byte a request
/// target may not hold, the folded header, the two Content-Lengths, the HTTP version, the
/// limit), `details: []`, a hint, a new request id (in the body and `x-request-id`) and
/// `Connection: close`; it is logged at WARN with the peer address, status and request id.
/// hyper decides what it refuses; the connection's socket wrapper puts the envelope in place of
/// hyper's bare answer.
///
/// **Unread bodies.** An answer given before the request's body was read to its end (a 413
/// announced by `Content-Length`, or found while reading, a 415, a 401, an answer of a route
/// that reads no body) says `Connection: close`: nothing the client sends after that head is
/// read as a request (not the rest of the body, nor what it holds, nor a request pipelined
/// behind it).
///
/// **Closing.** When the server closes a connection itself (after the answer in flight at a
/// graceful shutdown, after an answer to `Connection: close`, after an answer that left the
/// body unread, after a refused head) it shuts its write side down and then, if the client
/// has sent more than was read (requests it pipelined, the rest of a body or of a refused
/// head), goes on reading and discarding it until the client closes, it has sent nothing for
/// 2 s, 10 s have passed or 1 MiB was discarded: a lingering close. Closing a socket with
/// unread input makes the kernel reset the connection, and the reset discards whatever of the
/// answer the client has not read yet. With nothing unread it closes at once; connections
/// closed by a timer, or still open when the shutdown timeout passes, are closed at once too.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ServeConfig {
    /// The address to listen on.
    pub addr: SocketAddr,
    /// Connections served at once; more wait in the listen backlog.
    pub max_connections: usize,
    /// Time to receive a complete request head, from the accept or from its first byte.
    pub header_read_timeout: Duration,
    /// Time a connection may rest between requests; `None` closes it after each answer.
    pub keep_alive_timeout: Option<Duration>,
    /// Time the implementation gets to answer one request, counted from the first time it
    /// waits (an answer ready at once needs no timer, and work before the first wait could
    /// not be interrupted anyway); `None` waits for ever.
    pub request_timeout: Option<Duration>,
    /// Time a client may read nothing of an answer being sent.
    pub write_timeout: Duration,
    /// Largest request head (request line and headers), in bytes: a larger head is answered
    /// 431, and a request line that does not end within it 414 (both in the envelope).
    pub max_head_bytes: usize,
    /// Most request headers: a request with more is answered 431 (in the envelope).
    pub max_headers: usize,
    /// Largest request body (of an endpoint that takes one), in bytes: a larger one is answered
    /// 413, and the connection closes.
    pub max_body_bytes: usize,
    /// Time in-flight requests get to finish after a shutdown signal (their connections'
    /// lingering close included).
    pub shutdown_timeout: Duration,
    /// gzip answers of at least `compression_min_bytes` to clients that accept it. Needs the
    /// runtime's `compression` feature (on in the generated server crate by default); without
    /// it answers are never compressed.
    pub compression: bool,
    /// The smallest answer compressed.
    pub compression_min_bytes: u16,
    /// The per-caller rate limit, if any.
    pub rate_limit: Option<RateLimit>,
    /// Adopt a valid incoming `x-request-id` (1–64 of `A–Z a–z 0–9 - _ . :`) instead of
    /// making one.
    pub trust_request_id: bool,
    /// Shut down gracefully on SIGINT and SIGTERM.
    pub handle_signals: bool,
}

impl Default for ServeConfig {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            max_connections: 1024,
            header_read_timeout: Duration::from_secs(10),
            keep_alive_timeout: Some(Duration::from_secs(75)),
            request_timeout: Some(Duration::from_secs(30)),
            write_timeout: Duration::from_secs(30),
            max_head_bytes: 16 * 1024,
            max_headers: HYPER_MAX_HEADERS,
            max_body_bytes: DEFAULT_BODY_LIMIT,
            shutdown_timeout: Duration::from_secs(10),
            compression: true,
            compression_min_bytes: 4096,
            rate_limit: None,
            trust_request_id: false,
            handle_signals: true,
        }
    }
}

macro_rules! setters {
    ($($(#[$doc:meta])* $name:ident: $field:ident: $ty:ty),* $(,)?) => {$(
        $(#[$doc])*
        #[must_use]
        pub fn $name(mut self, value: $ty) -> Self {
            self.$field = value;
            self
        }
    )*};
}

impl ServeConfig {
    setters! {
        /// Sets [`addr`](Self::addr).
        with_addr: addr: SocketAddr,
        /// Sets [`max_connections`](Self::max_connections) (at least 1).
        with_max_connections: max_connections: usize,
        /// Sets [`header_read_timeout`](Self::header_read_timeout).
        with_header_read_timeout: header_read_timeout: Duration,
        /// Sets [`keep_alive_timeout`](Self::keep_alive_timeout).
        with_keep_alive_timeout: keep_alive_timeout: Option<Duration>,
        /// Sets [`request_timeout`](Self::request_timeout).
        with_request_timeout: request_timeout: Option<Duration>,
        /// Sets [`write_timeout`](Self::write_timeout).
        with_write_timeout: write_timeout: Duration,
        /// Sets [`max_head_bytes`](Self::max_head_bytes).
        with_max_head_bytes: max_head_bytes: usize,
        /// Sets [`max_headers`](Self::max_headers).
        with_max_headers: max_headers: usize,
        /// Sets [`max_body_bytes`](Self::max_body_bytes).
        with_max_body_bytes: max_body_bytes: usize,
        /// Sets [`shutdown_timeout`](Self::shutdown_timeout).
        with_shutdown_timeout: shutdown_timeout: Duration,
        /// Sets [`compression`](Self::compression).
        with_compression: compression: bool,
        /// Sets [`compression_min_bytes`](Self::compression_min_bytes).
        with_compression_min_bytes: compression_min_bytes: u16,
        /// Sets [`rate_limit`](Self::rate_limit).
        with_rate_limit: rate_limit: Option<RateLimit>,
        /// Sets [`trust_request_id`](Self::trust_request_id).
        with_trust_request_id: trust_request_id: bool,
        /// Sets [`handle_signals`](Self::handle_signals).
        with_handle_signals: handle_signals: bool,
    }

    fn limits(&self) -> Limits {
        Limits {
            header_read: self.header_read_timeout,
            keep_alive: self.keep_alive_timeout,
            write: self.write_timeout,
            max_head_bytes: self.max_head_bytes,
            max_headers: self.max_headers.max(1),
        }
    }

    /// hyper's connection settings.
    fn http1(&self) -> hyper::server::conn::http1::Builder {
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(TokioTimer::new())
            // The connection's own timers (conn/) replace hyper's header-read timeout.
            .header_read_timeout(None)
            .keep_alive(self.keep_alive_timeout.is_some())
            .max_header_size(self.max_head_bytes)
            .max_buf_size(self.max_head_bytes.max(8192));
        if self.max_headers != HYPER_MAX_HEADERS {
            http.max_headers(self.max_headers.max(1));
        }
        http
    }
}

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
    routes: Routes,
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
            routes: Routes {
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

/// hyper's own limit on the number of headers, which it parses into buffers on the stack;
/// with any other limit set it makes (and fills) two buffers per request.
const HYPER_MAX_HEADERS: usize = 100;

/// What every request of one server shares.
struct PerRequest {
    limiter: Option<Arc<RateLimiter>>,
    trust_request_id: bool,
    request_timeout: Option<RequestTimeout>,
    body_limit: Option<BodyLimit>,
}

impl PerRequest {
    fn new(config: &ServeConfig) -> Self {
        Self {
            limiter: config.rate_limit.map(|l| Arc::new(RateLimiter::new(l))),
            trust_request_id: config.trust_request_id,
            request_timeout: config.request_timeout.map(RequestTimeout),
            // The routes read the default without an extension on every request.
            body_limit: (config.max_body_bytes != DEFAULT_BODY_LIMIT)
                .then_some(BodyLimit(config.max_body_bytes)),
        }
    }
}

/// The router, and (unless compression is off) the router behind the compression layer, for
/// the requests that accept a compressed answer, with the layer's rule of what to compress.
/// The other requests skip the layer and its cost (over a thousand instructions a request).
#[derive(Clone)]
struct Routes {
    plain: Router,
    compressed: Option<(Compressed, When)>,
}

/// The body of an answer: as the router made it, or through the compression layer.
type AnswerBody = Either<Body, CompressedBody>;

/// The service of one connection: tells the socket wrapper when a request is being
/// answered, and attaches what the pipeline reads from a request's extensions.
struct PerConnection {
    routes: Routes,
    state: Arc<ConnState>,
    peer: SocketAddr,
    shared: Arc<PerRequest>,
}

impl hyper::service::Service<hyper::Request<Incoming>> for PerConnection {
    type Response = Response<Tracked<AnswerBody>>;
    type Error = Infallible;
    type Future = Answering;

    fn call(&self, request: hyper::Request<Incoming>) -> Self::Future {
        self.state.request_started();
        let mut request = request.map(|body| {
            if http_body::Body::is_end_stream(&body) {
                Body::new(body)
            } else {
                // Followed, so that an answer given before it is read closes the connection.
                Body::new(RequestBody::new(body, self.state.clone()))
            }
        });
        if let Some(limiter) = &self.shared.limiter {
            let extensions = request.extensions_mut();
            extensions.insert(limiter.clone());
            extensions.insert(PeerAddr(self.peer));
        }
        if let Some(timeout) = self.shared.request_timeout {
            request.extensions_mut().insert(timeout);
        }
        if let Some(limit) = self.shared.body_limit {
            request.extensions_mut().insert(limit);
        }
        if self.shared.trust_request_id
            && let Some(id) = request
                .headers()
                .get(REQUEST_ID_HEADER)
                .and_then(|v| v.to_str().ok())
                .filter(|id| is_valid_request_id(id))
        {
            let id = RequestId(id.to_string());
            request.extensions_mut().insert(id);
        }
        let state = self.state.clone();
        match &self.routes.compressed {
            Some((compressed, _)) if request.headers().contains_key(header::ACCEPT_ENCODING) => {
                Answering::Compressed {
                    answer: compressed.clone().oneshot(request),
                    state,
                }
            }
            compressed => Answering::Plain {
                answer: self.routes.plain.clone().oneshot(request),
                vary_when: compressed.as_ref().map(|(_, when)| when.clone()),
                state,
            },
        }
    }
}

pin_project_lite::pin_project! {
    /// The answer to one request, its body tracked for the connection's timers.
    #[project = AnsweringProj]
    pub(crate) enum Answering {
        Plain {
            #[pin]
            answer: Oneshot<Router, Request>,
            // When compression is on: which answers say `Vary: accept-encoding` (those the
            // layer would have compressed for a client that asked).
            vary_when: Option<When>,
            state: Arc<ConnState>,
        },
        Compressed {
            #[pin]
            answer: Oneshot<Compressed, Request>,
            state: Arc<ConnState>,
        },
    }
}

impl Future for Answering {
    type Output = Result<Response<Tracked<AnswerBody>>, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let (response, state) = match self.project() {
            AnsweringProj::Plain {
                answer,
                vary_when,
                state,
            } => {
                let mut response = ready!(answer.poll(cx))?;
                if let Some(when) = vary_when
                    && compress::should_compress(when, &response)
                {
                    let vary = header::HeaderValue::from_static("accept-encoding");
                    response.headers_mut().append(header::VARY, vary);
                }
                (response.map(Either::Left), state)
            }
            AnsweringProj::Compressed { answer, state } => {
                (ready!(answer.poll(cx))?.map(Either::Right), state)
            }
        };
        let close = state.answer_leaves_body_unread();
        if close || matches!(response.status().as_u16(), 400 | 414 | 431) {
            return Poll::Ready(Ok(told(response, close, state)));
        }
        let state = state.clone();
        Poll::Ready(Ok(response.map(|body| Tracked::new(body, state))))
    }
}

/// An answer the connection's socket wrapper is told of, out of the common path (which this
/// keeps from copying every answer once more). `close`: it leaves the request's body unread,
/// and says `Connection: close` (what the client sends after it is no request, the rest of the
/// body or whatever that holds, and is not read as one). A 400, 414 or 431 that hyper writes
/// as it writes its own refusal of a request head (no body, no header but those hyper adds) is
/// counted, so that the wrapper, which takes such refusals over, lets it through (see
/// `conn/`).
#[cold]
#[inline(never)]
fn told(
    mut response: Response<AnswerBody>,
    close: bool,
    state: &Arc<ConnState>,
) -> Response<Tracked<AnswerBody>> {
    if close {
        let value = header::HeaderValue::from_static("close");
        response.headers_mut().insert(header::CONNECTION, value);
    }
    let like_a_refusal = matches!(response.status().as_u16(), 400 | 414 | 431)
        && http_body::Body::size_hint(response.body()).exact() == Some(0)
        && response.headers().keys().all(|name| {
            name == header::CONNECTION || name == header::CONTENT_LENGTH || name == header::DATE
        });
    if like_a_refusal {
        state.answer_looks_like_a_refusal();
    }
    let state = state.clone();
    response.map(|body| Tracked::new(body, state))
}

/// Listens for SIGINT and SIGTERM (SIGINT only off Unix) and turns each into a stop request.
fn spawn_signal_listener(stop: ShutdownHandle) -> io::Result<()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut terminate = signal(SignalKind::terminate())?;
        let mut interrupt = signal(SignalKind::interrupt())?;
        let weak = Arc::downgrade(&stop.0);
        drop(stop);
        tokio::spawn(async move {
            loop {
                let name = tokio::select! {
                    Some(()) = terminate.recv() => "SIGTERM",
                    Some(()) = interrupt.recv() => "SIGINT",
                    else => return,
                };
                let Some(stop) = weak.upgrade() else { return };
                tracing::info!(signal = name, "stop requested");
                stop.send_modify(|n| *n += 1);
            }
        });
    }
    #[cfg(not(unix))]
    {
        let weak = Arc::downgrade(&stop.0);
        drop(stop);
        tokio::spawn(async move {
            while tokio::signal::ctrl_c().await.is_ok() {
                let Some(stop) = weak.upgrade() else { return };
                tracing::info!(signal = "ctrl-c", "stop requested");
                stop.send_modify(|n| *n += 1);
            }
        });
    }
    Ok(())
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

/// The connection cap, lowered to what the descriptor limit allows (after raising the soft
/// limit towards the hard one where needed).
// `rlim_t` is `u64` on some targets and `u32` on others.
#[allow(clippy::unnecessary_cast)]
fn connection_cap(wanted: usize) -> usize {
    let wanted = wanted.max(1);
    #[cfg(unix)]
    {
        // Descriptors the process keeps for itself: the listener, logs, files the
        // implementation opens.
        const RESERVE: u64 = 64;
        let needed = wanted as u64 + RESERVE;
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write the struct passed, nothing else.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
                return wanted;
            }
            let soft = limit.rlim_cur as u64;
            if soft >= needed || limit.rlim_cur == libc::RLIM_INFINITY {
                return wanted;
            }
            let hard = limit.rlim_max as u64;
            let raised = if limit.rlim_max == libc::RLIM_INFINITY {
                needed
            } else {
                needed.min(hard)
            };
            let mut new = limit;
            new.rlim_cur = raised as libc::rlim_t;
            let soft = if libc::setrlimit(libc::RLIMIT_NOFILE, &new) == 0 {
                raised
            } else {
                soft
            };
            if soft >= needed {
                return wanted;
            }
            let cap = soft.saturating_sub(RESERVE).max(1) as usize;
            tracing::warn!(
                max_connections = wanted,
                descriptor_limit = soft,
                cap,
                "the descriptor limit is too low for max_connections; serving at most {cap} connections"
            );
            cap
        }
    }
    #[cfg(not(unix))]
    wanted
}
