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
//!
//! [`Options`] say how to run the suite and which checks it selects, [`run()`] sends them and
//! makes an [`Outcome`] of each, [`Totals`] and [`summary()`] count them, and the reports
//! ([`text_report`], [`json_report`], [`junit_report`]) print them.

mod options;
mod outcome;
mod report;
mod run;
mod summary;
#[cfg(test)]
mod tests;

pub use options::{Options, selected, selects};
pub use outcome::{Outcome, Verdict};
pub use report::{json_report, junit_report, text_report};
pub use run::run;
pub use summary::{EndpointSummary, Totals, endpoints, summary};
