//! How a server serves ([`ServeConfig`]): every limit, with production defaults and why, and
//! hyper's connection settings and the connection's limits made of them.

use std::net::SocketAddr;
use std::time::Duration;

use hyper_util::rt::TokioTimer;

use crate::DEFAULT_BODY_LIMIT;
use crate::server::conn::Limits;
use crate::server::rate_limit::RateLimit;

/// How [`serve`](super::serve) serves: every limit, with production defaults.
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

    pub(super) fn limits(&self) -> Limits {
        Limits {
            header_read: self.header_read_timeout,
            keep_alive: self.keep_alive_timeout,
            write: self.write_timeout,
            max_head_bytes: self.max_head_bytes,
            max_headers: self.max_headers.max(1),
        }
    }

    /// hyper's connection settings.
    pub(super) fn http1(&self) -> hyper::server::conn::http1::Builder {
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

/// hyper's own limit on the number of headers, which it parses into buffers on the stack;
/// with any other limit set it makes (and fills) two buffers per request.
const HYPER_MAX_HEADERS: usize = 100;
