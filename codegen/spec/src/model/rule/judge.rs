//! A request against a requirement: whether it breaks it, decided by the runtime's own
//! predicate ([`Reading`], [`Requirement::broken`]), and a request on either side of it for
//! the contract suite ([`Probing`], [`Requirement::probe`]).

use mrds_runtime::holds;

use crate::model::{Equal, Inclusion, Pattern};

use super::{Operand, Requirement};

/// What a check reads of a request, for [`Requirement::broken`], as the generated code reads
/// it: a value its own checks refuse (out of range, not matching its pattern or format) is
/// read all the same, those checks being reported apart.
pub trait Reading {
    /// The value `op` has (sent and read by its type, or its default).
    fn value(&self, op: Operand) -> Option<String>;
    /// Whether `op` counts as given to a presence check: it has a value, or was sent.
    fn given(&self, op: Operand) -> bool;
    /// The instant of the value of a time input, in Unix seconds.
    fn seconds(&self, op: Operand) -> Option<i64>;
}

/// The side of a check a probe puts a request on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// A request that breaks it.
    Break,
    /// A request that keeps it.
    Keep,
}

/// What a probe may do to a request, for [`Requirement::probe`] (the contract suite's drafts).
pub trait Probing: Clone {
    /// The request with `op` sent as `value`, or left out (`None`).
    fn set(&self, op: Operand, value: Option<&str>) -> Option<Self>;
    /// A value of `op` its own checks accept, from its usual candidates and `extra`, that
    /// leaves the rule's condition as it is and for which `wanted` holds.
    fn pick(
        &self,
        op: Operand,
        extra: Vec<String>,
        wanted: &dyn Fn(&str) -> bool,
    ) -> Option<String>;
    /// The instant time input `op` holds, in Unix seconds (a fixed one when it holds none).
    fn instant(&self, op: Operand) -> Option<i64>;
    /// The request with time input `op` at the instant `seconds`.
    fn at(&self, op: Operand, seconds: i64) -> Option<Self>;
    /// The pattern `op`'s own checks hold its text to, if any.
    fn own_pattern(&self, op: Operand) -> Option<Pattern>;
}

impl Requirement {
    /// Whether a request breaks the check, decided by the runtime's own predicate
    /// ([`mrds_runtime::holds`]); `None` when it cannot be read (an input it compares has
    /// no value).
    pub fn broken(&self, r: &impl Reading) -> Option<bool> {
        Some(match self {
            Requirement::Ordered {
                before,
                after,
                equal,
            } => !holds::ordered(r.seconds(*before)?, r.seconds(*after)?, *equal),
            Requirement::MaxSpan { from, to, seconds } => {
                !holds::within_span(r.seconds(*from)?, r.seconds(*to)?, *seconds)
            }
            Requirement::Requires { param, needs } => {
                r.value(*param).is_some() && !holds::requires(true, r.given(*needs))
            }
            Requirement::AtLeastOne(ops) => {
                let given: Vec<bool> = ops.iter().map(|op| r.given(*op)).collect();
                !holds::at_least_one(&given)
            }
            Requirement::AllowedValues { param, values } => {
                let v = r.value(*param)?;
                !values.iter().any(|l| l.wire() == v)
            }
            Requirement::Matches { param, pattern } => !pattern.is_match(&r.value(*param)?),
        })
    }

    /// `request` with the check's inputs set so it is on `side` of the check, at the
    /// boundary where the check has one (the last instant kept, the first broken); `None`
    /// when no values put it there.
    pub fn probe<D: Probing>(&self, request: &D, side: Side) -> Option<D> {
        let any = |_: &str| true;
        match self {
            Requirement::Ordered {
                before,
                after,
                equal,
            } => {
                let start = request.instant(*before)?;
                let end = match (equal, side) {
                    (Equal::Refused, Side::Break) | (Equal::Allowed, Side::Keep) => start,
                    (Equal::Refused, Side::Keep) => start.checked_add(1)?,
                    (Equal::Allowed, Side::Break) => start.checked_sub(1)?,
                };
                request.at(*before, start)?.at(*after, end)
            }
            Requirement::MaxSpan { from, to, seconds } => {
                let start = request.instant(*from)?;
                let end = match side {
                    Side::Break => start.checked_add(seconds.checked_add(1)?)?,
                    Side::Keep => start.checked_add(*seconds)?,
                };
                request.at(*from, start)?.at(*to, end)
            }
            Requirement::Requires { param, needs } => {
                let v = request.pick(*param, Vec::new(), &any)?;
                let with = request.set(*param, Some(&v))?;
                match side {
                    Side::Break => with.set(*needs, None),
                    Side::Keep => {
                        let w = with.pick(*needs, Vec::new(), &any)?;
                        with.set(*needs, Some(&w))
                    }
                }
            }
            Requirement::AtLeastOne(ops) => {
                let mut none = request.clone();
                for op in ops {
                    none = none.set(*op, None)?;
                }
                match side {
                    Side::Break => Some(none),
                    Side::Keep => {
                        let v = none.pick(ops[0], Vec::new(), &any)?;
                        none.set(ops[0], Some(&v))
                    }
                }
            }
            Requirement::AllowedValues { param, values } => {
                let keep = side == Side::Keep;
                let allowed = |v: &str| values.iter().any(|l| l.wire() == v) == keep;
                let v = request.pick(*param, Vec::new(), &allowed)?;
                request.set(*param, Some(&v))
            }
            Requirement::Matches { param, pattern } => {
                let keep = side == Side::Keep;
                // To break it: a text the input's own pattern takes and the rule's does not.
                let own = request.own_pattern(*param);
                let outside = match own
                    .as_ref()
                    .unwrap_or(Pattern::anything())
                    .included_in(pattern)
                {
                    Inclusion::No(text) if !keep => Some(text),
                    _ => None,
                };
                let extra = pattern.examples().iter().cloned().chain(outside).collect();
                let v = request.pick(*param, extra, &|v| pattern.is_match(v) == keep)?;
                request.set(*param, Some(&v))
            }
        }
    }
}
