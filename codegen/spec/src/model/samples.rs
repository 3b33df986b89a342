//! The sample data of the sample-data server, resolved, and the selection engine's tables
//! made of it ([`SampleTables`], the one mapping the generated tables and [`tables`] read), so
//! a tool with no generated crate asks what a request answers ([`select`], [`example_answer`]).

use super::{Api, Endpoint, FieldId, Input, Operand, ParamId, ValueType};

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

/// How the sample server selects from one endpoint's samples, every name resolved as the
/// engine's tables ([`mrds_runtime::samples::Samples`]) name it: inputs as their issues do (a
/// parameter's wire name, `body.<field>`), record fields as they travel, the page size and
/// offset from the endpoint's `paging:`. The one mapping from the spec's samples to the
/// engine's tables: the generated sample-data crate's tables are this written as code (the
/// emitter), and [`tables`] is this as the runtime's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampleTables<'m> {
    /// Answer 404 (not an empty array) when no set matches.
    pub not_found_when_missing: bool,
    /// Of these parameters only the first one given selects sets.
    pub first_of: Vec<&'m str>,
    /// Parameters matched as a case-insensitive part of a spelling.
    pub contains: Vec<&'m str>,
    /// (record field, input): the field echoes the input.
    pub echo: Vec<(&'m str, String)>,
    /// (input, record field): equality filters.
    pub filter: Vec<(String, &'m str)>,
    /// The range filter: (from, to, field).
    pub range: Option<(Option<&'m str>, Option<&'m str>, TableField<'m>)>,
    /// The order: (field, descending, the parameter choosing the direction).
    pub order: Option<(TableField<'m>, bool, Option<&'m str>)>,
    /// Only the first record when none of these is given.
    pub latest_without: Vec<&'m str>,
    /// The page size parameter.
    pub limit: Option<&'m str>,
    /// The offset parameter.
    pub offset: Option<&'m str>,
    /// The sets.
    pub sets: Vec<TableSet<'m>>,
}

/// A set of the tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSet<'m> {
    /// (input, spellings): a given input must be one of them.
    pub when: Vec<(String, &'m [String])>,
    /// The records, as JSON array text.
    pub records: &'m str,
}

/// A record field of the tables, fixed or chosen by a parameter's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableField<'m> {
    /// Always this field.
    Fixed(&'m str),
    /// (parameter, [(value, field)]).
    By(&'m str, Vec<(&'m str, &'m str)>),
}

impl SampleTables<'_> {
    /// The tables of endpoint `e` of `api`, when it has samples.
    pub fn of<'m>(api: &'m Api, e: &'m Endpoint) -> Option<SampleTables<'m>> {
        let s = e.samples.as_ref()?;
        let inputs = api.inputs(e);
        let record = api.returns(e);
        let param = |id: ParamId| e.param(id).wire.as_str();
        let operand = |op: Operand| inputs.get(op).map(|i| i.name()).unwrap_or_default();
        let field = |id: FieldId| record.field(id).wire.as_str();
        let choice = |f: &'m SampleField| match f {
            SampleField::Fixed(id) => TableField::Fixed(field(*id)),
            SampleField::By(p, fields) => TableField::By(
                param(*p),
                fields
                    .iter()
                    .map(|(v, f)| (v.as_str(), field(*f)))
                    .collect(),
            ),
        };
        let paging = e.paging.as_ref();
        Some(SampleTables {
            not_found_when_missing: s.not_found_when_missing,
            first_of: s.first_of.iter().map(|p| param(*p)).collect(),
            contains: s.contains.iter().map(|p| param(*p)).collect(),
            echo: s
                .echo
                .iter()
                .map(|(f, op)| (field(*f), operand(*op)))
                .collect(),
            filter: (s.filter.iter())
                .map(|(op, f)| (operand(*op), field(*f)))
                .collect(),
            range: (s.range.as_ref())
                .map(|r| (r.from.map(param), r.to.map(param), choice(&r.field))),
            order: (s.order.as_ref()).map(|o| (choice(&o.field), o.descending, o.by.map(param))),
            latest_without: s.latest_without.iter().map(|p| param(*p)).collect(),
            limit: paging.map(|p| param(p.limit)),
            offset: paging.and_then(|p| p.offset).map(param),
            sets: (s.sets.iter())
                .map(|set| TableSet {
                    when: (set.when.iter())
                        .map(|(op, sp)| (operand(*op), &sp[..]))
                        .collect(),
                    records: &set.records_json,
                })
                .collect(),
        })
    }
}

/// The sample data of endpoint `e` of `api` as the runtime's tables, what the generated
/// sample-data crate's table of `e` holds: for a tool that asks what a request of the spec as
/// it is in the work tree answers ([`select`]), with no generated crate. Its names and records
/// are leaked (the size of the samples): built once per spec a run reads.
pub fn tables(api: &Api, e: &Endpoint) -> Option<&'static mrds_runtime::samples::Samples> {
    use mrds_runtime::samples::{FieldChoice, Order, Range, Samples, Set};
    let t = SampleTables::of(api, e)?;
    let leak = |s: &str| -> &'static str { Box::leak(s.to_string().into_boxed_str()) };
    let names = |v: &[&str]| -> &'static [&'static str] {
        v.iter().map(|s| leak(s)).collect::<Vec<_>>().leak()
    };
    let pairs = |v: Vec<(&str, &str)>| -> &'static [(&'static str, &'static str)] {
        v.into_iter()
            .map(|(a, b)| (leak(a), leak(b)))
            .collect::<Vec<_>>()
            .leak()
    };
    let choice = |f: &TableField<'_>| match f {
        TableField::Fixed(f) => FieldChoice::Fixed(leak(f)),
        TableField::By(p, fields) => FieldChoice::By(leak(p), pairs(fields.clone())),
    };
    let sets: Vec<Set> = (t.sets.iter())
        .map(|set| Set {
            when: (set.when.iter())
                .map(|(op, spellings)| {
                    let spellings: Vec<&str> = spellings.iter().map(String::as_str).collect();
                    (leak(op), names(&spellings))
                })
                .collect::<Vec<_>>()
                .leak(),
            records: leak(set.records),
        })
        .collect();
    Some(Box::leak(Box::new(Samples {
        not_found_when_missing: t.not_found_when_missing,
        first_of: names(&t.first_of),
        contains: names(&t.contains),
        echo: pairs(t.echo.iter().map(|(f, op)| (*f, op.as_str())).collect()),
        filter: pairs(t.filter.iter().map(|(op, f)| (op.as_str(), *f)).collect()),
        range: t.range.as_ref().map(|(from, to, field)| Range {
            from: from.map(leak),
            to: to.map(leak),
            field: choice(field),
        }),
        order: t.order.as_ref().map(|(field, descending, by)| Order {
            field: choice(field),
            descending: *descending,
            by: by.map(leak),
        }),
        latest_without: names(&t.latest_without),
        limit: t.limit.map(leak),
        offset: t.offset.map(leak),
        sets: sets.leak(),
        parsed: std::sync::OnceLock::new(),
    })))
}

