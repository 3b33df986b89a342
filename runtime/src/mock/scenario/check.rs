//! Why a scenario is refused ([`ScenarioError`]): what it asks checked whatever the endpoint
//! ([`Scenario::check`]), and the admin API's JSON read into scenarios.

use std::fmt;

use super::Scenario;
use crate::mock::expectation::Expectation;

/// Why a scenario was refused ([`MockServer::answer`](crate::mock::MockServer::answer), or the
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
    use std::time::Duration;

    use super::*;

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
