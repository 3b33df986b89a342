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

/// An `assumed:` reason: the text the generated docs render for an assumed fact, so never
/// blank.
fn reason<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    d.deserialize_str(NonBlank(
        "an `assumed:` reason is empty: say why the spec assumes this fact (the generated docs show it), or remove `assumed:` when the interface description states the fact",
    ))
    .map(Some)
}

/// A `none:` reason of a sample section: what the docs and the sample server say instead of
/// sample data, so never blank.
fn no_samples_reason<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
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

/// A rule across parameters. It names exactly one kind of check as a key of its own
/// (`ordered:`, `max_span:`, `requires:`, `at_least_one:`, `allowed_values:` or `matches:`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Stable id, named by validation errors (`stock_dividends.range_order`).
    pub id: Spanned<String>,
    /// Explanation, also the reason given when the rule is broken.
    pub doc: String,
    /// Set when the interface description does not state the fact: why the spec assumes it.
    #[serde(default, deserialize_with = "reason")]
    pub assumed: Option<String>,
    /// The rule applies only when this holds.
    #[serde(default)]
    pub when: Option<Spanned<Condition>>,
    /// `before` < `after` when both are given.
    #[serde(default)]
    pub ordered: Option<Spanned<Ordered>>,
    /// `to - from <= seconds` when both are given.
    #[serde(default)]
    pub max_span: Option<Spanned<MaxSpan>>,
    /// When `param` is given, `needs` must be given too.
    #[serde(default)]
    pub requires: Option<Spanned<Requires>>,
    /// At least one of these parameters is given.
    #[serde(default)]
    pub at_least_one: Option<Spanned<Vec<Spanned<OperandName>>>>,
    /// `param`, when given, is one of `values` (wire spellings).
    #[serde(default)]
    pub allowed_values: Option<Spanned<AllowedValues>>,
    /// `param`, when given, matches `pattern`.
    #[serde(default)]
    pub matches: Option<Spanned<Matches>>,
}

/// The kinds of rule: what a rule's requirement is, in the spec ([`Rule`]'s keys, whose serde
/// names are these spellings: a test of the loader holds them together) and in the model
/// (`model::Requirement::kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RuleKind {
    /// `ordered`.
    Ordered,
    /// `max_span`.
    MaxSpan,
    /// `requires`.
    Requires,
    /// `at_least_one`.
    AtLeastOne,
    /// `allowed_values`.
    AllowedValues,
    /// `matches`.
    Matches,
}

impl RuleKind {
    /// Every kind.
    pub const ALL: [RuleKind; 6] = [
        RuleKind::Ordered,
        RuleKind::MaxSpan,
        RuleKind::Requires,
        RuleKind::AtLeastOne,
        RuleKind::AllowedValues,
        RuleKind::Matches,
    ];

    /// The spelling in the spec (`max_span`).
    pub fn name(self) -> &'static str {
        match self {
            RuleKind::Ordered => "ordered",
            RuleKind::MaxSpan => "max_span",
            RuleKind::Requires => "requires",
            RuleKind::AtLeastOne => "at_least_one",
            RuleKind::AllowedValues => "allowed_values",
            RuleKind::Matches => "matches",
        }
    }
}

impl std::fmt::Display for RuleKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Rule {
    /// The check kinds this rule names, with their spelling and place. The destructuring
    /// names every field, so a new kind cannot be added to [`Rule`] without being listed here.
    pub fn checks(&self) -> Vec<(RuleKind, crate::diag::Span, Requirement<'_>)> {
        let Rule {
            id: _,
            doc: _,
            assumed: _,
            when: _,
            ordered,
            max_span,
            requires,
            at_least_one,
            allowed_values,
            matches,
        } = self;
        let all = [
            ordered.as_ref().map(|c| (c.span, Requirement::Ordered(c))),
            max_span.as_ref().map(|c| (c.span, Requirement::MaxSpan(c))),
            requires
                .as_ref()
                .map(|c| (c.span, Requirement::Requires(c))),
            at_least_one
                .as_ref()
                .map(|c| (c.span, Requirement::AtLeastOne(c))),
            allowed_values
                .as_ref()
                .map(|c| (c.span, Requirement::AllowedValues(c))),
            matches.as_ref().map(|c| (c.span, Requirement::Matches(c))),
        ];
        all.into_iter()
            .flatten()
            .map(|(at, c)| (c.kind(), at, c))
            .collect()
    }
}

