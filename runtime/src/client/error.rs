//! What a call answers: the records, or the error; and why a client could not be built
//! ([`BuildError`]).

use std::fmt;
use std::time::Duration;

use crate::{ErrorBody, ValidationError};

/// How many bytes of an undecodable body [`UndecodableError::body_prefix`] keeps.
pub const BODY_PREFIX_LIMIT: usize = 512;

// ---------------------------------------------------------------- response

/// A successful answer: the records and what the envelope said about them.
#[derive(Clone, Debug, PartialEq)]
pub struct Response<T> {
    /// The records (`data`).
    pub data: Vec<T>,
    /// The service's identifier of the request, for support requests and logs.
    pub request_id: String,
    /// The envelope's `metadata`, as sent; nothing in the runtime reads it (the interface
    /// description does not show its content).
    pub metadata: Option<crate::JsonValue>,
    /// The envelope's `pagination`, as sent. The paging streams read its `has_more` (`false`
    /// ends the stream) and `total` (the stream ends once the next offset reaches it) when
    /// present; the interface description does not show its content, so these two keys are
    /// the project's assumption, and nothing else in it is read.
    pub pagination: Option<crate::JsonValue>,
    /// How many records of `data` did not decode and were left out: with
    /// `ClientBuilder::skip_undecodable_records` only (0 otherwise).
    pub skipped: usize,
}

impl<T> IntoIterator for Response<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.data.into_iter()
    }
}

// ---------------------------------------------------------------- errors

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
    /// before the call's deadline. [`Error::is_timeout`] is true for it.
    Timeout,
    /// The call's overall deadline passed during the attempt (see
    /// `ClientBuilder::deadline`): the attempt had the time left, shorter than its timeout.
    /// Not retried: no time is left. [`Error::is_timeout`] is true for it.
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
pub(crate) fn is_reset(error: &(dyn std::error::Error + 'static)) -> bool {
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

/// The service's answer to a failed request.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ApiError<E> {
    /// The HTTP status (200 when the envelope said `success: false` with 200).
    pub status: u16,
    /// The error object: code, message, per-field details, hint.
    pub error: E,
    /// The request id, when the envelope carried one.
    pub request_id: Option<String>,
    /// The wait the service asked for with `Retry-After` (in seconds, or until an HTTP
    /// date, counted from when the response arrived), if any.
    pub retry_after: Option<Duration>,
    /// How many attempts the call made (the last one was answered with this error).
    pub attempts: u32,
}

impl<E: ErrorBody> fmt::Display for ApiError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the service answered HTTP {} {}: {}",
            self.status,
            self.error.code(),
            self.error.message()
        )?;
        for (field, got, reason) in self.error.details() {
            write!(f, "; {field}: {reason} (got `{got}`)")?;
        }
        if let Some(hint) = self.error.hint() {
            write!(f, "; hint: {hint}")?;
        }
        if let Some(id) = &self.request_id {
            write!(f, " [request {id}]")?;
        }
        AfterAttempts(self.attempts).fmt(f)
    }
}

impl<E: ErrorBody> std::error::Error for ApiError<E> {}

/// An error status (400 and above) whose body does not hold the spec's error object: what a
/// proxy, a load balancer or a gateway answers in front of the service (a bare `503`, an HTML
/// `502` page), or a service answering outside its envelope. See [`Error::Status`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StatusError {
    /// The HTTP status.
    pub status: u16,
    /// The first [`BODY_PREFIX_LIMIT`] bytes of the body (as text, invalid UTF-8 replaced);
    /// empty for a bare status.
    pub body_prefix: String,
    /// The length of the body received, in bytes.
    pub body_len: usize,
    /// The `x-request-id` header of the response, when it had one.
    pub request_id: Option<Box<str>>,
    /// The wait asked for with `Retry-After`, if any (as for [`ApiError::retry_after`]).
    pub retry_after: Option<Duration>,
    /// How many attempts the call made (the last one got this answer).
    pub attempts: u32,
}

impl StatusError {
    pub(crate) fn new(status: u16, body: &[u8]) -> Self {
        Self {
            status,
            body_prefix: body_prefix(body),
            body_len: body.len(),
            request_id: None,
            retry_after: None,
            attempts: 1,
        }
    }
}

impl fmt::Display for StatusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HTTP {}", self.status)?;
        if let Some(reason) = http::StatusCode::from_u16(self.status)
            .ok()
            .and_then(|s| s.canonical_reason())
        {
            write!(f, " {reason}")?;
        }
        f.write_str(
            " without the service's error object (as a proxy, load balancer or gateway answers)",
        )?;
        if self.body_prefix.is_empty() {
            write!(f, "; the body is empty")?;
        } else {
            write!(
                f,
                "; the body ({} bytes) starts with {:?}",
                self.body_len, self.body_prefix
            )?;
        }
        if let Some(wait) = self.retry_after {
            write!(f, "; retry after {} s", wait.as_secs())?;
        }
        if let Some(id) = &self.request_id {
            write!(f, " [request {id}]")?;
        }
        AfterAttempts(self.attempts).fmt(f)
    }
}

impl std::error::Error for StatusError {}

/// The first [`BODY_PREFIX_LIMIT`] bytes of `body` as text, not cutting a character in two
/// (invalid UTF-8 replaced).
fn body_prefix(body: &[u8]) -> String {
    let mut prefix = &body[..body.len().min(BODY_PREFIX_LIMIT)];
    if let Err(e) = std::str::from_utf8(prefix)
        && e.error_len().is_none()
    {
        prefix = &prefix[..e.valid_up_to()];
    }
    String::from_utf8_lossy(prefix).into_owned()
}

