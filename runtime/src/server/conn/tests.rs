//! The connection's socket wrapper under test: lingering closes, request lines over the
//! head limit, hyper's refusals answered with the envelope.

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use futures_util::FutureExt;
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream, duplex};
use tokio::sync::Semaphore;
use tokio::time::Instant;

use super::guarded::Closing;
use super::linger::{LINGER_IDLE, LINGER_MAX_BYTES, LINGER_TOTAL};
use super::refusal::hyper_refusal_at;
use super::{ConnState, Guarded, Limits, RequestBody, Tracked, is_refused};

const HEAD_LIMIT: usize = 1024;

/// The server's end of a connection, wrapped, and the client's end.
fn connection() -> (Guarded<DuplexStream>, Arc<ConnState>, DuplexStream) {
    let (server, client) = duplex(4 * LINGER_MAX_BYTES);
    let state = Arc::new(ConnState::new(([127, 0, 0, 1], 40000).into()));
    let limits = Limits {
        header_read: Duration::from_secs(60),
        keep_alive: Some(Duration::from_secs(75)),
        write: Duration::from_secs(30),
        max_head_bytes: HEAD_LIMIT,
        max_headers: 100,
    };
    let guarded = Guarded::new(server, state.clone(), limits, Arc::new(Semaphore::new(4)));
    (guarded, state, client)
}

/// Reads what the server sent until it shut its side (panics at an error).
async fn read_to_close(client: &mut DuplexStream) -> String {
    let mut text = String::new();
    client.read_to_string(&mut text).await.unwrap();
    text
}

#[tokio::test(start_paused = true)]
async fn a_close_with_nothing_unread_is_immediate() {
    let (mut server, _, mut client) = connection();
    assert!(server.shutdown().now_or_never().is_some(), "no wait");
    assert_eq!(read_to_close(&mut client).await, "");
}

#[tokio::test(start_paused = true)]
async fn a_close_lingers_until_the_client_closes() {
    let (mut server, _, mut client) = connection();
    // Pipelined requests the server will not answer, unread when it closes.
    client.write_all(&[b'x'; 20_000]).await.unwrap();
    let start = Instant::now();
    let closing = tokio::spawn(async move {
        server.shutdown().await.unwrap();
        start.elapsed()
    });
    // The client sees the end of the answers, sends a little more, then closes.
    assert_eq!(read_to_close(&mut client).await, "");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    client.write_all(b"more").await.unwrap();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    client.shutdown().await.unwrap();
    // Each pause was shorter than LINGER_IDLE, so it lasted until the client closed.
    assert_eq!(closing.await.unwrap(), Duration::from_millis(3000));
}

#[tokio::test(start_paused = true)]
async fn a_close_lingers_at_most_linger_idle_after_the_client_last_sent() {
    let (mut server, _, mut client) = connection();
    client.write_all(b"GET / HTTP/1.1\r\n\r\n").await.unwrap();
    let start = Instant::now();
    server.shutdown().await.unwrap();
    assert_eq!(start.elapsed(), LINGER_IDLE);
    drop(client);
}

#[tokio::test(start_paused = true)]
async fn a_close_lingers_at_most_linger_total() {
    let (mut server, _, mut client) = connection();
    client.write_all(b"x").await.unwrap();
    let start = Instant::now();
    let closing = tokio::spawn(async move { server.shutdown().await });
    // A client that sends a byte every second, for ever.
    let dripping = tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(1)).await;
            if client.write_all(b"x").await.is_err() {
                return;
            }
        }
    });
    tokio::time::timeout(10 * LINGER_TOTAL, closing)
        .await
        .expect("the lingering ends")
        .unwrap()
        .unwrap();
    assert_eq!(start.elapsed(), LINGER_TOTAL);
    dripping.abort();
}

#[tokio::test(start_paused = true)]
async fn a_close_lingers_at_most_linger_max_bytes() {
    let (mut server, _, mut client) = connection();
    client
        .write_all(&vec![b'x'; 2 * LINGER_MAX_BYTES])
        .await
        .unwrap();
    let start = Instant::now();
    server.shutdown().await.unwrap();
    assert_eq!(start.elapsed(), Duration::ZERO);
    // What it stopped at is still unread.
    let mut rest = Vec::new();
    server.io.read_buf(&mut rest).await.unwrap();
    assert!(!rest.is_empty());
}

/// A request line of `length` bytes (its line end included) and a header.
fn head(length: usize) -> Vec<u8> {
    let mut head = b"GET /".to_vec();
    head.resize(length - " HTTP/1.1\r\n".len(), b'a');
    head.extend_from_slice(b" HTTP/1.1\r\nHost: x\r\n\r\n");
    head
}