/// What a rule requires, borrowed.
#[derive(Debug)]
pub enum Requirement<'a> {
    /// See [`Ordered`].
    Ordered(&'a Spanned<Ordered>),
    /// See [`MaxSpan`].
    MaxSpan(&'a Spanned<MaxSpan>),
    /// See [`Requires`].
    Requires(&'a Spanned<Requires>),
    /// Parameter names.
    AtLeastOne(&'a Spanned<Vec<Spanned<OperandName>>>),
    /// See [`AllowedValues`].
    AllowedValues(&'a Spanned<AllowedValues>),
    /// See [`Matches`].
    Matches(&'a Spanned<Matches>),
}

impl Requirement<'_> {
    /// The kind.
    pub fn kind(&self) -> RuleKind {
        match self {
            Requirement::Ordered(_) => RuleKind::Ordered,
            Requirement::MaxSpan(_) => RuleKind::MaxSpan,
            Requirement::Requires(_) => RuleKind::Requires,
            Requirement::AtLeastOne(_) => RuleKind::AtLeastOne,
            Requirement::AllowedValues(_) => RuleKind::AllowedValues,
            Requirement::Matches(_) => RuleKind::Matches,
        }
    }
}

/// `before < after` (or `before <= after` with `equal: allowed`) when both are given.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ordered {
    /// The earlier parameter.
    pub before: Spanned<OperandName>,
    /// The later parameter.
    pub after: Spanned<OperandName>,
    /// Whether the two may be the same instant: `refused` (the default: "before") or
    /// `allowed` ("not after").
    #[serde(default)]
    pub equal: Equal,
}

/// `to - from <= seconds` when both are given.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaxSpan {
    /// Start of the span.
    pub from: Spanned<OperandName>,
    /// End of the span.
    pub to: Spanned<OperandName>,
    /// Largest allowed difference.
    pub seconds: Spanned<i64>,
}

/// `param` given implies `needs` given.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Requires {
    /// The dependent parameter.
    pub param: Spanned<OperandName>,
    /// The parameter it needs.
    pub needs: Spanned<OperandName>,
}

/// `param`, when given, is one of `values`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AllowedValues {
    /// The parameter restricted.
    pub param: Spanned<OperandName>,
    /// The values still allowed.
    pub values: Spanned<Vec<Spanned<String>>>,
}

/// `param`, when given, matches `pattern`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Matches {
    /// The parameter checked.
    pub param: Spanned<OperandName>,
    /// Regular expression for the whole value.
    pub pattern: Spanned<String>,
}

/// A condition on one parameter's value.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// The parameter looked at.
    pub param: Spanned<OperandName>,
    /// Holds when the value is one of these (wire spellings).
    #[serde(default, rename = "in")]
    pub one_of: Option<Spanned<Vec<Spanned<String>>>>,
    /// Holds when the value matches this regular expression.
    #[serde(default)]
    pub matches: Option<Spanned<String>>,
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

