//! Inputs drawn from the spec, for the property tests of the default run (and longer runs):
//! requests of an endpoint, from the resolved model (its parameters' types, bounds, patterns,
//! formats, value sets and defaults, and the contract suite's requests on each side of every
//! rule), and answers of an endpoint, from the shapes the generated model crate carries
//! (`mrds_model::shapes::SHAPES`). Nothing here names an endpoint, a parameter or a record.

use mrds_probes::Removed;
use mrds_probes::values::{candidates, instant_text};
use mrds_runtime::RawParams;
use mrds_runtime::shapes::{FieldShape, FieldType, Shapes};
use mrds_spec::model::{Endpoint, IntegerFormat, Param, ParamLocation, ValueType};
use serde_json::{Map, Value, json};

use crate::spec_gen::Rng;

/// Texts that no parameter's checks expect: empty, spaces, escapes, other scripts, controls.
const ODD_TEXTS: &[&str] = &[
    "", " ", "a b", "+", "%", "%2", "%zz", "&", "=", "é", "東京", "\u{0}", "\u{7f}", "\u{fffd}",
    "𝔘", "a\nb", "-", "0x10", "1e3",
];

/// `count` requests of `endpoint` (its query and path parameters, as the server receives them),
/// each one of the contract suite's requests of the endpoint (the sample request, or one on
/// either side of a check or a rule) with up to three parameters changed: a value its own
/// checks accept or refuse, a bound and its neighbour, an instant near another, an odd text,
/// left out, or given twice.
pub fn requests(endpoint: &Endpoint, rng: &mut Rng, count: usize) -> Vec<RawParams> {
    let api = crate::real_spec();
    let probes: Vec<mrds_probes::Request> =
        mrds_probes::endpoint_checks(api, endpoint, Removed::Served)
            .into_iter()
            .map(|probe| probe.request)
            .collect();
    (0..count)
        .map(|_| {
            let mut pairs: Vec<(String, String)> = Vec::new();
            let mut path: Vec<(String, String)> = Vec::new();
            if let Some(probe) = (!probes.is_empty()).then(|| rng.pick(&probes)) {
                pairs = probe.query.clone();
                let template = endpoint.path.to_string();
                for (t, given) in template.split('/').zip(probe.path.split('/')) {
                    if let Some(name) = t.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
                        path.push((name.to_string(), percent_decode(given)));
                    }
                }
            }
            for _ in 0..rng.below(4) {
                let Some(param) = (!endpoint.params.is_empty()).then(|| rng.pick(&endpoint.params))
                else {
                    break;
                };
                let list = match param.location {
                    ParamLocation::Query => &mut pairs,
                    ParamLocation::Path => &mut path,
                };
                let at = list.iter().position(|(n, _)| *n == param.wire);
                match (rng.below(10), at) {
                    (0, Some(at)) => {
                        list.remove(at);
                    }
                    (1, Some(at)) if param.location == ParamLocation::Query => {
                        let again = list[at].clone();
                        list.push(again);
                    }
                    (_, at) => {
                        let value = value(param, rng);
                        match at {
                            Some(at) => list[at].1 = value,
                            None => list.push((param.wire.clone(), value)),
                        }
                    }
                }
            }
            let mut raw = RawParams::from_pairs(pairs);
            for (name, value) in path {
                // The router matches a path segment only when it is not empty.
                if !value.is_empty() {
                    raw = raw.with_path(name, value);
                }
            }
            raw
        })
        .collect()
}

/// A value for `param`: one its own checks accept (as the contract suite picks them) or not.
fn value(param: &Param, rng: &mut Rng) -> String {
    let accepted = candidates(&param.ty, param.default.as_ref(), None);
    if !accepted.is_empty() && rng.chance(50) {
        return rng.pick(&accepted).clone();
    }
    if rng.chance(15) {
        return rng.word(ODD_TEXTS).to_string();
    }
    match &param.ty {
        ValueType::Integer(t) => {
            let mut near = |bound: Option<i64>| bound.map(|b| b.saturating_add(rng_delta(rng)));
            let (min, max) = (near(t.min), near(t.max));
            let any = rng.below(usize::MAX) as i64;
            let instant = 1_767_225_600 + rng.below(3 * 86_400) as i64 - 86_400;
            let choices = [
                min,
                max,
                Some(i64::MIN),
                Some(i64::MAX),
                Some(any),
                (t.format == Some(IntegerFormat::UnixSeconds)).then_some(instant),
            ];
            match rng.pick(&choices) {
                Some(n) => n.to_string(),
                None => "0".to_string(),
            }
        }
        ValueType::Boolean => rng.word(&["true", "false", "TRUE", "1", "yes"]).to_string(),
        ValueType::Enum(e) => {
            let mut texts: Vec<String> = e.values.clone();
            texts.extend(e.values.iter().map(|v| v.to_lowercase()));
            texts.push("UNKNOWN_VALUE".to_string());
            rng.pick(&texts).clone()
        }
        ValueType::String(t) => {
            let mut texts: Vec<String> = Vec::new();
            if let Some(pattern) = &t.pattern {
                texts.extend(pattern.examples().iter().cloned());
                texts.extend(pattern.examples().iter().map(|e| format!("{e}{e}")));
                texts.extend(pattern.counterexample());
            }
            if let Some(format) = t.format {
                let info = format.info();
                texts.extend(info.examples.iter().map(|e| e.to_string()));
                texts.push(info.counterexample.to_string());
            }
            if let Some(format) = param.time_format() {
                let seconds = 1_767_225_600 + rng.below(3 * 86_400) as i64 - 86_400;
                texts.push(instant_text(seconds, format));
                texts.push(instant_text(seconds, format).replace('Z', "+05:30"));
            }
            texts.push(rng.word(ODD_TEXTS).repeat(1 + rng.below(3)));
            rng.pick(&texts).clone()
        }
    }
}

