//! A run: the plan's requests sent one at a time at the pace, each answer recorded (the
//! recorder of findings, the HAR file), tried again after a 429 or a 503 at most
//! [`Options::retries`] times, and the run stopped at its budget of requests or of time, at a
//! key the service refuses, or at a service that cannot be reached.

use std::time::{Duration, SystemTime};

use bytes::Bytes;
use mrds_runtime::client::RawClient;
use mrds_runtime::drift::{Exchange, Recorder, Source};
use mrds_runtime::proxy::{HarEntry, HarFile};
use mrds_spec::model::Api;
use tokio::time::Instant;

use crate::plan::{Planned, plan};
use crate::polite::{MIN_RATE, Pace, wait_after};
use crate::{EndpointStats, Options, Run, Stop};

/// Endpoints in a row whose requests got no answer, none having answered before, after which
/// the service is taken to be unreachable and the run stops.
const UNREACHABLE_AFTER: usize = 3;

/// The request headers the watch sends besides the key.
const USER_AGENT: &str = concat!("mrds-watch/", env!("CARGO_PKG_VERSION"));

/// Runs the watch of `api`'s service as `options` say; `Err` when it cannot start (a base URL
/// that is not one, a HAR file that cannot be written, an endpoint id the spec lacks).
pub async fn run(api: &Api, options: &Options) -> Result<Run, String> {
    if options.rate.is_nan() || options.rate < MIN_RATE {
        return Err(format!(
            "--rate {} is not a rate: give requests a second, at least {MIN_RATE}",
            options.rate
        ));
    }
    let root = root(&options.base_url, &api.base_path)?;
    let planned = plan(api, &options.selection)?;
    let client = RawClient::new().map_err(|e| format!("cannot build the HTTP client: {e}"))?;
    let har = match &options.har {
        Some(path) => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            let file = HarFile::create(path, "mrds-watch")
                .map_err(|e| format!("cannot write the HAR file {}: {e}", path.display()))?;
            Some(file)
        }
        None => None,
    };
    let shapes = mrds_spec::model::shapes::shapes(api);
    let mut watch = Watch {
        api,
        options,
        root,
        client,
        har,
        recorder: Recorder::new(shapes, Source::Watch),
        pace: Pace::new(options.rate),
        started: Instant::now(),
        stats: Vec::new(),
        sent: Vec::new(),
        answered: 0,
        dead_in_a_row: 0,
        stop: None,
        har_error: None,
    };
    for p in &planned {
        match watch.stats.iter_mut().find(|s| s.endpoint == p.endpoint) {
            Some(s) => s.planned += 1,
            None => watch.stats.push(EndpointStats {
                endpoint: p.endpoint.clone(),
                planned: 1,
                ..EndpointStats::default()
            }),
        }
    }
    watch.stats.sort_by(|a, b| a.endpoint.cmp(&b.endpoint));
    for p in &planned {
        if watch.stop.is_some() {
            break;
        }
        if watch.stat(&p.endpoint).given_up.is_some() {
            continue;
        }
        watch.send(p).await;
    }
    if watch.stop.is_none() && watch.answered == 0 && !watch.sent.is_empty() {
        watch.stop = Some(Stop::Unreachable);
    }
    let findings = watch.recorder.findings();
    for s in &mut watch.stats {
        s.findings = findings.iter().filter(|f| f.endpoint == s.endpoint).count();
    }
    Ok(Run {
        endpoints: watch.stats,
        findings,
        planned: planned.len(),
        sent: watch.sent,
        elapsed: watch.started.elapsed(),
        stop: watch.stop,
        har_error: watch.har_error,
    })
}

