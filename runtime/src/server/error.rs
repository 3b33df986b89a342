//! The failure an implementation answers with.

use std::fmt;
use std::time::Duration;

use axum::http::{HeaderName, HeaderValue, StatusCode, header};

use crate::{Endpoint, ErrorBody, ErrorKind, ValidationError};

/// A failure an implementation answers with; it becomes the error envelope with the HTTP
/// status of its code. `E` is the spec's error object (the generated server crate names
/// this type `ServerError` with `E` filled in).
#[derive(Clone, Debug)]
pub struct ServerError<E> {
    object: Box<E>,
    /// The runtime's kind of the error, when it was made from one.
    kind: Option<ErrorKind>,
    internal: Option<String>,
    /// The status when it is not the one of the code (405 answers with `RESOURCE_NOT_FOUND`).
    status: Option<StatusCode>,
    headers: Vec<(HeaderName, HeaderValue)>,
}

impl<E: ErrorBody> ServerError<E> {
    /// An error with `code` and a message for the caller.
    pub fn new(code: E::Code, message: impl Into<String>) -> Self {
        Self::from_object(E::from_code(code, message.into()))
    }

    /// An error with the code of `kind`.
    pub fn of_kind(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind: Some(kind),
            ..Self::from_object(E::from_kind(kind, message.into()))
        }
    }

    /// An error answering with this error object.
    pub fn from_object(object: E) -> Self {
        Self {
            object: Box::new(object),
            kind: None,
            internal: None,
            status: None,
            headers: Vec::new(),
        }
    }

    /// `INVALID_PARAMETER` with one detail per problem.
    pub fn invalid(error: &ValidationError) -> Self {
        Self {
            kind: Some(ErrorKind::InvalidParameter),
            ..Self::from_object(error.to_error_object())
        }
    }

    /// `RESOURCE_NOT_FOUND`: nothing matches where a single thing was asked for.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::of_kind(ErrorKind::ResourceNotFound, message)
    }

    /// `ENDPOINT_REMOVED`, naming when the endpoint went away.
    pub fn removed(endpoint: &Endpoint) -> Self {
        let message = match endpoint.removed {
            Some(r) => format!(
                "{} {} was removed on {} ({})",
                endpoint.method, endpoint.path, r.date, r.version
            ),
            None => format!("{} {} was removed", endpoint.method, endpoint.path),
        };
        Self::of_kind(ErrorKind::EndpointRemoved, message)
    }

    /// `NOT_IMPLEMENTED` (501): this server does not serve `endpoint`. What the generated
    /// server trait's methods answer when an implementation leaves them out; the router logs
    /// it once per endpoint, at WARN.
    pub fn not_implemented(endpoint: &Endpoint) -> Self {
        Self::of_kind(
            ErrorKind::NotImplemented,
            format!(
                "{} {} is not implemented by this server",
                endpoint.method, endpoint.path
            ),
        )
        .with_hint("the endpoint is part of the interface; this server does not serve it (yet)")
    }

    /// `RATE_LIMITED`.
    pub fn rate_limited() -> Self {
        Self::of_kind(ErrorKind::RateLimited, "too many requests")
    }

    /// `RATE_LIMITED` with `Retry-After`: the whole seconds (at least 1) after which the
    /// caller may try again.
    pub fn rate_limited_for(retry_after: Duration) -> Self {
        let seconds = retry_after.as_secs() + u64::from(retry_after.subsec_nanos() > 0);
        let seconds = seconds.max(1);
        Self::of_kind(
            ErrorKind::RateLimited,
            format!("too many requests; retry after {seconds} s"),
        )
        .with_header(header::RETRY_AFTER, HeaderValue::from(seconds))
    }

    /// 405: no endpoint answers `method` at `path` (the code is `RESOURCE_NOT_FOUND`, the
    /// spec having no code of its own for it; the router adds `Allow`).
    pub(crate) fn method_not_allowed(method: &str, path: &str) -> Self {
        let mut error = Self::not_found(format!("{method} is not allowed on {path}"))
            .with_hint("the Allow header lists the methods this path answers");
        error.status = Some(StatusCode::METHOD_NOT_ALLOWED);
        error
    }

    /// Answers with `status` instead of the status of the code (a refused request head
    /// answers 414 or 431 with `INVALID_PARAMETER`).
    pub(crate) fn with_status(mut self, status: StatusCode) -> Self {
        self.status = Some(status);
        self
    }

    /// Adds a header to the answer (`Retry-After` on a `RATE_LIMITED`, say).
    #[must_use]
    pub fn with_header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        self.headers.push((name, value));
        self
    }

    /// The headers added to the answer.
    pub fn headers(&self) -> &[(HeaderName, HeaderValue)] {
        &self.headers
    }

    /// `INTERNAL_ERROR`. `detail` is logged with the request id and never sent to the caller.
    pub fn internal(detail: impl fmt::Display) -> Self {
        Self {
            internal: Some(detail.to_string()),
            ..Self::of_kind(ErrorKind::InternalError, "internal error")
        }
    }

    /// Adds a suggested fix.
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.object.set_hint(hint.into());
        self
    }

    /// The runtime's kind of the error, when it was made with one ([`ServerError::of_kind`]
    /// and the constructors naming a kind); `None` for an error object of the
    /// implementation's own.
    pub fn kind(&self) -> Option<ErrorKind> {
        self.kind
    }

    /// The error code.
    pub fn code(&self) -> &E::Code {
        self.object.code()
    }

    /// The HTTP status of the error code (500 for a code the spec does not know).
    pub fn status(&self) -> StatusCode {
        if let Some(status) = self.status {
            return status;
        }
        self.object
            .http_status()
            .and_then(|s| StatusCode::from_u16(s).ok())
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    /// The error object sent to the caller.
    pub fn error_object(&self) -> &E {
        &self.object
    }

    /// The detail logged (never sent) for an internal error.
    pub fn internal_detail(&self) -> Option<&str> {
        self.internal.as_deref()
    }
}

