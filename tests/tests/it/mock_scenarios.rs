//! The sample server's scenarios as a test double (`mrds_mock::MockServer`): any status, with
//! the spec's error object where the spec has a code for it, a body of the test's own, or
//! bare; matched by query parameter and path parameter; expectations checked when the server
//! drops (with a message naming the scenario and what the endpoint received); and the journal
//! and the log line of each request: its outcome (answered, reset, abandoned by the client),
//! the time the answer took with a delay included, and what answered it.

#![allow(deprecated)] // the removed endpoint's constant is named on purpose

use std::time::{Duration, Instant};

use mrds_client::{Client, Error, RetryPolicy};
use mrds_mock::{AnsweredBy, MockServer, Outcome, ReceivedRequest, Scenario};
use mrds_model::ErrorCode;
use mrds_model::api::{COMPANY_DETAIL, Endpoint, PERSON_COMMENTARY, STOCK_DIVIDENDS};
use mrds_model::params::CompanyDetailParams;

use crate::client_tracing::record;
use crate::http::{self, get};

/// The path and query of `endpoint`'s sample example, below the base path.
fn target(endpoint: &Endpoint) -> String {
    format!(
        "{}{}",
        mrds_mock::BASE_PATH,
        http::example(endpoint.id).request
    )
}

/// A client of `server` whose retries wait at most a few milliseconds.
fn client(server: &MockServer, retries: u32) -> Client {
    Client::builder(server.base_url())
        .api_key(server.api_key())
        .retry(RetryPolicy {
            max_retries: retries,
            initial_backoff: Duration::from_millis(1),
            max_backoff: Duration::from_millis(5),
            ..RetryPolicy::default()
        })
        .build()
        .unwrap()
}

fn company() -> CompanyDetailParams {
    CompanyDetailParams::new().with_symbol("AAPL")
}

