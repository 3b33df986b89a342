//! The resolved model of the API: what the emitters read.
//!
//! Built by [`crate::check`] once every reference resolves and every name is decided, so an
//! emitter never re-derives a fact: paths are parsed templates, parameters are typed by kind
//! (each kind with its own constraints), paging is explicit, and every Rust name an emitter
//! needs is computed here once. Ordered containers only; records, value sets and endpoints are
//! sorted by name, so the generated output never depends on file order or hashing.
//!
//! References are typed ids, resolved once by the checker: a field's record or value set
//! ([`RecordId`], [`ValueSetId`]), the record an endpoint returns, the parameters a rule, the
//! paging, the ordering, a path segment or the samples name ([`ParamId`]), the record fields
//! the ordering and the samples name ([`FieldId`]). Reading one is indexing
//! ([`Api::record`], [`Endpoint::param`], ...): nothing is looked up by name after the checker,
//! and nothing can fail to resolve. An id belongs to the model that made it.

use std::fmt;

pub use crate::ast::{AuthMode, ChangeAction, FieldFormat, Method, ParamLocation};
pub use crate::diag::Location;
pub use eval::Problem;
pub use samples::*;

mod eval;
mod samples;

macro_rules! ids {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(u32);

        impl $name {
            /// The id of the item at `index` (made by the checker).
            pub(crate) fn new(index: usize) -> Self {
                Self(u32::try_from(index).expect("fewer than 2^32 items"))
            }

            /// The index of the item in its list.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    )*};
}

ids! {
    /// A record: its index in [`Api::records`].
    RecordId;
    /// A value set: its index in [`Api::value_sets`].
    ValueSetId;
    /// A parameter: its index in its endpoint's [`Endpoint::params`].
    ParamId;
    /// A field of a record: its index in the record's [`Record::fields`].
    FieldId;
    /// A value of a value set: its index in the set's [`ValueSet::values`].
    VariantId;
}

/// Where a fact comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Provenance {
    /// Stated by the interface description.
    #[default]
    Documented,
    /// Not stated there; the spec assumes it, for this reason.
    Assumed(String),
}

impl Provenance {
    /// From the spec's optional `assumed:` reason.
    pub fn from_reason(reason: Option<&String>) -> Self {
        match reason {
            Some(r) => Provenance::Assumed(r.trim().to_string()),
            None => Provenance::Documented,
        }
    }

    /// The reason, when assumed.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Provenance::Documented => None,
            Provenance::Assumed(r) => Some(r),
        }
    }

    /// True when assumed.
    pub fn is_assumed(&self) -> bool {
        matches!(self, Provenance::Assumed(_))
    }
}

/// The whole API.
#[derive(Clone, Debug)]
pub struct Api {
    /// Where the spec defines the service section.
    pub at: Location,
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
    /// The error object (the record of the envelope's `error`) and its `details` entries: the
    /// checker requires both, with the fields the runtime reads and writes.
    pub errors: ErrorShapes,
}

/// The records of the error answer.
#[derive(Clone, Copy, Debug)]
pub struct ErrorShapes {
    /// The error object.
    pub object: RecordId,
    /// An entry of its `details`.
    pub detail: RecordId,
}

impl Api {
    /// The record `id`.
    pub fn record(&self, id: RecordId) -> &Record {
        &self.records[id.index()]
    }

    /// The value set `id`.
    pub fn value_set(&self, id: ValueSetId) -> &ValueSet {
        &self.value_sets[id.index()]
    }

    /// The value of a set a literal names.
    pub fn variant(&self, v: &ValueRef) -> &Variant {
        &self.value_set(v.set).values[v.variant.index()]
    }

    /// The error object.
    pub fn error_object(&self) -> &Record {
        self.record(self.errors.object)
    }

    /// The record endpoint `e` returns.
    pub fn returns(&self, e: &Endpoint) -> &Record {
        self.record(e.returns)
    }

    /// The record named `name` (as the spec writes it, or its Rust name): for tools and tests
    /// that start from a name, never for a reference.
    pub fn record_named(&self, name: &str) -> Option<&Record> {
        self.records
            .iter()
            .find(|r| r.spec_name == name || r.name == name)
    }

