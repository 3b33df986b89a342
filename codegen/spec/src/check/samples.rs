//! Checking and lowering of the `samples:` sections: the sample-data server's records and how a
//! request selects from them. Every parameter and field they name must exist, and every sample
//! record must have the shape of the record its endpoint returns.

use std::collections::BTreeMap;

use super::examples::example_values;
use super::{Cx, Def, Target, Types, quoted};
use crate::ast::{self, OperandName, Spanned, Value, ValueKind};
use crate::diag::Span;
use crate::model::{
    Endpoint, Field, FieldId, Input, Inputs, Operand, Param, ParamId, Record, SampleField,
    SampleOrder, SampleRange, SampleSet, Samples, TypeRef, ValueType,
};

impl<'a> Cx<'a> {
    /// Checks every `samples` section and attaches it to its endpoint.
    /// Samples of an endpoint that did not check cleanly are skipped: its own problems are
    /// reported already.
    pub(super) fn samples(
        &mut self,
        endpoints: &mut [Endpoint],
        declared: &BTreeMap<&str, Def<'_, ast::Endpoint>>,
        types: &Types<'_>,
    ) {
        let defs = self.merge("sample section", |f| &f.samples);
        for (id, def) in &defs {
            let Some(endpoint) = endpoints.iter_mut().find(|e| e.id == *id) else {
                if !declared.contains_key(id) {
                    let d = self.err(
                        def.key_at(),
                        format!("samples are given for `{id}`, which is not an endpoint"),
                    );
                    Self::suggest(d, id, declared.keys().copied());
                }
                continue;
            };
            let body = endpoint
                .body
                .as_ref()
                .map(|b| &types.records[b.record.index()]);
            let target = Target {
                ep: endpoint,
                record: &types.records[endpoint.returns.index()],
                declared: &declared[id].params,
                body,
                body_fields: body
                    .and_then(|r| types.record_defs.get(r.spec_name.as_str()))
                    .map_or(&[], |d| d.fields.as_slice()),
            };
            endpoint.samples = self.sample_section(def, &target, types);
        }
        // Every endpoint has samples, or says why not. Samples given under a name close to it
        // (reported above) count: one misspelt name is one error.
        let misspelt: Vec<&str> = defs
            .keys()
            .filter(|id| !declared.contains_key(*id))
            .filter_map(|id| crate::diag::closest(id, declared.keys().copied()))
            .collect();
        for (id, def) in declared {
            if !defs.contains_key(id) && !misspelt.contains(id) {
                let d = self.err(def.key_at(), format!("endpoint `{id}` has no samples"));
                Self::hint(
                    d,
                    format!(
                        "add `samples: {{ {id}: {{ example: ..., sets: [...] }} }}` (the sample server answers from them and the contract suite starts from the example), or say why there are none: `samples: {{ {id}: {{ none: \"<reason>\" }} }}`"
                    ),
                );
            }
        }
    }

