//! The resolved model of the API: what the emitters read.
//!
//! Built by [`crate::check`] from the AST once every reference resolves and every name is
//! decided. Ordered containers only; records, value sets and endpoints are sorted by name, so
//! the generated output never depends on file order or hashing.

pub use crate::ast::{AuthMode, ChangeAction, Format, Method, ParamLocation, Source};

/// The whole API.
#[derive(Clone, Debug)]
pub struct Api {
    /// Human name of the service.
    pub title: String,
    /// What the service does.
    pub doc: String,
    /// Version of the interface description.
    pub api_version: String,
    /// Base path every endpoint path is appended to.
    pub base_path: String,
    /// The key header.
    pub auth: AuthScheme,
    /// The common envelope.
    pub envelope: Envelope,
    /// Error codes in the spec's order.
    pub error_codes: Vec<ErrorCode>,
    /// Records, by name.
    pub records: Vec<Record>,
    /// Value sets, by name.
    pub value_sets: Vec<ValueSet>,
    /// Endpoints, by id.
    pub endpoints: Vec<Endpoint>,
    /// Change history, newest first.
    pub history: Vec<HistoryEntry>,
}

impl Api {
    /// The record named `name`.
    pub fn record(&self, name: &str) -> Option<&Record> {
        self.records.iter().find(|r| r.name == name)
    }

    /// The value set named `name`.
    pub fn value_set(&self, name: &str) -> Option<&ValueSet> {
        self.value_sets.iter().find(|v| v.name == name)
    }
}

/// The API key header.
#[derive(Clone, Debug)]
pub struct AuthScheme {
    /// Header name.
    pub header: String,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub source: Source,
}

/// The common envelope.
#[derive(Clone, Debug)]
pub struct Envelope {
    /// Explanation.
    pub doc: String,
    /// Its fields, in wire order.
    pub fields: Vec<Field>,
}

/// An error code.
#[derive(Clone, Debug)]
pub struct ErrorCode {
    /// Wire value.
    pub code: String,
    /// Rust variant name.
    pub variant: String,
    /// HTTP status.
    pub status: u16,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub source: Source,
}

/// A record.
#[derive(Clone, Debug)]
pub struct Record {
    /// Rust type name (`PitDividend`).
    pub name: String,
    /// Name in the spec and the interface description (`PITDividend`).
    pub spec_name: String,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub source: Source,
    /// Fields in wire order.
    pub fields: Vec<Field>,
}

/// A field of a record or of the envelope.
#[derive(Clone, Debug)]
pub struct Field {
    /// Wire name.
    pub wire: String,
    /// Rust field name (raw identifier text such as `r#type` where needed).
    pub ident: String,
    /// Element type.
    pub ty: TypeRef,
    /// A JSON array of `ty`.
    pub array: bool,
    /// May be absent.
    pub optional: bool,
    /// Text or number format.
    pub format: Option<Format>,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub source: Source,
}

/// A resolved field type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeRef {
    /// Text.
    String,
    /// A 64-bit integer.
    Integer,
    /// A floating-point number.
    Number,
    /// `true` or `false`.
    Boolean,
    /// Any JSON value.
    Any,
    /// A record, by name.
    Record(String),
    /// A value set, by name.
    ValueSet(String),
    /// The error code set.
    ErrorCode,
    /// The envelope's records (the type parameter).
    Records,
}

/// A value set.
#[derive(Clone, Debug)]
pub struct ValueSet {
    /// Rust type name.
    pub name: String,
    /// Name in the spec.
    pub spec_name: String,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub source: Source,
    /// Used by a record field: unknown wire values decode into a catch-all variant.
    pub tolerant: bool,
    /// Values in the spec's order.
    pub values: Vec<Variant>,
}

/// One value of a value set.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Wire spelling.
    pub wire: String,
    /// Rust variant name.
    pub ident: String,
    /// Explanation.
    pub doc: Option<String>,
    /// Provenance.
    pub source: Source,
}

