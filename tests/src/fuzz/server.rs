//! `server`: the bytes a client sends on one HTTP/1.1 connection, to the generated server over
//! the sample data (`mrds_mock::router`, key [`KEY`]), served by the runtime's connection
//! handling (`mrds_runtime::server::serve_connection`: the socket wrapper with its timers and
//! refusals, hyper, compression, request ids) over an in-memory stream, on a runtime whose
//! clock is paused (every timeout passes as soon as the connection waits).
//!
//! Input: a mode byte, then either the raw bytes of the connection (even mode byte), or
//! requests to frame (odd): separated by `0xFF`, each its method, target, header lines
//! (separated by `0xFD`) and body, separated by `0xFE`. A framed request is sent with its
//! `Content-Length` (when it has a body), the key unless it gives a key header itself, and the
//! request id `fz:<n>` (the server adopts it: `trust_request_id`), so each answer says which
//! request it answers.
//!
//! Properties:
//!
//! - everything the server writes is a sequence of HTTP/1.x answers;
//! - every answer with a body and a status other than 2xx and 304 is the error envelope
//!   (`success: false`, a request id in the body and in `x-request-id`, an error object with a
//!   code), gzip undone;
//! - nothing follows an answer that says `Connection: close`;
//! - at most one final answer per request: raw bytes get at most one per head they can end
//!   (a line feed followed by an empty line) and one refusal; framed requests at most one
//!   each, and the n-th answer answers the n-th request (its id is `fz:<n>`, or a fresh one
//!   for a head refused before it became a request; the OpenAPI document has none): nothing
//!   in a body is read as a request.

use std::net::SocketAddr;

use mrds_runtime::server::{ServeConfig, StaticKeys, serve_connection};
use mrds_server::axum::Router;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::Input;
use super::answers::{self, Answer, assert_error_envelope, show};

/// The key the server accepts.
pub const KEY: &str = "fuzz-key-0123456789";

/// The most bytes of one input sent on the connection.
const MAX_INPUT: usize = 64 * 1024;

/// The prefix of the request ids of framed requests.
const ID_PREFIX: &str = "fz:";

pub fn server(data: &[u8]) {
    let mut input = Input::new(&data[..data.len().min(MAX_INPUT)]);
    let framed = input.byte() % 2 == 1;
    let (bytes, requests) = if framed {
        let requests = frame(input.rest());
        let bytes = requests
            .iter()
            .flat_map(|r| r.bytes.iter().copied())
            .collect();
        (bytes, Some(requests))
    } else {
        (input.rest().to_vec(), None)
    };
    let written = super::block_on(exchange(bytes.clone()));
    let all = answers::read_all(&written);
    let finals: Vec<&Answer> = all.iter().filter(|a| !a.is_interim()).collect();
    for (n, answer) in finals.iter().enumerate() {
        if answer.closes() {
            assert_eq!(
                n + 1,
                finals.len(),
                "an answer after `Connection: close`: {}",
                show(&written)
            );
        }
        if answer.has_body && !(200..300).contains(&answer.status) && answer.status != 304 {
            let header = answer.header("x-request-id");
            assert!(header.is_some(), "{}: no x-request-id", answer.status);
            assert_error_envelope(answer.status, &answer.decoded_body(), header);
        }
    }
    match requests {
        None => {
            let heads = count(&bytes, b"\n\r\n") + count(&bytes, b"\n\n");
            assert!(
                finals.len() <= heads + 1,
                "{} answers to {heads} heads: {}",
                finals.len(),
                show(&written)
            );
        }
        Some(requests) => {
            assert!(
                finals.len() <= requests.len(),
                "{} answers to {} requests: {}",
                finals.len(),
                requests.len(),
                show(&written)
            );
            for (n, answer) in finals.iter().enumerate() {
                let id = answer.header("x-request-id").unwrap_or_default();
                let expected = format!("{ID_PREFIX}{n}");
                let refused_head = matches!(answer.status, 400 | 414 | 431)
                    && !id.starts_with(ID_PREFIX)
                    && answer.closes();
                // The OpenAPI document is no answer of the API: it carries no request id.
                let document = id.is_empty() && (200..300).contains(&answer.status);
                assert!(
                    id == expected || refused_head || document,
                    "answer {n} ({}) names request `{id}`: {}",
                    answer.status,
                    show(&written)
                );
                if requests[n].head && !refused_head {
                    assert!(!answer.has_body, "a body in an answer to HEAD");
                }
            }
        }
    }
}

