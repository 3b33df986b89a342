//! Sample records: known fields only, every required field present, every value of its
//! field's type.

use std::collections::BTreeMap;

use crate::ast::{Value, ValueKind};
use crate::check::{Cx, Types, quoted};
use crate::model::{Field, Record, TypeRef};

impl Cx<'_> {
    /// Checks one sample record against its record type: known fields only, every required
    /// field present, every value of its field's type.
    pub(in crate::check) fn sample_record(
        &mut self,
        value: &Value,
        record: &Record,
        types: &Types<'_>,
    ) {
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
