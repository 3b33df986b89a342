//! One check of the whole spec as the editor has it: the loader's and checker's diagnostics
//! (`mrds_spec`, the same reading and rules as `cargo xtask codegen`), the index of names,
//! and spec-diff's verdict against the base (`mrds_diff`), as the protocol's diagnostics by
//! file.

use std::collections::BTreeMap;

use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString, Range};
use mrds_diff::{Finding, Impact, Status};
use mrds_spec::Api;
use mrds_spec::diag::Location;
use mrds_spec::index::{self, Index};
use serde_json::json;

use crate::text::Lines;

/// The source of the checker's diagnostics.
pub const SPEC: &str = "mrds-spec";
/// The source of spec-diff's.
pub const SPEC_DIFF: &str = "spec-diff";

/// What one check found.
pub struct Analysis {
    /// The workspace generation checked.
    pub generation: u64,
    /// The files checked, by name, in load order (file `i` of every span).
    pub sources: Vec<(String, String)>,
    /// The diagnostics of every file, by name (every file has an entry, empty when clean).
    pub diagnostics: BTreeMap<String, Vec<Diagnostic>>,
    /// The resolved model, when the spec checks.
    pub api: Option<Api>,
    /// Where every name is defined and used.
    pub index: Index,
    /// spec-diff's findings against the base, with their status, when both sides load.
    pub findings: Vec<(Finding, Status)>,
}

impl Analysis {
    /// The number of a file in the load.
    pub fn file_id(&self, name: &str) -> Option<u32> {
        self.sources
            .iter()
            .position(|(n, _)| n == name)
            .and_then(|i| u32::try_from(i).ok())
    }

    /// The name and text of file number `id`.
    pub fn file(&self, id: u32) -> Option<(&str, &str)> {
        self.sources
            .get(id as usize)
            .map(|(n, t)| (n.as_str(), t.as_str()))
    }

    /// The text of the file named `name`.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.sources
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.as_str())
    }
}

/// Checks `sources` (file `i` of the load is `sources[i]`) and compares the result with
/// `base` when given.
pub fn analyze(generation: u64, sources: Vec<(String, String)>, base: Option<&Api>) -> Analysis {
    // Each file is read once: what the index is built from is what the checker checks.
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for parsed in index::parse_each(&sources) {
        match parsed {
            Ok(file) => files.push(file),
            Err(mut e) => errors.append(&mut e),
        }
    }
    let index = Index::build(&files, &sources);
    let checked = if errors.is_empty() {
        mrds_spec::check::check(&files)
    } else {
        let mut d = mrds_spec::Diagnostics(errors);
        d.normalize();
        Err(d)
    };
    drop(files);
    let mut diagnostics: BTreeMap<String, Vec<Diagnostic>> = sources
        .iter()
        .map(|(name, _)| (name.clone(), Vec::new()))
        .collect();
    let lines: BTreeMap<&str, Lines<'_>> = sources
        .iter()
        .map(|(n, t)| (n.as_str(), Lines::new(t)))
        .collect();
    let (api, findings) = match checked {
        Ok(api) => {
            let findings = base.map(|base| verdict(base, &api)).unwrap_or_default();
            for (finding, status) in &findings {
                if let Some((name, d)) = finding_diagnostic(finding, status, &lines) {
                    diagnostics.entry(name).or_default().push(d);
                }
            }
            (Some(api), findings)
        }
        Err(found) => {
            for d in found.0 {
                let (name, range) = match &d.location {
                    Some(loc) => match lines.get(loc.file.as_str()) {
                        Some(l) => (loc.file.clone(), token_range(l, loc)),
                        None => (loc.file.clone(), Range::default()),
                    },
                    // A problem of the directory as a whole stands at the top of the first file.
                    None => match sources.first() {
                        Some((name, _)) => (name.clone(), Range::default()),
                        None => continue,
                    },
                };
                let message = match &d.hint {
                    Some(hint) => format!("{}\nhint: {hint}", d.message),
                    None => d.message.clone(),
                };
                diagnostics.entry(name).or_default().push(Diagnostic {
                    range,
                    severity: Some(DiagnosticSeverity::ERROR),
                    source: Some(SPEC.to_owned()),
                    message,
                    data: d.hint.as_ref().map(|h| json!({ "hint": h })),
                    ..Diagnostic::default()
                });
            }
            (None, Vec::new())
        }
    };
    drop(lines);
    Analysis {
        generation,
        sources,
        diagnostics,
        api,
        index,
        findings,
    }
}