/// An endpoint.
#[derive(Clone, Debug)]
pub struct Endpoint {
    /// Operation id (snake case; also the client and trait method name).
    pub id: String,
    /// Rust name of the parameter type (`StockDividendsParams`).
    pub params_type: String,
    /// Name of its constant in the endpoint table (`STOCK_DIVIDENDS`).
    pub const_name: String,
    /// HTTP method.
    pub method: Method,
    /// Path below the base path.
    pub path: String,
    /// One line.
    pub summary: String,
    /// More explanation.
    pub doc: Option<String>,
    /// Documented ordering of records.
    pub ordering: Option<String>,
    /// Key requirement.
    pub auth: AuthMode,
    /// Provenance of the key requirement.
    pub auth_source: Source,
    /// Record name of the elements of `data`.
    pub returns: String,
    /// Provenance.
    pub source: Source,
    /// Parameters in documented order.
    pub params: Vec<Param>,
    /// Rules across parameters, in the spec's order.
    pub rules: Vec<Rule>,
    /// Removal, when the change history lists one.
    pub removed: Option<Removal>,
    /// Sample data of the sample-data server.
    pub samples: Option<Samples>,
}

impl Endpoint {
    /// The parameter whose wire name is `name`.
    pub fn param(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|p| p.wire == name)
    }
}

/// When an endpoint was removed.
#[derive(Clone, Debug)]
pub struct Removal {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Release tag.
    pub version: String,
}

/// A request parameter.
#[derive(Clone, Debug)]
pub struct Param {
    /// Wire name.
    pub wire: String,
    /// Rust field name.
    pub ident: String,
    /// Where it travels.
    pub location: ParamLocation,
    /// Value type.
    pub kind: ParamKind,
    /// Format.
    pub format: Option<Format>,
    /// Required on every request.
    pub required: bool,
    /// Value used when absent.
    pub default: Option<Literal>,
    /// Smallest allowed integer.
    pub min: Option<i64>,
    /// Largest allowed integer.
    pub max: Option<i64>,
    /// Regular expression for the whole value.
    pub pattern: Option<String>,
    /// What the pattern means.
    pub pattern_doc: Option<String>,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub source: Source,
}

impl Param {
    /// Id of one of this parameter's own rules (`stock_dividends.limit.range`).
    pub fn rule_id(&self, endpoint: &str, rule: &str) -> String {
        format!("{endpoint}.{}.{rule}", self.wire)
    }
}

/// A parameter's value type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// Text.
    String,
    /// A 64-bit integer.
    Integer,
    /// `true` or `false`.
    Boolean,
    /// A value set, by name.
    Enum(String),
}

/// A literal value from the spec (a default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    /// Text.
    String(String),
    /// An integer.
    Integer(i64),
    /// A boolean.
    Boolean(bool),
    /// A value of a value set.
    Variant(ValueRef),
}

/// A value of a value set, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueRef {
    /// Value set name.
    pub set: String,
    /// Rust variant name.
    pub ident: String,
    /// Wire spelling.
    pub wire: String,
}

/// A rule across parameters.
#[derive(Clone, Debug)]
pub struct Rule {
    /// Stable id.
    pub id: String,
    /// Explanation; also the reason of a violation.
    pub doc: String,
    /// Provenance.
    pub source: Source,
    /// The rule applies only when this holds.
    pub when: Option<Condition>,
    /// What must hold.
    pub check: Check,
}

/// A condition on one parameter (which must be given for the condition to hold).
#[derive(Clone, Debug)]
pub enum Condition {
    /// The value is one of these.
    In {
        /// Parameter wire name.
        param: String,
        /// Allowed values; value-set values when the parameter is an enum.
        values: Vec<Literal>,
    },
    /// The value matches a regular expression.
    Matches {
        /// Parameter wire name.
        param: String,
        /// Regular expression.
        pattern: String,
    },
}

