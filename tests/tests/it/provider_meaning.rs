//! Edits that keep the samples' meaning: a provider sending a served endpoint's range field (a
//! `format: date` string) as integers `YYYYMMDD`. The drift report's edit retypes the field and
//! writes each sample date as the same day in the service's spelling; the sample server reads
//! an integer as Unix seconds, so the report rewrites each example request whose range no
//! longer spans its records, and every served example still answers records (asked of the
//! runtime's engine through the tables `mrds_spec::model::samples` builds at run time).

use std::collections::BTreeSet;

use mrds_runtime::drift::{Finding, JsonKind, Observed, Source};
use mrds_runtime::{Format, TextFormat};
use mrds_spec::model::samples::example_answer;
use mrds_spec::model::{Api, Endpoint, SampleField, TypeRef};
use serde_json::Value;

/// The served endpoints whose samples' range compares a string field of `format: date`, with
/// the record and the field: read from the model.
fn date_ranges(api: &Api) -> Vec<(&Endpoint, String, String)> {
    (api.endpoints.iter())
        .filter(|e| e.removed.is_none())
        .filter_map(|e| {
            let range = e.samples.as_ref()?.range.as_ref()?;
            let SampleField::Fixed(id) = range.field else {
                return None;
            };
            let record = api.returns(e);
            let f = record.field(id);
            let date = f.ty == TypeRef::String
                && f.format == Some(Format::Text(TextFormat::Date))
                && !f.array;
            date.then(|| (e, record.spec_name.clone(), f.wire.clone()))
        })
        .collect()
}

/// The served endpoints of `api` whose example request answers sample records.
fn answering(api: &Api) -> BTreeSet<String> {
    (api.endpoints.iter())
        .filter(|e| e.removed.is_none())
        .filter(|e| matches!(example_answer(api, e), Some(Ok(r)) if !r.is_empty()))
        .map(|e| e.id.clone())
        .collect()
}

/// The values of `field` in the sample records of `e`, in order.
fn sample_values(e: &Endpoint, field: &str) -> Vec<Value> {
    let sets = e.samples.iter().flat_map(|s| &s.sets);
    sets.flat_map(|set| serde_json::from_str::<Vec<Value>>(&set.records_json).unwrap())
        .filter_map(|r| r.get(field).cloned())
        .collect()
}

#[test]
fn dates_sent_as_integers_keep_every_example_answering() {
    let root = mrds_tests::workspace_root();
    let sources = mrds_spec::load::read_dir(&root.join("spec")).unwrap();
    let api = mrds_spec::load_sources(&sources).unwrap_or_else(|d| panic!("{d}"));
    let targets = date_ranges(&api);
    assert!(
        !targets.is_empty(),
        "no served endpoint's samples range over a date: pick another target"
    );
    let before = answering(&api);
    assert!(
        targets.iter().all(|(e, _, _)| before.contains(&e.id)),
        "an example answers no records before the edits"
    );
    let findings: Vec<Finding> = (targets.iter())
        .map(|(e, record, field)| {
            let observed = Observed::WrongType {
                record: record.clone(),
                field: field.clone(),
                expected: JsonKind::String,
                got: JsonKind::Integer,
            };
            let examples = vec!["20261120".to_string(), "20261116".to_string()];
            Finding::new(Source::Proxy, e.id.clone(), observed, examples)
        })
        .collect();
    let options = mrds_follow::Options {
        today: "2026-12-01".into(),
    };
    let report = mrds_follow::report(&api, &sources, &findings, &options);
    assert_eq!(report.problems, None, "{}", report.text);
    assert_eq!(report.by_hand, 0, "{}", report.text);

    let edited = report.applied_to(&sources);
    let again = mrds_spec::load_sources(&edited).unwrap_or_else(|d| panic!("{d}"));
    // Every example that answered records still does.
    let after = answering(&again);
    let lost: Vec<&String> = before.difference(&after).collect();
    assert!(
        lost.is_empty(),
        "examples answering none: {lost:?}\n{}",
        report.text
    );

    for (e, _, field) in &targets {
        let now = again.endpoints.iter().find(|n| n.id == e.id).unwrap();
        // Each sample date is the same day, written as the service writes it, in order.
        let days: Vec<Value> = (sample_values(e, field).iter())
            .map(|v| match v {
                Value::String(s) => Value::from(s.replace('-', "").parse::<i64>().unwrap()),
                other => other.clone(),
            })
            .collect();
        assert_eq!(sample_values(now, field), days, "{}", e.id);
        // The report says which example it rewrote, and to what.
        let (old, new) = (
            &e.samples.as_ref().unwrap().example,
            &now.samples.as_ref().unwrap().example,
        );
        assert_ne!(old, new, "the example of {} is as it was", e.id);
        for said in [
            format!("leaves the example request of `{}`", e.id),
            format!("range is rewritten to span them: `{new}`"),
        ] {
            assert!(
                report.text.contains(&said),
                "{said:?} not in:\n{}",
                report.text
            );
        }
    }
    assert!(
        report.predicted.contains(&"samples.changed"),
        "{:?}",
        report.predicted
    );

    // A second report over the same findings asks for nothing.
    let second = mrds_follow::report(&again, &edited, &findings, &options);
    assert_eq!(second.edits, 0, "{}", second.text);
    assert!(second.files.is_empty(), "{}", second.text);
}