/// A small step away from a bound: -1, 0 or 1 mostly, now and then further.
fn rng_delta(rng: &mut Rng) -> i64 {
    match rng.below(8) {
        0 => -1,
        1 | 2 => 0,
        3 => 1,
        4 => -1000,
        5 => 1000,
        _ => rng.below(7) as i64 - 3,
    }
}

/// `%XX` escapes decoded (the contract suite's paths are percent-encoded).
fn percent_decode(segment: &str) -> String {
    mrds_runtime::text::percent_decode(&segment.replace('+', "%2B"))
}

/// An answer of `endpoint` that the spec describes: a success envelope with 0 to 3 records,
/// or (`failure`) a failure envelope with its error object, every value drawn from the
/// field's type (optional fields left out or `null` now and then, unknown values of value
/// sets, which record fields keep). `None` when the shapes do not know the endpoint.
pub fn answer(shapes: &Shapes, endpoint: &str, failure: bool, rng: &mut Rng) -> Option<Value> {
    let returns = shapes.returns(endpoint)?;
    let data = if failure {
        shapes.error_object
    } else {
        returns
    };
    let mut out = Map::new();
    for field in shapes.envelope.fields {
        let value = match field.ty {
            FieldType::Records => {
                let count = if failure { 1 } else { rng.below(4) };
                Value::Array((0..count).map(|_| record(shapes, data, rng, 0)).collect())
            }
            FieldType::Boolean if field.name == "success" => Value::Bool(!failure),
            FieldType::Record(i) if i == shapes.error_object => {
                if failure {
                    record(shapes, i, rng, 0)
                } else {
                    continue;
                }
            }
            _ => match field_value(shapes, field, rng, 0) {
                Some(value) => value,
                None => continue,
            },
        };
        out.insert(field.name.to_string(), value);
    }
    Some(Value::Object(out))
}

/// A record of `shapes.records[index]`.
fn record(shapes: &Shapes, index: usize, rng: &mut Rng, depth: usize) -> Value {
    let mut out = Map::new();
    for field in shapes.records[index].fields {
        if let Some(value) = field_value(shapes, field, rng, depth) {
            out.insert(field.name.to_string(), value);
        }
    }
    Value::Object(out)
}

/// A value of `field`, `None` to leave it out.
fn field_value(shapes: &Shapes, field: &FieldShape, rng: &mut Rng, depth: usize) -> Option<Value> {
    if field.optional && (depth > 2 || rng.chance(25)) {
        return rng.chance(50).then_some(Value::Null);
    }
    if field.array {
        let count = if depth > 2 { 0 } else { rng.below(3) };
        let items = (0..count).map(|_| one(shapes, field.ty, rng, depth + 1));
        return Some(Value::Array(items.collect()));
    }
    Some(one(shapes, field.ty, rng, depth + 1))
}

/// One value of type `ty`.
fn one(shapes: &Shapes, ty: FieldType, rng: &mut Rng, depth: usize) -> Value {
    match ty {
        FieldType::String => Value::String(text(rng)),
        FieldType::Integer => {
            let any = rng.below(usize::MAX) as i64;
            json!(*rng.pick(&[0, 1, -1, i64::MAX, i64::MIN, 1_767_225_600, any]))
        }
        FieldType::Number => {
            let any = rng.below(1 << 40) as f64 / 1024.0;
            json!(*rng.pick(&[0.0, 1.0, -1.5, 1e300, 2.5e-8, 123_456.789, any]))
        }
        FieldType::Boolean => Value::Bool(rng.chance(50)),
        FieldType::Any => rng
            .pick(&[
                Value::Null,
                json!(1),
                json!("x"),
                json!({"a": [1, 2.5, null], "b": {"c": true}}),
                json!([]),
            ])
            .clone(),
        FieldType::Record(i) => record(shapes, i, rng, depth),
        FieldType::ValueSet(i) => {
            let values = shapes.value_sets[i].values;
            if values.is_empty() || rng.chance(10) {
                Value::String(format!("NOT_IN_THE_SPEC_{}", rng.below(3)))
            } else {
                Value::String(rng.word(values).to_string())
            }
        }
        FieldType::Records => Value::Array(Vec::new()),
    }
}

/// Any text: ASCII, escapes, other scripts, astral characters.
fn text(rng: &mut Rng) -> String {
    let pieces = [
        "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "é", "東", "𝔘", "\u{0}", "\u{7f}",
    ];
    (0..rng.below(6)).map(|_| rng.word(&pieces)).collect()
}
