//! The checking proxy (feature `proxy`): between clients and the real service, it forwards
//! every request, returns the service's answer as it came, and checks both against the spec.
//! It is made from what the generated sample-data crate tells of its spec ([`App`]), and the
//! sample server's command line starts it with `--proxy URL`.
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
//! with examples; at most [`MAX_FINDINGS`]), written as JSON lines to a file, which `cargo
//! xtask drift` reads. The caller's key is passed on unchanged and never logged or written:
//! the examples of rule findings are the request's method, path and query (below the base
//! path), without the key's text.
//!
//! The proxy, its builder and its findings file are here; forwarding one request in
//! `forward.rs`, checking one exchange against the spec in `check.rs`, the HAR file in
//! `har.rs`, what travels on the wire in `wire.rs`, and the summary it prints in `summary.rs`.
//!
//! [`check_answer`]: crate::drift::check_answer
//! [`Drift`]: crate::drift::Drift
//! [`MAX_FINDINGS`]: crate::drift::MAX_FINDINGS

use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::Router;

mod check;
mod forward;
mod har;
mod summary;
mod wire;

pub use har::{HarEntry, HarFile};
pub use summary::{KindCount, Summary};

use self::forward::forward;
use self::wire::provider_root;
use crate::DEFAULT_BODY_LIMIT;
use crate::app::App;
use crate::client::stack::{self, Http};
use crate::drift::{Finding, Recorder, Source};
use crate::judge::RequestCheck;
use crate::server::Server;

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
    /// The findings file (or the HAR file) cannot be read or written.
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
    har: Option<PathBuf>,
    max_answer_bytes: usize,
    max_body_bytes: usize,
    timeout: Option<Duration>,
}

impl fmt::Debug for ProxyBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProxyBuilder")
            .field("provider", &self.provider)
            .field("findings", &self.findings)
            .field("har", &self.har)
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

    /// Records every exchange with the service in `path` as HAR 1.2 (the file is created, or
    /// emptied, when the proxy is built, and valid after each entry), credentials redacted:
    /// what other tools read, and `cargo xtask drift` reads back as findings.
    pub fn har_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.har = Some(path.into());
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
        let har =
            match &self.har {
                Some(path) => Some(HarFile::create(path, self.app.name).map_err(|e| {
                    ProxyError::Findings {
                        path: path.clone(),
                        message: e.to_string(),
                    }
                })?),
                None => None,
            };
        let proxy = Proxy {
            app: self.app,
            root,
            provider,
            http,
            checks: (self.app.requests)(),
            routes: crate::route::Routes::new(self.app.endpoints),
            recorder: Recorder::new(self.app.protocol.shapes, Source::Proxy),
            findings: self.findings,
            har,
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
    /// What the exchanges showed (`crate::drift::Recorder`: one definition of how an exchange
    /// becomes findings, which `cargo xtask drift` reuses for HAR files).
    recorder: Recorder,
    findings: Option<PathBuf>,
    /// The HAR file every exchange is recorded in, if any.
    har: Option<HarFile>,
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
            har: None,
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

    /// The HAR file exchanges are recorded in, if there is one.
    pub fn har_file(&self) -> Option<&Path> {
        self.har.as_ref().map(HarFile::path)
    }

    /// Every finding so far (those read from the file at start included), sorted by endpoint,
    /// then kind and names.
    pub fn findings(&self) -> Vec<Finding> {
        self.recorder.findings()
    }

    /// What the proxy did and saw so far: requests, failures, findings by kind.
    pub fn summary(&self) -> Summary {
        let mut kinds: BTreeMap<&'static str, KindCount> = BTreeMap::new();
        for finding in self.recorder.findings() {
            let count = kinds.entry(finding.observed.kind()).or_default();
            count.findings += 1;
            count.seen = count.seen.saturating_add(finding.count);
        }
        Summary {
            forwarded: self.forwarded.load(Ordering::Relaxed),
            failed: self.failed.load(Ordering::Relaxed),
            unchecked: self.unchecked.load(Ordering::Relaxed),
            kinds,
            dropped: self.recorder.dropped(),
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
        let text = self.recorder.to_json_lines();
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
        self.recorder.read(findings);
        Ok(())
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

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while the lock was held left whole entries behind.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
