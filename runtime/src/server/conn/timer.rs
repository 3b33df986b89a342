//! The connection's timers: why one expired (the error its socket returns), and arming one.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::time::{Instant, Sleep};

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

    pub(super) fn error(self) -> io::Error {
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

/// Polls `timer` so that it wakes the task by `deadline`. The timer is only moved when it
/// would wake the task too late (or has fired): one set earlier is left as it is, and wakes
/// the task early, which then looks again. Deadlines move later with every request, so this
/// saves a timer reset per request at the price of at most one early wake per
/// header-read timeout.
pub(super) fn arm(
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
