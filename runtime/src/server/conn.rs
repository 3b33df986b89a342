//! The timers of one connection, around its socket: the header-read, keep-alive and write
//! timeouts; the answers to request heads refused before any router, in the envelope; and the
//! lingering close.
//!
//! hyper's own `header_read_timeout` starts as soon as a connection waits for a request, so it
//! cannot tell a keep-alive connection resting between requests (which should be allowed to
//! rest longer than a load balancer's idle timeout) from a client feeding its head a byte at
//! a time (which should not); and hyper has no write timeout. So the socket is wrapped: the
//! wrapper knows from the service whether a request is being answered, and from its own reads
//! and writes whether the connection rests, is receiving a head, or cannot send.
//!
//! hyper answers every head over the limit with 431, the request line included; the wrapper
//! watches the request line of each head it sees begin, and refuses one that does not end
//! within the limit with 414 itself, before hyper sees those bytes.
//!
//! hyper refuses a malformed head (400), one over the limits (431) or a request target over
//! its own limit (414) with an answer of its own, bare: no body, no request id. The wrapper
//! does not parse heads before hyper to avoid that (every request would be parsed twice, and
//! a head in a pipelined stream can only be found by framing every body as hyper does); it
//! rewrites hyper's answer instead. hyper writes it as the last thing before it closes the
//! connection, in a form no answer of the service has (see [`hyper_refusal_at`]); the wrapper
//! recognises it in what hyper writes, keeps it from the client, and writes the envelope in its
//! place: `INVALID_PARAMETER` with the same status, a request id, `Connection: close`, and a
//! message saying what was wrong, from the bytes read since the connection last waited for a
//! request, which it keeps (up to the head limit) for that (see `head.rs`). A refusal is logged
//! here, at WARN, with its request id.
//!
//! An answer that leaves the request's body unread (a 413 before the body is read, a 415,
//! a 401, any route that does not read it) says `Connection: close` (`serve.rs` adds it, told
//! by [`RequestBody`]), so nothing the client sends after it is read as a request: not the rest
//! of the body, nor what it holds. The wrapper, told by [`ConnState`], looks for no head in it
//! either, and the lingering close below discards it, within its bounds.
//!
//! When hyper closes a connection it shuts the write side down; closing the socket then, with
//! requests the client pipelined still unread in the kernel, makes the kernel send a reset,
//! which discards the answer still queued for the client. So the wrapper's shutdown lingers:
//! it reads and discards what the client still sends until the client closes, within bounds
//! (see [`Guarded::poll_close`]).

use std::future::Future;
use std::io;
use std::mem::MaybeUninit;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::StatusCode;
use http_body::{Body, Frame, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Semaphore;
use tokio::time::{Instant, Sleep};

use super::error::{ApiError, PlainErrorObject};
use super::head::{self, HeadLimits, Refusal};
use super::pipeline::{REQUEST_ID_HEADER, error_envelope};
use super::request_id::new_request_id;
use crate::ErrorKind;

/// The limits of a connection: its timeouts and the head limits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub header_read: Duration,
    /// `None`: no keep-alive.
    pub keep_alive: Option<Duration>,
    pub write: Duration,
    /// The largest request head, in bytes; a request line that does not end within it is
    /// refused with 414.
    pub max_head_bytes: usize,
    /// The most headers a request has (hyper's limit, named in the answer to one over it).
    pub max_headers: usize,
}

impl Limits {
    fn head(&self) -> HeadLimits {
        HeadLimits {
            max_bytes: self.max_head_bytes,
            max_headers: self.max_headers,
        }
    }
}

/// How long a lingering close waits for the client to send more or close: once it has sent
/// nothing for this long, nothing is left unread and the socket closes without a reset.
const LINGER_IDLE: Duration = Duration::from_secs(2);
/// The longest a lingering close lasts, however the client goes on sending.
const LINGER_TOTAL: Duration = Duration::from_secs(10);
/// The most a lingering close discards: a client sending without end gets its reset.
const LINGER_MAX_BYTES: usize = 1 << 20;

/// What the service tells the socket wrapper of one connection.
#[derive(Debug)]
pub(crate) struct ConnState {
    /// A request is being answered (its head was read, its answer not yet handed over).
    busy: AtomicBool,
    /// Answers handed over so far.
    answered: AtomicU64,
    /// The request being answered has a body that has not been read to its end.
    body_unread: AtomicBool,
    /// The answer handed over last says `Connection: close`: what the client sends after its
    /// request is no request (the rest of a body left unread, say), and no head is looked for
    /// in it.
    last_answer: AtomicBool,
    /// Answers of the service handed over that hyper writes as it writes its own refusal of a
    /// head (see [`hyper_refusal_at`]): the wrapper lets that many of them through.
    lookalikes: AtomicU32,
    /// The wrapper answered a refused head (and logged it).
    refused: AtomicBool,
    /// The client's address, for the log line of a refusal.
    peer: SocketAddr,
}

impl ConnState {
    pub(crate) fn new(peer: SocketAddr) -> Self {
        Self {
            busy: AtomicBool::new(false),
            answered: AtomicU64::new(0),
            body_unread: AtomicBool::new(false),
            last_answer: AtomicBool::new(false),
            lookalikes: AtomicU32::new(0),
            refused: AtomicBool::new(false),
            peer,
        }
    }

    pub(crate) fn request_started(&self) {
        self.busy.store(true, Ordering::Relaxed);
    }

