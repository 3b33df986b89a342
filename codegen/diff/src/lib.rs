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
//! Each kind of change is data in [`checks`] ([`ChangeKind::info`]): its id, what it fixes of
//! the impacts (or leaves to each finding, [`KindImpact`]) and its semver step. The table of
//! `README.md` (*Checking spec changes*) is generated from it.

mod body;
pub mod checks;
mod declare;
mod endpoints;
mod impact;
pub mod lang;
mod params;
pub mod policy;
pub mod render;
mod rules;
pub mod semver;
mod service;
pub mod touched;
mod types;

pub mod changelog;

use checks::Classified;
use impact::Impacts;
use mrds_spec::diag::{Location, list};
use mrds_spec::model::Api;
use semver::Step;

pub use checks::{ChangeKind, KindInfo};
pub use impact::{Impact, KindImpact};
pub use policy::{Assessment, Gate, Status, assess};

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

/// The comparison under way.
struct Diff<'a> {
    old: &'a Api,
    new: &'a Api,
    out: Changes,
}

/// A value on each side of the comparison: the old spec's and the new one's.
#[derive(Clone, Copy, Debug)]
struct Sides<T> {
    old: T,
    new: T,
}

/// Where a change stands in the old and in the new spec (an addition has no old place, a
/// removal may have no new one).
type Places<'a> = Sides<Option<&'a Location>>;

impl Finding {
    fn new(kind: Classified, subject: String, explanation: String, at: Places<'_>) -> Finding {
        let Impacts { clients, servers } = kind.impacts();
        Finding {
            kind: kind.kind(),
            subject,
            clients,
            servers,
            explanation,
            old: at.old.cloned(),
            new: at.new.cloned(),
        }
    }
}

impl Diff<'_> {
    /// Records a contract change of `kind` (a handle of [`checks::kind`], with the impacts the
    /// finding decides where the kind leaves them to it), at its places in the two specs.
    fn push(
        &mut self,
        kind: Classified,
        subject: impl Into<String>,
        explanation: impl Into<String>,
        at: Places<'_>,
    ) {
        let finding = Finding::new(kind, subject.into(), explanation.into(), at);
        self.out.contract.push(finding);
    }

    /// Records a change of the sample data, at its places in the old and the new spec.
    fn push_sample(
        &mut self,
        kind: Classified,
        subject: impl Into<String>,
        explanation: impl Into<String>,
        at: Places<'_>,
    ) {
        let finding = Finding::new(kind, subject.into(), explanation.into(), at);
        self.out.samples.push(finding);
    }

    /// Records a generated Rust name that changed while the wire stays the same: nothing for
    /// the wire, a major step for the crates.
    fn rust_renamed(&mut self, subject: &str, names: Sides<&str>, at: Places<'_>) {
        let Sides { old, new } = names;
        if old != new {
            self.push(
                checks::kind::RustRenamed,
                subject,
                format!(
                    "the Rust name `{old}` of `{subject}` became `{new}`; the wire does not change"
                ),
                at,
            );
        }
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
