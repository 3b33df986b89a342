//! Breaking-change check between two revisions of the spec: what `cargo xtask spec-diff`
//! reports.
//!
//! [`compare`] takes two resolved models (both loaded and checked) and lists every change as a
//! [`Finding`]: a stable check id (`param.added_required`), the subject (an endpoint id, a
//! parameter `endpoint.param`, a rule id, a record `Record` or field `Record.field`, a value
//! `ValueSet.value`, ...), where it stands on each side, a one-line explanation, and how it
//! lands in each direction of a deployment:
//!
//! - **clients**: code generated from the old spec calling a server built from the new one;
//! - **servers**: a server built from the old spec answering clients generated from the new.
//!
//! Each direction is [`Impact::Breaking`] (a request that worked fails, or an answer no longer
//! decodes or means something else), [`Impact::Compatible`] (everything that worked still works)
//! or [`Impact::Documentation`] (nothing on the wire changes: docs, summaries, provenance,
//! generated Rust names). Changes of `samples:` are listed apart ([`Changes::samples`]): they
//! are sample data, never part of the contract.
//!
//! Whether the breaking changes are allowed is [`policy`]'s question (a major version step, or
//! an acknowledgment in a new `history:` entry); [`render`] prints the report as text or JSON;
//! [`changelog`] prints the change history and checks it against what changed.
//!
//! The classification of each kind of change, per direction, is in `README.md` (*Checking
//! spec changes*, generated from [`ChangeKind`]).

mod body;
pub mod checks;
mod endpoints;
pub mod lang;
mod params;
pub mod policy;
pub mod render;
mod rules;
pub mod semver;
mod service;
mod types;

pub mod changelog;

use std::fmt;

use crate::diag::Location;
use crate::model::Api;
use semver::Step;

pub use checks::{ChangeKind, KindInfo};
pub use policy::{Assessment, Gate, Status, assess};

/// How a change lands in one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Impact {
    /// Something that worked no longer does.
    Breaking,
    /// Everything that worked still works.
    Compatible,
    /// Nothing on the wire changes.
    Documentation,
}

impl Impact {
    /// `breaking`, `compatible` or `documentation`.
    pub fn as_str(self) -> &'static str {
        match self {
            Impact::Breaking => "breaking",
            Impact::Compatible => "compatible",
            Impact::Documentation => "documentation",
        }
    }
}

impl fmt::Display for Impact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One change between the two specs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The kind of change, with its stable id (`param.added_required`).
    pub kind: ChangeKind,
    /// What changed: `endpoint`, `endpoint.param`, a rule id, `Record`, `Record.field`,
    /// `ValueSet`, `ValueSet.value`, `ErrorCode.CODE`, `envelope.field`, `service`, `auth`,
    /// `history.DATE`.
    pub subject: String,
    /// Old clients against new servers.
    pub clients: Impact,
    /// Old servers answering new clients.
    pub servers: Impact,
    /// One line: what changed and why it lands as it does.
    pub explanation: String,
    /// Where the old spec has it.
    pub old: Option<Location>,
    /// Where the new spec has it.
    pub new: Option<Location>,
}

impl Finding {
    /// True when the change breaks either direction.
    pub fn is_breaking(&self) -> bool {
        self.clients == Impact::Breaking || self.servers == Impact::Breaking
    }

    /// True when nothing on the wire changes in either direction.
    pub fn is_documentation(&self) -> bool {
        self.clients == Impact::Documentation && self.servers == Impact::Documentation
    }

    fn sort_key(&self) -> (&str, &str, &str) {
        (&self.subject, self.kind.id(), &self.explanation)
    }
}

/// Everything that changed, each list sorted by subject, then check id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Changes of the contract.
    pub contract: Vec<Finding>,
    /// Changes of the sample data (`samples:`); their impacts are always documentation.
    pub samples: Vec<Finding>,
}

impl Changes {
    /// True when nothing changed at all.
    pub fn is_empty(&self) -> bool {
        self.contract.is_empty() && self.samples.is_empty()
    }

