//! Whether the breaking changes are allowed: the exit policy of `cargo xtask spec-diff`.
//!
//! A breaking change passes when
//!
//! - the service's `api_version` was raised by a major step: the number before the first dot
//!   grew (`1.4` → `2.0`); every breaking change passes; or
//! - it adds or removes an endpoint (`endpoint.added`, `endpoint.removed`,
//!   `endpoint.marked_removed`, `endpoint.restored`, a moved endpoint: see [`endpoint_rows`])
//!   and the history lists it: for each method and path, the newest row of the history naming
//!   it says what the new spec says of it (added when the spec serves it, removed when the
//!   spec marks it removed or no longer has it). That row may be new in this change, or one the
//!   history already had (the spec catching up with a provider's release the history records);
//!   an endpoint the history lists as added and later as removed is not acknowledged by the
//!   older row. An endpoint change is acknowledged by these rows only, never by a name in
//!   `breaking`; or
//! - for any other change, a history entry new in this change names it in `breaking`: the
//!   finding's check id (`param.added_required`) or its subject (`bars.venue`). Only what the
//!   new spec's history adds counts (an entry with a date the old history does not have, or
//!   names added to an entry of an existing date): an acknowledgment covers the change it was
//!   written for, not every later change of the same subject.
//!
//! The rows are decided once, here ([`Row`], one list per finding in [`Assessment::rows`]):
//! the report's verdict and `--changelog` both read them, and a row that is not listed says why
//! and what would list it ([`Row::listing`]).
//!
//! Apart from the breaking changes, the assessment says which semver step the generated crates
//! need ([`Changes::step`]) and, when the workspace versions of both sides are known, whether
//! the workspace version steps that far ([`Assessment::with_versions`]).

use std::collections::BTreeSet;

use super::ChangeKind;
use super::semver::{Step, VersionCheck};
use super::service::major;
use super::{Changes, Finding, Impact};
use mrds_spec::model::{Api, ChangeAction, Endpoint, HistoryEntry, Method};

/// Which direction's breaking changes the check fails on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Gate {
    /// Old clients against new servers only.
    Clients,
    /// Old servers answering new clients only.
    Servers,
    /// Both (the default).
    #[default]
    Both,
}

impl Gate {
    /// True when `f` breaks a direction this gate watches.
    pub fn catches(self, f: &Finding) -> bool {
        let clients = f.clients == Impact::Breaking;
        let servers = f.servers == Impact::Breaking;
        match self {
            Gate::Clients => clients,
            Gate::Servers => servers,
            Gate::Both => clients || servers,
        }
    }
}

/// What the policy says about one finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Not breaking in a direction the gate watches.
    Passes,
    /// Breaking, acknowledged by this history entry (`history 2026-09-10 (v0.11.0)`).
    Acknowledged(String),
    /// Breaking, allowed by the major version step.
    MajorStep,
    /// Breaking and neither acknowledged nor allowed.
    Unacknowledged,
}

impl Status {
    /// `passes`, `acknowledged`, `major_step` or `unacknowledged`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Status::Passes => "passes",
            Status::Acknowledged(_) => "acknowledged",
            Status::MajorStep => "major_step",
            Status::Unacknowledged => "unacknowledged",
        }
    }
}

/// One acknowledgment the new history adds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ack {
    /// A row of `changes`: an endpoint added or removed at this method and path.
    Endpoint {
        /// Added or removed.
        action: ChangeAction,
        /// HTTP method.
        method: Method,
        /// Path.
        path: String,
    },
    /// A name of `breaking`: a check id or a subject.
    Name(String),
}

impl std::fmt::Display for Ack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ack::Endpoint {
                action,
                method,
                path,
            } => write!(f, "{} `{method} {path}`", action_word(*action)),
            Ack::Name(name) => write!(f, "breaking `{name}`"),
        }
    }
}

/// An acknowledgment and the history entry it stands in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AckSource {
    /// What it acknowledges.
    pub ack: Ack,
    /// `history 2026-09-10 (v0.11.0)`.
    pub entry: String,
}

