//! The `Prefer` request header (RFC 7240) as the sample server reads it, after Prism's
//! convention: `Prefer: code=429` answers that status (with the spec's error object where the
//! spec has a code for it, bare where it has none, the samples for 200),
//! `Prefer: delay=250` waits that many milliseconds first. `retry-after=<seconds>` sets the
//! `Retry-After` of the answer `code=` asks for. Other preferences are ignored, as RFC 7240
//! asks of a server that does not know them; a preference given twice counts once, the first
//! time. What a request's header asks is a scenario's reply ([`preferred`]), and the answer
//! says what it followed in `Preference-Applied`.

use std::time::Duration;

use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, header};
use axum::response::Response;

use super::scenario::Reply;
use crate::app::ErrorAnswers;

/// The longest wait `Prefer: delay=` may ask for: 10 s, so that no request can hold a
/// connection of the sample server for long (a longer one is refused with 400). A test of a
/// client's timeout sets the client's timeout below it.
pub const MAX_PREFER_DELAY: Duration = Duration::from_secs(10);

/// The largest `Retry-After` `Prefer: retry-after=` may ask for, in seconds (an hour).
pub(crate) const MAX_RETRY_AFTER: u64 = 3600;

/// What the `Prefer` headers of one request ask of the sample server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Preference {
    /// `code=`: the status to answer with.
    pub code: Option<u16>,
    /// `delay=`: the wait before answering.
    pub delay: Option<Duration>,
    /// `retry-after=`: the `Retry-After` of the answer, in seconds.
    pub retry_after: Option<u64>,
}

impl Preference {
    /// The preferences as a `Preference-Applied` header value says them.
    pub fn applied(&self) -> String {
        let mut parts = Vec::new();
        if let Some(code) = self.code {
            parts.push(format!("code={code}"));
        }
        if let Some(delay) = self.delay {
            parts.push(format!("delay={}", delay.as_millis()));
        }
        if let Some(seconds) = self.retry_after {
            parts.push(format!("retry-after={seconds}"));
        }
        parts.join(", ")
    }
}

/// A `Prefer` header the sample server cannot follow: what it got and why not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PreferError {
    /// The preference at fault (cut to 100 characters).
    pub got: String,
    /// What is wrong with it.
    pub reason: String,
}

impl PreferError {
    fn new(got: &str, reason: impl Into<String>) -> Self {
        let mut cut = got.len().min(100);
        while !got.is_char_boundary(cut) {
            cut -= 1;
        }
        Self {
            got: got[..cut].to_string(),
            reason: reason.into(),
        }
    }

    /// The answer refusing it: 400 `INVALID_PARAMETER` with the spec's error object, the
    /// preference at fault in `details` (field `Prefer`), and `hint`.
    pub(crate) fn refused(self, errors: &ErrorAnswers, hint: String) -> Response {
        errors.invalid_parameter(
            "the Prefer header asks for what the sample server cannot do",
            "Prefer",
            (self.got, self.reason),
            hint,
        )
    }
}

/// The `Preference-Applied` response header (RFC 7240): the preferences an answer followed.
pub(crate) const PREFERENCE_APPLIED: HeaderName = HeaderName::from_static("preference-applied");

/// What the `Prefer` header of a request asks.
pub(crate) enum Preferred {
    /// Nothing the sample server knows.
    Nothing,
    /// This reply, as these preferences say.
    Reply(Preference, Reply),
    /// What cannot be followed: the answer saying why.
    Refused(Response),
}

