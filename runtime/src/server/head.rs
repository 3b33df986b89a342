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

use std::fmt::Write as _;

use axum::http::StatusCode;

/// The limits a head is refused at.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HeadLimits {
    /// The largest head, in bytes (`ServeConfig::max_head_bytes`).
    pub(crate) max_bytes: usize,
    /// The most headers (`ServeConfig::max_headers`).
    pub(crate) max_headers: usize,
}

/// Why a request head is refused: the status, and the message and hint of its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
    pub(crate) hint: &'static str,
}

impl Refusal {
    fn new(status: StatusCode, message: String, hint: &'static str) -> Self {
        Self {
            status,
            message,
            hint,
        }
    }

    fn bad(message: String, hint: &'static str) -> Self {
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

    fn head_too_large(limits: HeadLimits) -> Self {
        Self::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("the request head is larger than {} bytes", limits.max_bytes),
            "send fewer or shorter headers",
        )
    }

    fn too_many_headers(limits: HeadLimits) -> Self {
        Self::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("the request has more than {} headers", limits.max_headers),
            "send fewer headers",
        )
    }

    /// What can be said of a head refused with `status` that could not be read again.
    fn unexplained(status: StatusCode, limits: HeadLimits) -> Self {
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

const HINT_HEAD: &str = "send an HTTP/1.1 request head: `METHOD target HTTP/1.1`, then one \
                         `Name: value` header per line, each line ending with CRLF";
const HINT_TARGET: &str = "percent-encode the request target (RFC 3986): every byte outside \
                           printable ASCII, and the characters a URI reserves";
const HINT_TARGET_LENGTH: &str = "send a shorter request target (fewer or shorter parameters)";
const HINT_HEADER: &str = "send each header on one line as `Name: value`: a name of letters, \
                           digits and `-`, a value of visible characters, spaces and tabs";
const HINT_LENGTH: &str = "send one Content-Length holding the body's length in decimal digits";

/// hyper's limit on the length of a request target (`MAX_URI_LEN`).
const MAX_TARGET_LEN: usize = (u16::MAX - 1) as usize;

/// Why the head hyper refused with `status` was refused. `read` holds the bytes read since
/// the connection last waited for a request (at most the head limit's worth); the refused head
/// is the first one in it that does not pass (those before it were answered), and when it
/// cannot be found there (a request with a chunked body came before it, or it came after what
/// was kept) the answer says what `status` means.
pub(crate) fn diagnose(read: &[u8], status: StatusCode, limits: HeadLimits) -> Refusal {
    let mut at = 0;
    loop {
        // hyper skips empty lines before a request line.
        while read.get(at).is_some_and(|b| matches!(b, b'\r' | b'\n')) {
            at += 1;
        }
        let rest = read.get(at..).unwrap_or_default();
        if rest.is_empty() {
            return Refusal::unexplained(status, limits);
        }
        match check(rest, limits) {
            Checked::Refused(refusal) => return refusal,
            Checked::Partial => {
                return partial(rest, read.len() >= limits.max_bytes, status, limits);
            }
            Checked::Passed {
                len,
                body: Some(body),
            } => {
                match usize::try_from(body)
                    .ok()
                    .and_then(|b| (at + len).checked_add(b))
                {
                    Some(next) => at = next,
                    None => return Refusal::unexplained(status, limits),
                }
            }
            Checked::Passed { body: None, .. } => return Refusal::unexplained(status, limits),
        }
    }
}

/// What reading one head found.
enum Checked {
    /// The head is complete and passes: its length, and its body's (`None`: chunked).
    Passed {
        len: usize,
        body: Option<u64>,
    },
    /// The head is not complete, and nothing in it is wrong so far.
    Partial,
    Refused(Refusal),
}

/// Reads the head at the start of `head` as hyper does: `httparse` with hyper's settings (a
/// server's defaults), then hyper's own checks of a complete head.
fn check(head: &[u8], limits: HeadLimits) -> Checked {
    let mut headers = vec![httparse::EMPTY_HEADER; limits.max_headers.max(1)];
    let mut request = httparse::Request::new(&mut headers);
    let len = match request.parse(head) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => return Checked::Partial,
        Err(httparse::Error::TooManyHeaders) => {
            return Checked::Refused(Refusal::too_many_headers(limits));
        }
        Err(error) => {
            let in_method = request.method.is_none();
            return Checked::Refused(malformed(head, error, in_method));
        }
    };
    if len > limits.max_bytes {
        return Checked::Refused(Refusal::head_too_large(limits));
    }
    let target = request.path.unwrap_or_default();
    if target.len() > MAX_TARGET_LEN {
        return Checked::Refused(Refusal::new(
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
        return Checked::Refused(Refusal::bad(message, HINT_TARGET));
    }
    let http_11 = request.version == Some(1);
    match framing(request.headers, http_11) {
        Ok(body) => Checked::Passed { len, body },
        Err(refusal) => Checked::Refused(refusal),
    }
}

/// The length of the body (`None`: chunked) by hyper's rules: a Transfer-Encoding (HTTP/1.1
/// only) must end with `chunked` and overrides a Content-Length; Content-Lengths are decimal
/// digits, and equal when there are several.
fn framing(headers: &[httparse::Header<'_>], http_11: bool) -> Result<Option<u64>, Refusal> {
    let mut length: Option<u64> = None;
    let mut chunked: Option<bool> = None;
    for header in headers {
        if header.name.eq_ignore_ascii_case("transfer-encoding") {
            if !http_11 {
                return Err(Refusal::bad(
                    "an HTTP/1.0 request has a Transfer-Encoding header, which only HTTP/1.1 \
                     has"
                    .to_string(),
                    "send the request as HTTP/1.1, or with a Content-Length",
                ));
            }
            let last = header
                .value
                .rsplit(|&b| b == b',')
                .next()
                .unwrap_or_default();
            chunked = Some(last.trim_ascii().eq_ignore_ascii_case(b"chunked"));
        } else if header.name.eq_ignore_ascii_case("content-length") && chunked.is_none() {
            let Some(n) = decimal(header.value) else {
                return Err(Refusal::bad(
                    format!(
                        "the Content-Length `{}` is not a number of bytes",
                        shown(header.value)
                    ),
                    HINT_LENGTH,
                ));
            };
            match length {
                Some(first) if first != n => {
                    return Err(Refusal::bad(
                        format!(
                            "the Content-Length header is given more than once, with different \
                             values ({first} and {n})"
                        ),
                        HINT_LENGTH,
                    ));
                }
                _ => length = Some(n),
            }
        }
    }
    match chunked {
        Some(true) => Ok(None),
        Some(false) => Err(Refusal::bad(
            "the Transfer-Encoding header does not end with chunked".to_string(),
            "send `Transfer-Encoding: chunked`, or a Content-Length instead",
        )),
        None => Ok(Some(length.unwrap_or(0))),
    }
}

/// A Content-Length: decimal digits only (no sign, no spaces), within `u64`.
fn decimal(text: &[u8]) -> Option<u64> {
    if text.is_empty() {
        return None;
    }
    text.iter().try_fold(0u64, |n, &b| {
        let digit = (b as char).to_digit(10)?;
        n.checked_mul(10)?.checked_add(u64::from(digit))
    })
}

/// A head `httparse` refused with `error`; `in_method`: it stopped before the method ended.
fn malformed(head: &[u8], error: httparse::Error, in_method: bool) -> Refusal {
    let line_end = memchr::memchr(b'\n', head).unwrap_or(head.len());
    let line = head[..line_end]
        .strip_suffix(b"\r")
        .unwrap_or(&head[..line_end]);
    let mut parts = line.splitn(3, |&b| b == b' ');
    let (method, target, version) = (parts.next(), parts.next(), parts.next());
    match error {
        httparse::Error::Token if in_method => Refusal::bad(
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
            Some(b) => Refusal::bad(
                format!(
                    "the request target holds the byte 0x{b:02X}, which a request target may \
                     not hold"
                ),
                HINT_TARGET,
            ),
            None => Refusal::bad(
                "the request line is not `METHOD target HTTP/1.1` (one space between the parts)"
                    .to_string(),
                HINT_HEAD,
            ),
        },
        httparse::Error::Version | httparse::Error::NewLine
            if !matches!(version, Some(b"HTTP/1.1" | b"HTTP/1.0")) =>
        {
            Refusal::bad(
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
                || Refusal::unexplained(StatusCode::BAD_REQUEST, ZERO),
                |m| Refusal::bad(m, HINT_HEADER),
            )
        }
        _ => Refusal::unexplained(StatusCode::BAD_REQUEST, ZERO),
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

/// A head `httparse` found nothing wrong with so far, but that is not complete in `head`;
/// `cut`: what was kept ends with the head limit's worth of bytes (the head may go on).
fn partial(head: &[u8], cut: bool, status: StatusCode, limits: HeadLimits) -> Refusal {
    let line_ended = memchr::memchr(b'\n', head).is_some();
    if head.len() >= limits.max_bytes {
        if !line_ended {
            return Refusal::request_line_too_long(limits);
        }
        return Refusal::head_too_large(limits);
    }
    if cut && !line_ended && status == StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE {
        // A head behind others, its request line longer than what is left of the kept bytes:
        // hyper found no end of the head within the limit.
        return Refusal::new(
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
    Refusal::unexplained(status, limits)
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

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: HeadLimits = HeadLimits {
        max_bytes: 1024,
        max_headers: 8,
    };

    fn refused(head: &[u8], status: u16) -> Refusal {
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
                Refusal::unexplained(StatusCode::BAD_REQUEST, LIMITS)
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
            Refusal::unexplained(StatusCode::BAD_REQUEST, LIMITS)
        );
        // Nor after what was kept.
        assert_eq!(
            refused(b"GET / HTTP/1.1\r\n\r\n", 400),
            Refusal::unexplained(StatusCode::BAD_REQUEST, LIMITS)
        );
        assert_eq!(refused(b"", 414).status, StatusCode::URI_TOO_LONG);
    }

    #[test]
    fn shown_bytes_are_short_and_printable() {
        assert_eq!(shown(b"a`b\x00\xff"), "a\\x60b\\x00\\xFF");
        assert_eq!(shown(&[b'x'; 50]), format!("{}…", "x".repeat(40)));
    }
}
