//! The timers of one connection, around its socket: the header-read, keep-alive and write
//! timeouts.
//!
//! hyper's own `header_read_timeout` starts as soon as a connection waits for a request, so it
//! cannot tell a keep-alive connection resting between requests (which should be allowed to
//! rest longer than a load balancer's idle timeout) from a client feeding its head a byte at
//! a time (which should not); and hyper has no write timeout. So the socket is wrapped: the
//! wrapper knows from the service whether a request is being answered, and from its own reads
//! and writes whether the connection rests, is receiving a head, or cannot send.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::body::Bytes;
use http_body::{Body, Frame, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Semaphore;
use tokio::time::{Instant, Sleep};

/// The timeouts of a connection.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timeouts {
    pub header_read: Duration,
    /// `None`: no keep-alive.
    pub keep_alive: Option<Duration>,
    pub write: Duration,
}

/// What the service tells the socket wrapper of one connection.
#[derive(Debug, Default)]
pub(crate) struct ConnState {
    /// A request is being answered (its head was read, its answer not yet handed over).
    busy: AtomicBool,
    /// Answers handed over so far.
    answered: AtomicU64,
}

impl ConnState {
    pub(crate) fn request_started(&self) {
        self.busy.store(true, Ordering::Relaxed);
    }

    fn request_answered(&self) {
        self.answered.fetch_add(1, Ordering::Relaxed);
        self.busy.store(false, Ordering::Relaxed);
    }
}

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

/// A socket with the connection's timers.
pub(crate) struct Guarded<IO> {
    io: IO,
    state: Arc<ConnState>,
    timeouts: Timeouts,
    /// The connection slots: a resting connection gives its slot up early when none is free.
    slots: Arc<Semaphore>,
    phase: Phase,
    answered: u64,
    read_timer: Option<(Instant, Pin<Box<Sleep>>)>,
    /// Since when a write has been waiting for the client to read.
    write_stalled: Option<Instant>,
    write_timer: Option<(Instant, Pin<Box<Sleep>>)>,
}

impl<IO> Guarded<IO> {
    pub(crate) fn new(
        io: IO,
        state: Arc<ConnState>,
        timeouts: Timeouts,
        slots: Arc<Semaphore>,
    ) -> Self {
        Self {
            io,
            state,
            timeouts,
            slots,
            // A new connection must send its first head within the header-read timeout.
            phase: Phase::Head {
                deadline: Instant::now() + timeouts.header_read,
            },
            answered: 0,
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
                let Some(keep_alive) = self.timeouts.keep_alive else {
                    return Some((since, Expired::KeepAlive));
                };
                let end = since + keep_alive;
                let short = since + self.timeouts.header_read;
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
                Some((
                    (now + self.timeouts.header_read).min(end),
                    Expired::KeepAlive,
                ))
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
        let deadline = since + self.timeouts.write;
        if deadline <= now || arm(&mut self.write_timer, deadline, cx).is_ready() {
            return Err(Expired::Write.error());
        }
        Ok(())
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

impl<IO: AsyncRead + Unpin> AsyncRead for Guarded<IO> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        this.update_phase();
        let before = buf.filled().len();
        match Pin::new(&mut this.io).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before
                    && let Phase::Resting { .. } = this.phase
                {
                    // The first bytes of the next request: its head is due in time.
                    this.phase = Phase::Head {
                        deadline: Instant::now() + this.timeouts.header_read,
                    };
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

impl<IO: AsyncWrite + Unpin> AsyncWrite for Guarded<IO> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.get_mut()
            .write_with(cx, |io, cx| io.poll_write(cx, buf))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.get_mut()
            .write_with(cx, |io, cx| io.poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().write_with(cx, |io, cx| io.poll_flush(cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().write_with(cx, |io, cx| io.poll_shutdown(cx))
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
