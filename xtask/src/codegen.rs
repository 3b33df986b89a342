//! `cargo xtask codegen`: the spec loaded and checked (`mrds-spec`), every generated file
//! emitted (`mrds-emit`: the crates, the OpenAPI document, the spec format's JSON Schema and
//! reference), the generated regions of the hand-written pages (the maintainers' page's table
//! of spec-diff's checks from `mrds-diff`, the snippets of the generated API from the model),
//! then written whole or compared.

use std::path::Path;

use mrds_emit::files::{FileSet, Plan};
use mrds_emit::regions::{Region, RegionError};
use mrds_spec::Diagnostics;

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
pub enum CodegenError {
    /// The spec has errors.
    Spec(Diagnostics),
    /// An emitter produced invalid Rust (a generator bug).
    Emit(mrds_emit::EmitError),
    /// A page's generated regions are malformed (an unknown name, no end line, one there
    /// twice), or the page of the table of checks lacks it.
    Docs(RegionError),
    /// `--check`: the tree differs from what the spec produces.
    Drift(Plan),
    /// Reading or writing the tree failed; writes are staged and renamed, so the old
    /// files are in place unless the failure came during the final renames.
    Io(std::io::Error),
}

impl std::fmt::Display for CodegenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CodegenError::Spec(d) => write!(f, "{d}"),
            CodegenError::Emit(e) => write!(f, "{e}"),
            CodegenError::Docs(e) => write!(f, "{e}"),
            CodegenError::Drift(plan) => write!(
                f,
                "{plan}the generated files are out of date with spec/; run `cargo xtask codegen` and commit the result"
            ),
            CodegenError::Io(e) => write!(f, "codegen: the tree was not updated: {e}"),
        }
    }
}

impl std::error::Error for CodegenError {}

/// The page holding the table of `spec-diff`'s checks, relative to the workspace root.
pub const CHECKS_PAGE: &str = "docs/maintainers.md";

/// The name of the generated region of [`CHECKS_PAGE`] holding the table of `spec-diff`'s
/// checks ([`mrds_diff::checks::readme_table`]).
pub const CHECKS_REGION: &str = "checks";

/// The generated regions a page may hold: the table of `spec-diff`'s checks and every snippet
/// of the generated API ([`mrds_emit::doc_snippets`]), generated from `api`.
pub fn regions(api: &mrds_spec::Api) -> Vec<Region> {
    let mut regions = vec![Region {
        name: CHECKS_REGION.to_string(),
        from: "codegen/diff/src/checks.rs".to_string(),
        body: mrds_diff::checks::readme_table(),
    }];
    regions.extend(mrds_emit::doc_snippets::regions(api));
    regions
}

/// The hand-written pages that may hold generated regions, relative to the workspace root:
/// `README.md` and every page of `docs/` but the generated reference, in order; those the
/// workspace has (a scratch copy of `spec/` and `crates/` need not have any).
pub fn pages(root: &Path) -> Result<Vec<String>, CodegenError> {
    let mut pages = Vec::new();
    if root.join("README.md").is_file() {
        pages.push("README.md".to_string());
    }
    let docs = match std::fs::read_dir(root.join("docs")) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(pages),
        Err(e) => return Err(CodegenError::Io(e)),
    };
    let mut found = Vec::new();
    for entry in docs {
        let name = entry.map_err(CodegenError::Io)?.file_name();
        let name = name.to_string_lossy();
        let page = format!("docs/{name}");
        if name.ends_with(".md") && page != mrds_emit::reference::PATH {
            found.push(page);
        }
    }
    found.sort();
    pages.extend(found);
    Ok(pages)
}

/// Every page of [`pages`] that holds a generated region, with its regions brought up to date
/// (in memory: nothing is written here). The page with the table of checks must hold it.
fn filled_pages(root: &Path, regions: &[Region]) -> Result<Vec<(String, String)>, CodegenError> {
    let mut out = Vec::new();
    for page in pages(root)? {
        let text = std::fs::read_to_string(root.join(&page)).map_err(CodegenError::Io)?;
        let names = mrds_emit::regions::names(&text);
        if page == CHECKS_PAGE && !names.iter().any(|(_, n)| n == CHECKS_REGION) {
            return Err(CodegenError::Docs(RegionError {
                page,
                line: 1,
                message: format!(
                    "the page has no region `{CHECKS_REGION}` (the table of spec-diff's checks)"
                ),
            }));
        }
        // Every page is read for its markers: an end line without its region is an error too.
        let filled = mrds_emit::regions::fill(&page, &text, regions).map_err(CodegenError::Docs)?;
        if !names.is_empty() {
            out.push((page, filled));
        }
    }
    Ok(out)
}

/// The whole pipeline for the workspace at `root`: load and check `root/spec`, generate,
/// then write (or, in [`Mode::Check`], compare). Returns the generated set and what differed.
/// Besides the generated crates, the set holds the JSON Schema of the spec format
/// ([`mrds_emit::schema`]), its reference page ([`mrds_emit::reference`]) and the
/// hand-written pages holding generated regions ([`pages`], [`regions`]): the maintainers' page's
/// table of checks and the snippets of the generated API.
pub fn run(root: &Path, mode: Mode) -> Result<(FileSet, Plan), CodegenError> {
    run_spec(root, &root.join("spec"), mode)
}

/// What the spec in `spec` (a scratch copy of the workspace's `spec/`, such as the language
/// server's buffers) would change of the generated tree at `root`; nothing is written.
pub fn preview(root: &Path, spec: &Path) -> Result<Plan, CodegenError> {
    match run_spec(root, spec, Mode::Check) {
        Ok((_, plan)) | Err(CodegenError::Drift(plan)) => Ok(plan),
        Err(e) => Err(e),
    }
}

/// [`run`] with the spec read from `spec`.
fn run_spec(root: &Path, spec: &Path, mode: Mode) -> Result<(FileSet, Plan), CodegenError> {
    let api = mrds_spec::load_spec(spec).map_err(CodegenError::Spec)?;
    let mut files = mrds_emit::all(&api).map_err(CodegenError::Emit)?;
    files.insert(mrds_emit::schema::PATH, mrds_emit::schema::text());
    if root.join("docs").is_dir() {
        files.insert(mrds_emit::reference::PATH, mrds_emit::reference::text());
    }
    for (page, text) in filled_pages(root, &regions(&api))? {
        files.insert(page, text);
    }
    match mode {
        Mode::Check => {
            let plan = files.plan(root).map_err(CodegenError::Io)?;
            if plan.is_empty() {
                Ok((files, plan))
            } else {
                Err(CodegenError::Drift(plan))
            }
        }
        Mode::Write => {
            let plan = files.write(root).map_err(CodegenError::Io)?;
            Ok((files, plan))
        }
    }
}
