//! The contract suite's runner: sends the checks derived from the spec
//! (`mrds_probes`) to any server of the API and reports each one, and each endpoint.
//!
//! A package of its own, so that the HTTP stack it needs (the client's, through
//! [`mrds_runtime::client::RawClient`], with rustls) stays out of
//! `xtask`: `cargo xtask codegen` builds the generator only, and `cargo xtask contract` runs
//! this package's binary through cargo.
//!
//! An endpoint the server answers with 501 `NOT_IMPLEMENTED` (the generated server trait's
//! default) is counted once, as not implemented: the rest of its checks are not sent. Options
//! say whether that fails the run ([`Options::require_all`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

use bytes::Bytes;
use mrds_probes::{Key, Probe};
use mrds_runtime::client::RawClient;
use mrds_spec::model::{Api, Method};

/// How to run the suite.
#[derive(Clone, Debug)]
pub struct Options {
    /// The service root (`https://host/api`); the base path is appended when missing.
    pub base_url: String,
    /// The API key; never printed.
    pub api_key: Option<String>,
    /// Run only the checks matching one of these (see [`selects`]); all when empty.
    pub only: Vec<String>,
    /// Skip the checks matching one of these.
    pub skip: Vec<String>,
    /// At most this many requests per second (none: as fast as answers come).
    pub rate: Option<f64>,
    /// Time allowed for one request.
    pub timeout: Duration,
    /// An endpoint the server does not implement fails the run (otherwise it is reported and
    /// the run passes).
    pub require_all: bool,
    /// What the server answers for an endpoint the spec marks removed: 410 (the service's
    /// answer, the only check of such an endpoint), or the endpoint served (a sample server
    /// run with `--serve-removed`), checked as any other.
    pub removed: mrds_probes::Removed,
}

impl Default for Options {
    /// Every check, as fast as answers come, 30 s per request, a key from nowhere, removed
    /// endpoints answering 410; the base URL is for the caller to set.
    fn default() -> Self {
        Options {
            base_url: String::new(),
            api_key: None,
            only: Vec::new(),
            skip: Vec::new(),
            rate: None,
            timeout: Duration::from_secs(30),
            require_all: false,
            removed: mrds_probes::Removed::Gone,
        }
    }
}

/// What one check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The answer is the one the spec predicts.
    Passed,
    /// It is not; why.
    Failed(String),
    /// The server answered 501 `NOT_IMPLEMENTED`: it does not serve the endpoint, whose other
    /// checks were not sent.
    NotImplemented,
}

/// What one check found, with the request and the answer.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The check id.
    pub id: String,
    /// The endpoint id.
    pub endpoint: String,
    /// The method.
    pub method: Method,
    /// The URL requested.
    pub url: String,
    /// Which key was sent.
    pub key: Key,
    /// The request's body, when it had one.
    pub sent: Option<mrds_probes::SentBody>,
    /// The answer's status, when one came.
    pub status: Option<u16>,
    /// The first bytes of the answer's body.
    pub body: String,
    /// The verdict.
    pub verdict: Verdict,
}

impl Outcome {
    /// The reason the check failed, if it did.
    pub fn failure(&self) -> Option<&str> {
        match &self.verdict {
            Verdict::Failed(why) => Some(why),
            _ => None,
        }
    }

    /// A `curl` command repeating the request, to paste into a shell: the key stays in
    /// `$MRDS_API_KEY`, inside double quotes so the shell expands it; the URL is in single
    /// quotes (it holds `&`), and so is a body (JSON holds `"`); a body too long to paste
    /// (the probe past the size limit) is described instead.
    pub fn curl(&self, header: &str) -> String {
        let quoted = |text: &str| format!("'{}'", text.replace('\'', "'\\''"));
        let key = match self.key {
            Key::Valid => format!(" -H \"{header}: $MRDS_API_KEY\""),
            Key::Wrong => format!(" -H '{header}: {}'", mrds_probes::WRONG_KEY),
            Key::Missing => String::new(),
        };
        let method = match self.method {
            Method::Get => String::new(),
            other => format!(" -X {other}"),
        };
        let body = match &self.sent {
            None => String::new(),
            Some(sent) if sent.text.len() > 512 => format!(
                " -H 'Content-Type: {}' --data-binary @body.json  # body.json: {} bytes",
                sent.content_type,
                sent.text.len()
            ),
            Some(sent) => format!(
                " -H 'Content-Type: {}' --data-binary {}",
                sent.content_type,
                quoted(&sent.text)
            ),
        };
        format!("curl -sS{method}{key} {}{body}", quoted(&self.url))
    }
}

