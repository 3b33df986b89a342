//! The contract suite (`mrds_probes`): checks derived from the resolved model, each
//! with the answer the spec predicts. The sample server must pass every one; each kind of check
//! follows the model (a parameter, bound, rule or paging declaration yields its checks without
//! test code).

use std::path::Path;

use mrds_probes::{Expect, Key, Probe, Removed};
use mrds_server::axum::body::{Body, to_bytes};
use mrds_server::axum::http::Request;
use mrds_spec::model::Api;
use tower::ServiceExt;

const KEY: &str = "contract-key";

fn api() -> Api {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    mrds_spec::load_spec(&spec).unwrap_or_else(|d| panic!("{d}"))
}

/// The status and body of `check`'s answer from `router`, in-process: its method, target, key
/// and body, as the runner sends them.
async fn answer(router: mrds_server::axum::Router, check: &Probe) -> (u16, Vec<u8>) {
    let mut request = Request::builder()
        .method(check.request.method.as_str())
        .uri(format!(
            "{}{}",
            mrds_model::api::BASE_PATH,
            check.request.target()
        ));
    match check.request.key {
        Key::Valid => request = request.header(mrds_model::api::AUTH_HEADER, KEY),
        Key::Wrong => {
            request = request.header(mrds_model::api::AUTH_HEADER, mrds_probes::WRONG_KEY)
        }
        Key::Missing => {}
    }
    let body = match &check.request.body {
        Some(sent) => {
            request = request.header("content-type", sent.content_type);
            Body::from(sent.text.clone())
        }
        None => Body::empty(),
    };
    let request = request.body(body).expect("a valid request");
    let response = router.oneshot(request).await.expect("the router answers");
    let status = response.status().as_u16();
    let body = to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("the body arrives");
    (status, body.to_vec())
}

