//! The requests a drifted provider answers otherwise than the spec says: an answer with a new
//! error code, a parameter's values refused or accepted past its bound, the requests of an
//! endpoint the spec does not have.

use serde_json::{Map, Value, json};

use mrds_spec::model::{Api, ParamLocation, TypeRef, ValueType};

use super::{Body, Traffic, entry, envelope, served};
use crate::release::{Draw, Kind};

pub(super) fn error_code_added(
    api: &Api,
    draw: &mut Draw,
    traffic: &mut Traffic,
) -> Option<String> {
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

/// Where `p` is defined: one definition that endpoints share through a YAML alias is one
/// target, so one release never both narrows and widens it.
fn definition(p: &mrds_spec::model::Param) -> String {
    format!("definition at {}", p.at)
}

pub(super) fn bound(
    api: &Api,
    draw: &mut Draw,
    kind: Kind,
    traffic: &mut Traffic,
) -> Option<String> {
    let served = served(api);
    let candidates: Vec<(usize, &mrds_spec::model::Param, i64, i64)> = (served.iter().enumerate())
        .flat_map(|(i, s)| s.e.params.iter().map(move |p| (i, s, p)))
        .filter(|(_, s, p)| {
            p.location == ParamLocation::Query
                && p.list.is_none()
                && !draw.taken.contains(&format!("{}.{}", s.e.id, p.wire))
                && !draw.taken.contains(&definition(p))
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
    draw.take(definition(p));
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

pub(super) fn endpoint_with_path(
    api: &Api,
    draw: &mut Draw,
    traffic: &mut Traffic,
) -> Option<String> {
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
