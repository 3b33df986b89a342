//! The two ways of noticing against hand-written shapes and types: decoding while noticing
//! returns what plain decoding returns, and notices what the walk notices of an answer that
//! decodes; the walk also notices what makes decoding fail; neither panics on any input.

#![allow(dead_code)] // the value set's generated items the tests do not use

use serde::Deserialize;

use super::*;
use crate::shapes::*;
use crate::{Format, JsonValue, TextFormat};

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Kind {
    Section,
    Exhibit,
    Unknown(String),
}
crate::value_set!(tolerant Kind { Section = "section", Exhibit = "exhibit" });

#[derive(Debug, PartialEq, Deserialize)]
struct Unit {
    name: String,
    kind: Kind,
    size: f64,
    #[serde(default)]
    parent: Option<Box<Unit>>,
    #[serde(default, deserialize_with = "crate::null_as_default")]
    tags: Vec<Kind>,
    #[serde(default)]
    note: Option<String>,
}

#[derive(Debug, PartialEq, Deserialize)]
struct Problem {
    code: String,
    message: String,
}

#[derive(Debug, PartialEq, Deserialize)]
struct Envelope<T> {
    success: bool,
    request_id: String,
    data: Vec<T>,
    #[serde(default)]
    error: Option<Problem>,
    #[serde(default)]
    metadata: Option<JsonValue>,
}

const UNIT: usize = 0;
const PROBLEM: usize = 1;
const TICK: usize = 2;

static SHAPES: Shapes = Shapes {
    envelope: RecordShape::new(
        "envelope",
        &[
            FieldShape::new("success", FieldType::Boolean),
            FieldShape::new("request_id", FieldType::String),
            FieldShape::new("data", FieldType::Records).array(),
            FieldShape::new("error", FieldType::Record(PROBLEM)).optional(),
            FieldShape::new("metadata", FieldType::Any).optional(),
            // In the spec, not in the decoded type.
            FieldShape::new("warnings", FieldType::String)
                .array()
                .optional(),
        ],
    ),
    records: &[
        RecordShape::new(
            "Unit",
            &[
                FieldShape::new("name", FieldType::String),
                FieldShape::new("kind", FieldType::ValueSet(0)),
                FieldShape::new("size", FieldType::Number),
                FieldShape::new("parent", FieldType::Record(UNIT)).optional(),
                FieldShape::new("tags", FieldType::ValueSet(0))
                    .array()
                    .optional(),
                FieldShape::new("note", FieldType::String).optional(),
            ],
        ),
        RecordShape::new(
            "Problem",
            &[
                FieldShape::new("code", FieldType::ValueSet(1)),
                FieldShape::new("message", FieldType::String),
            ],
        ),
        RecordShape::new(
            "Tick",
            &[
                FieldShape::new("day", FieldType::String).format(Format::Text(TextFormat::Date)),
                FieldShape::new("at", FieldType::Integer).format(Format::UnixSeconds),
                FieldShape::new("n", FieldType::Integer),
                FieldShape::new("ns", FieldType::Integer).array().optional(),
                FieldShape::new("links", FieldType::String)
                    .format(Format::Url)
                    .array()
                    .optional(),
            ],
        ),
    ],
    value_sets: &[
        ValueSetShape {
            name: "UnitKind",
            values: &["section", "exhibit"],
        },
        ValueSetShape {
            name: "ErrorCode",
            values: &["INVALID_PARAMETER"],
        },
    ],
    endpoints: &[
        EndpointShape {
            id: "units",
            returns: UNIT,
        },
        EndpointShape {
            id: "ticks",
            returns: TICK,
        },
    ],
    error_object: PROBLEM,
};

/// Decodes `body` plainly and while noticing: both results (as debug text, so errors compare
/// too) and the findings of the noticing decode.
fn both(body: &str) -> (String, String, Vec<Finding>) {
    let plain = serde_json::from_str::<Envelope<Unit>>(body);
    let mut de = serde_json::Deserializer::from_str(body);
    let (noticing, noticed) = decode_noticing::<Envelope<Unit>, _>(&SHAPES, "units", &mut de);
    let noticing = noticing.and_then(|v| de.end().map(|()| v));
    (
        format!("{plain:?}"),
        format!("{noticing:?}"),
        noticed.findings("units", Source::Client),
    )
}

fn walked(status: u16, body: &str) -> Vec<Finding> {
    check_answer(&SHAPES, "units", status, body.as_bytes()).findings("units", Source::Client)
}