#[tokio::test]
async fn the_sample_server_passes_every_check_derived_from_the_spec() {
    let api = api();
    let checks = mrds_probes::derive(&api, Removed::Gone);
    let router = mrds_mock::router(mrds_server::StaticKeys::new([KEY]));
    let mut failures = Vec::new();
    for check in &checks {
        let (status, body) = answer(router.clone(), check).await;
        if let Err(why) = mrds_probes::judge(&api, check, status, &body) {
            failures.push(format!(
                "{} ({} {}): {why}",
                check.id,
                check.request.method.as_str(),
                check.request.target()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} checks failed:\n{}",
        failures.len(),
        checks.len(),
        failures.join("\n")
    );
}

/// Every endpoint, input (parameter or body field) and rule of the spec has its checks, and ids
/// are unique.
#[test]
fn every_part_of_the_spec_has_its_checks() {
    let api = api();
    let checks = mrds_probes::derive(&api, Removed::Gone);
    let ids: Vec<&str> = checks.iter().map(|c| c.id.as_str()).collect();
    let has = |id: &str| ids.contains(&id);
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "check ids are unique");
    for e in &api.endpoints {
        if e.removed.is_some() {
            assert!(has(&format!("{}.removed", e.id)), "{}", e.id);
            continue;
        }
        for probe in [
            "example",
            "auth.missing_key",
            "auth.wrong_key",
            "unknown_parameter_ignored",
        ] {
            assert!(has(&format!("{}.{probe}", e.id)), "{}.{probe}", e.id);
        }
        for input in api.inputs(e).all() {
            let prefix = format!("{}.{}.", e.id, input.name());
            assert!(ids.iter().any(|id| id.starts_with(&prefix)), "{prefix}");
        }
        for r in &e.rules {
            assert!(has(&format!("{}.broken", r.id)), "{}.broken", r.id);
            assert!(has(&format!("{}.kept", r.id)), "{}.kept", r.id);
            if r.when.is_some() {
                assert!(
                    has(&format!("{}.condition_off", r.id)),
                    "{}.condition_off",
                    r.id
                );
            }
        }
        if e.paging.is_some() {
            assert!(has(&format!("{}.limit.caps", e.id)), "{}", e.id);
        }
        if e.lookup.is_some() {
            assert!(has(&format!("{}.lookup.not_found", e.id)), "{}", e.id);
        }
    }
    assert!(checks.len() > 400, "{} checks", checks.len());
}

/// The derivation follows the model: a parameter's bounds and values become its probes, a
/// rule's numbers its two sides. Each target is the first of the spec that has one (an
/// integer with a largest value, a required query parameter, a parameter of a format, a rule of
/// a largest span, a removed endpoint), so a release in `spec/` moves it rather than breaking
/// the test.
#[test]
fn checks_follow_the_model() {
    use mrds_spec::model::{
        Operand, ParamLocation, Requirement, StringType, TextFormat, ValueType,
    };
    let api = api();
    let checks = mrds_probes::derive(&api, Removed::Gone);
    let check = |id: &str| {
        checks
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("no check `{id}`"))
    };
    let served = || (api.endpoints.iter()).filter(|e| e.removed.is_none() && e.body.is_none());
    let query =
        |p: &mrds_spec::model::Param| p.location == ParamLocation::Query && p.list.is_none();

    // A bound: one over it refused by the range rule, the bound itself kept.
    let (e, p, max) = served()
        .find_map(|e| {
            e.params
                .iter()
                .filter(|p| query(p))
                .find_map(|p| match &p.ty {
                    ValueType::Integer(t) => t.max.map(|max| (e, p, max)),
                    _ => None,
                })
        })
        .expect("an integer parameter with a largest value");
    let above = check(&format!("{}.{}.above_max", e.id, p.wire));
    assert_eq!(
        above.expect,
        Expect::Rejected {
            field: p.wire.clone(),
            rule: format!("{}.{}.range", e.id, p.wire),
        }
    );
    assert!(
        above
            .request
            .query
            .contains(&(p.wire.clone(), (max + 1).to_string()))
    );
    let at = check(&format!("{}.{}.at_max", e.id, p.wire));
    assert!(
        at.request
            .query
            .contains(&(p.wire.clone(), max.to_string()))
    );

    // A required parameter left out; a single one given twice.
    let (e, p) = served()
        .find_map(|e| {
            e.params
                .iter()
                .find(|p| query(p) && p.required)
                .map(|p| (e, p))
        })
        .expect("a required query parameter");
    let missing = check(&format!("{}.{}.missing", e.id, p.wire));
    assert!(!missing.request.query.iter().any(|(n, _)| *n == p.wire));
    let repeated = check(&format!("{}.{}.repeated", e.id, p.wire));
    let given = (repeated.request.query.iter())
        .filter(|(n, _)| *n == p.wire)
        .count();
    assert_eq!(given, 2);

    // A value out of its format, where the parameter travels.
    if let Some((e, p)) = served().find_map(|e| {
        (e.params.iter())
            .find(|p| {
                p.list.is_none()
                    && matches!(
                        &p.ty,
                        ValueType::String(StringType {
                            format: Some(TextFormat::Uuid),
                            ..
                        })
                    )
            })
            .map(|p| (e, p))
    }) {
        let bad = check(&format!("{}.{}.bad_format", e.id, p.wire));
        let sent = match p.location {
            ParamLocation::Path => bad.request.path.clone(),
            ParamLocation::Query => format!("{:?}", bad.request.query),
        };
        assert!(sent.contains("not-a-uuid"), "{sent}");
    }

    // A largest span: exactly at it kept, one second over broken; with a condition, the
    // condition off keeps what would break it.
    let spans = served().flat_map(|e| e.rules.iter().map(move |r| (e, r)));
    if let Some((e, r, from, to, seconds)) = spans
        .filter_map(|(e, r)| match &r.requirement {
            Requirement::MaxSpan {
                from: Operand::Param(from),
                to: Operand::Param(to),
                seconds,
            } => Some((e, r, e.param(*from), e.param(*to), *seconds)),
            _ => None,
        })
        .find(|(_, _, from, to, _)| from.time_format().is_some() && to.time_format().is_some())
    {
        let span = |id: &str| {
            let q = &check(id).request.query;
            let instant = |p: &mrds_spec::model::Param| {
                let text = &q.iter().find(|(k, _)| *k == p.wire).unwrap().1;
                (text.parse::<i64>().ok())
                    .or_else(|| mrds_runtime::text::instant_seconds(text))
                    .unwrap_or_else(|| panic!("{id}: `{text}` is no instant"))
            };
            instant(to) - instant(from)
        };
        let name = format!("{}.{}", e.id, r.name());
        assert_eq!(span(&format!("{name}.kept")), seconds);
        assert_eq!(span(&format!("{name}.broken")), seconds + 1);
        if r.when.is_some() {
            assert_eq!(
                check(&format!("{name}.condition_off")).expect,
                Expect::Kept { rule: r.id.clone() }
            );
        }
    }

    // The key left out of an endpoint that needs it; a removed endpoint answers 410.
    let keyed = served()
        .find(|e| e.auth == mrds_spec::model::AuthMode::Required)
        .expect("an endpoint needing the key");
    assert_eq!(
        check(&format!("{}.auth.missing_key", keyed.id)).request.key,
        Key::Missing
    );
    if let Some(removed) = api.endpoints.iter().find(|e| e.removed.is_some()) {
        assert_eq!(
            check(&format!("{}.removed", removed.id)).expect,
            Expect::Error {
                status: 410,
                code: "ENDPOINT_REMOVED".into()
            }
        );
    }
}