/// Bytes of a body kept in a report.
const BODY_PREFIX: usize = 400;

/// True when `pattern` selects check `id`: equal, a prefix ending at a `.`
/// (`stock_dividends` selects `stock_dividends.limit.caps`), or a `*` pattern.
pub fn selects(pattern: &str, id: &str) -> bool {
    if let Some((head, tail)) = pattern.split_once('*') {
        return id.starts_with(head)
            && id.len() >= head.len() + tail.len()
            && selects_rest(&id[head.len()..], tail);
    }
    id == pattern
        || id
            .strip_prefix(pattern)
            .is_some_and(|rest| rest.starts_with('.'))
}

fn selects_rest(rest: &str, pattern: &str) -> bool {
    match pattern.split_once('*') {
        None => rest.ends_with(pattern),
        Some((head, tail)) => (0..=rest.len())
            .filter(|i| rest.is_char_boundary(*i))
            .any(|i| rest[i..].starts_with(head) && selects_rest(&rest[i + head.len()..], tail)),
    }
}

/// The checks `options` selects.
pub fn selected(api: &Api, options: &Options) -> Vec<Probe> {
    mrds_probes::derive(api, options.removed)
        .into_iter()
        .filter(|c| options.only.is_empty() || options.only.iter().any(|p| selects(p, &c.id)))
        .filter(|c| !options.skip.iter().any(|p| selects(p, &c.id)))
        .collect()
}

/// The service root: the base path appended unless the URL's path ends with it.
fn root(base_url: &str, base_path: &str) -> String {
    let trimmed = base_url.trim_end_matches('/');
    if trimmed.ends_with(base_path) {
        trimmed.to_string()
    } else {
        format!("{trimmed}{base_path}")
    }
}

/// Runs every selected check, in order, and returns what each found. Once an endpoint answers
/// 501 `NOT_IMPLEMENTED`, its remaining checks are not sent.
pub async fn run(api: &Api, options: &Options) -> Result<Vec<Outcome>, String> {
    let client = RawClient::new().map_err(|e| format!("cannot build the HTTP client: {e}"))?;
    let root = root(&options.base_url, &api.base_path);
    let pause = options
        .rate
        .filter(|r| *r > 0.0)
        .map(|r| Duration::from_secs_f64(1.0 / r));
    let mut out: Vec<Outcome> = Vec::new();
    for check in selected(api, options) {
        let skipped = out
            .iter()
            .any(|o| o.endpoint == check.endpoint && o.verdict == Verdict::NotImplemented);
        if skipped {
            continue;
        }
        if let (Some(pause), false) = (pause, out.is_empty()) {
            tokio::time::sleep(pause).await;
        }
        out.push(send(&client, api, &root, &check, options).await);
    }
    Ok(out)
}

/// Sends one check and judges the answer (the key and the timeout from `options`).
async fn send(
    client: &RawClient,
    api: &Api,
    root: &str,
    check: &Probe,
    options: &Options,
) -> Outcome {
    let url = format!("{root}{}", check.request.target());
    let mut request = http::Request::builder()
        .uri(&url)
        .method(http::Method::from(check.request.method));
    let mut body = Bytes::new();
    if let Some(sent) = &check.request.body {
        // A server may answer before it reads a body (413, 415, 401) and leave the rest of
        // it unread on the connection; the next check goes over a connection of its own
        // rather than after bytes the server may read as a request.
        request = request
            .header(http::header::CONTENT_TYPE, sent.content_type)
            .header(http::header::CONNECTION, "close");
        body = Bytes::from(sent.text.clone());
    }
    match (check.request.key, options.api_key.as_deref()) {
        (Key::Valid, Some(key)) => request = request.header(api.auth.header.as_str(), key),
        (Key::Wrong, _) => {
            request = request.header(api.auth.header.as_str(), mrds_probes::WRONG_KEY)
        }
        _ => {}
    }
    let mut outcome = Outcome {
        id: check.id.clone(),
        endpoint: check.endpoint.clone(),
        method: check.request.method,
        url,
        key: check.request.key,
        sent: check.request.body.clone(),
        status: None,
        body: String::new(),
        verdict: Verdict::Passed,
    };
    let answer = match request.body(body) {
        Ok(request) => client
            .send(request, options.timeout)
            .await
            .map_err(|e| format!("no answer: {e}")),
        Err(e) => Err(format!("the request cannot be made: {e}")),
    };
    outcome.verdict = match answer {
        Err(why) => Verdict::Failed(why),
        Ok(response) => {
            let status = response.status().as_u16();
            let body = response.into_body();
            let prefix = &body[..body.len().min(BODY_PREFIX)];
            outcome.body = String::from_utf8_lossy(prefix).into_owned();
            outcome.status = Some(status);
            if mrds_probes::not_implemented(status, &body) {
                Verdict::NotImplemented
            } else {
                match mrds_probes::judge(api, check, status, &body) {
                    Ok(()) => Verdict::Passed,
                    Err(why) => Verdict::Failed(why),
                }
            }
        }
    };
    outcome
}

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

