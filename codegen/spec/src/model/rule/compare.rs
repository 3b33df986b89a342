//! How two versions of a requirement relate: whether the new one accepts the same requests,
//! fewer, more, or others.

use crate::model::{Equal, Inclusion, Literal};

use super::Requirement;

/// How the requests one version of a check (or of a condition) accepts relate to another's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// The same requests.
    Same,
    /// The new one accepts fewer.
    Fewer,
    /// The new one accepts more.
    More,
    /// Neither includes the other (or it cannot be decided).
    Other,
}

impl Relation {
    /// From the inclusions both ways.
    pub fn of(old_in_new: &Inclusion, new_in_old: &Inclusion) -> Relation {
        Relation::from_inclusions(old_in_new.holds(), new_in_old.holds())
    }

    /// Of two sets of accepted values.
    pub fn of_sets<T: PartialEq>(old: &[T], new: &[T]) -> Relation {
        Relation::from_inclusions(
            old.iter().all(|x| new.contains(x)),
            new.iter().all(|x| old.contains(x)),
        )
    }

    fn from_inclusions(old_in_new: bool, new_in_old: bool) -> Relation {
        match (old_in_new, new_in_old) {
            (true, true) => Relation::Same,
            (true, false) => Relation::More,
            (false, true) => Relation::Fewer,
            (false, false) => Relation::Other,
        }
    }
}

impl<P: Clone + PartialEq> Requirement<P> {
    /// How the requests `new` accepts relate to the ones `self` does, over the same inputs.
    /// A change this cannot order (other inputs, another kind) is [`Relation::Other`].
    pub fn compare(&self, new: &Requirement<P>) -> Relation {
        if self == new {
            return Relation::Same;
        }
        // Fewer alternatives accept fewer requests.
        if let (Requirement::AtLeastOne(a), Requirement::AtLeastOne(b)) = (self, new) {
            return Relation::of_sets(a, b);
        }
        if self.operands() != new.operands() {
            return Relation::Other;
        }
        match (self, new) {
            // Equal instants allowed: more requests kept.
            (Requirement::Ordered { equal: e1, .. }, Requirement::Ordered { equal: e2, .. }) => {
                match (e1, e2) {
                    (Equal::Refused, Equal::Allowed) => Relation::More,
                    (Equal::Allowed, Equal::Refused) => Relation::Fewer,
                    _ => Relation::Same,
                }
            }
            (Requirement::Requires { .. }, Requirement::Requires { .. }) => Relation::Same,
            (
                Requirement::MaxSpan { seconds: s1, .. },
                Requirement::MaxSpan { seconds: s2, .. },
            ) => match s2.cmp(s1) {
                std::cmp::Ordering::Equal => Relation::Same,
                std::cmp::Ordering::Less => Relation::Fewer,
                std::cmp::Ordering::Greater => Relation::More,
            },
            (
                Requirement::AllowedValues { values: v1, .. },
                Requirement::AllowedValues { values: v2, .. },
            ) => {
                let wires = |v: &[Literal]| v.iter().map(Literal::wire).collect::<Vec<_>>();
                Relation::of_sets(&wires(v1), &wires(v2))
            }
            (
                Requirement::Matches { pattern: r1, .. },
                Requirement::Matches { pattern: r2, .. },
            ) => Relation::of(&r1.included_in(r2), &r2.included_in(r1)),
            _ => Relation::Other,
        }
    }
}
