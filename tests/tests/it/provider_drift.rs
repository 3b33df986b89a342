//! Following the provider: the generated client notices what a service's answers hold that the
//! spec does not describe (a fake provider: canned answers with a field and a value the spec
//! does not have), keeps each thing once per endpoint and field with a count and examples,
//! traces it once, and writes it as JSON lines; `cargo xtask drift` turns the lines into the
//! spec edits that would describe them (pinned for every kind of finding against the spec-diff
//! corpus' base, `tests/diff/_base/`, whose lines the report names).

use std::path::Path;

use mrds_client::model::params::PersonCommentaryParams;
use mrds_client::{Client, Error, Finding, Observed};
use mrds_runtime::drift::{JsonKind, Source};
use serde_json::{Value, json};

use super::client::{
    KEY, PERSON, commentary_row, dividend, dividends, failure, http, serve, success,
};
use super::client_tracing::record;

/// The provider's answer to every commentary request: three rows, each with a field the spec's
/// `PersonCommentary` does not declare (`sentiment`), the second with a `source_kind` outside
/// the value set `SourceKind`.
fn drifted_rows() -> Value {
    let rows: Vec<Value> = (0..3)
        .map(|i| {
            let mut row = commentary_row(i);
            row["sentiment"] = json!([0.5, -0.25, 0.5][i as usize]);
            if i == 1 {
                row["source_kind"] = json!("podcast");
            }
            row
        })
        .collect();
    Value::Array(rows)
}

fn commentary() -> PersonCommentaryParams {
    PersonCommentaryParams::new(PERSON, 1_700_000_000, 1_710_000_000)
}

/// A client of a fake provider answering every request with `body` (status 200).
async fn provider(body: String) -> Client {
    let server = serve(move |_, _| http(200, &[], &body)).await;
    // The server runs on the test's runtime; its handle only holds the address.
    Client::builder(&server.root)
        .api_key(KEY)
        .no_retries()
        .build()
        .unwrap()
}

fn finding(endpoint: &str, observed: Observed, count: u64, examples: &[&str]) -> Finding {
    Finding {
        count,
        ..Finding::new(
            Source::Client,
            endpoint,
            observed,
            examples.iter().map(|e| e.to_string()).collect(),
        )
    }
}

#[tokio::test]
async fn the_client_notices_a_field_and_a_value_the_spec_does_not_know() {
    let (recording, _guard) = record();
    let client = provider(success(drifted_rows())).await;
    for _ in 0..2 {
        let answer = client.person_commentary(&commentary()).await.unwrap();
        // Tolerance stays: the rows decode as before, the unknown value kept as text.
        assert_eq!(answer.data.len(), 3);
        // Read on the wire, so a release renaming the fields leaves the test compiling.
        let wire = |i: usize, field: &str| mrds_tests::conform::wire_field(&answer.data[i], field);
        assert_eq!(wire(0, "source_kind"), "interview");
        assert_eq!(wire(1, "source_kind"), "podcast");
        assert_eq!(wire(2, "published_at_source"), "page");
    }
    assert_eq!(
        client.drift().findings(),
        [
            finding(
                "person_commentary",
                Observed::UndeclaredField {
                    record: "PersonCommentary".into(),
                    field: "sentiment".into(),
                },
                6,
                &["0.5", "-0.25"],
            ),
            finding(
                "person_commentary",
                Observed::UnknownValue {
                    record: "PersonCommentary".into(),
                    field: "source_kind".into(),
                    value_set: "SourceKind".into(),
                },
                2,
                &["\"podcast\""],
            ),
        ]
    );
    // One WARN event per finding, when it is first seen, under its own target.
    let events: Vec<_> = recording
        .events()
        .into_iter()
        .filter(|e| e.target == "mrds::drift")
        .collect();
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(events.iter().all(|e| e.level == tracing::Level::WARN));
    assert_eq!(events[0].field("kind"), Some("field.undeclared"));
    assert_eq!(events[0].field("record"), Some("PersonCommentary"));
    assert_eq!(events[0].field("field"), Some("sentiment"));
    assert_eq!(events[0].field("example"), Some("0.5"));
    assert_eq!(events[1].field("kind"), Some("value.unknown"));
    assert_eq!(events[1].field("value_set"), Some("SourceKind"));
    assert!(!format!("{events:?}").contains(KEY));
    // Clones share what was seen.
    assert_eq!(client.clone().drift().findings().len(), 2);
}