/// A response whose body is not the envelope expected: a success status (or a redirect not
/// followed) whose body is not the envelope, or a body cut short. An error status without the
/// error object is [`Error::Status`] instead.
#[derive(Debug)]
#[non_exhaustive]
pub struct UndecodableError {
    /// The HTTP status.
    pub status: u16,
    /// The first [`BODY_PREFIX_LIMIT`] bytes of the body (as text, invalid UTF-8 replaced).
    pub body_prefix: String,
    /// The length of the body received, in bytes.
    pub body_len: usize,
    /// What is wrong; when the JSON parsed but does not fit, it names the record type, the
    /// path and the position (`record PitDividend at data[3].symbol (line 1, column 612):
    /// invalid type: ...`).
    pub reason: String,
    /// Where in the JSON the value that does not fit is, such as `data[3].time_open`
    /// (a missing field is named as if it were there); `None` when the body is not JSON.
    /// (`Box<str>` rather than `String` here and below keeps [`Error`] under 128 bytes, where
    /// clippy's `result_large_err` starts warning in callers' code.)
    pub path: Option<Box<str>>,
    /// The `x-request-id` header of the response, when it had one.
    pub request_id: Option<Box<str>>,
    /// How many attempts the call made (the last one got this response).
    pub attempts: u32,
    /// The body ended before it was complete (the connection went away): retried like a
    /// reset ([`Error::is_retryable`]).
    pub(crate) cut_short: bool,
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
    /// The whole body, of an answer that is JSON but not the envelope (`body()`, `records()`).
    pub(crate) body: Option<Box<Box<[u8]>>>,
}

impl UndecodableError {
    pub(crate) fn new(
        status: u16,
        body: &[u8],
        reason: &str,
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        Self {
            status,
            body_prefix: body_prefix(body),
            body_len: body.len(),
            reason: reason.to_string(),
            path: None,
            request_id: None,
            attempts: 1,
            cut_short: false,
            source,
            body: None,
        }
    }
}

impl UndecodableError {
    /// Line and column (from 1) in the body where JSON decoding stopped, when the body was
    /// read as JSON.
    pub fn position(&self) -> Option<(usize, usize)> {
        let e = self.source.as_ref()?.downcast_ref::<serde_json::Error>()?;
        (e.line() > 0).then(|| (e.line(), e.column()))
    }
}

impl fmt::Display for UndecodableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "undecodable response (HTTP {}, {} bytes): {}",
            self.status, self.body_len, self.reason
        )?;
        if !self.body_prefix.is_empty() {
            write!(f, "; the body starts with {:?}", self.body_prefix)?;
        }
        if let Some(id) = &self.request_id {
            write!(f, " [request {id}]")?;
        }
        AfterAttempts(self.attempts).fmt(f)
    }
}

impl std::error::Error for UndecodableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|e| &**e as _)
    }
}

/// A paging stream that stopped because a page repeated the one before it: the same records,
/// in the same order, at a further offset. The service, or a proxy or cache before it, ignores
/// the offset; going on would yield the same records again and again.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PagingError {
    /// The endpoint id.
    pub endpoint: &'static str,
    /// The offset of the earlier page (its records were yielded).
    pub offset: i64,
    /// The offset whose page repeated it (its records were not yielded).
    pub repeated_at: i64,
    /// The number of records on each of the two pages.
    pub records: usize,
    /// The request id of the repeating page.
    pub request_id: String,
    /// How many attempts the call for the repeating page made.
    pub attempts: u32,
}

impl fmt::Display for PagingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "paging `{}` stopped: the page at offset {} repeats the page at offset {} \
             ({} identical records); the service or a proxy ignores the offset \
             [request {}]",
            self.endpoint, self.repeated_at, self.offset, self.records, self.request_id
        )
    }
}

impl std::error::Error for PagingError {}

/// Why [`ClientBuilder::build`] failed.
///
/// [`ClientBuilder::build`]: super::ClientBuilder::build
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildError {
    /// The base URL does not parse or is not an http(s) service root.
    InvalidBaseUrl {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The API key is empty or holds characters a header cannot carry (not shown).
    InvalidApiKey,
    /// The user agent holds characters a header cannot carry.
    InvalidUserAgent(String),
    /// The proxy given to [`ClientBuilder::proxy`] is not an `http://` URL with a host.
    ///
    /// [`ClientBuilder::proxy`]: super::ClientBuilder::proxy
    InvalidProxy {
        /// The URL as given, without credentials.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The TLS configuration could not be made (the platform's certificate store could not be
    /// read, or the crypto provider offers no safe protocol version).
    Tls(Box<dyn std::error::Error + Send + Sync>),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::InvalidBaseUrl { url, reason } => {
                write!(f, "invalid base URL `{url}`: {reason}")
            }
            BuildError::InvalidApiKey => write!(
                f,
                "invalid API key: it is empty or holds characters an HTTP header cannot carry"
            ),
            BuildError::InvalidUserAgent(ua) => write!(
                f,
                "invalid user agent `{ua}`: it holds characters an HTTP header cannot carry"
            ),
            BuildError::InvalidProxy { url, reason } => {
                write!(f, "invalid proxy `{url}`: {reason}")
            }
            BuildError::Tls(_) => write!(f, "cannot configure TLS"),
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::Tls(e) => Some(e.as_ref()),
            _ => None,
        }
    }
}
