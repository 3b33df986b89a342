//! The drift loop closed, end to end: a fake provider (the sample server, drifted ten ways from
//! the spec) behind the checking proxy, the contract suite's requests through it; every drift
//! is found; `cargo xtask drift`'s edits, applied to a copy of the spec's files in memory, load
//! and generate; a second report over the same findings asks for nothing; spec-diff reports
//! the checks the edits predicted and finds the breaking ones acknowledged. The proxy's HAR
//! file, read back, yields the findings the proxy recorded.
//!
//! The ten drifts, each on the first endpoint and field of the resolved model that can carry
//! it (none is named here) and that no hand-written code of the workspace reads (a drift there
//! changes a Rust type under it): a field the record does not declare, a value outside a value
//! set, a required field `null`, one missing, integers sent as `12.0` and `1e3`, a date
//! written `2026/11/16`, a field the envelope does not declare, an error code the spec does
//! not have, a paging limit past the spec's maximum taken as the maximum (the answer capped at
//! it), and ranges longer than 14 days refused although the spec accepts them. (A number sent
//! as text is in the pinned report of `provider_drift`: every record's number fields are read
//! by the documented answers `model_decode` decodes, which such a retype breaks by design.)
//!
//! The explicit run `follow::following_the_provider_keeps_the_workspace_green` applies these
//! edits with `cargo xtask drift --apply` to a scratch copy of the workspace, after the watch's
//! (`provider_watch::apply_the_edits_of_a_watch_and_of_the_proxy`), and runs `cargo xtask
//! codegen` and `cargo test --workspace` there (CI: `.ci/exhaustive`).

use std::collections::BTreeSet;
use std::sync::Arc;

use mrds_client::model::api::BASE_PATH;
use mrds_runtime::drift::{Finding, Observed};
use mrds_runtime::proxy::Proxy;
use mrds_runtime::text::instant_seconds;
use mrds_server::axum::body::{Body, to_bytes};
use mrds_server::axum::extract::Request;
use mrds_server::axum::http;
use mrds_server::axum::middleware::Next;
use mrds_server::axum::response::Response;
use mrds_spec::model::{Format, IntegerFormat, Requirement, TextFormat, TypeRef, ValueType};
use serde_json::{Value, json};

use super::contract::serve;
use super::provider_proxy::{
    KEY, candidates, contract_at, drifting_provider, get_json, rows_of, unused,
};

/// The most a range may span at the fake provider.
const SPAN: i64 = 14 * 86_400;

/// What the fake provider says when it refuses a range.
const SPAN_REASON: &str = "the range may span at most 14 days";

/// A change the fake provider makes to the records of one endpoint, naming the field.
#[derive(Clone, Debug)]
pub(super) enum Edit {
    /// A field the record does not declare (`sentiment`), in every record.
    Extra(String),
    /// A value outside the field's value set (the second), in the first record.
    NewValue(String, String),
    /// `null` in every record.
    Null(String),
    /// Left out of every record.
    Missing(String),
    /// The integer written `12.0` in the first record, `1.2e1` in the second.
    Whole(String),
    /// The date `2026-11-16` written `2026/11/16`, in every record.
    Slashes(String),
}

/// What the fake provider does differently from the spec, and what the proxy must find.
#[derive(Clone, Debug, Default)]
pub(super) struct Plan {
    /// Edits of the records, by the path of the endpoint (below the base path).
    pub(super) edits: Vec<(String, Vec<Edit>)>,
    /// The endpoint whose paging limit past the maximum is taken as the maximum: its path,
    /// the parameter and the maximum.
    pub(super) clamp: (String, String, i64),
    /// The endpoint refusing ranges longer than [`SPAN`]: its path and the two parameters.
    pub(super) span: (String, String, String),
    /// The endpoint whose refusals of a request without a key name an error code the spec
    /// does not have, with a status none of its codes has (its path, the code, the status).
    pub(super) code: (String, String, u16),
    /// A field the envelope does not declare, in every answer.
    pub(super) envelope: String,
    /// The findings expected: endpoint and observation.
    pub(super) expected: Vec<(String, Observed)>,
}

