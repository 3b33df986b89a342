//! The sample server in process (`mrds_mock::MockServer`): its journal records every request
//! (the key's value never in it), scenarios set from Rust answer an endpoint's next requests
//! (statuses with the spec's error object, delays, lost connections) and then the samples
//! again, the `Prefer` header does the same for any client (any status, bare where the spec
//! has no code) and refuses what it cannot do, removed endpoints are served when asked, the
//! journal stays within its capacity, and the server stops when dropped. Endpoints come from
//! the generated constants; delays are milliseconds. (Matchers, expectations, bodies and the
//! journal's outcomes: `mock_scenarios`; the admin API: `mock_admin`.)

use std::time::{Duration, Instant};

use mrds_client::{Error, TransportKind};
use mrds_mock::{KeySent, MockServer, REDACTED, Scenario, ScenarioError};
use mrds_model::ErrorCode;
use mrds_model::api::{ENDPOINTS, Endpoint};

use crate::http::{self, call_example, client, first, get, second, send, target};

const KEY: &str = "journal-secret-key-0001";

async fn server() -> MockServer {
    MockServer::builder().api_key(KEY).start().await.unwrap()
}

#[tokio::test]
async fn the_journal_records_every_request_without_the_key() {
    let server = server().await;
    let addr = server.address();
    assert_eq!(server.api_key(), KEY);
    assert_eq!(server.base_url(), format!("http://{addr}/api"));
    let examples = mrds_mock::EXAMPLES;
    for example in examples {
        http::call(addr, mrds_mock::BASE_PATH, example, Some(KEY)).await;
    }
    // No endpoint's path; a key in the query and in another header; a wrong key; no key.
    let stray = format!("/api/v1/nothing?api_key={KEY}");
    send(addr, "GET", &stray, &[("X-API-Key", KEY), ("X-Note", KEY)]).await;
    get(addr, &target(first()), Some("a-wrong-key-999")).await;
    get(addr, &target(first()), None).await;

    let received = server.received_requests();
    assert_eq!(received.len(), examples.len() + 3);
    for (request, example) in received.iter().zip(examples) {
        let endpoint = request.endpoint.expect("an endpoint's request");
        assert_eq!(endpoint.id, example.endpoint);
        assert_eq!(request.method, example.method.as_str());
        let (path, query) = example
            .request
            .split_once('?')
            .unwrap_or((example.request, ""));
        assert_eq!(request.path, format!("{}{path}", mrds_mock::BASE_PATH));
        assert_eq!(request.query, query);
        assert_eq!(request.api_key, KeySent::Accepted);
        assert_eq!(request.header("x-api-key"), Some(REDACTED));
        assert_eq!(request.header("host"), Some(addr.to_string().as_str()));
        assert_eq!(request.body_text(), Some(example.body.unwrap_or_default()));
    }
    let stray = &received[examples.len()];
    assert_eq!(
        (stray.endpoint, stray.path.as_str()),
        (None, "/api/v1/nothing")
    );
    assert_eq!(stray.query_param("api_key").as_deref(), Some(REDACTED));
    assert_eq!(stray.header("x-note"), Some(REDACTED));
    assert_eq!(received[examples.len() + 1].api_key, KeySent::Refused);
    assert_eq!(received[examples.len() + 2].api_key, KeySent::None);
    // The key's value is nowhere, nor the wrong one.
    let journal = format!("{received:?}");
    assert!(!journal.contains(KEY) && !journal.contains("a-wrong-key-999"));

    // By endpoint, from the generated constants.
    let company = server.received_requests_of(first());
    assert_eq!(company.len(), 3);
    assert!(company.iter().all(|r| r.is(first())));
    let (name, value) = mrds_tests::example_query(first().id).remove(0);
    assert_eq!(company[0].query_param(&name), Some(value));
    server.clear_received_requests();
    assert!(server.received_requests().is_empty());
}