    fn request_answered(&self) {
        self.answered.fetch_add(1, Ordering::Relaxed);
        self.busy.store(false, Ordering::Relaxed);
    }

    /// The request being answered has a body (read through a [`RequestBody`]).
    pub(crate) fn body_started(&self) {
        self.body_unread.store(true, Ordering::Relaxed);
    }

    /// Whether the answer about to be handed over leaves the request's body unread; if it
    /// does, it is the connection's last (the caller says `Connection: close` in it).
    pub(crate) fn answer_leaves_body_unread(&self) -> bool {
        let unread = self.body_unread.swap(false, Ordering::Relaxed);
        if unread {
            self.last_answer.store(true, Ordering::Relaxed);
        }
        unread
    }

    /// The answer about to be handed over is written as hyper writes its own refusal of a
    /// head: the wrapper must let it through.
    pub(crate) fn answer_looks_like_a_refusal(&self) {
        self.lookalikes.fetch_add(1, Ordering::Relaxed);
    }

    /// Whether the wrapper answered a refused head on this connection (and logged it).
    pub(crate) fn refused(&self) -> bool {
        self.refused.load(Ordering::Relaxed)
    }
}

/// The answer to a refused request head: the error envelope (`INVALID_PARAMETER`, the status
/// of the refusal, its message and hint, `details: []`) with a new request id, in the body
/// and in `x-request-id`, and `Connection: close`.
fn refusal_answer(refusal: &Refusal, request_id: &str) -> Bytes {
    let error =
        ApiError::<PlainErrorObject>::of_kind(ErrorKind::InvalidParameter, &refusal.message)
            .with_hint(refusal.hint)
            .with_status(refusal.status);
    let body = error_envelope(request_id, &error);
    let status = error.status();
    let date = httpdate::fmt_http_date(std::time::SystemTime::now());
    let mut answer = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\n{REQUEST_ID_HEADER}: {request_id}\r\n\
         content-length: {}\r\nconnection: close\r\ndate: {date}\r\n\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or_default(),
        body.len()
    )
    .into_bytes();
    answer.extend_from_slice(&body);
    Bytes::from(answer)
}

/// Where hyper's own refusal of a request head begins in `data`, what hyper writes next, and
/// its status. hyper answers such a head with 400, 414 or 431, no body, and no header but
/// `connection: close`, `content-length: 0` and `date`, and writes it as the last thing before
/// it closes the connection: it ends `data`. No answer of the router looks like it (an
/// answer has a body or a header of its own); one that does is counted by the service
/// ([`ConnState::answer_looks_like_a_refusal`]) and let through.
#[inline]
fn hyper_refusal_at(data: &[u8]) -> Option<(usize, StatusCode)> {
    // The quick no, for almost every write: an answer ends with its body.
    if !data.ends_with(b"\r\n\r\n") {
        return None;
    }
    bodiless_refusal_at(data)
}

/// [`hyper_refusal_at`] for `data` that ends with the end of a head.
#[cold]
#[inline(never)]
fn bodiless_refusal_at(data: &[u8]) -> Option<(usize, StatusCode)> {
    let window = data.len().saturating_sub(256);
    let start = window + memchr::memmem::rfind(&data[window..], b"HTTP/1.")?;
    let mut headers = [httparse::EMPTY_HEADER; 4];
    let mut response = httparse::Response::new(&mut headers);
    let Ok(httparse::Status::Complete(len)) = response.parse(&data[start..]) else {
        return None;
    };
    let status = match response.code? {
        code @ (400 | 414 | 431) => StatusCode::from_u16(code).ok()?,
        _ => return None,
    };
    let hypers = response.headers.iter().all(|h| {
        h.name.eq_ignore_ascii_case("connection")
            || h.name.eq_ignore_ascii_case("date")
            || (h.name.eq_ignore_ascii_case("content-length") && h.value == b"0")
    });
    (start + len == data.len() && hypers).then_some((start, status))
}

/// The message of [`refused_error`].
const REFUSED: &str = "request head refused before routing (answered in the envelope)";

/// What the socket returns to hyper once it has refused a request head.
fn refused_error() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, REFUSED)
}

/// Whether an I/O error is the socket's refusal of a request head (logged when answered).
pub(crate) fn is_refused(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::InvalidData && error.to_string() == REFUSED
}

/// At most this much of the bytes kept for a refused head's answer stays allocated while a
/// connection waits for its next request.
const KEPT_CAPACITY: usize = 4096;

/// Why a connection was closed by a timer (the error its socket returns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Expired {
    /// No complete request head in time.
    HeaderRead,
    /// Resting between requests for too long (or, at the connection cap, for longer than the
    /// header-read timeout).
    KeepAlive,
    /// The client read nothing of the answer for too long.
    Write,
}

impl Expired {
    pub(crate) fn message(self) -> &'static str {
        match self {
            Expired::HeaderRead => "no complete request head within the header-read timeout",
            Expired::KeepAlive => "idle keep-alive connection closed",
            Expired::Write => "the client read nothing of the answer within the write timeout",
        }
    }

    fn error(self) -> io::Error {
        io::Error::new(io::ErrorKind::TimedOut, self.message())
    }

    /// The expiry an I/O error stands for, if it is one.
    pub(crate) fn of(error: &io::Error) -> Option<Expired> {
        if error.kind() != io::ErrorKind::TimedOut {
            return None;
        }
        let text = error.to_string();
        [Expired::HeaderRead, Expired::KeepAlive, Expired::Write]
            .into_iter()
            .find(|e| text == e.message())
    }
}