/// spec-diff of `base` against `new`: each contract change with the policy's status (both
/// directions gated, as `cargo xtask spec-diff` does by default).
pub fn verdict(base: &Api, new: &Api) -> Vec<(Finding, Status)> {
    let changes = mrds_diff::compare(base, new);
    let assessment = mrds_diff::assess(&changes, base, new, mrds_diff::Gate::Both);
    changes
        .contract
        .into_iter()
        .zip(assessment.statuses)
        .collect()
}

/// The words of a status and impact: `breaking, not acknowledged by the history`.
pub fn verdict_words(f: &Finding, status: &Status) -> String {
    match status {
        Status::Unacknowledged => {
            "breaking, not acknowledged by the history (add a history row: see the code action)"
                .to_owned()
        }
        Status::Acknowledged(entry) => format!("breaking, acknowledged by {entry}"),
        Status::MajorStep => "breaking, allowed by the major version step".to_owned(),
        Status::Passes if f.is_documentation() => "documentation only".to_owned(),
        Status::Passes => "compatible".to_owned(),
    }
}

/// A finding as a diagnostic at the changed line (the new side's place, or, for something
/// removed, where the base had it when that file is still there).
fn finding_diagnostic(
    f: &Finding,
    status: &Status,
    lines: &BTreeMap<&str, Lines<'_>>,
) -> Option<(String, Diagnostic)> {
    let loc = f.new.as_ref().or(f.old.as_ref())?;
    let l = lines.get(loc.file.as_str())?;
    let range = if f.new.is_some() {
        token_range(l, loc)
    } else {
        let line = (loc.line as u32).min(l.count() as u32).max(1);
        l.range(line, 1, 0)
    };
    let severity = match status {
        Status::Unacknowledged => DiagnosticSeverity::ERROR,
        Status::Acknowledged(_) | Status::MajorStep => DiagnosticSeverity::INFORMATION,
        Status::Passes => DiagnosticSeverity::HINT,
    };
    let impact = |i: Impact| i.as_str();
    let message = format!(
        "{} `{}`: {}\n{} (old clients: {}; old servers: {})",
        f.kind.id(),
        f.subject,
        f.explanation,
        verdict_words(f, status),
        impact(f.clients),
        impact(f.servers),
    );
    Some((
        loc.file.clone(),
        Diagnostic {
            range,
            severity: Some(severity),
            code: Some(NumberOrString::String(f.kind.id().to_owned())),
            source: Some(SPEC_DIFF.to_owned()),
            message,
            data: Some(json!({
                "check": f.kind.id(),
                "subject": f.subject,
                "status": status.as_str(),
            })),
            ..Diagnostic::default()
        },
    ))
}

/// The range of the word at a place: up to a space, a comma, a bracket or the line's end (at
/// least one character).
pub fn token_range(l: &Lines<'_>, loc: &Location) -> Range {
    let line = u32::try_from(loc.line).unwrap_or(u32::MAX);
    let column = u32::try_from(loc.column).unwrap_or(u32::MAX);
    let text = l.line((line as usize).saturating_sub(1));
    let rest = text.chars().skip((column as usize).saturating_sub(1));
    let mut len = 0u32;
    let mut quote = None;
    for (i, c) in rest.enumerate() {
        match quote {
            Some(q) if c == q && i > 0 => {
                len += 1;
                break;
            }
            Some(_) => {}
            None if i == 0 && (c == '"' || c == '\'') => quote = Some(c),
            None if c.is_whitespace() || ",[]{}".contains(c) => break,
            None => {}
        }
        len += 1;
    }
    l.range(line, column, len.max(1))
}