    /// The endpoint whose operation id is `id`: for tools and tests that start from a name
    /// (and for matching the endpoints of two versions of the spec), never for a reference.
    pub fn endpoint_named(&self, id: &str) -> Option<&Endpoint> {
        self.endpoints.iter().find(|e| e.id == id)
    }
}

/// The API key header.
#[derive(Clone, Debug)]
pub struct AuthScheme {
    /// Where the spec defines it.
    pub at: Location,
    /// Header name.
    pub header: String,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub provenance: Provenance,
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
    /// Where the spec defines it.
    pub at: Location,
    /// Wire value.
    pub code: String,
    /// Rust variant name.
    pub variant: String,
    /// HTTP status.
    pub status: u16,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub provenance: Provenance,
}

/// A record.
#[derive(Clone, Debug)]
pub struct Record {
    /// Its id.
    pub id: RecordId,
    /// Where the spec defines it.
    pub at: Location,
    /// Rust type name (`PitDividend`).
    pub name: String,
    /// Name in the spec and the interface description (`PITDividend`).
    pub spec_name: String,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub provenance: Provenance,
    /// Fields in wire order.
    pub fields: Vec<Field>,
}

impl Record {
    /// The field `id`.
    pub fn field(&self, id: FieldId) -> &Field {
        &self.fields[id.index()]
    }

    /// The field whose wire name is `wire`: for tools and tests, never for a reference.
    pub fn field_named(&self, wire: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.wire == wire)
    }

    /// The fields of this request body a rule can read (those with checks), as parameters
    /// named `body.<field>`, numbered from `first` on: a field's number less `first` is its
    /// [`FieldId`]. How the checker and the contract suite treat a rule naming the body like
    /// one over parameters.
    pub fn body_params(&self, first: usize) -> Vec<Param> {
        self.fields
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                Some(Param {
                    id: ParamId::new(first + i),
                    at: f.at.clone(),
                    wire: format!("body.{}", f.wire),
                    ident: f.ident.clone(),
                    location: ParamLocation::Query,
                    ty: f.checks.clone()?,
                    required: !f.optional,
                    default: None,
                    doc: f.doc.clone(),
                    provenance: f.provenance.clone(),
                })
            })
            .collect()
    }
}

/// A field of a record or of the envelope.
#[derive(Clone, Debug)]
pub struct Field {
    /// Where the spec defines it.
    pub at: Location,
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
    /// A record that contains this field's record again (directly or through others, not
    /// through an array): held in a `Box`, so the types have a size.
    pub boxed: bool,
    /// Text or number format.
    pub format: Option<FieldFormat>,
    /// In a request body: the checks of the value (its range, pattern, format or values),
    /// for a single string, integer, boolean or value-set field.
    pub checks: Option<ParamType>,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub provenance: Provenance,
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
    /// A record.
    Record(RecordId),
    /// A value set.
    ValueSet(ValueSetId),
    /// The error code set.
    ErrorCode,
    /// The envelope's records (the type parameter).
    Records,
}

/// A value set.
#[derive(Clone, Debug)]
pub struct ValueSet {
    /// Its id.
    pub id: ValueSetId,
    /// Where the spec defines it.
    pub at: Location,
    /// Rust type name.
    pub name: String,
    /// Name in the spec.
    pub spec_name: String,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub provenance: Provenance,
    /// Used by a record field: unknown wire values decode into a catch-all variant.
    pub tolerant: bool,
    /// Values in the spec's order.
    pub values: Vec<Variant>,
}

/// One value of a value set.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Where the spec defines it.
    pub at: Location,
    /// Wire spelling.
    pub wire: String,
    /// Rust variant name.
    pub ident: String,
    /// Explanation.
    pub doc: Option<String>,
    /// Provenance.
    pub provenance: Provenance,
}

