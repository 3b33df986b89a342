//! The spec as written: plain serde types mirroring the YAML files under `spec/`.
//!
//! Every struct rejects unknown keys, so a typo in a key is an error with a file,
//! line and column (see [`crate::load`]). Nothing here is resolved: type names,
//! parameter references and rule targets are still text. [`crate::check`] turns
//! these types into the resolved model in [`crate::model`].
//!
//! Whatever a check may point at is [`Spanned`]: items of lists and maps, names, references
//! and constrained values. A diagnostic takes its place from the node it is about.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};

pub use crate::yaml::{Spanned, Value, ValueKind};
pub use mrds_runtime::{Equal, TextFormat};
pub use rules::{
    AllowedValues, Condition, Matches, MaxSpan, Ordered, Requirement, Requires, Rule, RuleKind,
};
pub use samples::{Missing, SampleOrder, SampleRange, SampleSet, Samples};

mod rules;
mod samples;

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

impl<'de> Deserialize<'de> for OperandName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(|text| OperandName::parse(&text))
    }
}

/// One YAML file of the spec. Every section is optional; the loader merges all files
/// of the spec directory and reports a name defined twice.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecFile {
    /// Service-wide facts; exactly one file holds this section.
    #[serde(default)]
    pub service: Option<Spanned<Service>>,
    /// The error codes and their HTTP status.
    #[serde(default)]
    pub error_codes: Option<Spanned<Vec<Spanned<ErrorCode>>>>,
    /// Records (response shapes and the error object), by name.
    #[serde(default)]
    pub records: BTreeMap<String, Spanned<Record>>,
    /// Value sets (enumerations), by name.
    #[serde(default)]
    pub value_sets: BTreeMap<String, Spanned<ValueSet>>,
    /// Endpoints, by operation id.
    #[serde(default)]
    pub endpoints: BTreeMap<String, Spanned<Endpoint>>,
    /// The change history, newest first.
    #[serde(default)]
    pub history: Vec<Spanned<HistoryEntry>>,
    /// Sample data of the sample-data server, by endpoint id.
    #[serde(default)]
    pub samples: BTreeMap<String, Spanned<Samples>>,
}

/// Service-wide facts.
#[derive(Debug, Deserialize)]
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
    /// The authentication scheme.
    pub auth: Spanned<Auth>,
    /// The common response envelope.
    pub envelope: Spanned<Envelope>,
}

/// Authentication by header.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Auth {
    /// Header name carrying the key.
    pub header: Spanned<String>,
    /// Explanation.
    pub doc: String,
    /// Set when the interface description does not state the fact: why the spec assumes it.
    #[serde(default, deserialize_with = "reason")]
    pub assumed: Option<String>,
}

/// The common response envelope.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Envelope {
    /// Explanation.
    pub doc: String,
    /// Fields; the one of type `records` carries the endpoint's records.
    pub fields: Spanned<Vec<Spanned<Field>>>,
}

/// One error code.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorCode {
    /// Wire value, e.g. `INVALID_PARAMETER`.
    pub code: Spanned<String>,
    /// HTTP status answered with it.
    pub status: Spanned<u16>,
    /// When it is used.
    pub doc: String,
    /// Set when the interface description does not state the fact: why the spec assumes it.
    #[serde(default, deserialize_with = "reason")]
    pub assumed: Option<String>,
}

/// A record: one object shape on the wire.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Explanation.
    pub doc: String,
    /// Set when the interface description does not state the fact: why the spec assumes it.
    #[serde(default, deserialize_with = "reason")]
    pub assumed: Option<String>,
    /// Fields in wire order.
    pub fields: Spanned<Vec<Spanned<Field>>>,
}

/// A field of a record or of the envelope.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    /// Wire name.
    pub name: Spanned<String>,
    /// `string`, `integer`, `number`, `boolean`, `any`, a record, a value set,
    /// `ErrorCode`, or (envelope only) `records`.
    #[serde(rename = "type")]
    pub ty: Spanned<String>,
    /// A JSON array of `type`.
    #[serde(default)]
    pub array: bool,
    /// The field may be absent (or null).
    #[serde(default)]
    pub optional: bool,
    /// Format of a text or integer value.
    #[serde(default)]
    pub format: Option<Spanned<Format>>,
    /// Smallest allowed integer (fields of a request body).
    #[serde(default)]
    pub min: Option<Spanned<i64>>,
    /// Largest allowed integer (fields of a request body).
    #[serde(default)]
    pub max: Option<Spanned<i64>>,
    /// Regular expression the whole text must match (fields of a request body).
    #[serde(default)]
    pub pattern: Option<Spanned<String>>,
    /// What the pattern means, for error messages.
    #[serde(default)]
    pub pattern_doc: Option<Spanned<String>>,
    /// Explanation.
    pub doc: String,
    /// Set when the interface description does not state the fact: why the spec assumes it.
    #[serde(default, deserialize_with = "reason")]
    pub assumed: Option<String>,
}

