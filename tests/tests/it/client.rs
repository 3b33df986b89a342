//! The generated client (`crates/mrds-client`) against small hand-made servers on a loopback
//! port: decoding, validation before sending, the error variants, retries, timeouts, resets
//! and the deadline, base URLs, headers, percent-encoding and paging. Each server writes
//! canned HTTP responses and records every request it receives; [`client_paging`] and
//! [`client_tracing`] use the same servers.
//!
//! [`client_paging`]: super::client_paging
//! [`client_tracing`]: super::client_tracing

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mrds_client::{BuildError, Client, Error, RetryPolicy, TransportKind};
use mrds_model::params::{MarketKlineParams, PersonCommentaryParams, StockDividendsParams};
use mrds_model::{ErrorCode, Interval, TimeType};
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

// ---------------------------------------------------------------------------------------------
// A canned-response server
// ---------------------------------------------------------------------------------------------

/// What the server saw of one request.
#[derive(Clone, Debug)]
pub(crate) struct Seen {
    /// The request target: path and query, as sent.
    pub(crate) target: String,
    headers: Vec<(String, String)>,
}

impl Seen {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The value of a query parameter, as sent (still percent-encoded).
    pub(crate) fn query(&self, name: &str) -> Option<&str> {
        let (_, query) = self.target.split_once('?')?;
        query
            .split('&')
            .filter_map(|pair| pair.split_once('='))
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
    }
}

/// The server's answer to one request.
pub(crate) enum Reply {
    /// These bytes, then the connection is closed.
    Raw(Vec<u8>),
    /// Nothing: the connection stays open and silent.
    Hang,
    /// The connection is reset (TCP RST) without a response.
    Reset,
    /// The connection is closed without a response.
    Close,
}

pub(crate) struct Server {
    pub(crate) root: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    pub(crate) fn count(&self) -> usize {
        self.seen.lock().unwrap().len()
    }

    pub(crate) fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    /// A client of this server with a key, tiny backoffs and three retries.
    pub(crate) fn client(&self) -> Client {
        Client::builder(&self.root)
            .api_key(KEY)
            .retry(fast_retries(3))
            .build()
            .unwrap()
    }
}

pub(crate) const KEY: &str = "sk-test-7f3a9c";

pub(crate) fn fast_retries(max_retries: u32) -> RetryPolicy {
    RetryPolicy {
        max_retries,
        initial_backoff: Duration::from_millis(1),
        max_backoff: Duration::from_millis(5),
        ..RetryPolicy::default()
    }
}

/// Reads from `stream` until the end of a request's head (an empty line); what was read, or
/// `None` when the stream ends or fails first.
pub(crate) async fn read_head<S: AsyncRead + Unpin>(stream: &mut S) -> Option<Vec<u8>> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    Some(buf)
}

/// Starts a server on a loopback port; `respond(n, request)` answers request `n` (from 0).
pub(crate) async fn serve<F>(respond: F) -> Server
where
    F: Fn(usize, &Seen) -> Reply + Send + Sync + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let root = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let respond = Arc::new(respond);
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let log = log.clone();
            let respond = respond.clone();
            tokio::spawn(async move {
                let Some(buf) = read_head(&mut socket).await else {
                    return;
                };
                let head = String::from_utf8_lossy(&buf).into_owned();
                let mut lines = head.split("\r\n");
                let target = lines
                    .next()
                    .and_then(|l| l.split(' ').nth(1))
                    .unwrap_or_default()
                    .to_string();
                let headers = lines
                    .filter_map(|l| l.split_once(':'))
                    .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                    .collect();
                let request = Seen { target, headers };
                let n = {
                    let mut log = log.lock().unwrap();
                    log.push(request.clone());
                    log.len() - 1
                };
                match respond(n, &request) {
                    Reply::Raw(bytes) => {
                        let _ = socket.write_all(&bytes).await;
                        let _ = socket.shutdown().await;
                    }
                    Reply::Hang => {
                        tokio::time::sleep(Duration::from_secs(60)).await;
                        drop(socket);
                    }
                    Reply::Reset => {
                        let _ = socket.set_zero_linger();
                        drop(socket);
                    }
                    Reply::Close => {
                        let _ = socket.shutdown().await;
                    }
                }
            });
        }
    });
    Server { root, seen }
}

