//! The refused heads read again: each thing hyper refuses named, behind answered heads too.

use super::*;

const LIMITS: HeadLimits = HeadLimits {
    max_bytes: 1024,
    max_headers: 8,
};

fn refused(head: &[u8], status: u16) -> HeadRefusal {
    diagnose(head, StatusCode::from_u16(status).unwrap(), LIMITS)
}

fn says(head: &[u8], status: u16, text: &str) {
    let refusal = refused(head, status);
    assert!(
        refusal.message.contains(text),
        "{:?}: {:?} does not say {text:?}",
        String::from_utf8_lossy(head),
        refusal.message
    );
}

#[test]
fn bytes_a_request_target_may_not_hold_are_named() {
    // httparse refuses a control byte; the URI parser hyper calls refuses bytes beyond
    // ASCII.
    says(b"GET /a\x00b HTTP/1.1\r\n\r\n", 400, "the byte 0x00");
    says(b"GET /a\x7fb HTTP/1.1\r\n\r\n", 400, "the byte 0x7F");
    says(
        b"GET /a\xffb HTTP/1.1\r\nHost: x\r\n\r\n",
        400,
        "the byte 0xFF",
    );
    says(
        b"GET /a<b HTTP/1.1\r\n\r\n",
        400,
        "`/a<b` is not a valid URI",
    );
    says(
        b"G(T / HTTP/1.1\r\n\r\n",
        400,
        "method `G(T` is not a token",
    );
    says(
        b"GET  / HTTP/1.1\r\n\r\n",
        400,
        "one space between the parts",
    );
    assert_eq!(refused(b"GET /\x00 HTTP/1.1\r\n", 400).hint, HINT_TARGET);
}

#[test]
fn the_http_version_is_named() {
    says(b"GET / HTTP/2.0\r\n\r\n", 400, "version is `HTTP/2.0`");
    says(b"GET / HTTP/1.1\x00\r\n\r\n", 400, "HTTP/1.1\\x00");
}

#[test]
fn header_lines_are_named() {
    says(
        b"GET / HTTP/1.1\r\nX-A: a\r\n b\r\n\r\n",
        400,
        "folded over two lines",
    );
    says(
        b"GET / HTTP/1.1\r\nX-A: a\r\n b\r\n\r\n",
        400,
        "after `X-A`",
    );
    says(
        b"GET / HTTP/1.1\r\nX Bad: a\r\n\r\n",
        400,
        "header name `X Bad`",
    );
    says(
        b"GET / HTTP/1.1\r\nX-Bad: a\x01\r\n\r\n",
        400,
        "`X-Bad` holds the byte 0x01",
    );
    says(
        b"GET / HTTP/1.1\r\nNoColon\r\n\r\n",
        400,
        "`NoColon` has no colon",
    );
    says(b"GET / HTTP/1.1\r\n: x\r\n\r\n", 400, "no name");
}

#[test]
fn lengths_and_encodings_are_checked_as_hyper_does() {
    let head = |headers: &str| format!("POST / HTTP/1.1\r\n{headers}\r\n").into_bytes();
    says(
        &head("Content-Length: 1\r\nContent-Length: 2\r\n"),
        400,
        "different values (1 and 2)",
    );
    says(&head("Content-Length: -1\r\n"), 400, "`-1` is not a number");
    says(&head("Content-Length: 1x\r\n"), 400, "`1x` is not a number");
    says(
        &head("Transfer-Encoding: gzip\r\n"),
        400,
        "does not end with chunked",
    );
    says(
        b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
        400,
        "HTTP/1.0 request has a Transfer-Encoding",
    );
    // Equal Content-Lengths are one; a Content-Length after a Transfer-Encoding is
    // ignored, as hyper ignores it: these heads pass, so only the status can be told.
    for fine in [
        head("Content-Length: 2\r\nContent-Length: 2\r\n"),
        head("Transfer-Encoding: chunked\r\nContent-Length: x\r\n"),
    ] {
        assert_eq!(
            refused(&fine, 400),
            HeadRefusal::unexplained(StatusCode::BAD_REQUEST, LIMITS)
        );
    }
}

#[test]
fn limits() {
    let long_line = format!("GET /{} HTTP/1.1\r\n", "a".repeat(2000));
    let refusal = refused(&long_line.as_bytes()[..1024], 431);
    assert_eq!(refusal.status, StatusCode::URI_TOO_LONG);
    assert!(refusal.message.contains("longer than 1024 bytes"));
    let big = format!("GET / HTTP/1.1\r\nX-A: {}\r\n\r\n", "a".repeat(2000));
    let refusal = refused(&big.as_bytes()[..1024], 431);
    assert_eq!(refusal.status, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
    assert_eq!(
        refusal.message,
        "the request head is larger than 1024 bytes"
    );
    let many: String = (0..9).map(|i| format!("X-{i}: a\r\n")).collect();
    let refusal = refused(format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes(), 431);
    assert_eq!(refusal.message, "the request has more than 8 headers");
    // Behind another request, a request line that goes on past what was kept.
    let mut behind = b"GET / HTTP/1.1\r\n\r\n".to_vec();
    behind.extend_from_slice(&long_line.as_bytes()[..1024 - behind.len()]);
    let refusal = refused(&behind, 431);
    assert_eq!(refusal.status, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
    assert_eq!(
        refusal.message,
        "the request head is larger than 1024 bytes (its request line alone is longer than \
         1006 bytes)"
    );
    // Not kept in full: what the status means.
    let refusal = refused(b"GET / HTTP/1.1\r\nX-A: a\r\n", 431);
    assert!(
        refusal
            .message
            .contains("larger than 1024 bytes or has more than 8 headers")
    );
}

#[test]
fn the_refused_head_is_found_behind_answered_ones() {
    let mut read = b"GET /one HTTP/1.1\r\n\r\n\r\n".to_vec();
    // A body that reads like a request line is skipped as the body it is.
    read.extend_from_slice(b"POST /two HTTP/1.1\r\nContent-Length: 5\r\n\r\nGET /");
    read.extend_from_slice(b"GET / HTTP/3\r\n\r\n");
    says(&read, 400, "version is `HTTP/3`");
    // Behind a chunked body it cannot be found.
    let read =
        b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET / HTTP/3\r\n\r\n";
    assert_eq!(
        refused(read, 400),
        HeadRefusal::unexplained(StatusCode::BAD_REQUEST, LIMITS)
    );
    // Nor after what was kept.
    assert_eq!(
        refused(b"GET / HTTP/1.1\r\n\r\n", 400),
        HeadRefusal::unexplained(StatusCode::BAD_REQUEST, LIMITS)
    );
    assert_eq!(refused(b"", 414).status, StatusCode::URI_TOO_LONG);
}

#[test]
fn shown_bytes_are_short_and_printable() {
    assert_eq!(shown(b"a`b\x00\xff"), "a\\x60b\\x00\\xFF");
    assert_eq!(shown(&[b'x'; 50]), format!("{}…", "x".repeat(40)));
}