    fn sample_section(
        &mut self,
        s: &Spanned<ast::Samples>,
        t: &Target<'_>,
        types: &Types<'_>,
    ) -> Option<Samples> {
        let (ep, record) = (t.ep, t.record);
        let before = self.errors.len();
        if s.none.is_some() {
            self.no_samples(s);
            return None;
        }
        let param = |cx: &mut Self, name: &Spanned<String>| {
            cx.sample_param(name.at(), t, name).map(|p| p.id)
        };
        let params = |cx: &mut Self, names: &[Spanned<String>]| -> Option<Vec<ParamId>> {
            let all: Vec<Option<ParamId>> = names.iter().map(|n| param(cx, n)).collect();
            all.into_iter().collect()
        };
        let field = |cx: &mut Self, at: Span, name: &str| cx.sample_field(at, record, name, types);

        let first_of = params(self, &s.first_of);
        let contains = params(self, &s.contains);
        let latest_without = params(self, &s.latest_without);
        let mut echo = Some(Vec::new());
        for (f, p) in &s.echo {
            let operand = self.sample_operand(p.at(), t, p).map(|i| i.operand);
            let pair = field(self, p.key_at(), f).zip(operand);
            echo = echo.zip(pair).map(|(mut all, pair)| {
                all.push(pair);
                all
            });
        }
        let mut filter = Some(Vec::new());
        for (p, f) in &s.filter {
            let p = self.sample_operand(f.key_at(), t, p).map(|i| i.operand);
            let pair = p.zip(field(self, f.at(), f));
            filter = filter.zip(pair).map(|(mut all, pair)| {
                all.push(pair);
                all
            });
        }

        let range = s.range.as_ref().and_then(|r| {
            let from = r.from.as_ref().map(|name| param(self, name));
            let to = r.to.as_ref().map(|name| param(self, name));
            if r.from.is_none() && r.to.is_none() {
                let d = self.err(r.at(), "a range needs `from`, `to` or both");
                Self::hint(d, "name the parameters holding the range's ends");
            }
            let field = self.sample_range_field(r, t, types);
            Some(SampleRange {
                from: from.map(|p| p.ok_or(())).transpose().ok()?,
                to: to.map(|p| p.ok_or(())).transpose().ok()?,
                field: field?,
            })
        });

        let order = s.order.as_ref().and_then(|o| {
            let by = o.by.as_ref().map(|by| param(self, by));
            let field = match (&o.field, &range) {
                (Some(f), _) => SampleField::Fixed(field(self, f.at(), f)?),
                (None, Some(r)) => r.field.clone(),
                // A range that did not check is reported already.
                (None, None) if s.range.is_some() => return None,
                (None, None) => {
                    let d = self.err(
                        o.at(),
                        "the order names no `field` and there is no range to take it from",
                    );
                    Self::hint(d, "add `field:` naming a field of the record");
                    return None;
                }
            };
            Some(SampleOrder {
                field,
                descending: o.descending,
                by: by.map(|p| p.ok_or(())).transpose().ok()?,
            })
        });
        // Without an order of their own, the samples keep the endpoint's documented one.
        let order = order.or_else(|| {
            ep.order.as_ref().map(|o| SampleOrder {
                field: SampleField::Fixed(o.field),
                descending: o.descending,
                by: o.direction,
            })
        });

        let empty = Vec::new();
        let declared_sets = s.sets.as_ref().map_or(&empty, |sets| &sets.item);
        if declared_sets.is_empty() {
            let at = s.sets.as_ref().map_or(s.key_at(), |sets| sets.at());
            let d = self.err(at, "samples need at least one set");
            Self::hint(d, "add `sets:` with `records:`");
        }
        let mut sets = Vec::new();
        for set in declared_sets {
            let mut when = Vec::new();
            for (name, spellings) in &set.when {
                if let Some(input) = self.sample_operand(spellings.key_at(), t, name) {
                    self.sample_spellings(&input, spellings);
                    when.push((
                        input.operand,
                        spellings.iter().map(|s| s.to_string()).collect(),
                    ));
                }
            }
            for value in &set.records {
                self.sample_record(value, record, types);
            }
            let records: Vec<&ValueKind> = set.records.iter().map(|r| &r.item).collect();
            let records_json = serde_json::to_string(&records).unwrap_or_else(|e| {
                self.err(
                    set.at(),
                    format!("the records cannot be written as JSON: {e}"),
                );
                String::new()
            });
            sets.push(SampleSet { when, records_json });
        }

        let before_body = self.errors.len();
        let example_body = self.example_body(s, t, types);
        // A body of the wrong shape is reported where it is written; its values are judged
        // with the example's parameters only once it has the record's shape.
        let shaped_body = s
            .example_body
            .as_ref()
            .filter(|_| self.errors.len() == before_body);
        let example = match &s.example {
            Some(example) => {
                self.sample_example(example, shaped_body, t);
                example.to_string()
            }
            None => {
                let d = self.err(s.key_at(), "samples need an `example` request");
                Self::hint(
                    d,
                    "add `example:` with a valid request of the endpoint, path and query",
                );
                String::new()
            }
        };

        if self.errors.len() != before {
            return None;
        }
        Some(Samples {
            at: self.loc(s.key_at()),
            example_body,
            example_values: example_values(ep, &example)?,
            example,
            not_found_when_missing: s.missing == ast::Missing::NotFound || ep.lookup.is_some(),
            first_of: first_of?,
            contains: contains?,
            echo: echo?,
            filter: filter?,
            range,
            order,
            latest_without: latest_without?,
            sets,
        })
    }

