//! Scenarios: what a sample server answers the requests of one endpoint with, instead of (or
//! after waiting, before) its sample records; which of its requests they answer (by query
//! parameter, path parameter or body field), how many, and how many they expect. One type
//! for the Rust API ([`MockServer::answer`](super::MockServer::answer)) and for the admin
//! API's JSON (`POST /__admin/scenarios`), through serde.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::expectation::Expectation;
use crate::JsonValue;

/// What a [`MockServer`](super::MockServer) answers requests of one endpoint with: any
/// status (with the spec's error object when the spec has a code for it, bare otherwise, or a
/// body of the test's own), the sample records after a wait, or a connection closed with no
/// answer. Once it is used up, the endpoint answers with its sample records again.
///
/// - **Which requests.** Every request of the endpoint, or those whose query parameter, path
///   parameter or JSON body field has a value ([`when_query`](Self::when_query),
///   [`when_path`](Self::when_path), [`when_body`](Self::when_body); all must hold). Of the
///   scenarios of an endpoint, the first given that matches a request and is not used up
///   answers it.
/// - **How many.** One request by default; [`times`](Self::times) sets how many,
///   [`always`](Self::always) makes it the answer until the scenarios are cleared. With an
///   expectation and no `times`, as many as the expectation allows.
/// - **Expectations.** [`expect`](Self::expect) says how many requests it must answer
///   (`2`, `1..=3`, `1..`): checked when the server is dropped (a panic naming the scenario,
///   what it expected and what the endpoint received), or by
///   [`MockServer::verify`](super::MockServer::verify).
/// - **Names.** [`named`](Self::named) names it in messages, in the journal
///   ([`ReceivedRequest::answered_by`](super::ReceivedRequest::answered_by)) and in the admin
///   API; unnamed, it is `<endpoint>#<n>`, `n` counting the scenarios given to the server.
///
/// A scenario answers in place of the endpoint: its key and parameters are not checked (as a
/// gateway in front of the service answers).
///
/// ```
/// use std::time::Duration;
/// use mrds_runtime::mock::Scenario;
///
/// // Two 429 RATE_LIMITED answers (the spec's error object), each with `Retry-After: 0`.
/// let limited = Scenario::status(429).retry_after(Duration::ZERO).times(2);
/// // A bare 503, as a load balancer answers (the spec has no code for 503), for the symbol
/// // MSFT only, expected exactly once.
/// let down = Scenario::status(503).when_query("symbol", "MSFT").expect(1).named("gateway down");
/// // A 503 with a page of its own.
/// let page = Scenario::status(503).body("<h1>maintenance</h1>").header("content-type", "text/html");
/// // The sample records, after 200 ms, for every request.
/// let slow = Scenario::delay(Duration::from_millis(200)).always();
/// // The connection closed before any answer, three times.
/// let cut = Scenario::reset().times(3);
/// # let _ = (limited, down, page, slow, cut);
/// ```
///
/// The same scenarios as JSON, for the admin API (`endpoint` names the endpoint there):
///
/// ```json
/// {"endpoint": "stock_dividends", "name": "gateway down",
///  "request": {"query": {"symbol": "MSFT"}},
///  "response": {"status": 503}, "expect": 1}
/// {"endpoint": "stock_dividends", "response": {"status": 429, "retry_after": 0}, "times": 2}
/// {"endpoint": "stock_dividends", "response": {"delay_ms": 200}, "times": "always"}
/// {"endpoint": "stock_dividends", "response": {"reset": true}, "times": 3}
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[must_use = "a scenario does nothing until it is given to MockServer::answer"]
pub struct Scenario {
    /// The name in messages, the journal and the admin API.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<String>,
    /// The endpoint's id: given by `MockServer::answer`, required in the admin API's JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) endpoint: Option<String>,
    /// Which requests of the endpoint it answers.
    #[serde(default, skip_serializing_if = "Matcher::is_empty")]
    pub(crate) request: Matcher,
    /// What it answers.
    #[serde(default)]
    pub(crate) response: Reply,
    /// How many requests it answers; `None`: one, or what the expectation allows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) times: Option<Times>,
    /// How many requests it must answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) expect: Option<Expectation>,
}

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
pub(crate) enum Answer {
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
    pub fn answer(&self, has_code: impl Fn(u16) -> bool) -> Answer {
        match (self.reset, self.status.unwrap_or(200)) {
            (true, _) => Answer::Reset,
            (_, status) if self.bare || self.body.is_some() => Answer::Plain(status),
            (_, 200) => Answer::Samples,
            (_, status) if status >= 400 && has_code(status) => Answer::ErrorObject(status),
            (_, status) => Answer::Plain(status),
        }
    }

