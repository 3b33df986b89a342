//! The sample server's scenarios as a test double (`mrds_mock::MockServer`): any status, with
//! the spec's error object where the spec has a code for it, a body of the test's own, or
//! bare; matched by query parameter and path parameter; expectations checked when the server
//! drops (with a message naming the scenario and what the endpoint received); and the journal
//! and the log line of each request: its outcome (answered, reset, abandoned by the client),
//! the time the answer took with a delay included, and what answered it.

use std::time::{Duration, Instant};

use mrds_client::{Client, Error};
use mrds_mock::{AnsweredBy, MockServer, Outcome, ReceivedRequest, Scenario};
use mrds_model::ErrorCode;
use mrds_model::api::Endpoint;

use crate::client_tracing::record;
use crate::http::{call_example, client, first, get, second, target};

/// The first endpoint the sample server serves with a path parameter, and the parameter's
/// name; `None` when the spec serves none.
fn with_path() -> Option<(&'static Endpoint, &'static str)> {
    let served = mrds_tests::served_endpoints();
    let endpoint = served.into_iter().find(|e| e.path.contains('{'))?;
    let name = (endpoint.path.split('/')).find_map(|s| s.strip_prefix('{')?.strip_suffix('}'))?;
    Some((endpoint, name))
}

/// The first query pair of `target`, as sent (`symbol=AAPL`).
fn first_pair(target: &str) -> &str {
    let query = target.split_once('?').map_or("", |(_, q)| q);
    query.split('&').next().unwrap_or_default()
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
    let dividends = target(second());
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
        server.answer(second(), scenario).unwrap();
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
        .answer(first(), Scenario::status(503).times(2))
        .unwrap();
    assert!(call_example(&client(&server, 3), first().id).await.unwrap() > 0);
    server
        .answer(first(), Scenario::status(503).times(2))
        .unwrap();
    let err = call_example(&client(&server, 1), first().id)
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
    // The first parameter of the endpoint's example, and its value.
    let matched = target(second());
    let (name, value) = mrds_tests::example_query(second().id).remove(0);
    server
        .answer(
            second(),
            Scenario::status(500).when_query(&name, &value).always(),
        )
        .unwrap();
    get(addr, &matched, key)
        .await
        .error(500, ErrorCode::InternalError);
    // Another value (valid or not) is not the scenario's.
    let pair = first_pair(&matched);
    let other = matched.replacen(pair, &format!("{pair}0"), 1);
    get(addr, &other, key).await;
    // The value as sent does not matter, only as read: its first byte percent-encoded.
    let (head, rest) = pair.split_at(name.len() + 1);
    let first_byte = rest.as_bytes()[0];
    let encoded = format!("{head}%{first_byte:02X}{}", &rest[1..]);
    get(addr, &matched.replacen(pair, &encoded, 1), key)
        .await
        .error(500, ErrorCode::InternalError);
    let by: Vec<_> = (server.received_requests_of(second()).iter())
        .map(|r| r.answered_by.clone())
        .collect();
    let scenario = Some(AnsweredBy::Scenario(format!("{}#1", second().id)));
    assert_eq!(by, [scenario.clone(), Some(AnsweredBy::Server), scenario]);

    // A path parameter, by the name the endpoint's path gives it (on a server of its own).
    let Some((endpoint, name)) = with_path() else {
        return;
    };
    let server = MockServer::start().await.unwrap();
    let addr = server.address();
    let key = Some(server.api_key());
    let path = target(endpoint);
    let place = (endpoint.path.split('/'))
        .position(|s| s == format!("{{{name}}}"))
        .expect("the parameter's segment");
    let below = path.strip_prefix(mrds_mock::BASE_PATH).unwrap();
    let value = below
        .split('?')
        .next()
        .unwrap()
        .split('/')
        .nth(place)
        .unwrap();
    server
        .answer(endpoint, Scenario::status(404).when_path(name, value))
        .unwrap();
    let someone_else = path.replacen(&format!("/{value}"), &format!("/{value}0"), 1);
    get(addr, &someone_else, key).await;
    // Without a key: a scenario answers in place of the endpoint, which would refuse none.
    let answer = get(addr, &path, None).await;
    let error = answer.error(404, ErrorCode::ResourceNotFound);
    assert!(error.message.contains("scenario"), "{}", error.message);
    let journal = server.received_requests_of(endpoint);
    let by: Vec<_> = journal.iter().map(|r| r.answered_by.clone()).collect();
    let scenario = format!("{}#1", endpoint.id);
    assert_eq!(
        by.last(),
        Some(&Some(AnsweredBy::Scenario(scenario))),
        "{by:?}"
    );
    assert_ne!(
        by[by.len() - 2],
        by[by.len() - 1],
        "the other value is not the scenario's"
    );
}

