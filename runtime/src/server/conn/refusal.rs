//! Request heads refused before any router: hyper's own bare refusal told apart from the
//! service's answers in what hyper writes, and the envelope written in its place.

use std::io;

use axum::body::Bytes;
use axum::http::StatusCode;

use crate::ErrorKind;
use crate::server::error::{PlainErrorObject, ServerError};
use crate::server::head::HeadRefusal;
use crate::server::pipeline::{REQUEST_ID_HEADER, error_envelope};

/// The answer to a refused request head: the error envelope (`INVALID_PARAMETER`, the status
/// of the refusal, its message and hint, `details: []`) with a new request id, in the body
/// and in `x-request-id`, and `Connection: close`.
pub(super) fn refusal_answer(refusal: &HeadRefusal, request_id: &str) -> Bytes {
    let error =
        ServerError::<PlainErrorObject>::of_kind(ErrorKind::InvalidParameter, &refusal.message)
            .with_hint(refusal.hint)
            .with_status(refusal.status);
    let body = error_envelope(request_id, &error);
    let status = error.status();
    let date = httpdate::fmt_http_date(std::time::SystemTime::now());
    let mut answer = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\n{REQUEST_ID_HEADER}: {request_id}\r\n\
         content-length: {}\r\nconnection: close\r\ndate: {date}\r\n\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or_default(),
        body.len()
    )
    .into_bytes();
    answer.extend_from_slice(&body);
    Bytes::from(answer)
}

/// Where hyper's own refusal of a request head begins in `data`, what hyper writes next, and
/// its status. hyper answers such a head with 400, 414 or 431, no body, and no header but
/// `connection: close`, `content-length: 0` and `date`, and writes it as the last thing before
/// it closes the connection: it ends `data`. No answer of the router looks like it (an
/// answer has a body or a header of its own); one that does is counted by the service
/// ([`ConnState::answer_looks_like_a_refusal`]) and let through.
///
/// [`ConnState::answer_looks_like_a_refusal`]: super::ConnState::answer_looks_like_a_refusal
#[inline]
pub(super) fn hyper_refusal_at(data: &[u8]) -> Option<(usize, StatusCode)> {
    // The quick no, for almost every write: an answer ends with its body.
    if !data.ends_with(b"\r\n\r\n") {
        return None;
    }
    bodiless_refusal_at(data)
}

/// [`hyper_refusal_at`] for `data` that ends with the end of a head.
#[cold]
#[inline(never)]
fn bodiless_refusal_at(data: &[u8]) -> Option<(usize, StatusCode)> {
    let window = data.len().saturating_sub(256);
    let start = window + memchr::memmem::rfind(&data[window..], b"HTTP/1.")?;
    let mut headers = [httparse::EMPTY_HEADER; 4];
    let mut response = httparse::Response::new(&mut headers);
    let Ok(httparse::Status::Complete(len)) = response.parse(&data[start..]) else {
        return None;
    };
    let status = match response.code? {
        code @ (400 | 414 | 431) => StatusCode::from_u16(code).ok()?,
        _ => return None,
    };
    let hypers = response.headers.iter().all(|h| {
        h.name.eq_ignore_ascii_case("connection")
            || h.name.eq_ignore_ascii_case("date")
            || (h.name.eq_ignore_ascii_case("content-length") && h.value == b"0")
    });
    (start + len == data.len() && hypers).then_some((start, status))
}

/// The message of [`refused_error`].
const REFUSED: &str = "request head refused before routing (answered in the envelope)";

/// What the socket returns to hyper once it has refused a request head.
pub(super) fn refused_error() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, REFUSED)
}

/// Whether an I/O error is the socket's refusal of a request head (logged when answered).
pub(crate) fn is_refused(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::InvalidData && error.to_string() == REFUSED
}
