//! The sample server's admin API over HTTP (`--admin`, `MockServer::builder().admin(true)`),
//! for tests in any language: scenarios as JSON (the Rust API's `Scenario` through serde),
//! the journal with credentials redacted, each request's outcome and time, and a reset. Off
//! by default.

use serde_json::{Value, json};

use mrds_mock::MockServer;
use mrds_model::ErrorCode;

use crate::http::{Answer, first, get, second, send, send_body, target};

const KEY: &str = "admin-test-key-0001";

async fn admin() -> MockServer {
    MockServer::builder()
        .api_key(KEY)
        .admin(true)
        .start()
        .await
        .unwrap()
}

async fn post(server: &MockServer, path: &str, body: &Value) -> Answer {
    let text = body.to_string();
    send_body(
        server.address(),
        "POST",
        path,
        &[("Content-Type", "application/json")],
        text.as_bytes(),
    )
    .await
}

#[tokio::test]
async fn scenarios_are_set_as_json_and_the_journal_is_read_back() {
    let server = admin().await;
    let addr = server.address();
    let (name, value) = mrds_tests::example_query(second().id).remove(0);
    let scenario = json!({
        "endpoint": second().id,
        "name": "gateway down",
        "request": {"query": {&name: &value}},
        "response": {"status": 503, "retry_after": 0},
        "times": 2,
        "expect": {"at_least": 1}
    });
    let added = post(&server, "/__admin/scenarios", &scenario).await;
    assert_eq!(
        added.status,
        201,
        "{}",
        String::from_utf8_lossy(&added.body)
    );
    assert_eq!(
        added.json(),
        json!({"scenarios": [{"name": "gateway down", "endpoint": second().id}]})
    );
    let answer = get(addr, &target(second()), Some(KEY)).await;
    assert_eq!((answer.status, answer.body.len()), (503, 0));
    assert_eq!(answer.header("retry-after"), Some("0"));
    // An array, of which every scenario is checked before any is added.
    let many = json!([
        {"endpoint": first().id, "response": {"status": 429}},
        {"endpoint": "no_such_endpoint"}
    ]);
    let refused = post(&server, "/__admin/scenarios", &many).await;
    assert_eq!(refused.status, 400);
    let error = refused.json()["error"].as_str().unwrap().to_string();
    assert!(
        error.starts_with("scenario 1 (from 0): `no_such_endpoint` is not an endpoint")
            && error.contains(first().id),
        "{error}"
    );
    assert_eq!(get(addr, &target(first()), Some(KEY)).await.status, 200);

    let listed = send(addr, "GET", "/__admin/scenarios", &[]).await.json();
    let listed = &listed["scenarios"][0];
    assert_eq!(listed["name"], "gateway down");
    assert_eq!(
        (listed["answered"].clone(), listed["met"].clone()),
        (json!(1), json!(true))
    );
    assert_eq!(listed["response"], json!({"status": 503, "retry_after": 0}));

    let journal = send(addr, "GET", "/__admin/requests", &[]).await.json();
    assert_eq!(journal["meta"], json!({"total": 2, "forgotten": 0}));
    let entry = &journal["requests"][0];
    assert_eq!(entry["method"], "GET");
    assert_eq!(entry["endpoint"], second().id);
    assert_eq!(entry["query_params"][&name], json!([value]));
    assert_eq!(entry["headers"]["x-api-key"], mrds_mock::REDACTED);
    assert_eq!(entry["api_key"], "accepted");
    assert_eq!(entry["outcome"], "answered");
    assert_eq!(entry["status"], 503);
    assert_eq!(entry["answered_by"], "scenario");
    assert_eq!(entry["scenario"], "gateway down");
    assert!(entry["duration_ms"].as_f64().unwrap() >= 0.0);
    assert_eq!(journal["requests"][1]["answered_by"], "server");
    assert!(!journal.to_string().contains(KEY), "{journal}");
    let of = format!("/__admin/requests?endpoint={}", first().id);
    let of = send(addr, "GET", &of, &[]).await;
    assert_eq!(of.json()["meta"]["total"], 1);

    // The reset forgets the scenarios and the journal; admin requests are never journaled.
    let reset = send(addr, "POST", "/__admin/reset", &[]).await;
    assert_eq!(reset.status, 200);
    assert_eq!(get(addr, &target(second()), Some(KEY)).await.status, 200);
    let journal = send(addr, "GET", "/__admin/requests", &[]).await.json();
    assert_eq!(journal["meta"]["total"], 1);
    let scenarios = send(addr, "GET", "/__admin/scenarios", &[]).await.json();
    assert_eq!(scenarios, json!({"scenarios": []}));
}

#[tokio::test]
async fn what_the_admin_api_cannot_do_is_said() {
    let server = admin().await;
    let addr = server.address();
    for (body, says) in [
        (
            json!({"endpoint": second().id, "respons": {}}),
            "unknown field `respons`",
        ),
        (json!({"response": {"status": 503}}), "names no endpoint"),
        (
            json!({"endpoint": second().id, "response": {"status": 99}}),
            "200 to 599",
        ),
        (
            json!({"endpoint": second().id, "response": {"reset": true, "status": 500}}),
            "a reset closes the connection",
        ),
        (
            json!({"endpoint": second().id, "times": 1, "expect": 2}),
            "answers at most 1 request but expects exactly 2 requests",
        ),
    ] {
        let answer = post(&server, "/__admin/scenarios", &body).await;
        assert_eq!(answer.status, 400, "{body}");
        let error = answer.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains(says), "{body}: {error}");
    }
    let not_json = send_body(addr, "POST", "/__admin/scenarios", &[], b"{").await;
    assert_eq!(not_json.status, 400);
    let wrong = send(addr, "PUT", "/__admin/reset", &[]).await;
    assert_eq!((wrong.status, wrong.header("allow")), (405, Some("POST")));
    let unknown = send(addr, "GET", "/__admin/mappings", &[]).await;
    assert_eq!(unknown.status, 404);
    assert!(unknown.json()["routes"].as_array().unwrap().len() >= 6);
    // Cleared one by one.
    post(
        &server,
        "/__admin/scenarios",
        &json!({"endpoint": first().id, "times": "always", "response": {"status": 500}}),
    )
    .await;
    get(addr, &target(first()), Some(KEY))
        .await
        .error(500, ErrorCode::InternalError);
    assert_eq!(
        send(addr, "DELETE", "/__admin/scenarios", &[]).await.status,
        200
    );
    assert_eq!(get(addr, &target(first()), Some(KEY)).await.status, 200);
    let cleared = send(addr, "DELETE", "/__admin/requests", &[]).await.json();
    assert_eq!(cleared, json!({"cleared": 2}));
    assert!(server.received_requests().is_empty());
}

#[tokio::test]
async fn the_admin_api_is_off_unless_asked_for() {
    let server = MockServer::start().await.unwrap();
    let answer = send(server.address(), "GET", "/__admin/requests", &[]).await;
    answer.error(404, ErrorCode::ResourceNotFound);
    // The request is the journal's like any other.
    assert_eq!(server.received_requests()[0].path, "/__admin/requests");
}
