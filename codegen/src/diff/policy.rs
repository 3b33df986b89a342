//! Whether the breaking changes are allowed: the exit policy of `cargo xtask spec-diff`.
//!
//! A breaking change passes when
//!
//! - the service's `api_version` was raised by a major step: the number before the first dot
//!   grew (`1.4` → `2.0`); every breaking change passes; or
//! - a history entry new in this change acknowledges it: its `changes` list the endpoint added,
//!   removed (or marked removed) at that method and path, or its `breaking` list names the
//!   finding's check id (`param.added_required`) or its subject (`bars.venue`); or
//! - for an endpoint added or removed, the history already says so: the newest row of the
//!   history for that method and path is that addition or removal. The spec is catching up with
//!   the provider, whose release the entry records.
//!
//! Otherwise only what the new spec's history adds counts (an entry with a date the old history
//! does not have, or rows and names added to an existing entry): an acknowledgment covers the
//! change it was written for, not every later change of the same subject.
//!
//! Apart from the breaking changes, the assessment says which semver step each generated crate
//! needs ([`super::semver`]) and, when the workspace versions of both sides are known, whether
//! the workspace version steps that far ([`Assessment::with_versions`]).

use std::collections::BTreeSet;

use super::Check;
use super::endpoints::route;
use super::semver::{self, VersionCheck};
use super::service::major;
use super::{Changes, Finding, Impact, Steps};
use crate::model::{Api, ChangeAction, HistoryEntry};

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
        method: String,
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
            } => {
                let action = match action {
                    ChangeAction::Added => "added",
                    ChangeAction::Removed => "removed",
                };
                write!(f, "{action} `{method} {path}`")
            }
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
    /// The semver step each generated crate needs.
    pub steps: Steps,
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
        self.version = Some(VersionCheck::new(old, new, self.steps.largest(), release));
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
    format!("history {} ({})", h.date, h.versions.join(", "))
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
                        method: c.method.clone(),
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

/// The endpoint rows (action, `METHOD path`) a finding needs to be acknowledged by the history
/// alone; empty for findings that are not about an endpoint appearing or going.
pub fn endpoint_rows(f: &Finding, old: &Api, new: &Api) -> Vec<(ChangeAction, String)> {
    let on_new = || new.endpoint_named(&f.subject).map(route);
    let on_old = || {
        old.endpoint_named(&f.subject)
            .or_else(|| {
                // A renamed endpoint: the old side has it under its old id, at the same place.
                let n = new.endpoint_named(&f.subject)?;
                old.endpoints
                    .iter()
                    .find(|o| o.method == n.method && o.path == n.path)
            })
            .map(route)
    };
    let rows = match f.check {
        Check::EndpointAdded | Check::EndpointRestored => vec![(ChangeAction::Added, on_new())],
        // Gone from the spec after an earlier release marked it removed: listed back then.
        Check::EndpointRemoved
            if old
                .endpoint_named(&f.subject)
                .is_some_and(|e| e.removed.is_some()) =>
        {
            Vec::new()
        }
        Check::EndpointRemoved | Check::EndpointMarkedRemoved => {
            vec![(ChangeAction::Removed, on_old())]
        }
        Check::EndpointPathChanged | Check::EndpointMethodChanged => vec![
            (ChangeAction::Removed, on_old()),
            (ChangeAction::Added, on_new()),
        ],
        _ => Vec::new(),
    };
    rows.into_iter()
        .filter_map(|(action, route)| route.map(|r| (action, r)))
        .collect()
}

/// The history entry acknowledging the endpoint row (`action`, `route`): a new one listing it,
/// or else the newest entry of `new`'s history naming the route, when it lists that action (the
/// spec catching up with a release the history already records).
pub fn row_acknowledgment(
    acks: &[AckSource],
    new: &Api,
    action: ChangeAction,
    route: &str,
) -> Option<String> {
    let fresh = acks.iter().find_map(|a| match &a.ack {
        Ack::Endpoint {
            action: b,
            method,
            path,
        } if *b == action && format!("{method} {path}") == route => Some(a.entry.clone()),
        _ => None,
    });
    fresh.or_else(|| {
        new.history.iter().find_map(|h| {
            let latest = h
                .changes
                .iter()
                .find(|c| format!("{} {}", c.method, c.path) == route)?;
            Some((latest.action == action).then(|| entry_label(h)))
        })?
    })
}

/// Decides the status of every contract finding.
pub fn assess(changes: &Changes, old: &Api, new: &Api, gate: Gate) -> Assessment {
    let acks = new_acks(old, new);
    let major_step = matches!(
        (major(&old.api_version), major(&new.api_version)),
        (Some(a), Some(b)) if b > a
    );
    let mut used: BTreeSet<usize> = BTreeSet::new();
    let mut statuses = Vec::new();
    for f in &changes.contract {
        // Endpoint rows acknowledge the endpoint changes they describe, breaking or not.
        let rows = endpoint_rows(f, old, new);
        let mut by_rows = None;
        if !rows.is_empty() {
            let entries: Vec<Option<String>> = rows
                .iter()
                .map(|(action, route)| row_acknowledgment(&acks, new, *action, route))
                .collect();
            for (i, a) in acks.iter().enumerate() {
                if let Ack::Endpoint {
                    action,
                    method,
                    path,
                } = &a.ack
                    && rows
                        .iter()
                        .any(|(b, r)| b == action && *r == format!("{method} {path}"))
                {
                    used.insert(i);
                }
            }
            if entries.iter().all(Option::is_some) {
                by_rows = entries.into_iter().flatten().next();
            }
        }
        let mut by_name = None;
        for (i, a) in acks.iter().enumerate() {
            if let Ack::Name(name) = &a.ack
                && (name == f.check.id() || *name == f.subject)
            {
                used.insert(i);
                by_name.get_or_insert_with(|| a.entry.clone());
            }
        }
        let status = if !gate.catches(f) {
            Status::Passes
        } else if let Some(entry) = by_rows.or(by_name) {
            Status::Acknowledged(entry)
        } else if major_step {
            Status::MajorStep
        } else {
            Status::Unacknowledged
        };
        statuses.push(status);
    }
    let unused = acks
        .iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(_, a)| format!("{} lists {}, which matches no change", a.entry, a.ack))
        .collect();
    Assessment {
        statuses,
        versions: (old.api_version.clone(), new.api_version.clone()),
        major_step,
        acks,
        unused,
        gate,
        steps: semver::needed(changes),
        version: None,
    }
}