#[tokio::test]
async fn met_expectations_pass_silently_and_unmet_ones_say_what_was_received() {
    let server = MockServer::start().await.unwrap();
    let addr = server.address();
    let key = Some(server.api_key());
    let dividends = target(second());
    server
        .answer(
            second(),
            Scenario::status(503).expect(2).named("gateway down"),
        )
        .unwrap();
    server
        .answer(first(), Scenario::samples().expect(1..))
        .unwrap();
    get(addr, &dividends, key).await;
    let unmet = server.check_expectations().unwrap_err();
    let names: Vec<&str> = unmet.unmet.iter().map(|u| u.name.as_str()).collect();
    let (one, two) = (first().id, second().id);
    assert_eq!(names, ["gateway down".to_string(), format!("{one}#2")]);
    let text = unmet.to_string();
    let sent = dividends.split('&').next().unwrap();
    for expected in [
        format!("scenario \"gateway down\" ({two}: 503) expected exactly 2 requests, answered 1"),
        format!("{two} received 1 request:"),
        format!("GET {sent}"),
        "→ 503 by scenario \"gateway down\"".to_string(),
        format!("scenario \"{one}#2\" ({one}: samples) expected at least 1 request, answered 0"),
        format!("{one} received no request"),
    ] {
        assert!(text.contains(&expected), "{expected:?} not in:\n{text}");
    }
    // Met: the server drops without a word.
    get(addr, &dividends, key).await;
    get(addr, &target(first()), key).await;
    get(addr, &target(first()), key).await;
    server.verify();
    assert_eq!(server.check_expectations(), Ok(()));
}

/// The server dropped with an expectation not met panics, naming the scenario (a test that
/// expects the failure would say `#[should_panic]`; this one reads the message).
#[tokio::test]
async fn an_unmet_expectation_fails_the_test_when_the_server_drops() {
    let server = MockServer::start().await.unwrap();
    server
        .answer(first(), Scenario::samples().expect(2).named("two calls"))
        .unwrap();
    get(server.address(), &target(first()), Some(server.api_key())).await;
    let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(server)));
    let message = dropped.expect_err("the drop panics");
    let message = (message.downcast_ref::<String>().cloned())
        .or_else(|| message.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    let expected = format!(
        "scenario \"two calls\" ({}: samples) expected exactly 2 requests, answered 1",
        first().id
    );
    assert!(message.contains(&expected), "{message}");
}

#[tokio::test]
async fn the_journal_says_how_each_request_was_answered_and_how_long_it_took() {
    let server = MockServer::start().await.unwrap();
    let addr = server.address();
    let key = Some(server.api_key());
    let company_target = target(first());
    server
        .answer(
            first(),
            Scenario::delay(Duration::from_millis(150)).named("slow"),
        )
        .unwrap();
    server.answer(first(), Scenario::reset()).unwrap();
    // A client that gives up after 100 ms, during a 1 s delay: the request is abandoned.
    server
        .answer(first(), Scenario::delay(Duration::from_secs(1)))
        .unwrap();
    assert_eq!(get(addr, &company_target, key).await.status, 200);
    let _ = call_example(&client(&server, 0), first().id).await;
    let impatient = Client::builder(server.base_url())
        .api_key(server.api_key())
        .timeout(Duration::from_millis(100))
        .no_retries()
        .build()
        .unwrap();
    let err = call_example(&impatient, first().id).await.unwrap_err();
    assert!(err.is_timeout(), "{err:?}");
    crate::http::send(
        addr,
        "GET",
        &company_target,
        &[("X-API-Key", server.api_key()), ("Prefer", "code=500")],
    )
    .await;

    let journal = settled(&server, first()).await;
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
                Some(AnsweredBy::Scenario(format!("{}#2", first().id)))
            ),
            (
                Outcome::Abandoned,
                Some(AnsweredBy::Scenario(format!("{}#3", first().id)))
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
            first(),
            Scenario::delay(Duration::from_millis(120)).named("slow"),
        )
        .unwrap();
    let company = format!("{}&note=log-line-secret-0001", target(first()));
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
    assert_eq!(slow.field("endpoint"), Some(first().id));
    assert_eq!(slow.field("key"), Some("accepted"));
    assert_eq!(slow.field("status"), Some("200"));
    assert_eq!(slow.field("answered_by"), Some("scenario"));
    assert_eq!(slow.field("scenario"), Some("slow"));
    let query = slow.field("query").unwrap();
    assert!(
        query.starts_with(first_pair(&company)) && query.ends_with("note=<redacted>"),
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