/// The sample data one endpoint of the sample-data server answers with, and how a request
/// selects from it: matching sets, then field filters, range, order, and the endpoint's
/// `paging` (offset and limit).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Samples {
    /// Why the endpoint has no sample data (the interface description gives none, say): then
    /// the section holds nothing else, and the sample server does not implement the endpoint.
    #[serde(default, deserialize_with = "no_samples_reason")]
    pub none: Option<String>,
    /// A request this endpoint answers with sample records: its path (below the base path)
    /// and query, e.g. `/v1/etf/flow?symbol=SPY&start_time=1&end_time=2`.
    #[serde(default)]
    pub example: Option<Spanned<String>>,
    /// The body the example sends (an endpoint with a body), as it travels.
    #[serde(default)]
    pub example_body: Option<Value>,
    /// What to answer when no set matches: an empty array (default) or 404.
    #[serde(default)]
    pub missing: Missing,
    /// Of these parameters only the first one the request gives selects sets.
    #[serde(default)]
    pub first_of: Vec<Spanned<String>>,
    /// Parameters matched as a case-insensitive part of a listed spelling, not exactly.
    #[serde(default)]
    pub contains: Vec<Spanned<String>>,
    /// Record field to parameter (or body field, `body.<field>`): the record field is set to
    /// the caller's spelling.
    #[serde(default)]
    pub echo: BTreeMap<String, Spanned<OperandName>>,
    /// Parameter (or body field, `body.<field>`) to record field: when given, only records
    /// whose field equals it remain.
    #[serde(default)]
    pub filter: BTreeMap<OperandName, Spanned<String>>,
    /// A time range the records must fall in.
    #[serde(default)]
    pub range: Option<Spanned<SampleRange>>,
    /// The order of the answer.
    #[serde(default)]
    pub order: Option<Spanned<SampleOrder>>,
    /// When none of these parameters is given, only the first record (after ordering) remains.
    #[serde(default)]
    pub latest_without: Vec<Spanned<String>>,
    /// The sample sets; every set that matches contributes its records.
    #[serde(default)]
    pub sets: Option<Spanned<Vec<Spanned<SampleSet>>>>,
}

/// What the sample-data server answers when no set matches.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Missing {
    /// HTTP 200 with `data: []`.
    #[default]
    Empty,
    /// HTTP 404 `RESOURCE_NOT_FOUND`.
    NotFound,
}

/// A time range over one record field (or a field chosen by a parameter).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SampleRange {
    /// Parameter holding the earliest instant (inclusive).
    #[serde(default)]
    pub from: Option<Spanned<String>>,
    /// Parameter holding the latest instant (inclusive).
    #[serde(default)]
    pub to: Option<Spanned<String>>,
    /// The record field compared.
    #[serde(default)]
    pub field: Option<Spanned<String>>,
    /// A parameter whose value chooses the field (with `fields`).
    #[serde(default)]
    pub by: Option<Spanned<String>>,
    /// Value of `by` to record field.
    #[serde(default)]
    pub fields: Option<Spanned<BTreeMap<String, Spanned<String>>>>,
}

/// The order of the records.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SampleOrder {
    /// The record field ordered by; the range's field when absent.
    #[serde(default)]
    pub field: Option<Spanned<String>>,
    /// Newest (largest) first.
    #[serde(default)]
    pub descending: bool,
    /// A parameter with values `asc`/`desc` that chooses the direction.
    #[serde(default)]
    pub by: Option<Spanned<String>>,
}

/// One set of sample records and the requests it answers.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SampleSet {
    /// Parameter (or body field, `body.<field>`) to accepted spellings; a given one must be
    /// one of them.
    #[serde(default)]
    pub when: BTreeMap<OperandName, Spanned<Vec<Spanned<String>>>>,
    /// The records, as they travel.
    pub records: Vec<Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys of a rule are the kinds' spellings: a rule written with each key reads as that
    /// kind.
    #[test]
    fn rule_keys_are_the_kinds_spellings() {
        for kind in RuleKind::ALL {
            let value = match kind {
                RuleKind::Ordered => "{ before: a, after: b }",
                RuleKind::MaxSpan => "{ from: a, to: b, seconds: 1 }",
                RuleKind::Requires => "{ param: a, needs: b }",
                RuleKind::AtLeastOne => "[a, b]",
                RuleKind::AllowedValues => "{ param: a, values: [x] }",
                RuleKind::Matches => "{ param: a, pattern: '^x$' }",
            };
            let text = format!("{{ id: e.r, doc: d, {}: {value} }}", kind.name());
            let rule: Rule = crate::yaml::from_str(&text).unwrap_or_else(|e| panic!("{kind}: {e}"));
            let kinds: Vec<RuleKind> = rule.checks().into_iter().map(|(k, _, _)| k).collect();
            assert_eq!(kinds, [kind]);
        }
    }
}