/// A row with a required field `null` and, where the record has one, a required number sent as
/// text: the answer does not decode, and the client names both (the fields read from the
/// model, so that a release retyping one leaves the test its point).
#[tokio::test]
async fn an_answer_that_does_not_decode_is_walked_for_what_broke_it() {
    use mrds_spec::model::TypeRef;
    let record = mrds_tests::conform::record_named("PitDividend").expect("the dividends' record");
    let required = || (record.fields.iter()).filter(|f| !f.optional && !f.array);
    let nulled = required().next().expect("a required field");
    let mut numbers = required().filter(|f| f.wire != nulled.wire);
    let texted = numbers.find(|f| matches!(f.ty, TypeRef::Number | TypeRef::Integer));
    let mut row = dividend();
    row[&nulled.wire] = Value::Null;
    let mut expected = vec![finding(
        "stock_dividends",
        Observed::RequiredNull {
            record: record.spec_name.clone(),
            field: nulled.wire.clone(),
        },
        1,
        &["null"],
    )];
    if let Some(f) = texted {
        row[&f.wire] = json!("25");
        expected.push(finding(
            "stock_dividends",
            Observed::WrongType {
                record: record.spec_name.clone(),
                field: f.wire.clone(),
                expected: match f.ty {
                    TypeRef::Integer => JsonKind::Integer,
                    _ => JsonKind::Number,
                },
                got: JsonKind::String,
            },
            1,
            &["\"25\""],
        ));
    }
    let client = provider(success(json!([row, dividend()]))).await;
    let result = client.stock_dividends(&dividends()).await;
    assert!(matches!(result, Err(Error::Undecodable(_))), "{result:?}");
    let mut findings = client.drift().findings();
    findings.sort_by(|a, b| format!("{:?}", a.observed).cmp(&format!("{:?}", b.observed)));
    expected.sort_by(|a, b| format!("{:?}", a.observed).cmp(&format!("{:?}", b.observed)));
    assert_eq!(findings, expected);
}

#[tokio::test]
async fn error_answers_are_read_as_error_objects() {
    let body = failure("TOO_EARLY", "not yet", json!([]));
    let server = serve(move |_, _| http(425, &[], &body)).await;
    let client = Client::builder(&server.root).no_retries().build().unwrap();
    let result = client.stock_dividends(&dividends()).await;
    assert!(matches!(result, Err(Error::Api(_))), "{result:?}");
    // The status the code came with: what its line of `error_codes` needs.
    let status = mrds_runtime::drift::Evidence {
        status: Some(425),
        ..Default::default()
    };
    assert_eq!(
        client.drift().findings(),
        [Finding {
            evidence: Some(status),
            ..finding(
                "stock_dividends",
                Observed::UnknownValue {
                    record: "ErrorObject".into(),
                    field: "code".into(),
                    value_set: "ErrorCode".into(),
                },
                2,
                &["\"TOO_EARLY\""],
            )
        }]
    );
}

#[tokio::test]
async fn noticing_can_be_turned_off() {
    let body = success(drifted_rows());
    let server = serve(move |_, _| http(200, &[], &body)).await;
    let client = Client::builder(&server.root)
        .api_key(KEY)
        .notice_drift(false)
        .build()
        .unwrap();
    assert_eq!(
        client
            .person_commentary(&commentary())
            .await
            .unwrap()
            .data
            .len(),
        3
    );
    assert!(client.drift().is_empty());
}

#[tokio::test]
async fn the_clients_findings_become_spec_edits() {
    let client = provider(success(drifted_rows())).await;
    client.person_commentary(&commentary()).await.unwrap();
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("provider_drift_findings.jsonl");
    std::fs::write(&file, client.drift().to_json_lines()).unwrap();
    let outcome = xtask::drift::run(
        &mrds_tests::workspace_root(),
        &xtask::drift::Args {
            files: vec![file],
            apply: false,
        },
    );
    assert_eq!(outcome.code, 1, "{}{}", outcome.stdout, outcome.stderr);
    assert_eq!(outcome.stderr, "");
    let report = outcome.stdout;
    for expected in [
        "2 findings from the client: 2 spec edits\n",
        "1. record `PersonCommentary` gains optional field `sentiment`\n",
        "   seen 3 times by the client on person_commentary; e.g. 0.5, -0.25\n",
        "   spec-diff: `field.added_optional`\n",
        "- { name: sentiment, type: number, optional: true, assumed: \"seen 3 times in the service's answers; not in the interface description\", doc: \"Not in the interface description: seen in the service's answers.\" }\n",
        "2. value set `SourceKind` gains `podcast` (field `source_kind` of `PersonCommentary`)\n",
        "   spec-diff: `value_set.value_added`\n",
        "- { value: podcast }\n",
    ] {
        assert!(report.contains(expected), "{expected:?} not in:\n{report}");
    }
}