/// A spec of its own (on the fixtures' `base.yaml`): daily readings selected by a range of
/// RFC 3339 parameters under a `max_span`, and the reading of one day selected by a filter
/// (what no range rewrite mends).
const READINGS: &str = r#"
records:
  Reading:
    doc: A reading of one day.
    fields:
      - { name: day, type: string, format: date, doc: The day. }
      - { name: value, type: number, doc: The value. }
endpoints:
  readings:
    method: GET
    path: /v1/readings
    summary: Readings in a range.
    auth: required
    returns: Reading
    params:
      - { name: from, in: query, type: string, format: rfc3339, required: true, doc: Start. }
      - { name: to, in: query, type: string, format: rfc3339, required: true, doc: End. }
    rules:
      - id: readings.max_span
        doc: The range is at most a week.
        max_span: { from: from, to: to, seconds: 604800 }
  reading:
    method: GET
    path: /v1/reading
    summary: The reading of one day.
    auth: required
    returns: Reading
    params:
      - { name: day, in: query, type: string, format: date, required: true, doc: The day. }
samples:
  readings:
    example: /v1/readings?from=2026-11-16T00:00:00Z&to=2026-11-18T00:00:00Z
    range: { from: from, to: to, field: day }
    sets:
      - records:
          - { day: "2026-11-16", value: 1.5 }
          - { day: "2026-11-17", value: 2.5 }
          - { day: "2026-11-18", value: 3.5 }
  reading:
    example: /v1/reading?day=2026-11-17
    filter: { day: day }
    sets:
      - records:
          - { day: "2026-11-16", value: 1.5 }
          - { day: "2026-11-17", value: 2.5 }
"#;

#[test]
fn an_example_a_range_cannot_mend_is_left_by_hand_and_one_it_can_is_rewritten_in_its_format() {
    let base = mrds_tests::workspace_root().join("tests/fixtures/base.yaml");
    let sources = vec![
        (
            "base.yaml".to_string(),
            std::fs::read_to_string(base).unwrap(),
        ),
        ("readings.yaml".to_string(), READINGS.to_string()),
    ];
    let api = mrds_spec::load_sources(&sources).unwrap_or_else(|d| panic!("{d}"));
    let (ranged, record, field) = date_ranges(&api).pop().expect("a range over a date");
    let filtered = (api.endpoints.iter())
        .find(|e| e.samples.as_ref().is_some_and(|s| !s.filter.is_empty()))
        .expect("an endpoint whose samples filter");
    let observed = Observed::WrongType {
        record,
        field,
        expected: JsonKind::String,
        got: JsonKind::Integer,
    };
    let examples = vec!["20261117".to_string()];
    let findings = [Finding::new(Source::Client, &ranged.id, observed, examples)];
    let options = mrds_follow::Options {
        today: "2026-12-01".into(),
    };
    let report = mrds_follow::report(&api, &sources, &findings, &options);
    assert_eq!(report.problems, None, "{}", report.text);
    assert_eq!(report.by_hand, 1, "{}", report.text);
    for said in [
        format!("edit 1 leaves the example request of `{}`", filtered.id),
        "a filter no longer matches: to be written by hand".to_string(),
        "1 example request to be rewritten by hand".to_string(),
    ] {
        assert!(
            report.text.contains(&said),
            "{said:?} not in:\n{}",
            report.text
        );
    }

    let edited = report.applied_to(&sources);
    let again = mrds_spec::load_sources(&edited).unwrap_or_else(|d| panic!("{d}"));
    let now = |id: &str| again.endpoints.iter().find(|e| e.id == id).unwrap();
    // The range's example answers records again, its ends RFC 3339 text as its parameters are.
    let answered = answering(&again);
    assert!(answered.contains(&ranged.id), "{}", report.text);
    assert!(!answered.contains(&filtered.id), "{}", report.text);
    let values = &now(&ranged.id).samples.as_ref().unwrap().example_values;
    assert!(!values.is_empty());
    assert!(
        values.iter().all(|(_, v)| TextFormat::Rfc3339.holds(v)),
        "{values:?}"
    );
    let second = mrds_follow::report(&again, &edited, &findings, &options);
    assert_eq!(second.edits, 0, "{}", second.text);
}