#[derive(Clone, Copy, Debug)]
enum Phase {
    /// Receiving a request head, which must be complete by `deadline`.
    Head { deadline: Instant },
    /// Answering a request: reads have no deadline (the implementation takes its time).
    Busy,
    /// Resting since `since`, waiting for the next request.
    Resting { since: Instant },
}

/// How far the connection is in closing.
enum Closing {
    /// Serving.
    Open,
    /// Writing the answer to a refused head (the answer, and how much of it is written).
    Refusing(Bytes, usize),
    /// The write side is shut: reading and discarding what the client still sends.
    Lingering(Linger),
    /// Closed (the socket is only waiting to be dropped); `refused`: after a refused head.
    Closed { refused: bool },
}

/// A lingering close under way.
struct Linger {
    started: Instant,
    /// When the client last sent something; `None` until it has (a socket with nothing
    /// unread when the write side is shut closes at once, as nothing can be reset).
    last: Option<Instant>,
    discarded: usize,
    /// The close follows a refused head.
    refused: bool,
}

/// A socket with the connection's timers.
pub(crate) struct Guarded<IO> {
    io: IO,
    state: Arc<ConnState>,
    limits: Limits,
    /// The connection slots: a resting connection gives its slot up early when none is free.
    slots: Arc<Semaphore>,
    phase: Phase,
    answered: u64,
    /// The bytes of the current head's request line read so far, while its end has not been
    /// seen; `None` once it has (or when the head did not start in a read seen here).
    request_line: Option<usize>,
    /// The bytes read since the connection last waited for a request, up to the head limit:
    /// what [`head::diagnose`] reads again when hyper refuses a head.
    kept: Vec<u8>,
    /// Reads are added to `kept` (until it is full, or a body is read: what follows it can
    /// no longer be found without all of it).
    keeping: bool,
    closing: Closing,
    read_timer: Option<(Instant, Pin<Box<Sleep>>)>,
    /// Since when a write has been waiting for the client to read.
    write_stalled: Option<Instant>,
    write_timer: Option<(Instant, Pin<Box<Sleep>>)>,
}

impl<IO> Guarded<IO> {
    pub(crate) fn new(
        io: IO,
        state: Arc<ConnState>,
        limits: Limits,
        slots: Arc<Semaphore>,
    ) -> Self {
        Self {
            io,
            state,
            limits,
            slots,
            // A new connection must send its first head within the header-read timeout.
            phase: Phase::Head {
                deadline: Instant::now() + limits.header_read,
            },
            answered: 0,
            request_line: Some(0),
            kept: Vec::new(),
            keeping: true,
            closing: Closing::Open,
            read_timer: None,
            write_stalled: None,
            write_timer: None,
        }
    }

    /// Brings the phase up to date with the service.
    fn update_phase(&mut self) {
        if self.state.busy.load(Ordering::Relaxed) {
            self.phase = Phase::Busy;
            return;
        }
        let answered = self.state.answered.load(Ordering::Relaxed);
        if answered != self.answered || matches!(self.phase, Phase::Busy) {
            self.answered = answered;
            self.phase = Phase::Resting {
                since: Instant::now(),
            };
        }
    }

    /// The read deadline of the current phase, and what expires then; `None` when reads have
    /// no deadline.
    fn read_deadline(&self, now: Instant) -> Option<(Instant, Expired)> {
        match self.phase {
            Phase::Busy => None,
            Phase::Head { deadline } => Some((deadline, Expired::HeaderRead)),
            Phase::Resting { since } => {
                let Some(keep_alive) = self.limits.keep_alive else {
                    return Some((since, Expired::KeepAlive));
                };
                let end = since + keep_alive;
                let short = since + self.limits.header_read;
                if short >= end {
                    return Some((end, Expired::KeepAlive));
                }
                if now < short {
                    // Look again once it has rested for the header-read timeout.
                    return Some((short, Expired::KeepAlive));
                }
                if self.slots.available_permits() == 0 {
                    // At the connection cap a resting connection gives its slot up.
                    return Some((now, Expired::KeepAlive));
                }
                // Look again every header-read timeout until the keep-alive timeout.
                Some(((now + self.limits.header_read).min(end), Expired::KeepAlive))
            }
        }
    }

    /// Polls the read deadline: `Err` once it has passed.
    fn poll_read_deadline(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
        loop {
            let now = Instant::now();
            let Some((deadline, expired)) = self.read_deadline(now) else {
                return Ok(());
            };
            if deadline <= now {
                return Err(expired.error());
            }
            if arm(&mut self.read_timer, deadline, cx).is_pending() {
                return Ok(());
            }
        }
    }

    fn poll_write_deadline(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
        let now = Instant::now();
        let since = *self.write_stalled.get_or_insert(now);
        let deadline = since + self.limits.write;
        if deadline <= now || arm(&mut self.write_timer, deadline, cx).is_ready() {
            return Err(Expired::Write.error());
        }
        Ok(())
    }
}

impl<IO> Guarded<IO> {
    /// The client begins its next request (the first bytes after an answer): its request line
    /// is watched and its bytes kept, unless the last answer closes the connection (what
    /// follows is no request then).
    fn next_head(&mut self) {
        if self.kept.capacity() > KEPT_CAPACITY {
            self.kept = Vec::new();
        }
        self.kept.clear();
        let expected = !self.state.last_answer.load(Ordering::Relaxed);
        self.request_line = expected.then_some(0);
        self.keeping = expected;
    }

