//! The sample data of the sample-data server, resolved.

use super::{FieldId, Operand, ParamId};

/// The sample data of one endpoint and how a request selects from it (see
/// [`crate::ast::Samples`]). Parameters and operands are the endpoint's inputs; fields are the
/// returned record's.
#[derive(Clone, Debug)]
pub struct Samples {
    /// Where the spec defines them.
    pub at: crate::diag::Location,
    /// A request answered with sample records: path below the base path, and query.
    pub example: String,
    /// The body `example` sends (an endpoint with a body), as compact JSON text.
    pub example_body: Option<String>,
    /// The parameters of `example`, decoded: (parameter, value), path parameters first.
    pub example_values: Vec<(ParamId, String)>,
    /// Answer 404 (not an empty array) when no set matches.
    pub not_found_when_missing: bool,
    /// Of these parameters only the first one given selects sets.
    pub first_of: Vec<ParamId>,
    /// Parameters matched as a case-insensitive part of a spelling.
    pub contains: Vec<ParamId>,
    /// (record field, input): the field echoes the caller's spelling of a parameter or the
    /// value of a body field.
    pub echo: Vec<(FieldId, Operand)>,
    /// (input, record field): equality filters.
    pub filter: Vec<(Operand, FieldId)>,
    /// The range filter.
    pub range: Option<SampleRange>,
    /// The order.
    pub order: Option<SampleOrder>,
    /// Only the first record when none of these is given.
    pub latest_without: Vec<ParamId>,
    /// The sets, in the spec's order.
    pub sets: Vec<SampleSet>,
}

/// The record field a range or an order looks at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SampleField {
    /// Always this field.
    Fixed(FieldId),
    /// The field named by the value of a parameter: (parameter, [(value, field)]).
    By(ParamId, Vec<(String, FieldId)>),
}

/// A range filter.
#[derive(Clone, Debug)]
pub struct SampleRange {
    /// Parameter of the earliest instant.
    pub from: Option<ParamId>,
    /// Parameter of the latest instant.
    pub to: Option<ParamId>,
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
    pub by: Option<ParamId>,
}

/// One sample set.
#[derive(Clone, Debug)]
pub struct SampleSet {
    /// (input, spellings): a given parameter or body field must be one of them.
    pub when: Vec<(Operand, Vec<String>)>,
    /// The records as compact JSON array text.
    pub records_json: String,
}

impl Samples {
    /// True when a request whose inputs have the values `value` gives (a parameter's own or its
    /// default; `None` when not given) selects some set, as the sample server selects them: a
    /// set fits when every input its `when` names is not given or is one of its spellings (a
    /// `contains` parameter: part of one, ignoring case), and of the `first_of` parameters
    /// only the first given one takes part. An endpoint answering 404 when no set fits
    /// (`not_found_when_missing`) answers such a request with records.
    pub fn answer(&self, value: impl Fn(Operand) -> Option<String>) -> bool {
        let param = |op: Operand| match op {
            Operand::Param(id) => Some(id),
            Operand::Field(_) => None,
        };
        let chosen = (self.first_of.iter()).find(|p| value(Operand::Param(**p)).is_some());
        let considered = |op: Operand| {
            param(op).is_none_or(|p| !self.first_of.contains(&p) || chosen == Some(&p))
        };
        self.sets.iter().any(|set| {
            set.when.iter().all(|(op, spellings)| match value(*op) {
                Some(v) if considered(*op) => spellings.iter().any(|s| {
                    if param(*op).is_some_and(|p| self.contains.contains(&p)) {
                        !v.is_empty() && s.to_lowercase().contains(&v.to_lowercase())
                    } else {
                        *s == v
                    }
                }),
                _ => true,
            })
        })
    }
}
