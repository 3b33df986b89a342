//! The checking proxy (feature `proxy`): between clients and the real service, it forwards
//! every request, returns the service's answer as it came, and checks both against the spec.
//!
//! - the answer, with [`check_answer`]: fields and values the spec does not describe, required
//!   fields `null` or missing, values of another type (as the generated client notices them);
//! - the request, with the spec's own judgement of it ([`RequestCheck`], the generated
//!   parameter type's `from_raw` and the body's checks): a request the spec refuses that the
//!   service answers 2xx is a rule stricter than the service (`rule.stricter`, one finding per
//!   rule the request breaks); a request the spec accepts that the service refuses with 400
//!   `INVALID_PARAMETER` or 422 is a rule the spec lacks or holds looser (`rule.looser`).
//!
//! What it sees goes into a [`Drift`] (one [`Finding`] per endpoint and thing seen, counted,
//! with examples; at most [`MAX_FINDINGS`](crate::drift::MAX_FINDINGS)), written as JSON lines
//! to a file, which `cargo xtask drift` reads. The caller's key is passed on unchanged and
//! never logged or written: the examples of rule findings are the request's method, path and
//! query (below the base path), without the key's text.

use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, Method, Uri, header};
use axum::response::Response;
use http_body_util::Full;

mod summary;
mod wire;

pub use summary::{KindCount, Summary};

use self::wire::{Refusal, answer_of, bare, forwarded_headers, provider_root};
use super::App;
use super::journal::{REDACT_ELSEWHERE_FROM, redact};
use super::judge::{Judgement, RequestCheck};
use crate::client::TransportError;
use crate::client::stack::{self, Http};
use crate::drift::{Drift, Finding, Observed, REQUEST_EXAMPLE_LIMIT, Source, check_answer, cut};
use crate::server::{REQUEST_ID_HEADER, Server, Unread, declares_json, read_limited};
use crate::text::percent_decode;
use crate::{DEFAULT_BODY_LIMIT, Endpoint, ErrorKind, RawParams};

/// The largest answer the proxy reads from the service, unless told otherwise: 8 MiB. The
/// largest answer of this API (a 10,000-bar kline) is about 1.7 MB; the proxy holds an
/// answer whole while it checks it, so the limit bounds its memory per request in flight. An
/// answer over it is not passed on: the caller gets a bare 502.
pub const DEFAULT_MAX_ANSWER_BYTES: usize = 8 << 20;

/// The time the service gets to answer one request (connect, send, read the whole answer),
/// unless told otherwise: 30 s, the serving path's own request timeout. Past it the caller
/// gets a bare 504.
pub const DEFAULT_PROVIDER_TIMEOUT: Duration = Duration::from_secs(30);

/// The findings file is rewritten at most this often while findings come (and once more when
/// the proxy stops).
const WRITE_EVERY: Duration = Duration::from_secs(1);

/// Why a proxy could not be made.
#[derive(Debug)]
#[non_exhaustive]
pub enum ProxyError {
    /// The service's URL is not one the proxy can forward to.
    Provider(String),
    /// The HTTP client could not be built (its TLS configuration).
    Client(crate::client::BuildError),
    /// The findings file cannot be read or written.
    Findings {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

impl fmt::Display for ProxyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProxyError::Provider(why) => write!(f, "the service's URL cannot be used: {why}"),
            ProxyError::Client(e) => write!(f, "cannot build the HTTP client: {e}"),
            ProxyError::Findings { path, message } => {
                write!(f, "the findings file {}: {message}", path.display())
            }
        }
    }
}

impl std::error::Error for ProxyError {}

/// A [`Proxy`] being configured: [`Proxy::builder`].
#[must_use = "the proxy is made with ProxyBuilder::build"]
pub struct ProxyBuilder {
    app: App,
    provider: String,
    findings: Option<PathBuf>,
    max_answer_bytes: usize,
    max_body_bytes: usize,
    timeout: Option<Duration>,
}

