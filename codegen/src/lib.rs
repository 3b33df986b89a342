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
//!
//! [`diff`] compares two resolved models: the breaking-change check of `cargo xtask spec-diff`.

pub mod ast;
pub mod check;
pub mod contract;
pub mod diag;
pub mod diff;
pub mod emit;
pub mod files;
pub mod load;
pub mod model;
pub mod naming;
pub mod yaml;

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

/// What `cargo xtask codegen` does, for a workspace at `root`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Write changed files and remove stale ones.
    Write,
    /// Change nothing; report drift.
    Check,
}

/// Why a codegen run failed. Nothing on disk changed unless the variant says otherwise.
#[derive(Debug)]
pub enum Failure {
    /// The spec has errors.
    Spec(Diagnostics),
    /// An emitter produced invalid Rust (a generator bug).
    Emit(emit::EmitError),
    /// `--check`: the tree differs from what the spec produces.
    Drift(Plan),
    /// Reading or writing the tree failed; writes are staged and renamed, so the old
    /// files are in place unless the failure came during the final renames.
    Io(std::io::Error),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Spec(d) => write!(f, "{d}"),
            Failure::Emit(e) => write!(f, "{e}"),
            Failure::Drift(plan) => write!(
                f,
                "{plan}the generated files are out of date with spec/; run `cargo xtask codegen` and commit the result"
            ),
            Failure::Io(e) => write!(f, "codegen: the tree was not updated: {e}"),
        }
    }
}

impl std::error::Error for Failure {}

/// The whole pipeline for the workspace at `root`: load and check `root/spec`, generate,
/// then write (or, in [`Mode::Check`], compare). Returns the generated set and what differed.
pub fn run(root: &Path, mode: Mode) -> Result<(FileSet, Plan), Failure> {
    let api = load_spec(&root.join("spec")).map_err(Failure::Spec)?;
    let files = generate(&api).map_err(Failure::Emit)?;
    match mode {
        Mode::Check => {
            let plan = files.plan(root).map_err(Failure::Io)?;
            if plan.is_empty() {
                Ok((files, plan))
            } else {
                Err(Failure::Drift(plan))
            }
        }
        Mode::Write => {
            let plan = files.write(root).map_err(Failure::Io)?;
            Ok((files, plan))
        }
    }
}
