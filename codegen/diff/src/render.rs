//! The report of `cargo xtask spec-diff`: readable text, or JSON (`--format json`). Both list
//! the findings in the order of [`Changes`] (by subject, then check id), so the output of the
//! same two specs never changes.

use serde_json::{Value, json};

use super::policy::{Assessment, Gate, Row, Status};
use super::{Changes, Finding, Impact};
use mrds_spec::diag::Location;

/// What the two sides are, for the report's first line (`base (rev 1a2b3c4)`, `work tree`).
#[derive(Clone, Debug)]
pub struct Labels {
    /// The old spec.
    pub base: String,
    /// The new spec.
    pub head: String,
}

fn location(l: &Option<Location>) -> String {
    l.as_ref()
        .map_or_else(|| "-".to_owned(), Location::to_string)
}

fn gate_words(g: Gate) -> &'static str {
    match g {
        Gate::Clients => "breaking for clients",
        Gate::Servers => "breaking for servers",
        Gate::Both => "breaking for clients or servers",
    }
}

/// The generated crates, which step together (one step per kind of change).
const CRATES: [&str; 3] = ["mrds-model", "mrds-server", "mrds-client"];

/// `semver step needed: mrds-model minor, mrds-server minor, mrds-client minor`: the step the
/// changes need, named for each generated crate.
pub fn steps_line(a: &Assessment) -> String {
    let each: Vec<String> = CRATES.iter().map(|c| format!("{c} {}", a.step)).collect();
    format!("semver step needed: {}", each.join(", "))
}

/// The one-line verdict.
pub fn verdict(a: &Assessment) -> String {
    let (breaking, ack, major, unack) = a.counts();
    let head = if a.passed() { "PASS" } else { "FAIL" };
    let version = match &a.version {
        Some(v) if !v.passes() => "; the workspace version does not step far enough",
        _ => "",
    };
    if breaking == 0 {
        return format!("{head}: no change is {}{version}", gate_words(a.gate));
    }
    let mut parts = vec![format!(
        "{breaking} change{} {} {}",
        if breaking == 1 { "" } else { "s" },
        if breaking == 1 { "is" } else { "are" },
        gate_words(a.gate)
    )];
    if ack > 0 {
        parts.push(format!("{ack} acknowledged in the history"));
    }
    if major > 0 {
        parts.push(format!(
            "{major} allowed by the major version step {} -> {}",
            a.versions.0, a.versions.1
        ));
    }
    if unack > 0 {
        parts.push(format!("{unack} not acknowledged"));
    }
    format!("{head}: {}{version}", parts.join(", "))
}

/// The status of a finding in words; for an unacknowledged change of an endpoint, each history
/// row it needs that the history does not give, and what would give it.
fn status_line(s: &Status, rows: &[Row]) -> Option<String> {
    match s {
        Status::Passes => None,
        Status::Acknowledged(entry) => Some(format!("acknowledged by {entry}")),
        Status::MajorStep => Some("allowed by the major version step".to_owned()),
        Status::Unacknowledged => {
            let missing: Vec<String> = rows.iter().filter_map(|r| r.listing().err()).collect();
            Some(if missing.is_empty() {
                "NOT ACKNOWLEDGED: list it in a new history entry (an endpoint in `changes`, anything else by check id or subject in `breaking`), or raise api_version by a major step if the provider did"
                    .to_owned()
            } else {
                format!(
                    "NOT ACKNOWLEDGED: {}; or raise api_version by a major step if the provider did",
                    missing.join("; ")
                )
            })
        }
    }
}

fn finding_text(out: &mut String, f: &Finding, status: Option<(&Status, &[Row])>) {
    out.push_str(&format!("{} {}\n", f.kind, f.subject));
    if !f.is_documentation() {
        out.push_str(&format!(
            "  clients: {}, servers: {}\n",
            f.clients, f.servers
        ));
    }
    out.push_str(&format!("  {}\n", f.explanation));
    out.push_str(&format!(
        "  old: {}\n  new: {}\n",
        location(&f.old),
        location(&f.new)
    ));
    if let Some(line) = status.and_then(|(s, rows)| status_line(s, rows)) {
        out.push_str(&format!("  {line}\n"));
    }
}

