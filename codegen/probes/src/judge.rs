//! Whether an answer is the one a check predicts: every answer is an envelope with a request
//! id; records decode strictly as the endpoint's record; errors carry the predicted code and
//! name the predicted parameter and rule.

use serde_json::Value;

use super::{Expect, Probe, Sorted};
use mrds_spec::model::{Api, Field, RecordId, TypeRef};

/// `Ok` when `status` and `body` are the answer `check` predicts, else what differs.
pub fn judge(api: &Api, check: &Probe, status: u16, body: &[u8]) -> Result<(), String> {
    let doc: Value = serde_json::from_slice(body)
        .map_err(|e| format!("the body is not JSON ({e}); every answer is an envelope"))?;
    let Some(envelope) = doc.as_object() else {
        return Err("the body is not a JSON object; every answer is an envelope".into());
    };
    let success = envelope.get("success").and_then(Value::as_bool);
    if success.is_none() {
        return Err("the envelope has no boolean `success`".into());
    }
    if envelope
        .get("request_id")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        return Err("the envelope has no `request_id`".into());
    }
    let code = doc["error"]["code"].as_str().unwrap_or_default();
    if check.not_found_allowed
        && status == 404
        && code == mrds_runtime::ErrorKind::ResourceNotFound.code()
        && success == Some(false)
    {
        return Ok(());
    }
    let issues = details(&doc);
    let names_rule = |reason: &str, rule: &str| {
        reason.match_indices(rule).any(|(at, _)| {
            !reason[at + rule.len()..]
                .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        })
    };
    let invalid_without = |forbidden: &dyn Fn(&str) -> bool| {
        status == 400
            && code == "INVALID_PARAMETER"
            && !issues.is_empty()
            && !issues.iter().any(|(_, reason)| forbidden(reason))
    };
    match &check.expect {
        Expect::Records {
            record,
            at_most,
            order,
        } => {
            if status != 200 || success != Some(true) {
                return Err(format!("expected 200 with records, got {status} `{code}`"));
            }
            let Some(data) = doc["data"].as_array() else {
                return Err("`data` is not an array".into());
            };
            let mut problems = Vec::new();
            for (i, item) in data.iter().enumerate() {
                problems.extend(record_problems(api, *record, item, &format!("data[{i}]")));
            }
            if let Some(n) = at_most
                && data.len() > *n
            {
                problems.push(format!("{} records, more than the {n} allowed", data.len()));
            }
            if let Some(order) = order {
                problems.extend(order_problem(data, order));
            }
            if problems.is_empty() {
                Ok(())
            } else {
                Err(problems.join("; "))
            }
        }
        Expect::Accepted { param } => {
            let own = format!("{}.{param}.", check.endpoint);
            let ok = (status == 200 && success == Some(true))
                || invalid_without(&|reason| reason.contains(&own));
            ok.then_some(()).ok_or_else(|| {
                format!(
                    "expected no issue of `{param}`'s own rules, got {status} `{code}`{}",
                    listed(&issues)
                )
            })
        }
        Expect::Kept { rule } => {
            let ok = (status == 200 && success == Some(true))
                || invalid_without(&|reason| names_rule(reason, rule));
            ok.then_some(()).ok_or_else(|| {
                format!(
                    "expected rule `{rule}` kept, got {status} `{code}`{}",
                    listed(&issues)
                )
            })
        }
        Expect::Rejected { field, rule } => {
            let named = issues
                .iter()
                .any(|(f, reason)| f == field && names_rule(reason, rule));
            (status == 400 && code == "INVALID_PARAMETER" && named)
                .then_some(())
                .ok_or_else(|| {
                    format!(
                        "expected 400 INVALID_PARAMETER naming `{field}` and rule `{rule}`, got {status} `{code}`{}",
                        listed(&issues)
                    )
                })
        }
        Expect::Error {
            status: want,
            code: want_code,
        } => (status == *want && code == want_code && success == Some(false))
            .then_some(())
            .ok_or_else(|| {
                format!("expected {want} `{want_code}` in the envelope, got {status} `{code}`")
            }),
    }
}

/// True when an answer says the server does not implement the endpoint: 501 with the
/// runtime's `NOT_IMPLEMENTED` code in the envelope (what the generated server trait's default
/// methods answer). Runners count such an endpoint once, as not implemented, and send none of
/// its other checks.
pub fn not_implemented(status: u16, body: &[u8]) -> bool {
    status == 501
        && serde_json::from_slice::<Value>(body).is_ok_and(|doc| {
            doc["error"]["code"].as_str() == Some(mrds_runtime::ErrorKind::NotImplemented.code())
        })
}