#[tokio::test]
async fn scenarios_answer_the_next_requests_then_the_samples_return() {
    let server = server().await;
    let addr = server.address();
    let dividends = target(second());
    server
        .answer(second(), Scenario::status(429).times(2))
        .unwrap();
    server.answer(second(), Scenario::status(500)).unwrap();
    server
        .answer(
            second(),
            Scenario::bare_status(503).retry_after(Duration::from_secs(2)),
        )
        .unwrap();

    // Another endpoint is not affected.
    assert_eq!(get(addr, &target(first()), Some(KEY)).await.status, 200);
    for _ in 0..2 {
        let answer = get(addr, &dividends, Some(KEY)).await;
        let error = answer.error(429, ErrorCode::RateLimited);
        assert_eq!(answer.header("retry-after"), Some("1"));
        assert!(error.message.contains("scenario"), "{}", error.message);
        assert!(error.hint.is_some());
    }
    // A scenario answers in place of the endpoint: the key is not checked.
    get(addr, &dividends, None)
        .await
        .error(500, ErrorCode::InternalError);
    let bare = get(addr, &dividends, Some(KEY)).await;
    assert_eq!((bare.status, bare.body.len()), (503, 0));
    assert_eq!(bare.header("retry-after"), Some("2"));
    assert_eq!(get(addr, &dividends, Some(KEY)).await.status, 200);
    assert_eq!(server.received_requests_of(second()).len(), 5);

    // Always, until cleared.
    server
        .answer(second(), Scenario::status(401).always())
        .unwrap();
    for _ in 0..3 {
        get(addr, &dividends, Some(KEY))
            .await
            .error(401, ErrorCode::Unauthorized);
    }
    server.clear_scenarios();
    assert_eq!(get(addr, &dividends, Some(KEY)).await.status, 200);
}

#[tokio::test]
async fn the_client_meets_delays_and_lost_connections() {
    let server = server().await;
    // A delay, then the samples.
    server
        .answer(first(), Scenario::delay(Duration::from_millis(150)))
        .unwrap();
    let started = Instant::now();
    let records = call_example(&client(&server, 0), first().id).await.unwrap();
    assert!(records > 0);
    assert!(started.elapsed() >= Duration::from_millis(150));

    // A lost connection: without retries the call fails as reset, with them it succeeds.
    server.answer(first(), Scenario::reset()).unwrap();
    let err = call_example(&client(&server, 0), first().id)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Transport(t) if t.kind == TransportKind::Reset && t.attempts == 1),
        "{err:?}"
    );
    server.answer(first(), Scenario::reset().times(2)).unwrap();
    let records = call_example(&client(&server, 3), first().id).await.unwrap();
    assert!(records > 0);
    // One delayed, one lost, two lost and the one answered.
    assert_eq!(server.received_requests_of(first()).len(), 5);

    // A status after a delay: the client's retries honour Retry-After: 0.
    server
        .answer(
            first(),
            Scenario::status(429)
                .after(Duration::from_millis(20))
                .retry_after(Duration::ZERO)
                .times(2),
        )
        .unwrap();
    let started = Instant::now();
    call_example(&client(&server, 3), first().id).await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(40));
    // Out of retries, the service's error reaches the caller with its Retry-After.
    server
        .answer(first(), Scenario::status(429).times(2))
        .unwrap();
    let err = call_example(&client(&server, 1), first().id)
        .await
        .unwrap_err();
    let Error::Api(e) = &err else {
        panic!("{err:?}")
    };
    assert_eq!((e.status, e.attempts), (429, 2));
    assert_eq!(e.error.code, ErrorCode::RateLimited);
    assert_eq!(e.retry_after, Some(Duration::from_secs(1)));
}

#[tokio::test]
async fn scenarios_that_cannot_be_answered_are_refused() {
    let server = server().await;
    for status in [199, 600] {
        assert_eq!(
            server.answer(second(), Scenario::status(status)),
            Err(ScenarioError::InvalidStatus { status })
        );
    }
    assert_eq!(
        server.answer(second(), Scenario::reset().retry_after(Duration::ZERO)),
        Err(ScenarioError::RetryAfterWithoutStatus)
    );
    let other = Endpoint {
        id: "not_in_the_spec",
        ..*second()
    };
    let err = server.answer(&other, Scenario::status(429)).unwrap_err();
    assert!(
        matches!(&err, ScenarioError::UnknownEndpoint { .. })
            && err.to_string().contains(second().id),
        "{err}"
    );
    // Nothing was planned.
    let answer = get(server.address(), &target(second()), Some(KEY)).await;
    assert_eq!(answer.status, 200);
}