/// What the `Prefer` header of `request` asks: any status a scenario answers (with the
/// spec's error object where `errors` has a code for it, bare where it has none; `200` the
/// samples), a delay, a `Retry-After`.
pub(crate) fn preferred(errors: &ErrorAnswers, request: &Request) -> Preferred {
    let values = request
        .headers()
        .get_all(header::HeaderName::from_static("prefer"));
    let hint = || {
        format!(
            "Prefer: code=<status> (200 to 599: with the error object for {}, bare for the \
             others; 200 the samples), delay=<ms> (at most {}), retry-after=<s> with a code",
            errors.statuses().join(", "),
            MAX_PREFER_DELAY.as_millis()
        )
    };
    let preference = match parse(values.iter().map(HeaderValue::as_bytes)) {
        Ok(Some(preference)) => preference,
        Ok(None) => return Preferred::Nothing,
        Err(error) => return Preferred::Refused(error.refused(errors, hint())),
    };
    let reply = Reply {
        status: preference.code,
        retry_after: preference.retry_after,
        delay_ms: preference
            .delay
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
        ..Reply::default()
    };
    Preferred::Reply(preference, reply)
}

/// Reads the `Prefer` header values of a request: `None` when they ask nothing the sample
/// server knows.
pub(crate) fn parse<'a>(
    values: impl IntoIterator<Item = &'a [u8]>,
) -> Result<Option<Preference>, PreferError> {
    let mut preference = Preference::default();
    let mut any = false;
    for value in values {
        let Ok(text) = std::str::from_utf8(value) else {
            return Err(PreferError::new(
                &String::from_utf8_lossy(value),
                "the Prefer header is not text",
            ));
        };
        for item in split_outside_quotes(text, ',') {
            // A preference's own parameters (`; name=value`) are not used.
            let item = split_outside_quotes(item, ';')
                .next()
                .unwrap_or_default()
                .trim();
            if item.is_empty() {
                continue;
            }
            let (name, value) = match item.split_once('=') {
                Some((name, value)) => (name.trim(), Some(unquote(value.trim()))),
                None => (item, None),
            };
            let name = name.to_ascii_lowercase();
            let value = || value.ok_or_else(|| PreferError::new(item, "a value is missing"));
            match name.as_str() {
                "code" if preference.code.is_none() => {
                    preference.code = Some(status(item, value()?)?);
                }
                "delay" if preference.delay.is_none() => {
                    preference.delay = Some(delay(item, value()?)?);
                }
                "retry-after" if preference.retry_after.is_none() => {
                    preference.retry_after = Some(retry_after(item, value()?)?);
                }
                _ => continue,
            }
            any = true;
        }
    }
    if preference.retry_after.is_some() && preference.code.is_none_or(|code| code < 400) {
        return Err(PreferError::new(
            &preference.applied(),
            "retry-after sets the Retry-After of an error answer: give it with code=<status>, \
             such as code=429",
        ));
    }
    Ok(any.then_some(preference))
}

fn status(item: &str, value: &str) -> Result<u16, PreferError> {
    match value.parse::<u16>() {
        Ok(code) if value.len() == 3 && (200..=599).contains(&code) => Ok(code),
        _ => Err(PreferError::new(
            item,
            "code is the status of an answer, three digits from 200 to 599",
        )),
    }
}

fn delay(item: &str, value: &str) -> Result<Duration, PreferError> {
    let max = MAX_PREFER_DELAY.as_millis();
    match digits(value) {
        Some(ms) if u128::from(ms) <= max => Ok(Duration::from_millis(ms)),
        Some(_) => Err(PreferError::new(
            item,
            format!("delay is at most {max} ms in the sample server"),
        )),
        None => Err(PreferError::new(
            item,
            "delay is a whole number of milliseconds",
        )),
    }
}

fn retry_after(item: &str, value: &str) -> Result<u64, PreferError> {
    match digits(value) {
        Some(seconds) if seconds <= MAX_RETRY_AFTER => Ok(seconds),
        _ => Err(PreferError::new(
            item,
            format!("retry-after is a whole number of seconds, at most {MAX_RETRY_AFTER}"),
        )),
    }
}

/// A non-negative integer written with digits only (no sign, no spaces).
fn digits(value: &str) -> Option<u64> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok()
}

