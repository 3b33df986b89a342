//! The spec as written: plain serde types mirroring the YAML files under `spec/`.
//!
//! Every struct rejects unknown keys, so a typo in a key is an error with a file,
//! line and column (see [`crate::load`]). Nothing here is resolved: type names,
//! parameter references and rule targets are still text. [`crate::check`] turns
//! these types into the resolved model in [`crate::model`].
//!
//! Whatever a check may point at is [`Spanned`]: items of lists and maps, names, references
//! and constrained values. A diagnostic takes its place from the node it is about.
//!
//! The same types give the JSON Schema of a spec file for editors ([`schema`]): a key's doc
//! comment is its description there, so it is written for the spec's author.

use std::collections::BTreeMap;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer};

pub use crate::yaml::{Spanned, Value, ValueKind};
pub use constraints::Constraints;
use constraints::constrained;
pub use mrds_runtime::{ChangeAction, Equal, Format, ListStyle, Method, TextFormat};
pub use rules::{
    AllowedValues, Condition, Matches, MaxSpan, Ordered, Requirement, Requires, Rule, RuleKind,
};
pub use samples::{Missing, SampleOrder, SampleRange, SampleSet, Samples};

mod constraints;
mod rules;
mod samples;
pub mod schema;

/// An `assumed:` reason: the text the generated docs render for an assumed fact, so never
/// blank.
pub(super) fn reason<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    d.deserialize_str(NonBlank(
        "an `assumed:` reason is empty: say why the spec assumes this fact (the generated docs show it), or remove `assumed:` when the interface description states the fact",
    ))
    .map(Some)
}

/// A `none:` reason of a sample section: what the docs and the sample server say instead of
/// sample data, so never blank.
pub(super) fn no_samples_reason<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<String>, D::Error> {
    d.deserialize_str(NonBlank(
        "a `none:` reason is empty: say why the endpoint has no sample data",
    ))
    .map(Some)
}

/// Text that is not blank; the message says why blank text is refused. The text is checked
/// while it is read, so the error stands at the text.
struct NonBlank(&'static str);

/// Text with something in it besides spaces.
impl JsonSchema for NonBlank {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NonBlankText".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "pattern": "\\S" })
    }
}

impl serde::de::Visitor<'_> for NonBlank {
    type Value = String;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a reason")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<String, E> {
        if text.trim().is_empty() {
            Err(E::custom(self.0))
        } else {
            Ok(text.to_owned())
        }
    }
}

/// The word naming the request body where an input is named: `body.handle` names the field
/// `handle` of the body (a parameter is named by its name alone), and `<endpoint>.body` is the
/// rule a body of the wrong shape breaks.
pub const BODY: &str = "body";

/// What a rule or a sample's selector names: a parameter (`limit`), or a field of the request
/// body (`body.handle`). The one place the spec's `body.` prefix is read.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OperandName {
    /// A parameter, by its wire name.
    Param(String),
    /// A field of the body, by its wire name.
    Field(String),
}

impl OperandName {
    /// The name `text` stands for.
    pub fn parse(text: &str) -> Self {
        match text
            .strip_prefix(BODY)
            .and_then(|rest| rest.strip_prefix('.'))
        {
            Some(field) => OperandName::Field(field.to_owned()),
            None => OperandName::Param(text.to_owned()),
        }
    }
}

impl std::fmt::Display for OperandName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OperandName::Param(name) => f.write_str(name),
            OperandName::Field(name) => write!(f, "{BODY}.{name}"),
        }
    }
}

/// A name as written: a parameter's (`limit`) or `body.` and a body field's (`body.handle`).
impl JsonSchema for OperandName {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "OperandName".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string" })
    }
}

impl<'de> Deserialize<'de> for OperandName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(|text| OperandName::parse(&text))
    }
}