#[tokio::test]
async fn the_prefer_header_asks_any_client_for_a_status_or_a_delay() {
    let server = server().await;
    let addr = server.address();
    let dividends = target(second());
    let prefer = |value: &'static str| [("X-API-Key", KEY), ("Prefer", value)];

    let answer = send(addr, "GET", &dividends, &prefer("code=429")).await;
    answer.error(429, ErrorCode::RateLimited);
    assert_eq!(answer.header("retry-after"), Some("1"));
    assert_eq!(answer.header("preference-applied"), Some("code=429"));
    let answer = send(addr, "GET", &dividends, &prefer("code=429, retry-after=0")).await;
    answer.error(429, ErrorCode::RateLimited);
    assert_eq!(answer.header("retry-after"), Some("0"));
    send(addr, "GET", &dividends, &prefer("code=500"))
        .await
        .error(500, ErrorCode::InternalError);
    let answer = send(addr, "GET", &dividends, &prefer("code=200")).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("preference-applied"), Some("code=200"));
    let started = Instant::now();
    let answer = send(addr, "GET", &dividends, &prefer("delay=120")).await;
    assert_eq!(answer.status, 200);
    assert!(started.elapsed() >= Duration::from_millis(120));
    // Preferences the server does not know are ignored; so is Prefer on no endpoint's path.
    let answer = send(addr, "GET", &dividends, &prefer("return=minimal")).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("preference-applied"), None);
    send(addr, "GET", "/api/v1/nothing", &prefer("code=429"))
        .await
        .error(404, ErrorCode::ResourceNotFound);

    // A status the spec has no code for is answered bare, as a gateway answers it.
    let answer = send(addr, "GET", &dividends, &prefer("code=503, retry-after=0")).await;
    assert_eq!((answer.status, answer.body.len()), (503, 0));
    assert_eq!(answer.header("retry-after"), Some("0"));
    assert_eq!(
        answer.header("preference-applied"),
        Some("code=503, retry-after=0")
    );

    // What cannot be followed is refused, saying what can.
    for (value, says) in [
        ("code=150", "200 to 599"),
        ("delay=20000", "at most 10000 ms"),
        ("code=4xx", "three digits"),
        ("retry-after=5", "code="),
    ] {
        let answer = send(addr, "GET", &dividends, &prefer(value)).await;
        let error = answer.error(400, ErrorCode::InvalidParameter);
        let detail = &error.details[0];
        assert_eq!(detail.field, "Prefer", "{value}");
        assert!(detail.reason.contains(says), "{value}: {}", detail.reason);
        assert!(
            error
                .hint
                .as_deref()
                .unwrap_or_default()
                .contains("429 RATE_LIMITED"),
            "{error:?}"
        );
    }

    // Turned off, the header is ignored.
    let quiet = MockServer::builder().prefer(false).start().await.unwrap();
    let answer = send(
        quiet.address(),
        "GET",
        &target(second()),
        &[("X-API-Key", quiet.api_key()), ("Prefer", "code=429")],
    )
    .await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("preference-applied"), None);
}

#[tokio::test]
async fn removed_endpoints_are_served_when_asked() {
    let Some(removed) = ENDPOINTS.iter().find(|e| e.removed.is_some()) else {
        return;
    };
    let target = target(removed);
    let default = server().await;
    get(default.address(), &target, Some(KEY))
        .await
        .error(410, ErrorCode::EndpointRemoved);
    let serving = MockServer::builder()
        .serve_removed(true)
        .start()
        .await
        .unwrap();
    assert_eq!(serving.api_key(), mrds_mock::DEMO_KEY);
    let answer = get(serving.address(), &target, Some(mrds_mock::DEMO_KEY)).await;
    assert_eq!(answer.status, 200);
    assert!(serving.received_requests()[0].is(removed));
}

#[tokio::test]
async fn the_journal_keeps_its_capacity_and_the_server_stops_when_dropped() {
    let server = MockServer::builder()
        .journal_capacity(2)
        .start()
        .await
        .unwrap();
    let addr = server.address();
    for n in 0..3 {
        get(addr, &format!("/api/v1/nothing?n={n}"), None).await;
    }
    let kept: Vec<String> = server
        .received_requests()
        .into_iter()
        .map(|r| r.query)
        .collect();
    assert_eq!(kept, ["n=1", "n=2"]);
    assert_eq!(server.forgotten_requests(), 1);

    drop(server);
    let started = Instant::now();
    while tokio::net::TcpStream::connect(addr).await.is_ok() {
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "still accepting after the drop"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }

    // Without a journal nothing is kept.
    let server = MockServer::builder()
        .journal_capacity(0)
        .start()
        .await
        .unwrap();
    get(server.address(), "/api/v1/nothing", None).await;
    assert!(server.received_requests().is_empty());
}
