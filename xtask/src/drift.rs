//! `cargo xtask drift FILE... [--apply]`: what a client (or a proxy) saw of the service that
//! the spec does not describe, read from findings written as JSON lines
//! (`Client::drift().to_json_lines()`, `mrds-mock --proxy --findings`) or from recorded
//! traffic (HAR files: a browser's developer tools, other proxies, `mrds-mock --proxy --har`),
//! and the spec edits that would describe it (`mrds_follow`), against the work tree's
//! `spec/`. Without `--apply` it prints the report and the edits as a unified diff; with it,
//! it writes them into `spec/` (and the drafts of undocumented endpoints into
//! `spec/drafts/`), when the edited spec loads and generates.
//!
//! Exit status: without `--apply`, 0 when nothing asks for an edit, 1 when something does;
//! with it, 0 when the edits are written (1 when some are left to be written by hand); 2 when
//! a file cannot be read, the spec does not load, or the edited spec would not.

use std::path::{Path, PathBuf};

use mrds_follow::{Options, har};
use mrds_runtime::drift::{Finding, parse_json_lines};
use mrds_spec::model::Api;

/// The arguments of `cargo xtask drift`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct Args {
    /// Files of findings, one JSON object a line, or of recorded traffic (HAR); `-` reads
    /// standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Write the edits into spec/ (comments, key order and layout kept), with the samples and
    /// example requests they would break brought along and a draft file for each endpoint
    /// the spec does not have; then run `cargo xtask codegen`.
    #[arg(long)]
    pub apply: bool,
}

/// What a run printed and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// 0, 1 or 2: see the module.
    pub code: u8,
    /// The report.
    pub stdout: String,
    /// Problems with the input.
    pub stderr: String,
}

/// Runs the command for the workspace at `root`.
pub fn run(root: &Path, args: &Args) -> Outcome {
    run_with(root, args, &Options::default())
}

/// [`run`] with the report's options (a fixed date, for tests).
pub fn run_with(root: &Path, args: &Args, options: &Options) -> Outcome {
    let mut texts = Vec::new();
    for file in &args.files {
        let text = if file.as_os_str() == "-" {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).map(|_| text)
        } else {
            std::fs::read_to_string(file)
        };
        match text {
            Ok(text) => texts.push((file.display().to_string(), text)),
            Err(e) => return failure(format!("drift: cannot read {}: {e}\n", file.display())),
        }
    }
    let sources = match mrds_spec::load::read_dir(&root.join("spec")) {
        Ok(sources) => sources,
        Err(d) => return failure(format!("drift: the spec cannot be read:\n{d}\n")),
    };
    let api = match mrds_spec::load_sources(&sources) {
        Ok(api) => api,
        Err(d) => return failure(format!("drift: the spec does not load:\n{d}\n")),
    };
    let (findings, mut stderr) = read(&api, &texts);
    let report = mrds_follow::report(&api, &sources, &findings, options);
    let mut stdout = report.text.clone();
    stdout.push_str(&touched(root, &api, &sources, &report));
    if !args.apply {
        if !report.diff.is_empty() {
            stdout.push('\n');
            stdout.push_str(&report.diff);
        }
        return Outcome {
            code: u8::from(report.edits > 0),
            stdout,
            stderr,
        };
    }
    let written = write(root, &sources, &report);
    stdout.push_str(&written.stdout);
    stderr.push_str(&written.stderr);
    if written.code == 0 && !report.files.is_empty() {
        stdout.push_str("Now `cargo xtask codegen`, then `cargo xtask spec-diff`.\n");
    }
    Outcome {
        code: if written.code == 0 {
            u8::from(report.by_hand > 0)
        } else {
            written.code
        },
        stdout,
        stderr,
    }
}

/// The lines of the workspace's hand-written code that what `report`'s edits break uses (see
/// [`crate::spec_diff::touched_text`]): named before the build finds them; nothing when the
/// edited spec does not load or nothing is touched.
pub fn touched(
    root: &Path,
    api: &Api,
    sources: &[(String, String)],
    report: &mrds_follow::Report,
) -> String {
    if report.files.is_empty() || report.problems.is_some() {
        return String::new();
    }
    let all = report.applied_to(sources);
    match mrds_spec::load_sources(&all) {
        Ok(new) => {
            let changes = mrds_diff::compare(api, &new);
            crate::spec_diff::touched_text(root, &changes, api, &new)
        }
        Err(_) => String::new(),
    }
}

/// Writes the edits of `report` (made against `sources`, the spec's files of the workspace at
/// `root`) into the workspace, when the edited spec loads and generates: a line `wrote FILE`
/// each, code 0; nothing written and code 2 when it would not load or generate, or a file
/// cannot be written (those written before it stay).
pub fn write(root: &Path, sources: &[(String, String)], report: &mrds_follow::Report) -> Outcome {
    let mut stdout = String::new();
    if let Some(problems) = &report.problems {
        return Outcome {
            code: 2,
            stdout,
            stderr: format!(
                "drift: nothing written: the edited spec would not load:\n{problems}\n"
            ),
        };
    }
    if !report.files.is_empty() {
        let mut all = sources.to_vec();
        for (name, text) in &report.files {
            match all.iter_mut().find(|(n, _)| n == name) {
                Some(entry) => entry.1 = text.clone(),
                None => all.push((name.clone(), text.clone())),
            }
        }
        let generated = mrds_spec::load_sources(&all)
            .map_err(|d| d.to_string())
            .and_then(|api| mrds_emit::all(&api).map_err(|e| e.to_string()));
        if let Err(e) = generated {
            return Outcome {
                code: 2,
                stdout,
                stderr: format!(
                    "drift: nothing written: the edited spec would not generate:\n{e}\n"
                ),
            };
        }
    }
    for (name, text) in &report.files {
        let path = root.join(name);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, text));
        if let Err(e) = written {
            return Outcome {
                code: 2,
                stdout,
                stderr: format!("drift: cannot write {}: {e}\n", path.display()),
            };
        }
        stdout.push_str(&format!("wrote {name}\n"));
    }
    Outcome {
        code: 0,
        stdout,
        stderr: String::new(),
    }
}

/// The findings of named texts (JSON lines of findings, or HAR documents read against `api`),
/// and a line of stderr for each line that is not a finding and each HAR that does not read.
pub fn read(api: &Api, texts: &[(String, String)]) -> (Vec<Finding>, String) {
    let mut findings = Vec::new();
    let mut stderr = String::new();
    for (name, text) in texts {
        if har::is_har(text) {
            match har::findings(api, text) {
                Ok(mut found) => findings.append(&mut found),
                Err(e) => stderr.push_str(&format!("drift: {name}: {e}\n")),
            }
            continue;
        }
        let (mut found, problems) = parse_json_lines(text);
        findings.append(&mut found);
        for (line, problem) in problems {
            stderr.push_str(&format!(
                "drift: {name}:{line}: not a finding, skipped: {problem}\n"
            ));
        }
    }
    (findings, stderr)
}

fn failure(stderr: String) -> Outcome {
    Outcome {
        code: 2,
        stdout: String::new(),
        stderr,
    }
}
