//! The traffic of a drifted provider: the spec's example requests answered with the sample
//! records, changed as the provider changed its answers (a field missing, renamed, retyped, in
//! another format, a new field or value, a new error code), or the requests the provider now
//! refuses or accepts past a parameter's bound, or the requests of an endpoint the spec does
//! not have. Written as HAR entries, read back as recorded traffic is.

use serde_json::{Map, Value, json};

use mrds_spec::model::{
    Api, Endpoint, Field, Format, Method, ParamLocation, Record, TypeRef, ValueType,
};

use super::{Draw, Kind};

/// The key the drifted provider's requests carry (recorded traffic keeps it only redacted).
const KEY: &str = "release-provider-key";

/// A change of the records an endpoint answers with: record `i` of its samples changed.
type Transform = Box<dyn Fn(usize, &mut Map<String, Value>)>;

/// What a release's provider answers: the changes of each endpoint's records (every answer of
/// the endpoint shows all of them, as one provider's answers would), the requests answered
/// with those records or with a body of their own, and the exchanges of endpoints the spec
/// does not have.
#[derive(Default)]
pub(super) struct Traffic {
    transforms: Vec<(String, Transform)>,
    requests: Vec<Request>,
    entries: Vec<Value>,
}

/// A request of an endpoint of the spec: its target, the status, and the body answered.
struct Request {
    endpoint: String,
    target: String,
    status: u16,
    body: Body,
}

enum Body {
    /// The endpoint's records as the provider changed them, repeated to `n` when given.
    Records(Option<usize>),
    /// This body.
    Json(Value),
}

impl Traffic {
    fn records(&mut self, endpoint: &str, transform: Transform) {
        self.transforms.push((endpoint.to_string(), transform));
    }

    fn request(&mut self, endpoint: &str, target: String, status: u16, body: Body) {
        self.requests.push(Request {
            endpoint: endpoint.to_string(),
            target,
            status,
            body,
        });
    }

    /// The entries: each changed endpoint's example answered with its changed records, then
    /// the requests, then the other exchanges.
    pub(super) fn entries(self, api: &Api) -> Vec<Value> {
        let served = served(api);
        let records = |id: &str| -> Vec<Value> {
            let Some(s) = served.iter().find(|s| s.e.id == id) else {
                return Vec::new();
            };
            (s.records.iter().enumerate())
                .map(|(i, r)| {
                    let mut r = r.clone();
                    for (_, t) in self.transforms.iter().filter(|(e, _)| e == id) {
                        t(i, &mut r);
                    }
                    Value::Object(r)
                })
                .collect()
        };
        let mut out = Vec::new();
        let mut changed: Vec<&str> = Vec::new();
        for (e, _) in &self.transforms {
            if !changed.contains(&e.as_str()) {
                changed.push(e);
            }
        }
        for id in changed {
            if let Some(s) = served.iter().find(|s| s.e.id == id) {
                out.push(entry(api, "GET", s.example, 200, &envelope(records(id))));
            }
        }
        for r in &self.requests {
            let body = match &r.body {
                Body::Json(v) => v.clone(),
                Body::Records(n) => {
                    let all = records(&r.endpoint);
                    let n = n.unwrap_or(all.len());
                    envelope(all.iter().cycle().take(n).cloned().collect())
                }
            };
            out.push(entry(api, "GET", &r.target, r.status, &body));
        }
        out.extend(self.entries);
        out
    }
}