/// The Rust of the workspace that is written by hand and reads the generated records: the
/// tests, benchmarks, the contract runner and the examples. A drift on a field it reads
/// (`.published_at`) would change that field's Rust type under it, so the test drifts other
/// fields: the loop is to leave the workspace building without a hand on its code.
fn by_hand() -> String {
    fn read(dir: &std::path::Path, out: &mut String) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                read(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push_str(&std::fs::read_to_string(&path).unwrap_or_default());
            }
        }
    }
    let root = mrds_tests::workspace_root();
    let mut out = String::new();
    for dir in [
        "tests/tests",
        "tests/src",
        "bench",
        "contract/src",
        "xtask/src",
    ] {
        read(&root.join(dir), &mut out);
    }
    for entry in std::fs::read_dir(root.join("crates"))
        .into_iter()
        .flatten()
        .flatten()
    {
        read(&entry.path().join("examples"), &mut out);
    }
    out
}

/// Chooses the drifts from the resolved model and the sample server's answers.
pub(super) async fn plan(sample: &str) -> Plan {
    let api = mrds_tests::real_spec();
    let by_hand = by_hand();
    let mut plan = Plan::default();
    let mut taken: BTreeSet<(String, String)> = BTreeSet::new();
    let mut want: Vec<&str> = vec!["extra", "value", "null", "missing", "whole", "date"];
    for (e, example) in candidates(api) {
        let rows = rows_of(&get_json(sample, example.request).await);
        let Some(first) = rows.first() else {
            continue;
        };
        let record = api.record(e.returns);
        let mut edits = Vec::new();
        for f in record.fields.iter().filter(|f| !f.array && !f.optional) {
            let value = &first[&f.wire];
            let kind = match (&f.ty, f.format) {
                (TypeRef::ValueSet(_), _) if value.is_string() => "value",
                (TypeRef::String, None) if value.is_string() => {
                    if want.contains(&"null") {
                        "null"
                    } else {
                        "missing"
                    }
                }
                (TypeRef::Integer, None) if value.is_i64() => "whole",
                (TypeRef::String, Some(Format::Text(TextFormat::Date))) if value.is_string() => {
                    "date"
                }
                _ => continue,
            };
            let Some(i) = want.iter().position(|w| *w == kind) else {
                continue;
            };
            // Made optional or given no format, the field's Rust type changes.
            let read = |w: &str| by_hand.contains(&format!(".{w}"));
            if read(&f.wire) && kind != "value" && kind != "whole" {
                continue;
            }
            if !taken.insert((e.id.clone(), f.wire.clone())) {
                continue;
            }
            want.remove(i);
            let (r, w) = (record.spec_name.clone(), f.wire.clone());
            let (edit, observed) = match kind {
                "value" => {
                    let TypeRef::ValueSet(set) = f.ty else {
                        unreachable!()
                    };
                    let set = api.value_set(set);
                    let value = unused("newly_seen", |v| set.values.iter().any(|x| x.wire == v));
                    let value_set = set.spec_name.clone();
                    (
                        Edit::NewValue(w.clone(), value),
                        Observed::UnknownValue {
                            record: r,
                            field: w,
                            value_set,
                        },
                    )
                }
                "null" => (
                    Edit::Null(w.clone()),
                    Observed::RequiredNull {
                        record: r,
                        field: w,
                    },
                ),
                "missing" => (
                    Edit::Missing(w.clone()),
                    Observed::RequiredMissing {
                        record: r,
                        field: w,
                    },
                ),
                "whole" => (
                    Edit::Whole(w.clone()),
                    Observed::WholeNumber {
                        record: r,
                        field: w,
                    },
                ),
                _ => (
                    Edit::Slashes(w.clone()),
                    Observed::WrongFormat {
                        record: r,
                        field: w,
                        format: "date".into(),
                    },
                ),
            };
            edits.push(edit);
            plan.expected.push((e.id.clone(), observed));
        }
        if want.contains(&"extra") {
            want.retain(|w| *w != "extra");
            let extra = unused("sentiment", |f| record.fields.iter().any(|x| x.wire == f));
            edits.push(Edit::Extra(extra.clone()));
            plan.expected.push((
                e.id.clone(),
                Observed::UndeclaredField {
                    record: record.spec_name.clone(),
                    field: extra,
                },
            ));
        }
        if !edits.is_empty() {
            plan.edits.push((e.path.to_string(), edits));
        }
    }
    assert!(want.is_empty(), "no field of the spec carries {want:?}");
    // The paging limit of the smallest maximum, of an endpoint whose sample answer holds records.
    let mut limits = Vec::new();
    for (e, example) in candidates(api) {
        let Some(paging) = &e.paging else {
            continue;
        };
        let p = e.param(paging.limit);
        let ValueType::Integer(t) = &p.ty else {
            continue;
        };
        if let Some(max) = t.max
            && !rows_of(&get_json(sample, example.request).await).is_empty()
        {
            limits.push((max, e.id.clone(), e.path.to_string(), p.wire.clone()));
        }
    }
    limits.sort();
    let (max, id, path, param) = limits
        .into_iter()
        .next()
        .expect("a paging limit with a maximum");
    plan.clamp = (path, param.clone(), max);
    plan.expected.push((
        id.clone(),
        Observed::RuleStricter {
            rule: format!("{id}.{param}.range"),
            status: 200,
        },
    ));
    // Two time parameters an `ordered` rule relates, whose example spans more than SPAN, of
    // the endpoint hand-written code names least (its path, its parameter type): the bound
    // the spec takes on then disturbs the fewest baselines of the tests.
    let mentions = |e: &mrds_spec::model::Endpoint| {
        by_hand.matches(&e.path.to_string()).count() + by_hand.matches(&e.names.params_type).count()
    };
    // Not an endpoint of the answers' drifts: its example, refused, would show none of them.
    let drifted = |e: &mrds_spec::model::Endpoint| {
        let path = e.path.to_string();
        plan.edits.iter().any(|(p, _)| *p == path)
    };
    let (_, id, path, from, to) = candidates(api)
        .filter(|(e, _)| !drifted(e))
        .filter_map(|(e, example)| {
            e.rules.iter().find_map(|r| {
                let Requirement::Ordered { before, after, .. } = &r.requirement else {
                    return None;
                };
                let name = |op| api.inputs(e).get(op).map(|i| i.name());
                let (from, to) = (name(*before)?, name(*after)?);
                let times = [&from, &to].map(|n| e.param_named(n).is_some_and(is_time));
                let span =
                    example_value(example.request, &to)? - example_value(example.request, &from)?;
                (times == [true, true] && span > SPAN)
                    .then(|| (mentions(e), e.id.clone(), e.path.to_string(), from, to))
            })
        })
        .min()
        .expect("two time parameters of a rule whose example spans more than 14 days");
    plan.span = (path, from, to);
    // An error code the spec does not have, answering the requests without a key of the
    // first endpoint needing one.
    let (e, _) = candidates(api)
        .find(|(e, _)| e.auth == mrds_spec::model::AuthMode::Required)
        .expect("an endpoint needing a key");
    let code = unused("KEY_EXPIRED", |c| {
        api.error_codes.iter().any(|x| x.code == c)
    });
    let status = (403..500)
        .find(|s| api.error_codes.iter().all(|c| c.status != *s))
        .expect("a status no error code has");
    plan.code = (e.path.to_string(), code, status);
    plan.envelope = unused("warnings", |f| {
        api.envelope.fields.iter().any(|x| x.wire == f)
    });
    plan.expected.push((
        e.id.clone(),
        Observed::UnknownValue {
            record: api.record(api.errors.object).spec_name.clone(),
            field: "code".into(),
            value_set: "ErrorCode".into(),
        },
    ));
    plan.expected.push((
        id,
        Observed::RuleLooser {
            rule: None,
            status: 400,
            reason: Some(SPAN_REASON.into()),
        },
    ));
    plan
}