/// Serves `router` on a loopback port.
pub(super) async fn serve(router: mrds_server::axum::Router) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { mrds_server::axum::serve(listener, router).await });
    addr
}

/// Runs the suite with `cargo xtask contract`'s runner against the server at `addr`.
async fn run_suite(addr: std::net::SocketAddr, only: &[&str]) -> Vec<mrds_contract::Outcome> {
    run_suite_with(addr, only, KEY).await
}

async fn run_suite_with(
    addr: std::net::SocketAddr,
    only: &[&str],
    key: &str,
) -> Vec<mrds_contract::Outcome> {
    run_suite_removed(addr, only, key, Removed::Gone).await
}

async fn run_suite_removed(
    addr: std::net::SocketAddr,
    only: &[&str],
    key: &str,
    removed: Removed,
) -> Vec<mrds_contract::Outcome> {
    let options = mrds_contract::Options {
        base_url: format!("http://{addr}"),
        api_key: Some(key.into()),
        only: only.iter().map(|s| s.to_string()).collect(),
        timeout: std::time::Duration::from_secs(10),
        require_all: true,
        removed,
        ..Default::default()
    };
    mrds_contract::run(&api(), &options)
        .await
        .expect("the suite runs")
}

#[tokio::test]
async fn the_runner_passes_the_sample_server_over_http_and_never_prints_the_key() {
    let addr = serve(mrds_mock::router(mrds_server::StaticKeys::new([KEY]))).await;
    let outcomes = run_suite(addr, &[]).await;
    let failures: Vec<_> = outcomes.iter().filter(|o| o.failure().is_some()).collect();
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(
        outcomes.len(),
        mrds_probes::derive(&api(), Removed::Gone).len()
    );
    let api = api();
    for report in [
        mrds_contract::text_report(&api, &outcomes),
        mrds_contract::json_report(&api, &outcomes),
        mrds_contract::junit_report(&api, &outcomes, true),
    ] {
        assert!(!report.contains(KEY), "a report shows the key");
    }
    let totals = mrds_contract::Totals::of(&outcomes);
    assert_eq!((totals.failed, totals.not_implemented), (0, 0));
    assert!(totals.passed(true));
    assert_eq!(
        totals.endpoints_passed,
        api.endpoints.len(),
        "every endpoint passes"
    );
}

/// The sample server, broken on purpose in five ways.
struct Broken(mrds_mock::Mock);

