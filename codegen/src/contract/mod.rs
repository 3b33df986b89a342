//! The contract suite: requests derived from the resolved model, each with the answer the
//! spec predicts, to run against any server of the API.
//!
//! Starting from each endpoint's sample request (or one synthesised from its parameters), the
//! suite derives:
//!
//! - the sample request itself, whose records must decode strictly as the declared record
//!   (required fields present, values of value sets the spec lists) in the documented order;
//! - per parameter ([`params`]): missing, repeated, empty, not of its type, at and beyond its
//!   bounds, each value of its set and one outside, pattern and format violations;
//! - per rule across parameters ([`rules`]): one request on each side of it, and for a rule
//!   with a condition, the condition's other branch;
//! - the documented behaviour ([`behaviour`]): the key (missing, wrong), `limit` capping the
//!   records, defaults applied, the documented order in each direction, 404 for a lookup of
//!   nothing, 410 for a removed endpoint, unknown parameters ignored.
//!
//! A new parameter, bound, rule or paging declaration in the spec yields new checks with no
//! code written. [`judge`] decides whether an answer is the predicted one, [`not_implemented`]
//! whether it says the server does not serve the endpoint; runners (the tests,
//! `cargo xtask contract`) only send requests.

use mrds_runtime::text::percent_encode;

use crate::model::*;

mod behaviour;
mod judge;
pub mod params;
mod rules;
pub mod values;

pub use judge::{judge, not_implemented, record_problems};

/// One request and what the spec says the answer is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// A stable id: `<endpoint>.<parameter>.<probe>`, `<rule id>.<probe>` or
    /// `<endpoint>.<behaviour>` (`stock_dividends.limit.above_max`,
    /// `stock_dividends.range_order.broken`, `stock_dividends.auth.missing_key`).
    pub id: String,
    /// The endpoint id.
    pub endpoint: String,
    /// The request.
    pub request: Request,
    /// The answer the spec predicts.
    pub expect: Expect,
}

/// A request: path and query below the base path, and which key it sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The path below the base path, path parameters percent-encoded.
    pub path: String,
    /// The query pairs, decoded, in order (a pair may repeat).
    pub query: Vec<(String, String)>,
    /// The key sent.
    pub key: Key,
}

impl Request {
    /// The request target below the base path: path and percent-encoded query.
    pub fn target(&self) -> String {
        let query: Vec<String> = self
            .query
            .iter()
            .map(|(n, v)| format!("{}={}", percent_encode(n), percent_encode(v)))
            .collect();
        if query.is_empty() {
            self.path.clone()
        } else {
            format!("{}?{}", self.path, query.join("&"))
        }
    }
}

/// Which key a request sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// The key the suite was given.
    Valid,
    /// None.
    Missing,
    /// One no server accepts.
    Wrong,
}

/// The key a [`Key::Wrong`] request sends.
pub const WRONG_KEY: &str = "contract-suite-wrong-key";

/// The answer a check expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// 200 with records that decode strictly as the endpoint's record, at most `at_most` of
    /// them, in `order` when given.
    Records {
        /// Most records allowed.
        at_most: Option<usize>,
        /// The order they must come in.
        order: Option<Sorted>,
    },
    /// No issue of `param`'s own rules: 200, or 400 naming only other rules (changing one
    /// value may bring another rule into play).
    Accepted {
        /// The parameter probed (wire name).
        param: String,
    },
    /// Rule `rule` is not broken: 200, or 400 naming only other rules.
    Kept {
        /// The rule id.
        rule: String,
    },
    /// 400 `INVALID_PARAMETER` with an issue naming `field` and rule `rule`.
    Rejected {
        /// The parameter at fault (wire name).
        field: String,
        /// The rule id the issue names.
        rule: String,
    },
    /// An error envelope with this status and code.
    Error {
        /// HTTP status.
        status: u16,
        /// `error.code`.
        code: String,
    },
}

/// An order records must come in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sorted {
    /// The record field (wire name).
    pub field: String,
    /// Largest first.
    pub descending: bool,
}

/// Every check of the spec, endpoint by endpoint (sorted as the model is).
pub fn derive(api: &Api) -> Vec<Check> {
    api.endpoints
        .iter()
        .flat_map(|e| endpoint_checks(api, e))
        .collect()
}

/// The checks of one endpoint.
pub fn endpoint_checks(api: &Api, e: &Endpoint) -> Vec<Check> {
    let base = Draft::base(e);
    let mut out = behaviour::checks(api, e, &base);
    if e.removed.is_none() {
        for p in &e.params {
            out.extend(params::checks(e, p, &base));
        }
        for r in &e.rules {
            out.extend(rules::checks(e, r, &base));
        }
    }
    out
}

/// A request under construction: path parameter values and query pairs.
#[derive(Clone, Debug)]
pub(crate) struct Draft {
    path: Vec<(String, String)>,
    query: Vec<(String, String)>,
    key: Key,
}

impl Draft {
    /// The endpoint's sample request, or one giving every required parameter a value its own
    /// rules accept.
    fn base(e: &Endpoint) -> Self {
        let values: Vec<(String, String)> = match &e.samples {
            Some(s) => s.example_values.clone(),
            None => e
                .params
                .iter()
                .filter(|p| p.required)
                .filter_map(|p| {
                    let v = values::candidates(p, None).into_iter().next()?;
                    Some((p.wire.clone(), v))
                })
                .collect(),
        };
        let is_path = |name: &str| e.path.params().any(|p| p == name);
        let (path, query) = values.into_iter().partition(|(n, _)| is_path(n));
        Self {
            path,
            query,
            key: Key::Valid,
        }
    }

    /// The value the request gives `name`, if it gives one.
    pub(crate) fn value(&self, name: &str) -> Option<&str> {
        self.path
            .iter()
            .chain(&self.query)
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// This request with `name` set to `values` (none: left out; several: repeated).
    pub(crate) fn with(&self, name: &str, values: &[&str]) -> Self {
        let mut next = self.clone();
        if let Some(slot) = next.path.iter_mut().find(|(n, _)| n == name) {
            slot.1 = values.first().copied().unwrap_or_default().to_string();
            return next;
        }
        let at = next.query.iter().position(|(n, _)| n == name);
        next.query.retain(|(n, _)| n != name);
        let at = at.unwrap_or(next.query.len()).min(next.query.len());
        for (i, v) in values.iter().enumerate() {
            next.query.insert(at + i, (name.to_string(), v.to_string()));
        }
        next
    }

    /// This request sending `key`.
    pub(crate) fn keyed(&self, key: Key) -> Self {
        Self {
            key,
            ..self.clone()
        }
    }

    /// The check `<endpoint>.<probe>` sending this request.
    pub(crate) fn check(&self, e: &Endpoint, probe: &str, expect: Expect) -> Check {
        let mut path = String::new();
        for s in &e.path.segments {
            path.push('/');
            match s {
                Segment::Literal(l) => path.push_str(l),
                Segment::Param(name) => {
                    path.push_str(&percent_encode(self.value(name).unwrap_or_default()))
                }
            }
        }
        Check {
            id: format!("{}.{probe}", e.id),
            endpoint: e.id.clone(),
            request: Request {
                path,
                query: self.query.clone(),
                key: self.key,
            },
            expect,
        }
    }
}
