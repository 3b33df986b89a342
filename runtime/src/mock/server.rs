//! The sample server in process, for tests: on a loopback port of its own, with scenarios
//! set from Rust and a journal of what it received; stopped when dropped, its scenarios'
//! expectations checked then.

use std::fmt;
use std::io;
use std::marker::PhantomData;
use std::net::SocketAddr;
use std::sync::Arc;

use tokio::task::JoinHandle;

use super::control::Control;
use super::journal::{Journal, ReceivedRequest};
use super::plans::UnmetExpectations;
use super::scenario::{Scenario, ScenarioError};
use crate::Endpoint;
use crate::app::App;
use crate::server::{ServeConfig, Server, StaticKeys};

/// A spec's sample server, as [`MockServer`] serves it: the generated sample-data crate
/// implements it for its `Mock` (and names `MockServer<Mock>` its `MockServer`). An
/// implementation serving other answers gives an [`App`] whose `router` serves them.
pub trait SampleServer: 'static {
    /// What is served: the router, the endpoints, the error answers, the demo key.
    const APP: App;
}

/// How many requests a [`MockServer`]'s journal keeps by default (the oldest are forgotten
/// beyond).
pub const DEFAULT_JOURNAL_CAPACITY: usize = 1000;

/// The documentation of [`MockServer`], which the generated sample-data crate puts on its
/// `MockServer` too, so that it reads where the test imports it.
#[doc(hidden)]
#[macro_export]
macro_rules! __mock_server_doc {
    () => {
        "The sample server on a loopback port of its own, in this process: the spec's sample \
records at [`base_url`](Self::base_url), what the test sets answered instead \
([`answer`](Self::answer) with a `Scenario`, or a request's `Prefer` header), and a journal of \
what it received and how each request was answered \
([`received_requests`](Self::received_requests)). It serves on the tokio runtime it was \
started on, through the same serving path as the command line, and stops when dropped (its \
connections closed at once).

| | |
|---|---|
| start | [`start`](Self::start) (the demo key), [`builder`](Self::builder) (keys, `Prefer`, the journal's capacity, the admin API, limits) |
| where | [`base_url`](Self::base_url) (the base path included), [`api_key`](Self::api_key), [`address`](Self::address) |
| answers | [`answer`](Self::answer)`(&ENDPOINT, scenario)`: any status, a body, a delay, a reset; matched by query parameter, path parameter or body field; [`clear_scenarios`](Self::clear_scenarios) |
| expectations | a scenario's `expect(n)` or range, checked when the server is dropped (a panic naming the scenario, what it expected and what the endpoint received; not while the test is already panicking), or by [`verify`](Self::verify) and [`check_expectations`](Self::check_expectations) |
| journal | [`received_requests`](Self::received_requests), [`received_requests_of`](Self::received_requests_of): each request's method, path, query, headers and body (credentials redacted), its outcome (status, reset, abandoned by the client), the time its answer took (a delay included) and what answered it |
"
    };
}

#[doc = crate::__mock_server_doc!()]
///
/// `S` is the spec's sample server: the generated sample-data crate names this type for its
/// spec `mrds_mock::MockServer`.
///
/// **Memory.** The journal keeps at most [`DEFAULT_JOURNAL_CAPACITY`] requests (or what
/// [`MockServerBuilder::journal_capacity`] says), each with at most
/// [`JOURNAL_BODY_BYTES`](super::JOURNAL_BODY_BYTES) of its body and a head of at most the
/// server's head limit (16 KiB): about 32 MiB at worst, a few hundred bytes per request in
/// practice. Beyond it the oldest requests are forgotten, and counted
/// ([`forgotten_requests`](Self::forgotten_requests)).
pub struct MockServer<S: SampleServer> {
    addr: SocketAddr,
    base_url: String,
    key: String,
    control: Arc<Control>,
    serving: JoinHandle<io::Result<()>>,
    spec: PhantomData<fn() -> S>,
}

impl<S: SampleServer> MockServer<S> {
    /// Starts a server with the defaults: the demo key accepted, removed endpoints answering
    /// 410, the `Prefer` header followed, a journal of [`DEFAULT_JOURNAL_CAPACITY`] requests.
    /// Fails when no loopback port can be had.
    pub async fn start() -> io::Result<Self> {
        Self::builder().start().await
    }

    /// A server to configure before [`start`](MockServerBuilder::start)ing it.
    pub fn builder() -> MockServerBuilder<S> {
        MockServerBuilder {
            keys: Vec::new(),
            serve_removed: false,
            prefer: true,
            admin: false,
            journal_capacity: DEFAULT_JOURNAL_CAPACITY,
            config: ServeConfig::default(),
            spec: PhantomData,
        }
    }

    /// The URL of the service root, the base path included (`http://127.0.0.1:PORT/api`):
    /// what a client is pointed at.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The address served on.
    pub fn address(&self) -> SocketAddr {
        self.addr
    }

    /// The first API key the server accepts (the demo key unless keys were given), for the
    /// client under test.
    pub fn api_key(&self) -> &str {
        &self.key
    }

    /// Answers requests of `endpoint` (one of the spec's endpoint constants, such as
    /// `mrds_model::api::STOCK_DIVIDENDS`) as `scenario` says, after the scenarios given
    /// already (the first that matches a request and is not used up answers it). Refused,
    /// saying why, when the endpoint is not the spec's, a status is outside 200 to 599,
    /// `Retry-After` is set on a scenario that answers no status, what it asks conflicts (a
    /// reset with a status), a header cannot be sent, or its expectation can never be met.
    pub fn answer(&self, endpoint: &Endpoint, scenario: Scenario) -> Result<(), ScenarioError> {
        self.control.plan(endpoint, scenario).map(drop)
    }

    /// Forgets every scenario: every endpoint answers with its sample records. Their
    /// expectations are not checked.
    pub fn clear_scenarios(&self) {
        self.control.plans().clear();
    }

    /// Checks the expectations of the scenarios given ([`Scenario::expect`]): the ones not
    /// met, with what their endpoints received, when any is not.
    pub fn check_expectations(&self) -> Result<(), UnmetExpectations> {
        self.control.plans().unmet(&self.received_requests())
    }

    /// Panics when an expectation of the scenarios given is not met, naming each scenario,
    /// what it expected and answered, and what its endpoint received. Dropping the server does
    /// the same (unless the thread is panicking already).
    #[track_caller]
    pub fn verify(&self) {
        if let Err(unmet) = self.check_expectations() {
            panic!("{unmet}");
        }
    }

    /// The requests received (the newest last, at most the journal's capacity), credentials
    /// redacted, each with how it was answered and the time it took (see
    /// [`ReceivedRequest`]).
    pub fn received_requests(&self) -> Vec<ReceivedRequest> {
        self.control.journal().requests()
    }

    /// The requests of `endpoint` received, as [`received_requests`](Self::received_requests).
    pub fn received_requests_of(&self, endpoint: &Endpoint) -> Vec<ReceivedRequest> {
        let mut requests = self.received_requests();
        requests.retain(|r| r.is(endpoint));
        requests
    }

    /// How many requests the journal forgot to stay within its capacity.
    pub fn forgotten_requests(&self) -> u64 {
        self.control.journal().forgotten()
    }

    /// Empties the journal.
    pub fn clear_received_requests(&self) {
        self.control.journal().clear();
    }
}

impl<S: SampleServer> Drop for MockServer<S> {
    /// Stops serving, then checks the scenarios' expectations ([`MockServer::verify`]),
    /// unless the thread is panicking already (a second panic would abort the process).
    fn drop(&mut self) {
        // The listener and every connection go with the task.
        self.serving.abort();
        if !std::thread::panicking() {
            self.verify();
        }
    }
}

impl<S: SampleServer> fmt::Debug for MockServer<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MockServer")
            .field("name", &S::APP.name)
            .field("base_url", &self.base_url)
            .finish_non_exhaustive()
    }
}