    /// The semver step the generated crates need for these changes: the largest of their
    /// kinds' (sample data included: the crates' READMEs and the OpenAPI document show
    /// samples).
    pub fn step(&self) -> Step {
        (self.contract.iter().chain(&self.samples))
            .map(|f| f.kind.step())
            .max()
            .unwrap_or_default()
    }
}

/// Compares two resolved specs: every change, classified for clients and servers.
pub fn compare(old: &Api, new: &Api) -> Changes {
    let mut d = Diff {
        old,
        new,
        out: Changes::default(),
    };
    d.service();
    d.error_codes();
    d.history();
    d.value_sets();
    d.records();
    d.endpoints();
    d.out
        .contract
        .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    d.out
        .samples
        .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    d.out
}

/// Impacts (clients, servers) of the common cases.
pub(crate) mod impact {
    use super::Impact::{self, *};

    /// Old clients break; old servers are fine.
    pub const CLIENTS_BREAK: (Impact, Impact) = (Breaking, Compatible);
    /// Old servers break; old clients are fine.
    pub const SERVERS_BREAK: (Impact, Impact) = (Compatible, Breaking);
    /// Both break.
    pub const BOTH_BREAK: (Impact, Impact) = (Breaking, Breaking);
    /// Both are fine.
    pub const COMPATIBLE: (Impact, Impact) = (Compatible, Compatible);
    /// Nothing on the wire.
    pub const DOCS: (Impact, Impact) = (Documentation, Documentation);

    /// Breaking when `breaks`, compatible otherwise.
    pub fn breaks(breaks: bool) -> Impact {
        if breaks { Breaking } else { Compatible }
    }
}

/// The comparison under way.
struct Diff<'a> {
    old: &'a Api,
    new: &'a Api,
    out: Changes,
}

impl Diff<'_> {
    /// Records a contract change, at its places in the old and the new spec.
    fn push(
        &mut self,
        kind: ChangeKind,
        subject: impl Into<String>,
        (clients, servers): (Impact, Impact),
        explanation: impl Into<String>,
        (old, new): (Option<&Location>, Option<&Location>),
    ) {
        self.out.contract.push(Finding {
            kind,
            subject: subject.into(),
            clients,
            servers,
            explanation: explanation.into(),
            old: old.cloned(),
            new: new.cloned(),
        });
    }

    /// Records a generated Rust name that changed (`old` → `new`) while the wire stays the
    /// same: nothing for the wire, a major step for the crates.
    fn rust_renamed(
        &mut self,
        subject: &str,
        (old, new): (&str, &str),
        (old_at, new_at): (Option<&Location>, Option<&Location>),
    ) {
        if old != new {
            self.push(
                ChangeKind::RustRenamed,
                subject,
                impact::DOCS,
                format!(
                    "the Rust name `{old}` of `{subject}` became `{new}`; the wire does not change"
                ),
                (old_at, new_at),
            );
        }
    }

    /// Records a change of the sample data, at its places in the old and the new spec.
    fn push_sample(
        &mut self,
        kind: ChangeKind,
        subject: impl Into<String>,
        explanation: impl Into<String>,
        (old, new): (Option<&Location>, Option<&Location>),
    ) {
        self.out.samples.push(Finding {
            kind,
            subject: subject.into(),
            clients: Impact::Documentation,
            servers: Impact::Documentation,
            explanation: explanation.into(),
            old: old.cloned(),
            new: new.cloned(),
        });
    }
}

/// The names of the parts of two texts' owners that differ (`summary, doc`), or `None`.
fn changed_parts(parts: &[(&str, bool)]) -> Option<String> {
    let changed: Vec<&str> = parts
        .iter()
        .filter(|(_, differs)| *differs)
        .map(|(name, _)| *name)
        .collect();
    (!changed.is_empty()).then(|| changed.join(", "))
}

/// `a`, `b` and `c` (each in backticks).
fn list<S: AsRef<str>>(items: &[S]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("`{}`", i.as_ref())).collect();
    match quoted.len() {
        0 => "nothing".into(),
        1 => quoted[0].clone(),
        n => format!("{} and {}", quoted[..n - 1].join(", "), quoted[n - 1]),
    }
}
