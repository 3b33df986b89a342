//! `cargo xtask spec-diff --changelog`: the spec's change history as the interface
//! description's change-history table (date, version, the endpoints added and removed, and the
//! breaking changes each release acknowledges), then the history checked against what changed
//! since the base: every endpoint added or removed must be listed by the history (the newest row
//! of its method and path, new or one the spec catches up with, says what the spec says of it),
//! every new history row must match a change, every breaking change must be allowed, and the
//! workspace version (when known) must step far enough. Whether a row is listed is the
//! assessment's decision ([`Assessment::rows`]), the one the report's verdict uses.

use super::policy::{Assessment, Status, action_word};
use super::render::{Labels, steps_line, verdict};
use super::{Changes, list};
use mrds_spec::model::{Api, ChangeAction, HistoryEntry};

/// The printed changelog, and whether the history agrees with the changes (and the breaking
/// changes are allowed).
pub fn changelog(changes: &Changes, a: &Assessment, new: &Api, labels: &Labels) -> (String, bool) {
    let mut out = String::from("# Change history\n\n| Date | Version | Changes |\n|---|---|---|\n");
    for h in &new.history {
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            h.date,
            h.versions.join(", "),
            row(h)
        ));
    }
    out.push_str(&format!(
        "\n## Changes from {} to {}, against the history\n\n",
        labels.base, labels.head
    ));
    let mut lines = Vec::new();
    let mut missing = 0;
    for ((f, s), rows) in changes.contract.iter().zip(&a.statuses).zip(&a.rows) {
        for row in rows {
            let action = action_word(row.action);
            let route = row.route();
            match row.listing() {
                Ok(entry) => lines.push(format!(
                    "- {action} `{route}` ({} `{}`): listed by {entry}",
                    f.kind, f.subject
                )),
                Err(why) => {
                    missing += 1;
                    lines.push(format!(
                        "- MISSING: {action} `{route}` ({} `{}`): {why}",
                        f.kind, f.subject
                    ));
                }
            }
        }
        let status = match s {
            Status::Passes => continue,
            Status::Acknowledged(entry) => format!("acknowledged by {entry}"),
            Status::MajorStep => "allowed by the major version step".to_owned(),
            Status::Unacknowledged => "NOT ACKNOWLEDGED".to_owned(),
        };
        lines.push(format!("- breaking: {} `{}`: {status}", f.kind, f.subject));
    }
    for u in &a.unused {
        lines.push(format!("- EXTRA: {u}"));
    }
    if lines.is_empty() {
        lines.push("- no endpoint added or removed, no breaking change".to_owned());
    }
    for l in lines {
        out.push_str(&l);
        out.push('\n');
    }
    let agrees = missing == 0 && a.unused.is_empty();
    out.push_str(&format!("\n{}\n", steps_line(a)));
    if let Some(v) = &a.version {
        out.push_str(&format!("{}\n", v.describe()));
    }
    out.push_str(&format!(
        "\nhistory {}; {}\n",
        if agrees {
            "agrees with the changes".to_owned()
        } else {
            format!(
                "disagrees with the changes: {missing} missing, {} extra",
                a.unused.len()
            )
        },
        verdict(a)
    ));
    (out, agrees && a.passed())
}

/// The changes cell of one history row: `Added `GET /a`; Removed `GET /b`; Breaking: `x``.
fn row(h: &HistoryEntry) -> String {
    let routes = |action: ChangeAction| -> Vec<String> {
        h.changes
            .iter()
            .filter(|c| c.action == action)
            .map(|c| format!("{} {}", c.method, c.path))
            .collect()
    };
    let mut parts = Vec::new();
    let added = routes(ChangeAction::Added);
    if !added.is_empty() {
        parts.push(format!("Added {}", list(&added)));
    }
    let removed = routes(ChangeAction::Removed);
    if !removed.is_empty() {
        parts.push(format!("Removed {}", list(&removed)));
    }
    if !h.breaking.is_empty() {
        parts.push(format!("Breaking: {}", list(&h.breaking)));
    }
    parts.join("; ")
}