/// One YAML file of the spec (any `*.yaml` file under `spec/`). Every section is optional; the
/// loader merges the sections of all files and reports a name defined twice. Unknown keys are
/// errors.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecFile {
    /// Service-wide facts (name, version, base path, auth, envelope); exactly one file holds
    /// this section.
    #[serde(default)]
    pub service: Option<Spanned<Service>>,
    /// The error codes and their HTTP status (ordered by status, whichever files hold them).
    /// They include the seven the runtime answers with (`INVALID_PARAMETER`, `UNAUTHORIZED`,
    /// `RESOURCE_NOT_FOUND`, `ENDPOINT_REMOVED`, `RATE_LIMITED`, `INTERNAL_ERROR`,
    /// `NOT_IMPLEMENTED`) and, once an endpoint takes a body, `PAYLOAD_TOO_LARGE` (413) and
    /// `UNSUPPORTED_MEDIA_TYPE` (415).
    #[serde(default)]
    pub error_codes: Option<Spanned<Vec<Spanned<ErrorCode>>>>,
    /// Records (the shapes of answers, of request bodies and the error object), by name. The
    /// runtime writes and reads the error object, so it has `code` (`ErrorCode`), `message`
    /// (string), `details` (an array of a record with `field`, `got` and `reason`) and `hint`
    /// (optional string); every other field is optional or an array.
    #[serde(default)]
    pub records: BTreeMap<String, Spanned<Record>>,
    /// Value sets (enumerations), by name.
    #[serde(default)]
    pub value_sets: BTreeMap<String, Spanned<ValueSet>>,
    /// Endpoints, by operation id (the name rule ids and samples use).
    #[serde(default)]
    pub endpoints: BTreeMap<String, Spanned<Endpoint>>,
    /// The change history. Any file may hold rows; the loader merges them and sorts them by
    /// date, newest first.
    #[serde(default)]
    pub history: Vec<Spanned<HistoryEntry>>,
    /// Sample data of the sample-data server, by endpoint id. Every endpoint has a section:
    /// samples, or `none:` with the reason it has none.
    #[serde(default)]
    pub samples: BTreeMap<String, Spanned<Samples>>,
}

/// Service-wide facts.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Service {
    /// Human name of the service.
    pub title: String,
    /// What the service does.
    pub doc: String,
    /// Version of the interface description (not of the releases).
    pub api_version: Spanned<String>,
    /// The path every endpoint path is appended to (`/api`).
    pub base_path: Spanned<String>,
    /// The authentication scheme: the header carrying the API key.
    pub auth: Spanned<Auth>,
    /// The common response envelope every answer travels in.
    pub envelope: Spanned<Envelope>,
}

/// Authentication by header.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Auth {
    /// Header name carrying the key (`X-API-Key`).
    pub header: Spanned<String>,
    /// What the key is and how it travels, for the generated docs.
    pub doc: String,
    /// Set when the interface description does not state the fact: why the spec assumes it.
    /// The generated docs and the OpenAPI document show the reason, so it is not blank.
    #[serde(default, deserialize_with = "reason")]
    #[schemars(with = "NonBlank")]
    pub assumed: Option<String>,
}

/// The common response envelope. The runtime writes and reads it, so its fields include
/// `success` (boolean), `request_id` (string), `data` (`type: records`, an array) and `error`
/// (the error object, optional); every other field is optional or an array.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Envelope {
    /// What the envelope is, for the generated docs.
    pub doc: String,
    /// Fields in wire order; the one of type `records` carries the endpoint's records.
    pub fields: Spanned<Vec<Spanned<Field>>>,
}

/// One error code.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorCode {
    /// Wire value, e.g. `INVALID_PARAMETER`.
    pub code: Spanned<String>,
    /// HTTP status answered with it.
    pub status: Spanned<u16>,
    /// The code answered for its status: when several codes share a status, the sample server
    /// (a `Prefer: code=` header, a scenario of that status) answers with the one marked
    /// `default: true`, else with the first declared (the files by name, then their order), so
    /// a code added after the others changes nothing existing requests get. At most one code
    /// of a status says it.
    #[serde(default)]
    pub default: Option<Spanned<bool>>,
    /// When it is answered, for the generated docs.
    pub doc: String,
    /// Set when the interface description does not state the fact: why the spec assumes it.
    /// The generated docs and the OpenAPI document show the reason, so it is not blank.
    #[serde(default, deserialize_with = "reason")]
    #[schemars(with = "NonBlank")]
    pub assumed: Option<String>,
}

