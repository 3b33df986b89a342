//! What a samples section names: a parameter or body field of its endpoint, a field of its
//! record, the range's field, and the spellings a set is selected by.

use std::collections::BTreeMap;

use crate::ast::{self, OperandName, Spanned};
use crate::check::{Cx, Target, Types, quoted};
use crate::diag::Span;
use crate::model::{FieldId, Input, Inputs, Operand, Param, Record, SampleField, ValueType};

impl Cx<'_> {
    pub(super) fn sample_range_field(
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
    pub(super) fn sample_param<'e>(
        &mut self,
        at: Span,
        t: &Target<'e>,
        name: &str,
    ) -> Option<&'e Param> {
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
    pub(super) fn sample_operand<'e>(
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
    pub(super) fn sample_field(
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

    pub(super) fn sample_spellings(&mut self, p: &Input<'_>, spellings: &[Spanned<String>]) {
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
}