/// An endpoint.
#[derive(Clone, Debug)]
pub struct Endpoint {
    /// Where the spec defines it.
    pub at: Location,
    /// Operation id (snake case).
    pub id: String,
    /// Every Rust name the emitters give this endpoint.
    pub names: EndpointNames,
    /// HTTP method.
    pub method: Method,
    /// Path below the base path.
    pub path: PathTemplate,
    /// One line.
    pub summary: String,
    /// More explanation.
    pub doc: Option<String>,
    /// Documented ordering of records.
    pub ordering: Option<String>,
    /// Key requirement.
    pub auth: AuthMode,
    /// Provenance of the key requirement.
    pub auth_provenance: Provenance,
    /// The record in `data`.
    pub returns: RecordId,
    /// The request body (a `POST`).
    pub body: Option<Body>,
    /// Sending the request twice has the effect of sending it once (every `GET`; a `POST`
    /// the spec marks so): a client may repeat it.
    pub idempotent: bool,
    /// Provenance.
    pub provenance: Provenance,
    /// Parameters in documented order.
    pub params: Vec<Param>,
    /// Rules across parameters, in the spec's order.
    pub rules: Vec<Rule>,
    /// The parameters that cap and page the records.
    pub paging: Option<Paging>,
    /// The documented ordering, machine-readable.
    pub order: Option<Order>,
    /// The parameter naming the one thing asked for; a value naming nothing answers 404.
    pub lookup: Option<ParamId>,
    /// Removal, when the change history lists one.
    pub removed: Option<Removal>,
    /// Sample data of the sample-data server.
    pub samples: Option<Samples>,
}

impl Endpoint {
    /// The parameter `id`.
    pub fn param(&self, id: ParamId) -> &Param {
        &self.params[id.index()]
    }

    /// The parameter whose wire name is `name`: for tools and tests (and the wire: a request's
    /// parameters come by name), never for a reference.
    pub fn param_named(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|p| p.wire == name)
    }

    /// The id of one of a parameter's own checks (`stock_dividends.limit.range`).
    pub fn param_rule(&self, param: &Param, check: ParamCheck) -> String {
        format!("{}.{}.{}", self.id, param.wire, check.as_str())
    }

    /// True when the endpoint pages with both a page size and an offset.
    pub fn offset_paged(&self) -> bool {
        self.paging.as_ref().is_some_and(|p| p.offset.is_some())
    }
}

/// The JSON body of a request.
#[derive(Clone, Debug)]
pub struct Body {
    /// Where the spec names it.
    pub at: Location,
    /// The record it holds; its fields carry their checks ([`Field::checks`]).
    pub record: RecordId,
    /// The rules across parameters that name a field of the body.
    pub rules: Vec<Rule<Operand>>,
}

/// What a rule of a request with a body names: a parameter or a field of the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operand {
    /// A parameter.
    Param(ParamId),
    /// A field of the body's record.
    Field(FieldId),
}

/// The Rust names of one endpoint, decided once.
#[derive(Clone, Debug)]
pub struct EndpointNames {
    /// Method of the server trait and the client (`stock_dividends`).
    pub method: String,
    /// The parameter type (`StockDividendsParams`).
    pub params_type: String,
    /// Its constant in the endpoint table, and its sample table (`STOCK_DIVIDENDS`).
    pub constant: String,
    /// The client's paging stream (`person_commentary_stream`), for offset-paged endpoints.
    pub stream: String,
}

/// A path below the base path: literal segments and `{name}` placeholders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathTemplate {
    /// The segments, in order.
    pub segments: Vec<Segment>,
}

/// One segment of a path. Two are equal when they read the same (a placeholder by its name),
/// whatever their models number the parameter: so paths of two versions compare.
#[derive(Clone, Debug, Eq)]
pub enum Segment {
    /// Fixed text.
    Literal(String),
    /// A path parameter.
    Param {
        /// The parameter.
        param: ParamId,
        /// Its name, as the template writes it.
        name: String,
    },
}

impl PartialEq for Segment {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Segment::Literal(a), Segment::Literal(b)) => a == b,
            (Segment::Param { name: a, .. }, Segment::Param { name: b, .. }) => a == b,
            _ => false,
        }
    }
}

