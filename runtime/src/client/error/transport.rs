//! A request that got no complete HTTP response ([`TransportError`]), and what kind of
//! failure it was ([`TransportKind`]).

use std::fmt;

use super::AfterAttempts;

/// What kind of transport failure happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportKind {
    /// No connection could be made (refused, unreachable, DNS, TLS handshake). Retried.
    Connect,
    /// The connection was reset or closed before a complete response arrived. Retried.
    Reset,
    /// The attempt took longer than the per-attempt timeout. Retried unless
    /// `ClientBuilder::retry_timeouts(false)`, when the longest wait before the retry ends
    /// before the call's deadline. [`Error::is_timeout`](super::Error::is_timeout) is true for it.
    Timeout,
    /// The call's overall deadline passed during the attempt (see
    /// `ClientBuilder::deadline`): the attempt had the time left, shorter than its timeout.
    /// Not retried: no time is left. [`Error::is_timeout`](super::Error::is_timeout) is true for it.
    Deadline,
    /// Anything else (the service broke the HTTP protocol, for instance). Not retried.
    Other,
}

impl TransportKind {
    /// Classifies an error of the HTTP client.
    fn of(source: &hyper_util::client::legacy::Error) -> Self {
        if source.is_connect() {
            TransportKind::Connect
        } else if is_reset(source) {
            TransportKind::Reset
        } else {
            TransportKind::Other
        }
    }
}

/// Whether an error, or one of its sources, says the connection went away mid-exchange: reset,
/// aborted, a broken pipe, an early end of stream, or hyper's closed connection or incomplete
/// message.
fn is_reset(error: &(dyn std::error::Error + 'static)) -> bool {
    use std::io::ErrorKind;
    let mut next = Some(error);
    while let Some(e) = next {
        if let Some(io) = e.downcast_ref::<std::io::Error>()
            && matches!(
                io.kind(),
                ErrorKind::ConnectionReset
                    | ErrorKind::ConnectionAborted
                    | ErrorKind::BrokenPipe
                    | ErrorKind::UnexpectedEof
            )
        {
            return true;
        }
        if let Some(h) = e.downcast_ref::<hyper::Error>()
            && (h.is_incomplete_message()
                || h.is_closed()
                || h.is_canceled()
                || h.is_body_write_aborted())
        {
            return true;
        }
        next = e.source();
    }
    false
}

/// A request that got no complete HTTP response.
#[derive(Debug)]
#[non_exhaustive]
pub struct TransportError {
    /// What kind of failure.
    pub kind: TransportKind,
    /// How many attempts the call made (the last one failed with this error).
    pub attempts: u32,
    /// The request's origin and path (no query), for the message.
    target: String,
    source: Box<dyn std::error::Error + Send + Sync>,
}

impl TransportError {
    /// A failure of the HTTP client sending to `url` (connecting, sending, reading the head).
    pub(crate) fn new(url: &http::Uri, source: hyper_util::client::legacy::Error) -> Self {
        Self::of_kind(TransportKind::of(&source), url, Box::new(source))
    }

    /// A body from `url` that broke off: a reset when the connection went away.
    pub(crate) fn of_body(url: &http::Uri, source: hyper::Error) -> Self {
        let kind = if is_reset(&source) {
            TransportKind::Reset
        } else {
            TransportKind::Other
        };
        Self::of_kind(kind, url, Box::new(source))
    }

    /// An attempt to `url` that ran out of time: its own timeout, or when `capped` (the
    /// timeout was the time left before the call's deadline) the call's deadline.
    pub(crate) fn timed_out(url: &http::Uri, capped: bool) -> Self {
        let kind = if capped {
            TransportKind::Deadline
        } else {
            TransportKind::Timeout
        };
        Self::of_kind(kind, url, Box::new(TimedOut))
    }

    fn of_kind(
        kind: TransportKind,
        url: &http::Uri,
        source: Box<dyn std::error::Error + Send + Sync>,
    ) -> Self {
        let target = match (url.scheme_str(), url.authority()) {
            (Some(scheme), Some(authority)) => format!("{scheme}://{authority}{}", url.path()),
            _ => url.path().to_string(),
        };
        Self {
            kind,
            attempts: 1,
            target,
            source,
        }
    }
}

/// The source of a timed-out attempt's error.
#[derive(Debug)]
struct TimedOut;

impl fmt::Display for TimedOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no complete response within the time allowed")
    }
}

impl std::error::Error for TimedOut {}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            TransportKind::Connect => "could not connect to the service",
            TransportKind::Reset => "the connection was closed before a complete response",
            TransportKind::Timeout => "the request timed out",
            TransportKind::Deadline => "the call's deadline passed before a response arrived",
            TransportKind::Other => "the request failed",
        };
        write!(f, "{what} ({})", self.target)?;
        AfterAttempts(self.attempts).fmt(f)
    }
}

impl std::error::Error for TransportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.source.as_ref())
    }
}
