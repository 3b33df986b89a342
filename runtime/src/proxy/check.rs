//! Checking one exchange against the spec: the endpoint a request is of, and the exchange
//! handed to the recorder of findings (`crate::drift::Recorder`: the answer's shapes, the
//! spec's judgement of the request against the service's status, the traffic of a path no
//! endpoint serves), without the caller's key.

use std::borrow::Cow;
use std::sync::atomic::Ordering;

use axum::http::{Method, header};

use super::Proxy;
use crate::Endpoint;
use crate::drift::{self, Finding, Judged, Observed};
use crate::judge::{Judgement, RequestCheck};
use crate::redact::{REDACT_ELSEWHERE_FROM, redact};
use crate::route::Routed;
use crate::text::percent_decode;

impl Proxy {
    /// The endpoint a request goes to, by the one router ([`crate::route`]), with its path
    /// parameters (as the path carries them, percent-encoded).
    pub(super) fn endpoint_of(&self, method: &Method, path: &str) -> Option<MatchedEndpoint> {
        let routed = (self.routes).route(self.app.protocol.base_path, method.as_str(), path);
        let Routed::Endpoint(m) = routed else {
            return None;
        };
        let endpoint = m.endpoint;
        let path_params = (m.params.into_iter())
            .map(|(name, segment)| (name, segment.to_owned()))
            .collect();
        Some(MatchedEndpoint {
            endpoint,
            check: self
                .checks
                .iter()
                .find(|c| c.endpoint().id == endpoint.id)
                .copied(),
            path_params,
        })
    }

    /// Checks one exchange against the spec (the answer's shapes, and the spec's judgement
    /// of the request against the service's status), or sketches the traffic of a path no
    /// endpoint serves; each new finding is logged, and the file writer told.
    pub(super) fn check(
        &self,
        exchange: &ProxiedRequest<'_>,
        head: &axum::http::response::Parts,
        body: &[u8],
    ) {
        let status = head.status.as_u16();
        let readable = head
            .headers
            .get(header::CONTENT_ENCODING)
            .is_none_or(|coding| coding.as_bytes().eq_ignore_ascii_case(b"identity"));
        if !readable {
            self.unchecked.fetch_add(1, Ordering::Relaxed);
        }
        let base_path = self.app.protocol.base_path;
        let below = (exchange.path.strip_prefix(base_path))
            .filter(|rest| rest.starts_with('/'))
            .unwrap_or(exchange.path);
        let query = exchange.query_without_key();
        let judged = match &exchange.judgement {
            Judgement::Accepted => Judged::Accepted,
            Judgement::Refused(rules) => {
                Judged::Refused(rules.iter().map(|r| r.to_string()).collect())
            }
            Judgement::NotJudged => Judged::NotJudged,
        };
        let seen = drift::Exchange {
            endpoint: exchange.matched.as_ref().map(|m| m.endpoint.id),
            method: exchange.method.as_str(),
            path: below,
            query: &query,
            judged: &judged,
            status,
            body,
            readable: readable && exchange.method != Method::HEAD,
            keyed: !exchange.keys.is_empty(),
        };
        let new = self.recorder.exchange(&seen, &|text| exchange.scrub(text));
        for finding in &new {
            trace_finding(finding);
        }
        if !new.is_empty() || exchange.matched.is_none() || matches!(judged, Judged::Refused(_)) {
            self.changed.notify_one();
        }
    }
}

/// The endpoint a request is of.
pub(super) struct MatchedEndpoint {
    pub(super) endpoint: &'static Endpoint,
    pub(super) check: Option<RequestCheck>,
    pub(super) path_params: Vec<(&'static str, String)>,
}

/// What the check of one exchange needs of the request.
pub(super) struct ProxiedRequest<'r> {
    /// The endpoint; `None` for a path no endpoint serves.
    pub(super) matched: Option<MatchedEndpoint>,
    pub(super) method: &'r Method,
    pub(super) path: &'r str,
    pub(super) query: &'r str,
    pub(super) judgement: Judgement,
    /// The key text the request sent (each value of the key header).
    pub(super) keys: Vec<&'r [u8]>,
}

