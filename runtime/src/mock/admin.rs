//! The admin API of a sample server (`--admin` on the command line,
//! [`MockServerBuilder::admin`](super::MockServerBuilder::admin) in process), for tests in any
//! language, in WireMock's shape where it fits: the journal (`GET /__admin/requests`,
//! credentials redacted), scenarios as JSON (`POST /__admin/scenarios`: the Rust API's
//! [`Scenario`](super::Scenario), through serde), and a reset (`POST /__admin/reset`).
//!
//! | route | what |
//! |---|---|
//! | `GET /__admin/requests` | the journal, oldest first (`?endpoint=<id>` for one endpoint's): `{"requests": [...], "meta": {"total", "forgotten"}}` |
//! | `DELETE /__admin/requests` | empties the journal |
//! | `POST /__admin/scenarios` | adds a scenario, or an array of them (all or none): `201 {"scenarios": [{"name", "endpoint"}]}`, or `400 {"error"}` saying why |
//! | `GET /__admin/scenarios` | the scenarios given, each with `answered` (how many requests it answered) and `met` (its expectation, `null` without one) |
//! | `DELETE /__admin/scenarios` | forgets every scenario |
//! | `POST /__admin/reset` | forgets every scenario and empties the journal |

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use serde_json::{Map, Value, json};

use super::journal::{AnsweredBy, Journal, Outcome, ReceivedRequest};
use super::plans::Plans;
use super::scenario::Scenario;
use crate::{Endpoint, RawParams};

/// Where the admin API's routes are, at the root (outside the base path).
pub(crate) const PREFIX: &str = "/__admin/";

/// The largest request body the admin API reads: 1 MiB.
const BODY_LIMIT: usize = 1024 * 1024;

/// The routes, for the answer to one that does not exist.
const ROUTES: &[&str] = &[
    "GET /__admin/requests",
    "DELETE /__admin/requests",
    "POST /__admin/scenarios",
    "GET /__admin/scenarios",
    "DELETE /__admin/scenarios",
    "POST /__admin/reset",
];

/// The answer of the admin API to `request` (its path below [`PREFIX`]).
pub(crate) async fn answer(
    plans: &Plans,
    journal: &Journal,
    endpoints: &'static [Endpoint],
    request: Request,
) -> Response {
    let path = request.uri().path().trim_end_matches('/').to_string();
    let method = request.method().clone();
    match (path.as_str(), method) {
        ("/__admin/requests", Method::GET) => {
            let endpoint = request.uri().query().and_then(|q| {
                RawParams::from_query_string(q)
                    .query_pairs()
                    .find(|(n, _)| *n == "endpoint")
                    .map(|(_, v)| v.to_string())
            });
            let requests: Vec<Value> = (journal.requests().iter())
                .filter(|r| {
                    endpoint
                        .as_deref()
                        .is_none_or(|id| r.endpoint.is_some_and(|e| e.id == id))
                })
                .map(request_json)
                .collect();
            let meta = json!({"total": requests.len(), "forgotten": journal.forgotten()});
            reply(StatusCode::OK, json!({"requests": requests, "meta": meta}))
        }
        ("/__admin/requests", Method::DELETE) => {
            let cleared = journal.requests().len();
            journal.clear();
            reply(StatusCode::OK, json!({"cleared": cleared}))
        }
        ("/__admin/scenarios", Method::POST) => {
            let body = match axum::body::to_bytes(request.into_body(), BODY_LIMIT).await {
                Ok(body) => body,
                Err(e) => {
                    let error = format!("the body could not be read (at most 1 MiB): {e}");
                    return reply(StatusCode::BAD_REQUEST, json!({"error": error}));
                }
            };
            add_scenarios(plans, endpoints, &body)
        }
        ("/__admin/scenarios", Method::GET) => {
            let scenarios: Vec<Value> = (plans.list().into_iter())
                .map(|state| {
                    let mut object = match serde_json::to_value(&state.scenario) {
                        Ok(Value::Object(object)) => object,
                        _ => Map::new(),
                    };
                    object.insert("answered".into(), state.answered.into());
                    object.insert("met".into(), state.met().into());
                    Value::Object(object)
                })
                .collect();
            reply(StatusCode::OK, json!({"scenarios": scenarios}))
        }
        ("/__admin/scenarios", Method::DELETE) => {
            plans.clear();
            reply(StatusCode::OK, json!({}))
        }
        ("/__admin/reset", Method::POST) => {
            plans.clear();
            journal.clear();
            reply(StatusCode::OK, json!({}))
        }
        (path, _) if ROUTES.iter().any(|r| r.ends_with(path)) => {
            let allow: Vec<&str> = (ROUTES.iter())
                .filter(|r| r.ends_with(path))
                .filter_map(|r| r.split_once(' ').map(|(m, _)| m))
                .collect();
            let mut response = reply(
                StatusCode::METHOD_NOT_ALLOWED,
                json!({"error": format!("{path} takes {}", allow.join(", "))}),
            );
            if let Ok(value) = HeaderValue::from_str(&allow.join(", ")) {
                response.headers_mut().insert(header::ALLOW, value);
            }
            response
        }
        (path, _) => reply(
            StatusCode::NOT_FOUND,
            json!({"error": format!("no admin route {path}"), "routes": ROUTES}),
        ),
    }
}