#[test]
fn every_kind_of_finding_is_reported_as_the_spec_edit_it_calls_for() {
    let root = mrds_tests::workspace_root();
    let sources = mrds_spec::load::read_dir(&root.join("tests/diff/_base")).unwrap();
    let api = mrds_spec::load_sources(&sources).unwrap();
    let text = std::fs::read_to_string(root.join("tests/drift/findings.jsonl")).unwrap();
    let (findings, problems) = xtask::drift::read(&api, &[("findings.jsonl".into(), text)]);
    assert_eq!(
        problems,
        "drift: findings.jsonl:20: not a finding, skipped: unknown variant \
         `rule.renamed_by_a_later_version`, expected one of `field.undeclared`, \
         `envelope.undeclared`, `value.unknown`, `field.null`, `field.missing`, `field.type`, \
         `rule.stricter`, `rule.looser`, `field.format`, `field.whole_number`, \
         `field.out_of_range`, `endpoint.undocumented` (column 87)\n"
    );
    let options = mrds_follow::Options {
        today: "2026-12-01".into(),
    };
    let report = mrds_follow::report(&api, &sources, &findings, &options);
    assert_eq!(report.problems, None, "the edited spec loads");
    insta::assert_snapshot!("drift_report", report.text);
    insta::assert_snapshot!("drift_diff", report.diff);
    // Applied, the edits leave a spec that loads and asks for nothing more.
    let mut edited = sources.clone();
    for (name, text) in &report.files {
        match edited.iter_mut().find(|(n, _)| n == name) {
            Some(entry) => entry.1 = text.clone(),
            None => edited.push((name.clone(), text.clone())),
        }
    }
    let again = mrds_spec::load_sources(&edited).expect("the edited spec loads");
    mrds_emit::all(&again).expect("the edited spec generates");
    let second = mrds_follow::report(&again, &edited, &findings, &options);
    assert_eq!(second.edits, 0, "{}", second.text);
    assert!(second.files.is_empty());
    // spec-diff reports every check the edits predicted, and finds the breaking ones
    // acknowledged by the history row the edits add.
    spec_diff_as_predicted(&api, &again, &report.predicted);
}

/// spec-diff from `before` to `after` (a spec with a drift report's edits applied) reports
/// every check id the report `predicted`, and passes: the breaking changes are acknowledged by
/// the history row the edits add.
pub(super) fn spec_diff_as_predicted(
    before: &mrds_spec::model::Api,
    after: &mrds_spec::model::Api,
    predicted: &[&str],
) {
    let changes = mrds_diff::compare(before, after);
    let reported: std::collections::BTreeSet<&str> = (changes.contract.iter())
        .chain(&changes.samples)
        .map(|f| f.kind.info().id)
        .collect();
    for id in predicted {
        assert!(reported.contains(id), "{id} predicted, not in {reported:?}");
    }
    let assessment = mrds_diff::assess(&changes, before, after, mrds_diff::Gate::Both);
    assert!(assessment.passed(), "{assessment:?}");
}

#[test]
fn nothing_seen_is_nothing_to_do() {
    let report = mrds_follow::report(
        mrds_tests::real_spec(),
        &[],
        &[],
        &mrds_follow::Options::default(),
    );
    assert_eq!(report.edits, 0);
    assert_eq!(
        report.text,
        "0 findings: 0 spec edits\nNothing was observed that the spec does not describe.\n"
    );
}

/// The provider's commentary rows, `edit` changing each.
fn commentary_rows(n: i64, edit: impl Fn(i64, &mut Value)) -> String {
    let rows: Vec<Value> = (0..n)
        .map(|i| {
            let mut row = commentary_row(i);
            edit(i, &mut row);
            row
        })
        .collect();
    success(Value::Array(rows))
}

