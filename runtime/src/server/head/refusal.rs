//! Why a request head is refused ([`HeadRefusal`]): the status, and the message and hint of
//! its answer; the refusals every reading may end in, and the hints they give.

use axum::http::StatusCode;

use super::HeadLimits;

/// Why a request head is refused: the status, and the message and hint of its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HeadRefusal {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
    pub(crate) hint: &'static str,
}

impl HeadRefusal {
    pub(super) fn new(status: StatusCode, message: String, hint: &'static str) -> Self {
        Self {
            status,
            message,
            hint,
        }
    }

    pub(super) fn bad(message: String, hint: &'static str) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message, hint)
    }

    /// 414: a request line that does not end within the head limit.
    pub(crate) fn request_line_too_long(limits: HeadLimits) -> Self {
        Self::new(
            StatusCode::URI_TOO_LONG,
            format!(
                "the request line is longer than {} bytes: the request target is too long",
                limits.max_bytes
            ),
            HINT_TARGET_LENGTH,
        )
    }

    pub(super) fn head_too_large(limits: HeadLimits) -> Self {
        Self::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("the request head is larger than {} bytes", limits.max_bytes),
            "send fewer or shorter headers",
        )
    }

    pub(super) fn too_many_headers(limits: HeadLimits) -> Self {
        Self::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("the request has more than {} headers", limits.max_headers),
            "send fewer headers",
        )
    }

    /// What can be said of a head refused with `status` that could not be read again.
    pub(super) fn unexplained(status: StatusCode, limits: HeadLimits) -> Self {
        match status {
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => Self::new(
                status,
                format!(
                    "the request head is larger than {} bytes or has more than {} headers",
                    limits.max_bytes, limits.max_headers
                ),
                "send fewer or shorter headers",
            ),
            StatusCode::URI_TOO_LONG => Self::new(
                status,
                "the request target is too long".to_string(),
                HINT_TARGET_LENGTH,
            ),
            _ => Self::bad("the request head is malformed".to_string(), HINT_HEAD),
        }
    }
}

pub(super) const HINT_HEAD: &str = "send an HTTP/1.1 request head: `METHOD target HTTP/1.1`, then one \
                         `Name: value` header per line, each line ending with CRLF";
pub(super) const HINT_TARGET: &str = "percent-encode the request target (RFC 3986): every byte outside \
                           printable ASCII, and the characters a URI reserves";
pub(super) const HINT_TARGET_LENGTH: &str =
    "send a shorter request target (fewer or shorter parameters)";
pub(super) const HINT_HEADER: &str = "send each header on one line as `Name: value`: a name of letters, \
                           digits and `-`, a value of visible characters, spaces and tabs";
pub(super) const HINT_LENGTH: &str =
    "send one Content-Length holding the body's length in decimal digits";