/// The findings as `(kind, record, field, count, examples)`.
fn summary(findings: &[Finding]) -> Vec<(String, String, String, u64, Vec<String>)> {
    findings
        .iter()
        .map(|f| {
            (
                f.observed.kind().to_string(),
                f.observed.record().unwrap_or_default().to_string(),
                f.observed.field().unwrap_or_default().to_string(),
                f.count,
                f.examples.clone(),
            )
        })
        .collect()
}

fn s(
    kind: &str,
    record: &str,
    field: &str,
    count: u64,
    examples: &[&str],
) -> (String, String, String, u64, Vec<String>) {
    (
        kind.into(),
        record.into(),
        field.into(),
        count,
        examples.iter().map(|e| e.to_string()).collect(),
    )
}

const DRIFTED: &str = r#"{"success": true, "request_id": "r1", "trace": {"id": 7}, "data": [
    {"name": "a", "kind": "section", "size": 1, "currency": "USD", "tags": ["exhibit", "annex"]},
    {"name": "b", "kind": "appendix", "size": 2.5, "currency": "EUR",
     "parent": {"name": "p", "kind": "part", "size": 3, "depth": 1}},
    {"name": "c", "kind": "appendix", "size": 3, "currency": "USD", "note": null, "tags": null,
     "cur\u0072ency": "GBP"}
  ], "warnings": ["x"], "metadata": {"anything": [1, 2]}}"#;

