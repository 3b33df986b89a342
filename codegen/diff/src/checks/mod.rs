//! The kinds of change `spec-diff` reports, as data: one [`ChangeKind`] variant each, with its
//! stable id (the report's check id), what it means, how it lands for old clients and for old
//! servers, and the semver step the generated crates need for it ([`KindInfo`]).
//!
//! A kind either fixes its impact in a direction ([`KindImpact::Fixed`]) or leaves it to each
//! finding ([`KindImpact::ByFinding`]: a rule added on parameters old clients never send, a
//! type that may or may not decode, ...). A finding takes the fixed impacts from its kind: a
//! site that reports a finding names its kind by the kind's handle in `kind`, which is the
//! `Classified` kind itself when the kind fixes both impacts (`kind::ParamAddedRequired`), and
//! otherwise gives one only through a method taking the impacts the finding decides
//! (`kind::RuleAdded.clients(impact)`). So a site can neither give an impact the kind fixes nor
//! leave out one it must decide, and a kind no site reports is a handle never used, which the
//! compiler names. The declarations' grammar is `declare.rs`'s.
//!
//! The README's table of checks is generated from here ([`readme_table`]) and kept in step by
//! `cargo xtask codegen --check`.
//!
//! This module holds what a kind carries and the table of checks; [`kinds`] declares every
//! kind (one `kinds!` declaration, which defines `ChangeKind` and the handles in `kind`).

use std::fmt;

use crate::impact::{Impacts, KindImpact};
use crate::semver::Step;

pub use kinds::ChangeKind;
pub(crate) use kinds::kind;

mod kinds;
#[cfg(test)]
mod tests;

/// Everything a [`ChangeKind`] carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindInfo {
    /// The stable id (`param.added_required`).
    pub id: &'static str,
    /// What changed, in a few words.
    pub summary: &'static str,
    /// How it lands for code generated from the old spec calling new servers.
    pub clients: KindImpact,
    /// How it lands for old servers answering clients generated from the new spec.
    pub servers: KindImpact,
    /// The semver step the generated crates need for it (see [`ChangeKind::step`]).
    pub step: Step,
}

/// A kind of change with its impact in each direction: the kind's fixed impacts, and those the
/// finding decided where the kind leaves them to it. Made only by the handles in [`kind`], so
/// it always agrees with the kind's [`KindInfo`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Classified {
    kind: ChangeKind,
    impacts: Impacts,
}

impl Classified {
    /// The kind of change.
    pub(crate) fn kind(self) -> ChangeKind {
        self.kind
    }

    /// Its impact in each direction.
    pub(crate) fn impacts(self) -> Impacts {
        self.impacts
    }
}

impl ChangeKind {
    /// The stable id (`param.added_required`).
    pub const fn id(self) -> &'static str {
        self.info().id
    }

    /// What changed, in a few words.
    pub const fn summary(self) -> &'static str {
        self.info().summary
    }

    /// The semver step the generated crates need for a change of this kind, under the policy
    /// of the README (*Versions, publishing and semver*). One step for the three: the server
    /// and client crates re-export the model crate and take its types in their own API, and
    /// the crates share one version, so a step of one is a step of all.
    pub const fn step(self) -> Step {
        self.info().step
    }

    /// The kind of change with this id.
    pub fn from_id(id: &str) -> Option<ChangeKind> {
        ChangeKind::ALL.iter().copied().find(|c| c.id() == id)
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The README's table of checks (Markdown), one row per kind of change.
pub fn readme_table() -> String {
    let mut out = String::from(
        "| check id | change | old clients | old servers | semver |\n\
         |---|---|---|---|---|\n",
    );
    for kind in ChangeKind::ALL {
        let i = kind.info();
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            i.id, i.summary, i.clients, i.servers, i.step
        ));
    }
    out
}