/// The service root: the base URL checked (absolute `http` or `https`), the base path
/// appended unless its path ends with it.
pub fn root(base_url: &str, base_path: &str) -> Result<String, String> {
    let fix = "give the service's root, e.g. `--base-url https://provider.example/api`";
    let uri: http::Uri = base_url
        .parse()
        .map_err(|e| format!("--base-url `{base_url}` is not a URL ({e}): {fix}"))?;
    match (uri.scheme_str(), uri.authority()) {
        (Some("http" | "https"), Some(_)) => {}
        _ => {
            return Err(format!(
                "--base-url `{base_url}` is not an absolute http or https URL: {fix}"
            ));
        }
    }
    if uri.query().is_some() {
        return Err(format!("--base-url `{base_url}` has a query: {fix}"));
    }
    let trimmed = base_url.trim_end_matches('/');
    Ok(if trimmed.ends_with(base_path) {
        trimmed.to_string()
    } else {
        format!("{trimmed}{base_path}")
    })
}

/// A run under way.
struct Watch<'a> {
    api: &'a Api,
    options: &'a Options,
    root: String,
    client: RawClient,
    har: Option<HarFile>,
    recorder: Recorder,
    pace: Pace,
    started: Instant,
    stats: Vec<EndpointStats>,
    /// When each request started, from the run's start.
    sent: Vec<Duration>,
    /// Requests that got an answer.
    answered: usize,
    /// Endpoints in a row given up for want of an answer.
    dead_in_a_row: usize,
    stop: Option<Stop>,
    har_error: Option<String>,
}

