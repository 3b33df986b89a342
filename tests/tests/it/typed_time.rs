//! Typed time, the model crate's `jiff` feature (this test crate turns it on), read from the
//! model rather than restating the spec: the conversions the generated `_jiff` constructors and
//! setters call write the wire's plain forms, the date and time fields of every sample record
//! read with the functions the generated accessors call, and the server takes the ISO 8601
//! basic offset (`+0000`) that generated clients send as well as RFC 3339's `+00:00`, on an
//! endpoint of the spec with an RFC 3339 parameter. Which accessor and which conversion each
//! format gets is the emitter's, pinned by the fixture snapshots (`time_kinds`); the generated
//! docs' `typed_time` snippet compiles them against the real spec.

use mrds_model::runtime::time::{self, Timestamp};
use mrds_spec::model::{Api, Format, Method, ParamLocation, TextFormat, TimeFormat, TypeRef};
use serde_json::Value;
use tower::ServiceExt;

fn at(text: &str) -> Timestamp {
    text.parse().unwrap()
}

fn api() -> &'static Api {
    mrds_tests::real_spec()
}

/// What a `_jiff` constructor or setter writes: Unix seconds, or RFC 3339 text in UTC.
#[test]
fn time_values_are_written_in_the_wire_forms() {
    assert_eq!(
        time::unix_seconds(at("2025-01-01T00:00:00Z")),
        1_735_689_600
    );
    assert_eq!(time::unix_seconds(at("1970-01-01T00:00:01Z")), 1);
    assert_eq!(
        time::unix_seconds(at("2026-01-01T00:00:00+01:00")),
        1_767_222_000
    );
    assert_eq!(
        time::rfc3339(at("2026-11-17T00:00:00Z")),
        "2026-11-17T00:00:00Z"
    );
    assert_eq!(
        time::rfc3339(at("2026-11-18T12:00:00.5+02:00")),
        "2026-11-18T10:00:00.5Z"
    );
    // Read back, the same instants: a rule comparing them sees what the caller meant.
    let text = time::rfc3339(at("2026-11-18T12:00:00.5+02:00"));
    assert_eq!(
        time::parse_timestamp(&text).unwrap(),
        at("2026-11-18T10:00:00.5Z")
    );
    assert_eq!(
        time::from_unix_seconds(1_735_689_600).unwrap(),
        at("2025-01-01T00:00:00Z")
    );
}