/// `POST /__admin/scenarios`: one scenario or an array, every one checked before any is added.
fn add_scenarios(plans: &Plans, endpoints: &'static [Endpoint], body: &[u8]) -> Response {
    let scenarios = match Scenario::from_json(body) {
        Ok(scenarios) => scenarios,
        Err(e) => return reply(StatusCode::BAD_REQUEST, json!({"error": e.to_string()})),
    };
    for (at, scenario) in scenarios.iter().enumerate() {
        if let Err(e) = Plans::check(endpoints, None, scenario) {
            let error = match scenarios.len() {
                1 => e.to_string(),
                _ => format!("scenario {at} (from 0): {e}"),
            };
            return reply(StatusCode::BAD_REQUEST, json!({"error": error}));
        }
    }
    let mut added = Vec::new();
    for scenario in scenarios {
        match plans.add(endpoints, None, scenario.clone()) {
            Ok(name) => added.push(json!({"name": name, "endpoint": scenario.endpoint})),
            Err(e) => return reply(StatusCode::BAD_REQUEST, json!({"error": e.to_string()})),
        }
    }
    reply(StatusCode::CREATED, json!({"scenarios": added}))
}

/// A received request as the admin API shows it.
fn request_json(r: &ReceivedRequest) -> Value {
    let mut query = Map::new();
    for (name, value) in r.query_pairs() {
        let values = query
            .entry(name)
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(values) = values {
            values.push(value.into());
        }
    }
    let mut headers = Map::new();
    for (name, value) in &r.headers {
        match headers.get_mut(name) {
            Some(Value::String(first)) => {
                first.push_str(", ");
                first.push_str(value);
            }
            _ => {
                headers.insert(name.clone(), value.clone().into());
            }
        }
    }
    let (outcome, status) = match r.outcome {
        Outcome::Pending => ("pending", None),
        Outcome::Answered { status } => ("answered", Some(status)),
        Outcome::Reset => ("reset", None),
        Outcome::Abandoned => ("abandoned", None),
    };
    let (answered_by, scenario) = match &r.answered_by {
        None => (None, None),
        Some(AnsweredBy::Server) => (Some("server"), None),
        Some(AnsweredBy::Scenario(name)) => (Some("scenario"), Some(name.as_str())),
        Some(AnsweredBy::Prefer) => (Some("prefer"), None),
    };
    json!({
        "method": r.method,
        "path": r.path,
        "query": r.query,
        "query_params": query,
        "headers": headers,
        "body": String::from_utf8_lossy(&r.body),
        "body_truncated": r.body_truncated,
        "endpoint": r.endpoint.map(|e| e.id),
        "api_key": r.api_key.as_str(),
        "outcome": outcome,
        "status": status,
        "duration_ms": r.duration.map(|d| d.as_secs_f64() * 1000.0),
        "answered_by": answered_by,
        "scenario": scenario,
    })
}

/// `value` as a JSON answer with `status`.
fn reply(status: StatusCode, value: Value) -> Response {
    let mut response = Response::new(Body::from(value.to_string()));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}
