//! How a change lands in one direction ([`Impact`]; both: [`Impacts`]), and how a kind of
//! change decides it ([`KindImpact`]): fixed for every finding of the kind, or left to each
//! finding.

use std::fmt;

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

    /// Breaking when `breaks`, compatible otherwise.
    pub fn breaking_if(breaks: bool) -> Impact {
        if breaks {
            Impact::Breaking
        } else {
            Impact::Compatible
        }
    }
}

impl fmt::Display for Impact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An impact in each direction: what a finding decides for a kind that leaves both to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Impacts {
    /// Old clients against new servers.
    pub clients: Impact,
    /// Old servers answering new clients.
    pub servers: Impact,
}

/// How a kind of change lands in one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KindImpact {
    /// Every finding of the kind lands so.
    Fixed {
        /// The impact.
        impact: Impact,
        /// Why, when the README's table says (`old servers ignore it`).
        why: Option<&'static str>,
    },
    /// Each finding decides, from what changed.
    ByFinding {
        /// How, in the README's table's words (`breaking unless the old record decodes the
        /// new one`; `a / b` for the cases the kind's summary names, in order).
        rule: &'static str,
    },
}

impl KindImpact {
    /// The impact every finding of the kind has, if the kind fixes it.
    pub fn fixed(self) -> Option<Impact> {
        match self {
            KindImpact::Fixed { impact, .. } => Some(impact),
            KindImpact::ByFinding { .. } => None,
        }
    }
}

/// The README's cell: `compatible`, `compatible: old servers ignore it`, or the rule.
impl fmt::Display for KindImpact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KindImpact::Fixed { impact, why: None } => write!(f, "{impact}"),
            KindImpact::Fixed {
                impact,
                why: Some(why),
            } => write!(f, "{impact}: {why}"),
            KindImpact::ByFinding { rule } => f.write_str(rule),
        }
    }
}
