//! The team's tests of its code (`mrds_downstream::Provider`) against the packaged sample
//! server in process (`mrds_mock::MockServer`), as the docs show: retries through two 429s, a
//! slow provider matched with `is_timeout()` (the same on every run), a bare 503 and a 503 with
//! a body, scenarios matched by query parameter, what the journal says of each request, an
//! invalid symbol caught before sending, and an expectation that fails the test when the
//! server drops.

use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;

use mrds_client::model::ErrorCode;
use mrds_client::model::api::{COMPANY_DETAIL, STOCK_DIVIDENDS};
use mrds_client::{Client, Error, RetryPolicy, TransportKind};
use mrds_downstream::Provider;
use mrds_mock::{AnsweredBy, KeySent, MockServer, Outcome, Scenario};

/// The team's code against `server`, retrying as in production but with short waits.
fn provider(server: &MockServer) -> Provider {
    let client = Client::builder(server.base_url())
        .api_key(server.api_key())
        .retry(RetryPolicy {
            initial_backoff: Duration::from_millis(1),
            max_backoff: Duration::from_millis(10),
            ..RetryPolicy::default()
        })
        .build()
        .expect("a client of the sample server");
    Provider::new(client)
}

/// Runs `futures` at once; their outputs, in order (the crate needs nothing but the client and
/// tokio).
async fn all<F: Future>(futures: impl Iterator<Item = F>) -> Vec<F::Output> {
    let mut futures: Vec<Pin<Box<F>>> = futures.map(Box::pin).collect();
    let mut outputs: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut done = true;
        for (future, output) in futures.iter_mut().zip(outputs.iter_mut()) {
            if output.is_none() {
                match future.as_mut().poll(cx) {
                    Poll::Ready(value) => *output = Some(value),
                    Poll::Pending => done = false,
                }
            }
        }
        if done { Poll::Ready(()) } else { Poll::Pending }
    })
    .await;
    outputs.into_iter().flatten().collect()
}

#[tokio::test]
async fn two_429s_then_the_dividends() {
    let server = MockServer::start().await.unwrap();
    let limited = Scenario::status(429).retry_after(Duration::ZERO).expect(2);
    server.answer(&STOCK_DIVIDENDS, limited).unwrap();
    let dividends = provider(&server)
        .dividends_paid_in("AAPL", 2025)
        .await
        .unwrap();
    assert!(!dividends.is_empty());

    // What the server received: the key redacted, the query as sent, how each was answered.
    let received = server.received_requests_of(&STOCK_DIVIDENDS);
    assert_eq!(received.len(), 3);
    for request in &received {
        assert_eq!(request.api_key, KeySent::Accepted);
        assert_eq!(request.header("x-api-key"), Some(mrds_mock::REDACTED));
        assert_eq!(request.query_param("symbol").as_deref(), Some("AAPL"));
        assert_eq!(
            request.query_param("start_time").as_deref(),
            Some("1735689600")
        );
    }
    let outcomes: Vec<Outcome> = received.iter().map(|r| r.outcome).collect();
    assert_eq!(
        outcomes,
        [
            Outcome::Answered { status: 429 },
            Outcome::Answered { status: 429 },
            Outcome::Answered { status: 200 }
        ]
    );
    assert_eq!(received[2].answered_by, Some(AnsweredBy::Server));
    assert!(!format!("{received:?}").contains(mrds_mock::DEMO_KEY));
}

/// A provider slower than the client's timeout: with a 200 ms timeout the call's deadline is
/// 400 ms, and the longest wait before a retry (250 ms) would pass it, so every call ends
/// after one attempt with a timeout, whatever the retry jitter. Twenty runs.
#[tokio::test]
async fn a_slow_provider_is_a_timeout_on_every_run() {
    let server = MockServer::start().await.unwrap();
    server
        .answer(
            &COMPANY_DETAIL,
            Scenario::delay(Duration::from_secs(2)).always(),
        )
        .unwrap();
    let client = Client::builder(server.base_url())
        .api_key(server.api_key())
        .timeout(Duration::from_millis(200))
        .build()
        .unwrap();
    let provider = Provider::new(client);
    let results = all((0..20).map(|_| provider.company("AAPL"))).await;
    assert_eq!(results.len(), 20);
    for result in results {
        let err = result.unwrap_err();
        assert!(err.is_timeout(), "{err:?}");
        assert!(
            matches!(&err, Error::Transport(t) if t.kind == TransportKind::Timeout),
            "{err:?}"
        );
        assert_eq!(err.attempts(), 1, "{err}");
    }
}

