//! What a call can fail with ([`Error`], and what each of its variants holds), and why a
//! client could not be built ([`BuildError`]): the error itself here; a failure of the
//! connection in `transport.rs`, the answers that are failures (the service's error object,
//! a bare error status, an undecodable body) in `answer.rs`, a paging stream that repeats in
//! `paging.rs`, a builder's refusal in `build.rs`.

use std::fmt;
use std::time::Duration;

use crate::{ErrorBody, ValidationError};

mod answer;
mod build;
mod paging;
mod transport;

pub use answer::{ApiError, BODY_PREFIX_LIMIT, StatusError, UndecodableError};
pub use build::BuildError;
pub use paging::PagingError;
pub use transport::{TransportError, TransportKind};

/// The documentation of [`Error`], which the generated client crate puts on its `Error` too,
/// so that it reads where the caller imports it; `$example` opens the example's function.
#[doc(hidden)]
#[macro_export]
macro_rules! __client_error_doc {
    ($example:literal) => {
        concat!(
            "Everything a call can fail with.

Match the variant for the details, or ask the error what a caller usually needs, the same for \
every variant:

| method | what it says |
|---|---|
| [`is_timeout`](Self::is_timeout) | no answer in time: an attempt's timeout or the call's \
deadline ([`TransportKind::Timeout`], [`TransportKind::Deadline`]); which of the two never \
depends on the retry jitter |
| [`is_retryable`](Self::is_retryable) | a failure the client retries (a failed or reset \
connection, a body cut short, a timeout, 429, 502, 503, 504): a later call may succeed |
| [`status`](Self::status) | the HTTP status, when an answer came |
| [`code`](Self::code) | the spec's error code, when the answer held the error object (for \
invalid input, the code the service would have answered with) |
| [`request_id`](Self::request_id) | the service's request id, when it sent one |
| [`retry_after`](Self::retry_after) | the wait the answer asked for with `Retry-After` |
| [`attempts`](Self::attempts) | how many attempts the call made (0: nothing was sent) |

An error status without the spec's error object (a bare 503 from a load balancer, an HTML \
page from a gateway) is [`Status`](Self::Status), with its status, its `Retry-After` and the \
start of its body; an answer the client cannot read otherwise is \
[`Undecodable`](Self::Undecodable).

```
",
            $example,
            "
    if error.is_timeout() {
        format!(\"no answer in time after {} attempts\", error.attempts())
    } else if let Some(code) = error.code() {
        format!(\"the service refused: {code}\")
    } else if let Some(status) = error.status() {
        format!(\"HTTP {status} without an error object\")
    } else {
        error.to_string()
    }
}
```"
        )
    };
}

#[doc = crate::__client_error_doc!(
    "use mrds_runtime::ErrorBody;
use mrds_runtime::client::Error;

fn describe<E: ErrorBody>(error: &Error<E>) -> String {"
)]
///
/// `E` is the spec's error object: the generated client crate names this type `Error` with
/// `E` filled in.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error<E> {
    /// The parameters break a rule of the spec; nothing was sent. Holds every problem, as
    /// the service would report them (see [`ValidationError::to_error_object`]).
    InvalidInput(ValidationError),
    /// No complete HTTP response: the connection failed or was reset, an attempt timed
    /// out, the call's deadline passed, or the request could not be sent.
    Transport(TransportError),
    /// The service answered with an error envelope (an error status, or `success: false`).
    Api(Box<ApiError<E>>),
    /// An error status (400 and above) whose body does not hold the spec's error object:
    /// empty, not JSON, or JSON of another shape. What a proxy, a load balancer or a gateway
    /// in front of the service answers (a bare 502, 503 or 504, an HTML error page); 429,
    /// 502, 503 and 504 are retried like the service's own.
    Status(StatusError),
    /// The response could not be decoded: not JSON, truncated, empty, or not the envelope
    /// (the error names the record, the field and the position).
    Undecodable(UndecodableError),
    /// A paging stream stopped because the service answered the same page for two offsets
    /// (it, or a proxy before it, ignores the offset): going on would repeat it forever.
    Paging(PagingError),
}

impl<E: ErrorBody> Error<E> {
    /// True when no answer came in time: an attempt ran out of its timeout
    /// ([`TransportKind::Timeout`]) or the call ran out of its deadline
    /// ([`TransportKind::Deadline`]). Which of the two a call ends with depends only on the
    /// settings and on the service's timing, never on the retry jitter: a timed-out attempt
    /// is retried only when the longest wait before the retry
    /// ([`RetryPolicy::max_delay`](super::RetryPolicy::max_delay)) ends before the deadline,
    /// so a test that asserts `is_timeout()`, or the number of attempts, holds on every run.
    pub fn is_timeout(&self) -> bool {
        matches!(
            self,
            Error::Transport(TransportError {
                kind: TransportKind::Timeout | TransportKind::Deadline,
                ..
            })
        )
    }