impl mrds_server::Api for Broken {
    fn fallback(&self) -> &impl mrds_server::Api {
        &self.0
    }

    /// Wrong ordering: the records come in the other direction.
    async fn forex_historical(
        &self,
        ctx: mrds_server::RequestContext,
        params: mrds_model::params::ForexHistoricalParams,
    ) -> Result<Vec<mrds_model::records::ForexBar>, mrds_server::ServerError> {
        let mut records = mrds_server::Api::forex_historical(&self.0, ctx, params).await?;
        records.reverse();
        Ok(records)
    }

    /// Ignores `limit`.
    async fn person_commentary(
        &self,
        ctx: mrds_server::RequestContext,
        params: mrds_model::params::PersonCommentaryParams,
    ) -> Result<Vec<mrds_model::records::PersonCommentary>, mrds_server::ServerError> {
        let params = params.with_limit(mrds_tests::integer_bounds("person_commentary", "limit").1);
        mrds_server::Api::person_commentary(&self.0, ctx, params).await
    }
}

#[tokio::test]
async fn a_broken_implementation_fails_exactly_the_checks_of_what_it_breaks() {
    use mrds_server::axum::{http, middleware};

    let router = mrds_server::router(
        Broken(mrds_mock::Mock::new()),
        mrds_server::StaticKeys::new([KEY]),
    )
    // Skips a rule: answers `idx` without `kind` instead of rejecting it.
    .layer(middleware::map_request(
        |request: http::Request<Body>| async move {
            let query = request.uri().query().unwrap_or_default().to_string();
            let mut request = request;
            if request.uri().path().ends_with("/research/units")
                && query.contains("idx=")
                && !query.contains("kind=")
            {
                *request.uri_mut() = format!("{}?{}&kind=section", request.uri().path(), query)
                    .parse()
                    .unwrap();
            }
            // Accepts a missing key: lets every request in as if it had one.
            if !request.headers().contains_key(mrds_model::api::AUTH_HEADER) {
                request.headers_mut().insert(
                    mrds_model::api::AUTH_HEADER,
                    http::HeaderValue::from_static(KEY),
                );
            }
            request
        },
    ))
    // Answers an error outside the envelope: a 404 as plain text.
    .layer(middleware::map_response(
        |response: mrds_server::axum::response::Response| async move {
            if response.status() == http::StatusCode::NOT_FOUND {
                let mut plain = mrds_server::axum::response::Response::new(Body::from("not found"));
                *plain.status_mut() = http::StatusCode::NOT_FOUND;
                plain
            } else {
                response
            }
        },
    ));
    let addr = serve(router).await;
    let outcomes = run_suite(addr, &[]).await;
    let failed: Vec<&str> = outcomes
        .iter()
        .filter(|o| o.failure().is_some())
        .map(|o| o.id.as_str())
        .collect();

    let api = api();
    let mut expected = vec![
        // Wrong ordering.
        "forex_historical.example",
        "forex_historical.order.asc",
        "forex_historical.order.desc",
        "forex_historical.unknown_parameter_ignored",
        // Ignores limit.
        "person_commentary.limit.caps",
        // Skips a rule.
        "research_units.idx_requires_kind.broken",
    ];
    let live = || api.endpoints.iter().filter(|e| e.removed.is_none());
    // The broken implementation's own endpoints, while the spec serves them (a removal in
    // `spec/` answers 410 before any implementation).
    let serves = |check: &str| live().any(|e| check.split('.').next() == Some(e.id.as_str()));
    expected.retain(|check| serves(check));
    // An error outside the envelope: every request the sample data answers 404 (a lookup of
    // nothing, a probe of a value no sample holds).
    let lookups: Vec<String> = mrds_probes::derive(&api, Removed::Gone)
        .into_iter()
        .filter(|p| p.not_found_allowed || p.id.ends_with(".lookup.not_found"))
        .map(|p| p.id)
        .collect();
    // Accepts a missing key: every endpoint that requires one.
    let missing: Vec<String> = live()
        .filter(|e| e.auth == mrds_spec::model::AuthMode::Required)
        .map(|e| format!("{}.auth.missing_key", e.id))
        .collect();
    expected.extend(lookups.iter().chain(&missing).map(String::as_str));
    expected.sort();
    let mut failed_sorted = failed.clone();
    failed_sorted.sort();
    assert_eq!(failed_sorted, expected);

    // Each failure reads as what went wrong, with the request to repeat it.
    let report = mrds_contract::text_report(&api, &outcomes);
    // Each line with the check it belongs to: a line of an endpoint the spec no longer serves
    // is not expected.
    for line in [
        ("forex_historical.order.asc", "FAIL forex_historical.order.asc: records 0 and 1 are not in ascending order of `date`"),
        ("person_commentary.limit.caps", "FAIL person_commentary.limit.caps: "),
        ("person_commentary.limit.caps", "more than the 1 allowed"),
        ("research_units.idx_requires_kind.broken", "FAIL research_units.idx_requires_kind.broken: expected 400 INVALID_PARAMETER naming `idx` and rule `research_units.idx_requires_kind`, got 200"),
        ("person_commentary.lookup.not_found", "FAIL person_commentary.lookup.not_found: the body is not JSON"),
        ("", "curl -sS -H \"X-API-Key: $MRDS_API_KEY\" 'http://"),
    ]
    .into_iter()
    .filter(|(check, _)| check.is_empty() || serves(check))
    .map(|(_, line)| line.to_string())
    .chain([format!(
        "FAIL {}: expected 401 `UNAUTHORIZED` in the envelope, got 200",
        missing[0]
    )]) {
        let line = line.as_str();
        assert!(
            report.contains(line),
            "the report lacks {line:?}:\n{report}"
        );
    }
    // A curl line pasted into a shell sends the key from the environment: run with `printf`
    // in place of curl, it prints the header with the key expanded.
    let line = report
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("curl ") && l.contains("$MRDS_API_KEY"))
        .expect("a curl line sending the key");
    let echoed = std::process::Command::new("sh")
        .arg("-c")
        .arg(line.replacen("curl", "printf '%s\\n'", 1))
        .env("MRDS_API_KEY", "pasted-key")
        .output()
        .expect("sh runs");
    let printed = String::from_utf8_lossy(&echoed.stdout);
    assert!(
        printed.contains("X-API-Key: pasted-key"),
        "{line}\n{printed}"
    );
}

