//! The socket wrapper of one connection ([`Guarded`]): its phases and read and write
//! deadlines, the request line it watches, the bytes it keeps for a refused head's answer,
//! hyper's refusals it takes over, and its close.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll, ready};

use axum::body::Bytes;
use axum::http::StatusCode;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Semaphore;
use tokio::time::{Instant, Sleep};

use super::linger::Linger;
use super::refusal::{hyper_refusal_at, refusal_answer, refused_error};
use super::timer::{Expired, arm};
use super::{ConnState, Limits};
use crate::server::head::{self, HeadRefusal};
use crate::server::request_id::new_request_id;

/// At most this much of the bytes kept for a refused head's answer stays allocated while a
/// connection waits for its next request.
const KEPT_CAPACITY: usize = 4096;

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
pub(super) enum Closing {
    /// Serving.
    Open,
    /// Writing the answer to a refused head (the answer, and how much of it is written).
    Refusing(Bytes, usize),
    /// The write side is shut: reading and discarding what the client still sends.
    Lingering(Linger),
    /// Closed (the socket is only waiting to be dropped); `refused`: after a refused head.
    Closed { refused: bool },
}

/// A socket with the connection's timers.
pub(crate) struct Guarded<IO> {
    pub(super) io: IO,
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
    pub(super) closing: Closing,
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
                        this.refuse(HeadRefusal::request_line_too_long(this.limits.head()));
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
    fn refuse(&mut self, refusal: HeadRefusal) {
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
    ///
    /// [`LINGER_IDLE`]: super::linger::LINGER_IDLE
    /// [`LINGER_TOTAL`]: super::linger::LINGER_TOTAL
    /// [`LINGER_MAX_BYTES`]: super::linger::LINGER_MAX_BYTES
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
