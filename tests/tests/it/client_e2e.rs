//! The generated client against the generated sample-data server on a loopback port: every
//! endpoint decodes, every error class reaches the caller as its variant, retries on 503 stop
//! at the limit, and client-side validation sends nothing (the server counts what it saw).

#![allow(deprecated)] // the removed endpoint's method is called on purpose

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::TryStreamExt;
use futures_util::future::LocalBoxFuture;
use mrds_client::{Client, Error, RetryPolicy};
use mrds_model::api::RequestVisitor;
use mrds_model::params::*;
use mrds_model::{ErrorCode, Request, TimeType};
use mrds_server::StaticKeys;

use crate::http::example_params as example;
use mrds_server::axum::extract::Request as HttpRequest;
use mrds_server::axum::http::StatusCode;
use mrds_server::axum::middleware::{self, Next};
use mrds_server::axum::response::IntoResponse;

const KEY: &str = "e2e-key";

/// The sample server behind a counter; the first `failures` requests answer 503.
struct Server {
    addr: SocketAddr,
    seen: Arc<AtomicUsize>,
}

async fn server(failures: usize) -> Server {
    server_of(mrds_mock::Mock::new(), failures).await
}

/// [`server`] over `mock` (one serving the endpoints the spec marks removed, say).
async fn server_of(mock: mrds_mock::Mock, failures: usize) -> Server {
    let seen = Arc::new(AtomicUsize::new(0));
    let counter = seen.clone();
    let app = mrds_server::router(mock, StaticKeys::new([KEY])).layer(middleware::from_fn(
        move |request: HttpRequest, next: Next| {
            let counter = counter.clone();
            async move {
                if counter.fetch_add(1, Ordering::SeqCst) < failures {
                    return (StatusCode::SERVICE_UNAVAILABLE, "upstream unavailable")
                        .into_response();
                }
                next.run(request).await
            }
        },
    ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { mrds_server::axum::serve(listener, app).await });
    Server { addr, seen }
}

impl Server {
    fn seen(&self) -> usize {
        self.seen.load(Ordering::SeqCst)
    }

    fn client(&self, key: Option<&str>) -> Client {
        let mut builder = Client::builder(format!("http://{}", self.addr)).retry(RetryPolicy {
            max_retries: 3,
            initial_backoff: Duration::from_millis(1),
            max_backoff: Duration::from_millis(10),
            ..RetryPolicy::default()
        });
        if let Some(key) = key {
            builder = builder.api_key(key);
        }
        builder.build().unwrap()
    }
}

/// One call of each live endpoint through the client's typed path, collected by
/// `mrds_model::api::visit_requests` (the spec's endpoints, not a list of this test's).
struct EveryEndpoint {
    client: Client,
    calls: Vec<(&'static str, LocalBoxFuture<'static, Result<usize, String>>)>,
}

/// The number of records of an answer carrying a request id.
fn records<R>(page: Result<mrds_client::Response<R>, mrds_client::Error>) -> Result<usize, String> {
    let page = page.map_err(|e| e.to_string())?;
    if !page.request_id.starts_with("req_") {
        return Err(format!("request id {}", page.request_id));
    }
    Ok(page.data.len())
}

impl RequestVisitor for EveryEndpoint {
    fn visit<P>(&mut self)
    where
        P: Request + Clone + std::fmt::Debug + Send + Sync + 'static,
    {
        if P::ENDPOINT.removed.is_some() {
            return;
        }
        let client = self.client.clone();
        let call = async move { records(client.send(&example::<P>()).await) };
        self.calls.push((P::ENDPOINT.id, Box::pin(call)));
    }

    fn visit_with_body<P>(&mut self)
    where
        P: mrds_runtime::WithBody + Clone + std::fmt::Debug + Send + Sync + 'static,
        P::Body: Clone + std::fmt::Debug + Send + Sync + 'static,
    {
        if P::ENDPOINT.removed.is_some() {
            return;
        }
        let id = P::ENDPOINT.id;
        let text = crate::http::example(P::ENDPOINT.id)
            .body
            .unwrap_or_else(|| panic!("the example of {id} has no body"));
        let body: P::Body = serde_json::from_str(text)
            .unwrap_or_else(|e| panic!("the example body of {id} does not decode: {e}"));
        let client = self.client.clone();
        let call = async move { records(client.send_with_body(&example::<P>(), &body).await) };
        self.calls.push((id, Box::pin(call)));
    }
}

#[tokio::test]
async fn every_endpoint_returns_decoded_records() {
    let server = server(0).await;
    let mut every = EveryEndpoint {
        client: server.client(Some(KEY)),
        calls: Vec::new(),
    };
    mrds_model::api::visit_requests(&mut every);
    let mut called = Vec::new();
    for (id, call) in every.calls {
        let records = call.await.unwrap_or_else(|e| panic!("{id}: {e}"));
        assert!(records > 0, "{id} answered no records");
        called.push(id);
    }
    let live: Vec<&str> = mrds_model::api::ENDPOINTS
        .iter()
        .filter(|e| e.removed.is_none())
        .map(|e| e.id)
        .collect();
    assert_eq!(called, live, "every endpoint that is not removed is called");
    assert_eq!(server.seen(), live.len());
}

#[tokio::test]
async fn the_client_and_the_server_agree_on_encoding() {
    // Endpoints the spec marks removed are served too: how the client encodes a value does not
    // depend on whether the provider still serves the endpoint it is sent to.
    let server = server_of(mrds_mock::Mock::serving_removed(), 0).await;
    let client = server.client(Some(KEY));
    // Spellings with `.`, `-` and `^`, RFC 3339 offsets with `+`, a space in an enum value.
    for symbol in ["BF.B", "BF-B"] {
        let params =
            StockDividendsParams::new(symbol, 1_735_689_600, 1_798_761_600, TimeType::RecordDate);
        let page = client.stock_dividends(&params).await.unwrap();
        assert_eq!(page.data.len(), 3);
        let symbols = (page.data.iter()).map(|d| mrds_tests::conform::wire_field(d, "symbol"));
        assert!(symbols.into_iter().all(|s| s == symbol), "{symbol}");
    }
    let params = MarketKlineParams::new("US_SPOT_AAPL_USD", mrds_model::Interval::OneDay)
        .with_start_time("2026-11-17T00:00:00Z")
        .with_end_time("2026-11-18T12:00:00+02:00");
    assert_eq!(client.market_kline(&params).await.unwrap().data.len(), 2);
    let params = ScreenerEventsParams::new(
        mrds_model::ScreenerEventType::IpoDate,
        1_735_689_600,
        1_767_225_600,
    );
    let events = client.screener_events(&params).await.unwrap().data;
    assert!(!events.is_empty());
    // The event's kind, in the field of its value set, whatever a release named it.
    let ipo = serde_json::to_value(mrds_model::ScreenerEventType::IpoDate).unwrap();
    if let Some(kind) =
        mrds_tests::conform::field_of_value_set("ScreenerEvent", "ScreenerEventType")
    {
        let types = (events.iter()).map(|e| mrds_tests::conform::wire_field(e, kind));
        assert!(types.into_iter().all(|t| t == ipo), "{ipo} in `{kind}`");
    }
}

/// The API error of a call that must fail with one.
fn api<T>(result: Result<mrds_client::Response<T>, Error>) -> Box<mrds_client::ApiError> {
    match result {
        Err(Error::Api(e)) => e,
        Err(other) => panic!("expected an API error, got {other}"),
        Ok(_) => panic!("expected an API error, got records"),
    }
}

#[tokio::test]
async fn every_error_class_reaches_the_caller_as_its_variant() {
    let server = server(0).await;

    // Invalid input: caught before sending, nothing reaches the server.
    let client = server.client(Some(KEY));
    let bad = StockDividendsParams::new("AAPL", 9, 5, TimeType::RecordDate).with_limit(0);
    match client.stock_dividends(&bad).await {
        Err(Error::InvalidInput(e)) => {
            assert!(e.breaks("stock_dividends.range_order"));
            assert!(e.breaks("stock_dividends.limit.range"));
        }
        other => panic!("expected invalid input, got {other:?}"),
    }
    assert_eq!(server.seen(), 0, "an invalid call sends nothing");

    let dividends = example::<StockDividendsParams>();

    // 401: no key, and a wrong key.
    let e = api(server.client(None).stock_dividends(&dividends).await);
    assert_eq!((e.status, &e.error.code), (401, &ErrorCode::Unauthorized));
    assert!(e.request_id.is_some());
    let e = api(server
        .client(Some("nope"))
        .stock_dividends(&dividends)
        .await);
    assert_eq!((e.status, &e.error.code), (401, &ErrorCode::Unauthorized));

    // 404: a document the samples do not hold (while the spec serves the lookup).
    if mrds_tests::example_while_served("research_units").is_some() {
        let e = api(client
            .research_units(&ResearchUnitsParams::new("0123456789abcdef"))
            .await);
        assert_eq!(
            (e.status, &e.error.code),
            (404, &ErrorCode::ResourceNotFound)
        );
    }

    // 410: the removed endpoint.
    let e = api(client.index_1min(&example::<Index1minParams>()).await);
    assert_eq!(
        (e.status, &e.error.code),
        (410, &ErrorCode::EndpointRemoved)
    );

    // Transport: nothing listens.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = closed.local_addr().unwrap();
    drop(closed);
    let nowhere = Client::builder(format!("http://{addr}"))
        .api_key(KEY)
        .no_retries()
        .build()
        .unwrap();
    assert!(matches!(
        nowhere.stock_dividends(&dividends).await,
        Err(Error::Transport(_))
    ));
}

/// One call of the endpoint of [`mrds_tests::served_example`] (a `GET` the spec serves),
/// through the client's typed path: its number of records, or the error.
async fn call_served(client: &Client) -> Result<usize, Error> {
    crate::http::call_example(client, mrds_tests::served_example().endpoint).await
}

#[tokio::test]
async fn retries_on_503_succeed_within_the_limit() {
    let server = server(2).await;
    let records = call_served(&server.client(Some(KEY))).await.unwrap();
    assert!(records > 0);
    assert_eq!(server.seen(), 3, "two failures, then the answer");
}

#[tokio::test]
async fn retries_on_503_stop_at_the_limit() {
    let server = server(usize::MAX).await;
    let result = call_served(&server.client(Some(KEY))).await;
    assert_eq!(result.as_ref().err().and_then(Error::status), Some(503));
    assert_eq!(server.seen(), 4, "the first attempt and three retries");

    let server = self::server(usize::MAX).await;
    let once = Client::builder(format!("http://{}", server.addr))
        .api_key(KEY)
        .no_retries()
        .build()
        .unwrap();
    assert!(call_served(&once).await.is_err());
    assert_eq!(server.seen(), 1, "no retries when switched off");
}

/// The stream of a paged endpoint walks every page, one record a page, and yields what one
/// page of them all holds, in its order (the sample data's, not restated here).
#[tokio::test]
async fn the_commentary_stream_walks_every_page() {
    if PersonCommentaryParams::ENDPOINT.removed.is_some() {
        eprintln!("skipped: the spec marks person_commentary removed");
        return;
    }
    let server = server(0).await;
    let client = server.client(None);
    let (_, max) = mrds_tests::integer_bounds("person_commentary", "limit");
    let params = example::<PersonCommentaryParams>();
    let whole = client
        .person_commentary(&params.clone().with_limit(max))
        .await
        .unwrap()
        .data;
    assert!(whole.len() > 1, "{whole:?}");
    let all: Vec<_> = client
        .person_commentary_stream(&params.with_limit(1))
        .try_collect()
        .await
        .unwrap();
    assert_eq!(all, whole);
    // The one page of them all, then a full page of one each, and a last, empty, one.
    assert_eq!(server.seen(), 1 + whole.len() + 1);
}