    /// Adds `read` to the bytes kept for a refused head's answer, up to the head limit; stops
    /// at a read made while a body is being read.
    #[inline]
    fn keep(&mut self, read: &[u8]) {
        if self.state.body_unread.load(Ordering::Relaxed) {
            self.keeping = false;
            return;
        }
        let room = self.limits.max_head_bytes.saturating_sub(self.kept.len());
        let taken = read.len().min(room);
        self.kept.extend_from_slice(&read[..taken]);
        self.keeping = taken < room;
    }

    /// Follows the request line through `read`, the next bytes of a head: whether it is
    /// longer than the head limit (it has not ended within the limit's bytes).
    #[inline]
    fn request_line_too_long(&mut self, read: &[u8]) -> bool {
        let Some(seen) = self.request_line else {
            return false;
        };
        if seen + read.len() < self.limits.max_head_bytes && read.last() == Some(&b'\n') {
            // The read ends a line (usually it holds a whole head): the request line has
            // ended, within the limit, and needs no search.
            self.request_line = None;
            return false;
        }
        let end = match memchr::memchr(b'\n', read) {
            Some(at) => {
                self.request_line = None;
                seen + at
            }
            None => {
                self.request_line = Some(seen + read.len());
                seen + read.len()
            }
        };
        end >= self.limits.max_head_bytes
    }
}

/// Polls `timer` so that it wakes the task by `deadline`. The timer is only moved when it
/// would wake the task too late (or has fired): one set earlier is left as it is, and wakes
/// the task early, which then looks again. Deadlines move later with every request, so this
/// saves a timer reset per request at the price of at most one early wake per
/// header-read timeout.
fn arm(
    timer: &mut Option<(Instant, Pin<Box<Sleep>>)>,
    deadline: Instant,
    cx: &mut Context<'_>,
) -> Poll<()> {
    match timer {
        Some((at, sleep)) => {
            if deadline < *at || sleep.is_elapsed() {
                *at = deadline;
                sleep.as_mut().reset(deadline);
            }
            sleep.as_mut().poll(cx)
        }
        None => {
            let (_, sleep) = timer.insert((deadline, Box::pin(tokio::time::sleep_until(deadline))));
            sleep.as_mut().poll(cx)
        }
    }
}

impl<IO: AsyncRead + AsyncWrite + Unpin> AsyncRead for Guarded<IO> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !matches!(this.closing, Closing::Open) {
            return this.poll_read_closing(cx);
        }
        this.update_phase();
        let before = buf.filled().len();
        match Pin::new(&mut this.io).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    if let Phase::Resting { .. } = this.phase {
                        // The first bytes of the next request: its head is due in time.
                        this.phase = Phase::Head {
                            deadline: Instant::now() + this.limits.header_read,
                        };
                        this.next_head();
                    }
                    let read = &buf.filled()[before..];
                    if this.keeping {
                        this.keep(read);
                    }
                    if this.request_line_too_long(read) {
                        // hyper would answer 431; the answer is 414, and hyper never sees
                        // these bytes.
                        buf.set_filled(before);
                        this.refuse(Refusal::request_line_too_long(this.limits.head()));
                        return this.poll_read_closing(cx);
                    }
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => match this.poll_read_deadline(cx) {
                Ok(()) => Poll::Pending,
                Err(e) => Poll::Ready(Err(e)),
            },
        }
    }
}

impl<IO> Guarded<IO> {
    /// Refuses the current request head: logs the refusal and makes its answer, which the
    /// next write, flush, read or shutdown sends before the connection closes.
    #[cold]
    #[inline(never)]
    fn refuse(&mut self, refusal: Refusal) {
        let request_id = new_request_id();
        tracing::warn!(
            peer = %self.state.peer,
            status = refusal.status.as_u16(),
            request_id,
            "request rejected before routing: {}",
            refusal.message
        );
        self.state.refused.store(true, Ordering::Relaxed);
        self.request_line = None;
        self.keeping = false;
        self.closing = Closing::Refusing(refusal_answer(&refusal, &request_id), 0);
        self.kept = Vec::new();
    }

    /// hyper writes its own refusal of a head, with `status`: unless it is an answer of the
    /// service that only looks like one, refuses the head with the envelope instead, saying
    /// what was wrong with it. Returns whether it did.
    #[cold]
    #[inline(never)]
    fn take_over(&mut self, status: StatusCode) -> bool {
        let lookalike = self
            .state
            .lookalikes
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok();
        if lookalike {
            return false;
        }
        let refusal = head::diagnose(&self.kept, status, self.limits.head());
        self.refuse(refusal);
        true
    }
}

impl<IO: AsyncRead + AsyncWrite + Unpin> Guarded<IO> {
    /// Writes out the answer to a refused head, if one is being written.
    fn poll_refusal_written(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Closing::Refusing(answer, at) = &self.closing {
            let (answer, at) = (answer.clone(), *at);
            if at == answer.len() {
                break;
            }
            let n = ready!(self.write_with(cx, |io, cx| io.poll_write(cx, &answer[at..])))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.closing = Closing::Refusing(answer, at + n);
        }
        Poll::Ready(Ok(()))
    }

