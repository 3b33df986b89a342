//! The `samples:` sections as written: the sample-data server's records of an endpoint and how
//! a request selects from them.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

use super::{OperandName, Spanned, Value, no_samples_reason};

/// The sample data one endpoint of the sample-data server answers with, and how a request
/// selects from it: every matching set contributes its records; then `echo`, `filter`,
/// `range`, `order`, `latest_without`, then the endpoint's `paging` (offset, then limit). The
/// samples are illustrative, not market data. In `when`, `echo` and `filter` a field of the
/// body stands where a parameter can (`body.<field>`, a single text, integer, boolean or
/// value-set field).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Samples {
    /// Why the endpoint has no sample data (the interface description gives none, say): then
    /// the section holds nothing else, and the sample server does not implement the endpoint.
    #[serde(default, deserialize_with = "no_samples_reason")]
    #[schemars(with = "super::NonBlank")]
    pub none: Option<String>,
    /// A request this endpoint answers with sample records: its path (below the base path)
    /// and query, e.g. `/v1/etf/flow?symbol=SPY&start_time=1&end_time=2`. It is checked when
    /// the spec loads against every parameter check and rule of its endpoint.
    #[serde(default)]
    pub example: Option<Spanned<String>>,
    /// The body the example sends (an endpoint with a body): a JSON object, checked against
    /// the body's fields and rules alike.
    #[serde(default)]
    pub example_body: Option<Value>,
    /// What to answer when no set matches: `empty` (an empty array, the default) or
    /// `not_found` (404).
    #[serde(default)]
    pub missing: Missing,
    /// Of these parameters only the first one the request gives selects sets (symbol wins
    /// over name).
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
    /// A time range the records must fall in: `from`/`to` parameters over a `field`, or over
    /// the field a parameter chooses with `by`/`fields`.
    #[serde(default)]
    pub range: Option<Spanned<SampleRange>>,
    /// The order of the answer: `field`, `descending`, or a `by` parameter with `asc`/`desc`.
    /// Without it the samples keep the endpoint's documented `order:`; with both, they agree
    /// (the same field, direction and parameter), or the spec does not load.
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
#[derive(Clone, Copy, Debug, Default, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Missing {
    /// HTTP 200 with `data: []`.
    #[default]
    Empty,
    /// HTTP 404 `RESOURCE_NOT_FOUND`.
    NotFound,
}

/// A time range over one record field (or a field chosen by a parameter). Dates, timestamps
/// and Unix seconds compare as instants, both ends inclusive.
#[derive(Debug, Deserialize, JsonSchema)]
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
#[derive(Debug, Deserialize, JsonSchema)]
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
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SampleSet {
    /// Parameter (or body field, `body.<field>`) to accepted spellings, e.g.
    /// `symbol: [BRK.B, BRK-B]`; a given one must be one of them, one not given does not
    /// restrict.
    #[serde(default)]
    pub when: BTreeMap<OperandName, Spanned<Vec<Spanned<String>>>>,
    /// The records, as they travel: checked against the returned record (known fields,
    /// required fields present, types and value sets).
    pub records: Vec<Value>,
}