/// `"text"` without its quotes; other text as it is (the values read are digits, which need
/// no escapes).
fn unquote(value: &str) -> &str {
    value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(value)
}

/// The parts of `text` between the `separator`s that are not inside a quoted string.
fn split_outside_quotes(text: &str, separator: char) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let text = rest?;
        let mut quoted = false;
        let mut escaped = false;
        for (at, c) in text.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' if quoted => escaped = true,
                '"' => quoted = !quoted,
                c if c == separator && !quoted => {
                    rest = Some(&text[at + c.len_utf8()..]);
                    return Some(&text[..at]);
                }
                _ => {}
            }
        }
        rest = None;
        Some(text)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefer(values: &[&str]) -> Result<Option<Preference>, PreferError> {
        parse(values.iter().map(|v| v.as_bytes()))
    }

    fn ok(values: &[&str]) -> Preference {
        prefer(values).unwrap().expect("a preference")
    }

    #[test]
    fn code_delay_and_retry_after_are_read() {
        assert_eq!(ok(&["code=429"]).code, Some(429));
        assert_eq!(
            ok(&["code=429, delay=250, retry-after=0"]),
            Preference {
                code: Some(429),
                delay: Some(Duration::from_millis(250)),
                retry_after: Some(0),
            }
        );
        // Spread over headers, in any case, quoted, with parameters and spaces.
        let p = ok(&["Code = \"500\" ; x=1", "DELAY=10"]);
        assert_eq!(
            (p.code, p.delay),
            (Some(500), Some(Duration::from_millis(10)))
        );
        assert_eq!(ok(&["delay=10000"]).delay, Some(MAX_PREFER_DELAY));
    }

    #[test]
    fn other_preferences_are_ignored_and_the_first_of_two_counts() {
        assert_eq!(prefer(&[]), Ok(None));
        assert_eq!(prefer(&[""]), Ok(None));
        assert_eq!(
            prefer(&["return=minimal, respond-async, wait=10, example=\"a,b\""]),
            Ok(None)
        );
        assert_eq!(ok(&["code=429, code=500"]).code, Some(429));
        assert_eq!(ok(&["respond-async, code=404"]).code, Some(404));
    }

    #[test]
    fn what_cannot_be_followed_is_refused_saying_why() {
        let refused = |values: &[&str]| prefer(values).unwrap_err();
        let e = refused(&["code=abc"]);
        assert_eq!(e.got, "code=abc");
        assert!(e.reason.contains("three digits"), "{}", e.reason);
        for bad in ["code=42", "code=600", "code=0429", "code=", "code"] {
            refused(&[bad]);
        }
        let e = refused(&["delay=10001"]);
        assert!(e.reason.contains("at most 10000 ms"), "{}", e.reason);
        for bad in [
            "delay=-1",
            "delay=1.5",
            "delay=1s",
            "delay=99999999999999999999999",
        ] {
            refused(&[bad]);
        }
        let e = refused(&["retry-after=3"]);
        assert!(e.reason.contains("code="), "{}", e.reason);
        refused(&["code=200, retry-after=3"]);
        refused(&["code=429, retry-after=3601"]);
        let e = parse([&b"code=\xff"[..]]).unwrap_err();
        assert!(e.reason.contains("not text"), "{}", e.reason);
        // A long value is echoed cut short.
        let long = format!("delay={}", "9".repeat(500));
        assert_eq!(refused(&[&long]).got.len(), 100);
    }

    #[test]
    fn the_applied_preferences_are_said_back() {
        assert_eq!(
            ok(&["delay=5, code=429, retry-after=1"]).applied(),
            "code=429, delay=5, retry-after=1"
        );
    }

    #[test]
    fn separators_inside_quotes_do_not_split() {
        let parts: Vec<&str> = split_outside_quotes(r#"a="x,y", b="q\"," , c"#, ',').collect();
        assert_eq!(parts, [r#"a="x,y""#, r#" b="q\"," "#, " c"]);
    }
}