    /// A read once the connection is closing: finishes the answer to a refused head (writes
    /// it, closes) and fails, so hyper ends the connection without an answer of its own;
    /// after a close that was no refusal, finds the end of the stream.
    #[cold]
    #[inline(never)]
    fn poll_read_closing(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_close(cx))?;
        match self.closing {
            Closing::Closed { refused: true } => Poll::Ready(Err(refused_error())),
            _ => Poll::Ready(Ok(())),
        }
    }

    /// What of `data`, the bytes hyper writes next (`data` is its last non-empty part, and
    /// `more_before` says whether parts come before it), is written now: `Some(n)` when hyper's
    /// own refusal of a head ends it and the `n` bytes before the refusal are to be written
    /// first (`Some(0)`: the refusal was taken over, nothing is written); `None` when `data` is
    /// written as it is.
    #[inline]
    fn intercept(&mut self, data: &[u8], more_before: bool) -> Option<usize> {
        let (at, status) = hyper_refusal_at(data)?;
        if at > 0 || more_before {
            return Some(at);
        }
        self.take_over(status).then_some(0)
    }

    /// Shuts the write side down, then lingers: reads and discards what the client still
    /// sends until it closes, it has sent nothing for [`LINGER_IDLE`], [`LINGER_TOTAL`] has
    /// passed or [`LINGER_MAX_BYTES`] are discarded; at once when nothing is unread. Then the
    /// socket can be dropped without a reset that would discard the answers still queued.
    fn poll_close(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        loop {
            match &mut self.closing {
                Closing::Open | Closing::Refusing(..) => {
                    let refused = matches!(self.closing, Closing::Refusing(..));
                    ready!(self.poll_refusal_written(cx))?;
                    ready!(self.write_with(cx, |io, cx| io.poll_shutdown(cx)))?;
                    self.closing = Closing::Lingering(Linger {
                        started: Instant::now(),
                        last: None,
                        discarded: 0,
                        refused,
                    });
                }
                Closing::Lingering(linger) => {
                    ready!(linger.poll(&mut self.io, &mut self.read_timer, cx));
                    let refused = linger.refused;
                    self.closing = Closing::Closed { refused };
                }
                Closing::Closed { .. } => return Poll::Ready(Ok(())),
            }
        }
    }
}

impl Linger {
    /// Reads and discards until the lingering close is over (see [`Guarded::poll_close`]).
    fn poll<IO: AsyncRead + Unpin>(
        &mut self,
        io: &mut IO,
        timer: &mut Option<(Instant, Pin<Box<Sleep>>)>,
        cx: &mut Context<'_>,
    ) -> Poll<()> {
        let mut scratch = [MaybeUninit::<u8>::uninit(); 8192];
        loop {
            let mut buf = ReadBuf::uninit(&mut scratch);
            match Pin::new(&mut *io).poll_read(cx, &mut buf) {
                Poll::Ready(Ok(())) => {
                    let n = buf.filled().len();
                    if n == 0 {
                        // The client has closed its side too.
                        return Poll::Ready(());
                    }
                    self.discarded += n;
                    if self.discarded >= LINGER_MAX_BYTES {
                        return Poll::Ready(());
                    }
                    self.last = Some(Instant::now());
                }
                Poll::Ready(Err(_)) => return Poll::Ready(()),
                Poll::Pending => {
                    let Some(last) = self.last else {
                        // Nothing unread: closing sends no reset. (Unless the read only
                        // waited for the task's budget; the task is woken at once then.)
                        if tokio::task::coop::has_budget_remaining() {
                            return Poll::Ready(());
                        }
                        return Poll::Pending;
                    };
                    let deadline = (last + LINGER_IDLE).min(self.started + LINGER_TOTAL);
                    loop {
                        if deadline <= Instant::now() {
                            return Poll::Ready(());
                        }
                        if arm(timer, deadline, cx).is_pending() {
                            return Poll::Pending;
                        }
                    }
                }
            }
        }
    }
}

impl<IO: AsyncWrite + Unpin> Guarded<IO> {
    /// Runs one write operation under the write timeout.
    fn write_with<T>(
        &mut self,
        cx: &mut Context<'_>,
        op: impl FnOnce(Pin<&mut IO>, &mut Context<'_>) -> Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        // The answer was handed over before hyper writes it out; once it has, the connection
        // rests and hyper may not read again until bytes arrive, so the keep-alive timer is
        // started here, in the same task (a read deadline that passed shows on the next read).
        if !matches!(self.phase, Phase::Resting { .. }) {
            self.update_phase();
            if let Phase::Resting { .. } = self.phase {
                let _ = self.poll_read_deadline(cx);
            }
        }
        match op(Pin::new(&mut self.io), cx) {
            Poll::Ready(result) => {
                self.write_stalled = None;
                Poll::Ready(result)
            }
            Poll::Pending => match self.poll_write_deadline(cx) {
                Ok(()) => Poll::Pending,
                Err(e) => Poll::Ready(Err(e)),
            },
        }
    }
}

impl<IO: AsyncRead + AsyncWrite + Unpin> AsyncWrite for Guarded<IO> {
    /// Writes what hyper writes, except hyper's own refusal of a head (see
    /// [`hyper_refusal_at`]), whose bytes are taken and answered with the envelope.
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if let Closing::Refusing(..) = this.closing {
            return Poll::Ready(Err(refused_error()));
        }
        match this.intercept(buf, false) {
            None => this.write_with(cx, |io, cx| io.poll_write(cx, buf)),
            Some(0) => Poll::Ready(Ok(buf.len())),
            Some(before) => this.write_with(cx, |io, cx| io.poll_write(cx, &buf[..before])),
        }
    }

