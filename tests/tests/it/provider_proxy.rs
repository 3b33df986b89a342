//! The checking proxy (`mrds-mock --proxy`) in front of a fake provider: the sample server
//! drifted three ways from the spec (its answers of one endpoint carry a field the record does
//! not declare and a value outside a value set; one integer parameter is accepted past the
//! spec's maximum). The contract suite's requests go through the proxy; its findings, and
//! `cargo xtask drift`'s report of them, name exactly those three drifts. The same provider
//! seen through the generated client yields the first two from `Client::drift()`.
//!
//! What drifts is chosen from the resolved model, not named here: the first endpoint whose
//! sample answer holds a value-set field, and the first integer parameter with a maximum.

use std::sync::Arc;

use mrds_client::model::api::{BASE_PATH, RequestVisitor, visit_requests};
use mrds_client::{Client, Observed};
use mrds_runtime::RawParams;
use mrds_runtime::app::Example;
use mrds_runtime::proxy::Proxy;
use mrds_server::axum::body::{Body, Bytes, to_bytes};
use mrds_server::axum::extract::Request;
use mrds_server::axum::http;
use mrds_server::axum::middleware::{self, Next};
use mrds_server::axum::response::Response;
use mrds_spec::model::{Api, Method, TypeRef, ValueType};
use serde_json::Value;

use super::contract::serve;

pub(super) const KEY: &str = "proxied-key-0123";

/// What the fake provider does differently from the spec.
#[derive(Clone, Debug)]
struct Drifts {
    /// The endpoint whose answers drift, its path below the base path, and its example.
    endpoint: String,
    path: String,
    example: &'static Example,
    /// Its record, the field added to each record, and the value-set field given a new value.
    record: String,
    extra: String,
    field: String,
    value_set: String,
    value: String,
    /// The endpoint, path and integer parameter accepted past its maximum.
    looser_endpoint: String,
    looser_path: String,
    param: String,
    max: i64,
}

/// The endpoints the drifts may fall on: served (not removed), no body, no path parameter,
/// with a sample example.
pub(super) fn candidates(
    api: &Api,
) -> impl Iterator<Item = (&mrds_spec::model::Endpoint, &'static Example)> {
    api.endpoints
        .iter()
        .filter(|e| e.method == Method::Get && e.removed.is_none() && e.body.is_none())
        .filter(|e| e.path.is_fixed())
        .filter_map(|e| {
            mrds_mock::EXAMPLES
                .iter()
                .find(|x| x.endpoint == e.id)
                .map(|x| (e, x))
        })
}

/// The first served endpoint whose sample answer has a value-set field with a text value, and
/// the first integer query parameter with a maximum.
async fn choose(sample_server: &str) -> Drifts {
    let api = mrds_tests::real_spec();
    let mut answer_drift = None;
    for (e, example) in candidates(api) {
        let record = api.record(e.returns);
        let Some(field) = record
            .fields
            .iter()
            .find(|f| matches!(f.ty, TypeRef::ValueSet(_)) && !f.array)
        else {
            continue;
        };
        let body = get_json(sample_server, example.request).await;
        let rows = rows_of(&body);
        if !rows.first().is_some_and(|r| r[&field.wire].is_string()) {
            continue;
        }
        let TypeRef::ValueSet(set) = field.ty else {
            unreachable!()
        };
        let set = api.value_set(set);
        // Names the spec does not have (it may have taken `newly_seen` from an earlier drift).
        let value = unused("newly_seen", |v| set.values.iter().any(|x| x.wire == v));
        let extra = unused("sentiment", |f| record.fields.iter().any(|x| x.wire == f));
        answer_drift = Some((
            e,
            example,
            record,
            field,
            set.spec_name.clone(),
            value,
            extra,
        ));
        break;
    }
    let (e, example, record, field, value_set, value, extra) =
        answer_drift.expect("an endpoint whose sample answer holds a value-set field");
    let (looser, param, max) = candidates(api)
        .find_map(|(l, _)| {
            l.params.iter().find_map(|p| match &p.ty {
                ValueType::Integer(t) => t.max.map(|max| (l, p.wire.clone(), max)),
                _ => None,
            })
        })
        .expect("an integer parameter with a maximum");
    Drifts {
        endpoint: e.id.clone(),
        path: e.path.to_string(),
        example,
        record: record.spec_name.clone(),
        extra,
        field: field.wire.clone(),
        value_set,
        value,
        looser_endpoint: looser.id.clone(),
        looser_path: looser.path.to_string(),
        param,
        max,
    }
}

