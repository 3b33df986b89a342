//! What is wrong with a request line or a header line that `httparse` refused: the method,
//! the bytes of the target, the HTTP version, a header folded or without a colon, the bytes of
//! a header's name or value.

use axum::http::StatusCode;

use super::refusal::{HINT_HEAD, HINT_HEADER, HINT_TARGET, HeadRefusal};
use super::{HeadLimits, shown};

/// A head `httparse` refused with `error`; `in_method`: it stopped before the method ended.
pub(super) fn malformed(head: &[u8], error: httparse::Error, in_method: bool) -> HeadRefusal {
    let line_end = memchr::memchr(b'\n', head).unwrap_or(head.len());
    let line = head[..line_end]
        .strip_suffix(b"\r")
        .unwrap_or(&head[..line_end]);
    let mut parts = line.splitn(3, |&b| b == b' ');
    let (method, target, version) = (parts.next(), parts.next(), parts.next());
    match error {
        httparse::Error::Token if in_method => HeadRefusal::bad(
            format!(
                "the request method `{}` is not a token (letters, digits and !#$%&'*+-.^_`|~)",
                shown(method.unwrap_or_default())
            ),
            HINT_HEAD,
        ),
        httparse::Error::Token => match target
            .unwrap_or_default()
            .iter()
            .find(|b| !b.is_ascii_graphic())
        {
            Some(b) => HeadRefusal::bad(
                format!(
                    "the request target holds the byte 0x{b:02X}, which a request target may \
                     not hold"
                ),
                HINT_TARGET,
            ),
            None => HeadRefusal::bad(
                "the request line is not `METHOD target HTTP/1.1` (one space between the parts)"
                    .to_string(),
                HINT_HEAD,
            ),
        },
        httparse::Error::Version | httparse::Error::NewLine
            if !matches!(version, Some(b"HTTP/1.1" | b"HTTP/1.0")) =>
        {
            HeadRefusal::bad(
                match version {
                    Some(version) if !version.is_empty() => format!(
                        "the request line's HTTP version is `{}`: this server speaks HTTP/1.1 \
                         (and HTTP/1.0)",
                        shown(version)
                    ),
                    _ => "the request line has no HTTP version: this server speaks HTTP/1.1 \
                          (and HTTP/1.0)"
                        .to_string(),
                },
                "send the request as HTTP/1.1",
            )
        }
        httparse::Error::HeaderName | httparse::Error::HeaderValue | httparse::Error::NewLine => {
            header_problem(&head[(line_end + 1).min(head.len())..]).map_or_else(
                || HeadRefusal::unexplained(StatusCode::BAD_REQUEST, ZERO),
                |m| HeadRefusal::bad(m, HINT_HEADER),
            )
        }
        _ => HeadRefusal::unexplained(StatusCode::BAD_REQUEST, ZERO),
    }
}

/// Limits that no message of a 400 reads.
const ZERO: HeadLimits = HeadLimits {
    max_bytes: 0,
    max_headers: 0,
};

/// The first header line of `lines` (the head after its request line) that `httparse` would
/// refuse, and why.
fn header_problem(lines: &[u8]) -> Option<String> {
    let mut previous: Option<&[u8]> = None;
    for line in lines.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            return None;
        }
        if matches!(line[0], b' ' | b'\t') {
            let after = previous.map_or(String::new(), |name| format!(", after `{}`", shown(name)));
            return Some(format!(
                "a header line begins with a space or a tab{after}: a header folded over two \
                 lines (obsolete line folding), which HTTP/1.1 no longer allows"
            ));
        }
        let Some(colon) = memchr::memchr(b':', line) else {
            return Some(format!("the header line `{}` has no colon", shown(line)));
        };
        let (name, value) = (&line[..colon], &line[colon + 1..]);
        if name.is_empty() {
            return Some("a header line has no name before its colon".to_string());
        }
        if let Some(b) = name.iter().find(|&&b| !is_token(b)) {
            return Some(format!(
                "the header name `{}` holds the byte 0x{b:02X}, which a header name may not hold",
                shown(name)
            ));
        }
        if let Some(b) = value
            .iter()
            .find(|&&b| !(b == b'\t' || (b' '..=0x7e).contains(&b) || b >= 0x80))
        {
            return Some(format!(
                "the value of the header `{}` holds the byte 0x{b:02X}, which a header value \
                 may not hold",
                shown(name)
            ));
        }
        previous = Some(name);
    }
    None
}

/// A byte of a token (a method, a header name).
fn is_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}
