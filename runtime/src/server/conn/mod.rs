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
//!
//! [`hyper_refusal_at`]: refusal::hyper_refusal_at

mod body;
mod guarded;
mod linger;
mod refusal;
#[cfg(test)]
mod tests;
mod timer;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use super::head::HeadLimits;

pub(crate) use body::{RequestBody, Tracked};
pub(crate) use guarded::Guarded;
pub(crate) use refusal::is_refused;
pub(crate) use timer::Expired;

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
    ///
    /// [`hyper_refusal_at`]: refusal::hyper_refusal_at
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
