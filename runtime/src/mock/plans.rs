//! The scenarios a sample server was given, in the order given: checking one against the
//! spec's endpoints, which answers a request (the first that matches it and is not used up),
//! how many each answered, and what their expectations make of it.

use std::fmt;
use std::sync::{Mutex, OnceLock};

use super::expectation::Expectation;
use super::journal::ReceivedRequest;
use super::scenario::{Scenario, ScenarioError};
use crate::{Endpoint, JsonValue, RawParams};

/// What a request offers a scenario's matcher.
pub(crate) struct Facts<'a> {
    /// The query, as sent.
    pub query: &'a str,
    /// The path parameters, percent-decoded.
    pub path: &'a [(&'static str, String)],
    /// The start of the body (what the journal reads).
    pub body: &'a [u8],
    /// The body as JSON, read once when a matcher asks.
    pub json: OnceLock<Option<JsonValue>>,
}

impl<'a> Facts<'a> {
    pub fn new(query: &'a str, path: &'a [(&'static str, String)], body: &'a [u8]) -> Self {
        Self {
            query,
            path,
            body,
            json: OnceLock::new(),
        }
    }

    fn matches(&self, scenario: &Scenario) -> bool {
        let matcher = &scenario.request;
        if matcher.is_empty() {
            return true;
        }
        let query_holds = matcher.query.iter().all(|(name, value)| {
            RawParams::from_query_string(self.query)
                .query_pairs()
                .any(|(n, v)| n == name && v == value)
        });
        let path_holds = (matcher.path.iter())
            .all(|(name, value)| self.path.iter().any(|(n, v)| n == name && v == value));
        let body_holds = matcher.body.is_empty() || {
            let json = self
                .json
                .get_or_init(|| serde_json::from_slice::<JsonValue>(self.body).ok());
            (matcher.body.iter())
                .all(|(field, value)| json.as_ref().and_then(|j| j.get(field)) == Some(value))
        };
        query_holds && path_holds && body_holds
    }
}

/// One scenario given to a server.
#[derive(Clone, Debug)]
struct Planned {
    scenario: Scenario,
    endpoint: &'static str,
    name: String,
    limit: Option<u32>,
    answered: u32,
}

/// A scenario as the server holds it: what it is, and how many requests it answered.
#[derive(Clone, Debug)]
pub(crate) struct PlanState {
    /// The scenario, its name and endpoint filled in.
    pub scenario: Scenario,
    /// How many requests it answered.
    pub answered: u32,
}

impl PlanState {
    /// Whether its expectation is met (`None` without one).
    pub fn met(&self) -> Option<bool> {
        (self.scenario.expect).map(|e| e.is_met_by(self.answered))
    }
}

/// The scenarios of every endpoint, in the order given.
#[derive(Debug, Default)]
pub(crate) struct Plans {
    inner: Mutex<PlansState>,
}

#[derive(Debug, Default)]
struct PlansState {
    planned: Vec<Planned>,
    /// Scenarios given so far (cleared ones too): the `n` of `<endpoint>#<n>`.
    given: u32,
}

impl Plans {
    fn lock(&self) -> std::sync::MutexGuard<'_, PlansState> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The endpoint `scenario` is for (`endpoint`, else the scenario's own), once the
    /// scenario is checked against `endpoints`.
    pub fn check(
        endpoints: &'static [Endpoint],
        endpoint: Option<&str>,
        scenario: &Scenario,
    ) -> Result<&'static Endpoint, ScenarioError> {
        let id = endpoint
            .or(scenario.endpoint.as_deref())
            .ok_or(ScenarioError::MissingEndpoint)?;
        let Some(known) = endpoints.iter().find(|e| e.id == id) else {
            return Err(ScenarioError::UnknownEndpoint {
                endpoint: id.to_string(),
                known: endpoints.iter().map(|e| e.id).collect(),
            });
        };
        scenario.check()?;
        Ok(known)
    }

    /// Adds `scenario` for `endpoint` (its id; the scenario's own when `None`) after the ones
    /// given, once checked against `endpoints`; its name.
    pub fn add(
        &self,
        endpoints: &'static [Endpoint],
        endpoint: Option<&str>,
        mut scenario: Scenario,
    ) -> Result<String, ScenarioError> {
        let known = Self::check(endpoints, endpoint, &scenario)?;
        let mut inner = self.lock();
        inner.given += 1;
        let name = match &scenario.name {
            Some(name) => name.clone(),
            None => format!("{}#{}", known.id, inner.given),
        };
        scenario.endpoint = Some(known.id.to_string());
        scenario.name = Some(name.clone());
        let limit = scenario.limit();
        inner.planned.push(Planned {
            scenario,
            endpoint: known.id,
            name: name.clone(),
            limit,
            answered: 0,
        });
        Ok(name)
    }

