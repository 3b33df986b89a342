//! The generator of the Market and Reference Data Service crates.
//!
//! The flow is one stage a module, each with plain data in and out:
//!
//! ```text
//! spec/*.yaml ─load─▶ ast ─check─▶ model::Api ─emit─▶ FileSet ─write/plan─▶ disk
//! ```
//!
//! - [`load`] parses YAML into [`ast`] types (unknown keys rejected, positions kept);
//! - [`check`] resolves references, decides every Rust name ([`naming`]) and reports every
//!   problem at once ([`diag`]);
//! - [`emit`] turns the [`model::Api`] into formatted Rust files;
//! - [`files`] writes only what changed, removes what is stale, or reports drift.

pub mod ast;
pub mod check;
pub mod diag;
pub mod emit;
pub mod files;
pub mod load;
pub mod model;
pub mod naming;
pub mod pos;

use std::path::Path;

pub use diag::{Diagnostic, Diagnostics};
pub use files::{FileSet, Plan};
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

/// Everything the generator produces for `api`, by path relative to the workspace root.
pub fn generate(api: &Api) -> Result<FileSet, emit::EmitError> {
    emit::all(api)
}
