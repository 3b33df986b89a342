//! The shapes every generated model crate fills in: the endpoint table, the change history,
//! the request traits, and what a client and a server of one spec agree on (the error object
//! is `error.rs`).

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

/// An HTTP method an endpoint answers: the methods the spec format knows.
///
/// `GET` and `DELETE` carry no body; `POST`, `PUT` and `PATCH` carry the endpoint's JSON
/// body. A router answers `HEAD` wherever it answers `GET`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Method {
    /// `GET`: reads, with parameters only.
    #[serde(rename = "GET")]
    Get,
    /// `POST`: with a JSON body; repeated after a failure only when the spec marks the
    /// endpoint `idempotent`.
    #[serde(rename = "POST")]
    Post,
    /// `PUT`: with a JSON body, replacing what it names; idempotent.
    #[serde(rename = "PUT")]
    Put,
    /// `PATCH`: with a JSON body, changing part of what it names; repeated after a failure
    /// only when the spec marks the endpoint `idempotent`.
    #[serde(rename = "PATCH")]
    Patch,
    /// `DELETE`: removes what it names, with parameters only; idempotent.
    #[serde(rename = "DELETE")]
    Delete,
}

impl Method {
    /// Every method, in the order messages list them.
    pub const ALL: [Method; 5] = [
        Method::Get,
        Method::Post,
        Method::Put,
        Method::Patch,
        Method::Delete,
    ];

    /// The method's name on the wire (`GET`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }

    /// The method named `name` on the wire (exactly, in upper case); `None` for a method the
    /// spec format does not know (`HEAD` included: a router answers it as `GET`).
    pub fn parse(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.as_str() == name)
    }

    /// True for the methods whose requests carry the endpoint's JSON body (`POST`, `PUT`,
    /// `PATCH`).
    pub const fn takes_body(self) -> bool {
        matches!(self, Method::Post | Method::Put | Method::Patch)
    }

    /// True for the methods HTTP defines as idempotent (`GET`, `PUT`, `DELETE`): sending the
    /// request twice has the effect of sending it once. A `POST` or `PATCH` is only when the
    /// spec says so ([`Endpoint::idempotent`]).
    pub const fn idempotent(self) -> bool {
        matches!(self, Method::Get | Method::Put | Method::Delete)
    }
}

/// The `http` crate's method (the client's and the server's).
#[cfg(any(feature = "client", feature = "server"))]
impl From<Method> for http_types::Method {
    fn from(method: Method) -> Self {
        match method {
            Method::Get => http_types::Method::GET,
            Method::Post => http_types::Method::POST,
            Method::Put => http_types::Method::PUT,
            Method::Patch => http_types::Method::PATCH,
            Method::Delete => http_types::Method::DELETE,
        }
    }
}

#[cfg(all(feature = "server", not(feature = "client")))]
use axum::http as http_types;
#[cfg(feature = "client")]
use http as http_types;

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One endpoint of the service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Endpoint {
    /// Operation id (the client and server method name).
    pub id: &'static str,
    /// HTTP method.
    pub method: Method,
    /// Path below the base path, with `{name}` for path parameters.
    pub path: &'static str,
    /// One line.
    pub summary: &'static str,
    /// Whether the key is required.
    pub auth: Auth,
    /// Set when the change history lists the endpoint as removed.
    pub removed: Option<Removal>,
    /// Sending the request twice has the effect of sending it once (every `GET`, `PUT` and
    /// `DELETE`, and a `POST` or `PATCH` the spec marks so): the client may repeat it after a
    /// failure.
    pub idempotent: bool,
}

/// Kind of a change in the history (the spec's `action:`, `added` or `removed`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
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
    pub method: Method,
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
    pub shapes: &'static crate::shapes::Shapes,
}
