//! Watching the provider: `cargo xtask watch --base-url URL --api-key-env NAME` sends the
//! live service the requests the spec says it answers (each endpoint's example and the
//! contract suite's valid requests: [`plan`]), politely ([`polite`]), and checks every answer
//! as the checking proxy checks what it forwards: the spec's judgement of the request
//! (`mrds_follow::har::judge`) and the answer handed to the proxy's own recorder
//! ([`mrds_runtime::drift::Recorder`]) against the spec's shapes, so the findings are the ones
//! the proxy would have written for the same traffic. It writes them as JSON lines, and the
//! traffic as HAR 1.2 with the proxy's writer ([`mrds_runtime::proxy::HarFile`]), the key
//! redacted alike.
//!
//! A package of its own, beside the contract suite's runner (`mrds-contract`) rather than in
//! it: it needs the same HTTP stack, which must stay out of `xtask` (`cargo xtask codegen`
//! builds the generator only), and it is a tool of its own concerns (a plan of safe requests,
//! pacing and backing off, a budget, a HAR file, an exit status saying what it found), not a
//! report of checks passed and failed. `cargo xtask watch` runs this package's binary through
//! cargo, as `cargo xtask contract` runs the suite's, and with `--apply` applies the findings
//! in its own process (`mrds_follow::report`, as `cargo xtask drift --apply` does), runs the
//! codegen pipeline and prints spec-diff's verdict: the generator's half stays in `xtask`.
//!
//! The exit status ([`Outcome::code`]): 0 when the spec describes everything seen (the
//! findings ask for no spec edit; a note, such as integers written `12.0`, asks for none), 1
//! when they ask for one, 2 when the service could not be watched: a base URL or key that
//! cannot be used, a service that cannot be reached, refuses the key (401, or 403 on an
//! endpoint), or asks to wait longer than allowed.
//!
//! The key is read from the environment and sent in the key header only; it is never printed
//! and never written: the HAR file redacts the key header, and any text that holds the key
//! (an example, an answer) has it replaced, as the proxy does.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use mrds_runtime::drift::Finding;
use mrds_spec::model::Api;

pub mod cli;
pub mod plan;
pub mod polite;
mod run;
mod summary;

pub use plan::{Planned, Selection};
pub use run::{root, run, scrub};
pub use summary::summary;

/// The requests a second a run sends at most, unless told otherwise.
pub const DEFAULT_RATE: f64 = 2.0;

/// The most requests a run sends (tries again included), unless told otherwise: the whole
/// plan of the spec as it is (about 120 requests, a minute at the default rate), with room
/// for tries again and for the spec to grow.
pub const DEFAULT_BUDGET: usize = 300;

/// The longest a run takes, unless told otherwise: 15 minutes.
pub const DEFAULT_MAX_TIME: Duration = Duration::from_secs(15 * 60);

/// The longest wait the service may ask for (`Retry-After`) or a backoff may reach before
/// the run stops instead, unless told otherwise.
pub const DEFAULT_MAX_WAIT: Duration = Duration::from_secs(60);

/// How many times a request answered 429 or 503 is tried again.
pub const DEFAULT_RETRIES: u32 = 2;

/// How a run goes.
#[derive(Clone)]
pub struct Options {
    /// The service's root (`https://provider.example/api`; the base path is appended when
    /// missing).
    pub base_url: String,
    /// The key, sent in the spec's key header. Never printed: `Debug` leaves it out.
    pub api_key: String,
    /// At most this many requests a second (> 0).
    pub rate: f64,
    /// At most this many requests in all, tries again included.
    pub budget: usize,
    /// The run stops before a request that would start later than this after its start.
    pub max_time: Duration,
    /// A `Retry-After` (or backoff) longer than this stops the run.
    pub max_wait: Duration,
    /// Times a request answered 429 or 503 is tried again.
    pub retries: u32,
    /// The first wait after a 429 or 503 without `Retry-After`; each later one doubles.
    pub backoff: Duration,
    /// Time allowed for one request.
    pub timeout: Duration,
    /// Which endpoints are watched, and which may be written to.
    pub selection: Selection,
    /// The HAR file to write, if any.
    pub har: Option<PathBuf>,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("base_url", &self.base_url)
            .field("rate", &self.rate)
            .field("budget", &self.budget)
            .field("max_time", &self.max_time)
            .field("selection", &self.selection)
            .finish_non_exhaustive()
    }
}

impl Options {
    /// The defaults, for the service at `base_url` with `api_key`.
    pub fn new(base_url: impl Into<String>, api_key: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            api_key: api_key.into(),
            rate: DEFAULT_RATE,
            budget: DEFAULT_BUDGET,
            max_time: DEFAULT_MAX_TIME,
            max_wait: DEFAULT_MAX_WAIT,
            retries: DEFAULT_RETRIES,
            backoff: polite::FIRST_BACKOFF,
            timeout: Duration::from_secs(30),
            selection: Selection::default(),
            har: None,
        }
    }
}