/// `base`, or `base_2`, `base_3`...: the first name `taken` says no to.
pub(super) fn unused(base: &str, taken: impl Fn(&str) -> bool) -> String {
    (1..)
        .map(|n| {
            if n == 1 {
                base.to_string()
            } else {
                format!("{base}_{n}")
            }
        })
        .find(|name| !taken(name))
        .unwrap()
}

/// The records of an envelope's `data` (one record, or an array of them).
pub(super) fn rows_of(body: &Value) -> Vec<Value> {
    match &body["data"] {
        Value::Array(rows) => rows.clone(),
        row @ Value::Object(_) => vec![row.clone()],
        _ => Vec::new(),
    }
}

/// A GET of `target` (below the base path) with the key, answered as JSON.
pub(super) async fn get_json(root: &str, target: &str) -> Value {
    let raw = mrds_runtime::client::RawClient::new().unwrap();
    let request = http::Request::get(format!("{root}{BASE_PATH}{target}"))
        .header(mrds_mock::AUTH_HEADER, KEY)
        .body(Bytes::new())
        .unwrap();
    let answer = raw
        .send(request, std::time::Duration::from_secs(10))
        .await
        .unwrap();
    serde_json::from_slice(answer.body()).unwrap_or(Value::Null)
}

/// The contract suite's options against the server at `at` (a proxy in front of a provider),
/// with the key the providers of these tests accept.
pub(super) fn contract_at(at: std::net::SocketAddr) -> mrds_contract::Options {
    mrds_contract::Options {
        base_url: format!("http://{at}"),
        api_key: Some(KEY.into()),
        timeout: std::time::Duration::from_secs(10),
        ..Default::default()
    }
}

/// The fake provider: the sample server, drifted as `drifts` says.
async fn fake_provider(drifts: Drifts) -> std::net::SocketAddr {
    let drifts = Arc::new(drifts);
    drifting_provider(move |request, next| {
        let drifts = drifts.clone();
        async move { drift(&drifts, request, next).await }
    })
    .await
}

/// A fake provider: the sample server (accepting [`KEY`]) behind `drift`, a middleware that
/// changes what it is asked or answers.
pub(super) async fn drifting_provider<F, Fut>(drift: F) -> std::net::SocketAddr
where
    F: Fn(Request, Next) -> Fut + Clone + Send + Sync + 'static,
    Fut: std::future::Future<Output = Response> + Send + 'static,
{
    let keys = mrds_server::StaticKeys::new([KEY]);
    serve(mrds_mock::router(keys).layer(middleware::from_fn(drift))).await
}

async fn drift(drifts: &Drifts, mut request: Request, next: Next) -> Response {
    let path = request.uri().path().to_string();
    let below = path.strip_prefix(BASE_PATH).unwrap_or(&path);
    // The looser rule: past the maximum is taken as the maximum.
    if below == drifts.looser_path
        && let Some(query) = request.uri().query()
    {
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((name, value))
                    if name == drifts.param
                        && value.parse::<i64>().is_ok_and(|v| v > drifts.max) =>
                {
                    format!("{name}={}", drifts.max)
                }
                _ => pair.to_string(),
            })
            .collect();
        *request.uri_mut() = format!("{path}?{}", pairs.join("&")).parse().unwrap();
    }
    let answer = next.run(request).await;
    if below != drifts.path || !answer.status().is_success() {
        return answer;
    }
    // The answer's records gain a field, and the first one a value outside the set.
    let (mut head, body) = answer.into_parts();
    let bytes = to_bytes(body, usize::MAX).await.unwrap();
    let mut envelope: Value = serde_json::from_slice(&bytes).unwrap();
    let edit = |row: &mut Value, first: bool| {
        row[&drifts.extra] = Value::from(0.5);
        if first {
            row[&drifts.field] = Value::from(drifts.value.as_str());
        }
    };
    match &mut envelope["data"] {
        Value::Array(rows) => {
            for (i, row) in rows.iter_mut().enumerate() {
                edit(row, i == 0);
            }
        }
        row @ Value::Object(_) => edit(row, true),
        _ => {}
    }
    head.headers.remove(http::header::CONTENT_LENGTH);
    Response::from_parts(head, Body::from(serde_json::to_vec(&envelope).unwrap()))
}

/// Sends the example request of `drifts.endpoint` with the generated client.
struct SendExample<'c> {
    client: &'c Client,
    example: &'static Example,
    sent: Option<std::pin::Pin<Box<dyn std::future::Future<Output = ()> + 'c>>>,
}

