//! Checking one exchange against the spec: the endpoint a request is of, the answer's shapes,
//! the spec's judgement of the request against the service's status, and the findings
//! (their examples without the caller's key).

use std::sync::atomic::Ordering;

use axum::http::{Method, header};

use super::wire::Refusal;
use super::{Proxy, lock};
use crate::drift::{Finding, Observed, REQUEST_EXAMPLE_LIMIT, Source, check_answer, cut};
use crate::mock::journal::{REDACT_ELSEWHERE_FROM, redact};
use crate::mock::judge::{Judgement, RequestCheck};
use crate::route::Routed;
use crate::text::percent_decode;
use crate::{Endpoint, ErrorKind};

impl Proxy {
    /// The endpoint a request goes to, by the one router ([`crate::route`]), with its path
    /// parameters (as the path carries them, percent-encoded).
    pub(super) fn endpoint_of(&self, method: &Method, path: &str) -> Option<Matched> {
        let routed = (self.routes).route(self.app.protocol.base_path, method.as_str(), path);
        let Routed::Endpoint(m) = routed else {
            return None;
        };
        let endpoint = m.endpoint;
        let path_params = (m.params.into_iter())
            .map(|(name, segment)| (name, segment.to_owned()))
            .collect();
        Some(Matched {
            endpoint,
            check: self
                .checks
                .iter()
                .find(|c| c.endpoint().id == endpoint.id)
                .copied(),
            path_params,
        })
    }

    /// Records `finding`: logged when it is new, and the file writer told.
    fn record(&self, finding: Finding) {
        let copy = finding.clone();
        if self.drift.record(finding) {
            trace_finding(&copy);
        }
        self.changed.notify_one();
    }

    /// Checks one exchange against the spec: the answer's shapes, and the spec's judgement of
    /// the request against the service's status.
    pub(super) fn check(
        &self,
        exchange: &Exchange<'_>,
        head: &axum::http::response::Parts,
        body: &[u8],
    ) {
        let endpoint = exchange.matched.endpoint;
        let status = head.status.as_u16();
        let readable = head
            .headers
            .get(header::CONTENT_ENCODING)
            .is_none_or(|coding| coding.as_bytes().eq_ignore_ascii_case(b"identity"));
        if !readable {
            self.unchecked.fetch_add(1, Ordering::Relaxed);
        } else if exchange.method != Method::HEAD {
            let noticed = check_answer(self.app.protocol.shapes, endpoint.id, status, body);
            for mut finding in noticed.findings(endpoint.id, Source::Proxy) {
                for example in &mut finding.examples {
                    *example = exchange.scrub(example);
                }
                self.record(finding);
            }
        }
        match &exchange.judgement {
            Judgement::Refused(rules) if (200..300).contains(&status) => {
                let example = exchange.example(self.app.protocol.base_path);
                for rule in rules {
                    self.record(Finding {
                        source: Source::Proxy,
                        endpoint: endpoint.id.to_string(),
                        observed: Observed::RuleStricter {
                            rule: rule.to_string(),
                            status,
                        },
                        count: 1,
                        examples: vec![example.clone()],
                    });
                }
            }
            Judgement::Accepted if status == 400 || status == 422 => {
                let refusal = Refusal::read(body);
                if status == 400
                    && refusal.code.as_deref() != Some(ErrorKind::InvalidParameter.code())
                {
                    return;
                }
                let reason = refusal.reason.map(|r| exchange.scrub(&r));
                let reason = lock(&self.reasons)
                    .entry((endpoint.id.to_string(), refusal.rule.clone(), status))
                    .or_insert(reason)
                    .clone();
                self.record(Finding {
                    source: Source::Proxy,
                    endpoint: endpoint.id.to_string(),
                    observed: Observed::RuleLooser {
                        rule: refusal.rule,
                        status,
                        reason,
                    },
                    count: 1,
                    examples: vec![exchange.example(self.app.protocol.base_path)],
                });
            }
            _ => {}
        }
    }
}

/// A `rule.looser` finding's endpoint, rule (when the service names one) and status.
pub(super) type LooserKey = (String, Option<String>, u16);

/// The endpoint a request is of.
pub(super) struct Matched {
    pub(super) endpoint: &'static Endpoint,
    pub(super) check: Option<RequestCheck>,
    pub(super) path_params: Vec<(&'static str, String)>,
}

/// What the check of one exchange needs of the request.
pub(super) struct Exchange<'r> {
    pub(super) matched: Matched,
    pub(super) method: &'r Method,
    pub(super) path: &'r str,
    pub(super) query: &'r str,
    pub(super) judgement: Judgement,
    /// The key text the request sent (each value of the key header).
    pub(super) keys: Vec<&'r [u8]>,
}

impl Exchange<'_> {
    /// The request as a finding's example: method, path below the base path and query, any
    /// query pair whose value is the key left out and the key's text replaced elsewhere; cut
    /// to [`REQUEST_EXAMPLE_LIMIT`] characters.
    fn example(&self, base_path: &str) -> String {
        let below = self
            .path
            .strip_prefix(base_path)
            .filter(|rest| rest.starts_with('/'))
            .unwrap_or(self.path);
        let pairs: Vec<&str> = self
            .query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .filter(|pair| {
                let value = pair.split_once('=').map_or("", |(_, v)| v);
                !self
                    .keys
                    .iter()
                    .any(|k| percent_decode(value).as_bytes() == *k)
            })
            .collect();
        let mut text = format!("{} {below}", self.method);
        if !pairs.is_empty() {
            text.push('?');
            text.push_str(&pairs.join("&"));
        }
        cut(self.scrub(&text), REQUEST_EXAMPLE_LIMIT)
    }

    /// `text` with the key's text (8 bytes or longer, as the journal does) replaced.
    fn scrub(&self, text: &str) -> String {
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
        let exchange = |query: &'static str| Exchange {
            matched: Matched {
                endpoint: &DUMMY,
                check: None,
                path_params: Vec::new(),
            },
            method: &Method::GET,
            path: "/api/v1/rows",
            query,
            judgement: Judgement::Accepted,
            keys: vec![key],
        };
        assert_eq!(
            exchange("a=1&api_key=secret-key-1234&b=2").example("/api"),
            "GET /v1/rows?a=1&b=2"
        );
        assert_eq!(
            exchange("note=xsecret-key-1234x").example("/api"),
            "GET /v1/rows?note=x<redacted>x"
        );
        assert_eq!(exchange("").example("/api"), "GET /v1/rows");
        let long = exchange(Box::leak("x=1&".repeat(200).into_boxed_str())).example("/api");
        assert_eq!(long.chars().count(), REQUEST_EXAMPLE_LIMIT + 1);
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
