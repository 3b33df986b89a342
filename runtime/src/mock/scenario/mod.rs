//! Scenarios: what a sample server answers the requests of one endpoint with, instead of (or
//! after waiting, before) its sample records; which of its requests they answer (by query
//! parameter, path parameter or body field), how many, and how many they expect. One type
//! for the Rust API ([`MockServer::answer`](super::MockServer::answer)) and for the admin
//! API's JSON (`POST /__admin/scenarios`), through serde.
//!
//! The scenario and its builder are here; what it answers with and how (the reply, resolved
//! against the spec's codes; a plain status, a reset) in `reply.rs`, and why one is refused
//! in `check.rs`.

use std::time::Duration;

use serde::{Deserialize, Serialize};

mod check;
mod reply;

pub use check::ScenarioError;
pub(crate) use reply::{Matcher, Reply, Reset, ScenarioAnswer, Times, plain};

use super::expectation::Expectation;
use crate::JsonValue;

/// What a [`MockServer`](crate::mock::MockServer) answers requests of one endpoint with: any
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
///   [`MockServer::verify`](crate::mock::MockServer::verify).
/// - **Names.** [`named`](Self::named) names it in messages, in the journal
///   ([`ReceivedRequest::answered_by`](crate::mock::ReceivedRequest::answered_by)) and in the admin
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
