//! What the serving path (`mrds_server::serve`) answers before a request reaches an
//! implementation, over raw sockets: bytes written by hand, read until the server closes.
//!
//! - An answer given without reading the request's body (413 for a body over the limit,
//!   declared or found while reading, 415, 401, any answer of a route that does not read it)
//!   carries `Connection: close`, and no request after it (pipelined, or inside the unread
//!   body) is ever answered; a body read to its end keeps the connection.
//! - Every malformed head (a byte a request target may not hold, a folded header, two
//!   Content-Lengths, another HTTP version, a target, a head or a header count over the limits)
//!   is answered in the error envelope with a request id and `Connection: close`, whether it
//!   opens a connection or follows an answered request.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use mrds_runtime::server::{ServerError, Shared};
use mrds_runtime::{
    Auth, BodyRecord, Endpoint, ErrorBody, Issues, RawParams, Request as Params, ValidationError,
    WithBody,
};
use mrds_server::axum::Router;
use mrds_server::axum::extract::{Request, State};
use mrds_server::axum::routing::post;
use mrds_server::{ServeConfig, Server, StaticKeys};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::http::{Answer, assert_request_id, parse};

const KEY: &str = "refusals-test-key";
/// A request the sample server answers with records ([`mrds_tests::served_target`]).
fn target() -> &'static str {
    mrds_tests::served_target()
}
/// The body limit of the test server.
const LIMIT: usize = 1024;

/// A `POST` endpoint written by hand: a body `{"n": <int>}`, answered with itself.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Payload {
    n: i64,
}

impl BodyRecord for Payload {
    fn check(&self, _: &mut Issues) {}
}

struct PayloadParams;

/// The error object of the payload endpoint: the runtime's codes with their statuses (the
/// real spec has no body, so its error codes lack 413 and 415).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct TestError {
    code: String,
    message: String,
}

impl ErrorBody for TestError {
    type Code = String;
    fn from_code(code: String, message: String) -> Self {
        Self { code, message }
    }
    fn codes() -> &'static [String] {
        &[]
    }
    fn code(&self) -> &String {
        &self.code
    }
    fn http_status(&self) -> Option<u16> {
        match self.code.as_str() {
            "INVALID_PARAMETER" => Some(400),
            "UNAUTHORIZED" => Some(401),
            "PAYLOAD_TOO_LARGE" => Some(413),
            "UNSUPPORTED_MEDIA_TYPE" => Some(415),
            _ => None,
        }
    }
    fn message(&self) -> &str {
        &self.message
    }
    fn hint(&self) -> Option<&str> {
        None
    }
    fn set_hint(&mut self, _: String) {}
    fn push_detail(&mut self, _: String, _: String, _: String) {}
    fn details(&self) -> Vec<(&str, &str, &str)> {
        Vec::new()
    }
}

static PAYLOAD: Endpoint = Endpoint {
    id: "payload",
    method: mrds_runtime::Method::Post,
    path: "/v1/payload",
    summary: "",
    auth: Auth::Required,
    removed: None,
    idempotent: false,
};

