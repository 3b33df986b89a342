//! The failure an implementation answers with.

use std::fmt;

use axum::http::StatusCode;

use crate::{Endpoint, ErrorBody, ErrorKind, ValidationError};

/// A failure an implementation answers with; it becomes the error envelope with the HTTP
/// status of its code. `E` is the spec's error object (the generated server crate names
/// this type `ApiError` with `E` filled in).
#[derive(Clone, Debug)]
pub struct ApiError<E> {
    object: Box<E>,
    internal: Option<String>,
}

impl<E: ErrorBody> ApiError<E> {
    /// An error with `code` and a message for the caller.
    pub fn new(code: E::Code, message: impl Into<String>) -> Self {
        Self::from_object(E::from_code(code, message.into()))
    }

    /// An error with the code of `kind`.
    pub fn of_kind(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self::from_object(E::from_kind(kind, message.into()))
    }

    /// An error answering with this error object.
    pub fn from_object(object: E) -> Self {
        Self {
            object: Box::new(object),
            internal: None,
        }
    }

    /// `INVALID_PARAMETER` with one detail per problem.
    pub fn invalid(error: &ValidationError) -> Self {
        Self::from_object(error.to_error_object())
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

    /// `RATE_LIMITED`.
    pub fn rate_limited() -> Self {
        Self::of_kind(ErrorKind::RateLimited, "too many requests")
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

    /// The error code.
    pub fn code(&self) -> &E::Code {
        self.object.code()
    }

    /// The HTTP status of the error code (500 for a code the spec does not know).
    pub fn status(&self) -> StatusCode {
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

impl<E: ErrorBody> fmt::Display for ApiError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.object.code(), self.object.message())
    }
}

impl<E: ErrorBody> std::error::Error for ApiError<E> {}

impl<E: ErrorBody> From<ValidationError> for ApiError<E> {
    fn from(error: ValidationError) -> Self {
        Self::invalid(&error)
    }
}
