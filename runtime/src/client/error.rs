//! What a call answers: the records, or the error.

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
    /// The envelope's `metadata`, as sent.
    pub metadata: Option<serde_json::Value>,
    /// The envelope's `pagination`, as sent.
    pub pagination: Option<serde_json::Value>,
}

impl<T> IntoIterator for Response<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.data.into_iter()
    }
}

// ---------------------------------------------------------------- errors

/// Everything a call can fail with. `E` is the spec's error object (the generated client
/// crate names this type `Error` with `E` filled in).
#[derive(Debug)]
#[non_exhaustive]
pub enum Error<E> {
    /// The parameters break a rule of the spec; nothing was sent. Holds every problem, as
    /// the service would report them (see [`ValidationError::to_error_object`]).
    InvalidInput(ValidationError),
    /// No complete HTTP response: the connection failed, the attempt timed out, or the
    /// request could not be sent.
    Transport(TransportError),
    /// The service answered with an error envelope (an error status, or `success: false`).
    Api(Box<ApiError<E>>),
    /// The response could not be decoded: not JSON, truncated, empty, or not the envelope.
    Undecodable(UndecodableError),
}

impl<E: ErrorBody> Error<E> {
    /// The HTTP status, when a response arrived.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Api(e) => Some(e.status),
            Error::Undecodable(e) => Some(e.status),
            Error::InvalidInput(_) | Error::Transport(_) => None,
        }
    }

    /// The error object: the service's, or for invalid input the one it would have sent.
    pub fn error_object(&self) -> Option<std::borrow::Cow<'_, E>> {
        match self {
            Error::Api(e) => Some(std::borrow::Cow::Borrowed(&e.error)),
            Error::InvalidInput(e) => Some(std::borrow::Cow::Owned(e.to_error_object())),
            Error::Transport(_) | Error::Undecodable(_) => None,
        }
    }

    /// The service's request id, when it sent one.
    pub fn request_id(&self) -> Option<&str> {
        match self {
            Error::Api(e) => e.request_id.as_deref(),
            _ => None,
        }
    }
}

impl<E: ErrorBody> fmt::Display for Error<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidInput(e) => write!(f, "{e} (nothing was sent)"),
            Error::Transport(e) => e.fmt(f),
            Error::Api(e) => e.fmt(f),
            Error::Undecodable(e) => e.fmt(f),
        }
    }
}

impl<E: ErrorBody> std::error::Error for Error<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::InvalidInput(e) => Some(e),
            Error::Transport(e) => e.source(),
            Error::Api(_) => None,
            Error::Undecodable(e) => e.source(),
        }
    }
}

/// What kind of transport failure happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportKind {
    /// No connection could be made (refused, unreachable, DNS, TLS handshake). Retried.
    Connect,
    /// The attempt took longer than the timeout. Not retried.
    Timeout,
    /// Anything else (the connection broke while sending, for instance). Not retried.
    Other,
}

/// A request that got no complete HTTP response.
#[derive(Debug)]
pub struct TransportError {
    /// What kind of failure.
    pub kind: TransportKind,
    source: reqwest::Error,
}

impl TransportError {
    pub(crate) fn new(source: reqwest::Error) -> Self {
        let kind = if source.is_timeout() {
            TransportKind::Timeout
        } else if source.is_connect() {
            TransportKind::Connect
        } else {
            TransportKind::Other
        };
        Self { kind, source }
    }

    /// The underlying reqwest error.
    pub fn reqwest_error(&self) -> &reqwest::Error {
        &self.source
    }
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            TransportKind::Connect => "could not connect to the service",
            TransportKind::Timeout => "the request timed out",
            TransportKind::Other => "the request failed",
        };
        match self.source.url() {
            Some(url) => write!(
                f,
                "{what} ({}{})",
                url.origin().ascii_serialization(),
                url.path()
            ),
            None => f.write_str(what),
        }
    }
}

impl std::error::Error for TransportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// The service's answer to a failed request.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError<E> {
    /// The HTTP status (200 when the envelope said `success: false` with 200).
    pub status: u16,
    /// The error object: code, message, per-field details, hint.
    pub error: E,
    /// The request id, when the envelope carried one.
    pub request_id: Option<String>,
    /// The `Retry-After` the service asked for (seconds form), if any.
    pub retry_after: Option<Duration>,
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
        Ok(())
    }
}

impl<E: ErrorBody> std::error::Error for ApiError<E> {}

/// A response whose body is not the envelope expected.
#[derive(Debug)]
pub struct UndecodableError {
    /// The HTTP status.
    pub status: u16,
    /// The first [`BODY_PREFIX_LIMIT`] bytes of the body (as text, invalid UTF-8 replaced).
    pub body_prefix: String,
    /// The length of the body received, in bytes.
    pub body_len: usize,
    /// What is wrong.
    pub reason: String,
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl UndecodableError {
    pub(crate) fn new(
        status: u16,
        body: &[u8],
        reason: &str,
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        let mut prefix = &body[..body.len().min(BODY_PREFIX_LIMIT)];
        if let Err(e) = std::str::from_utf8(prefix)
            && e.error_len().is_none()
        {
            prefix = &prefix[..e.valid_up_to()];
        }
        Self {
            status,
            body_prefix: String::from_utf8_lossy(prefix).into_owned(),
            body_len: body.len(),
            reason: reason.to_string(),
            source,
        }
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
        Ok(())
    }
}

impl std::error::Error for UndecodableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|e| &**e as _)
    }
}