/// A `format:` of a parameter or a field. A text format ([`TextFormat`], the runtime's: every
/// value is checked against it) or Unix seconds (on integers) fit parameters and the fields of
/// a request body; the others describe the fields of answers, which are read as they come.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Format {
    /// Integer Unix seconds (UTC).
    UnixSeconds,
    /// A text format the generated code checks.
    Text(TextFormat),
    /// ISO 8601 timestamp.
    Timestamp,
    /// ISO 8601 UTC timestamp with milliseconds and `Z`.
    TimestampMillis,
    /// `YYYY-MM-DD HH:MM:SS`.
    DateTime,
    /// A decimal number carried as text.
    NumericText,
    /// A URL.
    Url,
}

impl Format {
    /// Every format, in the order a message lists them.
    pub fn all() -> impl Iterator<Item = Format> {
        let documented = [
            Format::Timestamp,
            Format::TimestampMillis,
            Format::DateTime,
            Format::NumericText,
            Format::Url,
        ];
        std::iter::once(Format::UnixSeconds)
            .chain(TextFormat::ALL.map(Format::Text))
            .chain(documented)
    }

    /// The spec spelling.
    pub fn name(self) -> &'static str {
        match self {
            Format::UnixSeconds => "unix_seconds",
            Format::Text(f) => f.name(),
            Format::Timestamp => "timestamp",
            Format::TimestampMillis => "timestamp_millis",
            Format::DateTime => "date_time",
            Format::NumericText => "numeric_text",
            Format::Url => "url",
        }
    }

    /// What it is, for documentation (`RFC 3339 timestamp`).
    pub fn description(self) -> &'static str {
        match self {
            Format::UnixSeconds => "Unix seconds (UTC)",
            Format::Text(f) => f.info().description,
            Format::Timestamp => "ISO 8601 timestamp",
            Format::TimestampMillis => "ISO 8601 UTC timestamp with milliseconds and `Z`",
            Format::DateTime => "`YYYY-MM-DD HH:MM:SS`",
            Format::NumericText => "a decimal number carried as text",
            Format::Url => "URL",
        }
    }

    /// The JSON Schema `format` keyword describing it, when there is one.
    pub fn json_format(self) -> Option<&'static str> {
        match self {
            Format::Text(f) => f.info().json_format,
            Format::TimestampMillis => Some("date-time"),
            Format::Url => Some("uri"),
            Format::UnixSeconds | Format::Timestamp | Format::DateTime | Format::NumericText => {
                None
            }
        }
    }
}

impl<'de> Deserialize<'de> for Format {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Format::all().find(|f| f.name() == name).ok_or_else(|| {
            let all: Vec<String> = Format::all().map(|f| format!("`{}`", f.name())).collect();
            serde::de::Error::custom(format!(
                "unknown variant `{name}`, expected one of {}",
                all.join(", ")
            ))
        })
    }
}

/// A value set (enumeration).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueSet {
    /// Explanation.
    pub doc: String,
    /// Set when the interface description does not state the fact: why the spec assumes it.
    #[serde(default, deserialize_with = "reason")]
    pub assumed: Option<String>,
    /// The values, in the order the spec lists them.
    pub values: Spanned<Vec<Spanned<EnumValue>>>,
}

/// One value of a value set.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnumValue {
    /// Wire spelling.
    pub value: Spanned<String>,
    /// Rust variant name, when the wire spelling does not make one (`1min`).
    #[serde(default)]
    pub rust: Option<Spanned<String>>,
    /// Explanation.
    #[serde(default)]
    pub doc: Option<String>,
    /// Set when the interface description does not state the fact: why the spec assumes it.
    #[serde(default, deserialize_with = "reason")]
    pub assumed: Option<String>,
}

/// HTTP method.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
pub enum Method {
    /// `GET`: reads, with parameters only.
    #[serde(rename = "GET")]
    Get,
    /// `POST`: with a JSON body.
    #[serde(rename = "POST")]
    Post,
}

impl Method {
    /// The method's name on the wire (`GET`).
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
        }
    }
}

/// Whether an endpoint needs the API key.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum AuthMode {
    /// A missing or unknown key is rejected.
    Required,
    /// A key is accepted but not required.
    Optional,
}

