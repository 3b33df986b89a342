//! The sample-data server (feature `mock`): its answers from an endpoint's sample records
//! (selected by [`crate::samples`], whose tables are re-exported here), and the server in
//! process for tests ([`MockServer`]): scenarios set from Rust
//! ([`Scenario`]: any status, a body, a delay, a reset; matched by query parameter, path
//! parameter or body field; with expectations checked when the server is dropped), the
//! `Prefer` request header and the admin API (`/__admin/...`, for clients in any language and
//! the command line), and a journal of what was received and how it was answered
//! ([`ReceivedRequest`]); feature `cli`, the command line that serves them (`run`), which
//! with `--proxy` (feature `proxy`) starts the checking proxy instead (`crate::proxy`).
//!
//! What the generated sample-data crate tells it of its spec is an [`App`](crate::app::App).

mod admin;
mod answer;
#[cfg(feature = "cli")]
mod cli;
mod control;
mod expectation;
mod journal;
mod plans;
mod prefer;
mod scenario;
mod server;

pub use crate::redact::REDACTED;
pub use crate::samples::{FieldChoice, Given, Order, Range, Samples, Set};
pub use answer::{answer, select};
#[cfg(feature = "cli")]
pub use cli::{LogFormat, run};
pub use expectation::Expectation;
pub use journal::{AnsweredBy, JOURNAL_BODY_BYTES, KeySent, Outcome, ReceivedRequest};
pub use plans::{Unmet, UnmetExpectations};
pub use prefer::MAX_PREFER_DELAY;
pub use scenario::{Scenario, ScenarioError};
pub use server::{DEFAULT_JOURNAL_CAPACITY, MockServer, MockServerBuilder, SampleServer};
