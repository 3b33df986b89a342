//! Records encoded and decoded: an answer the spec describes (JSON drawn from the shapes,
//! [`super::generate::answer`]) decodes into the generated types (the envelope of the
//! endpoint's records, or of its error object), and encodes back to the same values: every
//! field the spec declares keeps its value (numbers as numbers, unknown values of a value set
//! as the same text), and nothing is added. An optional field left out, `null` or (for an
//! array) empty is the same thing.

use mrds_model::Envelope;
use mrds_model::records::ErrorObject;
use mrds_runtime::Request;
use mrds_runtime::shapes::{FieldShape, FieldType, Shapes};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The round trip of `answer`, an answer of `P`'s endpoint the spec describes: a success
/// envelope of `P`'s records, or a failure envelope of error objects.
pub(super) fn round_trip<P: Request>(answer: &Value) {
    let shapes = mrds_model::api::PROTOCOL.shapes;
    let id = P::ENDPOINT.id;
    if answer["success"] == false {
        both_ways::<ErrorObject>(id, answer, shapes.error_object);
    } else {
        let records = shapes.returns(id).expect("an endpoint of the shapes");
        both_ways::<P::Record>(id, answer, records);
    }
}

/// `answer` decoded as an envelope of `T`, the record at `records` of the shapes, and encoded
/// back to the same values.
fn both_ways<T: DeserializeOwned + Serialize>(id: &str, answer: &Value, records: usize) {
    let shapes = mrds_model::api::PROTOCOL.shapes;
    let decoded: Envelope<T> = match serde_json::from_value(answer.clone()) {
        Ok(decoded) => decoded,
        Err(e) => panic!("{id}: an answer the spec describes does not decode ({e}): {answer}"),
    };
    let encoded = match serde_json::to_value(&decoded) {
        Ok(encoded) => encoded,
        Err(e) => panic!("{id}: a decoded answer does not encode ({e}): {answer}"),
    };
    let mut at = String::new();
    let fields = shapes.envelope.fields;
    if let Err(why) = same_object(shapes, fields, records, answer, &encoded, &mut at) {
        panic!("{id}: `{at}` {why}\n sent:    {answer}\n encoded: {encoded}");
    }
}

/// `got` holds the values `sent` holds, field by field (`records`: the record of `data`).
fn same_object(
    shapes: &Shapes,
    fields: &[FieldShape],
    records: usize,
    sent: &Value,
    got: &Value,
    at: &mut String,
) -> Result<(), String> {
    let (Some(sent), Some(got)) = (sent.as_object(), got.as_object()) else {
        return Err(format!("is not an object both ways: {got}"));
    };
    for key in got.keys() {
        if !fields.iter().any(|f| f.name == key) {
            return Err(format!("gained `{key}`"));
        }
    }
    let base = at.clone();
    for field in fields {
        *at = format!("{base}.{}", field.name);
        let (s, g) = (sent.get(field.name), got.get(field.name));
        let empty = |v: Option<&Value>| match v {
            None | Some(Value::Null) => true,
            Some(Value::Array(items)) => field.array && field.optional && items.is_empty(),
            _ => false,
        };
        if field.optional && empty(s) && empty(g) {
            continue;
        }
        let (Some(s), Some(g)) = (s, g) else {
            return Err(format!("was {s:?}, is {g:?}"));
        };
        if field.array {
            let (Some(s), Some(g)) = (s.as_array(), g.as_array()) else {
                return Err(format!("is not an array both ways: {s} / {g}"));
            };
            if s.len() != g.len() {
                return Err(format!("had {} elements, has {}", s.len(), g.len()));
            }
            for (i, (s, g)) in s.iter().zip(g).enumerate() {
                *at = format!("{base}.{}[{i}]", field.name);
                same_value(shapes, field.ty, records, s, g, at)?;
            }
        } else {
            same_value(shapes, field.ty, records, s, g, at)?;
        }
    }
    *at = base;
    Ok(())
}

/// `got` is the value `sent` is, of type `ty`.
fn same_value(
    shapes: &Shapes,
    ty: FieldType,
    records: usize,
    sent: &Value,
    got: &Value,
    at: &mut String,
) -> Result<(), String> {
    match ty {
        FieldType::Record(i) => {
            same_object(shapes, shapes.records[i].fields, records, sent, got, at)
        }
        // One record of `data` (the field is an array of them).
        FieldType::Records => {
            let fields = shapes.records[records].fields;
            same_object(shapes, fields, records, sent, got, at)
        }
        _ if same_json(sent, got) => Ok(()),
        _ => Err(format!("was {sent}, is {got}")),
    }
}

/// The same JSON, numbers compared by value (`1` and `1.0` are one number).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}