    /// The `Retry-After` the answer says: the one set, or 1 s on a 429 with the error object.
    pub fn retry_after_secs(&self, answer: Answer) -> Option<u64> {
        match answer {
            Answer::ErrorObject(429) => Some(self.retry_after.unwrap_or(1)),
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

impl Scenario {
    fn answering(response: Reply) -> Self {
        Self {
            response,
            ..Self::default()
        }
    }

    /// Answers `status` (200 to 599): with the spec's error object in the envelope when the
    /// spec has a code answered with it (the first, in the spec's order, when several share
    /// it), with a request id; bare (an empty body, no envelope) when it has none, as a proxy
    /// or load balancer answers a 502, 503 or 504; `200` with the sample records. A 429 with
    /// the error object says `Retry-After: 1` unless [`retry_after`](Self::retry_after) says
    /// otherwise. [`body`](Self::body) gives a body of the test's own instead.
    pub fn status(status: u16) -> Self {
        Self::answering(Reply {
            status: Some(status),
            ..Reply::default()
        })
    }

    /// Answers `status` (200 to 599) with an empty body and no envelope, even where the spec
    /// has an error code for it.
    pub fn bare_status(status: u16) -> Self {
        Self::answering(Reply {
            status: Some(status),
            bare: true,
            ..Reply::default()
        })
    }

    /// Answers with the sample records, as without a scenario: for an expectation on the
    /// requests an endpoint gets, or after a delay.
    pub fn samples() -> Self {
        Self::default()
    }

    /// Waits `delay`, then answers with the sample records.
    pub fn delay(delay: Duration) -> Self {
        Self::samples().after(delay)
    }

    /// Closes the connection without answering: the client sees its connection end before a
    /// response (what a reset connection, or a server that died, looks like to it).
    pub fn reset() -> Self {
        Self::answering(Reply {
            reset: true,
            ..Reply::default()
        })
    }

    /// Answers this body (`text/plain; charset=utf-8` unless a `content-type` header is set)
    /// with the status given (200 without one), in place of the error object or the samples:
    /// an HTML error page, JSON the spec does not describe.
    pub fn body(mut self, body: impl Into<String>) -> Self {
        self.response.body = Some(body.into());
        self
    }

    /// Answers this JSON text (`application/json`) with the status given (200 without one).
    pub fn json_body(self, json: impl Into<String>) -> Self {
        self.body(json).header("content-type", "application/json")
    }

    /// Adds a header to the answer (`content-type` replaces the body's).
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.response
            .headers
            .insert(name.into().to_ascii_lowercase(), value.into());
        self
    }

    /// Waits `delay` before answering (or closing the connection).
    pub fn after(mut self, delay: Duration) -> Self {
        self.response.delay_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX);
        self
    }

    /// The `Retry-After` of a status answer, in whole seconds (a part of a second counts as
    /// one); `Duration::ZERO` says `Retry-After: 0`, which a client honouring it retries at
    /// once.
    pub fn retry_after(mut self, after: Duration) -> Self {
        self.response.retry_after = Some(after.as_secs() + u64::from(after.subsec_nanos() > 0));
        self
    }

    /// Answers only requests whose query parameter `name` has `value` (percent-decoded; one of
    /// its values when it is given twice).
    pub fn when_query(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.request.query.insert(name.into(), value.into());
        self
    }

    /// Answers only requests whose path parameter `name` (as the endpoint's path names it) has
    /// `value` (percent-decoded).
    pub fn when_path(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.request.path.insert(name.into(), value.into());
        self
    }

    /// Answers only requests whose JSON body has the top-level field `field` equal to `value`
    /// (compared as JSON values: `"5"` is not `5`).
    pub fn when_body(mut self, field: impl Into<String>, value: impl Into<JsonValue>) -> Self {
        self.request.body.insert(field.into(), value.into());
        self
    }

    /// Answers the next `n` requests it matches (`0`: none).
    pub fn times(mut self, n: u32) -> Self {
        self.times = Some(Times::Next(n));
        self
    }

    /// Answers every request it matches, until the scenarios are cleared.
    pub fn always(mut self) -> Self {
        self.times = Some(Times::Always);
        self
    }

    /// Must answer `expected` requests (`2`, `1..=3`, `1..`): checked when the server is
    /// dropped, or by [`MockServer::verify`](super::MockServer::verify). Without
    /// [`times`](Self::times), it answers as many as the expectation allows (every one it
    /// matches for `1..`).
    pub fn expect(mut self, expected: impl Into<Expectation>) -> Self {
        self.expect = Some(expected.into());
        self
    }

    /// Names the scenario in messages, the journal and the admin API.
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The name given, if any.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The endpoint's id, once given (by `MockServer::answer`, or in the JSON).
    pub fn endpoint(&self) -> Option<&str> {
        self.endpoint.as_deref()
    }

    /// The expectation, if any.
    pub fn expectation(&self) -> Option<Expectation> {
        self.expect
    }

    /// How many requests it answers at most (`None`: every one it matches).
    pub(crate) fn limit(&self) -> Option<u32> {
        match (self.times, self.expect) {
            (Some(Times::Next(n)), _) => Some(n),
            (Some(Times::Always), _) => None,
            (None, Some(expect)) => expect.at_most(),
            (None, None) => Some(1),
        }
    }

    /// What it answers and asks for, in a few words: `503`, `reset`, `samples after 200 ms`,
    /// `query symbol=MSFT`.
    pub(crate) fn summary(&self) -> String {
        let reply = &self.response;
        let mut parts = Vec::new();
        parts.push(match (reply.reset, reply.status) {
            (true, _) => "reset".to_string(),
            (_, None) if reply.body.is_none() => "samples".to_string(),
            (_, status) => {
                let mut s = status.unwrap_or(200).to_string();
                if reply.bare {
                    s.push_str(" bare");
                } else if reply.body.is_some() {
                    s.push_str(" with a body");
                }
                s
            }
        });
        if reply.delay_ms > 0 {
            parts.push(format!("after {} ms", reply.delay_ms));
        }
        let matcher = &self.request;
        for (name, value) in &matcher.query {
            parts.push(format!("query {name}={value}"));
        }
        for (name, value) in &matcher.path {
            parts.push(format!("path {name}={value}"));
        }
        for (name, value) in &matcher.body {
            parts.push(format!("body {name}={value}"));
        }
        parts.join(", ")
    }
}

/// Why a scenario was refused ([`MockServer::answer`](super::MockServer::answer), or the
/// admin API's `POST /__admin/scenarios`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ScenarioError {
    /// The endpoint is not one of the server's spec.
    UnknownEndpoint {
        /// The endpoint's id.
        endpoint: String,
        /// The endpoints there are.
        known: Vec<&'static str>,
    },
    /// A scenario of the admin API without `endpoint`.
    MissingEndpoint,
    /// A status outside 200 to 599.
    InvalidStatus {
        /// The status asked for.
        status: u16,
    },
    /// `Retry-After` on a scenario that answers no status (the samples, a reset).
    RetryAfterWithoutStatus,
    /// A reset with a status, a body or headers, or a bare status with a body.
    Conflicting {
        /// What goes against what.
        reason: String,
    },
    /// A header name or value an HTTP answer cannot carry.
    InvalidHeader {
        /// The header's name.
        name: String,
    },
    /// An expectation the scenario can never meet: its `times` below the fewest expected, or
    /// a range whose least is above its most.
    ImpossibleExpectation {
        /// The expectation.
        expected: Expectation,
        /// How many requests the scenario answers at most.
        limit: Option<u32>,
    },
    /// JSON that is not a scenario (the admin API).
    Json {
        /// What is wrong, with its line and column.
        reason: String,
    },
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::UnknownEndpoint { endpoint, known } => write!(
                f,
                "`{endpoint}` is not an endpoint of this sample server's spec; the endpoints are {}",
                known.join(", ")
            ),
            ScenarioError::MissingEndpoint => write!(
                f,
                "the scenario names no endpoint: give its id as \"endpoint\" (\"stock_dividends\", say)"
            ),
            ScenarioError::InvalidStatus { status } => {
                write!(f, "{status} is not a status a scenario answers: 200 to 599")
            }
            ScenarioError::RetryAfterWithoutStatus => write!(
                f,
                "Retry-After goes with a status answer (Scenario::status, bare_status, body), not \
                 the samples or a reset"
            ),
            ScenarioError::Conflicting { reason } => f.write_str(reason),
            ScenarioError::InvalidHeader { name } => write!(
                f,
                "the header `{name}` has a name or value an HTTP answer cannot carry"
            ),
            ScenarioError::ImpossibleExpectation { expected, limit } => match limit {
                Some(limit) if *limit < expected.at_least() => write!(
                    f,
                    "the scenario answers at most {limit} {} but expects {expected}",
                    if *limit == 1 { "request" } else { "requests" }
                ),
                _ => write!(f, "the expectation ({expected:?}) is an empty range"),
            },
            ScenarioError::Json { reason } => write!(f, "not a scenario: {reason}"),
        }
    }
}

