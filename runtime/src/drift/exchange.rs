//! How one exchange (a request, the spec's judgement of it, the service's answer) becomes
//! findings: the [`Recorder`] a proxy keeps, and `cargo xtask drift` keeps while it reads a
//! HAR file. One definition, so that traffic recorded by any tool yields what the proxy would
//! have found in it.
//!
//! - The answer is walked against the shapes ([`check_answer`](super::check_answer)).
//! - A request the spec refuses that the service answers 2xx is `rule.stricter`, one finding
//!   per rule, its evidence the values the service accepted and the records it returned.
//! - A request the spec accepts that the service refuses (400 `INVALID_PARAMETER`, 422) is
//!   `rule.looser`, with the rule the service names, its reason, the values it refused and,
//!   when the findings are read, the values of the endpoint's requests it accepted.
//! - A request of a path no endpoint serves is `endpoint.undocumented`, its [`Traffic`]
//!   sketched from the requests and answers ([`template`] groups them).

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

use super::check_answer;
use super::evidence::{Evidence, Extent, add_query_values, merge_values, query_values};
use super::finding::{Finding, Observed, Source};
use super::json::{REQUEST_EXAMPLE_LIMIT, cut};
use super::notes::Drift;
use super::refusal::Refusal;
use super::traffic::{Traffic, draft_id, template};
use crate::ErrorKind;
use crate::shapes::Shapes;

/// What the spec says of a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judged {
    /// A server generated from the spec accepts it.
    Accepted,
    /// A server generated from the spec refuses it, naming these rule ids.
    Refused(Vec<String>),
    /// Not judged (no rule at stake, or the request cannot be read).
    NotJudged,
}

/// One request and its answer, as a recorder reads them.
#[derive(Clone, Copy, Debug)]
pub struct Exchange<'a> {
    /// The endpoint of the spec the request is of; `None`: no endpoint serves its path.
    pub endpoint: Option<&'a str>,
    /// The method (`GET`).
    pub method: &'a str,
    /// The path below the base path (`/v1/stocks/dividends`).
    pub path: &'a str,
    /// The query as sent, the pairs holding the caller's key left out.
    pub query: &'a str,
    /// The spec's judgement of the request.
    pub judged: &'a Judged,
    /// The answer's status.
    pub status: u16,
    /// The answer's body.
    pub body: &'a [u8],
    /// The body can be read (it has no content coding); a `HEAD`'s answer has none.
    pub readable: bool,
    /// The request sent a key.
    pub keyed: bool,
}

impl Exchange<'_> {
    /// The request as a finding's example: method, path and query (without the key's
    /// pairs), cut to [`REQUEST_EXAMPLE_LIMIT`] characters.
    pub fn example(&self) -> String {
        let mut text = format!("{} {}", self.method, self.path);
        if !self.query.is_empty() {
            text.push('?');
            text.push_str(self.query);
        }
        cut(text, REQUEST_EXAMPLE_LIMIT)
    }
}

/// A `rule.looser` finding's endpoint, rule (when the service names one) and status.
type LooserKey = (String, Option<String>, u16);

