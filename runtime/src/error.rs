//! The error object as the runtime builds and reads it: the codes the runtime answers with
//! itself ([`ErrorKind`]), and the trait the spec's error object implements ([`ErrorBody`]).

use std::fmt;

/// The error codes the runtime answers with itself. The generator requires the spec to
/// define each of them, by this wire spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// `INVALID_PARAMETER`: a parameter is missing, malformed or breaks a rule.
    InvalidParameter,
    /// `UNAUTHORIZED`: a missing or unknown API key.
    Unauthorized,
    /// `RESOURCE_NOT_FOUND`: nothing matches, or no endpoint serves the path.
    ResourceNotFound,
    /// `ENDPOINT_REMOVED`: the change history lists the endpoint as removed.
    EndpointRemoved,
    /// `RATE_LIMITED`: too many requests.
    RateLimited,
    /// `INTERNAL_ERROR`: anything unexpected on the server.
    InternalError,
    /// `PAYLOAD_TOO_LARGE`: a request body over the server's limit (413).
    PayloadTooLarge,
    /// `UNSUPPORTED_MEDIA_TYPE`: a request body that is not declared as JSON (415).
    UnsupportedMediaType,
    /// `NOT_IMPLEMENTED` (501): the server's implementation does not serve the endpoint (a
    /// method of the generated server trait left to its default).
    NotImplemented,
}

impl ErrorKind {
    /// Every kind.
    pub const ALL: [ErrorKind; 9] = [
        ErrorKind::InvalidParameter,
        ErrorKind::Unauthorized,
        ErrorKind::ResourceNotFound,
        ErrorKind::EndpointRemoved,
        ErrorKind::RateLimited,
        ErrorKind::InternalError,
        ErrorKind::PayloadTooLarge,
        ErrorKind::UnsupportedMediaType,
        ErrorKind::NotImplemented,
    ];

    /// True for the kinds only a request with a body meets: a spec without one need not
    /// define their codes.
    pub const fn bodies_only(self) -> bool {
        matches!(
            self,
            ErrorKind::PayloadTooLarge | ErrorKind::UnsupportedMediaType
        )
    }

    /// The wire spelling of the code.
    pub const fn code(self) -> &'static str {
        match self {
            ErrorKind::InvalidParameter => "INVALID_PARAMETER",
            ErrorKind::Unauthorized => "UNAUTHORIZED",
            ErrorKind::ResourceNotFound => "RESOURCE_NOT_FOUND",
            ErrorKind::EndpointRemoved => "ENDPOINT_REMOVED",
            ErrorKind::RateLimited => "RATE_LIMITED",
            ErrorKind::InternalError => "INTERNAL_ERROR",
            ErrorKind::PayloadTooLarge => "PAYLOAD_TOO_LARGE",
            ErrorKind::UnsupportedMediaType => "UNSUPPORTED_MEDIA_TYPE",
            ErrorKind::NotImplemented => "NOT_IMPLEMENTED",
        }
    }
}

/// The wire spelling, for error objects whose code is text.
impl From<ErrorKind> for String {
    fn from(kind: ErrorKind) -> Self {
        kind.code().to_string()
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The spec's error object as the runtime builds and reads it. The generated model crate
/// implements it for its `ErrorObject` record; the generator checks that the record has the
/// fields this needs (`code`, `message`, `details` of `field`/`got`/`reason`, `hint`).
pub trait ErrorBody:
    Clone + fmt::Debug + serde::Serialize + serde::de::DeserializeOwned + Send + Sync + 'static
{
    /// The spec's error code type.
    type Code: Clone + fmt::Debug + fmt::Display + From<ErrorKind> + Send + Sync + 'static;
    /// Every code of the spec, in the spec's order (its status is the
    /// [`http_status`](Self::http_status) of an object with it): by status, the code the spec
    /// answers a status with first among the codes of that status (what the sample server
    /// answers a `Prefer: code=` or a scenario of the status with).
    fn codes() -> &'static [Self::Code];
    /// An error object with `code` and `message`, nothing else set.
    fn from_code(code: Self::Code, message: String) -> Self;
    /// An error object with the code of `kind`.
    fn from_kind(kind: ErrorKind, message: String) -> Self {
        Self::from_code(kind.into(), message)
    }
    /// The code.
    fn code(&self) -> &Self::Code;
    /// The HTTP status the service answers the code with (`None` for a code the spec does
    /// not know).
    fn http_status(&self) -> Option<u16>;
    /// The human-readable message.
    fn message(&self) -> &str;
    /// The suggested fix, if any.
    fn hint(&self) -> Option<&str>;
    /// Sets the suggested fix.
    fn set_hint(&mut self, hint: String);
    /// Adds one `details` entry.
    fn push_detail(&mut self, field: String, got: String, reason: String);
    /// The `details` entries as (field, got, reason).
    fn details(&self) -> Vec<(&str, &str, &str)>;
}