/// A record: one object shape on the wire.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// What the record is, for the generated docs.
    pub doc: String,
    /// Set when the interface description does not state the fact: why the spec assumes it.
    /// The generated docs and the OpenAPI document show the reason, so it is not blank.
    #[serde(default, deserialize_with = "reason")]
    #[schemars(with = "NonBlank")]
    pub assumed: Option<String>,
    /// Fields in wire order.
    pub fields: Spanned<Vec<Spanned<Field>>>,
}

constrained! {
    /// A field of a record or of the envelope.
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct Field {
        /// Wire name.
        pub name: Spanned<String>,
        /// `string`, `integer`, `number`, `boolean`, `any` (any JSON value), a record, a value
        /// set, `ErrorCode`, or (envelope only) `records`.
        #[serde(rename = "type")]
        pub ty: Spanned<String>,
        /// A JSON array of `type`.
        #[serde(default)]
        pub array: bool,
        /// The field may be absent (or null).
        #[serde(default)]
        pub optional: bool,
        /// What the field holds, for the generated docs.
        pub doc: String,
        /// Set when the interface description does not state the fact: why the spec assumes
        /// it. The generated docs and the OpenAPI document show the reason, so it is not blank.
        #[serde(default, deserialize_with = "reason")]
        #[schemars(with = "NonBlank")]
        pub assumed: Option<String>,
    }
}

/// The spellings of `format:` ([`Format::all`]), each with its description: the schema of a
/// [`Format`], the runtime's type (which reads itself).
pub struct FormatSpelling;

impl JsonSchema for FormatSpelling {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Format".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let spellings: Vec<serde_json::Value> = Format::all()
            .map(|f| serde_json::json!({ "const": f.name(), "description": f.description() }))
            .collect();
        json_schema!({
            "type": "string",
            "oneOf": spellings,
        })
    }
}

/// A value set (enumeration). A set used by a record field is generated tolerant (an unknown
/// value decodes into `Unknown(text)`); one used only by parameters is strict.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ValueSet {
    /// What the set is, for the generated docs.
    pub doc: String,
    /// Set when the interface description does not state the fact: why the spec assumes it.
    /// The generated docs and the OpenAPI document show the reason, so it is not blank.
    #[serde(default, deserialize_with = "reason")]
    #[schemars(with = "NonBlank")]
    pub assumed: Option<String>,
    /// The values, in the order the spec lists them.
    pub values: Spanned<Vec<Spanned<EnumValue>>>,
}

/// One value of a value set.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnumValue {
    /// Wire spelling.
    pub value: Spanned<String>,
    /// Rust variant name, when the wire spelling does not make one (`1min`).
    #[serde(default)]
    pub rust: Option<Spanned<String>>,
    /// What the value means, for the generated docs.
    #[serde(default)]
    pub doc: Option<String>,
    /// Set when the interface description does not state the fact: why the spec assumes it.
    /// The generated docs and the OpenAPI document show the reason, so it is not blank.
    #[serde(default, deserialize_with = "reason")]
    #[schemars(with = "NonBlank")]
    pub assumed: Option<String>,
}

/// Whether an endpoint needs the API key.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum AuthMode {
    /// A missing or unknown key is rejected.
    Required,
    /// A key is accepted but not required.
    Optional,
}