/// The inputs a request of `e` gives the sample server's selection, as the generated
/// sample-data crate gives them: every parameter by wire name (`values`, decoded, as the
/// server reads them: a parameter left out takes its default, an integer is written as it
/// parses, a list's items joined by commas), and the fields of the JSON `body` the samples
/// select by, echo or filter by (`body.<field>`).
pub fn given(
    api: &Api,
    e: &Endpoint,
    values: &[(ParamId, String)],
    body: Option<&serde_json::Value>,
) -> Vec<(String, Option<String>)> {
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for p in &e.params {
        let mut sent = values.iter().filter(|(id, _)| *id == p.id).map(|(_, v)| v);
        let value = match (&p.list, sent.next()) {
            (Some(_), Some(first)) => Some(
                std::iter::once(first)
                    .chain(sent)
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            (None, Some(v)) => Some(match &p.ty {
                ValueType::Integer(_) => v
                    .parse::<i64>()
                    .map_or_else(|_| v.clone(), |n| n.to_string()),
                _ => v.clone(),
            }),
            (_, None) => p.default.as_ref().map(|d| d.wire()),
        };
        out.push((p.wire.clone(), value));
    }
    for input in body_inputs(api, e) {
        let value = body.and_then(|b| match b.get(input.wire)? {
            serde_json::Value::String(s) => Some(s.clone()),
            serde_json::Value::Null => None,
            other => Some(other.to_string()),
        });
        out.push((input.name(), value));
    }
    out
}

/// The fields of `e`'s body its samples select by (`when`), echo or filter by, in the order of
/// the body record's fields: what a request gives the selection of its body (the generated
/// sample-data crate's, and [`given`]).
pub fn body_inputs<'m>(api: &'m Api, e: &'m Endpoint) -> Vec<Input<'m>> {
    let inputs = api.inputs(e);
    let read: std::collections::BTreeSet<Operand> = (e.samples.iter())
        .flat_map(|s| {
            let when = (s.sets.iter()).flat_map(|set| set.when.iter().map(|(op, _)| *op));
            let echo = s.echo.iter().map(|(_, op)| *op);
            let filter = s.filter.iter().map(|(op, _)| *op);
            when.chain(echo).chain(filter).collect::<Vec<_>>()
        })
        .filter(|op| matches!(op, Operand::Field(_)))
        .collect();
    read.into_iter().filter_map(|op| inputs.get(op)).collect()
}

/// What the sample server answers a request of `e` giving the parameters `values` and the
/// JSON `body` ([`given`]), selected from the sample data of `e` by the runtime's engine
/// ([`tables`], [`mrds_runtime::samples::select`]): the records, or that no set matches an
/// endpoint answering 404 then; `None` when `e` has no samples.
pub fn select(
    api: &Api,
    e: &Endpoint,
    values: &[(ParamId, String)],
    body: Option<&serde_json::Value>,
) -> Option<Result<Vec<serde_json::Value>, mrds_runtime::samples::NoSampleSet>> {
    let tables = tables(api, e)?;
    let given = given(api, e, values, body);
    let given: Vec<(&str, Option<String>)> =
        given.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
    Some(mrds_runtime::samples::select(tables, &given))
}

/// What the example request of `e`'s samples answers ([`select`] with its parameters and its
/// body); `None` when `e` has no samples.
pub fn example_answer(
    api: &Api,
    e: &Endpoint,
) -> Option<Result<Vec<serde_json::Value>, mrds_runtime::samples::NoSampleSet>> {
    let s = e.samples.as_ref()?;
    let body = (s.example_body.as_deref()).and_then(|b| serde_json::from_str(b).ok());
    select(api, e, &s.example_values, body.as_ref())
}