impl std::error::Error for ScenarioError {}

impl Scenario {
    /// Checks what the scenario asks, whatever the endpoint.
    pub(crate) fn check(&self) -> Result<(), ScenarioError> {
        let reply = &self.response;
        if let Some(status) = reply.status
            && !(200..=599).contains(&status)
        {
            return Err(ScenarioError::InvalidStatus { status });
        }
        if reply.reset && (reply.status.is_some() || reply.body.is_some() || reply.bare) {
            return Err(ScenarioError::Conflicting {
                reason: "a reset closes the connection: it has no status, body or header".into(),
            });
        }
        if reply.reset && !reply.headers.is_empty() {
            return Err(ScenarioError::Conflicting {
                reason: "a reset closes the connection: it has no status, body or header".into(),
            });
        }
        if reply.bare && reply.body.is_some() {
            return Err(ScenarioError::Conflicting {
                reason: "a bare status has an empty body: give a body or `bare`, not both".into(),
            });
        }
        let answers_status = !reply.reset && (reply.status.is_some() || reply.body.is_some());
        if reply.retry_after.is_some() && !answers_status {
            return Err(ScenarioError::RetryAfterWithoutStatus);
        }
        for (name, value) in &reply.headers {
            let valid = axum::http::HeaderName::from_bytes(name.as_bytes()).is_ok()
                && axum::http::HeaderValue::from_str(value).is_ok();
            if !valid {
                return Err(ScenarioError::InvalidHeader { name: name.clone() });
            }
        }
        if let Some(expected) = self.expect {
            let limit = self.limit();
            let empty = expected
                .at_most()
                .is_some_and(|most| most < expected.at_least());
            if empty || limit.is_some_and(|limit| limit < expected.at_least()) {
                return Err(ScenarioError::ImpossibleExpectation { expected, limit });
            }
        }
        Ok(())
    }