    /// As [`poll_write`](Self::poll_write), for hyper's answers in several parts (a head and
    /// the body it queued).
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if let Closing::Refusing(..) = this.closing {
            return Poll::Ready(Err(refused_error()));
        }
        let Some(last) = bufs.iter().rposition(|b| !b.is_empty()) else {
            return this.write_with(cx, |io, cx| io.poll_write_vectored(cx, bufs));
        };
        match this.intercept(&bufs[last], last > 0) {
            None => this.write_with(cx, |io, cx| io.poll_write_vectored(cx, bufs)),
            Some(0) if last == 0 => Poll::Ready(Ok(bufs[0].len())),
            Some(before) if last == 0 => {
                this.write_with(cx, |io, cx| io.poll_write(cx, &bufs[0][..before]))
            }
            // The parts before the refusal first; it comes again in the next write.
            Some(_) => this.write_with(cx, |io, cx| io.poll_write_vectored(cx, &bufs[..last])),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    /// Flushes, after writing out the answer to a refused head if one is being written.
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Closing::Refusing(..) = this.closing {
            ready!(this.poll_refusal_written(cx))?;
        }
        this.write_with(cx, |io, cx| io.poll_flush(cx))
    }

    /// hyper is done with the connection: a lingering close (see [`Guarded::poll_close`]).
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().poll_close(cx)
    }
}

/// A response body that tells the connection when hyper is done with it (it is dropped
/// once written out, or when the connection goes away).
pub(crate) struct Tracked<B> {
    body: B,
    state: Arc<ConnState>,
}

impl<B> Tracked<B> {
    pub(crate) fn new(body: B, state: Arc<ConnState>) -> Self {
        Self { body, state }
    }
}

impl<B> Drop for Tracked<B> {
    fn drop(&mut self) {
        self.state.request_answered();
    }
}

impl<B: Body<Data = Bytes> + Unpin> Body for Tracked<B> {
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        let frame = ready!(Pin::new(&mut self.get_mut().body).poll_frame(cx));
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// A request body that tells the connection once it has been read to its end: an answer
/// given before then leaves the rest unread, and closes the connection
/// ([`ConnState::answer_leaves_body_unread`]).
pub(crate) struct RequestBody<B> {
    body: B,
    state: Arc<ConnState>,
}

impl<B> RequestBody<B> {
    /// `body`, whose reading `state` follows (from [`ConnState::body_started`]).
    pub(crate) fn new(body: B, state: Arc<ConnState>) -> Self {
        state.body_started();
        Self { body, state }
    }
}

impl<B: Body<Data = Bytes> + Unpin> Body for RequestBody<B> {
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        let this = self.get_mut();
        let frame = ready!(Pin::new(&mut this.body).poll_frame(cx));
        let ended = match &frame {
            None => true,
            Some(Ok(_)) => this.body.is_end_stream(),
            Some(Err(_)) => false,
        };
        if ended {
            this.state.body_unread.store(false, Ordering::Relaxed);
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;
    use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream, duplex};

    const HEAD_LIMIT: usize = 1024;

    /// The server's end of a connection, wrapped, and the client's end.
    fn connection() -> (Guarded<DuplexStream>, Arc<ConnState>, DuplexStream) {
        let (server, client) = duplex(4 * LINGER_MAX_BYTES);
        let state = Arc::new(ConnState::new(([127, 0, 0, 1], 40000).into()));
        let limits = Limits {
            header_read: Duration::from_secs(60),
            keep_alive: Some(Duration::from_secs(75)),
            write: Duration::from_secs(30),
            max_head_bytes: HEAD_LIMIT,
            max_headers: 100,
        };
        let guarded = Guarded::new(server, state.clone(), limits, Arc::new(Semaphore::new(4)));
        (guarded, state, client)
    }

    /// Reads what the server sent until it shut its side (panics at an error).
    async fn read_to_close(client: &mut DuplexStream) -> String {
        let mut text = String::new();
        client.read_to_string(&mut text).await.unwrap();
        text
    }

    #[tokio::test(start_paused = true)]
    async fn a_close_with_nothing_unread_is_immediate() {
        let (mut server, _, mut client) = connection();
        assert!(server.shutdown().now_or_never().is_some(), "no wait");
        assert_eq!(read_to_close(&mut client).await, "");
    }

    #[tokio::test(start_paused = true)]
    async fn a_close_lingers_until_the_client_closes() {
        let (mut server, _, mut client) = connection();
        // Pipelined requests the server will not answer, unread when it closes.
        client.write_all(&[b'x'; 20_000]).await.unwrap();
        let start = Instant::now();
        let closing = tokio::spawn(async move {
            server.shutdown().await.unwrap();
            start.elapsed()
        });
        // The client sees the end of the answers, sends a little more, then closes.
        assert_eq!(read_to_close(&mut client).await, "");
        tokio::time::sleep(Duration::from_millis(1500)).await;
        client.write_all(b"more").await.unwrap();
        tokio::time::sleep(Duration::from_millis(1500)).await;
        client.shutdown().await.unwrap();
        // Each pause was shorter than LINGER_IDLE, so it lasted until the client closed.
        assert_eq!(closing.await.unwrap(), Duration::from_millis(3000));
    }

