//! What is wrong with a request head refused before any router, for the answer to say so.
//!
//! hyper decides which heads it refuses (it answers 400, 414 or 431, without a body); the
//! connection's socket wrapper (`conn/`) puts that answer in the envelope instead. The
//! status tells little (hyper's own errors are coarser still: a NUL in the target is an
//! "invalid HTTP header"), so the wrapper keeps a copy of the bytes read since the connection
//! last waited for a request, and [`diagnose`] reads the refused head in it again with the
//! parser hyper uses (`httparse`) and the checks hyper adds after it, to name what was wrong:
//! the byte a request target may not hold, the folded header, the two Content-Lengths.
//!
//! This runs only for a refused head: a valid request is parsed once, by hyper.
//!
//! The reading is here; what a refusal says in `refusal.rs`, a head's framing of its body
//! (Content-Length, Transfer-Encoding) in `framing.rs`, the request line and header lines
//! `httparse` refused in `syntax.rs`.

use std::fmt::Write as _;

use axum::http::StatusCode;

mod framing;
mod refusal;
mod syntax;
#[cfg(test)]
mod tests;

pub(crate) use refusal::HeadRefusal;

use framing::framing;
use refusal::{HINT_TARGET, HINT_TARGET_LENGTH};
use syntax::malformed;

/// The limits a head is refused at.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HeadLimits {
    /// The largest head, in bytes (`ServeConfig::max_head_bytes`).
    pub(crate) max_bytes: usize,
    /// The most headers (`ServeConfig::max_headers`).
    pub(crate) max_headers: usize,
}

/// hyper's limit on the length of a request target (`MAX_URI_LEN`).
const MAX_TARGET_LEN: usize = (u16::MAX - 1) as usize;

/// Why the head hyper refused with `status` was refused. `read` holds the bytes read since
/// the connection last waited for a request (at most the head limit's worth); the refused head
/// is the first one in it that does not pass (those before it were answered), and when it
/// cannot be found there (a request with a chunked body came before it, or it came after what
/// was kept) the answer says what `status` means.
pub(crate) fn diagnose(read: &[u8], status: StatusCode, limits: HeadLimits) -> HeadRefusal {
    let mut at = 0;
    loop {
        // hyper skips empty lines before a request line.
        while read.get(at).is_some_and(|b| matches!(b, b'\r' | b'\n')) {
            at += 1;
        }
        let rest = read.get(at..).unwrap_or_default();
        if rest.is_empty() {
            return HeadRefusal::unexplained(status, limits);
        }
        match check(rest, limits) {
            Parsed::Refused(refusal) => return refusal,
            Parsed::Partial => {
                return partial(rest, read.len() >= limits.max_bytes, status, limits);
            }
            Parsed::Passed {
                len,
                body: Some(body),
            } => {
                match usize::try_from(body)
                    .ok()
                    .and_then(|b| (at + len).checked_add(b))
                {
                    Some(next) => at = next,
                    None => return HeadRefusal::unexplained(status, limits),
                }
            }
            Parsed::Passed { body: None, .. } => return HeadRefusal::unexplained(status, limits),
        }
    }
}

/// What reading one head found.
enum Parsed {
    /// The head is complete and passes: its length, and its body's (`None`: chunked).
    Passed {
        len: usize,
        body: Option<u64>,
    },
    /// The head is not complete, and nothing in it is wrong so far.
    Partial,
    Refused(HeadRefusal),
}

/// Reads the head at the start of `head` as hyper does: `httparse` with hyper's settings (a
/// server's defaults), then hyper's own checks of a complete head.
fn check(head: &[u8], limits: HeadLimits) -> Parsed {
    let mut headers = vec![httparse::EMPTY_HEADER; limits.max_headers.max(1)];
    let mut request = httparse::Request::new(&mut headers);
    let len = match request.parse(head) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => return Parsed::Partial,
        Err(httparse::Error::TooManyHeaders) => {
            return Parsed::Refused(HeadRefusal::too_many_headers(limits));
        }
        Err(error) => {
            let in_method = request.method.is_none();
            return Parsed::Refused(malformed(head, error, in_method));
        }
    };
    if len > limits.max_bytes {
        return Parsed::Refused(HeadRefusal::head_too_large(limits));
    }
    let target = request.path.unwrap_or_default();
    if target.len() > MAX_TARGET_LEN {
        return Parsed::Refused(HeadRefusal::new(
            StatusCode::URI_TOO_LONG,
            format!("the request target is longer than {MAX_TARGET_LEN} bytes"),
            HINT_TARGET_LENGTH,
        ));
    }
    if let Err(error) = axum::http::Uri::try_from(target.as_bytes()) {
        let message = match target.bytes().find(|b| !b.is_ascii_graphic()) {
            Some(b) => format!(
                "the request target holds the byte 0x{b:02X}, which a request target may not hold"
            ),
            None => format!(
                "the request target `{}` is not a valid URI ({error})",
                shown(target.as_bytes())
            ),
        };
        return Parsed::Refused(HeadRefusal::bad(message, HINT_TARGET));
    }
    let http_11 = request.version == Some(1);
    match framing(request.headers, http_11) {
        Ok(body) => Parsed::Passed { len, body },
        Err(refusal) => Parsed::Refused(refusal),
    }
}

/// A head `httparse` found nothing wrong with so far, but that is not complete in `head`;
/// `cut`: what was kept ends with the head limit's worth of bytes (the head may go on).
fn partial(head: &[u8], cut: bool, status: StatusCode, limits: HeadLimits) -> HeadRefusal {
    let line_ended = memchr::memchr(b'\n', head).is_some();
    if head.len() >= limits.max_bytes {
        if !line_ended {
            return HeadRefusal::request_line_too_long(limits);
        }
        return HeadRefusal::head_too_large(limits);
    }
    if cut && !line_ended && status == StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE {
        // A head behind others, its request line longer than what is left of the kept bytes:
        // hyper found no end of the head within the limit.
        return HeadRefusal::new(
            status,
            format!(
                "the request head is larger than {} bytes (its request line alone is longer \
                 than {} bytes)",
                limits.max_bytes,
                head.len()
            ),
            HINT_TARGET_LENGTH,
        );
    }
    HeadRefusal::unexplained(status, limits)
}

/// Some bytes of a request as text for a message: at most 40, printable ASCII as it is, any
/// other byte (and the backtick that quotes it) as `\xNN`.
fn shown(bytes: &[u8]) -> String {
    const MAX: usize = 40;
    let mut text = String::new();
    for &b in bytes.iter().take(MAX) {
        if (b' '..=b'~').contains(&b) && b != b'`' {
            text.push(char::from(b));
        } else {
            let _ = write!(text, "\\x{b:02X}");
        }
    }
    if bytes.len() > MAX {
        text.push('…');
    }
    text
}