    /// Whether a scenario of `endpoint` still in use reads the body.
    pub fn reads_body(&self, endpoint: &str) -> bool {
        self.lock().planned.iter().any(|p| {
            p.endpoint == endpoint
                && p.limit.is_none_or(|limit| p.answered < limit)
                && !p.scenario.request.body.is_empty()
        })
    }

    /// The scenario answering a request of `endpoint` with `facts`, if any (counted as used),
    /// with its name.
    pub fn next(&self, endpoint: &str, facts: &Facts<'_>) -> Option<(Scenario, String)> {
        let mut inner = self.lock();
        let planned = inner.planned.iter_mut().find(|p| {
            p.endpoint == endpoint
                && p.limit.is_none_or(|limit| p.answered < limit)
                && facts.matches(&p.scenario)
        })?;
        planned.answered += 1;
        Some((planned.scenario.clone(), planned.name.clone()))
    }

    /// Every scenario given (used up or not), in the order given.
    pub fn list(&self) -> Vec<PlanState> {
        (self.lock().planned.iter())
            .map(|p| PlanState {
                scenario: p.scenario.clone(),
                answered: p.answered,
            })
            .collect()
    }

    /// Forgets every scenario; their expectations are not checked.
    pub fn clear(&self) {
        self.lock().planned.clear();
    }

    /// The expectations not met, with what the journal `received` of their endpoints.
    pub fn unmet(&self, received: &[ReceivedRequest]) -> Result<(), UnmetExpectations> {
        let unmet: Vec<Unmet> = (self.lock().planned.iter())
            .filter_map(|p| {
                let expected = p.scenario.expect?;
                (!expected.is_met_by(p.answered)).then(|| Unmet {
                    name: p.name.clone(),
                    endpoint: p.endpoint,
                    summary: p.scenario.summary(),
                    expected,
                    answered: p.answered,
                })
            })
            .collect();
        if unmet.is_empty() {
            return Ok(());
        }
        let report = report(&unmet, received);
        Err(UnmetExpectations { unmet, report })
    }
}

/// A scenario whose expectation is not met.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unmet {
    /// Its name (`<endpoint>#<n>` when it was given none).
    pub name: String,
    /// Its endpoint's id.
    pub endpoint: &'static str,
    /// What it answers and matches, in a few words (`503, query symbol=MSFT`).
    pub summary: String,
    /// What it expected.
    pub expected: Expectation,
    /// How many requests it answered.
    pub answered: u32,
}

/// The scenarios whose expectations a [`MockServer`](super::MockServer) did not meet
/// ([`MockServer::check_expectations`](super::MockServer::check_expectations)); its message
/// names each, what it expected and answered, and the requests its endpoint received, with
/// what answered each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnmetExpectations {
    /// The scenarios, in the order given.
    pub unmet: Vec<Unmet>,
    report: String,
}

impl fmt::Display for UnmetExpectations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.report)
    }
}

impl std::error::Error for UnmetExpectations {}

/// How many of an endpoint's requests the report lists (the newest).
const LISTED: usize = 10;