/// The readable report: a line per check (for a failure, the request as a `curl` line and
/// what came back), then [`summary`].
pub fn text_report(api: &Api, outcomes: &[Outcome]) -> String {
    let mut out = String::new();
    for o in outcomes {
        match &o.verdict {
            Verdict::Passed => {
                let _ = writeln!(out, "PASS {} ({})", o.id, o.method);
            }
            Verdict::NotImplemented => {
                let _ = writeln!(
                    out,
                    "NOT IMPLEMENTED {}: answered 501 NOT_IMPLEMENTED to {}; its other checks were not sent",
                    o.endpoint, o.id
                );
                let _ = writeln!(out, "     {}", o.curl(&api.auth.header));
            }
            Verdict::Failed(why) => {
                let _ = writeln!(out, "FAIL {}: {why}", o.id);
                let _ = writeln!(out, "     {}", o.curl(&api.auth.header));
                match o.status {
                    Some(status) => {
                        let _ = writeln!(out, "     got {status}: {}", o.body.replace('\n', " "));
                    }
                    None => {
                        let _ = writeln!(out, "     got no answer");
                    }
                }
            }
        }
    }
    out.push('\n');
    out.push_str(&summary(outcomes));
    out
}

/// The report as JSON: the totals, every endpoint and every check (the key never appears).
pub fn json_report(api: &Api, outcomes: &[Outcome]) -> String {
    let t = Totals::of(outcomes);
    let checks: Vec<serde_json::Value> = outcomes
        .iter()
        .map(|o| {
            let result = match o.verdict {
                Verdict::Passed => "pass",
                Verdict::Failed(_) => "fail",
                Verdict::NotImplemented => "not_implemented",
            };
            serde_json::json!({
                "id": o.id,
                "endpoint": o.endpoint,
                "result": result,
                "reason": o.failure(),
                "request": { "method": o.method, "url": o.url, "curl": o.curl(&api.auth.header) },
                "response": { "status": o.status, "body_prefix": o.body },
            })
        })
        .collect();
    let endpoints: Vec<serde_json::Value> = endpoints(outcomes)
        .iter()
        .map(|e| {
            serde_json::json!({
                "endpoint": e.endpoint,
                "checks": e.checks,
                "passed": e.passed,
                "failed": e.failed,
                "result": e.result().replace(' ', "_"),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "summary": {
            "checks": t.checks,
            "passed": t.passed,
            "failed": t.failed,
            "endpoints": t.endpoints,
            "endpoints_passed": t.endpoints_passed,
            "endpoints_failed": t.endpoints_failed,
            "not_implemented": t.not_implemented,
        },
        "endpoints": endpoints,
        "checks": checks,
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

/// The report as JUnit XML: one test case per check, grouped by endpoint. A check answered
/// 501 `NOT_IMPLEMENTED` is a skipped case, or with `require_all` a failed one.
pub fn junit_report(api: &Api, outcomes: &[Outcome], require_all: bool) -> String {
    let t = Totals::of(outcomes);
    let (failures, skipped) = if require_all {
        (t.failed + t.not_implemented, 0)
    } else {
        (t.failed, t.not_implemented)
    };
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites><testsuite name=\"contract\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\">",
        outcomes.len()
    );
    for o in outcomes {
        let _ = write!(
            out,
            "<testcase classname=\"{}\" name=\"{}\"",
            xml(&o.endpoint),
            xml(&o.id)
        );
        let detail = || {
            format!(
                "{}\ngot {}: {}",
                o.curl(&api.auth.header),
                o.status.map_or("no answer".to_string(), |s| s.to_string()),
                o.body
            )
        };
        match &o.verdict {
            Verdict::Passed => out.push_str("/>\n"),
            Verdict::NotImplemented => {
                let message = format!(
                    "the server does not implement `{}` (501 NOT_IMPLEMENTED)",
                    o.endpoint
                );
                let tag = if require_all { "failure" } else { "skipped" };
                let _ = writeln!(
                    out,
                    "><{tag} message=\"{}\">{}</{tag}></testcase>",
                    xml(&message),
                    xml(&detail())
                );
            }
            Verdict::Failed(why) => {
                let _ = writeln!(
                    out,
                    "><failure message=\"{}\">{}</failure></testcase>",
                    xml(why),
                    xml(&detail())
                );
            }
        }
    }
    out.push_str("</testsuite></testsuites>\n");
    out
}

fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_patterns() {
        assert!(selects("stock_dividends", "stock_dividends.limit.caps"));
        assert!(!selects("stock_dividends.limit", "stock_dividends.limit_x"));
        assert!(selects("*.auth.*", "etf_flow.auth.missing_key"));
        assert!(selects("*.broken", "etf_flow.range_order.broken"));
        assert!(!selects("*.broken", "etf_flow.range_order.kept"));
        assert!(selects(
            "etf_flow.symbol.missing",
            "etf_flow.symbol.missing"
        ));
    }

    #[test]
    fn roots_and_escaping() {
        assert_eq!(root("http://h:1/api/", "/api"), "http://h:1/api");
        assert_eq!(root("http://h:1", "/api"), "http://h:1/api");
        assert_eq!(xml("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
    }

    fn outcome(endpoint: &str, id: &str, verdict: Verdict) -> Outcome {
        Outcome {
            id: format!("{endpoint}.{id}"),
            endpoint: endpoint.into(),
            method: Method::Get,
            url: format!("http://h/api/v1/{endpoint}?a=1&b=it's"),
            key: Key::Valid,
            sent: None,
            status: Some(200),
            body: String::new(),
            verdict,
        }
    }

    #[test]
    fn an_unimplemented_endpoint_counts_once() {
        let outcomes = [
            outcome("a", "example", Verdict::Passed),
            outcome("a", "limit.caps", Verdict::Failed("too many".into())),
            outcome("b", "auth.missing_key", Verdict::Passed),
            outcome("b", "example", Verdict::NotImplemented),
            outcome("c", "example", Verdict::Passed),
        ];
        let t = Totals::of(&outcomes);
        assert_eq!((t.checks, t.passed, t.failed, t.endpoints), (5, 3, 1, 3));
        assert_eq!(
            (t.endpoints_passed, t.endpoints_failed, t.not_implemented),
            (1, 1, 1)
        );
        assert!(!t.passed(false));
        let summary = summary(&outcomes);
        assert!(
            summary.contains("b              2       1       0  NOT IMPLEMENTED"),
            "{summary}"
        );
        assert!(summary.ends_with(
            "5 checks: 3 passed, 1 failed; 3 endpoints: 1 passed, 1 failed, 1 not implemented\n"
        ));
        let only_missing = Totals::of(&outcomes[2..]);
        assert!(only_missing.passed(false));
        assert!(!only_missing.passed(true));
    }

    #[test]
    fn a_post_is_repeated_with_its_method_and_body() {
        let mut o = outcome("orders", "body.window", Verdict::Passed);
        o.method = Method::Post;
        o.sent = Some(mrds_probes::SentBody {
            text: r#"{"note":"it's"}"#.into(),
            content_type: mrds_probes::JSON,
        });
        assert_eq!(
            o.curl("X-API-Key"),
            "curl -sS -X POST -H \"X-API-Key: $MRDS_API_KEY\" 'http://h/api/v1/orders?a=1&b=it'\\''s' \
             -H 'Content-Type: application/json' --data-binary '{\"note\":\"it'\\''s\"}'"
        );
        // A body too long to paste is described, not printed.
        o.sent = Some(mrds_probes::SentBody {
            text: "x".repeat(600),
            content_type: "text/plain",
        });
        assert!(
            o.curl("X-API-Key").ends_with(
                "-H 'Content-Type: text/plain' --data-binary @body.json  # body.json: 600 bytes"
            ),
            "{}",
            o.curl("X-API-Key")
        );
    }
}