/// A removed endpoint that the server still serves (the sample server with
/// `--serve-removed`) is checked as any other when the runner is told so: its example, key,
/// parameters and rules, all passing; told nothing, the runner expects its 410 and fails.
#[tokio::test]
async fn removed_endpoints_are_checked_as_served_when_the_server_serves_them() {
    let api = api();
    let removed: Vec<&str> = (api.endpoints.iter())
        .filter(|e| e.removed.is_some())
        .map(|e| e.id.as_str())
        .collect();
    assert!(!removed.is_empty(), "the spec marks an endpoint removed");
    let router = mrds_server::router(
        mrds_mock::Mock::serving_removed(),
        mrds_server::StaticKeys::new([KEY]),
    );
    let addr = serve(router).await;
    let served = run_suite_removed(addr, &removed, KEY, Removed::Served).await;
    let failures: Vec<_> = served.iter().filter(|o| o.failure().is_some()).collect();
    assert!(failures.is_empty(), "{failures:#?}");
    for id in &removed {
        let checks: Vec<&str> = (served.iter())
            .filter(|o| o.endpoint == *id)
            .map(|o| o.id.as_str())
            .collect();
        assert!(
            checks.contains(&format!("{id}.example").as_str()) && checks.len() > 5,
            "{id}: {checks:?}"
        );
    }
    let gone = run_suite_removed(addr, &removed, KEY, Removed::Gone).await;
    let failed: Vec<String> = (gone.iter())
        .filter(|o| o.failure().is_some())
        .map(|o| o.id.clone())
        .collect();
    let expected: Vec<String> = removed.iter().map(|id| format!("{id}.removed")).collect();
    assert_eq!(failed, expected);
}