/// The test configuration: the defaults of `serve`, request ids adopted.
fn config() -> ServeConfig {
    ServeConfig::default()
        .with_handle_signals(false)
        .with_trust_request_id(true)
}

/// The sample server's router, made once per thread.
fn router() -> Router {
    thread_local! {
        static ROUTER: Router = mrds_mock::router(StaticKeys::new([KEY]));
    }
    ROUTER.with(Router::clone)
}

/// Writes `bytes` on a new connection to the server, closes the sending side, and returns
/// everything the server writes until it closes the connection.
async fn exchange(bytes: Vec<u8>) -> Vec<u8> {
    let (client, server) = tokio::io::duplex(16 * 1024);
    let peer = SocketAddr::from(([127, 0, 0, 1], 40000));
    let config = config();
    let serving = serve_connection(server, peer, router(), &config);
    let (mut reader, mut writer) = tokio::io::split(client);
    let writing = async move {
        // The server may close before it has read everything.
        let _ = writer.write_all(&bytes).await;
        let _ = writer.shutdown().await;
    };
    let reading = async move {
        let mut written = Vec::new();
        let _ = reader.read_to_end(&mut written).await;
        written
    };
    let (_, (), written) = tokio::join!(serving, writing, reading);
    written
}

/// One framed request.
struct Framed {
    bytes: Vec<u8>,
    head: bool,
}

/// The requests of a framed input.
fn frame(data: &[u8]) -> Vec<Framed> {
    data.split(|&b| b == 0xFF)
        .enumerate()
        .map(|(n, request)| {
            let mut fields = request.splitn(4, |&b| b == 0xFE);
            let clean = |bytes: &[u8]| -> Vec<u8> {
                bytes
                    .iter()
                    .copied()
                    .filter(|b| !matches!(b, b' ' | b'\r' | b'\n'))
                    .collect()
            };
            let mut method = clean(fields.next().unwrap_or_default());
            if method.is_empty() {
                method = b"GET".to_vec();
            }
            let mut target = clean(fields.next().unwrap_or_default());
            if !target.starts_with(b"/") {
                target.splice(0..0, b"/api/".iter().copied());
            }
            let headers: Vec<Vec<u8>> = fields
                .next()
                .unwrap_or_default()
                .split(|&b| b == 0xFD)
                .map(|line| {
                    line.iter()
                        .copied()
                        .filter(|b| !matches!(b, b'\r' | b'\n'))
                        .collect::<Vec<u8>>()
                })
                // An empty line would end the head.
                .filter(|line| !line.is_empty())
                .filter(|line| {
                    let lower = String::from_utf8_lossy(line).to_ascii_lowercase();
                    !["content-length", "transfer-encoding", "x-request-id"]
                        .iter()
                        .any(|name| lower.contains(name))
                })
                .collect();
            // The body may not name a framed request's id.
            let body: Vec<u8> = fields.next().unwrap_or_default().to_vec();
            let body = replace(&body, ID_PREFIX.as_bytes(), b"fz;");
            let mut bytes = method.clone();
            bytes.push(b' ');
            bytes.extend_from_slice(&target);
            bytes.extend_from_slice(b" HTTP/1.1\r\nHost: fuzz\r\n");
            bytes.extend_from_slice(format!("x-request-id: {ID_PREFIX}{n}\r\n").as_bytes());
            let keyed = headers.iter().any(|line| {
                String::from_utf8_lossy(line)
                    .to_ascii_lowercase()
                    .contains("x-api-key")
            });
            if !keyed {
                bytes.extend_from_slice(format!("X-API-Key: {KEY}\r\n").as_bytes());
            }
            for line in &headers {
                bytes.extend_from_slice(line);
                bytes.extend_from_slice(b"\r\n");
            }
            if !body.is_empty() {
                bytes.extend_from_slice(format!("Content-Length: {}\r\n", body.len()).as_bytes());
            }
            bytes.extend_from_slice(b"\r\n");
            bytes.extend_from_slice(&body);
            Framed {
                bytes,
                head: method == b"HEAD",
            }
        })
        .collect()
}

/// How many times `needle` occurs in `haystack` (overlapping ones too).
fn count(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .filter(|w| *w == needle)
        .count()
}

/// `bytes` with every `from` replaced by `to` (of the same length).
fn replace(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let mut at = 0;
    while let Some(found) = out[at..].windows(from.len()).position(|w| w == from) {
        out[at + found..at + found + from.len()].copy_from_slice(to);
        at += found + from.len();
    }
    out
}