    /// The scenarios of the admin API's JSON text: one object, or an array of them.
    pub(crate) fn from_json(text: &[u8]) -> Result<Vec<Scenario>, ScenarioError> {
        let json = |e: serde_json::Error| ScenarioError::Json {
            reason: e.to_string(),
        };
        // Read as a value first, so that an array and an object are told apart and each
        // scenario's errors keep their words.
        match serde_json::from_slice(text).map_err(json)? {
            serde_json::Value::Array(items) => items
                .into_iter()
                .map(|item| serde_json::from_value(item).map_err(json))
                .collect(),
            object => Ok(vec![serde_json::from_value(object).map_err(json)?]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_resolve_against_the_spec_codes() {
        let has = |s: u16| matches!(s, 400 | 429 | 500);
        let answer = |s: Scenario| s.response.answer(has);
        assert_eq!(answer(Scenario::status(429)), Answer::ErrorObject(429));
        assert_eq!(answer(Scenario::status(503)), Answer::Plain(503));
        assert_eq!(answer(Scenario::bare_status(429)), Answer::Plain(429));
        assert_eq!(answer(Scenario::status(200)), Answer::Samples);
        assert_eq!(answer(Scenario::samples()), Answer::Samples);
        assert_eq!(answer(Scenario::status(204)), Answer::Plain(204));
        assert_eq!(answer(Scenario::status(500).body("x")), Answer::Plain(500));
        assert_eq!(answer(Scenario::samples().body("x")), Answer::Plain(200));
        assert_eq!(answer(Scenario::reset()), Answer::Reset);
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
    fn limits_follow_times_then_the_expectation() {
        assert_eq!(Scenario::status(429).limit(), Some(1));
        assert_eq!(Scenario::status(429).times(3).limit(), Some(3));
        assert_eq!(Scenario::status(429).always().limit(), None);
        assert_eq!(Scenario::status(429).expect(2).limit(), Some(2));
        assert_eq!(Scenario::status(429).expect(1..).limit(), None);
        assert_eq!(Scenario::status(429).expect(1..=3).limit(), Some(3));
        assert_eq!(Scenario::status(429).expect(..=2).times(5).limit(), Some(5));
    }

    #[test]
    fn what_cannot_be_answered_is_refused() {
        let refused = |s: Scenario| s.check().unwrap_err();
        assert_eq!(
            refused(Scenario::status(199)),
            ScenarioError::InvalidStatus { status: 199 }
        );
        assert_eq!(
            refused(Scenario::status(600)),
            ScenarioError::InvalidStatus { status: 600 }
        );
        assert_eq!(
            refused(Scenario::reset().retry_after(Duration::ZERO)),
            ScenarioError::RetryAfterWithoutStatus
        );
        assert_eq!(
            refused(Scenario::delay(Duration::from_millis(1)).retry_after(Duration::ZERO)),
            ScenarioError::RetryAfterWithoutStatus
        );
        assert!(matches!(
            refused(Scenario::bare_status(503).body("x")),
            ScenarioError::Conflicting { .. }
        ));
        assert!(matches!(
            refused(Scenario::reset().header("x-a", "b")),
            ScenarioError::Conflicting { .. }
        ));
        assert!(matches!(
            refused(Scenario::status(503).header("bad name", "b")),
            ScenarioError::InvalidHeader { .. }
        ));
        let e = refused(Scenario::status(503).times(1).expect(2));
        assert_eq!(
            e.to_string(),
            "the scenario answers at most 1 request but expects exactly 2 requests"
        );
        Scenario::status(503).expect(0).check().unwrap();
        Scenario::status(503)
            .body("down")
            .retry_after(Duration::ZERO)
            .check()
            .unwrap();
    }

    #[test]
    fn the_json_is_the_rust_api_s_scenario() {
        let rust = Scenario::status(503)
            .when_query("symbol", "MSFT")
            .when_body("n", 5i64)
            .retry_after(Duration::from_secs(2))
            .expect(1..=2)
            .named("down");
        let text = serde_json::to_string(&rust).unwrap();
        assert_eq!(
            text,
            r#"{"name":"down","request":{"query":{"symbol":"MSFT"},"body":{"n":5}},"response":{"status":503,"retry_after":2},"expect":{"at_least":1,"at_most":2}}"#
        );
        assert_eq!(Scenario::from_json(text.as_bytes()).unwrap(), [rust]);
        let many = Scenario::from_json(
            br#"[{"endpoint": "a", "response": {"reset": true}, "times": "always"},
                 {"endpoint": "b", "expect": 3}]"#,
        )
        .unwrap();
        assert_eq!(many[0].limit(), None);
        assert_eq!(many[0].endpoint(), Some("a"));
        assert_eq!(many[1].expectation(), Some(Expectation::exactly(3)));
        for (bad, says) in [
            (&br#"{"respons": {}}"#[..], "unknown field `respons`"),
            (br#"{"times": "often"}"#, "not \"often\""),
            (br#"{"response": {"status": "x"}}"#, "invalid type"),
            (b"{", "EOF"),
        ] {
            let e = Scenario::from_json(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{e}");
        }
    }
}