/// One endpoint.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Endpoint {
    /// The Rust method name of the endpoint (snake_case), when the id would collide with a
    /// name the generated crates define; the other Rust names (the parameter type, the
    /// constant) derive from it.
    #[serde(default)]
    pub rust: Option<Spanned<String>>,
    /// HTTP method: `GET` or `DELETE` (parameters only), or `POST`, `PUT` or `PATCH` (with a
    /// `body`).
    #[schemars(with = "schema::Spellings<Method>")]
    pub method: Spanned<Method>,
    /// Path below the base path, with `{name}` for path parameters; literal segments hold
    /// letters, digits, `-`, `.`, `_`, `~`.
    pub path: Spanned<String>,
    /// One line: what the endpoint answers.
    pub summary: String,
    /// More explanation, for the generated docs.
    #[serde(default)]
    pub doc: Option<String>,
    /// The documented order of the returned records, as prose.
    #[serde(default)]
    pub ordering: Option<String>,
    /// The documented order, machine-readable (`{ field, descending, direction }`): the
    /// contract suite checks it and the sample server applies it.
    #[serde(default)]
    pub order: Option<Spanned<EndpointOrder>>,
    /// The parameter naming the one thing a request asks for (a person, a document): a value
    /// that names nothing is answered 404 `RESOURCE_NOT_FOUND`.
    #[serde(default)]
    pub lookup: Option<Spanned<String>>,
    /// Whether the API key is required: `required` or `optional`.
    pub auth: Spanned<AuthMode>,
    /// Set when the interface description does not state the key requirement: why the spec
    /// assumes it.
    #[serde(default, deserialize_with = "reason")]
    #[schemars(with = "NonBlank")]
    pub auth_assumed: Option<String>,
    /// The record the envelope's `data` holds (an array of it).
    pub returns: Spanned<String>,
    /// The record the request body holds, as JSON: the body of a `POST`, `PUT` or `PATCH`
    /// (which need one), the body of this endpoint only. Its fields may carry `min`, `max`,
    /// `pattern`, `format`, checked like parameters.
    #[serde(default)]
    pub body: Option<Spanned<String>>,
    /// A `POST` or `PATCH` that is safe to send again (the same request twice has the effect
    /// of once): the client retries it like a read. Every `GET`, `PUT` and `DELETE` is
    /// idempotent already. Otherwise the client retries only what never reached the service,
    /// or a call that carries an idempotency key.
    #[serde(default)]
    pub idempotent: Option<Spanned<bool>>,
    /// Set when the interface description does not state the endpoint as a whole (its path,
    /// say): why the spec assumes it.
    #[serde(default, deserialize_with = "reason")]
    #[schemars(with = "NonBlank")]
    pub assumed: Option<String>,
    /// Parameters, in documented order.
    #[serde(default)]
    pub params: Vec<Spanned<Param>>,
    /// Rules across parameters (and the fields of the body, `body.<field>`).
    #[serde(default)]
    pub rules: Vec<Spanned<Rule>>,
    /// The parameters that cap and page the records (`{ limit, offset }`): the integer
    /// parameter capping the number of records and, for endpoints that page, the one skipping
    /// records; the client streams every page of an endpoint with both.
    #[serde(default)]
    pub paging: Option<Spanned<Paging>>,
    /// Set when the change history lists the endpoint as removed: when and in which release.
    #[serde(default)]
    pub removed: Option<Spanned<Removal>>,
}

/// How the records of an endpoint are ordered.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EndpointOrder {
    /// The record field ordered by.
    pub field: Spanned<String>,
    /// Largest first.
    #[serde(default)]
    pub descending: bool,
    /// A parameter of a value set `asc`/`desc` that chooses the direction.
    #[serde(default)]
    pub direction: Option<Spanned<String>>,
}

/// The parameters that cap and page an endpoint's records: `limit` caps the number of records
/// (the sample server applies it, the contract suite checks it); with `offset` too, the
/// endpoint pages (the client streams every page).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Paging {
    /// The integer parameter capping the number of records.
    pub limit: Spanned<String>,
    /// The integer parameter giving how many records to skip.
    #[serde(default)]
    pub offset: Option<Spanned<String>>,
}