/// A rule added to a spec yields its checks with no test code: the fixture of `max_span`
/// (a rule with a condition) gets both sides and the condition's other branch.
#[test]
fn a_new_rule_in_a_spec_brings_its_checks() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let read = |name: &str| {
        (
            name.to_string(),
            std::fs::read_to_string(dir.join(name)).unwrap(),
        )
    };
    let api = mrds_spec::load_sources(&[read("base.yaml"), read("max_span.yaml")])
        .unwrap_or_else(|d| panic!("{d}"));
    let ids: Vec<String> = mrds_probes::derive(&api, Removed::Gone)
        .into_iter()
        .map(|c| c.id)
        .collect();
    for id in [
        "points.max_span.broken",
        "points.max_span.kept",
        "points.max_span.condition_off",
        "points.from.bad_format",
        "points.mode.value_slow",
        "points.auth.missing_key",
    ] {
        assert!(ids.iter().any(|i| i == id), "no check {id} in {ids:?}");
    }
}

/// An order rule is probed at its boundary: "before" breaks with equal instants and keeps one
/// second later; "not after" (`equal: allowed`) keeps equal instants and breaks one second
/// earlier.
#[test]
fn order_rules_are_probed_at_their_boundary() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let read = |name: &str| {
        (
            name.to_string(),
            std::fs::read_to_string(dir.join(name)).unwrap(),
        )
    };
    let api = mrds_spec::load_sources(&[read("base.yaml"), read("ordered.yaml")])
        .unwrap_or_else(|d| panic!("{d}"));
    let checks = mrds_probes::derive(&api, Removed::Gone);
    let pair = |id: &str, from: &str, to: &str| {
        let check = checks
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("no check {id}"));
        let value = |name: &str| {
            let (_, v) = check.request.query.iter().find(|(n, _)| n == name).unwrap();
            v.clone()
        };
        (value(from), value(to))
    };
    let t0 = "2026-01-01T00:00:00Z".to_string();
    let (a, b) = pair("points.range_order.broken", "start_time", "end_time");
    assert_eq!(a, b, "before: equal instants break it");
    let (a, b) = pair("points.range_order.kept", "start_time", "end_time");
    assert_eq!(b.parse::<i64>().unwrap() - a.parse::<i64>().unwrap(), 1);
    assert_eq!(
        pair("points.validity.kept", "valid_from", "valid_until"),
        (t0.clone(), t0.clone()),
        "not after: equal instants keep it"
    );
    assert_eq!(
        pair("points.validity.broken", "valid_from", "valid_until"),
        (t0, "2025-12-31T23:59:59Z".to_string())
    );
}

/// Serves only `treasury_rates` (from the sample data); every other endpoint is left to the
/// trait's default.
struct OnlyTreasury(mrds_mock::Mock);

impl mrds_server::Api for OnlyTreasury {
    async fn treasury_rates(
        &self,
        ctx: mrds_server::RequestContext,
        params: mrds_model::params::TreasuryRatesParams,
    ) -> Result<Vec<mrds_model::records::TreasuryRate>, mrds_server::ServerError> {
        mrds_server::Api::treasury_rates(&self.0, ctx, params).await
    }
}