/// Adds `kind`'s change to `traffic` and says what it changed, or `None` when the spec has no
/// target.
pub(super) fn change(
    api: &Api,
    draw: &mut Draw,
    kind: Kind,
    traffic: &mut Traffic,
) -> Option<String> {
    match kind {
        Kind::FieldOptional => field_optional(api, draw, traffic),
        Kind::FieldAdded | Kind::NestedFieldAdded | Kind::ListFieldAdded => {
            field_added(api, draw, kind, traffic)
        }
        Kind::FieldRetyped => field_retyped(api, draw, traffic),
        Kind::FieldRenamed => field_renamed(api, draw, traffic),
        Kind::ValueAdded => value_added(api, draw, traffic),
        Kind::ErrorCodeAdded => error_code_added(api, draw, traffic),
        Kind::FormatChanged => format_changed(api, draw, traffic),
        Kind::BoundNarrowed | Kind::BoundWidened => bound(api, draw, kind, traffic),
        Kind::EndpointWithPath => endpoint_with_path(api, draw, traffic),
        _ => None,
    }
}

/// The HAR document of `entries`.
pub(super) fn har(entries: Vec<Value>) -> String {
    let doc = json!({
        "log": {
            "version": "1.2",
            "creator": { "name": "mrds-follow release", "version": "1" },
            "entries": entries,
        }
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

/// An endpoint of the spec the provider serves with records: a `GET` with a sample example
/// and the records of its first set that has some.
struct Served<'a> {
    e: &'a Endpoint,
    record: &'a Record,
    example: &'a str,
    records: Vec<Map<String, Value>>,
}

fn served(api: &Api) -> Vec<Served<'_>> {
    let error_records = [api.errors.object, api.errors.detail];
    (api.endpoints.iter())
        .filter(|e| e.removed.is_none() && e.method == Method::Get && e.body.is_none())
        .filter(|e| !error_records.contains(&e.returns))
        .filter_map(|e| {
            let samples = e.samples.as_ref()?;
            let records: Vec<Map<String, Value>> = (samples.sets.iter())
                .map(|set| serde_json::from_str::<Vec<Value>>(&set.records_json).ok())
                .find_map(|r| r.filter(|r| !r.is_empty()))?
                .into_iter()
                .filter_map(|r| match r {
                    Value::Object(m) => Some(m),
                    _ => None,
                })
                .collect();
            (!records.is_empty()).then_some(Served {
                e,
                record: api.record(e.returns),
                example: samples.example.as_str(),
                records,
            })
        })
        .collect()
}

/// An exchange: `method target` (below the base path) answered with `status` and `body`.
fn entry(api: &Api, method: &str, target: &str, status: u16, body: &Value) -> Value {
    json!({
        "request": {
            "method": method,
            "url": format!("https://provider.example{}{}", api.base_path, target),
            "headers": [{ "name": api.auth.header, "value": KEY }],
        },
        "response": {
            "status": status,
            "headers": [{ "name": "Content-Type", "value": "application/json" }],
            "content": { "mimeType": "application/json", "text": body.to_string() },
        },
    })
}

/// The envelope of a successful answer holding `records`.
fn envelope(records: Vec<Value>) -> Value {
    json!({ "success": true, "request_id": "release-answer", "data": records })
}

/// Whether a field of the record `r` is read by the samples or the documented order of an
/// endpoint returning it (a change of it would change what a request selects).
fn referenced(api: &Api, r: &Record, wire: &str) -> bool {
    let Some(id) = r.field_id(wire) else {
        return false;
    };
    (api.endpoints.iter())
        .filter(|e| e.returns == r.id)
        .any(|e| {
            let ordered = e.order.as_ref().is_some_and(|o| o.field == id);
            let sampled = e.samples.as_ref().is_some_and(|s| {
                let field = |f: &mrds_spec::model::SampleField| match f {
                    mrds_spec::model::SampleField::Fixed(f) => *f == id,
                    mrds_spec::model::SampleField::By(_, fields) => {
                        fields.iter().any(|(_, f)| *f == id)
                    }
                };
                s.echo.iter().any(|(f, _)| *f == id)
                    || s.filter.iter().any(|(_, f)| *f == id)
                    || s.range.as_ref().is_some_and(|r| field(&r.field))
                    || s.order.as_ref().is_some_and(|o| field(&o.field))
            });
            ordered || sampled
        })
}

/// The served endpoints' fields `pick` takes, not taken by another change of the release:
/// (endpoint index in `served`, field).
fn fields<'a>(
    served: &'a [Served<'a>],
    draw: &Draw,
    pick: impl Fn(&Served<'a>, &'a Field) -> bool,
) -> Vec<(usize, &'a Field)> {
    (served.iter().enumerate())
        .flat_map(|(i, s)| s.record.fields.iter().map(move |f| (i, s, f)))
        .filter(|(_, s, f)| {
            !draw
                .taken
                .contains(&format!("{}.{}", s.record.spec_name, f.wire))
        })
        .filter(|(_, s, f)| pick(s, f))
        .map(|(i, _, f)| (i, f))
        .collect()
}