    /// A section that says why the endpoint has no samples holds nothing else.
    fn no_samples(&mut self, s: &ast::Samples) {
        let ast::Samples {
            none: _,
            example,
            example_body,
            missing: _,
            first_of,
            contains,
            echo,
            filter,
            range,
            order,
            latest_without,
            sets,
        } = s;
        let given = example.is_some()
            || example_body.is_some()
            || !first_of.is_empty()
            || !contains.is_empty()
            || !echo.is_empty()
            || !filter.is_empty()
            || range.is_some()
            || order.is_some()
            || !latest_without.is_empty()
            || sets.is_some();
        if given {
            let at = example
                .as_ref()
                .map(|e| e.key_at())
                .or(sets.as_ref().map(|s| s.key_at()))
                .or(first_of.first().map(|p| p.at()));
            if let Some(at) = at {
                let d = self.err(at, "a sample section with `none:` holds nothing else");
                Self::hint(d, "remove `none:` to give samples, or remove the samples");
            }
        }
    }

    fn sample_range_field(
        &mut self,
        r: &Spanned<ast::SampleRange>,
        t: &Target<'_>,
        types: &Types<'_>,
    ) -> Option<SampleField> {
        let record = t.record;
        match (&r.field, &r.by, &r.fields) {
            (Some(f), None, None) => Some(SampleField::Fixed(self.sample_field(
                f.at(),
                record,
                f,
                types,
            )?)),
            (None, Some(by), fields) => {
                let p = self.sample_param(by.at(), t, by)?;
                let values: Vec<String> = match &p.ty {
                    ValueType::Enum(e) => e.values.clone(),
                    _ => {
                        self.err(
                            by.at(),
                            format!("`by` names parameter `{by}`, which is not of a value set"),
                        );
                        return None;
                    }
                };
                let empty = BTreeMap::new();
                let map = fields.as_ref().map_or(&empty, |f| &f.item);
                let mut out = Some(Vec::new());
                for (value, f) in map {
                    if !values.contains(value) {
                        let d = self.err(
                            f.key_at(),
                            format!("`{value}` is not a value of parameter `{by}`"),
                        );
                        Self::suggest(d, value, values.iter().map(String::as_str));
                    }
                    let field = self.sample_field(f.at(), record, f, types);
                    out = out.zip(field).map(|(mut all, field)| {
                        all.push((value.clone(), field));
                        all
                    });
                }
                let missing: Vec<&str> = values
                    .iter()
                    .filter(|v| !map.contains_key(*v))
                    .map(String::as_str)
                    .collect();
                if !missing.is_empty() {
                    let at = fields.as_ref().map_or(by.at(), |f| f.at());
                    let d = self.err(
                        at,
                        format!("`fields` names no field for {}", quoted(&missing)),
                    );
                    Self::hint(d, format!("every value of `{by}` needs a field"));
                }
                Some(SampleField::By(p.id, out?))
            }
            _ => {
                let d = self.err(
                    r.at(),
                    "a range needs either `field`, or `by` with `fields`",
                );
                Self::hint(
                    d,
                    "`field: date`, or `by: time_type` with `fields: { RECORD_DATE: record_date }`",
                );
                None
            }
        }
    }