/// The journal's entries of `endpoint` once none is pending (the server completes an entry
/// when it answers, or notices the client went away, a moment after the client is done).
async fn settled(server: &MockServer, endpoint: &Endpoint) -> Vec<ReceivedRequest> {
    let started = Instant::now();
    loop {
        let received = server.received_requests_of(endpoint);
        if received.iter().all(|r| r.outcome != Outcome::Pending) {
            return received;
        }
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "still pending: {received:#?}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test]
async fn any_status_with_the_error_object_a_body_of_its_own_or_bare() {
    let server = MockServer::start().await.unwrap();
    let addr = server.address();
    let key = Some(server.api_key());
    let dividends = target(&STOCK_DIVIDENDS);
    for scenario in [
        Scenario::status(503),
        Scenario::status(503)
            .body("<h1>down for maintenance</h1>")
            .header("content-type", "text/html"),
        Scenario::status(429),
        Scenario::bare_status(429).retry_after(Duration::from_secs(3)),
        Scenario::status(204),
        Scenario::status(200).json_body(r#"{"success": true}"#),
    ] {
        server.answer(&STOCK_DIVIDENDS, scenario).unwrap();
    }
    // No code of the spec answers 503: bare, as a load balancer answers it.
    let bare = get(addr, &dividends, key).await;
    assert_eq!((bare.status, bare.body.len()), (503, 0));
    let page = get(addr, &dividends, key).await;
    assert_eq!(page.status, 503);
    assert_eq!(page.header("content-type"), Some("text/html"));
    assert_eq!(page.body, b"<h1>down for maintenance</h1>");
    // 429 has a code: the error object, and Retry-After: 1.
    let limited = get(addr, &dividends, key).await;
    limited.error(429, ErrorCode::RateLimited);
    assert_eq!(limited.header("retry-after"), Some("1"));
    let bare = get(addr, &dividends, key).await;
    assert_eq!((bare.status, bare.body.len()), (429, 0));
    assert_eq!(bare.header("retry-after"), Some("3"));
    assert_eq!(get(addr, &dividends, key).await.status, 204);
    let custom = get(addr, &dividends, key).await;
    assert_eq!(
        (custom.status, custom.json()),
        (200, serde_json::json!({"success": true}))
    );
    assert_eq!(custom.header("content-type"), Some("application/json"));
    assert_eq!(
        get(addr, &dividends, key).await.status,
        200,
        "the samples again"
    );

    // The client retries a bare 503, and reports one as such when its retries run out.
    server
        .answer(&COMPANY_DETAIL, Scenario::status(503).times(2))
        .unwrap();
    assert!(
        !client(&server, 3)
            .company_detail(&company())
            .await
            .unwrap()
            .data
            .is_empty()
    );
    server
        .answer(&COMPANY_DETAIL, Scenario::status(503).times(2))
        .unwrap();
    let err = client(&server, 1)
        .company_detail(&company())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Status(e) if e.status == 503 && e.attempts == 2),
        "{err:?}"
    );
    assert!(err.is_retryable() && err.code().is_none());
}

#[tokio::test]
async fn scenarios_match_by_query_and_path_parameters() {
    let server = MockServer::start().await.unwrap();
    let addr = server.address();
    let key = Some(server.api_key());
    server
        .answer(
            &STOCK_DIVIDENDS,
            Scenario::status(500).when_query("symbol", "AAPL").always(),
        )
        .unwrap();
    let aapl = target(&STOCK_DIVIDENDS);
    assert!(aapl.contains("symbol=AAPL"), "{aapl}");
    let other = aapl.replace("symbol=AAPL", "symbol=MSFT");
    get(addr, &aapl, key)
        .await
        .error(500, ErrorCode::InternalError);
    assert_eq!(get(addr, &other, key).await.status, 200);
    get(addr, &aapl.replace("AAPL", "%41APL"), key)
        .await
        .error(500, ErrorCode::InternalError);

    // A path parameter, by the name the endpoint's path gives it.
    let commentary = target(&PERSON_COMMENTARY);
    let person = commentary
        .split('/')
        .nth(4)
        .expect("the person id in /api/v1/persons/{person_id}/commentary");
    server
        .answer(
            &PERSON_COMMENTARY,
            Scenario::status(404).when_path("person_id", person),
        )
        .unwrap();
    let someone_else = commentary.replace(person, "00000000-0000-4000-8000-000000000000");
    get(addr, &someone_else, key).await;
    // Without a key: a scenario answers in place of the endpoint, which would refuse none.
    let answer = get(addr, &commentary, None).await;
    let error = answer.error(404, ErrorCode::ResourceNotFound);
    assert!(error.message.contains("scenario"), "{}", error.message);
    let journal = server.received_requests_of(&PERSON_COMMENTARY);
    let by: Vec<_> = journal.iter().map(|r| r.answered_by.clone()).collect();
    assert_eq!(
        by,
        [
            Some(AnsweredBy::Server),
            Some(AnsweredBy::Scenario("person_commentary#2".into()))
        ]
    );
}

#[tokio::test]
async fn met_expectations_pass_silently_and_unmet_ones_say_what_was_received() {
    let server = MockServer::start().await.unwrap();
    let addr = server.address();
    let key = Some(server.api_key());
    let dividends = target(&STOCK_DIVIDENDS);
    server
        .answer(
            &STOCK_DIVIDENDS,
            Scenario::status(503).expect(2).named("gateway down"),
        )
        .unwrap();
    server
        .answer(&COMPANY_DETAIL, Scenario::samples().expect(1..))
        .unwrap();
    get(addr, &dividends, key).await;
    let unmet = server.check_expectations().unwrap_err();
    let names: Vec<&str> = unmet.unmet.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names, ["gateway down", "company_detail#2"]);
    let text = unmet.to_string();
    for expected in [
        "scenario \"gateway down\" (stock_dividends: 503) expected exactly 2 requests, answered 1",
        "stock_dividends received 1 request:",
        "GET /api/v1/stocks/dividends?symbol=AAPL",
        "→ 503 by scenario \"gateway down\"",
        "scenario \"company_detail#2\" (company_detail: samples) expected at least 1 request, answered 0",
        "company_detail received no request",
    ] {
        assert!(text.contains(expected), "{expected:?} not in:\n{text}");
    }
    // Met: the server drops without a word.
    get(addr, &dividends, key).await;
    get(addr, &target(&COMPANY_DETAIL), key).await;
    get(addr, &target(&COMPANY_DETAIL), key).await;
    server.verify();
    assert_eq!(server.check_expectations(), Ok(()));
}

/// A test that expects the failure: the server dropped with an expectation not met panics,
/// naming the scenario.
#[tokio::test]
#[should_panic(
    expected = "scenario \"two calls\" (company_detail: samples) expected exactly 2 requests, answered 1"
)]
async fn an_unmet_expectation_fails_the_test_when_the_server_drops() {
    let server = MockServer::start().await.unwrap();
    server
        .answer(
            &COMPANY_DETAIL,
            Scenario::samples().expect(2).named("two calls"),
        )
        .unwrap();
    get(
        server.address(),
        &target(&COMPANY_DETAIL),
        Some(server.api_key()),
    )
    .await;
    drop(server);
}