/// A required single value of a scalar type.
fn required_scalar(f: &Field) -> bool {
    !f.optional
        && !f.array
        && matches!(
            f.ty,
            TypeRef::String
                | TypeRef::Integer
                | TypeRef::Number
                | TypeRef::Boolean
                | TypeRef::ValueSet(_)
        )
}

fn field_optional(api: &Api, draw: &mut Draw, traffic: &mut Traffic) -> Option<String> {
    let served = served(api);
    let candidates = fields(&served, draw, |s, f| {
        required_scalar(f) && !referenced(api, s.record, &f.wire)
    });
    let (i, f) = draw.pick(candidates)?;
    let s = &served[i];
    draw.take(format!("{}.{}", s.record.spec_name, f.wire));
    let wire = f.wire.clone();
    traffic.records(
        &s.e.id,
        Box::new(move |_, r| {
            r.remove(&wire);
        }),
    );
    let what = format!(
        "`{}.{}` missing from the answers of `{}`",
        s.record.spec_name, f.wire, s.e.id
    );
    Some(what)
}

/// A name for a new field of `record`, not the record's nor another change's.
fn new_field(draw: &mut Draw, record: &Record, base: &str) -> String {
    let mut name = base.to_string();
    let mut n = 2;
    while record.field_named(&name).is_some() || !draw.take(format!("{}.{name}", record.spec_name))
    {
        name = format!("{base}_{n}");
        n += 1;
    }
    name
}

fn field_added(api: &Api, draw: &mut Draw, kind: Kind, traffic: &mut Traffic) -> Option<String> {
    let served = served(api);
    let s = draw.pick((0..served.len()).collect())?;
    let s = &served[s];
    let bases = match kind {
        Kind::NestedFieldAdded => ["listing", "issuer", "provenance"],
        Kind::ListFieldAdded => ["tags", "aliases", "flags"],
        _ => ["venue_code", "region_tag", "revision"],
    };
    let base = bases[draw.below(3) as usize];
    let name = new_field(draw, s.record, base);
    let value = move |i: usize| -> Value {
        match kind {
            Kind::NestedFieldAdded => json!({
                "code": format!("C{}", 100 + i),
                "weight": 0.5 + i as f64,
                "active": i.is_multiple_of(2),
            }),
            Kind::ListFieldAdded => json!([format!("a{i}"), "b"]),
            _ => json!(format!("x-{i}")),
        }
    };
    let key = name.clone();
    traffic.records(
        &s.e.id,
        Box::new(move |i, r| {
            r.insert(key.clone(), value(i));
        }),
    );
    let what = format!(
        "new field `{}.{name}` in the answers of `{}`",
        s.record.spec_name, s.e.id
    );
    Some(what)
}

