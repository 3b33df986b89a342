//! A head's framing of its body by hyper's rules: Content-Length and Transfer-Encoding.

use super::refusal::{HINT_LENGTH, HeadRefusal};
use super::shown;

/// The length of the body (`None`: chunked) by hyper's rules: a Transfer-Encoding (HTTP/1.1
/// only) must end with `chunked` and overrides a Content-Length; Content-Lengths are decimal
/// digits, and equal when there are several.
pub(super) fn framing(
    headers: &[httparse::Header<'_>],
    http_11: bool,
) -> Result<Option<u64>, HeadRefusal> {
    let mut length: Option<u64> = None;
    let mut chunked: Option<bool> = None;
    for header in headers {
        if header.name.eq_ignore_ascii_case("transfer-encoding") {
            if !http_11 {
                return Err(HeadRefusal::bad(
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
                return Err(HeadRefusal::bad(
                    format!(
                        "the Content-Length `{}` is not a number of bytes",
                        shown(header.value)
                    ),
                    HINT_LENGTH,
                ));
            };
            match length {
                Some(first) if first != n => {
                    return Err(HeadRefusal::bad(
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
        Some(false) => Err(HeadRefusal::bad(
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