/// What a proxy (or a reader of recorded traffic) has seen: the findings of every exchange
/// (see the module), bounded as [`Drift`] bounds them.
#[derive(Debug)]
pub struct Recorder {
    shapes: &'static Shapes,
    drift: Drift,
    /// The reason kept for each endpoint, rule and status of `rule.looser` findings: the
    /// first the service gave, so that a reason naming the value sent counts as one finding.
    reasons: Mutex<BTreeMap<LooserKey, Option<String>>>,
    /// The values of the requests each endpoint accepted: the evidence of its `rule.looser`
    /// findings.
    accepted: Mutex<BTreeMap<String, BTreeMap<String, Extent>>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while the lock was held left whole entries behind.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Recorder {
    /// An empty recorder of what `source` sees, against `shapes`.
    pub fn new(shapes: &'static Shapes, source: Source) -> Self {
        Self {
            shapes,
            drift: Drift::new(source),
            reasons: Mutex::new(BTreeMap::new()),
            accepted: Mutex::new(BTreeMap::new()),
        }
    }

    /// Counts on from `findings` (read from a findings file): each is kept, and the reason
    /// of a `rule.looser` one stands for its endpoint, rule and status.
    pub fn read(&self, findings: Vec<Finding>) {
        for finding in findings {
            if let Observed::RuleLooser {
                rule,
                status,
                reason,
            } = &finding.observed
            {
                lock(&self.reasons)
                    .entry((finding.endpoint.clone(), rule.clone(), *status))
                    .or_insert_with(|| reason.clone());
            }
            self.drift.record(finding);
        }
    }

    /// Keeps `finding`; true when it is new.
    pub fn record(&self, finding: Finding) -> bool {
        self.drift.record(finding)
    }

    /// Every finding so far, sorted by endpoint, then kind and names; each `rule.looser`
    /// finding with the values of the requests its endpoint accepted.
    pub fn findings(&self) -> Vec<Finding> {
        let accepted = lock(&self.accepted);
        let mut findings = self.drift.findings();
        for finding in &mut findings {
            if matches!(finding.observed, Observed::RuleLooser { .. })
                && let Some(values) = accepted.get(&finding.endpoint)
            {
                let evidence = finding.evidence.get_or_insert_with(Evidence::default);
                merge_values(&mut evidence.accepted, values);
            }
        }
        findings
    }

    /// Every finding so far as JSON lines (each ends in a newline).
    pub fn to_json_lines(&self) -> String {
        (self.findings().iter())
            .map(|f| f.to_json_line() + "\n")
            .collect()
    }

    /// New findings not kept because the most were kept already.
    pub fn dropped(&self) -> u64 {
        self.drift.dropped()
    }

    /// Takes one exchange in; `scrub` takes the caller's key out of a text (an example, a
    /// reason, an answer of an undocumented endpoint). Returns the findings seen for the
    /// first time.
    pub fn exchange(&self, ex: &Exchange<'_>, scrub: &dyn Fn(&str) -> String) -> Vec<Finding> {
        let mut new = Vec::new();
        let mut record = |finding: Finding| {
            let copy = finding.clone();
            if self.drift.record(finding) {
                new.push(copy);
            }
        };
        let Some(endpoint) = ex.endpoint else {
            if let Some(finding) = self.undocumented(ex, scrub) {
                record(finding);
            }
            return new;
        };
        let ok = (200..300).contains(&ex.status);
        if ex.readable && ex.method != "HEAD" {
            let noticed = check_answer(self.shapes, endpoint, ex.status, ex.body);
            for mut finding in noticed.findings(endpoint, self.drift.source()) {
                for example in &mut finding.examples {
                    *example = scrub(example);
                }
                record(finding);
            }
        }
        match ex.judged {
            Judged::Refused(rules) if ok => {
                let example = scrub(&ex.example());
                let evidence = Evidence {
                    returned: ex.readable.then(|| records_in(ex.body)).flatten(),
                    ..Evidence::accepted(ex.query, None)
                };
                for rule in rules {
                    record(Finding {
                        evidence: Some(evidence.clone()),
                        ..Finding::new(
                            self.drift.source(),
                            endpoint,
                            Observed::RuleStricter {
                                rule: rule.clone(),
                                status: ex.status,
                            },
                            vec![example.clone()],
                        )
                    });
                }
            }
            Judged::Accepted if ok => {
                let mut accepted = lock(&self.accepted);
                match accepted.get_mut(endpoint) {
                    Some(values) => add_query_values(values, ex.query),
                    None => {
                        let values = query_values(ex.query);
                        if !values.is_empty() {
                            accepted.insert(endpoint.to_string(), values);
                        }
                    }
                }
            }
            Judged::Accepted => {
                let example = scrub(&ex.example());
                let looser = looser(self.drift.source(), endpoint, ex.status, ex.body, example);
                if let Some(mut finding) = looser {
                    finding.evidence = Some(Evidence::refused(ex.query));
                    if let Observed::RuleLooser {
                        rule,
                        status,
                        reason,
                    } = &mut finding.observed
                    {
                        // The first reason stands for the rule (a reason may name the value).
                        let first = lock(&self.reasons)
                            .entry((endpoint.to_string(), rule.clone(), *status))
                            .or_insert(reason.as_deref().map(scrub))
                            .clone();
                        *reason = first;
                    }
                    record(finding);
                }
            }
            _ => {}
        }
        new
    }

    /// The finding of an exchange of a path no endpoint serves: its template's traffic.
    fn undocumented(&self, ex: &Exchange<'_>, scrub: &dyn Fn(&str) -> String) -> Option<Finding> {
        if !ex.path.starts_with('/') {
            return None;
        }
        let path = scrub(ex.path);
        let query = scrub(ex.query);
        let (template, params) = template(&path);
        let body = scrub(&String::from_utf8_lossy(ex.body));
        let mut traffic = Traffic::default();
        traffic.observe(
            &params,
            &path,
            &query,
            (ex.status, body.as_bytes()),
            ex.keyed,
        );
        let method = ex.method.to_ascii_uppercase();
        Some(Finding {
            traffic: Some(Box::new(traffic)),
            ..Finding::new(
                self.drift.source(),
                draft_id(&method, &template),
                Observed::Undocumented {
                    method,
                    path: template,
                },
                vec![scrub(&ex.example())],
            )
        })
    }
}

/// The `rule.looser` finding of a request the spec accepts that the service answered
/// `status` with `body`, when that answer is a refusal of it (400 `INVALID_PARAMETER`, or
/// 422): the rule the service names and its reason, `example` the request. A proxy and a
/// client report it alike.
pub fn looser(
    source: Source,
    endpoint: &str,
    status: u16,
    body: &[u8],
    example: String,
) -> Option<Finding> {
    if status != 400 && status != 422 {
        return None;
    }
    let refusal = Refusal::read(body);
    if status == 400 && refusal.code.as_deref() != Some(ErrorKind::InvalidParameter.code()) {
        return None;
    }
    Some(Finding::new(
        source,
        endpoint,
        Observed::RuleLooser {
            rule: refusal.rule,
            status,
            reason: refusal.reason,
        },
        vec![example],
    ))
}

/// The number of records the `data` of an answer holds (1 for one object).
fn records_in(body: &[u8]) -> Option<u64> {
    let envelope = serde_json::from_slice::<serde_json::Value>(body).ok()?;
    match envelope.get("data")? {
        serde_json::Value::Array(records) => Some(records.len() as u64),
        serde_json::Value::Object(_) => Some(1),
        _ => None,
    }
}
