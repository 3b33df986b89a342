//! What the watch sends: each endpoint's example request (its samples' `example`), then the
//! contract suite's valid requests ([`mrds_probes::derive`]: those it predicts are answered,
//! `Expect::Records`, `Accepted` and `Kept`), with the key the watch was given. Never a
//! request the suite sends to be refused (a value out of its bounds, a wrong or missing key:
//! those say nothing of the service the spec does not already, and a provider may count them
//! against the key), never an endpoint the spec marks removed, and only `GET` requests unless
//! `--allow-writes` names the endpoint.
//!
//! The order spreads a budget over the endpoints: every endpoint's example first (by endpoint
//! id), then the rest one endpoint at a time in turn, so a budget smaller than the plan still
//! looks at every endpoint before it looks twice at any. A request two derivations give alike
//! (the same query, however its values are percent-encoded) is sent once.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use mrds_probes::{Expect, Key, Removed, SentBody};
use mrds_runtime::text::percent_decode;
use mrds_spec::model::{Api, Method};

/// One request of the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    /// What it is: the contract check's id (`stock_dividends.limit.max`), or
    /// `<endpoint>.example` for the samples' example request.
    pub id: String,
    /// The endpoint id.
    pub endpoint: String,
    /// The method.
    pub method: Method,
    /// The path below the base path and the query, percent-encoded.
    pub target: String,
    /// The body, for a write `--allow-writes` allows.
    pub body: Option<SentBody>,
}

impl Planned {
    /// The path below the base path (percent-encoded).
    pub fn path(&self) -> &str {
        self.target.split_once('?').map_or(&self.target, |(p, _)| p)
    }

    /// The query as sent (percent-encoded; empty when there is none).
    pub fn query(&self) -> &str {
        self.target.split_once('?').map_or("", |(_, q)| q)
    }
}

/// Which endpoints the watch looks at, and which may be written to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// Endpoint ids whose `POST`, `PUT`, `PATCH` or `DELETE` requests may be sent.
    pub allow_writes: Vec<String>,
    /// Only these endpoint ids (all when empty).
    pub only: Vec<String>,
    /// Not these endpoint ids.
    pub skip: Vec<String>,
}

/// The requests of a run, in the order they are sent (see the module); an error names an
/// endpoint id of `selection` the spec does not have.
pub fn plan(api: &Api, selection: &Selection) -> Result<Vec<Planned>, String> {
    let known: BTreeSet<&str> = api.endpoints.iter().map(|e| e.id.as_str()).collect();
    for (flag, ids) in [
        ("--allow-writes", &selection.allow_writes),
        ("--only", &selection.only),
        ("--skip", &selection.skip),
    ] {
        if let Some(unknown) = ids.iter().find(|id| !known.contains(id.as_str())) {
            let near = known
                .iter()
                .find(|k| k.contains(unknown.as_str()) || unknown.contains(*k))
                .map(|k| format!(" (did you mean `{k}`?)"))
                .unwrap_or_default();
            return Err(format!(
                "{flag}: the spec has no endpoint `{unknown}`{near}; give endpoint ids as the spec names them (`cargo xtask watch --list` lists them)"
            ));
        }
    }
    let wanted = |id: &str| {
        (selection.only.is_empty() || selection.only.iter().any(|o| o == id))
            && !selection.skip.iter().any(|s| s == id)
    };
    let safe = |id: &str, method: Method| {
        method == Method::Get || selection.allow_writes.iter().any(|a| a == id)
    };
    let mut endpoints: Vec<_> = (api.endpoints.iter())
        .filter(|e| e.removed.is_none() && wanted(&e.id) && safe(&e.id, e.method))
        .collect();
    endpoints.sort_by(|a, b| a.id.cmp(&b.id));
    let mut seen: BTreeSet<RequestKey> = BTreeSet::new();
    let mut first: Vec<Planned> = Vec::new();
    let mut rest: BTreeMap<&str, VecDeque<Planned>> = BTreeMap::new();
    for e in &endpoints {
        if let Some(samples) = &e.samples {
            let body = samples.example_body.as_ref().map(|text| SentBody {
                text: text.clone(),
                content_type: mrds_probes::JSON,
            });
            let planned = Planned {
                id: format!("{}.example", e.id),
                endpoint: e.id.clone(),
                method: e.method,
                target: samples.example.clone(),
                body,
            };
            seen.insert(key(&planned));
            first.push(planned);
        }
        rest.insert(e.id.as_str(), VecDeque::new());
    }
    for probe in mrds_probes::derive(api, Removed::Gone) {
        let valid = matches!(
            probe.expect,
            Expect::Records { .. } | Expect::Accepted { .. } | Expect::Kept { .. }
        );
        let Some(queue) = rest.get_mut(probe.endpoint.as_str()) else {
            continue;
        };
        if !valid || probe.request.key != Key::Valid {
            continue;
        }
        let planned = Planned {
            id: probe.id.clone(),
            endpoint: probe.endpoint.clone(),
            method: probe.request.method,
            target: probe.request.target(),
            body: probe.request.body.clone(),
        };
        if safe(&planned.endpoint, planned.method) && seen.insert(key(&planned)) {
            queue.push_back(planned);
        }
    }
    let mut out = first;
    while rest.values().any(|q| !q.is_empty()) {
        for queue in rest.values_mut() {
            if let Some(planned) = queue.pop_front() {
                out.push(planned);
            }
        }
    }
    Ok(out)
}

/// What makes two requests one: the method, the path, the query's pairs decoded (the
/// samples' example may spell `:` where a derived request spells `%3A`), the body.
type RequestKey = (Method, String, Vec<(String, String)>, Option<String>);

fn key(p: &Planned) -> RequestKey {
    let pairs = (p.query().split('&').filter(|pair| !pair.is_empty()))
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(name), percent_decode(value))
        })
        .collect();
    (
        p.method,
        p.path().to_string(),
        pairs,
        p.body.as_ref().map(|b| b.text.clone()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_split_into_path_and_query() {
        let p = Planned {
            id: "a.example".into(),
            endpoint: "a".into(),
            method: Method::Get,
            target: "/v1/a?x=1&y=2".into(),
            body: None,
        };
        assert_eq!((p.path(), p.query()), ("/v1/a", "x=1&y=2"));
        let bare = Planned {
            target: "/v1/a".into(),
            ..p
        };
        assert_eq!((bare.path(), bare.query()), ("/v1/a", ""));
        let encoded = Planned {
            target: "/v1/a?at=00%3A00".into(),
            ..bare.clone()
        };
        let plain = Planned {
            target: "/v1/a?at=00:00".into(),
            ..bare
        };
        assert_eq!(key(&encoded), key(&plain));
    }
}
