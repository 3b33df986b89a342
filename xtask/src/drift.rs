//! `cargo xtask drift FILE...`: what a client (or a proxy) saw of the service that the spec does
//! not describe, read from findings written as JSON lines (`Client::drift().to_json_lines()`),
//! and the spec edits that would describe it (`mrds_codegen::drift`), against the work tree's
//! `spec/`.
//!
//! Exit status: 0 when nothing asks for an edit, 1 when something does, 2 when a file cannot
//! be read or the spec does not load. Lines that are not findings are listed on stderr and
//! skipped.

use std::path::{Path, PathBuf};

use mrds_runtime::drift::parse_json_lines;

/// The arguments of `cargo xtask drift`.
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// Files of findings, one JSON object a line (`-` reads standard input).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// What a run printed and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// 0: nothing to edit; 1: spec edits suggested; 2: a file or the spec could not be read.
    pub code: u8,
    /// The report.
    pub stdout: String,
    /// Problems with the input.
    pub stderr: String,
}

/// Runs the command for the workspace at `root`.
pub fn run(root: &Path, args: &Args) -> Outcome {
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
    let api = match mrds_codegen::load_spec(&root.join("spec")) {
        Ok(api) => api,
        Err(d) => return failure(format!("drift: the spec does not load:\n{d}\n")),
    };
    let (findings, stderr) = read(&texts);
    let report = mrds_codegen::drift::report(&api, &findings);
    Outcome {
        code: u8::from(report.edits > 0),
        stdout: report.text,
        stderr,
    }
}

/// The findings of named texts, and a line of stderr for each line that is not one.
pub fn read(texts: &[(String, String)]) -> (Vec<mrds_runtime::drift::Finding>, String) {
    let mut findings = Vec::new();
    let mut stderr = String::new();
    for (name, text) in texts {
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