/// `(field, reason)` of every `details` entry.
fn details(doc: &Value) -> Vec<(String, String)> {
    doc["error"]["details"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|d| {
                    let text = |k: &str| d[k].as_str().unwrap_or_default().to_string();
                    (text("field"), text("reason"))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn listed(issues: &[(String, String)]) -> String {
    if issues.is_empty() {
        String::new()
    } else {
        let all: Vec<String> = issues.iter().map(|(f, r)| format!("{f}: {r}")).collect();
        format!(" ({})", all.join("; "))
    }
}

/// What is wrong with `value` as the record `id`, strictly: required
/// fields present and not null, every value of the declared type and in the field's format,
/// value-set values listed.
/// Fields the spec does not know are allowed.
pub fn record_problems(api: &Api, id: RecordId, value: &Value, at: &str) -> Vec<String> {
    problems(api, id, value, at, Formats::Checked)
}

/// What is wrong with `value` as the record `id` for the generated record type to read it:
/// [`record_problems`] but the formats (the type reads a text in another format as a text).
pub fn shape_problems(api: &Api, id: RecordId, value: &Value, at: &str) -> Vec<String> {
    problems(api, id, value, at, Formats::Ignored)
}

/// Whether [`problems`] checks that values are in their field's format.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Formats {
    Checked,
    Ignored,
}

fn problems(api: &Api, id: RecordId, value: &Value, at: &str, formats: Formats) -> Vec<String> {
    let record = api.record(id);
    let Some(object) = value.as_object() else {
        return vec![format!("{at}: a `{}` is an object", record.spec_name)];
    };
    let mut out = Vec::new();
    for f in &record.fields {
        let path = format!("{at}.{}", f.wire);
        match object.get(&f.wire) {
            None | Some(Value::Null) => {
                if !f.optional {
                    out.push(format!("{path}: the required field is missing"));
                }
            }
            Some(Value::Array(items)) if f.array => {
                for (i, item) in items.iter().enumerate() {
                    out.extend(value_problems(
                        api,
                        f,
                        item,
                        &format!("{path}[{i}]"),
                        formats,
                    ));
                }
            }
            Some(_) if f.array => out.push(format!("{path}: not an array")),
            Some(v) => out.extend(value_problems(api, f, v, &path, formats)),
        }
    }
    out
}

fn value_problems(api: &Api, f: &Field, v: &Value, at: &str, formats: Formats) -> Vec<String> {
    let fits = match &f.ty {
        TypeRef::String | TypeRef::ErrorCode => v.is_string(),
        TypeRef::Integer => v.is_i64() || v.is_u64(),
        TypeRef::Number => v.is_number(),
        TypeRef::Boolean => v.is_boolean(),
        TypeRef::Any | TypeRef::Records => true,
        TypeRef::Record(id) => return problems(api, *id, v, at, formats),
        TypeRef::ValueSet(id) => match v.as_str() {
            Some(s) if !api.value_set(*id).values.iter().any(|x| x.wire == s) => {
                let set = &api.value_set(*id).spec_name;
                return vec![format!("{at}: `{s}` is not a value of `{set}`")];
            }
            s => s.is_some(),
        },
    };
    if !fits {
        return vec![format!("{at}: not a {}", type_text(&f.ty))];
    }
    if formats == Formats::Ignored {
        return Vec::new();
    }
    let in_format = |format: mrds_runtime::Format| match v {
        Value::String(s) => format.holds_text(s),
        Value::Number(n) => n.as_i64().is_some_and(|n| format.holds_integer(n)),
        _ => true,
    };
    match f.format {
        Some(format) if !in_format(format) => {
            vec![format!(
                "{at}: {v} is not in the format `{}`",
                format.name()
            )]
        }
        _ => Vec::new(),
    }
}

fn type_text(ty: &TypeRef) -> &'static str {
    match ty {
        TypeRef::Integer => "integer",
        TypeRef::Number => "number",
        TypeRef::Boolean => "boolean",
        _ => "string",
    }
}

/// The first pair of records out of `order`, if any.
fn order_problem(data: &[Value], order: &Sorted) -> Option<String> {
    let key = |v: &Value| match v.get(&order.field) {
        Some(Value::Number(n)) => n.as_f64().map(|x| (x, String::new())),
        Some(Value::String(s)) => Some(
            mrds_runtime::text::instant_seconds(s)
                .map_or((0.0, s.clone()), |t| (t as f64, String::new())),
        ),
        _ => None,
    };
    data.windows(2).enumerate().find_map(|(i, pair)| {
        let (a, b) = (key(&pair[0])?, key(&pair[1])?);
        let wrong = if order.descending { a < b } else { a > b };
        wrong.then(|| {
            format!(
                "records {i} and {} are not in {} order of `{}`",
                i + 1,
                if order.descending {
                    "descending"
                } else {
                    "ascending"
                },
                order.field
            )
        })
    })
}