/// A [`MockServer`] being configured.
#[must_use = "the server starts with MockServerBuilder::start"]
pub struct MockServerBuilder<S: SampleServer> {
    keys: Vec<String>,
    serve_removed: bool,
    prefer: bool,
    admin: bool,
    journal_capacity: usize,
    config: ServeConfig,
    spec: PhantomData<fn() -> S>,
}

impl<S: SampleServer> MockServerBuilder<S> {
    /// Serve the admin API too (`/__admin/requests`, `/__admin/scenarios`, `/__admin/reset`:
    /// the journal and the scenarios over HTTP, as the command line's `--admin` does), for a
    /// test that drives the server from another language. Off by default.
    pub fn admin(mut self, serve: bool) -> Self {
        self.admin = serve;
        self
    }

    /// Accepts `key` (repeatable); without one the demo key is accepted.
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.keys.push(key.into());
        self
    }

    /// Removed endpoints answer with their sample records instead of 410 `ENDPOINT_REMOVED`.
    pub fn serve_removed(mut self, serve: bool) -> Self {
        self.serve_removed = serve;
        self
    }

    /// Follow the `Prefer` header of requests (on by default; see the sample server's
    /// `--help`).
    pub fn prefer(mut self, follow: bool) -> Self {
        self.prefer = follow;
        self
    }

    /// Keep at most `capacity` requests in the journal (`0`: keep none).
    pub fn journal_capacity(mut self, capacity: usize) -> Self {
        self.journal_capacity = capacity;
        self
    }

    /// Serve with `config`'s limits, rate limit and timeouts; its address is ignored (the
    /// server takes a free loopback port) and signals are never handled.
    pub fn serve_config(mut self, config: ServeConfig) -> Self {
        self.config = config;
        self
    }

    /// Binds the port and starts serving on the current tokio runtime.
    pub async fn start(self) -> io::Result<MockServer<S>> {
        let app = S::APP;
        let config = self
            .config
            .clone()
            .with_addr(([127, 0, 0, 1], 0).into())
            .with_handle_signals(false);
        let server = Server::bind(config).await?;
        let addr = server.local_addr()?;
        let (router, control, key) = self.routed();
        let serving = tokio::spawn(server.serve(router));
        Ok(MockServer {
            addr,
            base_url: format!("http://{addr}{}", app.protocol.base_path),
            key,
            control,
            serving,
            spec: PhantomData,
        })
    }

    /// The router [`start`](Self::start) serves (the sample data behind the middleware of
    /// scenarios, `Prefer` and the journal), without a port: for serving it over a stream of
    /// one's own (fuzzing). Not part of the API.
    #[doc(hidden)]
    pub fn router(self) -> axum::Router {
        self.routed().0
    }

    /// The router, its middleware's state, and the first key accepted.
    fn routed(self) -> (axum::Router, Arc<Control>, String) {
        let app = S::APP;
        let keys = if self.keys.is_empty() {
            vec![app.demo_key.to_string()]
        } else {
            self.keys
        };
        let journal = Journal::new(self.journal_capacity, &keys, app.protocol.auth_header);
        let control = Arc::new(Control::new(
            app.endpoints,
            app.protocol,
            app.errors,
            (self.prefer, self.admin),
            journal,
        ));
        let router = control.around((app.router)(self.serve_removed, StaticKeys::new(&keys)));
        (router, control, keys.into_iter().next().unwrap_or_default())
    }
}

impl<S: SampleServer> fmt::Debug for MockServerBuilder<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MockServerBuilder")
            .field("keys", &self.keys.len())
            .field("serve_removed", &self.serve_removed)
            .field("prefer", &self.prefer)
            .field("admin", &self.admin)
            .field("journal_capacity", &self.journal_capacity)
            .finish_non_exhaustive()
    }
}