/// What a rule requires. Parameters are named by wire name and all exist on the endpoint.
#[derive(Clone, Debug)]
pub enum Check {
    /// `before < after` when both are given.
    Ordered {
        /// Earlier parameter.
        before: String,
        /// Later parameter.
        after: String,
    },
    /// `to - from <= seconds` when both are given.
    MaxSpan {
        /// Start.
        from: String,
        /// End.
        to: String,
        /// Largest difference.
        seconds: i64,
    },
    /// `param` given implies `needs` given.
    Requires {
        /// The dependent parameter.
        param: String,
        /// The parameter it needs.
        needs: String,
    },
    /// At least one of these is given.
    AtLeastOne(Vec<String>),
    /// `param`, when given, is one of `values`.
    AllowedValues {
        /// The parameter.
        param: String,
        /// Allowed values.
        values: Vec<Literal>,
    },
    /// `param`, when given, matches `pattern`.
    Matches {
        /// The parameter.
        param: String,
        /// Regular expression.
        pattern: String,
    },
}

/// One row of the change history.
#[derive(Clone, Debug)]
pub struct HistoryEntry {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Release tags.
    pub versions: Vec<String>,
    /// Changes.
    pub changes: Vec<Change>,
}

/// One change.
#[derive(Clone, Debug)]
pub struct Change {
    /// Added or removed.
    pub action: ChangeAction,
    /// HTTP method.
    pub method: String,
    /// Path.
    pub path: String,
}

/// The sample data of one endpoint and how a request selects from it (see
/// [`crate::ast::Samples`]). Parameters are wire names of the endpoint's parameters; fields are
/// wire names of the returned record's fields.
#[derive(Clone, Debug)]
pub struct Samples {
    /// A request answered with sample records: path below the base path, and query.
    pub example: String,
    /// The parameters of `example`, decoded: (wire name, value), path parameters first.
    pub example_values: Vec<(String, String)>,
    /// Answer 404 (not an empty array) when no set matches.
    pub not_found_when_missing: bool,
    /// Of these parameters only the first one given selects sets.
    pub first_of: Vec<String>,
    /// Parameters matched as a case-insensitive part of a spelling.
    pub contains: Vec<String>,
    /// (record field, parameter): the field echoes the caller's spelling.
    pub echo: Vec<(String, String)>,
    /// (parameter, record field): equality filters.
    pub filter: Vec<(String, String)>,
    /// The range filter.
    pub range: Option<SampleRange>,
    /// The order.
    pub order: Option<SampleOrder>,
    /// Only the first record when none of these is given.
    pub latest_without: Vec<String>,
    /// Limit parameter.
    pub limit: Option<String>,
    /// Offset parameter.
    pub offset: Option<String>,
    /// The sets, in the spec's order.
    pub sets: Vec<SampleSet>,
}

/// The record field a range or an order looks at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SampleField {
    /// Always this field.
    Fixed(String),
    /// The field named by the value of a parameter: (parameter, [(value, field)]).
    By(String, Vec<(String, String)>),
}

/// A range filter.
#[derive(Clone, Debug)]
pub struct SampleRange {
    /// Parameter of the earliest instant.
    pub from: Option<String>,
    /// Parameter of the latest instant.
    pub to: Option<String>,
    /// The field compared.
    pub field: SampleField,
}

/// An order.
#[derive(Clone, Debug)]
pub struct SampleOrder {
    /// The field ordered by.
    pub field: SampleField,
    /// Descending unless `by` says otherwise.
    pub descending: bool,
    /// Parameter with `asc`/`desc`.
    pub by: Option<String>,
}

/// One sample set.
#[derive(Clone, Debug)]
pub struct SampleSet {
    /// (parameter, spellings).
    pub when: Vec<(String, Vec<String>)>,
    /// The records as compact JSON array text.
    pub records_json: String,
}