impl PathTemplate {
    /// The path parameters, in order.
    pub fn params(&self) -> impl Iterator<Item = ParamId> {
        self.segments.iter().filter_map(|s| match s {
            Segment::Param { param, .. } => Some(*param),
            Segment::Literal(_) => None,
        })
    }

    /// True when the path has no placeholder.
    pub fn is_fixed(&self) -> bool {
        self.params().next().is_none()
    }

    /// The first literal segment after the version (`stocks` of `/v1/stocks/dividends`),
    /// used to group endpoints.
    pub fn group(&self) -> Option<&str> {
        match self.segments.get(1) {
            Some(Segment::Literal(s)) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for PathTemplate {
    /// `/v1/persons/{person_id}/commentary`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.segments {
            match s {
                Segment::Literal(l) => write!(f, "/{l}")?,
                Segment::Param { name, .. } => write!(f, "/{{{name}}}")?,
            }
        }
        Ok(())
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

/// How an endpoint's records are ordered.
#[derive(Clone, Debug)]
pub struct Order {
    /// Where the spec defines it.
    pub at: Location,
    /// The field of the returned record ordered by.
    pub field: FieldId,
    /// Largest first, unless `direction` says otherwise.
    pub descending: bool,
    /// A parameter (`asc`/`desc`) choosing the direction.
    pub direction: Option<ParamId>,
}

/// The parameters that cap and page an endpoint's records.
#[derive(Clone, Debug)]
pub struct Paging {
    /// Where the spec defines it.
    pub at: Location,
    /// The integer parameter capping the number of records.
    pub limit: ParamId,
    /// The integer parameter giving how many records to skip.
    pub offset: Option<ParamId>,
}

/// A request parameter.
#[derive(Clone, Debug)]
pub struct Param {
    /// Its id.
    pub id: ParamId,
    /// Where the spec defines it.
    pub at: Location,
    /// Wire name.
    pub wire: String,
    /// Rust field name (raw identifier text such as `r#type` where needed).
    pub ident: String,
    /// Where it travels.
    pub location: ParamLocation,
    /// Value type and its constraints.
    pub ty: ParamType,
    /// Required on every request.
    pub required: bool,
    /// Value used when absent.
    pub default: Option<Literal>,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub provenance: Provenance,
}

impl Param {
    /// True when the parameter always has a value (required, or defaulted).
    pub fn always(&self) -> bool {
        self.required || self.default.is_some()
    }

    /// The identifier without its escape (`type` for `r#type`, `self` for `self_`), for
    /// derived names.
    pub fn bare_ident(&self) -> &str {
        crate::naming::bare(&self.ident)
    }

    /// True when the value is a point in time (Unix seconds or RFC 3339 text).
    pub fn is_instant(&self) -> bool {
        self.time_format().is_some()
    }

    /// The time format, when the value is a point in time.
    pub fn time_format(&self) -> Option<TimeFormat> {
        self.ty.time_format()
    }
}

impl ParamType {
    /// The time format, when a value of this type is a point in time (Unix seconds or
    /// RFC 3339 text).
    pub fn time_format(&self) -> Option<TimeFormat> {
        match self {
            ParamType::Integer(IntegerType {
                format: Some(IntegerFormat::UnixSeconds),
                ..
            }) => Some(TimeFormat::UnixSeconds),
            ParamType::String(StringType {
                format: Some(StringFormat::Rfc3339),
                ..
            }) => Some(TimeFormat::Rfc3339),
            _ => None,
        }
    }
}

/// How a point in time travels in a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeFormat {
    /// Integer Unix seconds.
    UnixSeconds,
    /// RFC 3339 text.
    Rfc3339,
}

/// A parameter's value type, with the constraints each kind can carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamType {
    /// A 64-bit integer.
    Integer(IntegerType),
    /// Text.
    String(StringType),
    /// `true` or `false`.
    Boolean,
    /// A value of a value set.
    Enum(EnumType),
}

/// An integer parameter's constraints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IntegerType {
    /// Smallest allowed value.
    pub min: Option<i64>,
    /// Largest allowed value.
    pub max: Option<i64>,
    /// What the integer means.
    pub format: Option<IntegerFormat>,
}

/// Formats of integer parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntegerFormat {
    /// Unix seconds (UTC).
    UnixSeconds,
}