    #[tokio::test(start_paused = true)]
    async fn a_close_lingers_at_most_linger_idle_after_the_client_last_sent() {
        let (mut server, _, mut client) = connection();
        client.write_all(b"GET / HTTP/1.1\r\n\r\n").await.unwrap();
        let start = Instant::now();
        server.shutdown().await.unwrap();
        assert_eq!(start.elapsed(), LINGER_IDLE);
        drop(client);
    }

    #[tokio::test(start_paused = true)]
    async fn a_close_lingers_at_most_linger_total() {
        let (mut server, _, mut client) = connection();
        client.write_all(b"x").await.unwrap();
        let start = Instant::now();
        let closing = tokio::spawn(async move { server.shutdown().await });
        // A client that sends a byte every second, for ever.
        let dripping = tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                if client.write_all(b"x").await.is_err() {
                    return;
                }
            }
        });
        tokio::time::timeout(10 * LINGER_TOTAL, closing)
            .await
            .expect("the lingering ends")
            .unwrap()
            .unwrap();
        assert_eq!(start.elapsed(), LINGER_TOTAL);
        dripping.abort();
    }

    #[tokio::test(start_paused = true)]
    async fn a_close_lingers_at_most_linger_max_bytes() {
        let (mut server, _, mut client) = connection();
        client
            .write_all(&vec![b'x'; 2 * LINGER_MAX_BYTES])
            .await
            .unwrap();
        let start = Instant::now();
        server.shutdown().await.unwrap();
        assert_eq!(start.elapsed(), Duration::ZERO);
        // What it stopped at is still unread.
        let mut rest = Vec::new();
        server.io.read_buf(&mut rest).await.unwrap();
        assert!(!rest.is_empty());
    }

    /// A request line of `length` bytes (its line end included) and a header.
    fn head(length: usize) -> Vec<u8> {
        let mut head = b"GET /".to_vec();
        head.resize(length - " HTTP/1.1\r\n".len(), b'a');
        head.extend_from_slice(b" HTTP/1.1\r\nHost: x\r\n\r\n");
        head
    }

    #[tokio::test(start_paused = true)]
    async fn request_lines_within_the_head_limit_pass_through() {
        let (mut server, _, mut client) = connection();
        // The longest request line that ends within the limit, in pieces.
        let head = head(HEAD_LIMIT);
        for piece in head.chunks(300) {
            client.write_all(piece).await.unwrap();
        }
        let mut read = vec![0; head.len()];
        server.read_exact(&mut read).await.unwrap();
        assert_eq!(read, head);
        assert!(matches!(server.closing, Closing::Open));
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_line_over_the_head_limit_is_answered_414() {
        let (mut server, _, mut client) = connection();
        let head = head(HEAD_LIMIT + 1);
        let (first, rest) = head.split_at(600);
        client.write_all(first).await.unwrap();
        let mut read = vec![0; first.len()];
        server.read_exact(&mut read).await.unwrap();
        // The read that takes the line over the limit fails; the client gets the 414, then
        // the end of the stream (the rest of its request is discarded).
        client.write_all(rest).await.unwrap();
        let reading = tokio::spawn(async move {
            let mut buf = [0; 4096];
            let error = server.read(&mut buf).await.unwrap_err();
            // And so does every read after it.
            assert!(server.read(&mut buf).await.is_err());
            error
        });
        let answer = read_to_close(&mut client).await;
        client.shutdown().await.unwrap();
        let error = reading.await.unwrap();
        assert!(is_refused(&error), "{error}");
        let json = envelope(&answer, "HTTP/1.1 414 URI Too Long\r\n");
        assert_eq!(
            json["error"]["message"],
            "the request line is longer than 1024 bytes: the request target is too long"
        );
    }

    /// The error envelope in `answer`, after its head: the status line `status_line`, JSON,
    /// a request id in the body and in `x-request-id`, `Connection: close` and a date;
    /// `INVALID_PARAMETER` in `error` and as `data`'s one element, with `details: []` and a
    /// hint.
    fn envelope(answer: &str, status_line: &str) -> serde_json::Value {
        assert!(answer.starts_with(status_line), "{answer}");
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        for header in [
            "content-type: application/json",
            "connection: close",
            &format!("content-length: {}", body.len()),
        ] {
            assert!(
                head.contains(&format!("\r\n{header}\r\n")),
                "{header}: {head}"
            );
        }
        assert!(head.contains("\r\ndate: "), "{head}");
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        let id = json["request_id"].as_str().unwrap();
        assert!(
            super::super::is_valid_request_id(id) && id.starts_with("req_"),
            "{id}"
        );
        assert!(
            head.contains(&format!("\r\nx-request-id: {id}\r\n")),
            "{head}"
        );
        assert_eq!(json["success"], false);
        assert_eq!(json["data"], serde_json::json!([json["error"]]));
        assert_eq!(json["error"]["code"], "INVALID_PARAMETER");
        assert_eq!(json["error"]["details"], serde_json::json!([]));
        assert!(json["error"]["hint"].is_string(), "{json}");
        json
    }

    /// hyper's own answer to a head it refuses, as hyper 1 writes it.
    fn hypers(status: &str) -> Vec<u8> {
        format!(
            "HTTP/1.1 {status}\r\nconnection: close\r\ncontent-length: 0\r\n\
             date: Thu, 26 Nov 2026 04:32:25 GMT\r\n\r\n"
        )
        .into_bytes()
    }

    #[test]
    fn hypers_own_refusals_are_told_from_answers() {
        for (status, code) in [
            ("400 Bad Request", 400),
            ("414 URI Too Long", 414),
            ("431 Request Header Fields Too Large", 431),
        ] {
            let answer = hypers(status);
            assert_eq!(
                hyper_refusal_at(&answer),
                Some((0, StatusCode::from_u16(code).unwrap()))
            );
            // At the end of what hyper writes, after answers to earlier requests.
            let mut data = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}".to_vec();
            let at = data.len();
            data.extend_from_slice(&answer);
            assert_eq!(hyper_refusal_at(&data).map(|(at, _)| at), Some(at));
        }
        for answer in [
            // An answer with a body, or a header of its own, or another status.
            &b"HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\n{}"[..],
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 7\r\n\r\n",
            b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
            // Not at the end, or not a whole head.
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\nx",
            b"400 Bad Request\r\ncontent-length: 0\r\n\r\n",
            b"\r\n\r\n",
        ] {
            assert_eq!(hyper_refusal_at(answer), None, "{:?}", String::from_utf8_lossy(answer));
        }
    }

    /// A connection that read `request` and then had `written` written to it by hyper, and
    /// shut down: what the client got.
    async fn answered(
        request: &[u8],
        written: &[&[u8]],
        state_ready: impl FnOnce(&ConnState),
    ) -> String {
        let (mut server, state, mut client) = connection();
        client.write_all(request).await.unwrap();
        client.shutdown().await.unwrap();
        let mut read = Vec::new();
        server.read_to_end(&mut read).await.unwrap();
        assert_eq!(read, request);
        state_ready(&state);
        for data in written {
            server.write_all(data).await.unwrap();
        }
        server.flush().await.unwrap();
        server.shutdown().await.unwrap();
        read_to_close(&mut client).await
    }

    #[tokio::test(start_paused = true)]
    async fn hypers_refusal_is_answered_with_the_envelope_saying_what_was_wrong() {
        let answer = answered(
            b"GET /a\x00b HTTP/1.1\r\n\r\n",
            &[&hypers("400 Bad Request")],
            |_| {},
        )
        .await;
        let json = envelope(&answer, "HTTP/1.1 400 Bad Request\r\n");
        assert_eq!(
            json["error"]["message"],
            "the request target holds the byte 0x00, which a request target may not hold"
        );
        // After an answer to an earlier request in the same write: that answer as it was.
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}";
        let mut both = ok.to_vec();
        both.extend_from_slice(&hypers("400 Bad Request"));
        let answer = answered(
            b"GET / HTTP/1.1\r\n\r\nGET / HTTP/9\r\n\r\n",
            &[&both],
            |_| {},
        )
        .await;
        let rest = answer
            .strip_prefix(std::str::from_utf8(ok).unwrap())
            .unwrap();
        let json = envelope(rest, "HTTP/1.1 400 Bad Request\r\n");
        assert!(
            json["error"]["message"]
                .as_str()
                .unwrap()
                .contains("`HTTP/9`")
        );
    }

    #[tokio::test(start_paused = true)]
    async fn an_answer_of_the_service_written_like_a_refusal_is_let_through() {
        let bare = hypers("400 Bad Request");
        let answer = answered(b"GET / HTTP/1.1\r\n\r\n", &[&bare], |state| {
            state.answer_looks_like_a_refusal()
        })
        .await;
        assert_eq!(answer.as_bytes(), bare);
        // Once: a refusal of hyper after it is taken over.
        let answer = answered(b"GET / HTTP/1.1\r\n\r\n", &[&bare, &bare], |state| {
            state.answer_looks_like_a_refusal()
        })
        .await;
        let rest = answer
            .strip_prefix(std::str::from_utf8(&bare).unwrap())
            .unwrap();
        envelope(rest, "HTTP/1.1 400 Bad Request\r\n");
    }

    #[tokio::test(start_paused = true)]
    async fn after_an_answer_that_closes_no_head_is_looked_for() {
        let (mut server, state, mut client) = connection();
        client.write_all(&head(100)).await.unwrap();
        let mut read = vec![0; 100 + "Host: x\r\n\r\n".len()];
        server.read_exact(&mut read).await.unwrap();
        state.request_started();
        let body = RequestBody::new((), state.clone());
        assert!(state.answer_leaves_body_unread());
        drop(body);
        drop(Tracked::new((), state.clone()));
        // The unread body: a line far over the head limit, which is no request line.
        client.write_all(&[b'x'; 4 * HEAD_LIMIT]).await.unwrap();
        let mut buf = vec![0; 8 * HEAD_LIMIT];
        let n = server.read(&mut buf).await.unwrap();
        assert_eq!(n, 4 * HEAD_LIMIT);
        assert!(matches!(server.closing, Closing::Open));
    }

    #[tokio::test(start_paused = true)]
    async fn the_next_request_line_of_a_kept_alive_connection_is_checked_too() {
        let (mut server, state, mut client) = connection();
        let first = head(100);
        client.write_all(&first).await.unwrap();
        let mut read = vec![0; first.len()];
        server.read_exact(&mut read).await.unwrap();
        // The service answers it.
        state.request_started();
        drop(Tracked::new((), state.clone()));
        client.write_all(&head(2 * HEAD_LIMIT)).await.unwrap();
        let mut buf = [0; 4096];
        let error = server.read(&mut buf).await.unwrap_err();
        assert!(is_refused(&error), "{error}");
    }
}
