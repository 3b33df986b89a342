//! `cargo xtask contract`: runs the contract suite derived from the spec
//! (`mrds_codegen::contract`) against any server of the API, and reports each check.

use std::fmt::Write as _;
use std::time::Duration;

use mrds_codegen::contract::{self, Check, Key};
use mrds_codegen::model::{Api, Method};

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
}

/// What one check found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The check id.
    pub id: String,
    /// The endpoint id.
    pub endpoint: String,
    /// The method.
    pub method: &'static str,
    /// The URL requested.
    pub url: String,
    /// Which key was sent.
    pub key: Key,
    /// The request's body, when it had one.
    pub sent: Option<contract::SentBody>,
    /// The answer's status, when one came.
    pub status: Option<u16>,
    /// The first bytes of the answer's body.
    pub body: String,
    /// `None` when the check passed, else why it failed.
    pub failure: Option<String>,
}

impl Outcome {
    /// A `curl` command repeating the request; the key stays in `$MRDS_API_KEY`, in double
    /// quotes so that a shell pasting the line expands it.
    pub fn curl(&self, header: &str) -> String {
        let key = match self.key {
            Key::Valid => format!(" -H \"{header}: $MRDS_API_KEY\""),
            Key::Wrong => format!(" -H '{header}: {}'", contract::WRONG_KEY),
            Key::Missing => String::new(),
        };
        let method = match self.method {
            "GET" => String::new(),
            other => format!(" -X {other}"),
        };
        let body = match &self.sent {
            None => String::new(),
            // A body too long to paste (the probe past the size limit) is described.
            Some(sent) if sent.text.len() > 512 => format!(
                " -H 'Content-Type: {}' --data-binary @body.json  # body.json: {} bytes",
                sent.content_type,
                sent.text.len()
            ),
            Some(sent) => format!(
                " -H 'Content-Type: {}' --data-binary '{}'",
                sent.content_type,
                sent.text.replace('\'', "'\\''")
            ),
        };
        format!("curl -sS{method}{key} '{}'{body}", self.url)
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
pub fn selected(api: &Api, options: &Options) -> Vec<Check> {
    contract::derive(api)
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

/// Runs every selected check, in order, and returns what each found.
pub async fn run(api: &Api, options: &Options) -> Result<Vec<Outcome>, String> {
    let http = reqwest::Client::builder()
        .timeout(options.timeout)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
    let root = root(&options.base_url, &api.base_path);
    let pause = options
        .rate
        .filter(|r| *r > 0.0)
        .map(|r| Duration::from_secs_f64(1.0 / r));
    let mut out = Vec::new();
    for (i, check) in selected(api, options).iter().enumerate() {
        if let (Some(pause), true) = (pause, i > 0) {
            tokio::time::sleep(pause).await;
        }
        let url = format!("{root}{}", check.request.target());
        let mut request = match check.request.method {
            Method::Get => http.get(&url),
            Method::Post => http.post(&url),
        };
        if let Some(body) = &check.request.body {
            request = request
                .header(reqwest::header::CONTENT_TYPE, body.content_type)
                .body(body.text.clone());
        }
        match (check.request.key, &options.api_key) {
            (Key::Valid, Some(key)) => {
                request = request.header(api.auth.header.as_str(), key.as_str())
            }
            (Key::Wrong, _) => {
                request = request.header(api.auth.header.as_str(), contract::WRONG_KEY)
            }
            _ => {}
        }
        let mut outcome = Outcome {
            id: check.id.clone(),
            endpoint: check.endpoint.clone(),
            method: check.request.method.as_str(),
            url,
            key: check.request.key,
            sent: check.request.body.clone(),
            status: None,
            body: String::new(),
            failure: None,
        };
        match request.send().await {
            Err(e) => outcome.failure = Some(format!("no answer: {e}")),
            Ok(response) => {
                let status = response.status().as_u16();
                match response.bytes().await {
                    Err(e) => outcome.failure = Some(format!("the body did not arrive: {e}")),
                    Ok(body) => {
                        let prefix = &body[..body.len().min(BODY_PREFIX)];
                        outcome.body = String::from_utf8_lossy(prefix).into_owned();
                        outcome.status = Some(status);
                        outcome.failure = contract::judge(api, check, status, &body).err();
                    }
                }
            }
        }
        out.push(outcome);
    }
    Ok(out)
}

/// The readable report: a line per check, and for each failure the request as a `curl` line
/// and what came back.
pub fn text_report(api: &Api, outcomes: &[Outcome]) -> String {
    let mut out = String::new();
    for o in outcomes {
        match &o.failure {
            None => {
                let _ = writeln!(out, "PASS {}", o.id);
            }
            Some(why) => {
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
    out.push_str(&summary(outcomes));
    out
}

/// One line: how many checks ran, passed and failed.
pub fn summary(outcomes: &[Outcome]) -> String {
    let failed = outcomes.iter().filter(|o| o.failure.is_some()).count();
    format!(
        "{} checks: {} passed, {failed} failed\n",
        outcomes.len(),
        outcomes.len() - failed
    )
}

/// The report as JSON: a summary and every check (the key never appears).
pub fn json_report(api: &Api, outcomes: &[Outcome]) -> String {
    let failed = outcomes.iter().filter(|o| o.failure.is_some()).count();
    let checks: Vec<serde_json::Value> = outcomes
        .iter()
        .map(|o| {
            serde_json::json!({
                "id": o.id,
                "endpoint": o.endpoint,
                "result": if o.failure.is_some() { "fail" } else { "pass" },
                "reason": o.failure,
                "request": { "method": o.method, "url": o.url, "curl": o.curl(&api.auth.header) },
                "response": { "status": o.status, "body_prefix": o.body },
            })
        })
        .collect();
    let doc = serde_json::json!({
        "summary": { "checks": outcomes.len(), "passed": outcomes.len() - failed, "failed": failed },
        "checks": checks,
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

/// The report as JUnit XML: one test case per check, grouped by endpoint.
pub fn junit_report(api: &Api, outcomes: &[Outcome]) -> String {
    let failed = outcomes.iter().filter(|o| o.failure.is_some()).count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites><testsuite name=\"contract\" tests=\"{}\" failures=\"{failed}\">",
        outcomes.len()
    );
    for o in outcomes {
        let _ = write!(
            out,
            "<testcase classname=\"{}\" name=\"{}\"",
            xml(&o.endpoint),
            xml(&o.id)
        );
        match &o.failure {
            None => out.push_str("/>\n"),
            Some(why) => {
                let detail = format!(
                    "{}\ngot {}: {}",
                    o.curl(&api.auth.header),
                    o.status.map_or("no answer".to_string(), |s| s.to_string()),
                    o.body
                );
                let _ = writeln!(
                    out,
                    "><failure message=\"{}\">{}</failure></testcase>",
                    xml(why),
                    xml(&detail)
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
}