/// A text parameter's constraints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StringType {
    /// A regular expression for the whole value.
    pub pattern: Option<Pattern>,
    /// A format every value is checked against.
    pub format: Option<StringFormat>,
}

/// An anchored regular expression and what it means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The regular expression.
    pub regex: String,
    /// What it means, for messages (`a six-letter currency pair`).
    pub doc: Option<String>,
}

/// Formats of text parameters; every one is enforced by a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StringFormat {
    /// RFC 3339 timestamp.
    Rfc3339,
    /// Hyphenated UUID.
    Uuid,
    /// 16 hexadecimal characters.
    Hex16,
    /// `YYYY-MM-DD`.
    Date,
}

impl StringFormat {
    /// The runtime check enforcing the format.
    pub fn runtime(self) -> mrds_runtime::TextFormat {
        match self {
            StringFormat::Rfc3339 => mrds_runtime::TextFormat::Rfc3339,
            StringFormat::Uuid => mrds_runtime::TextFormat::Uuid,
            StringFormat::Hex16 => mrds_runtime::TextFormat::Hex16,
            StringFormat::Date => mrds_runtime::TextFormat::Date,
        }
    }
}

/// A parameter of a value set. Two are equal when they mean the same (the set's name, its
/// values, its tolerance), whatever their models number the set: so types of two versions of
/// the spec compare.
#[derive(Clone, Debug, Eq)]
pub struct EnumType {
    /// The value set.
    pub set: ValueSetId,
    /// Its Rust name (a copy, for printing).
    pub name: String,
    /// The set keeps unknown values (it is used by a record field).
    pub tolerant: bool,
    /// Wire spellings of its values, in the spec's order.
    pub values: Vec<String>,
}

impl PartialEq for EnumType {
    fn eq(&self, other: &Self) -> bool {
        (&self.name, self.tolerant, &self.values) == (&other.name, other.tolerant, &other.values)
    }
}

impl PartialEq for ValueRef {
    fn eq(&self, other: &Self) -> bool {
        (&self.set_name, &self.wire) == (&other.set_name, &other.wire)
    }
}

/// A parameter's own checks, each with a rule id `<endpoint>.<param>.<check>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ParamCheck {
    /// Missing although required.
    Required,
    /// Given more than once.
    Repeated,
    /// Not of its type.
    Type,
    /// Not a value of its value set.
    Values,
    /// Outside its integer range.
    Range,
    /// Not matching its pattern.
    Pattern,
    /// Not in its format.
    Format,
}

impl ParamCheck {
    /// The last part of the rule id.
    pub fn as_str(self) -> &'static str {
        match self {
            ParamCheck::Required => "required",
            ParamCheck::Repeated => "repeated",
            ParamCheck::Type => "type",
            ParamCheck::Values => "values",
            ParamCheck::Range => "range",
            ParamCheck::Pattern => "pattern",
            ParamCheck::Format => "format",
        }
    }

    /// The checks `param` is subject to, in the order they are reported.
    pub fn of(param: &Param) -> Vec<ParamCheck> {
        let mut out = Vec::new();
        if param.required {
            out.push(ParamCheck::Required);
        }
        out.extend([ParamCheck::Repeated, ParamCheck::Type]);
        match &param.ty {
            ParamType::Enum(_) => out.push(ParamCheck::Values),
            ParamType::Integer(t) if t.min.is_some() || t.max.is_some() => {
                out.push(ParamCheck::Range)
            }
            ParamType::String(t) => {
                if t.pattern.is_some() {
                    out.push(ParamCheck::Pattern);
                }
                if t.format.is_some() {
                    out.push(ParamCheck::Format);
                }
            }
            ParamType::Integer(_) | ParamType::Boolean => {}
        }
        out
    }
}

/// A literal value from the spec (a default, a value of a rule).
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

impl Literal {
    /// The value as it travels.
    pub fn wire(&self) -> String {
        match self {
            Literal::String(s) => s.clone(),
            Literal::Integer(n) => n.to_string(),
            Literal::Boolean(b) => b.to_string(),
            Literal::Variant(v) => v.wire.clone(),
        }
    }
}