impl<E: ErrorBody> fmt::Display for ServerError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.object.code(), self.object.message())
    }
}

impl<E: ErrorBody> std::error::Error for ServerError<E> {}

impl<E: ErrorBody> From<ValidationError> for ServerError<E> {
    fn from(error: ValidationError) -> Self {
        Self::invalid(&error)
    }
}

/// The error object of an answer given where no router, and so no spec's error type, is at
/// hand: a request head refused before any request exists (see `conn/`). It has the fields
/// every spec's error object has (the generator checks them): `code`, `message`, `details`
/// (always there, empty for a refused head) and `hint` when there is one. The envelope around
/// it is the router's ([`error_envelope`](super::pipeline::error_envelope)).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct PlainErrorObject {
    code: String,
    message: String,
    details: Vec<PlainDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<String>,
}

/// One `details` entry of a [`PlainErrorObject`].
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct PlainDetail {
    field: String,
    got: String,
    reason: String,
}

impl ErrorBody for PlainErrorObject {
    type Code = String;

    fn from_code(code: String, message: String) -> Self {
        Self {
            code,
            message,
            details: Vec::new(),
            hint: None,
        }
    }

    /// None: the answers made with it name their code themselves.
    fn codes() -> &'static [String] {
        &[]
    }

    fn code(&self) -> &String {
        &self.code
    }

    /// No status of its own: the answers made with it set theirs
    /// ([`ServerError::with_status`]).
    fn http_status(&self) -> Option<u16> {
        None
    }

    fn message(&self) -> &str {
        &self.message
    }

    fn hint(&self) -> Option<&str> {
        self.hint.as_deref()
    }

    fn set_hint(&mut self, hint: String) {
        self.hint = Some(hint);
    }

    fn push_detail(&mut self, field: String, got: String, reason: String) {
        self.details.push(PlainDetail { field, got, reason });
    }

    fn details(&self) -> Vec<(&str, &str, &str)> {
        self.details
            .iter()
            .map(|d| (d.field.as_str(), d.got.as_str(), d.reason.as_str()))
            .collect()
    }
}