#[tokio::test]
async fn whole_numbers_written_as_decimals_are_read_as_integers_and_noticed_as_spelt() {
    // 12.0 and 1e3 name integers: the record decodes; the spelling is the example (written
    // into the text: serde_json would write both back as `1780000000.0`).
    let body = commentary_rows(3, |i, row| {
        row["published_at"] = json!(format!("@{i}"));
    })
    .replace("\"@0\"", "1780000000.0")
    .replace("\"@1\"", "1.78e9")
    .replace("\"@2\"", "1780000002");
    let client = provider(body).await;
    let answer = client.person_commentary(&commentary()).await.unwrap();
    let at: Vec<Option<i64>> = (answer.data.iter())
        .map(|r| mrds_tests::conform::wire_field(r, "published_at").as_i64())
        .collect();
    assert_eq!(
        at,
        [
            Some(1_780_000_000),
            Some(1_780_000_000),
            Some(1_780_000_002)
        ]
    );
    let findings = client.drift().findings();
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(
        findings[0].observed,
        Observed::WholeNumber {
            record: "PersonCommentary".into(),
            field: "published_at".into(),
        }
    );
    assert_eq!(findings[0].count, 2);
    assert_eq!(findings[0].examples, ["1780000000.0", "1.78e9"]);
}

#[tokio::test]
async fn a_value_out_of_its_format_is_noticed_while_decoding() {
    let body = commentary_rows(2, |i, row| {
        if i == 1 {
            row["url"] = json!("example.org/a");
        }
    });
    let client = provider(body).await;
    assert_eq!(
        client
            .person_commentary(&commentary())
            .await
            .unwrap()
            .data
            .len(),
        2
    );
    assert_eq!(
        client.drift().findings(),
        [finding(
            "person_commentary",
            Observed::WrongFormat {
                record: "PersonCommentary".into(),
                field: "url".into(),
                format: "url".into(),
            },
            1,
            &["\"example.org/a\""],
        )]
    );
}

#[tokio::test]
async fn a_page_keeps_the_records_that_decode() {
    let mut broken = dividend();
    broken["payment_date"] = Value::Null;
    let body = success(json!([dividend(), broken, dividend()]));
    // By default the call fails, and the error reads the page as far as it decodes.
    let client = provider(body.clone()).await;
    let result = client.stock_dividends(&dividends()).await;
    let Err(Error::Undecodable(e)) = result else {
        panic!("{result:?}")
    };
    let page = e
        .records::<mrds_client::model::PitDividend>()
        .expect("a page of records");
    assert_eq!(page.records.len(), 2);
    assert_eq!(page.failed, [1]);
    assert_eq!(e.body().map(<[u8]>::len), Some(body.len()));
    // The failure is a finding.
    let kinds: Vec<&str> = client
        .drift()
        .findings()
        .iter()
        .map(|f| f.observed.kind())
        .collect::<Vec<_>>()
        .into_iter()
        .collect();
    assert_eq!(kinds, ["field.null"]);
    // Opted in, the call returns them, the other counted.
    let server = serve(move |_, _| http(200, &[], &body)).await;
    let client = Client::builder(&server.root)
        .api_key(KEY)
        .no_retries()
        .skip_undecodable_records(true)
        .build()
        .unwrap();
    let answer = client.stock_dividends(&dividends()).await.unwrap();
    assert_eq!((answer.data.len(), answer.skipped), (2, 1));
    assert_eq!(client.drift().findings().len(), 1);
}

#[tokio::test]
async fn the_client_reports_a_valid_request_the_service_refuses() {
    let body = failure(
        "INVALID_PARAMETER",
        "1 invalid parameter",
        json!([{"field": "end_time", "got": "1710000000",
                "reason": "the range may span at most 14 days [rule stock_dividends.max_span]"}]),
    );
    let server = serve(move |_, _| http(400, &[], &body)).await;
    let client = Client::builder(&server.root)
        .api_key(KEY)
        .no_retries()
        .build()
        .unwrap();
    let result = client.stock_dividends(&dividends()).await;
    assert!(matches!(result, Err(Error::Api(_))), "{result:?}");
    let findings = client.drift().findings();
    assert_eq!(findings.len(), 1, "{findings:#?}");
    let f = &findings[0];
    assert_eq!(f.source, Source::Client);
    assert_eq!(
        f.observed,
        Observed::RuleLooser {
            rule: Some("stock_dividends.max_span".into()),
            status: 400,
            reason: Some("end_time: the range may span at most 14 days".into()),
        }
    );
    assert!(
        f.examples[0].starts_with("GET /v1/stocks/dividends?"),
        "{f:?}"
    );
    assert!(!f.examples[0].contains(KEY));
    let refused = &f.evidence.as_ref().unwrap().refused;
    assert_eq!(refused["start_time..end_time"].min, 10_000_000);
}