/// Why a run stopped before the end of its plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The budget of requests was spent.
    Budget,
    /// The budget of time was spent.
    TimeBudget,
    /// No request got an answer.
    Unreachable,
    /// The service refused the key: the endpoint and the status (401).
    KeyRefused(String, u16),
    /// The service asked to wait this long (or a backoff reached it), past the longest wait
    /// allowed.
    WaitTooLong(Duration),
}

impl Stop {
    /// True when the run could not watch the service (exit status 2).
    pub fn failed(&self) -> bool {
        !matches!(self, Stop::Budget | Stop::TimeBudget)
    }
}

/// What one endpoint's requests met.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EndpointStats {
    /// The endpoint id.
    pub endpoint: String,
    /// Requests of the plan.
    pub planned: usize,
    /// Requests sent (tries again included).
    pub sent: usize,
    /// Answers 2xx.
    pub ok: usize,
    /// Answers 4xx.
    pub client_errors: usize,
    /// Answers 5xx.
    pub server_errors: usize,
    /// Answers of another status (1xx, 3xx).
    pub other: usize,
    /// Requests without an answer (refused connection, timeout).
    pub failed: usize,
    /// Findings of the endpoint.
    pub findings: usize,
    /// The time its requests took, answers included.
    pub time: Duration,
    /// Why its other requests were not sent, when they were not.
    pub given_up: Option<String>,
    /// The service answered 403 to the key.
    pub refused: bool,
}

/// What a run did and found.
#[derive(Clone, Debug)]
pub struct Run {
    /// Per endpoint of the plan, by id.
    pub endpoints: Vec<EndpointStats>,
    /// The findings, sorted by endpoint, then kind and names.
    pub findings: Vec<Finding>,
    /// Requests planned.
    pub planned: usize,
    /// When each request started, from the run's start.
    pub sent: Vec<Duration>,
    /// How long the run took.
    pub elapsed: Duration,
    /// Why it stopped early, if it did.
    pub stop: Option<Stop>,
    /// The HAR file could not be written to (the first error).
    pub har_error: Option<String>,
}

impl Run {
    /// The findings as JSON lines (each ends in a newline), as the proxy writes them.
    pub fn to_json_lines(&self) -> String {
        (self.findings.iter())
            .map(|f| f.to_json_line() + "\n")
            .collect()
    }

    /// The requests a second the run held: requests after the first over the time from the
    /// first start to the last (`None` for fewer than two requests).
    pub fn rate_held(&self) -> Option<f64> {
        let (first, last) = (self.sent.first()?, self.sent.last()?);
        let span = last.saturating_sub(*first).as_secs_f64();
        (self.sent.len() > 1 && span > 0.0).then(|| (self.sent.len() - 1) as f64 / span)
    }

    /// True when the service could not be watched: see [`Stop::failed`], and an endpoint
    /// refused to the key (403).
    pub fn failed(&self) -> bool {
        self.stop.as_ref().is_some_and(Stop::failed) || self.endpoints.iter().any(|e| e.refused)
    }
}

/// What a run printed and how it ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// 0, 1 or 2: see the crate.
    pub code: u8,
    /// The table per endpoint, then the report of the findings.
    pub stdout: String,
    /// Why the run stopped early or could not be made.
    pub stderr: String,
    /// The spec edits the findings ask for.
    pub edits: usize,
}

/// The outcome of `run` against `api` (loaded from `sources`): the table, the report of the
/// findings (`mrds_follow::report`: the spec edits they ask for, the notes), and the exit
/// status. The key (`options.api_key`) is scrubbed from all of it, whatever put it there.
pub fn outcome(
    api: &Api,
    sources: &[(String, String)],
    run: &Run,
    options: &Options,
    follow: &mrds_follow::Options,
) -> Outcome {
    let report = mrds_follow::report(api, sources, &run.findings, follow);
    let mut stdout = summary(run, options);
    stdout.push('\n');
    stdout.push_str(&report.text);
    let mut stderr = String::new();
    let why = match &run.stop {
        Some(Stop::Unreachable) => Some(
            "no request got an answer: the service cannot be reached at --base-url (is it the service's root, and up?)".to_string(),
        ),
        Some(Stop::KeyRefused(endpoint, status)) => Some(format!(
            "the service refused the key ({status} on {endpoint}): check the key in the environment variable named by --api-key-env"
        )),
        Some(Stop::WaitTooLong(wait)) => Some(format!(
            "the service asked to wait {} s before trying again, longer than --max-wait ({} s): run again later",
            wait.as_secs(),
            options.max_wait.as_secs()
        )),
        _ => None,
    };
    if let Some(why) = why {
        let _ = writeln!(stderr, "watch: {why}");
    }
    for e in run.endpoints.iter().filter(|e| e.refused) {
        let _ = writeln!(
            stderr,
            "watch: the service refused the key on {} (403): --skip {} if the key is not meant to use it",
            e.endpoint, e.endpoint
        );
    }
    if let Some(e) = &run.har_error {
        let _ = writeln!(stderr, "watch: {e}");
    }
    let code = if run.failed() {
        2
    } else {
        u8::from(report.edits > 0)
    };
    Outcome {
        code,
        stdout: scrub(&stdout, &options.api_key),
        stderr: scrub(&stderr, &options.api_key),
        edits: report.edits,
    }
}
