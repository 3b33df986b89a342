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

pub use crate::ast::{
    AuthMode, BODY, ChangeAction, Equal, Format, ListStyle, Method, ParamLocation, RuleKind,
    TextFormat,
};
pub use crate::diag::Location;
pub use crate::naming::EndpointNames;
pub use endpoint::{
    Body, Endpoint, Input, Inputs, Order, Paging, Param, PathTemplate, Place, Removal, Segment,
    body_field_name,
};
pub use eval::Problem;
pub use mrds_runtime::TimeKind;
pub use pattern::{Inclusion, Pattern, PatternError};
pub use rule::{
    Condition, Fact, Operand, Probing, Reading, Reads, Relation, Requirement, Rule, Side,
};
pub use samples::{
    SampleField, SampleOrder, SampleRange, SampleSet, SampleTables, Samples, TableField, TableSet,
};
pub use types::{Field, Record, TypeRef, ValueSet, Variant};
pub use values::{
    EnumType, IntegerFormat, IntegerType, ListForm, Literal, StringType, TimeFormat, ValueCheck,
    ValueRef, ValueType,
};

mod endpoint;
mod eval;
mod pattern;
mod rule;
pub mod samples;
pub mod shapes;
mod types;
mod values;

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
    /// Error codes by HTTP status, from every file: of one status, the code it answers with
    /// first ([`ErrorCode::answers_status`]), the others by code.
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

    /// The inputs of endpoint `e`'s requests: its parameters and the fields of its body.
    pub fn inputs<'m>(&'m self, e: &'m Endpoint) -> Inputs<'m> {
        Inputs {
            params: &e.params,
            body: e.body.as_ref().map(|b| self.record(b.record)),
        }
    }

    /// Every regular expression of the spec, once per place that has one: the inputs' own
    /// (parameters and fields of request bodies), the rules' and their conditions'.
    pub fn patterns(&self) -> Vec<&Pattern> {
        let mut out = Vec::new();
        for e in &self.endpoints {
            for input in self.inputs(e).all() {
                if let ValueType::String(t) = input.ty
                    && let Some(p) = &t.pattern
                {
                    out.push(p);
                }
            }
            out.extend(e.rules.iter().flat_map(Rule::patterns));
        }
        out
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
    /// The code answered for its status (the one marked `default`, else the first declared of
    /// the status): the first of its status in [`Api::error_codes`].
    pub answers_status: bool,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub provenance: Provenance,
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
    /// spec-diff's findings (`mrds_diff`).
    pub breaking: Vec<String>,
}

/// What a history entry says apart from its date and place: its versions, its changes (action,
/// method, path) and its breaking names.
pub type EntryContent<'a> = (
    &'a [String],
    Vec<(ChangeAction, Method, &'a str)>,
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
                .map(|c| (c.action, c.method, c.path.as_str()))
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
    pub method: Method,
    /// Path.
    pub path: String,
}