    /// The parameter `name` of the target's endpoint. One that is declared but did not check is
    /// not reported again.
    fn sample_param<'e>(&mut self, at: Span, t: &Target<'e>, name: &str) -> Option<&'e Param> {
        let ep = t.ep;
        let found = ep.param_named(name);
        if let Some(p) = found
            && p.list.is_some()
        {
            let d = self.err(
                at,
                format!("the samples of `{}` name `{name}`, a list parameter", ep.id),
            );
            Self::hint(d, "samples select by, echo and filter on single values");
            return None;
        }
        if found.is_none() && !t.declared.iter().any(|p| p.name == name) {
            let d = self.err(
                at,
                format!("endpoint `{}` has no parameter `{name}`", ep.id),
            );
            Self::suggest(d, name, ep.params.iter().map(|p| p.wire.as_str()));
        }
        found
    }

    /// The input `name` (a parameter, or a body field `body.<field>`) of the target's endpoint,
    /// as the samples select by or echo it: a body field must have checks (a single text,
    /// integer, boolean or value-set field). One that is declared but did not check is not
    /// reported again.
    fn sample_operand<'e>(
        &mut self,
        at: Span,
        t: &Target<'e>,
        name: &OperandName,
    ) -> Option<Input<'e>> {
        let inputs = Inputs {
            params: &t.ep.params,
            body: t.body,
        };
        match name {
            OperandName::Param(param) => {
                let p = self.sample_param(at, t, param)?;
                inputs.get(Operand::Param(p.id))
            }
            OperandName::Field(field) => {
                let found = t.body.and_then(|r| {
                    let i = r.fields.iter().position(|f| f.wire == *field)?;
                    Some(Operand::Field(FieldId::new(i)))
                });
                let Some(op) = found else {
                    if !t.body_fields.iter().any(|f| f.name == *field) {
                        let d = self.err(
                            at,
                            format!("endpoint `{}` has no body field `{field}`", t.ep.id),
                        );
                        Self::suggest(d, field, t.body_fields.iter().map(|f| f.name.as_str()));
                    }
                    return None;
                };
                let input = inputs.get(op);
                if input.is_none() {
                    let d = self.err(
                        at,
                        format!("the samples cannot select by or echo `{name}`, which is not a single value"),
                    );
                    Self::hint(
                        d,
                        "samples read single text, integer, boolean or value-set fields of the body",
                    );
                }
                input
            }
        }
    }

    /// The field `name` of `record`. One that is declared but did not check is not reported
    /// again.
    fn sample_field(
        &mut self,
        at: Span,
        record: &Record,
        name: &str,
        types: &Types<'_>,
    ) -> Option<FieldId> {
        if let Some(i) = record.fields.iter().position(|f| f.wire == name) {
            return Some(FieldId::new(i));
        }
        if types.declares_field(record, name) {
            return None;
        }
        let d = self.err(
            at,
            format!("record `{}` has no field `{name}`", record.spec_name),
        );
        Self::suggest(d, name, record.fields.iter().map(|f| f.wire.as_str()));
        None
    }

    fn sample_spellings(&mut self, p: &Input<'_>, spellings: &[Spanned<String>]) {
        for s in spellings {
            let at = s.at();
            match p.ty {
                ValueType::Integer(_) if s.parse::<i64>().is_err() => {
                    self.err(
                        at,
                        format!(
                            "`{s}` is not an integer, but parameter `{}` is one",
                            p.name()
                        ),
                    );
                }
                ValueType::Boolean if *s != "true" && *s != "false" => {
                    self.err(at, format!("`{s}` is not `true` or `false`"));
                }
                ValueType::Enum(e) => {
                    let wires: Vec<&str> = e.values.iter().map(String::as_str).collect();
                    if !wires.contains(&s.as_str()) {
                        let d = self.err(
                            at,
                            format!("`{s}` is not a value of parameter `{}`", p.name()),
                        );
                        Self::suggest(d, s, wires);
                    }
                }
                _ => {}
            }
        }
    }

    /// Checks one sample record against its record type: known fields only, every required
    /// field present, every value of its field's type.
    pub(super) fn sample_record(&mut self, value: &Value, record: &Record, types: &Types<'_>) {
        let ValueKind::Map(map) = &value.item else {
            self.err(
                value.at(),
                format!(
                    "a sample `{}` must be a mapping of its fields",
                    record.spec_name
                ),
            );
            return;
        };
        let mut given = BTreeMap::new();
        for (key, v) in map {
            let Some(name) = key.as_str() else {
                self.err(key.at(), "sample record keys must be field names");
                continue;
            };
            given.insert(name, v);
            match record.fields.iter().find(|f| f.wire == name) {
                Some(f) => self.sample_value(v, f, types),
                None if types.declares_field(record, name) => {}
                None => {
                    let d = self.err(
                        key.at(),
                        format!("record `{}` has no field `{name}`", record.spec_name),
                    );
                    Self::suggest(d, name, record.fields.iter().map(|f| f.wire.as_str()));
                }
            }
        }
        let missing: Vec<&str> = record
            .fields
            .iter()
            .filter(|f| !f.optional && !given.contains_key(f.wire.as_str()))
            .map(|f| f.wire.as_str())
            .collect();
        if !missing.is_empty() {
            let d = self.err(
                value.at(),
                format!(
                    "this sample `{}` lacks the required field{} {}",
                    record.spec_name,
                    if missing.len() == 1 { "" } else { "s" },
                    quoted(&missing)
                ),
            );
            Self::hint(d, "give every field that is not `optional: true`");
        }
    }

    fn sample_value(&mut self, value: &Value, field: &Field, types: &Types<'_>) {
        if value.item == ValueKind::Null {
            if !field.optional {
                self.err(
                    value.at(),
                    format!("field `{}` may not be null", field.wire),
                );
            }
            return;
        }
        if field.array {
            match &value.item {
                ValueKind::Seq(items) => {
                    for item in items {
                        self.sample_scalar(item, field, types);
                    }
                }
                _ => {
                    self.err(value.at(), format!("field `{}` is an array", field.wire));
                }
            }
        } else {
            self.sample_scalar(value, field, types);
        }
    }

    fn sample_scalar(&mut self, value: &Value, field: &Field, types: &Types<'_>) {
        let is_string = value.as_str().is_some();
        let ok = match &field.ty {
            TypeRef::String | TypeRef::ErrorCode => is_string,
            TypeRef::Integer => value.as_i64().is_some(),
            TypeRef::Number => matches!(value.item, ValueKind::Number(_)),
            TypeRef::Boolean => value.as_bool().is_some(),
            TypeRef::Any | TypeRef::Records => true,
            TypeRef::ValueSet(set) => {
                let wires: Vec<&str> = (types.value_sets[set.index()].values.iter())
                    .map(|v| v.wire.as_str())
                    .collect();
                match value.as_str() {
                    Some(s) if !wires.contains(&s) => {
                        let d = self.err(
                            value.at(),
                            format!("`{s}` is not a value of field `{}`", field.wire),
                        );
                        Self::suggest(d, s, wires);
                        return;
                    }
                    other => other.is_some(),
                }
            }
            TypeRef::Record(id) => {
                self.sample_record(value, &types.records[id.index()], types);
                return;
            }
        };
        if ok {
            self.sample_format(value, field);
        } else {
            let d = self.err(
                value.at(),
                format!(
                    "field `{}` is of type {}, but the sample gives {}",
                    field.wire,
                    type_text(&field.ty),
                    value.describe()
                ),
            );
            if matches!(field.ty, TypeRef::String) && !is_string {
                Self::hint(d, "quote the value to make it text");
            }
        }
    }
}

fn type_text(ty: &TypeRef) -> &'static str {
    match ty {
        TypeRef::String | TypeRef::ErrorCode | TypeRef::ValueSet(_) => "string",
        TypeRef::Integer => "integer",
        TypeRef::Number => "number",
        TypeRef::Boolean => "boolean",
        _ => "any",
    }
}