impl RequestVisitor for SendExample<'_> {
    fn visit<P>(&mut self)
    where
        P: mrds_runtime::Request + Clone + std::fmt::Debug + Send + Sync + 'static,
    {
        if P::ENDPOINT.id != self.example.endpoint {
            return;
        }
        let query = self.example.request.split_once('?').map_or("", |(_, q)| q);
        let params = P::from_raw(&RawParams::from_query_string(query))
            .unwrap_or_else(|e| panic!("the example of {} is valid: {e}", P::ENDPOINT.id));
        let client = self.client;
        self.sent = Some(Box::pin(async move {
            client.send(&params).await.expect("the provider answers");
        }));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_proxy_names_exactly_what_the_provider_does_differently() {
    let plain = serve(mrds_mock::router(mrds_server::StaticKeys::new([KEY]))).await;
    let drifts = choose(&format!("http://{plain}")).await;
    let provider = format!("http://{}", fake_provider(drifts.clone()).await);

    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("proxy_findings.jsonl");
    let _ = std::fs::remove_file(&file);
    let proxy = Proxy::builder(&mrds_mock::APP, provider.as_str())
        .findings_file(&file)
        .build()
        .unwrap();
    let at = serve(proxy.router()).await;
    let options = contract_at(at);
    let api = mrds_tests::real_spec();
    let outcomes = mrds_contract::run(api, &options)
        .await
        .expect("the suite runs");
    assert!(outcomes.len() > 100, "the suite's requests went through");
    proxy.write_findings().unwrap();

    // The findings: the three drifts, each once, and nothing else.
    let findings = proxy.findings();
    let kinds: Vec<(&str, &str)> = findings
        .iter()
        .map(|f| (f.endpoint.as_str(), f.observed.kind()))
        .collect();
    assert_eq!(kinds.len(), 3, "exactly three findings, not {findings:#?}");
    let e = drifts.endpoint.as_str();
    assert!(kinds.contains(&(e, "field.undeclared")), "{findings:#?}");
    assert!(kinds.contains(&(e, "value.unknown")), "{findings:#?}");
    let stricter = findings
        .iter()
        .find(|f| f.observed.kind() == "rule.stricter")
        .unwrap_or_else(|| panic!("{findings:#?}"));
    assert_eq!(stricter.endpoint, drifts.looser_endpoint);
    let Observed::RuleStricter { rule, status } = &stricter.observed else {
        unreachable!()
    };
    assert_eq!(*status, 200);
    assert!(
        rule.starts_with(&format!("{}.{}.", drifts.looser_endpoint, drifts.param)),
        "the rule of `{}`'s maximum, not {rule}",
        drifts.param
    );
    // The example is the request, without the key.
    let example = &stricter.examples[0];
    assert!(
        example.starts_with(&format!("GET {}?", drifts.looser_path)),
        "{example}"
    );
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(!written.contains(KEY));
    assert_eq!(written.lines().count(), 3);

    // The report: the three spec edits, from the file the proxy wrote.
    let outcome = xtask::drift::run(
        &mrds_tests::workspace_root(),
        &xtask::drift::Args {
            files: vec![file],
            apply: false,
        },
    );
    assert_eq!(outcome.stderr, "");
    let report = outcome.stdout;
    for expected in [
        // The provider takes a limit past the maximum as the maximum, but its sample data
        // holds fewer records than that: whether it caps or honours is not shown, a note.
        "3 findings from the proxy: 2 spec edits, 1 note\n".to_string(),
        format!(
            "record `{}` gains optional field `{}`",
            drifts.record, drifts.extra
        ),
        format!(
            "value set `{}` gains `{}` (field `{}` of `{}`)",
            drifts.value_set, drifts.value, drifts.field, drifts.record
        ),
        format!(
            "note: `{}` of `{}` is accepted up to {} by the service",
            drifts.param,
            drifts.looser_endpoint,
            drifts.max + 1
        ),
    ] {
        assert!(report.contains(&expected), "{expected:?} not in:\n{report}");
    }
    assert_eq!(outcome.code, 1, "findings make the report fail:\n{report}");

    // The same provider seen through the client: the two drifts of its answers.
    let client = Client::builder(&provider)
        .api_key(KEY)
        .no_retries()
        .build()
        .unwrap();
    let mut visitor = SendExample {
        client: &client,
        example: drifts.example,
        sent: None,
    };
    visit_requests(&mut visitor);
    visitor
        .sent
        .expect("the endpoint has a parameter type")
        .await;
    let seen: Vec<Observed> = client
        .drift()
        .findings()
        .into_iter()
        .map(|f| f.observed)
        .collect();
    assert_eq!(
        seen,
        [
            Observed::UndeclaredField {
                record: drifts.record.clone(),
                field: drifts.extra.clone(),
            },
            Observed::UnknownValue {
                record: drifts.record.clone(),
                field: drifts.field.clone(),
                value_set: drifts.value_set.clone(),
            },
        ]
    );
}