/// Whether a parameter is a point in time (Unix seconds, a date, RFC 3339 text).
fn is_time(p: &mrds_spec::model::Param) -> bool {
    match &p.ty {
        ValueType::Integer(t) => t.format == Some(IntegerFormat::UnixSeconds),
        ValueType::String(t) => matches!(t.format, Some(TextFormat::Date | TextFormat::Rfc3339)),
        _ => false,
    }
}

/// The instant a query parameter of a request names (`None` when absent or not a time).
fn example_value(request: &str, name: &str) -> Option<i64> {
    let query = request.split_once('?')?.1;
    query.split('&').find_map(|pair| {
        let (n, v) = pair.split_once('=')?;
        (n == name)
            .then(|| instant_seconds(&mrds_runtime::text::percent_decode(v)))
            .flatten()
    })
}

/// The fake provider: the sample server, drifted as `plan` says.
async fn fake_provider(plan: Arc<Plan>) -> std::net::SocketAddr {
    drifting_provider(move |request, next| {
        let plan = plan.clone();
        async move { drift(&plan, request, next).await }
    })
    .await
}

pub(super) async fn drift(plan: &Plan, mut request: Request, next: Next) -> Response {
    let path = request.uri().path().to_string();
    let below = path.strip_prefix(BASE_PATH).unwrap_or(&path).to_string();
    let query = request.uri().query().unwrap_or_default().to_string();
    let value = |name: &str| example_value(&format!("?{query}"), name);
    // Ranges longer than SPAN are refused.
    let (span_path, from, to) = &plan.span;
    if below == *span_path
        && let (Some(a), Some(b)) = (value(from), value(to))
        && b - a > SPAN
    {
        let body = json!({
            "success": false, "request_id": "req_refused", "data": [],
            "error": { "code": "INVALID_PARAMETER", "message": SPAN_REASON },
        });
        return Response::builder()
            .status(400)
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
    }
    // A limit past the maximum is taken as the maximum, and the answer capped at it.
    let (clamp_path, param, max) = &plan.clamp;
    let mut capped = false;
    if below == *clamp_path {
        let pairs: Vec<String> = (query.split('&'))
            .map(|pair| match pair.split_once('=') {
                Some((name, v)) if name == param && v.parse::<i64>().is_ok_and(|v| v > *max) => {
                    capped = true;
                    format!("{name}={max}")
                }
                _ => pair.to_string(),
            })
            .collect();
        *request.uri_mut() = format!("{path}?{}", pairs.join("&")).parse().unwrap();
    }
    let answer = next.run(request).await;
    let (code_path, code, status) = &plan.code;
    if below == *code_path && answer.status() == 401 {
        let (mut head, body) = answer.into_parts();
        let bytes = to_bytes(body, usize::MAX).await.unwrap();
        let text =
            String::from_utf8_lossy(&bytes).replace("\"UNAUTHORIZED\"", &format!("\"{code}\""));
        head.headers.remove(http::header::CONTENT_LENGTH);
        head.status = http::StatusCode::from_u16(*status).unwrap();
        return Response::from_parts(head, Body::from(text));
    }
    if !answer.status().is_success() {
        return answer;
    }
    let (mut head, body) = answer.into_parts();
    let bytes = to_bytes(body, usize::MAX).await.unwrap();
    let Ok(mut envelope) = serde_json::from_slice::<Value>(&bytes) else {
        return Response::from_parts(head, Body::from(bytes));
    };
    envelope[&plan.envelope] = json!(["slow"]);
    if capped
        && let Some(rows) = envelope["data"].as_array_mut()
        && !rows.is_empty()
    {
        let first = rows[0].clone();
        *rows = vec![first; *max as usize];
    }
    let mut wholes = Vec::new();
    if let Some((_, edits)) = plan.edits.iter().find(|(p, _)| *p == below) {
        let rows: Vec<&mut Value> = match &mut envelope["data"] {
            Value::Array(rows) => rows.iter_mut().collect(),
            row @ Value::Object(_) => vec![row],
            _ => Vec::new(),
        };
        for (i, row) in rows.into_iter().enumerate() {
            for edit in edits {
                match edit {
                    Edit::Extra(f) => row[f] = json!(0.5),
                    Edit::NewValue(f, value) if i == 0 => row[f] = json!(value),
                    Edit::NewValue(..) => {}
                    Edit::Null(f) => row[f] = Value::Null,
                    Edit::Missing(f) => {
                        row.as_object_mut().map(|o| o.remove(f));
                    }
                    Edit::Whole(f) if i < 2 => {
                        // Written as text first, spelt in the body below (serde_json would
                        // write both back as `12.0`).
                        let n = row[f].as_i64().unwrap_or(12);
                        let spelt = if i == 0 {
                            format!("{n}.0")
                        } else {
                            format!("{:e}", n as f64)
                        };
                        let mark = format!("@whole{i}@");
                        row[f] = json!(mark);
                        wholes.push((format!("\"{mark}\""), spelt));
                    }
                    Edit::Whole(_) => {}
                    Edit::Slashes(f) => {
                        let text = row[f].as_str().unwrap_or("2026-11-16").replace('-', "/");
                        row[f] = json!(text);
                    }
                }
            }
        }
    }
    let mut text = envelope.to_string();
    for (mark, spelt) in wholes {
        text = text.replace(&mark, &spelt);
    }
    head.headers.remove(http::header::CONTENT_LENGTH);
    Response::from_parts(head, Body::from(text))
}