/// A value of a value set, resolved. Two are equal when they name the same value of the same
/// set by name, whatever their models number them: so literals of two versions compare.
#[derive(Clone, Debug, Eq)]
pub struct ValueRef {
    /// The value set.
    pub set: ValueSetId,
    /// The value in it.
    pub variant: VariantId,
    /// The set's Rust name (a copy, for printing).
    pub set_name: String,
    /// The value's Rust variant name (a copy, for printing).
    pub ident: String,
    /// Its wire spelling (the literal's text).
    pub wire: String,
}

/// A rule across parameters; `P` names what it reads (a parameter, or for a rule of a request
/// with a body, an [`Operand`]).
#[derive(Clone, Debug)]
pub struct Rule<P = ParamId> {
    /// Where the spec defines it.
    pub at: Location,
    /// Stable id.
    pub id: String,
    /// Explanation; also the reason of a violation.
    pub doc: String,
    /// Provenance.
    pub provenance: Provenance,
    /// The rule applies only when this holds.
    pub when: Option<Condition<P>>,
    /// What must hold.
    pub check: Check<P>,
}

impl<P: Copy> Rule<P> {
    /// The part of the id after the endpoint (`range_order` of `x.range_order`).
    pub fn name(&self) -> &str {
        self.id.split_once('.').map_or(&self.id, |(_, n)| n)
    }

    /// The reason a violation gives: the doc without its final period.
    pub fn reason(&self) -> &str {
        self.doc.trim().trim_end_matches('.')
    }

    /// Every parameter the rule reads, its condition's included.
    pub fn params(&self) -> Vec<P> {
        let mut out = self.check.params();
        if let Some(c) = &self.when {
            out.push(c.param());
        }
        out
    }

    /// The values the rule names (of its condition and its allowed values).
    pub fn literals(&self) -> impl Iterator<Item = &Literal> {
        let when = match &self.when {
            Some(Condition::In { values, .. }) => values.as_slice(),
            _ => &[],
        };
        let check = match &self.check {
            Check::AllowedValues { values, .. } => values.as_slice(),
            _ => &[],
        };
        when.iter().chain(check)
    }
}

/// A condition on one parameter (which must be given for the condition to hold). `P` names
/// the parameter: its id in the model; a tool comparing two models maps it to the wire name
/// ([`Condition::map`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Condition<P = ParamId> {
    /// The value is one of these.
    In {
        /// The parameter.
        param: P,
        /// Allowed values; value-set values when the parameter is an enum.
        values: Vec<Literal>,
    },
    /// The value matches a regular expression.
    Matches {
        /// The parameter.
        param: P,
        /// Regular expression.
        pattern: String,
    },
}

impl<P: Copy> Condition<P> {
    /// The parameter looked at.
    pub fn param(&self) -> P {
        match self {
            Condition::In { param, .. } | Condition::Matches { param, .. } => *param,
        }
    }

    /// The same condition, its parameter named by `f` (a wire name, say).
    pub fn map<Q>(&self, f: impl Fn(P) -> Q) -> Condition<Q> {
        match self {
            Condition::In { param, values } => Condition::In {
                param: f(*param),
                values: values.clone(),
            },
            Condition::Matches { param, pattern } => Condition::Matches {
                param: f(*param),
                pattern: pattern.clone(),
            },
        }
    }
}

/// What a rule requires, of parameters of its endpoint. `P` names a parameter: its id in the
/// model; a tool comparing two models maps them to wire names ([`Check::map`]).
///
/// Adding a kind here makes the compiler list every place that must handle it: the checker
/// lowers each kind, the model emitter generates its check, the OpenAPI emitter describes it.
#[derive(Clone, Debug, PartialEq)]
pub enum Check<P = ParamId> {
    /// `before < after` when both are given.
    Ordered {
        /// Earlier parameter.
        before: P,
        /// Later parameter.
        after: P,
    },
    /// `to - from <= seconds` when both are given.
    MaxSpan {
        /// Start.
        from: P,
        /// End.
        to: P,
        /// Largest difference.
        seconds: i64,
    },
    /// `param` given implies `needs` given.
    Requires {
        /// The dependent parameter.
        param: P,
        /// The parameter it needs.
        needs: P,
    },
    /// At least one of these is given.
    AtLeastOne(Vec<P>),
    /// `param`, when given, is one of `values`.
    AllowedValues {
        /// The parameter.
        param: P,
        /// Allowed values.
        values: Vec<Literal>,
    },
    /// `param`, when given, matches `pattern`.
    Matches {
        /// The parameter.
        param: P,
        /// Regular expression.
        pattern: String,
    },
}