#[tokio::test]
async fn the_journal_says_how_each_request_was_answered_and_how_long_it_took() {
    let server = MockServer::start().await.unwrap();
    let addr = server.address();
    let key = Some(server.api_key());
    let company_target = target(&COMPANY_DETAIL);
    server
        .answer(
            &COMPANY_DETAIL,
            Scenario::delay(Duration::from_millis(150)).named("slow"),
        )
        .unwrap();
    server.answer(&COMPANY_DETAIL, Scenario::reset()).unwrap();
    // A client that gives up after 100 ms, during a 1 s delay: the request is abandoned.
    server
        .answer(&COMPANY_DETAIL, Scenario::delay(Duration::from_secs(1)))
        .unwrap();
    assert_eq!(get(addr, &company_target, key).await.status, 200);
    let _ = client(&server, 0).company_detail(&company()).await;
    let impatient = Client::builder(server.base_url())
        .api_key(server.api_key())
        .timeout(Duration::from_millis(100))
        .no_retries()
        .build()
        .unwrap();
    let err = impatient.company_detail(&company()).await.unwrap_err();
    assert!(err.is_timeout(), "{err:?}");
    crate::http::send(
        addr,
        "GET",
        &company_target,
        &[("X-API-Key", server.api_key()), ("Prefer", "code=500")],
    )
    .await;

    let journal = settled(&server, &COMPANY_DETAIL).await;
    let seen: Vec<(Outcome, Option<AnsweredBy>)> = journal
        .iter()
        .map(|r| (r.outcome, r.answered_by.clone()))
        .collect();
    assert_eq!(
        seen,
        [
            (
                Outcome::Answered { status: 200 },
                Some(AnsweredBy::Scenario("slow".into()))
            ),
            (
                Outcome::Reset,
                Some(AnsweredBy::Scenario("company_detail#2".into()))
            ),
            (
                Outcome::Abandoned,
                Some(AnsweredBy::Scenario("company_detail#3".into()))
            ),
            (Outcome::Answered { status: 500 }, Some(AnsweredBy::Prefer)),
        ]
    );
    let took = |i: usize| journal[i].duration.unwrap();
    assert!(
        took(0) >= Duration::from_millis(150),
        "the delay counts: {:?}",
        took(0)
    );
    // The client's 100 ms run from before it connected; the server's from the request's head.
    assert!(
        took(2) >= Duration::from_millis(50) && took(2) < Duration::from_secs(1),
        "abandoned at the client's timeout, before the delay's end: {:?}",
        took(2)
    );
    assert_eq!(journal[3].outcome.status(), Some(500));
}

#[tokio::test]
async fn each_request_is_logged_with_its_method_query_key_and_whole_time() {
    let server = MockServer::builder()
        .api_key("log-line-secret-0001")
        .start()
        .await
        .unwrap();
    let addr = server.address();
    let (recording, _guard) = record();
    server
        .answer(
            &COMPANY_DETAIL,
            Scenario::delay(Duration::from_millis(120)).named("slow"),
        )
        .unwrap();
    let company = format!("{}&note=log-line-secret-0001", target(&COMPANY_DETAIL));
    get(addr, &company, Some("log-line-secret-0001")).await;
    get(addr, "/api/v1/nothing?x=1", Some("wrong")).await;
    drop(server);

    let lines: Vec<_> = recording
        .events()
        .into_iter()
        .filter(|e| e.name == "request")
        .collect();
    assert_eq!(
        lines.len(),
        2,
        "one line a request, none from the router: {lines:#?}"
    );
    let slow = &lines[0];
    assert_eq!(slow.field("method"), Some("GET"));
    assert_eq!(slow.field("endpoint"), Some("company_detail"));
    assert_eq!(slow.field("key"), Some("accepted"));
    assert_eq!(slow.field("status"), Some("200"));
    assert_eq!(slow.field("answered_by"), Some("scenario"));
    assert_eq!(slow.field("scenario"), Some("slow"));
    let query = slow.field("query").unwrap();
    assert!(
        query.starts_with("symbol=AAPL") && query.ends_with("note=<redacted>"),
        "{query}"
    );
    let micros: u64 = slow.field("micros").unwrap().parse().unwrap();
    assert!(micros >= 120_000, "the delay counts: {micros}");
    let stray = &lines[1];
    assert_eq!(stray.field("path"), Some("/api/v1/nothing"));
    assert_eq!(
        (stray.field("key"), stray.field("status")),
        (Some("refused"), Some("404"))
    );
    assert_eq!(stray.field("answered_by"), Some("server"));
    assert!(!format!("{lines:?}").contains("log-line-secret-0001"));
}