#[tokio::test(start_paused = true)]
async fn request_lines_within_the_head_limit_pass_through() {
    let (mut server, _, mut client) = connection();
    // The longest request line that ends within the limit, in pieces.
    let head = head(HEAD_LIMIT);
    for piece in head.chunks(300) {
        client.write_all(piece).await.unwrap();
    }
    let mut read = vec![0; head.len()];
    server.read_exact(&mut read).await.unwrap();
    assert_eq!(read, head);
    assert!(matches!(server.closing, Closing::Open));
}

#[tokio::test(start_paused = true)]
async fn a_request_line_over_the_head_limit_is_answered_414() {
    let (mut server, _, mut client) = connection();
    let head = head(HEAD_LIMIT + 1);
    let (first, rest) = head.split_at(600);
    client.write_all(first).await.unwrap();
    let mut read = vec![0; first.len()];
    server.read_exact(&mut read).await.unwrap();
    // The read that takes the line over the limit fails; the client gets the 414, then
    // the end of the stream (the rest of its request is discarded).
    client.write_all(rest).await.unwrap();
    let reading = tokio::spawn(async move {
        let mut buf = [0; 4096];
        let error = server.read(&mut buf).await.unwrap_err();
        // And so does every read after it.
        assert!(server.read(&mut buf).await.is_err());
        error
    });
    let answer = read_to_close(&mut client).await;
    client.shutdown().await.unwrap();
    let error = reading.await.unwrap();
    assert!(is_refused(&error), "{error}");
    let json = envelope(&answer, "HTTP/1.1 414 URI Too Long\r\n");
    assert_eq!(
        json["error"]["message"],
        "the request line is longer than 1024 bytes: the request target is too long"
    );
}

/// The error envelope in `answer`, after its head: the status line `status_line`, JSON,
/// a request id in the body and in `x-request-id`, `Connection: close` and a date;
/// `INVALID_PARAMETER` in `error` and as `data`'s one element, with `details: []` and a
/// hint.
fn envelope(answer: &str, status_line: &str) -> serde_json::Value {
    assert!(answer.starts_with(status_line), "{answer}");
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    for header in [
        "content-type: application/json",
        "connection: close",
        &format!("content-length: {}", body.len()),
    ] {
        assert!(
            head.contains(&format!("\r\n{header}\r\n")),
            "{header}: {head}"
        );
    }
    assert!(head.contains("\r\ndate: "), "{head}");
    let json: serde_json::Value = serde_json::from_str(body).unwrap();
    let id = json["request_id"].as_str().unwrap();
    assert!(
        crate::server::is_valid_request_id(id) && id.starts_with("req_"),
        "{id}"
    );
    assert!(
        head.contains(&format!("\r\nx-request-id: {id}\r\n")),
        "{head}"
    );
    assert_eq!(json["success"], false);
    assert_eq!(json["data"], serde_json::json!([json["error"]]));
    assert_eq!(json["error"]["code"], "INVALID_PARAMETER");
    assert_eq!(json["error"]["details"], serde_json::json!([]));
    assert!(json["error"]["hint"].is_string(), "{json}");
    json
}

/// hyper's own answer to a head it refuses, as hyper 1 writes it.
fn hypers(status: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 {status}\r\nconnection: close\r\ncontent-length: 0\r\n\
         date: Thu, 26 Nov 2026 04:32:25 GMT\r\n\r\n"
    )
    .into_bytes()
}

#[test]
fn hypers_own_refusals_are_told_from_answers() {
    for (status, code) in [
        ("400 Bad Request", 400),
        ("414 URI Too Long", 414),
        ("431 Request Header Fields Too Large", 431),
    ] {
        let answer = hypers(status);
        assert_eq!(
            hyper_refusal_at(&answer),
            Some((0, StatusCode::from_u16(code).unwrap()))
        );
        // At the end of what hyper writes, after answers to earlier requests.
        let mut data = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}".to_vec();
        let at = data.len();
        data.extend_from_slice(&answer);
        assert_eq!(hyper_refusal_at(&data).map(|(at, _)| at), Some(at));
    }
    for answer in [
        // An answer with a body, or a header of its own, or another status.
        &b"HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\n{}"[..],
        b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n",
        b"HTTP/1.1 400 Bad Request\r\ncontent-length: 7\r\n\r\n",
        b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
        // Not at the end, or not a whole head.
        b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\nx",
        b"400 Bad Request\r\ncontent-length: 0\r\n\r\n",
        b"\r\n\r\n",
    ] {
        assert_eq!(
            hyper_refusal_at(answer),
            None,
            "{:?}",
            String::from_utf8_lossy(answer)
        );
    }
}