    /// True for a failure the client retries, where a later call may succeed: a connection
    /// that failed or was reset, a body cut short, a timeout or the deadline
    /// ([`is_timeout`](Self::is_timeout)), and the answers 429, 502, 503 and 504
    /// ([`RETRY_STATUSES`](super::RETRY_STATUSES), with the error object or without). When
    /// such an error reaches the caller, the call's retries were used up, its deadline left
    /// no time for another, or it could not be repeated (a call that is not idempotent).
    /// False for invalid input, the service's other answers, undecodable answers and paging.
    pub fn is_retryable(&self) -> bool {
        match self {
            Error::Transport(e) => !matches!(e.kind, TransportKind::Other),
            Error::Api(e) => super::RETRY_STATUSES.contains(&e.status),
            Error::Status(e) => super::RETRY_STATUSES.contains(&e.status),
            Error::Undecodable(e) => e.cut_short,
            Error::InvalidInput(_) | Error::Paging(_) => false,
        }
    }

    /// The HTTP status, when a response arrived.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Api(e) => Some(e.status),
            Error::Status(e) => Some(e.status),
            Error::Undecodable(e) => Some(e.status),
            Error::InvalidInput(_) | Error::Transport(_) | Error::Paging(_) => None,
        }
    }

    /// The spec's error code: the one the service's error object holds ([`Error::Api`]), or
    /// for invalid input the one the service would have answered with
    /// (`INVALID_PARAMETER`); `None` when there is no error object (a transport failure, an
    /// error status without the object, an undecodable answer).
    pub fn code(&self) -> Option<E::Code> {
        match self {
            Error::Api(e) => Some(e.error.code().clone()),
            Error::InvalidInput(_) => Some(crate::ErrorKind::InvalidParameter.into()),
            _ => None,
        }
    }

    /// The error object: the service's, or for invalid input the one it would have sent.
    pub fn error_object(&self) -> Option<std::borrow::Cow<'_, E>> {
        match self {
            Error::Api(e) => Some(std::borrow::Cow::Borrowed(&e.error)),
            Error::InvalidInput(e) => Some(std::borrow::Cow::Owned(e.to_error_object())),
            _ => None,
        }
    }

    /// The service's request id, when it sent one (in the envelope or the `x-request-id`
    /// header).
    pub fn request_id(&self) -> Option<&str> {
        match self {
            Error::Api(e) => e.request_id.as_deref(),
            Error::Status(e) => e.request_id.as_deref(),
            Error::Undecodable(e) => e.request_id.as_deref(),
            Error::Paging(e) => Some(&e.request_id),
            Error::InvalidInput(_) | Error::Transport(_) => None,
        }
    }

    /// The wait the last answer asked for with `Retry-After` (seconds, or until an HTTP
    /// date), when it said one.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Error::Api(e) => e.retry_after,
            Error::Status(e) => e.retry_after,
            _ => None,
        }
    }

    /// How many attempts the call made: 0 when nothing was sent (invalid input), 1 when the
    /// first attempt failed for good, more when it was retried.
    pub fn attempts(&self) -> u32 {
        match self {
            Error::InvalidInput(_) => 0,
            Error::Transport(e) => e.attempts,
            Error::Api(e) => e.attempts,
            Error::Status(e) => e.attempts,
            Error::Undecodable(e) => e.attempts,
            Error::Paging(e) => e.attempts,
        }
    }

    /// Records how many attempts the call made.
    pub(crate) fn set_attempts(&mut self, attempts: u32) {
        match self {
            Error::InvalidInput(_) => {}
            Error::Transport(e) => e.attempts = attempts,
            Error::Api(e) => e.attempts = attempts,
            Error::Status(e) => e.attempts = attempts,
            Error::Undecodable(e) => e.attempts = attempts,
            Error::Paging(e) => e.attempts = attempts,
        }
    }
}

impl<E: ErrorBody> fmt::Display for Error<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidInput(e) => write!(f, "{e} (nothing was sent)"),
            Error::Transport(e) => e.fmt(f),
            Error::Api(e) => e.fmt(f),
            Error::Status(e) => e.fmt(f),
            Error::Undecodable(e) => e.fmt(f),
            Error::Paging(e) => e.fmt(f),
        }
    }
}

impl<E: ErrorBody> std::error::Error for Error<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::InvalidInput(e) => Some(e),
            Error::Transport(e) => e.source(),
            Error::Api(_) | Error::Status(_) | Error::Paging(_) => None,
            Error::Undecodable(e) => e.source(),
        }
    }
}

/// ` (after N attempts)` when a call was retried; nothing after one attempt.
struct AfterAttempts(u32);

impl fmt::Display for AfterAttempts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 > 1 {
            write!(f, " (after {} attempts)", self.0)?;
        }
        Ok(())
    }
}