/// An endpoint the server does not implement is counted once, as not implemented, and the
/// rest of its checks are not sent: no failures, one line per endpoint; `--require-all` makes
/// it a failure.
#[tokio::test]
async fn an_unimplemented_endpoint_counts_once_as_not_implemented() {
    let router = mrds_server::router(
        OnlyTreasury(mrds_mock::Mock::new()),
        mrds_server::StaticKeys::new([KEY]),
    );
    let addr = serve(router).await;
    let outcomes = run_suite(addr, &[]).await;
    let api = api();
    let summaries = mrds_contract::endpoints(&outcomes);
    for e in &api.endpoints {
        let summary = summaries
            .iter()
            .find(|s| s.endpoint == e.id)
            .unwrap_or_else(|| panic!("{} is not in the summary", e.id));
        let not_implemented: Vec<usize> = outcomes
            .iter()
            .enumerate()
            .filter(|(_, o)| {
                o.endpoint == e.id && o.verdict == mrds_contract::Verdict::NotImplemented
            })
            .map(|(i, _)| i)
            .collect();
        if e.id == "treasury_rates" || e.removed.is_some() {
            assert_eq!(summary.result(), "passed", "{}", e.id);
            assert!(not_implemented.is_empty());
            continue;
        }
        assert_eq!(summary.result(), "not implemented", "{}", e.id);
        assert_eq!(summary.failed, 0, "{}", e.id);
        // Once, and the last check sent for the endpoint.
        assert_eq!(not_implemented.len(), 1, "{}", e.id);
        assert!(
            outcomes[not_implemented[0] + 1..]
                .iter()
                .all(|o| o.endpoint != e.id),
            "{}: checks were sent after the 501",
            e.id
        );
    }
    let totals = mrds_contract::Totals::of(&outcomes);
    let unimplemented = api
        .endpoints
        .iter()
        .filter(|e| e.removed.is_none() && e.id != "treasury_rates")
        .count();
    assert_eq!((totals.failed, totals.not_implemented), (0, unimplemented));
    assert!(totals.passed(false));
    assert!(!totals.passed(true), "--require-all fails the run");
    let report = mrds_contract::text_report(&api, &outcomes);
    let first = (api.endpoints.iter())
        .find(|e| e.removed.is_none() && e.id != "treasury_rates")
        .expect("an endpoint the implementation leaves out");
    assert!(
        report.contains(&format!(
            "NOT IMPLEMENTED {0}: answered 501 NOT_IMPLEMENTED to {0}.",
            first.id
        )),
        "{report}"
    );
    assert!(
        report.contains(&format!("{unimplemented} not implemented\n")),
        "{report}"
    );
    let junit = mrds_contract::junit_report(&api, &outcomes, false);
    assert!(junit.contains(&format!("failures=\"0\" skipped=\"{unimplemented}\"")));
    let junit = mrds_contract::junit_report(&api, &outcomes, true);
    assert!(junit.contains(&format!("failures=\"{unimplemented}\" skipped=\"0\"")));
}

/// The report's curl lines run as they are pasted into a shell: the key is expanded from
/// `$MRDS_API_KEY` (double quotes), the URL is passed as it is (single quotes; it holds `&`).
#[tokio::test]
async fn curl_lines_expand_the_key_when_pasted_into_a_shell() {
    // Against a server that accepts no key: every check sending one fails and shows its line.
    let addr = serve(mrds_mock::router(mrds_server::StaticKeys::new([
        "another-key",
    ])))
    .await;
    // The example of the first served endpoint whose request has two query parameters (`&`).
    let example = (mrds_mock::EXAMPLES.iter())
        .find(|x| {
            x.request.contains('&')
                && (mrds_model::api::ENDPOINTS.iter())
                    .any(|e| e.id == x.endpoint && e.removed.is_none())
        })
        .expect("an example with two query parameters");
    let only = format!("{}.example", example.endpoint);
    let outcomes = run_suite_with(addr, &[only.as_str()], "not-this-one").await;
    let failed = outcomes
        .iter()
        .find(|o| o.failure().is_some())
        .expect("the example fails with a key the server does not accept");
    let line = failed.curl(mrds_model::api::AUTH_HEADER);
    assert!(line.contains('&'), "{line}");
    // `curl` on the PATH prints its arguments, one per line.
    let bin = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fake-curl");
    std::fs::create_dir_all(&bin).unwrap();
    let curl = bin.join("curl");
    std::fs::write(&curl, "#!/bin/sh\nprintf '%s\\n' \"$@\"\n").unwrap();
    let mut permissions = std::fs::metadata(&curl).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&curl, permissions).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &line])
        .env("PATH", path)
        .env("MRDS_API_KEY", "pasted-secret")
        .output()
        .unwrap();
    let args: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(
        args,
        ["-sS", "-H", "X-API-Key: pasted-secret", failed.url.as_str()],
        "{line}"
    );
}