/// The proxy's findings of the contract suite's requests to the drifted provider, and the HAR
/// file it wrote.
pub(crate) async fn run_through_proxy(name: &str) -> (Plan, Vec<Finding>, String) {
    let plain = serve(mrds_mock::router(mrds_server::StaticKeys::new([KEY]))).await;
    let plan = Arc::new(plan(&format!("http://{plain}")).await);
    let provider = format!("http://{}", fake_provider(plan.clone()).await);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let har = dir.join("traffic.har");
    let proxy = Proxy::builder(&mrds_mock::APP, provider.as_str())
        .har_file(&har)
        .build()
        .unwrap();
    let at = serve(proxy.router()).await;
    let options = contract_at(at);
    mrds_contract::run(mrds_tests::real_spec(), &options)
        .await
        .expect("the suite runs");
    let text = std::fs::read_to_string(&har).unwrap();
    ((*plan).clone(), proxy.findings(), text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow: ten drifts proxied, reported and applied; .ci/exhaustive runs it"]
async fn ten_drifts_are_found_and_the_applied_edits_leave_a_spec_that_asks_for_nothing() {
    let (plan, findings, har) = run_through_proxy("provider_loop").await;
    let api = mrds_tests::real_spec();

    // Every drift is found; nothing else is.
    let found: Vec<(String, Observed)> = (findings.iter())
        .map(|f| (f.endpoint.clone(), f.observed.clone()))
        .collect();
    for expected in &plan.expected {
        assert!(
            found.contains(expected),
            "{expected:?} not found in {found:#?}"
        );
    }
    for (endpoint, observed) in &found {
        let envelope = matches!(observed, Observed::UndeclaredEnvelopeField { field } if *field == plan.envelope);
        assert!(
            envelope
                || plan
                    .expected
                    .contains(&(endpoint.clone(), observed.clone())),
            "a finding the provider did not cause: {endpoint} {observed:?}"
        );
    }
    // The capped limit: the most records returned is the spec's maximum.
    let capped = (findings.iter())
        .find(|f| matches!(f.observed, Observed::RuleStricter { .. }))
        .unwrap();
    assert_eq!(
        capped.evidence.as_ref().unwrap().returned,
        Some(plan.clamp.2 as u64)
    );

    // The proxy's HAR file, read back, yields the same findings.
    let (from_har, problems) = xtask::drift::read(api, &[("traffic.har".into(), har.clone())]);
    assert_eq!(problems, "");
    let key = |f: &Finding| (f.endpoint.clone(), f.observed.clone(), f.count);
    let mut a: Vec<_> = findings.iter().map(key).collect();
    let mut b: Vec<_> = from_har.iter().map(key).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    assert!(!har.contains(KEY), "the HAR file holds the key");

    // The report's edits, applied in memory: the spec loads and generates.
    let root = mrds_tests::workspace_root();
    let sources = mrds_spec::load::read_dir(&root.join("spec")).unwrap();
    let options = mrds_follow::Options {
        today: "2026-12-01".into(),
    };
    let report = mrds_follow::report(api, &sources, &findings, &options);
    assert_eq!(report.problems, None, "{}", report.text);
    assert_eq!(report.by_hand, 0, "{}", report.text);
    let text = &report.text;
    for expected in [
        format!(
            "max_span: {{ from: {}, to: {}, seconds: {SPAN} }}",
            plan.span.1, plan.span.2
        ),
        format!(
            "which caps it: its answers held at most {} records",
            plan.clamp.2
        ),
        format!("code: {}, status: {}", plan.code.1, plan.code.2),
        "arrives as whole numbers written as decimals".into(),
        "remove `format: date`".into(),
        format!("the envelope gains optional field `{}`", plan.envelope),
    ] {
        assert!(text.contains(&expected), "{expected:?} not in:\n{text}");
    }
    let edited = report.applied_to(&sources);
    let again = mrds_spec::load_sources(&edited).unwrap_or_else(|d| panic!("{d}"));
    mrds_emit::all(&again).expect("the edited spec generates");

    // A second run over the same findings asks for nothing.
    let second = mrds_follow::report(&again, &edited, &findings, &options);
    assert_eq!(second.edits, 0, "{}", second.text);

    // spec-diff names the checks the edits predicted, and passes.
    super::provider_drift::spec_diff_as_predicted(api, &again, &report.predicted);
}