/// The report as text.
pub fn text(changes: &Changes, a: &Assessment, labels: &Labels) -> String {
    let mut out = format!(
        "spec-diff: {} -> {}\napi_version {} -> {} (the provider's interface version{})\n{}\n",
        labels.base,
        labels.head,
        a.versions.0,
        a.versions.1,
        if a.major_step { "; a major step" } else { "" },
        steps_line(a)
    );
    if let Some(v) = &a.version {
        out.push_str(&format!("{}\n", v.describe()));
    }
    let count = |p: fn(&Finding) -> bool| changes.contract.iter().filter(|f| p(f)).count();
    let n = changes.contract.len();
    if n == 0 {
        out.push_str("\nno contract change\n");
    } else {
        out.push_str(&format!(
            "\n{n} contract change{}: {} breaking for clients, {} breaking for servers, {} documentation only\n",
            if n == 1 { "" } else { "s" },
            count(|f| f.clients == Impact::Breaking),
            count(|f| f.servers == Impact::Breaking),
            count(Finding::is_documentation),
        ));
        for ((f, s), rows) in changes.contract.iter().zip(&a.statuses).zip(&a.rows) {
            out.push('\n');
            finding_text(&mut out, f, Some((s, rows)));
        }
    }
    if !changes.samples.is_empty() {
        out.push_str(&format!(
            "\n{} sample-data change{} (not part of the contract):\n",
            changes.samples.len(),
            if changes.samples.len() == 1 { "" } else { "s" }
        ));
        for f in &changes.samples {
            out.push('\n');
            finding_text(&mut out, f, None);
        }
    }
    if !a.unused.is_empty() {
        out.push_str("\nnotes:\n");
        for u in &a.unused {
            out.push_str(&format!("  {u}\n"));
        }
    }
    out.push_str(&format!("\n{}\n", verdict(a)));
    out
}

fn location_json(l: &Option<Location>) -> Value {
    match l {
        None => Value::Null,
        Some(l) => json!({ "file": l.file, "line": l.line, "column": l.column }),
    }
}

fn finding_json(f: &Finding, status: Option<&Status>) -> Value {
    let mut v = json!({
        "check": f.kind.id(),
        "subject": f.subject,
        "clients": f.clients.as_str(),
        "servers": f.servers.as_str(),
        "explanation": f.explanation,
        "old": location_json(&f.old),
        "new": location_json(&f.new),
    });
    if let Some(s) = status {
        v["status"] = json!(s.as_str());
        v["acknowledged_by"] = match s {
            Status::Acknowledged(entry) => json!(entry),
            _ => Value::Null,
        };
    }
    v
}

/// The report as pretty-printed JSON (keys sorted; findings in report order), with a final
/// line break.
pub fn json(changes: &Changes, a: &Assessment, labels: &Labels) -> String {
    let mut text = serde_json::to_string_pretty(&json_value(changes, a, labels))
        .expect("a JSON value always serializes");
    text.push('\n');
    text
}

/// The step of each generated crate and of the workspace: the one step the changes need.
fn semver_json(a: &Assessment) -> Value {
    let mut v = json!({ "workspace": a.step.as_str() });
    for c in CRATES {
        v[c] = json!(a.step.as_str());
    }
    v
}

/// The report as a JSON value.
pub fn json_value(changes: &Changes, a: &Assessment, labels: &Labels) -> Value {
    let (breaking, ack, major, unack) = a.counts();
    json!({
        "base": labels.base,
        "head": labels.head,
        "api_version": { "old": a.versions.0, "new": a.versions.1, "major_step": a.major_step },
        "gate": match a.gate { Gate::Clients => "clients", Gate::Servers => "servers", Gate::Both => "both" },
        "semver": semver_json(a),
        "workspace_version": a.version.as_ref().map_or(Value::Null, |v| json!({
            "old": v.old,
            "new": v.new,
            "passes": v.passes(),
            "verdict": v.describe(),
        })),
        "changes": changes.contract.iter().zip(&a.statuses).map(|(f, s)| finding_json(f, Some(s))).collect::<Vec<_>>(),
        "sample_changes": changes.samples.iter().map(|f| finding_json(f, None)).collect::<Vec<_>>(),
        "notes": a.unused,
        "summary": {
            "changes": changes.contract.len(),
            "breaking": breaking,
            "acknowledged": ack,
            "major_step": major,
            "unacknowledged": unack,
            "passed": a.passed(),
        },
        "verdict": verdict(a),
    })
}