/// Every date and time field of every sample record of the spec reads as its `jiff` type, so
/// the typed accessors work on what the sample server answers; a value not of its format is an
/// error, not a panic.
#[test]
fn every_time_field_of_every_sample_record_parses() {
    let api = api();
    let mut checked = 0;
    for e in &api.endpoints {
        let record = api.returns(e);
        for set in e.samples.iter().flat_map(|s| &s.sets) {
            let records: Vec<Value> = serde_json::from_str(&set.records_json).unwrap();
            for r in &records {
                for f in &record.fields {
                    let (Some(format), Some(value)) = (f.format, r.get(&f.wire)) else {
                        continue;
                    };
                    let values = match value {
                        Value::Array(items) => items.clone(),
                        Value::Null => Vec::new(),
                        one => vec![one.clone()],
                    };
                    for v in values {
                        let ok = match (format, &f.ty) {
                            (Format::Text(TextFormat::Date), _) => {
                                time::parse_date(v.as_str().unwrap()).is_ok()
                            }
                            (Format::DateTime, _) => {
                                time::parse_date_time(v.as_str().unwrap()).is_ok()
                            }
                            (
                                Format::Timestamp
                                | Format::TimestampMillis
                                | Format::Text(TextFormat::Rfc3339),
                                _,
                            ) => time::parse_timestamp(v.as_str().unwrap()).is_ok(),
                            (Format::UnixSeconds, TypeRef::Integer) => {
                                time::from_unix_seconds(v.as_i64().unwrap()).is_ok()
                            }
                            _ => continue,
                        };
                        assert!(ok, "{}: {}.{} = {v}", e.id, record.spec_name, f.wire);
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 0, "no time values in the samples");
    for bad in ["soon", "2026-13-01", ""] {
        assert!(time::parse_date(bad).is_err(), "{bad}");
        assert!(time::parse_timestamp(bad).is_err(), "{bad}");
    }
}

/// What the sample server answers `target` (below the base path) with: status and body.
async fn answer(target: &str) -> (u16, Value) {
    let app = mrds_mock::router(mrds_server::StaticKeys::new(["k"]));
    let request = mrds_server::axum::http::Request::get(format!("/api{target}"))
        .header(mrds_mock::AUTH_HEADER, "k")
        .body(mrds_server::axum::body::Body::empty())
        .unwrap();
    let response = app.oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    let bytes = mrds_server::axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    (status, serde_json::from_slice(&bytes).unwrap())
}

/// The example request of the first served `GET` endpoint of the spec whose example gives an
/// RFC 3339 query parameter a value, and the names of those parameters.
fn rfc3339_example() -> Option<(String, String, Vec<String>)> {
    let api = api();
    (api.endpoints.iter().filter(|e| e.method == Method::Get)).find_map(|e| {
        let example = mrds_tests::example_while_served(&e.id)?;
        let query = mrds_tests::example_query(&e.id);
        let names: Vec<String> = (e.params.iter())
            .filter(|p| {
                p.location == ParamLocation::Query
                    && p.time_format() == Some(TimeFormat::Rfc3339)
                    && query.iter().any(|(n, _)| *n == p.wire)
            })
            .map(|p| p.wire.clone())
            .collect();
        let path = example
            .request
            .split_once('?')
            .map_or(example.request, |(p, _)| p);
        (!names.is_empty()).then(|| (e.id.clone(), path.to_string(), names))
    })
}

/// `path` with `query`, each value percent-encoded.
fn target(path: &str, query: &[(String, String)]) -> String {
    let pairs: Vec<String> = (query.iter())
        .map(|(n, v)| format!("{n}={}", mrds_runtime::text::percent_encode(v)))
        .collect();
    format!("{path}?{}", pairs.join("&"))
}

#[tokio::test]
async fn the_server_takes_rfc3339_and_iso_8601_basic_offsets() {
    let Some((id, path, names)) = rfc3339_example() else {
        eprintln!("the spec has no served example with an RFC 3339 query parameter");
        return;
    };
    let query = mrds_tests::example_query(&id);
    // The example's instants in three spellings: as the example has them, with `+00:00` (RFC
    // 3339), and with `+0000` and microseconds (what OpenAPI Generator's Python client sends).
    let spelled = |spell: &dyn Fn(Timestamp) -> String| -> Vec<(String, String)> {
        (query.iter())
            .map(|(n, v)| match names.contains(n) {
                true => (n.clone(), spell(time::parse_timestamp(v).unwrap())),
                false => (n.clone(), v.clone()),
            })
            .collect()
    };
    let (status, example) = answer(&target(&path, &query)).await;
    assert_eq!(status, 200, "{id}: {example}");
    for spell in [
        &(|t: Timestamp| t.strftime("%Y-%m-%dT%H:%M:%S+00:00").to_string())
            as &dyn Fn(Timestamp) -> String,
        &|t: Timestamp| t.strftime("%Y-%m-%dT%H:%M:%S.%6f+0000").to_string(),
    ] {
        let spelled = spelled(spell);
        let (status, body) = answer(&target(&path, &spelled)).await;
        assert_eq!(status, 200, "{id} {spelled:?}: {body}");
        assert_eq!(body["data"], example["data"], "{id} {spelled:?}");
    }
    // An offset with neither form, or no offset, is invalid.
    for bad in ["2026-11-17T00:00:00+00", "2026-11-17T00:00:00"] {
        let broken: Vec<(String, String)> = (query.iter())
            .map(|(n, v)| match *n == names[0] {
                true => (n.clone(), bad.to_string()),
                false => (n.clone(), v.clone()),
            })
            .collect();
        let (status, body) = answer(&target(&path, &broken)).await;
        assert_eq!(status, 400, "{id} {bad}: {body}");
    }
}