impl Params for PayloadParams {
    type Record = Payload;
    const ENDPOINT: &'static Endpoint = &PAYLOAD;
    fn validate(&self) -> Result<(), ValidationError> {
        Ok(())
    }
    fn to_query(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
    fn path(&self) -> String {
        PAYLOAD.path.to_string()
    }
    fn from_raw(_: &RawParams) -> Result<Self, ValidationError> {
        Ok(Self)
    }
}

impl WithBody for PayloadParams {
    type Body = Payload;
    const BODY_RULE: &'static str = "payload.body";
    fn validate_body(&self, _: &Payload) -> Result<(), ValidationError> {
        Ok(())
    }
}

/// The sample server, and `POST /api/v1/payload` through the pipeline's body handling.
fn router() -> Router {
    type Body = Arc<Shared<(), StaticKeys>>;
    let shared: Body = Arc::new(Shared::new((), StaticKeys::new([KEY]), "X-API-Key"));
    let payload = Router::new()
        .route(
            "/api/v1/payload",
            post(|State(shared): State<Body>, request: Request| async move {
                let call = |_, _: PayloadParams, body: Payload| async move {
                    Ok::<_, ServerError<TestError>>(vec![body])
                };
                shared.handle_with_body(request, call).await
            }),
        )
        .with_state(shared);
    payload.merge(mrds_mock::router(StaticKeys::new([KEY])))
}

/// Serves [`router`] with a body limit of [`LIMIT`] and the default head limits.
async fn serve() -> SocketAddr {
    let config = ServeConfig::default()
        .with_addr(([127, 0, 0, 1], 0).into())
        .with_handle_signals(false)
        .with_max_body_bytes(LIMIT);
    let server = Server::bind(config).await.unwrap();
    let addr = server.local_addr().unwrap();
    tokio::spawn(server.serve(router()));
    addr
}

/// Writes `bytes` on a new connection, closes the sending side, and reads until the server
/// closes: every answer, parsed (a connection reset fails the test: the lingering close is
/// there so that no answer is lost to one).
async fn exchange(addr: SocketAddr, bytes: Vec<u8>) -> Vec<Answer> {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    // The server may stop reading before the client is done writing; the write goes on
    // beside the read.
    let writing = tokio::spawn(async move {
        let _ = writer.write_all(&bytes).await;
        let _ = writer.shutdown().await;
        writer
    });
    let mut raw = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), reader.read_to_end(&mut raw)).await;
    match read {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => panic!(
            "the connection failed ({e}) after {:?}",
            String::from_utf8_lossy(&raw)
        ),
        Err(_) => panic!("still open after 10 s: {:?}", String::from_utf8_lossy(&raw)),
    }
    drop(writing.await.unwrap());
    let mut answers = Vec::new();
    let mut at = 0;
    while at < raw.len() {
        let (answer, taken) = parse(&raw[at..]);
        answers.push(answer);
        at += taken;
    }
    answers
}

/// A `GET` of the sample server with the key: answered 200 when it is answered at all.
fn pipelined_get() -> String {
    let target = target();
    format!("GET {target} HTTP/1.1\r\nHost: x\r\nX-API-Key: {KEY}\r\n\r\n")
}

/// A `POST` head of the payload endpoint with `headers` (each ending with CRLF).
fn post_head(headers: &str) -> String {
    format!("POST /api/v1/payload HTTP/1.1\r\nHost: x\r\n{headers}\r\n")
}

/// The error envelope of `answer`, checked: `status`, JSON, `success: false`, a request id in
/// the body and the header, `data` repeating the error object, `code`. Returns the error
/// object.
fn envelope(answer: &Answer, status: u16, code: &str) -> Value {
    let json = answer.json();
    assert_eq!(answer.status, status, "{json}");
    assert_eq!(answer.header("content-type"), Some("application/json"));
    assert_eq!(json["success"], false, "{json}");
    let id = json["request_id"].as_str().unwrap();
    assert_request_id(id);
    assert_eq!(answer.header("x-request-id"), Some(id));
    assert_eq!(
        json["data"],
        Value::Array(vec![json["error"].clone()]),
        "{json}"
    );
    assert_eq!(json["error"]["code"], code, "{json}");
    json["error"].clone()
}

/// The one answer of `answers`: an error envelope with `status` and `code`, closing the
/// connection. Returns the error object.
fn the_one_refusal(answers: &[Answer], status: u16, code: &str) -> Value {
    let statuses: Vec<u16> = answers.iter().map(|a| a.status).collect();
    assert_eq!(statuses, [status], "one answer, then the close");
    let answer = &answers[0];
    assert_eq!(answer.header("connection"), Some("close"));
    envelope(answer, status, code)
}

// ---------------------------------------------------------------- answers before the body