/// A lookup integer with both bounds (`tests/fixtures/methods.yaml`): the not-found probe asks
/// for a value inside the range, neither bound, that no sample set holds; a probe asking for a
/// value no sample holds (a bound, another value of a path segment) accepts the spec's 404, and
/// the sample request itself does not. A list is probed item by item and by its count.
#[test]
fn lookups_and_lists_are_probed_within_their_constraints() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let read = |name: &str| {
        (
            name.to_string(),
            std::fs::read_to_string(dir.join(name)).unwrap(),
        )
    };
    let api = mrds_spec::load_sources(&[read("base.yaml"), read("methods.yaml")])
        .unwrap_or_else(|d| panic!("{d}"));
    let e = api.endpoint_named("person_by_source").unwrap();
    let probes = mrds_probes::endpoint_checks(&api, e, Removed::Gone);
    let probe = |id: &str| {
        (probes.iter())
            .find(|p| p.id == format!("person_by_source.{id}"))
            .unwrap_or_else(|| {
                panic!(
                    "no probe {id} in {:?}",
                    probes.iter().map(|p| &p.id).collect::<Vec<_>>()
                )
            })
    };
    let not_found = probe("lookup.not_found");
    let id: i64 = not_found
        .request
        .path
        .rsplit('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let (min, max) = mrds_tests::integer_bounds_in(&api, "person_by_source", "person_id");
    assert!(
        min < id && id < max,
        "{id} inside {min}..={max}, neither bound"
    );
    let held: Vec<&str> = (e.samples.iter())
        .flat_map(|s| &s.sets)
        .flat_map(|set| &set.when)
        .flat_map(|(_, spellings)| spellings)
        .map(String::as_str)
        .collect();
    assert!(
        !held.contains(&id.to_string().as_str()),
        "{id} is held by a sample"
    );
    assert!(!not_found.not_found_allowed);
    for accepting in [
        "person_id.at_min",
        "person_id.at_max",
        "source.value_congress",
    ] {
        assert!(
            probe(accepting).not_found_allowed,
            "{accepting} may be answered 404"
        );
    }
    assert!(!probe("example").not_found_allowed);
    for list in [
        "fields.too_many_items",
        "fields.bad_item",
        "fields.no_item",
        "years.too_few_items",
        "years.at_max_items",
        "years.bad_item",
    ] {
        probe(list);
    }
    assert_eq!(
        probe("years.bad_item").expect,
        mrds_probes::Expect::Rejected {
            field: "years[1]".into(),
            rule: "person_by_source.years.type".into()
        }
    );
}

/// The suite reads a record's values against their fields' formats: a date in another layout,
/// a URL without its scheme, milliseconds where Unix seconds are, are problems of the answer.
#[test]
fn records_are_judged_against_their_formats() {
    use mrds_spec::model::{Format, TypeRef};
    let api = mrds_tests::real_spec();
    let mut checked = 0;
    for record in &api.records {
        let Some(f) = (record.fields.iter())
            .find(|f| !f.array && f.format.is_some() && !matches!(f.ty, TypeRef::Record(_)))
        else {
            continue;
        };
        let bad = match f.format.unwrap() {
            Format::UnixSeconds => serde_json::json!(1_700_000_000_000i64),
            Format::NumericText => serde_json::json!("twelve"),
            _ => serde_json::json!("2026/11/16 or so"),
        };
        let value = serde_json::json!({ f.wire.clone(): bad });
        let problems = mrds_probes::record_problems(api, record.id, &value, "data[0]");
        let about = format!("data[0].{}", f.wire);
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with(&about) && p.contains("is not in the format")),
            "{}: {problems:?}",
            record.spec_name
        );
        checked += 1;
    }
    assert!(checked > 3, "records with a format");
}