impl Watch<'_> {
    fn stat(&mut self, endpoint: &str) -> &mut EndpointStats {
        let at = (self.stats.iter())
            .position(|s| s.endpoint == endpoint)
            .expect("every planned endpoint has its stats");
        &mut self.stats[at]
    }

    /// Sends one planned request, trying it again after a 429 or 503 when allowed.
    async fn send(&mut self, p: &Planned) {
        let mut retry = 0;
        loop {
            if self.sent.len() >= self.options.budget {
                self.stop = Some(Stop::Budget);
                return;
            }
            let deadline = self.started.checked_add(self.options.max_time);
            if deadline.is_some_and(|deadline| self.pace.next_start() > deadline) {
                self.stop = Some(Stop::TimeBudget);
                return;
            }
            let start = self.pace.turn().await;
            self.sent.push(start - self.started);
            let sent_at = SystemTime::now();
            let request = self.request(p);
            let began = Instant::now();
            let answer = match &request {
                Ok(r) => self
                    .client
                    .send(r.clone(), self.options.timeout)
                    .await
                    .map_err(|e| format!("no answer: {e}")),
                Err(e) => Err(e.clone()),
            };
            let took = began.elapsed();
            let stat = self.stat(&p.endpoint);
            stat.sent += 1;
            stat.time += took;
            let (Ok(request), Ok(answer)) = (request, answer) else {
                let stat = self.stat(&p.endpoint);
                stat.failed += 1;
                stat.given_up = Some("no answer".into());
                self.dead_in_a_row += 1;
                if self.answered == 0 && self.dead_in_a_row >= UNREACHABLE_AFTER {
                    self.stop = Some(Stop::Unreachable);
                }
                return;
            };
            self.answered += 1;
            self.dead_in_a_row = 0;
            let status = answer.status().as_u16();
            self.record(p, &request, &answer, sent_at, took);
            let stat = self.stat(&p.endpoint);
            match status {
                200..=299 => stat.ok += 1,
                400..=499 => stat.client_errors += 1,
                500..=599 => stat.server_errors += 1,
                _ => stat.other += 1,
            }
            let retry_after =
                (answer.headers().get(http::header::RETRY_AFTER)).and_then(|v| v.to_str().ok());
            let first = self.options.backoff;
            if let Some(wait) = wait_after(status, retry_after, retry, first, SystemTime::now()) {
                if wait > self.options.max_wait {
                    self.stop = Some(Stop::WaitTooLong(wait));
                    return;
                }
                self.pace.hold_off(wait);
                if retry < self.options.retries {
                    retry += 1;
                    continue;
                }
                return;
            }
            match status {
                401 => self.stop = Some(Stop::KeyRefused(p.endpoint.clone(), 401)),
                403 => {
                    let stat = self.stat(&p.endpoint);
                    stat.given_up = Some("403: the key may not use it".into());
                    stat.refused = true;
                }
                _ => {}
            }
            return;
        }
    }

    /// The request of `p`: the key in the key header, answers asked for without a content
    /// coding (so that they can be read, as the proxy asks).
    fn request(&self, p: &Planned) -> Result<http::Request<Bytes>, String> {
        let mut request = http::Request::builder()
            .uri(format!("{}{}", self.root, p.target))
            .method(http::Method::from(p.method))
            .header(http::header::ACCEPT, "application/json")
            .header(http::header::ACCEPT_ENCODING, "identity")
            .header(http::header::USER_AGENT, USER_AGENT)
            .header(self.api.auth.header.as_str(), self.options.api_key.as_str());
        let mut body = Bytes::new();
        if let Some(sent) = &p.body {
            request = request.header(http::header::CONTENT_TYPE, sent.content_type);
            body = Bytes::from(sent.text.clone());
        }
        request
            .body(body)
            .map_err(|e| format!("the request of {} cannot be made: {e}", p.id))
    }

    /// Hands one exchange to the recorder (judged by the spec as the proxy judges it) and to
    /// the HAR file.
    fn record(
        &mut self,
        p: &Planned,
        request: &http::Request<Bytes>,
        answer: &http::Response<Bytes>,
        sent_at: SystemTime,
        took: Duration,
    ) {
        let status = answer.status().as_u16();
        let readable = (answer.headers().get(http::header::CONTENT_ENCODING))
            .is_none_or(|coding| coding.as_bytes().eq_ignore_ascii_case(b"identity"));
        let endpoint = (self.api.endpoints.iter()).find(|e| e.id == p.endpoint);
        let body = p.body.as_ref().map(|b| b.text.as_str());
        let judged = match endpoint {
            Some(e) => mrds_follow::har::judge(self.api, e, p.path(), p.query(), body),
            None => mrds_runtime::drift::Judged::NotJudged,
        };
        let method = p.method.to_string();
        let exchange = Exchange {
            endpoint: Some(&p.endpoint),
            method: &method,
            path: p.path(),
            query: p.query(),
            judged: &judged,
            status,
            body: answer.body(),
            readable,
            keyed: true,
        };
        let key = self.options.api_key.as_str();
        let scrub = |text: &str| scrub(text, key);
        self.recorder.exchange(&exchange, &scrub);
        let Some(har) = &self.har else {
            return;
        };
        let url = format!("{}{}", self.root, p.target);
        let entry = HarEntry {
            started: sent_at,
            millis: took.as_secs_f64() * 1000.0,
            method: request.method(),
            url: &url,
            query: p.query(),
            request_headers: request.headers(),
            request_body: request.body(),
            status,
            response_headers: answer.headers(),
            response_body: answer.body(),
            key_header: &self.api.auth.header,
        };
        if let Err(e) = har.record(&entry, &scrub)
            && self.har_error.is_none()
        {
            self.har_error = Some(format!(
                "cannot write the HAR file {}: {e}",
                har.path().display()
            ));
        }
    }
}

/// `text` with the key's text replaced, as the proxy scrubs it: a key of 8 bytes or more
/// (a shorter one would replace ordinary text; the key header is redacted by name).
pub fn scrub(text: &str, key: &str) -> String {
    if key.len() < 8 {
        return text.to_string();
    }
    text.replace(key, mrds_runtime::mock::REDACTED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls_are_checked_and_rooted() {
        assert_eq!(
            root("https://p.example", "/api").unwrap(),
            "https://p.example/api"
        );
        assert_eq!(
            root("http://127.0.0.1:9/api/", "/api").unwrap(),
            "http://127.0.0.1:9/api"
        );
        for bad in [
            "p.example",
            "ftp://p.example",
            "https://p.example?k=1",
            "::",
        ] {
            let e = root(bad, "/api").unwrap_err();
            assert!(e.starts_with(&format!("--base-url `{bad}`")), "{e}");
            assert!(e.contains("--base-url https://provider.example/api"), "{e}");
        }
    }

    #[test]
    fn the_key_is_scrubbed_when_long_enough() {
        assert_eq!(scrub("a secret-key-1 b", "secret-key-1"), "a <redacted> b");
        assert_eq!(scrub("short", "sho"), "short");
    }
}