impl ProxiedRequest<'_> {
    /// The query without the pairs whose value is the key (the query itself when none is).
    fn query_without_key(&self) -> Cow<'_, str> {
        // Decoding only shortens a value: one shorter than the shortest key is none of them.
        let shortest = self
            .keys
            .iter()
            .map(|k| k.len())
            .min()
            .unwrap_or(usize::MAX);
        let is_key = |pair: &&str| {
            let value = pair.split_once('=').map_or("", |(_, v)| v);
            value.len() >= shortest
                && (self.keys.iter()).any(|k| percent_decode(value).as_bytes() == *k)
        };
        let pairs = self.query.split('&').filter(|pair| !pair.is_empty());
        if !pairs.clone().any(|p| is_key(&p)) {
            return Cow::Borrowed(self.query);
        }
        Cow::Owned(pairs.filter(|p| !is_key(p)).collect::<Vec<_>>().join("&"))
    }

    /// `text` with the key's text (8 bytes or longer, as the journal does) replaced.
    pub(super) fn scrub(&self, text: &str) -> String {
        let secrets: Vec<&[u8]> = self
            .keys
            .iter()
            .copied()
            .filter(|k| k.len() >= REDACT_ELSEWHERE_FROM)
            .collect();
        if secrets.is_empty() {
            return text.to_string();
        }
        String::from_utf8_lossy(&redact(text.as_bytes(), &secrets)).into_owned()
    }
}

/// The WARN event of a new finding, target `mrds::drift` (as the client's): what and where;
/// the example only of what an answer held (a rule finding's example is a request, and
/// requests' queries are not logged).
fn trace_finding(finding: &Finding) {
    let observed = &finding.observed;
    let example = match observed {
        Observed::RuleStricter { .. } | Observed::RuleLooser { .. } => None,
        _ => finding.example(),
    };
    tracing::warn!(
        target: "mrds::drift",
        source = "proxy",
        kind = observed.kind(),
        endpoint = finding.endpoint.as_str(),
        record = observed.record(),
        field = observed.field(),
        value_set = observed.value_set(),
        rule = observed.rule(),
        example,
        "the service differs from the spec: {observed}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_never_hold_the_key() {
        let key = b"secret-key-1234";
        let exchange = |query: &'static str| ProxiedRequest {
            matched: Some(MatchedEndpoint {
                endpoint: &DUMMY,
                check: None,
                path_params: Vec::new(),
            }),
            method: &Method::GET,
            path: "/api/v1/rows",
            query,
            judgement: Judgement::Accepted,
            keys: vec![key],
        };
        let example = |query: &'static str| {
            let ex = exchange(query);
            let query = ex.query_without_key();
            let judged = Judged::Accepted;
            let seen = drift::Exchange {
                endpoint: Some("rows"),
                method: "GET",
                path: "/v1/rows",
                query: &query,
                judged: &judged,
                status: 200,
                body: b"",
                readable: true,
                keyed: true,
            };
            ex.scrub(&seen.example())
        };
        assert_eq!(
            example("a=1&api_key=secret-key-1234&b=2"),
            "GET /v1/rows?a=1&b=2"
        );
        assert_eq!(
            example("note=xsecret-key-1234x"),
            "GET /v1/rows?note=x<redacted>x"
        );
        assert_eq!(example(""), "GET /v1/rows");
        let long = example(Box::leak("x=1&".repeat(200).into_boxed_str()));
        assert_eq!(long.chars().count(), drift::REQUEST_EXAMPLE_LIMIT + 1);
        assert!(long.ends_with('…'));
    }

    const DUMMY: Endpoint = Endpoint {
        id: "rows",
        method: crate::Method::Get,
        path: "/v1/rows",
        summary: "",
        auth: crate::Auth::Required,
        removed: None,
        idempotent: true,
    };
}