/// The verdict on a set of changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assessment {
    /// One status per contract finding, in the order of [`Changes::contract`].
    pub statuses: Vec<Status>,
    /// The endpoint rows of the history each contract finding needs (empty for most), in the
    /// same order: what acknowledges an endpoint change, for the report and the changelog.
    pub rows: Vec<Vec<Row>>,
    /// `api_version` on each side.
    pub versions: (String, String),
    /// True when `api_version` was raised by a major step.
    pub major_step: bool,
    /// The acknowledgments new in this change.
    pub acks: Vec<AckSource>,
    /// Those of them that match no change (each in words).
    pub unused: Vec<String>,
    /// The gate the statuses were decided with.
    pub gate: Gate,
    /// The semver step the generated crates need.
    pub step: Step,
    /// The workspace version on each side and the verdict, when both are known.
    pub version: Option<VersionCheck>,
}

impl Assessment {
    /// True when no breaking change is unacknowledged and the workspace version (when known)
    /// steps far enough.
    pub fn passed(&self) -> bool {
        !self.statuses.contains(&Status::Unacknowledged)
            && self.version.as_ref().is_none_or(VersionCheck::passes)
    }

    /// Checks the workspace version of the base (`old`) and of the change (`new`) against the
    /// step the changes need. With `release`, the base is the last release, so a version left
    /// unchanged fails when a step is needed; otherwise an unchanged version is a change that
    /// is not a release yet, and passes.
    #[must_use]
    pub fn with_versions(mut self, old: &str, new: &str, release: bool) -> Self {
        self.version = Some(VersionCheck::new(old, new, self.step, release));
        self
    }

    /// How many findings have each status: (breaking, acknowledged, major step, unacknowledged).
    pub fn counts(&self) -> (usize, usize, usize, usize) {
        let count = |f: fn(&Status) -> bool| self.statuses.iter().filter(|s| f(s)).count();
        let ack = count(|s| matches!(s, Status::Acknowledged(_)));
        let major = count(|s| matches!(s, Status::MajorStep));
        let unack = count(|s| matches!(s, Status::Unacknowledged));
        (ack + major + unack, ack, major, unack)
    }
}

/// `history 2026-09-10 (v0.11.0)`.
pub fn entry_label(h: &HistoryEntry) -> String {
    label(&h.date, &h.versions)
}

/// The acknowledgments the new history adds to the old one.
pub fn new_acks(old: &Api, new: &Api) -> Vec<AckSource> {
    let mut out = Vec::new();
    for h in &new.history {
        // The old history's entries of that date (there may be several, in several files).
        let before: Vec<&HistoryEntry> = old.history.iter().filter(|o| o.date == h.date).collect();
        let entry = entry_label(h);
        for c in &h.changes {
            let known = before.iter().any(|o| {
                o.changes
                    .iter()
                    .any(|d| d.action == c.action && d.method == c.method && d.path == c.path)
            });
            if !known {
                out.push(AckSource {
                    ack: Ack::Endpoint {
                        action: c.action,
                        method: c.method,
                        path: c.path.clone(),
                    },
                    entry: entry.clone(),
                });
            }
        }
        for name in &h.breaking {
            if !before.iter().any(|o| o.breaking.contains(name)) {
                out.push(AckSource {
                    ack: Ack::Name(name.clone()),
                    entry: entry.clone(),
                });
            }
        }
    }
    out
}

/// One endpoint row of the history a finding needs, and what the history says of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// What the history must say of the endpoint: what the new spec says of it (added when the
    /// spec serves it; removed when the spec marks it removed or no longer has it).
    pub action: ChangeAction,
    /// HTTP method.
    pub method: Method,
    /// Path.
    pub path: String,
    /// The newest row of the new spec's history naming this method and path, if any.
    pub newest: Option<NewestRow>,
}

/// The newest row of the history naming one method and path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewestRow {
    /// What it says.
    pub action: ChangeAction,
    /// Its entry's date.
    pub date: String,
    /// Its entry's versions.
    pub versions: Vec<String>,
}

impl Row {
    /// `GET /v1/trades`.
    pub fn route(&self) -> String {
        format!("{} {}", self.method, self.path)
    }

