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
    pub shapes: &'static crate::drift::Shapes,
}