#[tokio::test]
async fn a_bare_503_and_a_503_with_a_body_are_status_errors() {
    let server = MockServer::start().await.unwrap();
    // The spec has no error code for 503: answered bare, as a load balancer does; retried.
    let down = Scenario::status(503).retry_after(Duration::ZERO).times(4);
    server.answer(&COMPANY_DETAIL, down).unwrap();
    let err = provider(&server).company("AAPL").await.unwrap_err();
    let Error::Status(bare) = &err else {
        panic!("{err:?}")
    };
    assert_eq!((bare.status, bare.body_len), (503, 0));
    assert_eq!(err.attempts(), 4, "an attempt and three retries");
    assert!(err.is_retryable() && err.code().is_none() && !err.is_timeout());
    assert_eq!(err.retry_after(), Some(Duration::ZERO));

    // A gateway's page of its own.
    let page = Scenario::status(503)
        .body("<h1>Service Unavailable</h1>")
        .header("content-type", "text/html")
        .always();
    server.answer(&COMPANY_DETAIL, page).unwrap();
    let client = Client::builder(server.base_url())
        .api_key(server.api_key())
        .no_retries()
        .build()
        .unwrap();
    let err = Provider::new(client).company("AAPL").await.unwrap_err();
    let Error::Status(gateway) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(gateway.status, 503);
    assert_eq!(gateway.body_prefix, "<h1>Service Unavailable</h1>");
    assert!(err.to_string().contains("Service Unavailable"), "{err}");
}

#[tokio::test]
async fn scenarios_match_by_query_parameter() {
    let server = MockServer::start().await.unwrap();
    let missing = Scenario::status(404)
        .when_query("symbol", "ZZZZ")
        .always()
        .named("no ZZZZ");
    server.answer(&COMPANY_DETAIL, missing).unwrap();
    let provider = provider(&server);
    assert_eq!(provider.company("ZZZZ").await.unwrap(), None);
    let apple = provider
        .company("AAPL")
        .await
        .unwrap()
        .expect("AAPL is in the samples");
    assert_eq!(apple.symbol, "AAPL");
    let by: Vec<_> = server
        .received_requests_of(&COMPANY_DETAIL)
        .into_iter()
        .map(|r| r.answered_by)
        .collect();
    assert_eq!(
        by,
        [
            Some(AnsweredBy::Scenario("no ZZZZ".into())),
            Some(AnsweredBy::Server)
        ]
    );
}

#[tokio::test]
async fn an_invalid_symbol_is_caught_before_sending() {
    let server = MockServer::start().await.unwrap();
    let err = provider(&server).company("not a symbol").await.unwrap_err();
    assert!(matches!(err, Error::InvalidInput(_)), "{err:?}");
    assert_eq!(err.code(), Some(ErrorCode::InvalidParameter));
    assert_eq!(err.attempts(), 0);
    assert!(server.received_requests().is_empty(), "nothing was sent");
}

/// The failure a forgotten call makes: the server, dropped with an expectation not met,
/// fails the test, naming the scenario and what it received.
#[tokio::test]
#[should_panic(
    expected = "scenario \"profile fetched twice\" (company_detail: samples) expected exactly 2 requests, answered 1"
)]
async fn an_unmet_expectation_fails_the_test_when_the_server_drops() {
    let server = MockServer::start().await.unwrap();
    let twice = Scenario::samples().expect(2).named("profile fetched twice");
    server.answer(&COMPANY_DETAIL, twice).unwrap();
    provider(&server).company("AAPL").await.unwrap();
}
