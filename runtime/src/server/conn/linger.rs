//! The lingering close: once the write side is shut, what the client still sends is read and
//! discarded, within bounds, so that closing the socket sends no reset that would discard the
//! answers still queued for the client.

use std::mem::MaybeUninit;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, ReadBuf};
use tokio::time::{Instant, Sleep};

use super::timer::arm;

/// How long a lingering close waits for the client to send more or close: once it has sent
/// nothing for this long, nothing is left unread and the socket closes without a reset.
pub(super) const LINGER_IDLE: Duration = Duration::from_secs(2);
/// The longest a lingering close lasts, however the client goes on sending.
pub(super) const LINGER_TOTAL: Duration = Duration::from_secs(10);
/// The most a lingering close discards: a client sending without end gets its reset.
pub(super) const LINGER_MAX_BYTES: usize = 1 << 20;

/// A lingering close under way.
pub(super) struct Linger {
    pub(super) started: Instant,
    /// When the client last sent something; `None` until it has (a socket with nothing
    /// unread when the write side is shut closes at once, as nothing can be reset).
    pub(super) last: Option<Instant>,
    pub(super) discarded: usize,
    /// The close follows a refused head.
    pub(super) refused: bool,
}

impl Linger {
    /// Reads and discards until the lingering close is over (see [`Guarded::poll_close`](super::Guarded::poll_close)).
    pub(super) fn poll<IO: AsyncRead + Unpin>(
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
