//! The spec of the Market and Reference Data Service: the YAML of `spec/` read once, with a
//! place on every node, into the AST, checked, and resolved into one model of the API.
//!
//! ```text
//! spec/*.yaml ─load─▶ ast ─check─▶ model::Api
//! ```
//!
//! - [`yaml`] reads YAML into a node tree with places (aliases within a budget), which
//!   serde reads into [`ast`] types (unknown keys rejected);
//! - [`load`] reads a spec directory's files in a stable order;
//! - [`check`] resolves references, decides every Rust name ([`naming`]) and reports every
//!   problem at once, each at its file, line and column ([`diag`]);
//! - [`model`] is the resolved API, by typed id: what every other room reads.
//!
//! This crate knows nothing of the Rust the spec becomes (no `quote`, `syn` or
//! `prettyplease`): the emitters (`mrds-emit`), spec-diff (`mrds-diff`), the contract
//! suite's probes (`mrds-probes`), following the provider (`mrds-follow`) and the language
//! server stand on it.

pub mod ast;
pub mod check;
pub mod diag;
pub mod index;
pub mod load;
pub mod model;
pub mod naming;
pub mod yaml;

use std::path::Path;

pub use diag::{Diagnostic, Diagnostics};
pub use model::Api;

/// Loads and checks the spec directory (every `*.yaml` below it).
pub fn load_spec(dir: &Path) -> Result<Api, Diagnostics> {
    let sources = load::read_dir(dir)?;
    load_sources(&sources)
}

/// Loads and checks named YAML texts, as if they were the files of a spec directory.
pub fn load_sources(sources: &[(String, String)]) -> Result<Api, Diagnostics> {
    let files = load::parse_all(sources)?;
    check::check(&files)
}

/// Loads and checks named YAML texts to compare them with another spec (a `spec-diff` base):
/// as [`load_sources`], but what only the generated code needs is not required
/// ([`check::Purpose::Compare`]).
pub fn load_sources_to_compare(sources: &[(String, String)]) -> Result<Api, Diagnostics> {
    let files = load::parse_all(sources)?;
    check::check_with(&files, check::Purpose::Compare)
}