/// One endpoint.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Endpoint {
    /// The Rust method name of the endpoint (snake_case), when the id would collide with a
    /// name the generated crates define; the other Rust names derive from it.
    #[serde(default)]
    pub rust: Option<Spanned<String>>,
    /// HTTP method.
    pub method: Spanned<Method>,
    /// Path below the base path, with `{name}` for path parameters.
    pub path: Spanned<String>,
    /// One line.
    pub summary: String,
    /// More explanation.
    #[serde(default)]
    pub doc: Option<String>,
    /// Documented ordering of the returned records, as prose.
    #[serde(default)]
    pub ordering: Option<String>,
    /// The documented ordering, machine-readable: the contract suite checks it and the sample
    /// server applies it.
    #[serde(default)]
    pub order: Option<Spanned<EndpointOrder>>,
    /// The parameter naming the one thing a request asks for (a person, a document): a value
    /// that names nothing is answered 404 `RESOURCE_NOT_FOUND`.
    #[serde(default)]
    pub lookup: Option<Spanned<String>>,
    /// Whether the key is required.
    pub auth: Spanned<AuthMode>,
    /// Set when the interface description does not state the key requirement: why the spec
    /// assumes it.
    #[serde(default, deserialize_with = "reason")]
    pub auth_assumed: Option<String>,
    /// The record `data` holds.
    pub returns: Spanned<String>,
    /// The record the request body holds (a `POST`), as JSON.
    #[serde(default)]
    pub body: Option<Spanned<String>>,
    /// A `POST` that is safe to send again (the same body twice has the effect of once): the
    /// client retries it like a read. Otherwise it retries only what never reached the
    /// service, or a call that carries an idempotency key.
    #[serde(default)]
    pub idempotent: Option<Spanned<bool>>,
    /// Set when the interface description does not state the endpoint as a whole (its path,
    /// say): why the spec assumes it.
    #[serde(default, deserialize_with = "reason")]
    pub assumed: Option<String>,
    /// Parameters, in documented order.
    #[serde(default)]
    pub params: Vec<Spanned<Param>>,
    /// Rules across parameters.
    #[serde(default)]
    pub rules: Vec<Spanned<Rule>>,
    /// The parameters that cap and page the records.
    #[serde(default)]
    pub paging: Option<Spanned<Paging>>,
    /// Set when the change history lists the endpoint as removed.
    #[serde(default)]
    pub removed: Option<Spanned<Removal>>,
}

/// How the records of an endpoint are ordered.
#[derive(Debug, Deserialize)]
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
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Paging {
    /// The integer parameter capping the number of records.
    pub limit: Spanned<String>,
    /// The integer parameter giving how many records to skip.
    #[serde(default)]
    pub offset: Option<Spanned<String>>,
}

/// When and in which release an endpoint was removed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Removal {
    /// `YYYY-MM-DD`.
    pub date: Spanned<String>,
    /// Release tag, e.g. `v0.10.43`.
    pub version: Spanned<String>,
}

/// Where a parameter travels.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum ParamLocation {
    /// The query string.
    Query,
    /// A `{name}` segment of the path.
    Path,
}

/// One request parameter.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Param {
    /// Wire name.
    pub name: Spanned<String>,
    /// Where it travels.
    #[serde(rename = "in")]
    pub location: Spanned<ParamLocation>,
    /// `string`, `integer`, `boolean`, or a value set.
    #[serde(rename = "type")]
    pub ty: Spanned<String>,
    /// Format, checked by the generated code.
    #[serde(default)]
    pub format: Option<Spanned<Format>>,
    /// Required on every request.
    #[serde(default)]
    pub required: bool,
    /// Value used when absent.
    #[serde(default)]
    pub default: Option<Value>,
    /// Smallest allowed integer.
    #[serde(default)]
    pub min: Option<Spanned<i64>>,
    /// Largest allowed integer.
    #[serde(default)]
    pub max: Option<Spanned<i64>>,
    /// Regular expression the whole value must match.
    #[serde(default)]
    pub pattern: Option<Spanned<String>>,
    /// What the pattern means, for error messages (`a six-letter currency pair`).
    #[serde(default)]
    pub pattern_doc: Option<Spanned<String>>,
    /// Explanation.
    pub doc: String,
    /// Set when the interface description does not state the fact: why the spec assumes it.
    #[serde(default, deserialize_with = "reason")]
    pub assumed: Option<String>,
}

/// One row of the change history.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoryEntry {
    /// `YYYY-MM-DD`.
    pub date: Spanned<String>,
    /// Release tags.
    pub versions: Spanned<Vec<Spanned<String>>>,
    /// What changed.
    pub changes: Vec<Spanned<Change>>,
    /// Breaking changes this release makes knowingly, each a check id of `cargo xtask
    /// spec-diff` (`param.added_required`) or the subject of a finding (`bars.venue`).
    #[serde(default)]
    pub breaking: Vec<Spanned<String>>,
}

/// One endpoint added or removed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Change {
    /// Added or removed.
    pub action: ChangeAction,
    /// HTTP method of the endpoint.
    pub method: Spanned<String>,
    /// Path of the endpoint.
    pub path: Spanned<String>,
}

/// Kind of change.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum ChangeAction {
    /// The endpoint appeared.
    Added,
    /// The endpoint went away.
    Removed,
}