impl fmt::Debug for ProxyBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProxyBuilder")
            .field("provider", &self.provider)
            .field("findings", &self.findings)
            .field("max_answer_bytes", &self.max_answer_bytes)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl ProxyBuilder {
    /// Writes the findings to `path` as JSON lines (one per finding, sorted; the file is
    /// rewritten whole as findings come, at most once a second, and when the proxy stops).
    /// Findings the file holds already are read first and kept, so a proxy started again
    /// goes on counting; a file with a line that is not a finding is refused rather than
    /// overwritten.
    pub fn findings_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.findings = Some(path.into());
        self
    }

    /// Reads at most `bytes` of an answer ([`DEFAULT_MAX_ANSWER_BYTES`] unless set); a larger
    /// one is answered with a bare 502.
    pub fn max_answer_bytes(mut self, bytes: usize) -> Self {
        self.max_answer_bytes = bytes;
        self
    }

    /// Reads at most `bytes` of a request's body ([`DEFAULT_BODY_LIMIT`] unless set, the
    /// generated server's limit); a larger one is answered 413 (in the spec's envelope when it
    /// has a code for 413) and not forwarded.
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// The time the service gets to answer one request ([`DEFAULT_PROVIDER_TIMEOUT`] unless
    /// set; `None`: no limit).
    pub fn timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// The proxy: the service's URL checked, the HTTP client built (the environment's proxies,
    /// as the generated client uses them), the findings file read and written once (so a path
    /// that cannot be written fails here, not at the first finding).
    pub fn build(self) -> Result<Arc<Proxy>, ProxyError> {
        let (root, provider) = provider_root(&self.provider, self.app.protocol.base_path)
            .map_err(ProxyError::Provider)?;
        if provider.starts_with("https:") && !stack::TLS {
            return Err(ProxyError::Provider(
                "it is `https://`, and this build has no TLS feature".to_string(),
            ));
        }
        let http =
            Http::new(Some(stack::environment_proxies()), None).map_err(ProxyError::Client)?;
        let proxy = Proxy {
            app: self.app,
            root,
            provider,
            http,
            checks: (self.app.requests)(),
            routes: crate::route::Routes::new(self.app.endpoints),
            drift: Drift::new(Source::Proxy),
            reasons: Mutex::new(BTreeMap::new()),
            findings: self.findings,
            max_answer_bytes: self.max_answer_bytes,
            max_body_bytes: self.max_body_bytes,
            timeout: self.timeout,
            forwarded: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            unchecked: AtomicU64::new(0),
            changed: tokio::sync::Notify::new(),
            writing: Mutex::new(()),
        };
        proxy.read_findings()?;
        proxy.write_findings().map_err(|e| ProxyError::Findings {
            path: proxy.findings.clone().unwrap_or_default(),
            message: e.to_string(),
        })?;
        Ok(Arc::new(proxy))
    }
}

/// The checking proxy: forwards every request to the service (the caller's key passed on
/// unchanged), returns its answer as it came (status, headers but those of one connection,
/// body), and checks the request and the answer against the spec (see the module). Made with
/// [`Proxy::builder`]; [`serve`](Self::serve) serves it and keeps its findings file written,
/// [`router`](Self::router) is the same as an axum router for a server of one's own.
///
/// The proxy asks the service for answers without a content coding (`Accept-Encoding:
/// identity`), so that it can read them; the serving path compresses them for callers that
/// ask, as it does the sample server's. An answer coded anyway is passed on unchecked.
///
/// **Bounds.** A request's body: at most [`ProxyBuilder::max_body_bytes`]. An answer: at most
/// [`ProxyBuilder::max_answer_bytes`], within [`ProxyBuilder::timeout`]. Findings: at most
/// [`MAX_FINDINGS`](crate::drift::MAX_FINDINGS), each with at most
/// [`MAX_EXAMPLES`](crate::drift::MAX_EXAMPLES) examples; later new ones are counted only.
///
/// **Failures.** A service that cannot be reached, breaks the connection, answers what is not
/// HTTP or answers past the size limit: a bare 502 (empty body; the spec's envelope instead
/// when the spec has an error code answered with 502); past the timeout, a bare 504 (likewise).
/// Each is logged at WARN, without the query or the key.
pub struct Proxy {
    app: App,
    /// The service's URL the request's path (base path included) and query are appended to.
    root: String,
    /// The service's root as shown: `root` and the base path.
    provider: String,
    http: Http,
    checks: Vec<RequestCheck>,
    /// The one router of requests to endpoints.
    routes: crate::route::Routes,
    drift: Drift,
    /// The reason kept for each endpoint, rule and status of `rule.looser` findings: the first
    /// the service gave, so that a reason naming the value sent counts as one finding.
    reasons: Mutex<BTreeMap<LooserKey, Option<String>>>,
    findings: Option<PathBuf>,
    max_answer_bytes: usize,
    max_body_bytes: usize,
    timeout: Option<Duration>,
    forwarded: AtomicU64,
    failed: AtomicU64,
    unchecked: AtomicU64,
    /// Notified when a finding was recorded: the writer rewrites the file.
    changed: tokio::sync::Notify,
    /// Held while the file is written.
    writing: Mutex<()>,
}