#[tokio::test]
async fn a_body_over_the_limit_by_its_content_length_is_413_and_nothing_after_it_is_answered() {
    let addr = serve().await;
    // The body is a request of its own (what a proxy forwarding it whole would pass on),
    // padded past the limit; a pipelined request follows it.
    let mut inner = pipelined_get();
    inner.push_str(&" ".repeat(LIMIT + 1 - inner.len()));
    let mut bytes = post_head(&format!(
        "X-API-Key: {KEY}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        inner.len()
    ));
    bytes.push_str(&inner);
    bytes.push_str(&pipelined_get());
    let answers = exchange(addr, bytes.into_bytes()).await;
    let error = the_one_refusal(&answers, 413, "PAYLOAD_TOO_LARGE");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("1024 bytes"), "{message}");

    // A body far larger than what is read ahead (within the lingering close's bound, so the
    // close discards all of it and the client sees no reset): the same.
    let big = 512 << 10;
    let mut bytes = post_head(&format!(
        "X-API-Key: {KEY}\r\nContent-Type: application/json\r\nContent-Length: {big}\r\n"
    ))
    .into_bytes();
    bytes.resize(bytes.len() + big, b'G');
    bytes.extend_from_slice(pipelined_get().as_bytes());
    let answers = exchange(addr, bytes).await;
    the_one_refusal(&answers, 413, "PAYLOAD_TOO_LARGE");
}

#[tokio::test]
async fn a_chunked_body_that_goes_over_the_limit_is_413_and_nothing_after_it_is_answered() {
    let addr = serve().await;
    let mut bytes = post_head(&format!(
        "X-API-Key: {KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
    ));
    // Four chunks of 400 bytes: the third takes the body over the limit while it is read.
    let chunk = format!("{{\"n\": 1{}}}", " ".repeat(400 - 9));
    for _ in 0..4 {
        bytes.push_str(&format!("{:x}\r\n{chunk}\r\n", chunk.len()));
    }
    bytes.push_str("0\r\n\r\n");
    bytes.push_str(&pipelined_get());
    let answers = exchange(addr, bytes.into_bytes()).await;
    the_one_refusal(&answers, 413, "PAYLOAD_TOO_LARGE");
}