/// A connection that read `request` and then had `written` written to it by hyper, and
/// shut down: what the client got.
async fn answered(
    request: &[u8],
    written: &[&[u8]],
    state_ready: impl FnOnce(&ConnState),
) -> String {
    let (mut server, state, mut client) = connection();
    client.write_all(request).await.unwrap();
    client.shutdown().await.unwrap();
    let mut read = Vec::new();
    server.read_to_end(&mut read).await.unwrap();
    assert_eq!(read, request);
    state_ready(&state);
    for data in written {
        server.write_all(data).await.unwrap();
    }
    server.flush().await.unwrap();
    server.shutdown().await.unwrap();
    read_to_close(&mut client).await
}

#[tokio::test(start_paused = true)]
async fn hypers_refusal_is_answered_with_the_envelope_saying_what_was_wrong() {
    let answer = answered(
        b"GET /a\x00b HTTP/1.1\r\n\r\n",
        &[&hypers("400 Bad Request")],
        |_| {},
    )
    .await;
    let json = envelope(&answer, "HTTP/1.1 400 Bad Request\r\n");
    assert_eq!(
        json["error"]["message"],
        "the request target holds the byte 0x00, which a request target may not hold"
    );
    // After an answer to an earlier request in the same write: that answer as it was.
    let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}";
    let mut both = ok.to_vec();
    both.extend_from_slice(&hypers("400 Bad Request"));
    let answer = answered(
        b"GET / HTTP/1.1\r\n\r\nGET / HTTP/9\r\n\r\n",
        &[&both],
        |_| {},
    )
    .await;
    let rest = answer
        .strip_prefix(std::str::from_utf8(ok).unwrap())
        .unwrap();
    let json = envelope(rest, "HTTP/1.1 400 Bad Request\r\n");
    assert!(
        json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`HTTP/9`")
    );
}

#[tokio::test(start_paused = true)]
async fn an_answer_of_the_service_written_like_a_refusal_is_let_through() {
    let bare = hypers("400 Bad Request");
    let answer = answered(b"GET / HTTP/1.1\r\n\r\n", &[&bare], |state| {
        state.answer_looks_like_a_refusal()
    })
    .await;
    assert_eq!(answer.as_bytes(), bare);
    // Once: a refusal of hyper after it is taken over.
    let answer = answered(b"GET / HTTP/1.1\r\n\r\n", &[&bare, &bare], |state| {
        state.answer_looks_like_a_refusal()
    })
    .await;
    let rest = answer
        .strip_prefix(std::str::from_utf8(&bare).unwrap())
        .unwrap();
    envelope(rest, "HTTP/1.1 400 Bad Request\r\n");
}

#[tokio::test(start_paused = true)]
async fn after_an_answer_that_closes_no_head_is_looked_for() {
    let (mut server, state, mut client) = connection();
    client.write_all(&head(100)).await.unwrap();
    let mut read = vec![0; 100 + "Host: x\r\n\r\n".len()];
    server.read_exact(&mut read).await.unwrap();
    state.request_started();
    let body = RequestBody::new((), state.clone());
    assert!(state.answer_leaves_body_unread());
    drop(body);
    drop(Tracked::new((), state.clone()));
    // The unread body: a line far over the head limit, which is no request line.
    client.write_all(&[b'x'; 4 * HEAD_LIMIT]).await.unwrap();
    let mut buf = vec![0; 8 * HEAD_LIMIT];
    let n = server.read(&mut buf).await.unwrap();
    assert_eq!(n, 4 * HEAD_LIMIT);
    assert!(matches!(server.closing, Closing::Open));
}

#[tokio::test(start_paused = true)]
async fn the_next_request_line_of_a_kept_alive_connection_is_checked_too() {
    let (mut server, state, mut client) = connection();
    let first = head(100);
    client.write_all(&first).await.unwrap();
    let mut read = vec![0; first.len()];
    server.read_exact(&mut read).await.unwrap();
    // The service answers it.
    state.request_started();
    drop(Tracked::new((), state.clone()));
    client.write_all(&head(2 * HEAD_LIMIT)).await.unwrap();
    let mut buf = [0; 4096];
    let error = server.read(&mut buf).await.unwrap_err();
    assert!(is_refused(&error), "{error}");
}