/// `cargo xtask drift --apply` writes the edits into the spec directory in place (and the
/// drafts beside it); run again on the same findings it prints no edit and exits 0; without
/// `--apply` it prints the same edits as a unified diff.
#[test]
fn apply_writes_the_edits_and_a_second_run_asks_for_nothing() {
    let root = mrds_tests::workspace_root();
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("drift_apply");
    let _ = std::fs::remove_dir_all(&scratch);
    let spec = scratch.join("spec");
    for (name, text) in mrds_spec::load::read_dir(&root.join("tests/diff/_base")).unwrap() {
        let path = spec.join(name.strip_prefix("_base/").unwrap());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let findings = root.join("tests/drift/findings.jsonl");
    let args = |apply| xtask::drift::Args {
        files: vec![findings.clone()],
        apply,
    };
    let options = mrds_follow::Options {
        today: "2026-12-01".into(),
    };
    let before = std::fs::read_to_string(spec.join("api.yaml")).unwrap();
    let shown = xtask::drift::run_with(&scratch, &args(false), &options);
    assert_eq!(shown.code, 1, "{}", shown.stderr);
    assert!(
        shown
            .stdout
            .contains("--- a/spec/api.yaml\n+++ b/spec/api.yaml\n"),
        "{}",
        shown.stdout
    );
    assert_eq!(
        std::fs::read_to_string(spec.join("api.yaml")).unwrap(),
        before
    );
    let applied = xtask::drift::run_with(&scratch, &args(true), &options);
    assert_eq!(applied.code, 0, "{}{}", applied.stdout, applied.stderr);
    assert!(
        applied.stdout.contains("wrote spec/api.yaml\n"),
        "{}",
        applied.stdout
    );
    assert!(
        applied.stdout.contains("wrote spec/drafts/trades.yaml\n"),
        "{}",
        applied.stdout
    );
    let after = std::fs::read_to_string(spec.join("api.yaml")).unwrap();
    assert!(after.contains("- { name: ask, type: string, format: numeric_text, doc: Ask price. }"));
    // Comments and the lines no edit touches are as they were.
    assert!(after.starts_with("# The spec every case of the spec-diff corpus starts from"));
    let again = xtask::drift::run_with(&scratch, &args(false), &options);
    assert!(again.stdout.contains(": 0 spec edits"), "{}", again.stdout);
    assert_eq!(again.code, 0, "{}", again.stdout);
}

/// A HAR's request body is judged as the generated server reads it: a body missing a required
/// field is refused under the body's rule, so the service's 400 is no `rule.looser`.
#[test]
fn a_har_body_is_judged_by_the_shape_the_server_reads() {
    let (_, files) = (mrds_tests::fixture_specs().into_iter())
        .find(|(name, _)| name == "body")
        .expect("the body fixture");
    let api = mrds_spec::load_sources(&files).expect("the body fixture loads");
    let e = (api.endpoints.iter())
        .find(|e| e.body.is_some() && e.samples.is_some())
        .expect("an endpoint with a body and samples");
    let samples = e.samples.as_ref().unwrap();
    let entry = |body: &str, status: u16, answer: &str| {
        json!({
            "request": {
                "method": e.method.as_str(),
                "url": format!("http://provider.example{}{}", api.base_path, samples.example),
                "headers": [{"name": api.auth.header, "value": "har-key-0001"}],
                "postData": {"mimeType": "application/json", "text": body}
            },
            "response": {
                "status": status,
                "headers": [{"name": "Content-Type", "value": "application/json"}],
                "content": {"mimeType": "application/json", "text": answer}
            }
        })
    };
    let refusal = format!(
        r#"{{"success": false, "request_id": "r", "error": {{"code": "INVALID_PARAMETER", "message": "body: the request body is not of the body's shape", "details": [{{"field": "body", "rule": "{}"}}]}}}}"#,
        e.body_rule()
    );
    let har = json!({"log": {"version": "1.2", "entries": [entry("{}", 400, &refusal)]}});
    let (findings, problems) = xtask::drift::read(&api, &[("traffic.har".into(), har.to_string())]);
    assert_eq!(problems, "");
    let kinds: Vec<&str> = findings.iter().map(|f| f.observed.kind()).collect();
    assert!(
        !kinds.contains(&"rule.looser"),
        "a body without its required fields is the spec's refusal too: {findings:?}"
    );
}