/// When and in which release an endpoint was removed.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Removal {
    /// `YYYY-MM-DD`.
    pub date: Spanned<String>,
    /// Release tag, e.g. `v0.10.43`.
    pub version: Spanned<String>,
}

/// Where a parameter travels.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum ParamLocation {
    /// The query string.
    Query,
    /// A `{name}` segment of the path.
    Path,
}

constrained! {
    /// One request parameter.
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct Param {
        /// Wire name.
        pub name: Spanned<String>,
        /// Where it travels: `query`, or `path` (a `{name}` segment of the path).
        #[serde(rename = "in")]
        pub location: Spanned<ParamLocation>,
        /// `string`, `integer`, `boolean`, or a value set (of each item, for a list).
        #[serde(rename = "type")]
        pub ty: Spanned<String>,
        /// A list of values of `type` (a query parameter): `Vec` in the generated code, each
        /// item checked against the parameter's `format`, `min`, `max`, `pattern` and value
        /// set. It says how it travels with `style`. A list of no items is not sent: the
        /// parameter absent, or (a comma list) given with an empty value (`fields=`), is a list
        /// of no items, which `required` and `min_items` judge.
        #[serde(default)]
        pub array: Option<Spanned<bool>>,
        /// How a list (`array: true`) travels: `comma` (`fields=a,b`: one parameter, the items
        /// separated by commas; an item is not empty and holds no comma, so `fields=a,,b` and
        /// `fields=a,` are refused at the empty item, named by its index, and only for that)
        /// or `repeated` (`fields=a&fields=b`: the parameter once per item, each value an item,
        /// an empty one too).
        #[serde(default)]
        #[schemars(with = "Option<schema::Spellings<ListStyle>>")]
        pub style: Option<Spanned<ListStyle>>,
        /// Fewest items of a list that is given (a list with no item is not given: `required`
        /// says whether it must be).
        #[serde(default)]
        pub min_items: Option<Spanned<i64>>,
        /// Most items of a list.
        #[serde(default)]
        pub max_items: Option<Spanned<i64>>,
        /// Required on every request (a list: with at least one item).
        #[serde(default)]
        pub required: bool,
        /// Value used when absent.
        #[serde(default)]
        pub default: Option<Value>,
        /// What the parameter is, for the generated docs.
        pub doc: String,
        /// Set when the interface description does not state the fact: why the spec assumes
        /// it. The generated docs and the OpenAPI document show the reason, so it is not blank.
        #[serde(default, deserialize_with = "reason")]
        #[schemars(with = "NonBlank")]
        pub assumed: Option<String>,
    }
}

/// One row of the change history. Two rows of one date stay two rows; an endpoint is listed at
/// most once per date.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HistoryEntry {
    /// `YYYY-MM-DD`.
    pub date: Spanned<String>,
    /// Release tags (`v0.10.43`).
    pub versions: Spanned<Vec<Spanned<String>>>,
    /// The endpoints added or removed; may be left out when the row lists `breaking` changes
    /// only.
    #[serde(default)]
    pub changes: Vec<Spanned<Change>>,
    /// Breaking changes this release makes knowingly, each a check id of `cargo xtask
    /// spec-diff` (`param.added_required`) or the subject of a finding (`bars.venue`).
    #[serde(default)]
    pub breaking: Vec<Spanned<String>>,
}

/// One endpoint added or removed.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Change {
    /// `added` or `removed`.
    #[schemars(with = "schema::Spellings<ChangeAction>")]
    pub action: ChangeAction,
    /// HTTP method of the endpoint: one the format knows (`GET`, `POST`, `PUT`, `PATCH`,
    /// `DELETE`).
    #[schemars(with = "schema::Spellings<Method>")]
    pub method: Spanned<Method>,
    /// Path of the endpoint, as the endpoint writes it.
    pub path: Spanned<String>,
}