/// A complete HTTP response with a JSON content type unless `headers` names another.
pub(crate) fn http(status: u16, headers: &[(&str, &str)], body: &str) -> Reply {
    let mut head = format!(
        "HTTP/1.1 {status} Canned\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    if !headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("content-type"))
    {
        head.push_str("content-type: application/json\r\n");
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    Reply::Raw([head.as_bytes(), body.as_bytes()].concat())
}

pub(crate) fn success(data: Value) -> String {
    json!({
        "success": true,
        "request_id": "req-ok-1",
        "data": data,
        "metadata": {"source": "canned", "count": 1},
        "pagination": {"limit": 50, "offset": 0, "has_more": false},
    })
    .to_string()
}

pub(crate) fn failure(code: &str, message: &str, details: Value) -> String {
    let error = json!({"code": code, "message": message, "details": details, "hint": "check it"});
    json!({"success": false, "request_id": "req-err-1", "data": [error], "error": error})
        .to_string()
}

pub(crate) fn dividend() -> Value {
    json!({
        "symbol": "BRK.B", "date": "2026-03-02", "record_date": "2026-03-03",
        "payment_date": "2026-03-20", "declaration_date": "2026-02-10",
        "adj_dividend": 0.5, "dividend": 0.5, "yield": 1.25, "frequency": "Quarterly",
    })
}

pub(crate) fn dividends() -> StockDividendsParams {
    StockDividendsParams::new("BRK.B", 1_700_000_000, 1_710_000_000, TimeType::PaymentDate)
}

pub(crate) const PERSON: &str = "123e4567-e89b-12d3-a456-426614174000";

pub(crate) fn commentary_row(i: i64) -> Value {
    json!({
        "person_id": PERSON, "quote": format!("Remark {i}."), "url": "https://example.org/a",
        "page_title": "A page", "venue": "A venue", "author": "", "lang": "en",
        "said_on": "2026-07-01", "published_at": 1_780_000_000 + i,
        "published_at_source": "page", "source_kind": "interview", "cluster_id": format!("c{i}"),
    })
}

#[track_caller]
pub(crate) fn undecodable(
    result: Result<impl std::fmt::Debug, Error>,
) -> mrds_client::UndecodableError {
    match result {
        Err(Error::Undecodable(e)) => e,
        other => panic!("expected an undecodable response, got {other:?}"),
    }
}

#[track_caller]
fn api_error(result: Result<impl std::fmt::Debug, Error>) -> mrds_client::ApiError {
    match result {
        Err(Error::Api(e)) => *e,
        other => panic!("expected an API error, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Success and what was sent
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn valid_call_decodes_records_and_envelope() {
    let server = serve(|_, _| http(200, &[], &success(json!([dividend(), dividend()])))).await;
    let page = server.client().stock_dividends(&dividends()).await.unwrap();
    assert_eq!(page.data.len(), 2);
    assert_eq!(page.data[0].symbol, "BRK.B");
    assert_eq!(page.data[0].r#yield, 1.25);
    assert_eq!(page.request_id, "req-ok-1");
    assert_eq!(
        page.metadata.as_ref().unwrap()["source"].as_str(),
        Some("canned")
    );
    assert_eq!(
        page.pagination.as_ref().unwrap()["limit"].as_i64(),
        Some(50)
    );
    assert_eq!(page.into_iter().count(), 2);

    let seen = server.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        seen[0].target,
        "/api/v1/stocks/dividends?symbol=BRK.B&start_time=1700000000&end_time=1710000000\
         &time_type=PAYMENT_DATE&limit=50"
    );
}

#[tokio::test]
async fn sends_key_user_agent_and_accept() {
    let server = serve(|_, _| http(200, &[], &success(json!([])))).await;
    server.client().stock_dividends(&dividends()).await.unwrap();
    let seen = &server.seen()[0];
    assert_eq!(seen.header("x-api-key"), Some(KEY));
    assert_eq!(
        seen.header("user-agent"),
        Some(mrds_client::DEFAULT_USER_AGENT)
    );
    assert!(mrds_client::DEFAULT_USER_AGENT.starts_with("mrds-client/"));
    assert_eq!(seen.header("accept"), Some("application/json"));

    // No key configured: no key header.
    let anonymous = Client::builder(&server.root).build().unwrap();
    anonymous.stock_dividends(&dividends()).await.unwrap();
    assert_eq!(server.seen()[1].header("x-api-key"), None);
}

#[tokio::test]
async fn custom_user_agent() {
    let server = serve(|_, _| http(200, &[], &success(json!([])))).await;
    let client = Client::builder(&server.root)
        .user_agent("probe/1.0")
        .api_key(KEY)
        .build()
        .unwrap();
    client.stock_dividends(&dividends()).await.unwrap();
    let seen = &server.seen()[0];
    assert_eq!(seen.header("user-agent"), Some("probe/1.0"));
    assert_eq!(seen.header("x-api-key"), Some(KEY));
}

/// `proxy` with credentials, as a user would write it, for the server at `root`.
fn proxy_url(root: &str) -> String {
    root.replace("http://", "http://user:s3cret@")
}

#[tokio::test]
async fn http_requests_go_to_the_proxy_with_the_whole_url() {
    let proxy = serve(|_, _| http(200, &[], &success(json!([])))).await;
    // The service's host does not resolve: only the proxy can reach it.
    let client = Client::builder("http://mrds.invalid:8080")
        .api_key(KEY)
        .proxy(proxy_url(&proxy.root))
        .build()
        .unwrap();
    client.stock_dividends(&dividends()).await.unwrap();
    let seen = &proxy.seen()[0];
    assert!(
        seen.target
            .starts_with("http://mrds.invalid:8080/api/v1/stocks/dividends?"),
        "{}",
        seen.target
    );
    assert_eq!(seen.header("host"), Some("mrds.invalid:8080"));
    assert_eq!(seen.header("x-api-key"), Some(KEY));
    // user:s3cret in Basic form.
    assert_eq!(
        seen.header("proxy-authorization"),
        Some("Basic dXNlcjpzM2NyZXQ=")
    );
}

#[tokio::test]
async fn https_requests_tunnel_through_the_proxy() {
    // The proxy refuses the tunnel: the call fails to connect, and the proxy saw only the
    // CONNECT, never the key or the query.
    let proxy = serve(|_, _| http(403, &[], "")).await;
    let client = Client::builder("https://mrds.invalid")
        .api_key(KEY)
        .proxy(proxy_url(&proxy.root))
        .no_retries()
        .build()
        .unwrap();
    let err = client.stock_dividends(&dividends()).await.unwrap_err();
    assert!(
        matches!(&err, Error::Transport(t) if t.kind == TransportKind::Connect),
        "{err:?}"
    );
    let seen = proxy.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].target, "mrds.invalid:443");
    assert_eq!(
        seen[0].header("proxy-authorization"),
        Some("Basic dXNlcjpzM2NyZXQ=")
    );
    assert_eq!(seen[0].header("x-api-key"), None);
}

#[tokio::test]
async fn no_proxy_goes_straight_to_the_service() {
    let server = serve(|_, _| http(200, &[], &success(json!([])))).await;
    let client = Client::builder(&server.root)
        .proxy("http://127.0.0.1:9")
        .no_proxy()
        .build()
        .unwrap();
    client.stock_dividends(&dividends()).await.unwrap();
    assert!(
        server.seen()[0]
            .target
            .starts_with("/api/v1/stocks/dividends?")
    );
}

#[test]
fn proxies_the_client_cannot_speak_to_are_refused_without_their_password() {
    for (bad, reason) in [
        ("socks5://user:pw@127.0.0.1:1080", "`http://` proxies only"),
        ("https://proxy.example", "`http://` proxies only"),
        ("not a url", "invalid"),
    ] {
        let err = Client::builder("http://host")
            .proxy(bad)
            .build()
            .unwrap_err();
        let text = err.to_string();
        assert!(
            matches!(err, BuildError::InvalidProxy { .. }),
            "{bad}: {err:?}"
        );
        assert!(text.contains(reason), "{bad}: {text}");
        assert!(!text.contains("pw@"), "{text}");
    }
    let builder = Client::builder("http://host").proxy("http://user:pw@proxy:3128");
    let text = format!("{builder:?}");
    assert!(text.contains("http://<credentials>@proxy:3128"), "{text}");
    assert!(!text.contains("pw"), "{text}");
}

#[tokio::test]
async fn query_and_path_values_are_percent_encoded() {
    let server = serve(|_, _| http(200, &[], &success(json!([])))).await;
    let params = MarketKlineParams::new("US_SPOT_AAPL_USD", Interval::OneDay)
        .with_start_time("2026-07-01T00:00:00+02:00")
        .with_end_time("2026-07-02T00:00:00+02:00");
    server.client().market_kline(&params).await.unwrap();
    let seen = &server.seen()[0];
    assert!(
        seen.target.starts_with("/api/v1/market/kline?"),
        "{}",
        seen.target
    );
    assert_eq!(
        seen.query("start_time"),
        Some("2026-07-01T00%3A00%3A00%2B02%3A00")
    );
    assert_eq!(
        seen.query("end_time"),
        Some("2026-07-02T00%3A00%3A00%2B02%3A00")
    );
    assert_eq!(seen.query("trading_pair"), Some("US_SPOT_AAPL_USD"));

    let params = PersonCommentaryParams::new(PERSON, 1_700_000_000, 1_710_000_000);
    server.client().person_commentary(&params).await.unwrap();
    assert_eq!(
        server.seen()[1].target,
        format!(
            "/api/v1/persons/{PERSON}/commentary?start_time=1700000000&end_time=1710000000&limit=50&offset=0"
        )
    );
}

// ---------------------------------------------------------------------------------------------
// Validation before sending
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn invalid_params_fail_without_traffic() {
    let server = serve(|_, _| http(200, &[], &success(json!([])))).await;
    let params =
        StockDividendsParams::new("BRK.B", 1_710_000_000, 1_700_000_000, TimeType::PaymentDate)
            .with_limit(0);
    let err = server.client().stock_dividends(&params).await.unwrap_err();
    let Error::InvalidInput(validation) = &err else {
        panic!("expected invalid input, got {err:?}");
    };
    assert_eq!(validation, &params.validate().unwrap_err());
    assert!(
        validation.breaks("stock_dividends.limit.range"),
        "{validation}"
    );
    assert!(
        validation.breaks("stock_dividends.range_order"),
        "{validation}"
    );

    let object = err.error_object().unwrap();
    assert_eq!(object.code, ErrorCode::InvalidParameter);
    assert_eq!(object.details.len(), validation.issues.len());
    assert!(err.to_string().contains("nothing was sent"), "{err}");
    assert_eq!(err.status(), None);
    assert_eq!(err.attempts(), 0);

    let params = PersonCommentaryParams::new("not-a-uuid", 1, 2);
    let err = server
        .client()
        .person_commentary(&params)
        .await
        .unwrap_err();
    assert!(matches!(err, Error::InvalidInput(_)), "{err:?}");
    assert_eq!(
        server.count(),
        0,
        "an invalid call must not reach the server"
    );
}

// ---------------------------------------------------------------------------------------------
// Error envelopes
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn error_envelopes_map_to_api_errors() {
    let cases = [
        (400, "INVALID_PARAMETER", ErrorCode::InvalidParameter),
        (401, "UNAUTHORIZED", ErrorCode::Unauthorized),
        (404, "RESOURCE_NOT_FOUND", ErrorCode::ResourceNotFound),
        (410, "ENDPOINT_REMOVED", ErrorCode::EndpointRemoved),
        (500, "INTERNAL_ERROR", ErrorCode::InternalError),
    ];
    for (status, code, expected) in cases {
        let details = json!([{"field": "symbol", "got": "??", "reason": "must be a symbol"}]);
        let body = failure(code, "it went wrong", details);
        let server = serve(move |_, _| http(status, &[], &body)).await;
        let result = server.client().stock_dividends(&dividends()).await;
        let err = result.unwrap_err();
        assert_eq!(err.status(), Some(status));
        assert_eq!(err.request_id(), Some("req-err-1"));
        let text = err.to_string();
        assert!(text.contains(&format!("HTTP {status} {code}")), "{text}");
        assert!(text.contains("req-err-1"), "{text}");
        let e = api_error(Err::<(), _>(err));
        assert_eq!(e.status, status);
        assert_eq!(e.error.code, expected);
        assert_eq!(e.error.message, "it went wrong");
        assert_eq!(e.error.details[0].field, "symbol");
        assert_eq!(e.error.hint.as_deref(), Some("check it"));
        assert_eq!(server.count(), 1, "HTTP {status} is not retried");
        assert_eq!(e.attempts, 1);
    }
}

#[tokio::test]
#[allow(deprecated)]
async fn removed_endpoint_answers_410() {
    let body = failure("ENDPOINT_REMOVED", "removed on 2026-07-29", json!([]));
    let server = serve(move |_, _| http(410, &[], &body)).await;
    let params = mrds_model::params::Index1minParams::new("^GSPC", 1_700_000_000, 1_700_000_600);
    let e = api_error(server.client().index_1min(&params).await);
    assert_eq!(e.status, 410);
    assert_eq!(e.error.code, ErrorCode::EndpointRemoved);
}

#[tokio::test]
async fn success_false_with_200_is_an_api_error() {
    let body = failure("INTERNAL_ERROR", "partial failure", json!([]));
    let server = serve(move |_, _| http(200, &[], &body)).await;
    let e = api_error(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.status, 200);
    assert_eq!(e.error.code, ErrorCode::InternalError);
    assert_eq!(e.request_id.as_deref(), Some("req-err-1"));

    // An unknown code is kept as received.
    let body = failure("QUOTA_EXCEEDED", "over quota", json!([]));
    let server = serve(move |_, _| http(403, &[], &body)).await;
    let e = api_error(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.error.code, ErrorCode::Unknown("QUOTA_EXCEEDED".into()));
}

// ---------------------------------------------------------------------------------------------
// Bodies that cannot be decoded
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn non_json_body_is_undecodable() {
    let server = serve(|_, _| {
        http(
            200,
            &[("content-type", "text/html")],
            "<html>maintenance</html>",
        )
    })
    .await;
    let e = undecodable(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.status, 200);
    assert_eq!(e.body_prefix, "<html>maintenance</html>");
    assert_eq!(e.reason, "the body is not JSON");
    assert!(std::error::Error::source(&e).is_some());
}

#[tokio::test]
async fn truncated_json_is_undecodable() {
    let body = success(json!([dividend()]));
    let cut = body[..body.len() / 2].to_string();
    let server = serve(move |_, _| http(200, &[], &cut)).await;
    let e = undecodable(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.status, 200);
    assert_eq!(e.body_prefix, &body[..body.len() / 2]);
    assert!(e.reason.contains("truncated"), "{}", e.reason);
}

#[tokio::test]
async fn connection_cut_mid_body_is_undecodable() {
    let server = serve(|_, _| {
        Reply::Raw(
            b"HTTP/1.1 200 OK\r\ncontent-length: 500\r\n\r\n{\"success\": true, \"da".to_vec(),
        )
    })
    .await;
    let e = undecodable(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.status, 200);
    assert_eq!(e.body_prefix, "{\"success\": true, \"da");
    assert!(e.reason.contains("ended"), "{}", e.reason);
}

#[tokio::test]
async fn empty_body_is_undecodable() {
    let server = serve(|_, _| http(200, &[], "")).await;
    let e = undecodable(server.client().stock_dividends(&dividends()).await);
    assert_eq!((e.status, e.body_len, e.body_prefix.as_str()), (200, 0, ""));
    assert_eq!(e.reason, "the body is empty");

    let server = serve(|_, _| http(404, &[], "")).await;
    let e = undecodable(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.status, 404);
}

#[tokio::test]
async fn wrong_records_name_the_record_field_and_position() {
    let server = serve(|_, _| http(200, &[], &success(json!([{"symbol": 5}])))).await;
    let e = undecodable(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.path.as_deref(), Some("data[0].symbol"));
    assert!(
        e.reason
            .starts_with("record PitDividend at `data[0].symbol` (line 1, column "),
        "{}",
        e.reason
    );
    assert!(
        e.reason.contains("invalid type: integer `5`"),
        "{}",
        e.reason
    );

    // A record missing a required field, deep in the page (past the body prefix).
    let mut rows: Vec<Value> = (0..12).map(|_| dividend()).collect();
    rows[9].as_object_mut().unwrap().remove("payment_date");
    let body = success(Value::Array(rows));
    let server = serve(move |_, _| http(200, &[("x-request-id", "req-bad-rows")], &body)).await;
    let err = server
        .client()
        .stock_dividends(&dividends())
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("record PitDividend at `data[9].payment_date`")
            && text.contains("missing field `payment_date`")
            && text.contains("line 1, column"),
        "{text}"
    );
    assert_eq!(err.request_id(), Some("req-bad-rows"));
    let e = undecodable(Err::<(), _>(err));
    assert_eq!(e.path.as_deref(), Some("data[9].payment_date"));
    let (line, column) = e.position().unwrap();
    assert_eq!(line, 1);
    assert!(column > mrds_client::BODY_PREFIX_LIMIT, "{column}");
    assert_eq!(e.attempts, 1, "an undecodable 200 is not retried");
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn error_status_without_envelope_is_undecodable() {
    let server = serve(|_, _| {
        http(
            502,
            &[("content-type", "text/html")],
            "<h1>Bad Gateway</h1>",
        )
    })
    .await;
    let client = Client::builder(&server.root).no_retries().build().unwrap();
    let err = client.stock_dividends(&dividends()).await.unwrap_err();
    assert_eq!(err.status(), Some(502));
    let text = err.to_string();
    assert!(
        text.contains("HTTP 502") && text.contains("Bad Gateway"),
        "{text}"
    );
    let e = undecodable(Err::<(), _>(err));
    assert_eq!(e.body_prefix, "<h1>Bad Gateway</h1>");

    let server = serve(|_, _| http(500, &[], r#"{"message": "boom"}"#)).await;
    let e = undecodable(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.status, 500);
    assert!(
        e.reason.contains("no error object") || e.reason.contains("without an error object"),
        "{}",
        e.reason
    );
}

#[tokio::test]
async fn long_bodies_are_cut_to_the_prefix() {
    let body = "€".repeat(600); // 1800 bytes; 512 would split the 171st character
    let server = serve(move |_, _| http(200, &[("content-type", "text/plain")], &body)).await;
    let e = undecodable(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.body_len, 1800);
    assert_eq!(e.body_prefix, "€".repeat(170));
}

// ---------------------------------------------------------------------------------------------
// Retries
// ---------------------------------------------------------------------------------------------

fn unavailable() -> String {
    failure("INTERNAL_ERROR", "try later", json!([]))
}

#[tokio::test]
async fn retries_on_503_stop_at_the_limit() {
    let server = serve(|_, _| http(503, &[], &unavailable())).await;
    let client = Client::builder(&server.root)
        .retry(fast_retries(2))
        .build()
        .unwrap();
    let err = client.stock_dividends(&dividends()).await.unwrap_err();
    assert_eq!(err.attempts(), 3);
    assert!(err.to_string().ends_with("(after 3 attempts)"), "{err}");
    let e = api_error(Err::<(), _>(err));
    assert_eq!((e.status, e.attempts), (503, 3));
    assert_eq!(server.count(), 3, "one attempt and two retries");
}

#[tokio::test]
async fn retries_then_succeeds() {
    let server = serve(|n, _| match n {
        0 => http(429, &[], &failure("RATE_LIMITED", "slow down", json!([]))),
        1 => http(502, &[("content-type", "text/html")], "bad gateway"),
        2 => http(504, &[], ""),
        _ => http(200, &[], &success(json!([dividend()]))),
    })
    .await;
    let page = server.client().stock_dividends(&dividends()).await.unwrap();
    assert_eq!(page.data.len(), 1);
    assert_eq!(server.count(), 4);
}

#[tokio::test]
async fn no_retry_when_disabled() {
    let server = serve(|_, _| http(503, &[], &unavailable())).await;
    let client = Client::builder(&server.root).no_retries().build().unwrap();
    assert_eq!(client.retry_policy().max_retries, 0);
    let e = api_error(client.stock_dividends(&dividends()).await);
    assert_eq!(e.status, 503);
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn retry_after_is_honoured_and_capped() {
    // The computed backoff would be an hour: only `Retry-After: 0` lets the retry come soon.
    let server = serve(|n, _| match n {
        0 => http(503, &[("retry-after", "0")], &unavailable()),
        _ => http(200, &[], &success(json!([]))),
    })
    .await;
    let slow = RetryPolicy {
        max_retries: 1,
        initial_backoff: Duration::from_secs(3600),
        max_backoff: Duration::from_secs(3600),
        ..RetryPolicy::default()
    };
    let client = Client::builder(&server.root).retry(slow).build().unwrap();
    let params = dividends();
    let call = client.stock_dividends(&params);
    let page = tokio::time::timeout(Duration::from_secs(60), call)
        .await
        .expect("Retry-After: 0 must replace the hour-long backoff")
        .unwrap();
    assert_eq!(page.request_id, "req-ok-1");
    assert_eq!(server.count(), 2);

    // An hour-long Retry-After is capped at max_backoff.
    let server = serve(|n, _| match n {
        0 => http(
            429,
            &[("retry-after", "3600")],
            &failure("RATE_LIMITED", "slow down", json!([])),
        ),
        _ => http(200, &[], &success(json!([]))),
    })
    .await;
    let client = server.client();
    let call = client.stock_dividends(&params);
    tokio::time::timeout(Duration::from_secs(60), call)
        .await
        .expect("Retry-After must be capped at max_backoff")
        .unwrap();
    assert_eq!(server.count(), 2);
}

#[tokio::test]
async fn retry_after_is_reported_when_retries_run_out() {
    let server = serve(|_, _| {
        http(
            429,
            &[("retry-after", "7")],
            &failure("RATE_LIMITED", "slow down", json!([])),
        )
    })
    .await;
    let client = Client::builder(&server.root).no_retries().build().unwrap();
    let e = api_error(client.stock_dividends(&dividends()).await);
    assert_eq!(e.error.code, ErrorCode::RateLimited);
    assert_eq!(e.retry_after, Some(Duration::from_secs(7)));
    assert_eq!(e.attempts, 1);
}

#[tokio::test]
async fn retry_after_as_an_http_date_is_honoured() {
    let rate_limited = || failure("RATE_LIMITED", "slow down", json!([]));
    let hour = RetryPolicy {
        max_retries: 1,
        initial_backoff: Duration::from_secs(3600),
        max_backoff: Duration::from_secs(3600),
        ..RetryPolicy::default()
    };
    // A date in the past replaces the hour-long backoff with no wait at all.
    let server = serve(move |n, _| match n {
        0 => http(
            429,
            &[("retry-after", "Sun, 06 Nov 1994 08:49:37 GMT")],
            &rate_limited(),
        ),
        _ => http(200, &[], &success(json!([]))),
    })
    .await;
    let client = Client::builder(&server.root).retry(hour).build().unwrap();
    let params = dividends();
    let call = client.stock_dividends(&params);
    tokio::time::timeout(Duration::from_secs(5), call)
        .await
        .expect("a past Retry-After date means retry now")
        .unwrap();
    assert_eq!(server.count(), 2);

    // A date two seconds ahead (whole seconds: one to two seconds from now) is waited for.
    let server = serve(move |n, _| match n {
        0 => {
            let when = std::time::SystemTime::now() + Duration::from_secs(2);
            http(
                503,
                &[("retry-after", &httpdate::fmt_http_date(when))],
                &rate_limited(),
            )
        }
        _ => http(200, &[], &success(json!([]))),
    })
    .await;
    let client = Client::builder(&server.root).retry(hour).build().unwrap();
    let started = std::time::Instant::now();
    let params = dividends();
    let call = client.stock_dividends(&params);
    tokio::time::timeout(Duration::from_secs(5), call)
        .await
        .expect("the Retry-After date replaces the backoff")
        .unwrap();
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(3),
        "{took:?}"
    );

    // A date an hour ahead is capped at max_backoff, and reported when retries run out.
    let server = serve(move |_, _| {
        let when = std::time::SystemTime::now() + Duration::from_secs(3600);
        http(
            429,
            &[("retry-after", &httpdate::fmt_http_date(when))],
            &rate_limited(),
        )
    })
    .await;
    let e = api_error(server.client().stock_dividends(&dividends()).await);
    assert_eq!((e.status, e.attempts), (429, 4));
    let asked = e.retry_after.unwrap();
    assert!(
        asked > Duration::from_secs(3590) && asked <= Duration::from_secs(3600),
        "{asked:?}"
    );
}

#[test]
fn backoff_grows_is_jittered_and_capped() {
    let policy = RetryPolicy {
        max_retries: 10,
        initial_backoff: Duration::from_millis(100),
        max_backoff: Duration::from_secs(1),
        ..RetryPolicy::default()
    };
    for _ in 0..50 {
        let first = policy.delay(1, None);
        assert!(
            first >= Duration::from_millis(50) && first <= Duration::from_millis(100),
            "{first:?}"
        );
        let third = policy.delay(3, None);
        assert!(
            third >= Duration::from_millis(200) && third <= Duration::from_millis(400),
            "{third:?}"
        );
        assert!(policy.delay(10, None) <= Duration::from_secs(1));
    }
    assert_eq!(
        policy.delay(1, Some(Duration::from_secs(0))),
        Duration::ZERO
    );
    assert_eq!(
        policy.delay(1, Some(Duration::from_secs(60))),
        Duration::from_secs(1)
    );
    let samples: std::collections::BTreeSet<Duration> =
        (0..20).map(|_| policy.delay(2, None)).collect();
    assert!(samples.len() > 1, "the wait is jittered");
    assert_eq!(RetryPolicy::none().max_retries, 0);
    assert_eq!(RetryPolicy::default().max_retries, 3);
}

// ---------------------------------------------------------------------------------------------
// Transport failures
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn connection_refused_is_a_transport_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let root = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let client = Client::builder(&root)
        .retry(fast_retries(2))
        .build()
        .unwrap();
    let err = client.stock_dividends(&dividends()).await.unwrap_err();
    let Error::Transport(t) = &err else {
        panic!("expected a transport error, got {err:?}");
    };
    assert_eq!(t.kind, TransportKind::Connect);
    assert_eq!(t.attempts, 3, "one attempt and two retries");
    assert!(
        std::error::Error::source(&err).is_some(),
        "the source is kept"
    );
    assert!(err.to_string().contains("could not connect"), "{err}");
}

#[tokio::test]
async fn timeouts_are_retried() {
    // The first attempt hangs and times out; the retry is answered.
    let server = serve(|n, _| match n {
        0 => Reply::Hang,
        _ => http(200, &[], &success(json!([dividend()]))),
    })
    .await;
    let client = Client::builder(&server.root)
        .timeout(Duration::from_millis(200))
        .retry(fast_retries(3))
        .build()
        .unwrap();
    let page = client.stock_dividends(&dividends()).await.unwrap();
    assert_eq!(page.data.len(), 1);
    assert_eq!(server.count(), 2);

    // A server that never answers: every attempt times out, and the error says how many.
    let server = serve(|_, _| Reply::Hang).await;
    let client = Client::builder(&server.root)
        .timeout(Duration::from_millis(100))
        .no_deadline()
        .retry(fast_retries(2))
        .build()
        .unwrap();
    let err = client.stock_dividends(&dividends()).await.unwrap_err();
    assert!(
        matches!(&err, Error::Transport(t) if t.kind == TransportKind::Timeout && t.attempts == 3),
        "{err:?}"
    );
    assert_eq!(err.attempts(), 3);
    assert!(
        err.to_string().contains("timed out") && err.to_string().contains("after 3 attempts"),
        "{err}"
    );
    assert_eq!(server.count(), 3);

    // Retrying timeouts can be turned off.
    let server = serve(|_, _| Reply::Hang).await;
    let client = Client::builder(&server.root)
        .timeout(Duration::from_millis(100))
        .retry(fast_retries(2))
        .retry_timeouts(false)
        .build()
        .unwrap();
    let err = client.stock_dividends(&dividends()).await.unwrap_err();
    assert!(
        matches!(&err, Error::Transport(t) if t.kind == TransportKind::Timeout),
        "{err:?}"
    );
    assert_eq!((err.attempts(), server.count()), (1, 1));
}

#[tokio::test]
async fn connection_resets_are_retried() {
    // A reset, then a connection closed without an answer, then the answer.
    let server = serve(|n, _| match n {
        0 => Reply::Reset,
        1 => Reply::Close,
        _ => http(200, &[], &success(json!([dividend()]))),
    })
    .await;
    let page = server.client().stock_dividends(&dividends()).await.unwrap();
    assert_eq!(page.data.len(), 1);
    assert_eq!(server.count(), 3);

    for reply in [|| Reply::Reset, || Reply::Close] {
        let server = serve(move |_, _| reply()).await;
        let client = Client::builder(&server.root)
            .retry(fast_retries(2))
            .build()
            .unwrap();
        let err = client.stock_dividends(&dividends()).await.unwrap_err();
        let Error::Transport(t) = &err else {
            panic!("expected a transport error, got {err:?}");
        };
        assert_eq!(t.kind, TransportKind::Reset, "{err:?}");
        assert_eq!((err.attempts(), server.count()), (3, 3));
        assert!(
            err.to_string()
                .contains("closed before a complete response"),
            "{err}"
        );
    }
}

#[tokio::test]
async fn the_deadline_bounds_the_whole_call() {
    // Attempts of 300 ms within a deadline of 500 ms: the second attempt gets the 200 ms
    // left and the call ends at the deadline, not after eleven attempts.
    let server = serve(|_, _| Reply::Hang).await;
    let client = Client::builder(&server.root)
        .timeout(Duration::from_millis(300))
        .deadline(Duration::from_millis(500))
        .retry(fast_retries(10))
        .build()
        .unwrap();
    let started = std::time::Instant::now();
    let err = client.stock_dividends(&dividends()).await.unwrap_err();
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(450) && took < Duration::from_millis(1500),
        "{took:?}"
    );
    assert!(
        matches!(&err, Error::Transport(t) if t.kind == TransportKind::Deadline),
        "{err:?}"
    );
    assert_eq!((err.attempts(), server.count()), (2, 2));
    assert!(err.to_string().contains("deadline"), "{err}");

    // A wait that would end past the deadline is not made: the last answer is returned at
    // once, with the wait the service asked for.
    let server = serve(|_, _| {
        http(
            503,
            &[("retry-after", "3")],
            &failure("INTERNAL_ERROR", "try later", json!([])),
        )
    })
    .await;
    let client = Client::builder(&server.root)
        .deadline(Duration::from_millis(500))
        .retry(RetryPolicy {
            max_retries: 3,
            initial_backoff: Duration::from_millis(1),
            max_backoff: Duration::from_secs(10),
            ..RetryPolicy::default()
        })
        .build()
        .unwrap();
    let started = std::time::Instant::now();
    let e = api_error(client.stock_dividends(&dividends()).await);
    assert!(started.elapsed() < Duration::from_millis(500));
    assert_eq!((e.status, e.attempts), (503, 1));
    assert_eq!(e.retry_after, Some(Duration::from_secs(3)));
    assert_eq!(server.count(), 1);

    // The default deadline is twice the per-attempt timeout.
    let client = Client::builder(&server.root)
        .timeout(Duration::from_secs(7))
        .build()
        .unwrap();
    let text = format!("{client:?}");
    assert!(text.contains("deadline: Some(14s)"), "{text}");
    assert_eq!(mrds_client::DEFAULT_DEADLINE_FACTOR, 2);
}

// ---------------------------------------------------------------------------------------------
// Builder
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn base_url_spellings_name_the_same_root() {
    let server = serve(|_, _| http(200, &[], &success(json!([])))).await;
    let root = server.root.clone();
    let spellings = [
        root.clone(),
        format!("{root}/"),
        format!("{root}/api"),
        format!("{root}/api/"),
        format!(" {root}/api// "),
    ];
    for spelling in &spellings {
        let client = Client::builder(spelling).build().unwrap();
        assert_eq!(
            client.base_url().to_string(),
            format!("{root}/api"),
            "{spelling}"
        );
        client.stock_dividends(&dividends()).await.unwrap();
    }
    let prefixed = Client::builder(format!("{root}/gateway/mrds"))
        .build()
        .unwrap();
    assert_eq!(
        prefixed.base_url().to_string(),
        format!("{root}/gateway/mrds/api")
    );
    prefixed.stock_dividends(&dividends()).await.unwrap();

    let seen = server.seen();
    assert_eq!(seen.len(), spellings.len() + 1);
    for s in &seen[..spellings.len()] {
        assert!(
            s.target.starts_with("/api/v1/stocks/dividends?"),
            "{}",
            s.target
        );
    }
    assert!(
        seen[spellings.len()]
            .target
            .starts_with("/gateway/mrds/api/v1/stocks/dividends?")
    );
}

#[test]
fn bad_settings_are_rejected() {
    for bad in [
        "not a url",
        "ftp://host/api",
        "http://host/api?x=1",
        "http://user:pw@host/api",
        "http://host/api#part",
        "http://bücher.example/api",
        "/api",
    ] {
        let err = Client::builder(bad).build().unwrap_err();
        assert!(
            matches!(err, BuildError::InvalidBaseUrl { .. }),
            "{bad}: {err:?}"
        );
        assert!(err.to_string().contains("invalid base URL"), "{err}");
    }
    let err = Client::builder("http://host")
        .api_key("bad\nkey")
        .build()
        .unwrap_err();
    assert!(matches!(err, BuildError::InvalidApiKey));
    assert!(!err.to_string().contains("bad"), "the key is never shown");
    let err = Client::builder("http://host")
        .api_key("")
        .build()
        .unwrap_err();
    assert!(matches!(err, BuildError::InvalidApiKey));
    let err = Client::builder("http://host")
        .user_agent("a\u{7f}")
        .build()
        .unwrap_err();
    assert!(matches!(err, BuildError::InvalidUserAgent(_)));
}

#[test]
fn debug_never_shows_the_key() {
    let builder = Client::builder("http://127.0.0.1:8080").api_key(KEY);
    let text = format!("{builder:?}");
    assert!(!text.contains(KEY) && text.contains("<redacted>"), "{text}");
    let client = builder.build().unwrap();
    let text = format!("{client:?} {client:#?}");
    assert!(!text.contains(KEY) && text.contains("<redacted>"), "{text}");
    assert!(text.contains("http://127.0.0.1:8080/api"), "{text}");
}

#[test]
fn errors_and_futures_are_send() {
    fn error<T: std::error::Error + Send + Sync + 'static>() {}
    error::<Error>();
    error::<BuildError>();
    fn send<T: Send>(_: &T) {}
    let client = Client::builder("http://127.0.0.1:8080").build().unwrap();
    let params = dividends();
    send(&client.stock_dividends(&params));
    send(&client);
}

#[tokio::test]
async fn redirects_are_followed_only_within_one_origin() {
    let server = serve(|n, _| match n {
        0 => http(302, &[("location", "/api/v1/stocks/dividends?moved=1")], ""),
        _ => http(200, &[], &success(json!([]))),
    })
    .await;
    server.client().stock_dividends(&dividends()).await.unwrap();
    let seen = server.seen();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[1].target, "/api/v1/stocks/dividends?moved=1");
    assert_eq!(seen[1].header("x-api-key"), Some(KEY));

    // To another origin: not followed, so the key stays home.
    let elsewhere = serve(|_, _| http(200, &[], &success(json!([])))).await;
    let target = elsewhere.root.replace("127.0.0.1", "localhost");
    let server =
        serve(move |_, _| http(307, &[("location", &format!("{target}/steal"))], "")).await;
    let e = undecodable(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.status, 307);
    assert!(e.reason.contains("redirect"), "{}", e.reason);
    assert_eq!(elsewhere.count(), 0);
}

// ---------------------------------------------------------------------------------------------
// The raw client (the contract suite's): requests as they are, answers of any status
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn the_raw_client_sends_as_is_and_reads_any_answer() {
    use mrds_runtime::client::{RawClient, http};

    let server = serve(|_, _| http(404, &[("x-probe", "1")], "{\"gone\": true}")).await;
    let raw = RawClient::new().unwrap();
    // A query the typed client would refuse: an unknown parameter and an empty value.
    let request = http::Request::get(format!("{}/api/v1/nowhere?bogus=&x=%20", server.root))
        .header("x-api-key", "wrong")
        .body(Default::default())
        .unwrap();
    let answer = raw.send(request, Duration::from_secs(5)).await.unwrap();
    assert_eq!(answer.status(), 404);
    assert_eq!(answer.headers()["x-probe"], "1");
    assert_eq!(&answer.body()[..], b"{\"gone\": true}");
    let seen = &server.seen()[0];
    assert_eq!(seen.target, "/api/v1/nowhere?bogus=&x=%20");
    assert_eq!(seen.header("x-api-key"), Some("wrong"));

    // No answer in time: a timeout, not retried.
    let silent = serve(|_, _| Reply::Hang).await;
    let request = http::Request::get(format!("{}/api/v1/x", silent.root))
        .body(Default::default())
        .unwrap();
    let e = raw
        .send(request, Duration::from_millis(100))
        .await
        .unwrap_err();
    assert_eq!(e.kind, TransportKind::Timeout);
    assert_eq!(silent.count(), 1);
}

/// Runs the probe (`src/bin/mrds-env-proxy-probe.rs`) on `url` with only the proxy variables
/// of `env` set; its output and whether it got an answer.
fn probe_with_env(url: &str, env: &[(&str, &str)]) -> (String, bool) {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_mrds-env-proxy-probe"));
    for name in [
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "NO_PROXY",
        "REQUEST_METHOD",
    ] {
        command.env_remove(name).env_remove(name.to_lowercase());
    }
    let output = command.arg(url).envs(env.iter().copied()).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).trim().to_string();
    (text, output.status.success())
}

#[test]
fn proxies_come_from_the_environment() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let proxy = runtime.block_on(serve(|_, _| http(204, &[], "")));
    let url = "http://mrds.invalid:8080/api/v1/x?y=1";

    // HTTP_PROXY: the request goes to the proxy, naming the whole URL.
    let (out, answered) = probe_with_env(url, &[("HTTP_PROXY", &proxy.root)]);
    assert!(answered && out == "204", "{out}");
    assert_eq!(proxy.seen()[0].target, url);

    // ALL_PROXY in lower case, with credentials.
    let with_credentials = proxy.root.replace("http://", "http://u:p@");
    let (out, answered) = probe_with_env(url, &[("all_proxy", &with_credentials)]);
    assert!(answered && out == "204", "{out}");
    assert_eq!(
        proxy.seen()[1].header("proxy-authorization"),
        Some("Basic dTpw")
    );

    // NO_PROXY names the host: straight to it, which does not resolve.
    let (out, answered) = probe_with_env(
        url,
        &[("HTTP_PROXY", &proxy.root), ("NO_PROXY", "mrds.invalid")],
    );
    assert!(
        !answered && out.starts_with("error: could not connect"),
        "{out}"
    );

    // A SOCKS proxy is not spoken to, and the error says so.
    let (out, answered) = probe_with_env(url, &[("HTTP_PROXY", "socks5://127.0.0.1:1")]);
    assert!(!answered && out.contains("`http://` proxies only"), "{out}");
    assert_eq!(proxy.count(), 2);
}
