//! What a scenario answers with ([`Reply`]) and which requests it answers ([`Matcher`]), how
//! many ([`Times`]), the reply resolved against the spec's error codes ([`ScenarioAnswer`]), and the
//! answers outside the envelope it makes: a plain status ([`plain`]), a connection closed
//! with no answer ([`Reset`]). `Prefer: code=` asks for a reply of the same kind.

use std::collections::BTreeMap;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use http_body::Frame;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::JsonValue;

/// Which requests a scenario answers: every value given must be the request's.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Matcher {
    /// Query parameters (percent-decoded); a parameter given twice matches either value.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub query: BTreeMap<String, String>,
    /// Path parameters (percent-decoded), by the names of the endpoint's path.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub path: BTreeMap<String, String>,
    /// Top-level fields of a JSON body, compared as JSON values.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub body: BTreeMap<String, JsonValue>,
}

impl Matcher {
    pub fn is_empty(&self) -> bool {
        self.query.is_empty() && self.path.is_empty() && self.body.is_empty()
    }
}

/// What a scenario answers with.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Reply {
    /// The status; absent: 200 (the samples, or the body given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// No error object even where the spec has a code for the status: an empty body.
    #[serde(default, skip_serializing_if = "is_false")]
    pub bare: bool,
    /// A body of the test's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// More headers (a `content-type` here replaces the body's).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
    /// `Retry-After`, in whole seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u64>,
    /// The wait before answering, in milliseconds.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub delay_ms: u64,
    /// The connection closed with no answer.
    #[serde(default, skip_serializing_if = "is_false")]
    pub reset: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What a scenario answers with, resolved against the spec's error codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScenarioAnswer {
    /// The sample records, as without a scenario.
    Samples,
    /// The status, with the spec's error object of its code in the envelope.
    ErrorObject(u16),
    /// The status with the body given, or an empty one.
    Plain(u16),
    /// The connection closed with no answer.
    Reset,
}

impl Reply {
    /// What this reply answers, given whether the spec has a code for a status.
    pub fn answer(&self, has_code: impl Fn(u16) -> bool) -> ScenarioAnswer {
        match (self.reset, self.status.unwrap_or(200)) {
            (true, _) => ScenarioAnswer::Reset,
            (_, status) if self.bare || self.body.is_some() => ScenarioAnswer::Plain(status),
            (_, 200) => ScenarioAnswer::Samples,
            (_, status) if status >= 400 && has_code(status) => ScenarioAnswer::ErrorObject(status),
            (_, status) => ScenarioAnswer::Plain(status),
        }
    }

    /// The `Retry-After` the answer says: the one set, or 1 s on a 429 with the error object.
    pub fn retry_after_secs(&self, answer: ScenarioAnswer) -> Option<u64> {
        match answer {
            ScenarioAnswer::ErrorObject(429) => Some(self.retry_after.unwrap_or(1)),
            _ => self.retry_after,
        }
    }
}

/// How many requests a scenario answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Times {
    /// The next `n`.
    Next(u32),
    /// Every one, until the scenarios are cleared.
    Always,
}

/// `2`, or `"always"`.
impl Serialize for Times {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Times::Next(n) => serializer.serialize_u32(*n),
            Times::Always => serializer.serialize_str("always"),
        }
    }
}

impl<'de> Deserialize<'de> for Times {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Wire {
            Next(u32),
            Word(String),
        }
        match Wire::deserialize(deserializer)? {
            Wire::Next(n) => Ok(Times::Next(n)),
            Wire::Word(word) if word == "always" => Ok(Times::Always),
            Wire::Word(word) => Err(serde::de::Error::custom(format!(
                "`times` is a number of requests or \"always\", not {word:?}"
            ))),
        }
    }
}

/// The body of an answer that is never given: its first read fails, and hyper closes the
/// connection without writing the head it holds.
pub(crate) struct Reset;

impl http_body::Body for Reset {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        Poll::Ready(Some(Err(io::Error::new(
            io::ErrorKind::ConnectionReset,
            "closed by a scenario of the sample server",
        ))))
    }
}

/// `status` outside the envelope (as a proxy answers): `body` (`text/plain` unless `headers`
/// name a content type) or an empty one, `Retry-After` when given.
pub(crate) fn plain(
    status: u16,
    body: Option<&str>,
    headers: &BTreeMap<String, String>,
    retry_after: Option<u64>,
) -> Response {
    let mut response = match body {
        Some(text) => {
            let mut response = Response::new(Body::from(text.to_string()));
            if !headers.contains_key("content-type") {
                response.headers_mut().insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("text/plain; charset=utf-8"),
                );
            }
            response
        }
        None => Response::new(Body::empty()),
    };
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
    if let Some(seconds) = retry_after {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::Scenario;
    use super::*;

    #[test]
    fn replies_resolve_against_the_spec_codes() {
        let has = |s: u16| matches!(s, 400 | 429 | 500);
        let answer = |s: Scenario| s.response.answer(has);
        assert_eq!(
            answer(Scenario::status(429)),
            ScenarioAnswer::ErrorObject(429)
        );
        assert_eq!(answer(Scenario::status(503)), ScenarioAnswer::Plain(503));
        assert_eq!(
            answer(Scenario::bare_status(429)),
            ScenarioAnswer::Plain(429)
        );
        assert_eq!(answer(Scenario::status(200)), ScenarioAnswer::Samples);
        assert_eq!(answer(Scenario::samples()), ScenarioAnswer::Samples);
        assert_eq!(answer(Scenario::status(204)), ScenarioAnswer::Plain(204));
        assert_eq!(
            answer(Scenario::status(500).body("x")),
            ScenarioAnswer::Plain(500)
        );
        assert_eq!(
            answer(Scenario::samples().body("x")),
            ScenarioAnswer::Plain(200)
        );
        assert_eq!(answer(Scenario::reset()), ScenarioAnswer::Reset);
    }

    #[test]
    fn retry_after_is_whole_seconds_and_a_429_says_one() {
        let secs = |s: Scenario| {
            let answer = s.response.answer(|_| true);
            s.response.retry_after_secs(answer)
        };
        assert_eq!(secs(Scenario::status(429)), Some(1));
        assert_eq!(secs(Scenario::status(500)), None);
        assert_eq!(
            secs(Scenario::status(429).retry_after(Duration::ZERO)),
            Some(0)
        );
        let part = Scenario::bare_status(503).retry_after(Duration::from_millis(1500));
        assert_eq!(secs(part), Some(2));
    }

    #[test]
    fn plain_answers_carry_their_body_and_retry_after() {
        let none = std::collections::BTreeMap::new();
        let bare = plain(503, None, &none, Some(0));
        assert_eq!(bare.status(), 503);
        assert_eq!(bare.headers()["retry-after"], "0");
        assert!(bare.headers().get("content-type").is_none());
        let page = plain(502, Some("<h1>x</h1>"), &none, None);
        assert_eq!(page.headers()["content-type"], "text/plain; charset=utf-8");
        let mut typed = std::collections::BTreeMap::new();
        typed.insert("content-type".to_string(), "text/html".to_string());
        let page = plain(502, Some("<h1>x</h1>"), &typed, None);
        assert!(
            page.headers().get("content-type").is_none(),
            "set by the caller"
        );
    }
}
