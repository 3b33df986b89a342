//! Validation driven by the spec: every case `mrds_codegen::cases` derives from the resolved
//! model (each endpoint's sample request, and each parameter probed at and beyond its own
//! rules) is sent to the sample server's router in-process and must be answered as the spec
//! predicts. A parameter or bound added to the spec is tested here without a new line of test
//! code; the hand-written tests in `model_validation` keep the rules across parameters and the
//! behaviour a reader should see spelled out.

use std::path::Path;

use mrds_codegen::cases::{Case, Expect};
use mrds_server::axum::body::{Body, to_bytes};
use mrds_server::axum::http::Request;
use serde_json::Value;
use tower::ServiceExt;

const KEY: &str = "cases-key";

/// The status and JSON body of one case's answer.
async fn answer(case: &Case) -> (u16, Value) {
    // Removed endpoints answer with their sample data, so their cases are tested too.
    let router = mrds_server::router(
        mrds_mock::Mock::serving_removed(),
        mrds_server::StaticKeys::new([KEY]),
    );
    let request = Request::get(format!("{}{}", mrds_model::api::BASE_PATH, case.target()))
        .header(mrds_model::api::AUTH_HEADER, KEY)
        .body(Body::empty())
        .expect("a valid request");
    let response = router.oneshot(request).await.expect("the router answers");
    let status = response.status().as_u16();
    let body = to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("the body arrives");
    (
        status,
        serde_json::from_slice(&body).expect("every answer is JSON"),
    )
}

/// `(field, reason)` of every `details` entry.
fn details(body: &Value) -> Vec<(String, String)> {
    body["error"]["details"]
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

/// What is wrong with the answer to `case`, if anything.
fn problem(case: &Case, status: u16, body: &Value) -> Option<String> {
    let issues = details(body);
    match &case.expect {
        Expect::Success => (status != 200 || body["success"] != true)
            .then(|| format!("expected 200 with records, got {status}: {body}")),
        Expect::Accepted { param } => {
            let own = format!("[rule {}.{param}.", case.endpoint);
            let broken: Vec<_> = issues.iter().filter(|(_, r)| r.contains(&own)).collect();
            let ok = match status {
                200 => true,
                400 => broken.is_empty() && !issues.is_empty(),
                _ => false,
            };
            (!ok).then(|| {
                format!("expected no issue of `{param}`'s own rules, got {status}: {body}")
            })
        }
        Expect::Rejected { field, rule } => {
            let named = issues
                .iter()
                .any(|(f, r)| f == field && r.contains(&format!("[rule {rule}]")));
            let ok = status == 400 && body["error"]["code"] == "INVALID_PARAMETER" && named;
            (!ok).then(|| {
                format!("expected 400 naming `{rule}` for `{field}`, got {status}: {body}")
            })
        }
    }
}

#[tokio::test]
async fn every_case_derived_from_the_spec_is_answered_as_the_spec_says() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let api = mrds_codegen::load_spec(&spec).unwrap_or_else(|d| panic!("{d}"));
    let cases = mrds_codegen::cases::derive(&api);

    // Every endpoint has its sample request, and every parameter is probed.
    for e in &api.endpoints {
        assert!(
            cases.iter().any(|c| c.id == format!("{}.example", e.id)),
            "{}",
            e.id
        );
        for p in &e.params {
            let prefix = format!("{}.{}.", e.id, p.wire);
            assert!(cases.iter().any(|c| c.id.starts_with(&prefix)), "{prefix}");
        }
    }
    let rejected = cases
        .iter()
        .filter(|c| matches!(c.expect, Expect::Rejected { .. }))
        .count();
    assert!(
        rejected > 100 && cases.len() > 200,
        "{} cases, {rejected} rejections",
        cases.len()
    );

    let mut problems = Vec::new();
    for case in &cases {
        let (status, body) = answer(case).await;
        if let Some(p) = problem(case, status, &body) {
            problems.push(format!("{} (GET {}): {p}", case.id, case.target()));
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {} cases failed:\n{}",
        problems.len(),
        cases.len(),
        problems.join("\n")
    );
}

/// The derivation follows the model: a parameter's bounds and values become its probes.
#[test]
fn cases_follow_the_model() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let api = mrds_codegen::load_spec(&spec).unwrap_or_else(|d| panic!("{d}"));
    let cases = mrds_codegen::cases::derive(&api);
    let case = |id: &str| {
        cases
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("no case `{id}`"))
    };
    let above = case("stock_dividends.limit.above_max");
    assert_eq!(
        above.expect,
        Expect::Rejected {
            field: "limit".into(),
            rule: "stock_dividends.limit.range".into()
        }
    );
    assert!(above.query.contains(&("limit".into(), "1001".into())));
    assert!(
        case("stock_dividends.limit.at_max")
            .query
            .contains(&("limit".into(), "1000".into()))
    );
    let missing = case("stock_dividends.symbol.missing");
    assert!(!missing.query.iter().any(|(n, _)| n == "symbol"));
    let repeated = case("etf_flow.symbol.repeated");
    assert_eq!(
        repeated.query.iter().filter(|(n, _)| n == "symbol").count(),
        2
    );
    assert!(
        case("person_commentary.person_id.bad_format")
            .path
            .contains("not-a-uuid")
    );
    for value in ["1min", "1d", "1m"] {
        let id = format!("non_us_kline.interval.value_{value}");
        assert!(
            case(&id).query.contains(&("interval".into(), value.into())),
            "{id}"
        );
    }
    assert_eq!(
        case("market_kline.start_time.bad_format").expect,
        Expect::Rejected {
            field: "start_time".into(),
            rule: "market_kline.start_time.format".into()
        }
    );
}