fn field_retyped(api: &Api, draw: &mut Draw, traffic: &mut Traffic) -> Option<String> {
    let served = served(api);
    let candidates = fields(&served, draw, |s, f| {
        !f.array
            && f.format.is_none()
            && matches!(f.ty, TypeRef::Integer | TypeRef::Number)
            && !referenced(api, s.record, &f.wire)
            && s.records
                .iter()
                .any(|r| r.get(&f.wire).is_some_and(Value::is_number))
    });
    let (i, f) = draw.pick(candidates)?;
    let s = &served[i];
    draw.take(format!("{}.{}", s.record.spec_name, f.wire));
    let (wire, integer) = (f.wire.clone(), f.ty == TypeRef::Integer);
    traffic.records(
        &s.e.id,
        Box::new(move |_, r| {
            if let Some(Value::Number(n)) = r.get(&wire).cloned() {
                let v = n.as_f64().unwrap_or(0.0);
                let new = if integer {
                    json!(v + 0.5)
                } else {
                    json!(format!("{v}"))
                };
                r.insert(wire.clone(), new);
            }
        }),
    );
    let to = if integer {
        "numbers with fractions"
    } else {
        "numbers as text"
    };
    let what = format!(
        "`{}.{}` as {to} in the answers of `{}`",
        s.record.spec_name, f.wire, s.e.id
    );
    Some(what)
}

fn field_renamed(api: &Api, draw: &mut Draw, traffic: &mut Traffic) -> Option<String> {
    let served = served(api);
    let candidates = fields(&served, draw, |s, f| {
        required_scalar(f)
            // The record of one endpoint: a rename shows on every endpoint returning it.
            && api.endpoints.iter().filter(|e| e.returns == s.record.id && e.removed.is_none()).count() == 1
    });
    let (i, f) = draw.pick(candidates)?;
    let s = &served[i];
    draw.take(format!("{}.{}", s.record.spec_name, f.wire));
    let new = new_field(draw, s.record, &format!("{}_v2", f.wire));
    let (old, renamed) = (f.wire.clone(), new.clone());
    traffic.records(
        &s.e.id,
        Box::new(move |_, r| {
            if let Some(v) = r.remove(&old) {
                r.insert(renamed.clone(), v);
            }
        }),
    );
    let what = format!(
        "`{}.{}` renamed `{new}` in the answers of `{}`",
        s.record.spec_name, f.wire, s.e.id
    );
    Some(what)
}

fn value_added(api: &Api, draw: &mut Draw, traffic: &mut Traffic) -> Option<String> {
    let served = served(api);
    let candidates = fields(&served, draw, |s, f| {
        !f.array
            && matches!(f.ty, TypeRef::ValueSet(_))
            && !referenced(api, s.record, &f.wire)
            && s.records
                .iter()
                .any(|r| r.get(&f.wire).is_some_and(Value::is_string))
    });
    let (i, f) = draw.pick(candidates)?;
    let s = &served[i];
    let TypeRef::ValueSet(set) = f.ty else {
        return None;
    };
    let set = api.value_set(set);
    draw.take(format!("{}.{}", s.record.spec_name, f.wire));
    let mut value = format!("rel{}_new", draw.tag);
    while set.values.iter().any(|v| v.wire == value) {
        value.push('x');
    }
    let (wire, new) = (f.wire.clone(), value.clone());
    traffic.records(
        &s.e.id,
        Box::new(move |i, r| {
            if i == 0 {
                r.insert(wire.clone(), json!(new));
            }
        }),
    );
    let what = format!(
        "`{value}` of `{}` in `{}.{}`",
        set.spec_name, s.record.spec_name, f.wire
    );
    Some(what)
}

fn error_code_added(api: &Api, draw: &mut Draw, traffic: &mut Traffic) -> Option<String> {
    let served = served(api);
    let s = &served[draw.pick((0..served.len()).collect())?];
    let statuses: Vec<u16> = (api.error_codes.iter())
        .filter(|c| c.answers_status && ![401, 410, 501].contains(&c.status))
        .map(|c| c.status)
        .collect();
    let status = draw.pick(statuses)?;
    let mut code = "QUOTA_EXCEEDED".to_string();
    let mut n = 2;
    while api.error_codes.iter().any(|c| c.code == code) || !draw.take(format!("ErrorCode.{code}"))
    {
        code = format!("REL{}_REFUSED_{n}", draw.tag);
        n += 1;
    }
    let error = error_object(api, &code);
    let body = json!({
        "success": false,
        "request_id": "release-refusal",
        "data": [error.clone()],
        "error": error,
    });
    traffic.request(&s.e.id, s.example.to_string(), status, Body::Json(body));
    Some(format!("`{code}` answered with HTTP {status}"))
}

