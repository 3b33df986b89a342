//! A run in numbers: how each endpoint fared, the totals, and the table printed at the end.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::outcome::{Outcome, Verdict};

/// How one endpoint fared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EndpointSummary {
    /// The endpoint id.
    pub endpoint: String,
    /// Checks sent.
    pub checks: usize,
    /// Checks passed.
    pub passed: usize,
    /// Checks failed.
    pub failed: usize,
    /// The server answered 501 `NOT_IMPLEMENTED` (the endpoint counts once, as not
    /// implemented).
    pub not_implemented: bool,
}

impl EndpointSummary {
    /// `passed`, `failed` or `not implemented` (a failed check counts before "not
    /// implemented": it failed before the server said so).
    pub fn result(&self) -> &'static str {
        if self.failed > 0 {
            "failed"
        } else if self.not_implemented {
            "not implemented"
        } else {
            "passed"
        }
    }
}

/// The outcomes per endpoint, in the order the endpoints were checked.
pub fn endpoints(outcomes: &[Outcome]) -> Vec<EndpointSummary> {
    let mut order: Vec<&str> = Vec::new();
    let mut by_id: BTreeMap<&str, EndpointSummary> = BTreeMap::new();
    for o in outcomes {
        let e = by_id.entry(&o.endpoint).or_insert_with(|| {
            order.push(&o.endpoint);
            EndpointSummary {
                endpoint: o.endpoint.clone(),
                ..EndpointSummary::default()
            }
        });
        e.checks += 1;
        match o.verdict {
            Verdict::Passed => e.passed += 1,
            Verdict::Failed(_) => e.failed += 1,
            Verdict::NotImplemented => e.not_implemented = true,
        }
    }
    order
        .into_iter()
        .filter_map(|id| by_id.remove(id))
        .collect()
}

/// The totals of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Checks sent.
    pub checks: usize,
    /// Checks passed.
    pub passed: usize,
    /// Checks failed.
    pub failed: usize,
    /// Endpoints checked.
    pub endpoints: usize,
    /// Endpoints whose checks all passed.
    pub endpoints_passed: usize,
    /// Endpoints with a failed check.
    pub endpoints_failed: usize,
    /// Endpoints the server does not implement (and no check of which failed).
    pub not_implemented: usize,
}

impl Totals {
    /// The totals of `outcomes`.
    pub fn of(outcomes: &[Outcome]) -> Totals {
        let endpoints = endpoints(outcomes);
        let count = |result: &str| endpoints.iter().filter(|e| e.result() == result).count();
        Totals {
            checks: outcomes.len(),
            passed: endpoints.iter().map(|e| e.passed).sum(),
            failed: endpoints.iter().map(|e| e.failed).sum(),
            endpoints: endpoints.len(),
            endpoints_passed: count("passed"),
            endpoints_failed: count("failed"),
            not_implemented: count("not implemented"),
        }
    }

    /// True when the run passes: no check failed, and with `require_all`, every endpoint is
    /// implemented.
    pub fn passed(&self, require_all: bool) -> bool {
        self.failed == 0 && (!require_all || self.not_implemented == 0)
    }
}

/// The per-endpoint table and the totals line.
pub fn summary(outcomes: &[Outcome]) -> String {
    let endpoints = endpoints(outcomes);
    let width = endpoints
        .iter()
        .map(|e| e.endpoint.len())
        .chain([8])
        .max()
        .unwrap_or(8);
    let mut out = format!(
        "{:<width$}  {:>6}  {:>6}  {:>6}  result\n",
        "endpoint", "checks", "passed", "failed"
    );
    for e in &endpoints {
        let result = match e.result() {
            "failed" => "FAILED",
            "not implemented" => "NOT IMPLEMENTED",
            other => other,
        };
        let _ = writeln!(
            out,
            "{:<width$}  {:>6}  {:>6}  {:>6}  {result}",
            e.endpoint, e.checks, e.passed, e.failed
        );
    }
    let t = Totals::of(outcomes);
    let _ = writeln!(
        out,
        "{} checks: {} passed, {} failed; {} endpoints: {} passed, {} failed, {} not implemented",
        t.checks,
        t.passed,
        t.failed,
        t.endpoints,
        t.endpoints_passed,
        t.endpoints_failed,
        t.not_implemented
    );
    out
}
