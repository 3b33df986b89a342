//! The shapes every generated model crate fills in: the endpoint table, the change history,
//! the request trait, and the error object as the runtime builds and reads it.

use std::fmt;

use crate::raw::RawParams;
use crate::validate::ValidationError;

/// Whether an endpoint needs the API key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Auth {
    /// A missing or unknown key is rejected with 401.
    Required,
    /// A key is accepted but not required (a key that is sent must still be known).
    Optional,
}

/// When an endpoint was removed from the service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Removal {
    /// `YYYY-MM-DD`.
    pub date: &'static str,
    /// Release tag.
    pub version: &'static str,
}

/// One endpoint of the service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Endpoint {
    /// Operation id (the client and server method name).
    pub id: &'static str,
    /// HTTP method.
    pub method: &'static str,
    /// Path below the base path, with `{name}` for path parameters.
    pub path: &'static str,
    /// One line.
    pub summary: &'static str,
    /// Whether the key is required.
    pub auth: Auth,
    /// Set when the change history lists the endpoint as removed.
    pub removed: Option<Removal>,
    /// Sending the request twice has the effect of sending it once (every `GET`, and a
    /// `POST` the spec marks so): the client may repeat it after a failure.
    pub idempotent: bool,
}

/// Kind of a change in the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChangeAction {
    /// The endpoint appeared.
    Added,
    /// The endpoint went away.
    Removed,
}

/// One endpoint added or removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Change {
    /// Added or removed.
    pub action: ChangeAction,
    /// HTTP method.
    pub method: &'static str,
    /// Path.
    pub path: &'static str,
}

/// One row of the change history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HistoryEntry {
    /// `YYYY-MM-DD`.
    pub date: &'static str,
    /// Release tags.
    pub versions: &'static [&'static str],
    /// What changed.
    pub changes: &'static [Change],
}

/// One generated parameter type: the validated query of one endpoint.
pub trait Request: Sized {
    /// The record `data` holds.
    type Record: serde::de::DeserializeOwned + serde::Serialize;
    /// The endpoint in the endpoint table.
    const ENDPOINT: &'static Endpoint;
    /// Checks every parameter rule and every rule across parameters; reports all problems.
    fn validate(&self) -> Result<(), ValidationError>;
    /// The query pairs, in documented order (path parameters excluded).
    fn to_query(&self) -> Vec<(&'static str, String)>;
    /// The path below the base path, path parameters filled in and percent-encoded.
    fn path(&self) -> String;
    /// Parses and validates the parameters of a received request.
    fn from_raw(raw: &RawParams) -> Result<Self, ValidationError>;
    /// Parses the parameters of a received request without validating them: a required one
    /// missing, one given twice or a value its type cannot hold is refused, nothing else (a
    /// value out of range, a rule broken are kept). For tests comparing the client's
    /// [`validate`](Self::validate) with the server's [`from_raw`](Self::from_raw) on invalid
    /// values; `None` for a type that cannot do it. Not part of the API.
    #[doc(hidden)]
    fn from_raw_unchecked(raw: &RawParams) -> Option<Result<Self, ValidationError>> {
        let _ = raw;
        None
    }
}

/// The largest request body a generated server reads unless it is told otherwise (its
/// `ServeConfig::max_body_bytes`): 1 MiB. The contract suite probes past it.
pub const DEFAULT_BODY_LIMIT: usize = 1 << 20;

/// A record sent as the JSON body of a request: it checks its own fields (ranges, patterns,
/// formats, values) and the rules across them.
pub trait BodyRecord: serde::de::DeserializeOwned + serde::Serialize {
    /// Adds every problem of the body to `issues`.
    fn check(&self, issues: &mut crate::Issues);
}

/// The parameter type of an endpoint with a JSON body.
pub trait WithBody: Request {
    /// The record the body holds.
    type Body: BodyRecord;
    /// The rule a body breaks when it is not JSON of the record's shape (`<endpoint>.body`).
    const BODY_RULE: &'static str;
    /// Checks the body with the parameters: the body's own checks and the rules that read a
    /// parameter and a field of the body; every problem at once.
    fn validate_body(&self, body: &Self::Body) -> Result<(), ValidationError>;
}

/// A parameter type whose endpoint pages with a page size and an offset (the spec's
/// `paging:` with both); the client streams every page of it.
pub trait Paged: Request + Clone + Send + Sync + 'static {
    /// The page size.
    fn limit(&self) -> i64;
    /// Records to skip.
    fn offset(&self) -> i64;
    /// Sets the records to skip.
    fn set_offset(&mut self, offset: i64);
}

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
    /// [`http_status`](Self::http_status) of an object with it).
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

/// A value of a strict value set that the spec does not list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownValue {
    /// The value set.
    pub set: &'static str,
    /// The text received.
    pub got: String,
    /// The values the set allows.
    pub expected: &'static [&'static str],
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a value of {}; expected one of {}",
            self.got,
            self.set,
            crate::text::one_of(self.expected)
        )
    }
}

impl std::error::Error for UnknownValue {}

/// Deserializes `null` as the type's default (an empty list), for tolerant decoding.
pub fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de> + Default,
{
    let value: Option<T> = serde::Deserialize::deserialize(deserializer)?;
    Ok(value.unwrap_or_default())
}

/// What a client and a server of one spec agree on besides the endpoints: where the
/// endpoints live, which header carries the API key, and what the answers hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Protocol {
    /// The path every endpoint path is appended to (`/api`).
    pub base_path: &'static str,
    /// The header carrying the API key (`X-API-Key`).
    pub auth_header: &'static str,
    /// The spec's description of the answers (the envelope, each record's fields, the value
    /// sets), against which a client or a proxy notices what the service sends that the spec
    /// does not describe ([`crate::drift`]).
    pub shapes: &'static crate::drift::Shapes,
}