/// An error object with `code`: every required field of the spec's error object given.
fn error_object(api: &Api, code: &str) -> Value {
    let record = api.record(api.errors.object);
    let mut out = Map::new();
    for f in record.fields.iter().filter(|f| !f.optional) {
        let value = match (f.wire.as_str(), &f.ty, f.array) {
            ("code", _, _) => json!(code),
            (_, _, true) => json!([]),
            (_, TypeRef::Integer | TypeRef::Number, _) => json!(0),
            (_, TypeRef::Boolean, _) => json!(false),
            _ => json!("The provider refused the request."),
        };
        out.insert(f.wire.clone(), value);
    }
    Value::Object(out)
}

fn format_changed(api: &Api, draw: &mut Draw, traffic: &mut Traffic) -> Option<String> {
    let served = served(api);
    let candidates = fields(&served, draw, |s, f| {
        !f.array
            && f.format == Some(Format::Text(mrds_runtime::TextFormat::Date))
            && s.records
                .iter()
                .any(|r| r.get(&f.wire).is_some_and(Value::is_string))
    });
    let (i, f) = draw.pick(candidates)?;
    let s = &served[i];
    draw.take(format!("{}.{}", s.record.spec_name, f.wire));
    let wire = f.wire.clone();
    // The same days, as timestamps at midnight UTC.
    traffic.records(
        &s.e.id,
        Box::new(move |_, r| {
            if let Some(Value::String(day)) = r.get(&wire).cloned() {
                r.insert(wire.clone(), json!(format!("{day}T00:00:00Z")));
            }
        }),
    );
    let what = format!(
        "`{}.{}` as timestamps in the answers of `{}`",
        s.record.spec_name, f.wire, s.e.id
    );
    Some(what)
}

/// `target` with the query parameter `name` set to `value` (added when absent).
fn with_query(target: &str, name: &str, value: &str) -> String {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut pairs: Vec<String> = (query.split('&'))
        .filter(|p| !p.is_empty() && p.split_once('=').map_or(*p, |(n, _)| n) != name)
        .map(str::to_string)
        .collect();
    pairs.push(format!("{name}={value}"));
    format!("{path}?{}", pairs.join("&"))
}