    /// Whether the history acknowledges the row: `Ok` with the entry of the newest row naming the
    /// endpoint (`history 2026-09-10 (v0.11.0)`) when that row says what the new spec says of
    /// it; otherwise `Err` saying why, naming the row that makes it so, and what would.
    pub fn listing(&self) -> Result<String, String> {
        let path = if self.path.contains(['{', '}']) {
            format!("\"{}\"", self.path)
        } else {
            self.path.clone()
        };
        let list = format!(
            "list `{{ action: {}, method: {}, path: {path} }}` in a new history entry's `changes`",
            action_word(self.action),
            self.method
        );
        let Some(n) = &self.newest else {
            return Err(format!("no history row lists `{}`: {list}", self.route()));
        };
        let (what, fix) = match (n.action, self.action) {
            (newest, needed) if newest == needed => return Ok(label(&n.date, &n.versions)),
            (ChangeAction::Removed, _) => {
                let removed = match n.versions.as_slice() {
                    [one] => format!("`removed: {{ date: {}, version: {one} }}`", n.date),
                    many => format!(
                        "`removed: {{ date: {}, version: ... }}` with one of its versions ({})",
                        n.date,
                        many.join(", ")
                    ),
                };
                (
                    "removal",
                    format!("mark the endpoint {removed} as that row says, or {list}"),
                )
            }
            (ChangeAction::Added, _) => ("addition", list),
        };
        Err(format!(
            "the history's newest row for `{}` is its {what} on {} ({}): {fix}",
            self.route(),
            n.date,
            n.versions.join(", ")
        ))
    }
}

/// `added` or `removed`.
pub fn action_word(action: ChangeAction) -> &'static str {
    match action {
        ChangeAction::Added => "added",
        ChangeAction::Removed => "removed",
    }
}

/// `history 2026-09-10 (v0.11.0)`.
fn label(date: &str, versions: &[String]) -> String {
    format!("history {date} ({})", versions.join(", "))
}

/// The newest row of `api`'s history (sorted newest first) naming `method` and `path`.
fn newest_row(api: &Api, method: Method, path: &str) -> Option<NewestRow> {
    api.history.iter().find_map(|h| {
        let c = h
            .changes
            .iter()
            .find(|c| c.method == method && c.path == path)?;
        Some(NewestRow {
            action: c.action,
            date: h.date.clone(),
            versions: h.versions.clone(),
        })
    })
}

/// The endpoint rows a finding needs to be acknowledged, with what the history says of each;
/// empty for findings that are not about an endpoint appearing or going (and for an endpoint
/// gone from the spec after an earlier release marked it removed: listed back then).
pub fn endpoint_rows(f: &Finding, old: &Api, new: &Api) -> Vec<Row> {
    let on_new = || new.endpoint_named(&f.subject);
    let on_old = || {
        old.endpoint_named(&f.subject).or_else(|| {
            // A renamed endpoint: the old side has it under its old id, at the same place.
            let n = new.endpoint_named(&f.subject)?;
            old.endpoints
                .iter()
                .find(|o| o.method == n.method && o.path == n.path)
        })
    };
    // What the history must say of an endpoint of the new spec.
    let now = |e: &Endpoint| {
        if e.removed.is_some() {
            ChangeAction::Removed
        } else {
            ChangeAction::Added
        }
    };
    let needs: Vec<Option<(ChangeAction, &Endpoint)>> = match f.kind {
        ChangeKind::EndpointAdded | ChangeKind::EndpointRestored => {
            vec![on_new().map(|e| (now(e), e))]
        }
        ChangeKind::EndpointRemoved
            if old
                .endpoint_named(&f.subject)
                .is_some_and(|e| e.removed.is_some()) =>
        {
            Vec::new()
        }
        ChangeKind::EndpointRemoved | ChangeKind::EndpointMarkedRemoved => {
            vec![on_old().map(|e| (ChangeAction::Removed, e))]
        }
        ChangeKind::EndpointPathChanged => vec![
            on_old().map(|e| (ChangeAction::Removed, e)),
            on_new().map(|e| (now(e), e)),
        ],
        _ => Vec::new(),
    };
    needs
        .into_iter()
        .flatten()
        .map(|(action, e)| {
            let (method, path) = (e.method, e.path.to_string());
            Row {
                action,
                newest: newest_row(new, method, &path),
                method,
                path,
            }
        })
        .collect()
}

