//! Hand-written answers made to fit the spec as it stands: a test of decoding writes an answer
//! as the interface description shows it (fields, values, the spellings worth testing), and a
//! release may since have made a field optional, renamed it, retyped it or added one. Before
//! decoding, [`record`] fills what the record now requires and replaces what its types refuse
//! with values the spec's samples hold, so the test goes on checking what the release left as
//! it was; [`holds`] says whether a field still takes a value, for the test's assertions to skip
//! what the release changed. Both read the resolved model ([`crate::real_spec`]).

use mrds_spec::model::{Field, Record, TypeRef};
use serde_json::{Map, Value, json};

use crate::real_spec;

/// The record of the real spec the generated type `rust` (its Rust name, or a path ending in
/// it: `mrds_model::records::ForexBar`) stands for.
pub fn record_named(rust: &str) -> Option<&'static Record> {
    let name = rust.rsplit("::").next().unwrap_or(rust);
    (real_spec().records.iter()).find(|r| r.name == name || r.spec_name == name)
}

/// Whether field `wire` of the record `rust` holds `value` as the spec stands: the field
/// exists and its type takes the value's kind (a number an integer field takes only when it is
/// whole; null an optional field).
pub fn holds(rust: &str, wire: &str, value: &Value) -> bool {
    let Some(f) = record_named(rust).and_then(|r| r.field_named(wire)) else {
        return false;
    };
    takes(f, value)
}

fn takes(f: &Field, value: &Value) -> bool {
    let one = |v: &Value| match (&f.ty, v) {
        (TypeRef::Any, _) => true,
        // A text of the field's format: one of another (a date where a timestamp is now) is
        // drift the client notices.
        (TypeRef::String, Value::String(text)) => f.format.is_none_or(|x| x.holds_text(text)),
        (TypeRef::ValueSet(_) | TypeRef::ErrorCode, Value::String(_)) => true,
        (TypeRef::Integer, Value::Number(n)) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|x| x.fract() == 0.0)
        }
        (TypeRef::Number, Value::Number(_)) => true,
        (TypeRef::Boolean, Value::Bool(_)) => true,
        (TypeRef::Record(_) | TypeRef::Records, Value::Object(_)) => true,
        _ => false,
    };
    match (value, f.array) {
        (Value::Null, _) => f.optional || f.array,
        (Value::Array(items), true) => items.iter().all(one),
        (_, true) => false,
        (v, false) => one(v),
    }
}

/// `value`, an answer's record of the record `rust`, made to fit the spec as it stands: each
/// required field it lacks and each field whose value the field's type refuses takes the value
/// of the spec's first sample record of that record, else one of its type; other fields are
/// left as written (a field the spec does not know is what the test may be about).
pub fn record(rust: &str, value: &mut Value) {
    let Some(r) = record_named(rust) else {
        return;
    };
    let Value::Object(map) = value else {
        return;
    };
    let sample = sample_of(r);
    for f in &r.fields {
        let fits = map.get(&f.wire).is_some_and(|v| takes(f, v));
        let absent_ok = !map.contains_key(&f.wire) && f.optional;
        if fits || absent_ok {
            continue;
        }
        let value = (sample.get(&f.wire).cloned())
            .filter(|v| takes(f, v))
            .unwrap_or_else(|| of_type(f));
        map.insert(f.wire.clone(), value);
    }
}

/// [`record`], and the fields the record does not declare left out: an answer that is to show
/// no drift (a field a release renamed leaves its old name behind, which the client would
/// notice).
pub fn record_only(rust: &str, value: &mut Value) {
    record(rust, value);
    if let (Some(r), Value::Object(map)) = (record_named(rust), value) {
        map.retain(|wire, _| r.field_named(wire).is_some());
    }
}

/// The wire name of the field a test marks each row of the record `rust` with (`Remark 3.`):
/// its first required single text field of no format, so that a release renaming or retyping
/// another field leaves the marks where the test reads them.
///
/// # Panics
///
/// When the record has no such field.
pub fn label_field(rust: &str) -> &'static str {
    let r = record_named(rust).unwrap_or_else(|| panic!("no record {rust}"));
    (r.fields.iter())
        .find(|f| f.ty == TypeRef::String && !f.array && !f.optional && f.format.is_none())
        .map(|f| f.wire.as_str())
        .unwrap_or_else(|| panic!("{rust} has no required text field of no format"))
}

/// The wire name of the first single field of the record `rust` whose type is the value set
/// `set` (its Rust or spec name), where a release may have renamed it; `None` when the record
/// has none.
pub fn field_of_value_set(rust: &str, set: &str) -> Option<&'static str> {
    let api = real_spec();
    let r = record_named(rust)?;
    (r.fields.iter())
        .find(|f| match f.ty {
            TypeRef::ValueSet(id) if !f.array => {
                let v = api.value_set(id);
                v.name == set || v.spec_name == set
            }
            _ => false,
        })
        .map(|f| f.wire.as_str())
}

/// The value of field `wire` of `record` as it is written on the wire.
pub fn wire_field<T: serde::Serialize>(record: &T, wire: &str) -> Value {
    let value = serde_json::to_value(record).expect("a record serializes");
    value.get(wire).cloned().unwrap_or(Value::Null)
}

/// The data of an envelope (JSON text) made to fit: each record of `data` as [`record`] makes
/// it; the text again.
pub fn envelope(rust: &str, text: &str) -> String {
    let Ok(mut value) = serde_json::from_str::<Value>(text) else {
        return text.to_string();
    };
    if let Some(Value::Array(items)) = value.get_mut("data") {
        for item in items {
            record(rust, item);
        }
    }
    value.to_string()
}

/// The first sample record of the real spec of record `r` (of an endpoint returning it).
fn sample_of(r: &Record) -> Map<String, Value> {
    (real_spec().endpoints.iter())
        .filter(|e| e.returns == r.id)
        .filter_map(|e| e.samples.as_ref())
        .flat_map(|s| &s.sets)
        .filter_map(|set| serde_json::from_str::<Vec<Value>>(&set.records_json).ok())
        .flatten()
        .find_map(|v| match v {
            Value::Object(m) => Some(m),
            _ => None,
        })
        .unwrap_or_default()
}

/// A value of field `f`'s type.
fn of_type(f: &Field) -> Value {
    if f.array {
        return json!([]);
    }
    match &f.ty {
        TypeRef::Integer => json!(0),
        TypeRef::Number => json!(0.5),
        TypeRef::Boolean => json!(false),
        TypeRef::ValueSet(id) => {
            let set = real_spec().value_set(*id);
            json!(set.values.first().map_or("", |v| v.wire.as_str()))
        }
        TypeRef::Record(id) => {
            let mut v = json!({});
            record(&real_spec().record(*id).name, &mut v);
            v
        }
        TypeRef::Any | TypeRef::Records => json!(null),
        TypeRef::String | TypeRef::ErrorCode => match f.format {
            Some(format) => json!(format_example(format)),
            None => json!("text"),
        },
    }
}

/// A text in `format`.
fn format_example(format: mrds_runtime::Format) -> String {
    use mrds_runtime::Format;
    if let Some(text) = format.write_instant(1_767_225_600) {
        return text;
    }
    match format {
        Format::Text(t) => t.info().examples[0].to_string(),
        Format::Url => "https://example.org/".into(),
        Format::NumericText => "1.5".into(),
        _ => "text".into(),
    }
}
