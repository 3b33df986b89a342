//! The generated client (`crates/mrds-client`) against small hand-made servers on a loopback
//! port. Each server writes canned HTTP responses and records every request it receives; this
//! module holds the server and the canned bodies, which [`client_paging`], [`client_tls`] and
//! [`client_tracing`] use too. By subject:
//!
//! - [`requests`]: a successful call decoded, and what it sends (key, user agent, accept,
//!   percent-encoded query and path, redirects within one origin);
//! - [`errors`]: the error a call ends with: invalid input (nothing sent), the service's error
//!   envelopes, answers that cannot be decoded;
//! - [`retries`]: retries and their limit, `Retry-After` (seconds and HTTP dates), backoff;
//! - [`transport_failures`]: refused connections, timeouts, resets and the call's deadline;
//! - [`builder`]: base URL spellings, refused settings, the key never shown;
//! - [`proxies`]: explicit proxies (HTTP, tunnels, none, refused ones) and proxies from the
//!   environment;
//! - [`raw_client`]: the contract suite's raw client.
//!
//! [`client_paging`]: super::client_paging
//! [`client_tls`]: super::client_tls
//! [`client_tracing`]: super::client_tracing

mod builder;
mod errors;
mod proxies;
mod raw_client;
mod requests;
mod retries;
mod transport_failures;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mrds_client::{Client, Error, RetryPolicy};
use mrds_model::TimeType;
use mrds_model::params::StockDividendsParams;
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
    let mut row = json!({
        "symbol": "BRK.B", "date": "2026-03-02", "record_date": "2026-03-03",
        "payment_date": "2026-03-20", "declaration_date": "2026-02-10",
        "adj_dividend": 0.5, "dividend": 0.5, "yield": 1.25, "frequency": "Quarterly",
    });
    mrds_tests::conform::record_only("PitDividend", &mut row);
    row
}

pub(crate) fn dividends() -> StockDividendsParams {
    StockDividendsParams::new("BRK.B", 1_700_000_000, 1_710_000_000, TimeType::PaymentDate)
}

pub(crate) const PERSON: &str = "123e4567-e89b-12d3-a456-426614174000";

pub(crate) fn commentary_row(i: i64) -> Value {
    let mut row = json!({
        "person_id": PERSON, "quote": format!("Remark {i}."), "url": "https://example.org/a",
        "page_title": "A page", "venue": "A venue", "author": "", "lang": "en",
        "said_on": "2026-07-01", "published_at": 1_780_000_000 + i,
        "published_at_source": "page", "source_kind": "interview", "cluster_id": format!("c{i}"),
    });
    mrds_tests::conform::record_only("PersonCommentary", &mut row);
    row[label()] = json!(format!("Remark {i}."));
    row
}

/// The field of a commentary row that says which row it is (`Remark 3.`): `quote`, unless a
/// release renamed or retyped it ([`mrds_tests::conform::label_field`]).
pub(crate) fn label() -> &'static str {
    mrds_tests::conform::label_field("PersonCommentary")
}

/// The label of a decoded commentary row ([`label`]).
pub(crate) fn label_of(row: &mrds_model::records::PersonCommentary) -> String {
    let value = mrds_tests::conform::wire_field(row, label());
    value.as_str().unwrap_or_default().to_string()
}

/// Asserts that every field of `sent` (an answer's record as the server wrote it) decoded into
/// `record` as it was written.
#[track_caller]
pub(crate) fn decoded_as_sent<T: serde::Serialize>(record: &T, sent: &Value) {
    for (wire, value) in sent.as_object().expect("a record is an object") {
        assert_eq!(
            &mrds_tests::conform::wire_field(record, wire),
            value,
            "{wire}"
        );
    }
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
pub(crate) fn status_error(
    result: Result<impl std::fmt::Debug, Error>,
) -> mrds_client::StatusError {
    match result {
        Err(Error::Status(e)) => e,
        other => panic!("expected an error status without the error object, got {other:?}"),
    }
}

#[track_caller]
fn api_error(result: Result<impl std::fmt::Debug, Error>) -> mrds_client::ApiError {
    match result {
        Err(Error::Api(e)) => *e,
        other => panic!("expected an API error, got {other:?}"),
    }
}
