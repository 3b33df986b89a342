//! The answers that are failures: the service's error object ([`ApiError`]), an error status
//! without it ([`StatusError`]), and a body that is not the envelope expected
//! ([`UndecodableError`]).

use std::fmt;
use std::time::Duration;

use super::AfterAttempts;
use crate::ErrorBody;

/// How many bytes of an undecodable body [`UndecodableError::body_prefix`] keeps.
pub const BODY_PREFIX_LIMIT: usize = 512;

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
/// `502` page), or a service answering outside its envelope. See [`Error::Status`](super::Error::Status).
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
/// error object is [`Error::Status`](super::Error::Status) instead.
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
    /// (`Box<str>` rather than `String` here and below keeps [`Error`](super::Error) under 128 bytes, where
    /// clippy's `result_large_err` starts warning in callers' code.)
    pub path: Option<Box<str>>,
    /// The `x-request-id` header of the response, when it had one.
    pub request_id: Option<Box<str>>,
    /// How many attempts the call made (the last one got this response).
    pub attempts: u32,
    /// The body ended before it was complete (the connection went away): retried like a
    /// reset ([`Error::is_retryable`](super::Error::is_retryable)).
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