#[test]
fn decoding_while_noticing_returns_what_plain_decoding_returns() {
    let (plain, noticing, findings) = both(DRIFTED);
    assert_eq!(plain, noticing);
    assert!(plain.starts_with("Ok("), "{plain}");
    assert_eq!(
        summary(&findings),
        [
            s(
                "envelope.undeclared",
                "envelope",
                "trace",
                1,
                &[r#"{"id":7}"#]
            ),
            s(
                "field.undeclared",
                "Unit",
                "currency",
                4,
                &[r#""USD""#, r#""EUR""#, r#""GBP""#]
            ),
            s("value.unknown", "Unit", "tags", 1, &[r#""annex""#]),
            s(
                "value.unknown",
                "Unit",
                "kind",
                3,
                &[r#""appendix""#, r#""part""#]
            ),
            s("field.undeclared", "Unit", "depth", 1, &["1"]),
        ]
    );
    // The walk notices the same things of an answer that decodes.
    let mut walked = summary(&walked(200, DRIFTED));
    let mut inline = summary(&findings);
    walked.sort();
    inline.sort();
    assert_eq!(walked, inline);
}

#[test]
fn what_the_decoding_skips_but_the_spec_declares_is_not_drift() {
    // `warnings` is in the spec's envelope, not in the decoded type.
    let (_, _, findings) = both(
        r#"{"success": true, "request_id": "r", "data": [], "warnings": ["slow"], "error": null}"#,
    );
    assert!(findings.is_empty(), "{findings:?}");
}

#[test]
fn failures_decode_alike_and_the_walk_names_what_broke_them() {
    let body = r#"{"success": true, "request_id": "r", "data": [
        {"name": null, "kind": "section", "size": "2.5"},
        {"kind": "section", "size": 1, "tags": "section"},
        {"name": "x", "kind": 3, "size": 1, "parent": [1]}
    ]}"#;
    let (plain, noticing, _) = both(body);
    assert_eq!(plain, noticing);
    assert!(plain.starts_with("Err("), "{plain}");
    let mut found = summary(&walked(200, body));
    found.sort();
    assert_eq!(
        found,
        [
            s("field.missing", "Unit", "name", 1, &[]),
            s("field.null", "Unit", "name", 1, &["null"]),
            s("field.type", "Unit", "kind", 1, &["3"]),
            s("field.type", "Unit", "parent", 1, &["[1]"]),
            s("field.type", "Unit", "size", 1, &[r#""2.5""#]),
            s("field.type", "Unit", "tags", 1, &[r#""section""#]),
        ]
    );
    let types: Vec<_> = walked(200, body)
        .into_iter()
        .filter_map(|f| match f.observed {
            Observed::WrongType {
                field,
                expected,
                got,
                ..
            } => Some((field, expected, got)),
            _ => None,
        })
        .collect();
    assert!(types.contains(&("size".into(), JsonKind::Number, JsonKind::String)));
    assert!(types.contains(&("tags".into(), JsonKind::Array, JsonKind::String)));
}

#[test]
fn error_answers_are_read_as_error_objects() {
    let body = r#"{"success": false, "request_id": "r",
        "data": [{"code": "TOO_EARLY", "message": "m", "retry": 3}],
        "error": {"code": "TOO_EARLY", "message": "m", "retry": 3}}"#;
    let found = summary(&walked(425, body));
    assert_eq!(
        found,
        [
            s("value.unknown", "Problem", "code", 2, &[r#""TOO_EARLY""#]),
            s("field.undeclared", "Problem", "retry", 2, &["3"]),
        ]
    );
    // A 2xx answer saying `success: false` first is a failure envelope too.
    assert_eq!(summary(&walked(200, body)), found);
}

#[test]
fn an_endpoint_the_shapes_do_not_know_is_not_read() {
    assert!(check_answer(&SHAPES, "other", 200, DRIFTED.as_bytes()).is_empty());
    let mut de = serde_json::Deserializer::from_str(DRIFTED);
    let (result, noticed) = decode_noticing::<Envelope<Unit>, _>(&SHAPES, "other", &mut de);
    assert!(result.is_ok() && noticed.is_empty());
    assert!(check_answer(&Shapes::NONE, "units", 200, DRIFTED.as_bytes()).is_empty());
}

#[test]
fn neither_way_panics_on_any_input() {
    let mut inputs: Vec<String> = vec![
        String::new(),
        "null".into(),
        "[]".into(),
        "{".into(),
        r#"{"data": {"name": 1}}"#.into(),
        r#"{"data": [[[[]]]], "success": "yes"}"#.into(),
        format!("{}{}", "[".repeat(500), "]".repeat(500)),
        format!(r#"{{"data": [{}]}}"#, "{\"parent\":".repeat(300)),
    ];
    for cut in (0..DRIFTED.len()).step_by(7) {
        inputs.push(DRIFTED[..cut].to_string());
    }
    for input in &inputs {
        let (plain, noticing, _) = both(input);
        assert_eq!(plain, noticing, "{input}");
        for status in [200, 500] {
            let _ = walked(status, input);
        }
    }
}

#[test]
fn many_records_count_each_thing_once_per_field() {
    let row = r#"{"name": "a", "kind": "section", "size": 1, "extra": 1}"#;
    let body = format!(
        r#"{{"success": true, "request_id": "r", "data": [{}]}}"#,
        vec![row; 500].join(",")
    );
    let (plain, noticing, findings) = both(&body);
    assert_eq!(plain, noticing);
    assert_eq!(
        summary(&findings),
        [s("field.undeclared", "Unit", "extra", 500, &["1"])]
    );
}

#[test]
fn a_value_serde_json_skips_but_cannot_read_fails_only_the_noticing_decoding() {
    // serde_json skips a value it could not read (text that is not UTF-8, a lone surrogate, a
    // number past f64, deeper nesting than it reads); the noticing pass reads the first values
    // of an undeclared field as examples, so such a value fails it where plain decoding goes
    // on. `decode_noticing` says so, and the client decodes such an answer again, plainly.
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    for value in [&b"\"\xff\""[..], br#""\ud800""#, b"1e400", deep.as_bytes()] {
        let body = [
            &br#"{"success": true, "request_id": "r", "data": [{"name": "a", "kind": "section", "size": 1, "extra": "#[..],
            value,
            b"}]}",
        ]
        .concat();
        let plain = serde_json::from_slice::<Envelope<Unit>>(&body);
        assert!(plain.is_ok(), "{plain:?}");
        let mut de = serde_json::Deserializer::from_slice(&body);
        let (noticing, _) = decode_noticing::<Envelope<Unit>, _>(&SHAPES, "units", &mut de);
        assert!(noticing.is_err(), "{noticing:?}");
    }
}

#[test]
fn a_long_undeclared_name_is_cut_both_ways() {
    let long = "x".repeat(NAME_LIMIT + 50);
    let body = format!(
        r#"{{"success": true, "request_id": "r", "data": [{{"name": "a", "kind": "section", "size": 1, "{long}": 1, "{long}y": 2}}]}}"#
    );
    let cut = format!("{}…", "x".repeat(NAME_LIMIT));
    let (plain, noticing, findings) = both(&body);
    assert_eq!(plain, noticing);
    for findings in [findings, walked(200, &body)] {
        // Two names that agree to the limit are one finding.
        assert_eq!(
            summary(&findings),
            [s("field.undeclared", "Unit", &cut, 2, &["1", "2"])]
        );
    }
}

#[test]
fn the_walk_checks_formats_and_reads_integers_as_spelt() {
    let body = r#"{"success": true, "request_id": "r", "data": [
        {"day": "2026-11-16", "at": 1700000000, "n": 12, "ns": [1, 2], "links": ["https://a.example/x"]},
        {"day": "2026/11/16", "at": 1700000000000, "n": 12.0, "ns": [1e3, 2.5], "links": ["a.example/x"]},
        {"day": "16.11.2026", "at": 1, "n": 9223372036854775808, "ns": [-1E2], "links": []},
        {"day": "2026-11-17", "at": 2, "n": null, "ns": null}
    ]}"#;
    let found =
        check_answer(&SHAPES, "ticks", 200, body.as_bytes()).findings("ticks", Source::Proxy);
    let mut found = summary(&found);
    found.sort();
    assert_eq!(
        found,
        [
            s("field.format", "Tick", "at", 1, &["1700000000000"]),
            s(
                "field.format",
                "Tick",
                "day",
                2,
                &[r#""2026/11/16""#, r#""16.11.2026""#]
            ),
            s("field.format", "Tick", "links", 1, &[r#""a.example/x""#]),
            s("field.null", "Tick", "n", 1, &["null"]),
            s(
                "field.out_of_range",
                "Tick",
                "n",
                1,
                &["9223372036854775808"]
            ),
            s("field.type", "Tick", "ns", 1, &["2.5"]),
            s("field.whole_number", "Tick", "n", 1, &["12.0"]),
            s("field.whole_number", "Tick", "ns", 2, &["1e3", "-1E2"]),
        ]
    );
    let line =
        check_answer(&SHAPES, "ticks", 200, body.as_bytes()).findings("ticks", Source::Proxy);
    let format = line
        .iter()
        .find(|f| f.observed.kind() == "field.format")
        .unwrap();
    assert_eq!(
        format.observed,
        Observed::WrongFormat {
            record: "Tick".into(),
            field: "day".into(),
            format: "date".into()
        }
    );
}

#[test]
fn an_unknown_error_code_carries_its_status() {
    let body =
        r#"{"success": false, "request_id": "r", "error": {"code": "TOO_EARLY", "message": "m"}}"#;
    let found =
        check_answer(&SHAPES, "units", 425, body.as_bytes()).findings("units", Source::Client);
    let code = found
        .iter()
        .find(|f| f.observed.kind() == "value.unknown")
        .unwrap();
    assert_eq!(code.evidence.as_ref().and_then(|e| e.status), Some(425));
    let others = found
        .iter()
        .filter(|f| f.observed.kind() != "value.unknown");
    assert!(others.clone().all(|f| f.evidence.is_none()), "{found:?}");
}

#[derive(Debug, PartialEq, Deserialize)]
struct Tick {
    day: String,
    at: i64,
    n: i64,
    #[serde(default, deserialize_with = "crate::null_as_default")]
    ns: Vec<i64>,
    #[serde(default, deserialize_with = "crate::null_as_default")]
    links: Vec<String>,
}

#[test]
fn decoding_checks_the_formats_of_the_first_values_of_an_answer() {
    let row = |i: usize, day: &str| {
        format!(
            r#"{{"day": "{day}", "at": {}, "n": {i}, "links": ["https://a.example/{i}", "a.example"]}}"#,
            if i == 1 {
                1_700_000_000_000u64
            } else {
                1_700_000_000
            }
        )
    };
    let mut rows: Vec<String> = (0..200).map(|i| row(i, "2026-11-16")).collect();
    rows[0] = row(0, "2026/11/16");
    rows[150] = row(150, "16.11.2026");
    let body = format!(
        r#"{{"success": true, "request_id": "r", "data": [{}]}}"#,
        rows.join(",")
    );
    let plain = serde_json::from_str::<Envelope<Tick>>(&body);
    let mut de = serde_json::Deserializer::from_str(&body);
    let (noticing, noticed) = decode_noticing::<Envelope<Tick>, _>(&SHAPES, "ticks", &mut de);
    assert_eq!(format!("{plain:?}"), format!("{noticing:?}"));
    let mut found = summary(&noticed.findings("ticks", Source::Client));
    found.sort();
    // The first values only (64 values: 21 records of three fields with a format, and the
    // day of the 22nd): the day of record 150 is past the checks of the answer.
    assert_eq!(
        found,
        [
            s("field.format", "Tick", "at", 1, &["1700000000000"]),
            s("field.format", "Tick", "day", 1, &[r#""2026/11/16""#]),
            s("field.format", "Tick", "links", 21, &[r#""a.example""#]),
        ]
    );
    // The walk reads every value.
    let walked =
        check_answer(&SHAPES, "ticks", 200, body.as_bytes()).findings("ticks", Source::Proxy);
    let day = walked
        .iter()
        .find(|f| f.observed.field() == Some("day"))
        .unwrap();
    assert_eq!(day.count, 2);
}