fn report(unmet: &[Unmet], received: &[ReceivedRequest]) -> String {
    let mut out = format!(
        "the sample server's expectations were not met ({} scenario{}):",
        unmet.len(),
        if unmet.len() == 1 { "" } else { "s" }
    );
    for u in unmet {
        out.push_str(&format!(
            "\n- scenario {:?} ({}: {}) expected {}, answered {}",
            u.name, u.endpoint, u.summary, u.expected, u.answered
        ));
        let of: Vec<&ReceivedRequest> = received
            .iter()
            .filter(|r| r.endpoint.is_some_and(|e| e.id == u.endpoint))
            .collect();
        match of.len() {
            0 => out.push_str(&format!("\n  {} received no request", u.endpoint)),
            n => {
                out.push_str(&format!(
                    "\n  {} received {n} request{}{}:",
                    u.endpoint,
                    if n == 1 { "" } else { "s" },
                    if n > LISTED {
                        format!(" (the last {LISTED})")
                    } else {
                        String::new()
                    }
                ));
                for request in &of[n.saturating_sub(LISTED)..] {
                    out.push_str(&format!("\n    {}", request.line()));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    const fn endpoint(id: &'static str) -> Endpoint {
        Endpoint {
            id,
            method: crate::Method::Get,
            path: "/v1/x",
            summary: "",
            auth: crate::Auth::Required,
            removed: None,
            idempotent: true,
        }
    }

    static ENDPOINTS: &[Endpoint] = &[endpoint("a"), endpoint("b")];

    fn plans(scenarios: Vec<(&str, Scenario)>) -> Plans {
        let plans = Plans::default();
        for (endpoint, scenario) in scenarios {
            plans.add(ENDPOINTS, Some(endpoint), scenario).unwrap();
        }
        plans
    }

    fn answers(plans: &Plans, endpoint: &str, query: &str, body: &[u8]) -> Option<String> {
        let facts = Facts::new(query, &[], body);
        plans.next(endpoint, &facts).map(|(_, name)| name)
    }

    #[test]
    fn scenarios_are_used_in_order_as_many_times_as_said() {
        let plans = plans(vec![
            ("a", Scenario::status(429).times(2).named("limited")),
            ("a", Scenario::reset().times(0)),
            ("a", Scenario::status(500)),
            ("b", Scenario::delay(Duration::from_millis(5)).always()),
        ]);
        let next = |e| answers(&plans, e, "", b"");
        assert_eq!(next("a").as_deref(), Some("limited"));
        assert_eq!(next("a").as_deref(), Some("limited"));
        assert_eq!(next("a").as_deref(), Some("a#3"));
        assert_eq!(next("a"), None);
        assert!((0..5).all(|_| next("b").as_deref() == Some("b#4")));
        plans.clear();
        assert_eq!(next("b"), None);
    }

    #[test]
    fn scenarios_match_by_query_path_and_body() {
        let plans = plans(vec![
            (
                "a",
                Scenario::status(503).when_query("symbol", "MSFT").always(),
            ),
            ("a", Scenario::status(404).when_body("n", 5i64).always()),
            ("a", Scenario::status(500).always()),
        ]);
        assert_eq!(
            answers(&plans, "a", "symbol=MSFT", b"").as_deref(),
            Some("a#1")
        );
        assert_eq!(
            answers(&plans, "a", "x=1&symbol=%4DSFT", b"").as_deref(),
            Some("a#1"),
            "percent-decoded"
        );
        assert_eq!(
            answers(&plans, "a", "symbol=AAPL", b"").as_deref(),
            Some("a#3")
        );
        assert_eq!(
            answers(&plans, "a", "", br#"{"n": 5}"#).as_deref(),
            Some("a#2")
        );
        assert_eq!(
            answers(&plans, "a", "", br#"{"n": "5"}"#).as_deref(),
            Some("a#3")
        );
        assert_eq!(
            answers(&plans, "a", "", b"not json").as_deref(),
            Some("a#3")
        );
        assert!(plans.reads_body("a") && !plans.reads_body("b"));

        let plans = plans_with_path();
        let path = [("person_id", "p-1".to_string())];
        let facts = Facts::new("", &path, b"");
        assert_eq!(
            plans.next("a", &facts).map(|(_, n)| n).as_deref(),
            Some("a#1")
        );
        let other = [("person_id", "p-2".to_string())];
        assert!(plans.next("a", &Facts::new("", &other, b"")).is_none());
    }

    fn plans_with_path() -> Plans {
        plans(vec![(
            "a",
            Scenario::status(404).when_path("person_id", "p-1"),
        )])
    }

    #[test]
    fn unknown_endpoints_and_missing_ones_are_refused() {
        let plans = Plans::default();
        let e = plans
            .add(ENDPOINTS, Some("zzz"), Scenario::status(500))
            .unwrap_err();
        assert!(e.to_string().contains("the endpoints are a, b"), "{e}");
        assert_eq!(
            plans.add(ENDPOINTS, None, Scenario::status(500)),
            Err(ScenarioError::MissingEndpoint)
        );
        let mut json = Scenario::status(500);
        json.endpoint = Some("b".into());
        assert_eq!(plans.add(ENDPOINTS, None, json).unwrap(), "b#1");
    }

    #[test]
    fn unmet_expectations_name_the_scenario_and_what_was_received() {
        let plans = plans(vec![
            ("a", Scenario::status(503).expect(2).named("down")),
            ("a", Scenario::samples().expect(0..=1)),
            ("b", Scenario::status(500).expect(1..)),
        ]);
        answers(&plans, "a", "", b"");
        let err = plans.unmet(&[]).unwrap_err();
        let names: Vec<&str> = err.unmet.iter().map(|u| u.name.as_str()).collect();
        assert_eq!(names, ["down", "b#3"]);
        let text = err.to_string();
        assert!(
            text.contains(
                "- scenario \"down\" (a: 503) expected exactly 2 requests, answered 1\n  a received no request"
            ),
            "{text}"
        );
        assert!(
            text.contains("expected at least 1 request, answered 0"),
            "{text}"
        );
        answers(&plans, "a", "", b"");
        answers(&plans, "b", "", b"");
        assert_eq!(plans.unmet(&[]), Ok(()));
    }
}