fn bound(api: &Api, draw: &mut Draw, kind: Kind, traffic: &mut Traffic) -> Option<String> {
    let served = served(api);
    let candidates: Vec<(usize, &mrds_spec::model::Param, i64, i64)> = (served.iter().enumerate())
        .flat_map(|(i, s)| s.e.params.iter().map(move |p| (i, s, p)))
        .filter(|(_, s, p)| {
            p.location == ParamLocation::Query
                && p.list.is_none()
                && !draw.taken.contains(&format!("{}.{}", s.e.id, p.wire))
        })
        .filter_map(|(i, _, p)| match &p.ty {
            ValueType::Integer(t) if t.format.is_none() => Some((i, p, t.min?, t.max?)),
            _ => None,
        })
        .filter(|(_, _, min, max)| max - min >= 4)
        .collect();
    // A limit widened shows in an answer of more records than its bound: of the limits, those
    // of a thousand or fewer (an answer of ten thousand records is a slow test).
    let paged = |i: usize, p: &mrds_spec::model::Param| {
        (served[i].e.paging.as_ref()).is_some_and(|paging| paging.limit == p.id)
    };
    let candidates = match kind {
        Kind::BoundWidened => (candidates.into_iter())
            .filter(|(i, p, _, max)| !paged(*i, p) || *max <= 1000)
            .collect(),
        _ => candidates,
    };
    let (i, p, min, max) = draw.pick(candidates)?;
    let s = &served[i];
    draw.take(format!("{}.{}", s.e.id, p.wire));
    let at = |v: i64| with_query(s.example, &p.wire, &v.to_string());
    let id = s.e.id.as_str();
    if kind == Kind::BoundNarrowed {
        let floor = [Some(min), default_of(p), example_of(s.example, &p.wire)]
            .into_iter()
            .flatten()
            .max()
            .unwrap_or(min);
        let narrowed = (min + (max - min) / 2).max(floor);
        if narrowed >= max {
            return None;
        }
        let refusal = |v: i64| {
            let detail = json!({
                "field": p.wire,
                "got": v.to_string(),
                "reason": format!("must be at most {narrowed}"),
            });
            let mut error = error_object(api, "INVALID_PARAMETER");
            if let Some(details) = error.get_mut("details") {
                *details = json!([detail]);
            }
            json!({ "success": false, "request_id": "release-refusal", "data": [error.clone()], "error": error })
        };
        traffic.request(id, at(narrowed), 200, Body::Records(None));
        traffic.request(id, at(narrowed + 1), 400, Body::Json(refusal(narrowed + 1)));
        traffic.request(id, at(max), 400, Body::Json(refusal(max)));
        Some(format!(
            "`{}.{}` at most {narrowed} (the spec says {max})",
            s.e.id, p.wire
        ))
    } else {
        let wider = max.saturating_mul(2);
        // A limit the service honours past the spec's bound shows it in more records than
        // the bound (a service capping it would answer no more).
        let paged =
            s.e.paging
                .as_ref()
                .is_some_and(|paging| paging.limit == p.id);
        let more = paged.then(|| usize::try_from(max + 1).unwrap_or(usize::MAX).min(20_001));
        traffic.request(id, at(max), 200, Body::Records(None));
        traffic.request(id, at(max + 1), 200, Body::Records(None));
        traffic.request(id, at(wider), 200, Body::Records(more));
        Some(format!(
            "`{}.{}` up to {wider} (the spec says {max})",
            s.e.id, p.wire
        ))
    }
}

fn default_of(p: &mrds_spec::model::Param) -> Option<i64> {
    match p.default {
        Some(mrds_spec::model::Literal::Integer(n)) => Some(n),
        _ => None,
    }
}

/// The value the example request gives parameter `name`, when an integer.
fn example_of(example: &str, name: &str) -> Option<i64> {
    let (_, query) = example.split_once('?')?;
    (query.split('&'))
        .filter_map(|pair| pair.split_once('='))
        .find(|(n, _)| *n == name)
        .and_then(|(_, v)| v.parse().ok())
}

fn endpoint_with_path(api: &Api, draw: &mut Draw, traffic: &mut Traffic) -> Option<String> {
    let word = draw.word();
    let served = |base: &str| {
        (api.endpoints.iter()).any(|e| e.path.to_string().starts_with(&format!("/v1/{base}")))
    };
    let base = format!("/v1/{}", draw.fresh(&format!("holdings-{word}"), served));
    let entries: Vec<Value> = (0..3)
        .map(|i| {
            let id = 700_100 + i * 17;
            let record = json!({
                "holding_id": id.to_string(),
                "name": format!("Holding {i}"),
                "weight": 0.25 + i as f64 / 10.0,
                "as_of": format!("2026-11-{:02}", 10 + i),
            });
            entry(
                api,
                "GET",
                &format!("{base}/{id}?limit=10"),
                200,
                &envelope(vec![record]),
            )
        })
        .collect();
    traffic.entries.extend(entries);
    Some(format!("`GET {base}/{{id}}`, which the spec does not have"))
}