impl fmt::Debug for Proxy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Proxy")
            .field("provider", &self.provider)
            .field("findings", &self.findings)
            .finish_non_exhaustive()
    }
}

impl Proxy {
    /// A proxy of the spec `app` (the generated sample-data crate's `APP`) in front of the
    /// service at `provider` (`https://host`, or with the base path, `https://host/api`: the
    /// base path is appended when missing, as the client does).
    pub fn builder(app: &App, provider: impl Into<String>) -> ProxyBuilder {
        ProxyBuilder {
            app: *app,
            provider: provider.into(),
            findings: None,
            max_answer_bytes: DEFAULT_MAX_ANSWER_BYTES,
            max_body_bytes: DEFAULT_BODY_LIMIT,
            timeout: Some(DEFAULT_PROVIDER_TIMEOUT),
        }
    }

    /// The service's root requests go to, the base path included (`https://host/api`).
    pub fn provider(&self) -> &str {
        &self.provider
    }

    /// The findings file, if there is one.
    pub fn findings_file(&self) -> Option<&Path> {
        self.findings.as_deref()
    }

    /// Every finding so far (those read from the file at start included), sorted by endpoint,
    /// then kind and names.
    pub fn findings(&self) -> Vec<Finding> {
        self.drift.findings()
    }

    /// What the proxy did and saw so far: requests, failures, findings by kind.
    pub fn summary(&self) -> Summary {
        let mut kinds: BTreeMap<&'static str, KindCount> = BTreeMap::new();
        for finding in self.drift.findings() {
            let count = kinds.entry(finding.observed.kind()).or_default();
            count.findings += 1;
            count.seen = count.seen.saturating_add(finding.count);
        }
        Summary {
            forwarded: self.forwarded.load(Ordering::Relaxed),
            failed: self.failed.load(Ordering::Relaxed),
            unchecked: self.unchecked.load(Ordering::Relaxed),
            kinds,
            dropped: self.drift.dropped(),
            file: self.findings.clone(),
        }
    }

    /// The proxy as an axum router: every method and path is forwarded. Its findings go into
    /// the file only when [`write_findings`](Self::write_findings) is called (which
    /// [`serve`](Self::serve) does).
    pub fn router(self: &Arc<Self>) -> Router {
        Router::new().fallback(forward).with_state(self.clone())
    }

    /// Serves the proxy on `server` (the serving path of the sample server and of generated
    /// servers: its limits, timeouts and graceful shutdown) until it stops, keeping the
    /// findings file written as findings come; writes it a last time before returning, so a
    /// stop on SIGINT or SIGTERM loses nothing.
    pub async fn serve(self: Arc<Self>, server: Server) -> io::Result<()> {
        let writer = tokio::spawn(keep_written(self.clone()));
        let served = server.serve(self.router()).await;
        writer.abort();
        let written = tokio::task::spawn_blocking({
            let proxy = self.clone();
            move || proxy.write_findings()
        })
        .await
        .unwrap_or_else(|e| Err(io::Error::other(e)));
        served.and(written)
    }

    /// Writes every finding so far to the findings file (if there is one), replacing what it
    /// held: into a file beside it first, then renamed over it, so a reader never sees half a
    /// file.
    pub fn write_findings(&self) -> io::Result<()> {
        let Some(path) = &self.findings else {
            return Ok(());
        };
        let _writing = lock(&self.writing);
        let text = self.drift.to_json_lines();
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(".tmp");
        let temporary = path.with_file_name(name);
        std::fs::write(&temporary, text)?;
        std::fs::rename(&temporary, path)
    }