/// Decides the status of every contract finding.
pub fn assess(changes: &Changes, old: &Api, new: &Api, gate: Gate) -> Assessment {
    let acks = new_acks(old, new);
    let major_step = matches!(
        (major(&old.api_version), major(&new.api_version)),
        (Some(a), Some(b)) if b > a
    );
    let mut used: BTreeSet<usize> = BTreeSet::new();
    // Names of `breaking` matching an endpoint change, which only rows acknowledge.
    let mut misplaced: BTreeSet<usize> = BTreeSet::new();
    let mut statuses = Vec::new();
    let mut all_rows = Vec::new();
    for f in &changes.contract {
        let rows = endpoint_rows(f, old, new);
        let names: Vec<usize> = (acks.iter().enumerate())
            .filter(|(_, a)| {
                matches!(&a.ack, Ack::Name(name) if name == f.kind.id() || *name == f.subject)
            })
            .map(|(i, _)| i)
            .collect();
        let acknowledged = if rows.is_empty() {
            used.extend(&names);
            names.first().map(|&i| acks[i].entry.clone())
        } else {
            misplaced.extend(&names);
            // Endpoint rows acknowledge the endpoint changes they describe, breaking or not.
            for (i, a) in acks.iter().enumerate() {
                if let Ack::Endpoint {
                    action,
                    method,
                    path,
                } = &a.ack
                    && rows
                        .iter()
                        .any(|r| r.action == *action && r.method == *method && r.path == *path)
                {
                    used.insert(i);
                }
            }
            let entries: Result<Vec<String>, String> = rows.iter().map(Row::listing).collect();
            entries.ok().and_then(|e| e.into_iter().next())
        };
        let status = if !gate.catches(f) {
            Status::Passes
        } else if let Some(entry) = acknowledged {
            Status::Acknowledged(entry)
        } else if major_step {
            Status::MajorStep
        } else {
            Status::Unacknowledged
        };
        statuses.push(status);
        all_rows.push(rows);
    }
    let unused = acks
        .iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(i, a)| {
            if misplaced.contains(&i) {
                format!(
                    "{} lists {}, which names an endpoint added or removed: those are acknowledged by a row of `changes`, not by `breaking`",
                    a.entry, a.ack
                )
            } else {
                format!("{} lists {}, which matches no change", a.entry, a.ack)
            }
        })
        .collect();
    Assessment {
        statuses,
        rows: all_rows,
        versions: (old.api_version.clone(), new.api_version.clone()),
        major_step,
        acks,
        unused,
        gate,
        step: changes.step(),
        version: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(action: ChangeAction, path: &str, newest: Option<(ChangeAction, &[&str])>) -> Row {
        Row {
            action,
            method: Method::Get,
            path: path.into(),
            newest: newest.map(|(action, versions)| NewestRow {
                action,
                date: "2026-06-30".into(),
                versions: versions.iter().map(|v| v.to_string()).collect(),
            }),
        }
    }

    #[test]
    fn a_row_is_listed_by_the_newest_row_saying_the_same() {
        let listed = row(
            ChangeAction::Added,
            "/v1/a",
            Some((ChangeAction::Added, &["v0.10.8", "v0.10.9"])),
        );
        assert_eq!(
            listed.listing(),
            Ok("history 2026-06-30 (v0.10.8, v0.10.9)".to_owned())
        );
    }

    #[test]
    fn a_row_that_is_not_listed_names_the_newest_row_and_the_fix() {
        let removed_in_two = row(
            ChangeAction::Added,
            "/v1/items/{id}",
            Some((ChangeAction::Removed, &["v0.10.8", "v0.10.9"])),
        );
        assert_eq!(
            removed_in_two.listing(),
            Err("the history's newest row for `GET /v1/items/{id}` is its removal on 2026-06-30 (v0.10.8, v0.10.9): mark the endpoint `removed: { date: 2026-06-30, version: ... }` with one of its versions (v0.10.8, v0.10.9) as that row says, or list `{ action: added, method: GET, path: \"/v1/items/{id}\" }` in a new history entry's `changes`".to_owned())
        );
        let still_added = row(
            ChangeAction::Removed,
            "/v1/a",
            Some((ChangeAction::Added, &["v0.10.8"])),
        );
        assert_eq!(
            still_added.listing(),
            Err("the history's newest row for `GET /v1/a` is its addition on 2026-06-30 (v0.10.8): list `{ action: removed, method: GET, path: /v1/a }` in a new history entry's `changes`".to_owned())
        );
        assert_eq!(
            row(ChangeAction::Added, "/v1/a", None).listing(),
            Err("no history row lists `GET /v1/a`: list `{ action: added, method: GET, path: /v1/a }` in a new history entry's `changes`".to_owned())
        );
    }
}