#[tokio::test]
async fn answers_415_and_401_leave_the_body_unread_and_close() {
    let addr = serve().await;
    let body = r#"{"n": 1}"#;
    let mut bytes = post_head(&format!(
        "X-API-Key: {KEY}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n",
        body.len()
    ));
    bytes.push_str(body);
    bytes.push_str(&pipelined_get());
    let answers = exchange(addr, bytes.into_bytes()).await;
    the_one_refusal(&answers, 415, "UNSUPPORTED_MEDIA_TYPE");

    let mut bytes = post_head(&format!(
        "Content-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    ));
    bytes.push_str(body);
    bytes.push_str(&pipelined_get());
    let answers = exchange(addr, bytes.into_bytes()).await;
    the_one_refusal(&answers, 401, "UNAUTHORIZED");
}

#[tokio::test]
async fn any_answer_that_leaves_a_body_unread_closes() {
    let target = target();
    let addr = serve().await;
    // A GET with a body (its route reads none), a POST to a path nobody serves, and a POST
    // to a GET endpoint (405): each answered, then the close.
    let body = "0123456789";
    for (head, status, code) in [
        (
            format!("GET {target} HTTP/1.1\r\nHost: x\r\nX-API-Key: {KEY}\r\n"),
            200,
            None,
        ),
        (
            "POST /api/v1/nothing HTTP/1.1\r\nHost: x\r\n".to_string(),
            404,
            Some("RESOURCE_NOT_FOUND"),
        ),
        (
            format!("POST {target} HTTP/1.1\r\nHost: x\r\n"),
            405,
            Some("RESOURCE_NOT_FOUND"),
        ),
    ] {
        let mut bytes = format!("{head}Content-Length: {}\r\n\r\n{body}", body.len());
        bytes.push_str(&pipelined_get());
        let answers = exchange(addr, bytes.into_bytes()).await;
        let statuses: Vec<u16> = answers.iter().map(|a| a.status).collect();
        assert_eq!(statuses, [status], "{head}");
        assert_eq!(answers[0].header("connection"), Some("close"), "{head}");
        if let Some(code) = code {
            envelope(&answers[0], status, code);
        }
    }
}

#[tokio::test]
async fn a_body_read_to_its_end_keeps_the_connection() {
    let addr = serve().await;
    let body = r#"{"n": 7}"#;
    let post = |framing: &str, body: &str| {
        let mut bytes = post_head(&format!(
            "X-API-Key: {KEY}\r\nContent-Type: application/json\r\n{framing}"
        ));
        bytes.push_str(body);
        bytes
    };
    let mut bytes = post(&format!("Content-Length: {}\r\n", body.len()), body);
    bytes.push_str(&post(
        "Transfer-Encoding: chunked\r\n",
        &format!("{:x}\r\n{body}\r\n0\r\n\r\n", body.len()),
    ));
    bytes.push_str(&pipelined_get());
    let answers = exchange(addr, bytes.into_bytes()).await;
    let statuses: Vec<u16> = answers.iter().map(|a| a.status).collect();
    assert_eq!(statuses, [200, 200, 200]);
    for answer in &answers {
        assert_eq!(answer.header("connection"), None);
    }
    assert_eq!(answers[0].json()["data"][0]["n"], 7);
}

// ---------------------------------------------------------------- malformed heads

/// A malformed head and what its answer's message must say.
#[derive(Clone)]
struct Probe {
    name: &'static str,
    bytes: Vec<u8>,
    status: u16,
    says: &'static str,
}

fn probes() -> Vec<Probe> {
    let get = |target: &[u8], rest: &[u8]| {
        let mut bytes = b"GET ".to_vec();
        bytes.extend_from_slice(target);
        bytes.extend_from_slice(b" HTTP/1.1\r\nHost: x\r\n");
        bytes.extend_from_slice(rest);
        bytes.extend_from_slice(b"\r\n");
        bytes
    };
    let long_query = format!("/api/v1/nothing?pad={}", "a".repeat(60 * 1024));
    let big_header = format!("X-Padding: {}\r\n", "a".repeat(100 * 1024));
    let many_headers: String = (0..1000).map(|i| format!("X-H{i}: a\r\n")).collect();
    vec![
        Probe {
            name: "a raw 0xFF in the target",
            bytes: get(b"/api/v1/\xffx", b""),
            status: 400,
            says: "0xFF",
        },
        Probe {
            name: "a NUL in the target",
            bytes: get(b"/api/v1/\x00x", b""),
            status: 400,
            says: "0x00",
        },
        Probe {
            name: "an obs-fold header",
            bytes: get(b"/api/v1/nothing", b"X-Folded: a\r\n b\r\n"),
            status: 400,
            says: "folded",
        },
        Probe {
            name: "two Content-Lengths",
            bytes: get(
                b"/api/v1/nothing",
                b"Content-Length: 1\r\nContent-Length: 2\r\n",
            ),
            status: 400,
            says: "Content-Length",
        },
        Probe {
            name: "HTTP/2.0 in the request line",
            bytes: b"GET /api/v1/nothing HTTP/2.0\r\nHost: x\r\n\r\n".to_vec(),
            status: 400,
            says: "HTTP/2.0",
        },
        Probe {
            name: "a header name with a space",
            bytes: get(b"/api/v1/nothing", b"X Bad: a\r\n"),
            status: 400,
            says: "header",
        },
        Probe {
            name: "a control character in a header value",
            bytes: get(b"/api/v1/nothing", b"X-Bad: a\x01b\r\n"),
            status: 400,
            says: "0x01",
        },
        Probe {
            name: "a Transfer-Encoding that does not end with chunked",
            bytes: get(b"/api/v1/nothing", b"Transfer-Encoding: gzip\r\n"),
            status: 400,
            says: "Transfer-Encoding",
        },
        Probe {
            name: "a Content-Length that is not a number",
            bytes: get(b"/api/v1/nothing", b"Content-Length: -1\r\n"),
            status: 400,
            says: "Content-Length",
        },
        Probe {
            name: "a method that is not a token",
            bytes: b"G(T /api/v1/nothing HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
            status: 400,
            says: "method",
        },
        Probe {
            name: "a 60 KB query",
            bytes: get(long_query.as_bytes(), b""),
            status: 414,
            says: "16384 bytes",
        },
        Probe {
            name: "a 100 KB header",
            bytes: get(b"/api/v1/nothing", big_header.as_bytes()),
            status: 431,
            says: "16384 bytes",
        },
        Probe {
            name: "1,000 headers",
            bytes: get(b"/api/v1/nothing", many_headers.as_bytes()),
            status: 431,
            says: "more than 100 headers",
        },
    ]
}

/// Checks the envelope of a refused head: the generic checks of [`Answer::error`], then
/// `details: []` and a message saying what was wrong.
fn assert_refused(answers: &[Answer], probe: &Probe) {
    let name = probe.name;
    let statuses: Vec<u16> = answers.iter().map(|a| a.status).collect();
    assert_eq!(
        statuses,
        [probe.status],
        "{name}: one answer, then the close"
    );
    let answer = &answers[0];
    assert_eq!(answer.header("connection"), Some("close"), "{name}");
    let error = envelope(answer, probe.status, "INVALID_PARAMETER");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains(probe.says),
        "{name}: {message:?} does not say {:?}",
        probe.says
    );
    assert_eq!(error["details"], Value::Array(Vec::new()), "{name}");
    assert!(error["hint"].is_string(), "{name}: {error}");
}

#[tokio::test]
async fn every_malformed_head_is_answered_in_the_envelope() {
    let addr = serve().await;
    for probe in probes() {
        let answers = exchange(addr, probe.bytes.clone()).await;
        assert_refused(&answers, &probe);
    }
}

#[tokio::test]
async fn a_malformed_head_after_an_answered_request_is_answered_in_the_envelope() {
    let addr = serve().await;
    for probe in probes() {
        // Pipelined behind a valid request, in the same packet. (The request line of a head
        // that does not begin a read is not watched: hyper finds the head too large, 431.)
        let mut bytes = pipelined_get().into_bytes();
        bytes.extend_from_slice(&probe.bytes);
        let answers = exchange(addr, bytes).await;
        assert_eq!(answers[0].status, 200, "{}", probe.name);
        match probe.status {
            414 => assert_refused(
                &answers[1..],
                &Probe {
                    status: 431,
                    ..probe.clone()
                },
            ),
            _ => assert_refused(&answers[1..], &probe),
        }

        // On a kept-alive connection, after the first answer was read.
        let mut stream = TcpStream::connect(addr).await.unwrap();
        stream.write_all(pipelined_get().as_bytes()).await.unwrap();
        assert_eq!(crate::http::read_answer(&mut stream).await.status, 200);
        let (mut reader, mut writer) = stream.into_split();
        let bytes = probe.bytes.clone();
        let writing = tokio::spawn(async move {
            let _ = writer.write_all(&bytes).await;
            let _ = writer.shutdown().await;
            writer
        });
        let mut raw = Vec::new();
        tokio::time::timeout(Duration::from_secs(10), reader.read_to_end(&mut raw))
            .await
            .expect("closed")
            .unwrap_or_else(|e| panic!("{}: {e}", probe.name));
        drop(writing.await.unwrap());
        let (answer, taken) = parse(&raw);
        assert_eq!(taken, raw.len(), "{}", probe.name);
        assert_refused(&[answer], &probe);
    }
}