    /// Reads the findings the file holds already into the record.
    fn read_findings(&self) -> Result<(), ProxyError> {
        let Some(path) = &self.findings else {
            return Ok(());
        };
        let failed = |message: String| ProxyError::Findings {
            path: path.clone(),
            message,
        };
        if path.file_name().is_none() {
            return Err(failed("it names no file".to_string()));
        }
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(failed(e.to_string())),
        };
        let (findings, problems) = crate::drift::parse_json_lines(&text);
        if let Some((line, problem)) = problems.first() {
            return Err(failed(format!(
                "line {line} is not a finding ({problem}); it is not overwritten: name another file"
            )));
        }
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
        Ok(())
    }

    /// The endpoint whose method and path template `method` and `path` have (`HEAD` for a
    /// `GET`), with the path parameters (decoded).
    fn endpoint_of(&self, method: &Method, path: &str) -> Option<Matched> {
        let routed = self
            .routes
            .route(self.app.protocol.base_path, method.as_str(), path);
        let crate::route::Routed::Endpoint(m) = routed else {
            return None;
        };
        let (endpoint, path_params) = (
            m.endpoint,
            (m.params.into_iter())
                .map(|(name, segment)| (name, segment.to_owned()))
                .collect(),
        );
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
    fn check(&self, exchange: &Exchange<'_>, head: &axum::http::response::Parts, body: &[u8]) {
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

    /// The answer of the spec's error object for `status` (when a code of the spec has it),
    /// else `status` with an empty body.
    fn refuse(&self, status: u16, message: String, hint: &str) -> Response {
        self.app
            .errors
            .answer(status, message, hint.to_string())
            .unwrap_or_else(|| bare(status))
    }
}

/// A `rule.looser` finding's endpoint, rule (when the service names one) and status.
type LooserKey = (String, Option<String>, u16);

/// The endpoint a request is of.
struct Matched {
    endpoint: &'static Endpoint,
    check: Option<RequestCheck>,
    path_params: Vec<(&'static str, String)>,
}

/// What the check of one exchange needs of the request.
struct Exchange<'r> {
    matched: Matched,
    method: &'r Method,
    path: &'r str,
    query: &'r str,
    judgement: Judgement,
    /// The key text the request sent (each value of the key header).
    keys: Vec<&'r [u8]>,
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

/// How an exchange with the service failed.
enum Failure {
    /// Connecting, sending, reading (its message names the service's URL, without the query).
    Transport(TransportError),
    /// An answer over the limit.
    TooLarge(usize),
    /// No whole answer within the time.
    TimedOut(Duration),
    /// The service's URL and the request's target make no URL.
    Target(String),
}

/// Forwards one request and checks the exchange.
async fn forward(State(proxy): State<Arc<Proxy>>, request: Request) -> Response {
    let started = Instant::now();
    let (parts, body) = request.into_parts();
    let matched = proxy.endpoint_of(&parts.method, parts.uri.path());
    let body = match read_request_body(&proxy, &parts, body).await {
        Ok(body) => body,
        Err(refused) => return refused,
    };
    let judgement = match &matched {
        Some(m) if m.endpoint.removed.is_none() => match m.check {
            Some(check) => {
                let mut raw = RawParams::from_query_string(parts.uri.query().unwrap_or_default());
                for (name, segment) in &m.path_params {
                    raw = raw.with_encoded_path(name, segment);
                }
                let json = declares_json(&parts.headers).then_some(&body[..]);
                check.judge(&raw, json)
            }
            None => Judgement::NotJudged,
        },
        _ => Judgement::NotJudged,
    };
    let endpoint_id = matched.as_ref().map(|m| m.endpoint.id);
    proxy.forwarded.fetch_add(1, Ordering::Relaxed);
    let answer = exchange(&proxy, &parts, body).await;
    let (head, bytes) = match answer {
        Ok(answer) => answer,
        Err(failure) => {
            proxy.failed.fetch_add(1, Ordering::Relaxed);
            let (status, message) = match failure {
                Failure::Transport(e) => (502, e.to_string()),
                Failure::TooLarge(limit) => (
                    502,
                    format!("the service's answer is larger than {limit} bytes"),
                ),
                Failure::Target(why) => (
                    502,
                    format!("the request's target makes no URL of the service: {why}"),
                ),
                Failure::TimedOut(limit) => (
                    504,
                    format!(
                        "the service gave no whole answer within {} s",
                        limit.as_secs_f64()
                    ),
                ),
            };
            tracing::warn!(
                endpoint = endpoint_id,
                path = endpoint_id
                    .is_none()
                    .then(|| cut(parts.uri.path().to_string(), 200)),
                status,
                micros = started.elapsed().as_micros() as u64,
                "no answer from the service: {message}"
            );
            return proxy.refuse(
                status,
                message,
                "the proxy could not get the service's answer; try again later",
            );
        }
    };
    if let Some(matched) = matched {
        let exchange = Exchange {
            matched,
            method: &parts.method,
            path: parts.uri.path(),
            query: parts.uri.query().unwrap_or_default(),
            judgement,
            keys: parts
                .headers
                .get_all(proxy.app.protocol.auth_header)
                .iter()
                .map(HeaderValue::as_bytes)
                .collect(),
        };
        proxy.check(&exchange, &head, &bytes);
    }
    let request_id = head
        .headers
        .get(REQUEST_ID_HEADER)
        .and_then(|id| id.to_str().ok())
        .unwrap_or_default();
    tracing::info!(
        request_id,
        endpoint = endpoint_id,
        path = endpoint_id
            .is_none()
            .then(|| cut(parts.uri.path().to_string(), 200)),
        status = head.status.as_u16(),
        micros = started.elapsed().as_micros() as u64,
        "proxied"
    );
    answer_of(&parts.method, head, bytes)
}

/// The request's body, read to its end within the limit; or the answer refusing it.
async fn read_request_body(proxy: &Proxy, parts: &Parts, body: Body) -> Result<Bytes, Response> {
    let limit = proxy.max_body_bytes;
    let too_large = || {
        proxy.refuse(
            413,
            format!("the request body is larger than {limit} bytes"),
            "send a smaller body",
        )
    };
    match read_limited(&parts.headers, body, limit).await {
        Ok(bytes) => Ok(bytes),
        Err(Unread::TooLarge) => Err(too_large()),
        Err(Unread::Failed(e)) => Err(proxy.refuse(
            400,
            format!("the request body could not be read: {e}"),
            "send the whole body",
        )),
    }
}

/// Sends the request to the service and reads its whole answer, within the limits.
async fn exchange(
    proxy: &Proxy,
    parts: &Parts,
    body: Bytes,
) -> Result<(axum::http::response::Parts, Bytes), Failure> {
    let target = parts
        .uri
        .path_and_query()
        .map_or(parts.uri.path(), |p| p.as_str());
    let uri: Uri = match format!("{}{target}", proxy.root).parse() {
        Ok(uri) => uri,
        Err(e) => return Err(Failure::Target(e.to_string())),
    };
    let mut request = axum::http::Request::new(Full::new(body));
    *request.method_mut() = parts.method.clone();
    *request.uri_mut() = uri.clone();
    *request.headers_mut() = forwarded_headers(&parts.headers);
    let limit = proxy.max_answer_bytes;
    let read = async {
        let response = proxy
            .http
            .send(request)
            .await
            .map_err(|e| Failure::Transport(TransportError::new(&uri, e)))?;
        let (head, body) = response.into_parts();
        match read_limited(&head.headers, body, limit).await {
            Ok(bytes) => Ok((head, bytes)),
            Err(Unread::TooLarge) => Err(Failure::TooLarge(limit)),
            Err(Unread::Failed(e)) => match e.downcast::<hyper::Error>() {
                Ok(e) => Err(Failure::Transport(TransportError::of_body(&uri, *e))),
                Err(_) => Err(Failure::TooLarge(limit)),
            },
        }
    };
    match proxy.timeout {
        Some(limit) => tokio::time::timeout(limit, read)
            .await
            .unwrap_or(Err(Failure::TimedOut(limit))),
        None => read.await,
    }
}

/// Rewrites the findings file when findings were recorded, at most every [`WRITE_EVERY`].
async fn keep_written(proxy: Arc<Proxy>) {
    loop {
        proxy.changed.notified().await;
        let writing = tokio::task::spawn_blocking({
            let proxy = proxy.clone();
            move || proxy.write_findings()
        });
        if let Ok(Err(e)) = writing.await {
            tracing::warn!(
                file = %proxy.findings.as_deref().unwrap_or(Path::new("")).display(),
                "cannot write the findings: {e}"
            );
        }
        tokio::time::sleep(WRITE_EVERY).await;
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

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while the lock was held left whole entries behind.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
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