impl<P: Copy> Check<P> {
    /// The same check, its parameters named by `f` (wire names, say).
    pub fn map<Q>(&self, f: impl Fn(P) -> Q) -> Check<Q> {
        match self {
            Check::Ordered { before, after } => Check::Ordered {
                before: f(*before),
                after: f(*after),
            },
            Check::MaxSpan { from, to, seconds } => Check::MaxSpan {
                from: f(*from),
                to: f(*to),
                seconds: *seconds,
            },
            Check::Requires { param, needs } => Check::Requires {
                param: f(*param),
                needs: f(*needs),
            },
            Check::AtLeastOne(params) => Check::AtLeastOne(params.iter().map(|p| f(*p)).collect()),
            Check::AllowedValues { param, values } => Check::AllowedValues {
                param: f(*param),
                values: values.clone(),
            },
            Check::Matches { param, pattern } => Check::Matches {
                param: f(*param),
                pattern: pattern.clone(),
            },
        }
    }

    /// The kind's spelling in the spec (`max_span`).
    pub fn kind(&self) -> &'static str {
        match self {
            Check::Ordered { .. } => "ordered",
            Check::MaxSpan { .. } => "max_span",
            Check::Requires { .. } => "requires",
            Check::AtLeastOne(_) => "at_least_one",
            Check::AllowedValues { .. } => "allowed_values",
            Check::Matches { .. } => "matches",
        }
    }

    /// The parameters the check reads.
    pub fn params(&self) -> Vec<P> {
        match self {
            Check::Ordered { before, after } => vec![*before, *after],
            Check::MaxSpan { from, to, .. } => vec![*from, *to],
            Check::Requires { param, needs } => vec![*param, *needs],
            Check::AtLeastOne(params) => params.clone(),
            Check::AllowedValues { param, .. } | Check::Matches { param, .. } => vec![*param],
        }
    }

    /// The parameter a violation names (`field` of the issue).
    pub fn field(&self) -> P {
        match self {
            Check::Ordered { after: f, .. }
            | Check::MaxSpan { to: f, .. }
            | Check::Requires { param: f, .. }
            | Check::AllowedValues { param: f, .. }
            | Check::Matches { param: f, .. } => *f,
            Check::AtLeastOne(params) => params[0],
        }
    }

    /// True when the check is about which parameters are present, not their values.
    pub fn is_presence(&self) -> bool {
        matches!(self, Check::Requires { .. } | Check::AtLeastOne(_))
    }
}

/// One row of the change history.
#[derive(Clone, Debug)]
pub struct HistoryEntry {
    /// Where the spec defines it.
    pub at: Location,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Release tags.
    pub versions: Vec<String>,
    /// Changes.
    pub changes: Vec<Change>,
    /// The breaking changes the release acknowledges: check ids or subjects of
    /// [`crate::diff`] findings.
    pub breaking: Vec<String>,
}

/// What a history entry says apart from its date and place: its versions, its changes (action,
/// method, path) and its breaking names.
pub type EntryContent<'a> = (
    &'a [String],
    Vec<(ChangeAction, &'a str, &'a str)>,
    &'a [String],
);

impl HistoryEntry {
    /// What the entry says, apart from its date and where it is written. Entries of one date
    /// are ordered by it, and two specs' entries compared with it.
    pub fn content(&self) -> EntryContent<'_> {
        (
            &self.versions,
            self.changes
                .iter()
                .map(|c| (c.action, c.method.as_str(), c.path.as_str()))
                .collect(),
            &self.breaking,
        )
    }
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
