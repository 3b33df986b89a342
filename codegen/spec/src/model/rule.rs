//! Rules across the inputs of a request: what they read ([`Operand`]), when they apply
//! ([`Condition`]) and what they require ([`Requirement`]).
//!
//! Everything the generator knows of a kind of requirement is here, in exhaustive matches the
//! compiler names when a kind is added: what it reads and names ([`Requirement::operands`],
//! [`Requirement::field`], [`Requirement::triggers`]), its facts as data (the OpenAPI
//! document's `x-rules`: [`Requirement::facts`]) and in words (spec-diff:
//! [`Requirement::describe`]), whether a request breaks it (decided by the runtime's own
//! predicate: [`Requirement::broken`]), a request on each side of it (the contract suite:
//! [`Requirement::probe`]) and how two versions of it relate ([`Requirement::compare`]).
//! What stays elsewhere is what cannot be data: the spelling and shape in the spec
//! (`ast/rules.rs`), its lowering with diagnostics (`check/rules.rs`), the check the
//! generated code makes (`runtime/src/validate/`) and the call to it
//! (`emit/model/checks.rs`).

use mrds_runtime::holds;

use super::{Equal, FieldId, Inclusion, Literal, Location, ParamId, Pattern, Provenance, RuleKind};
use crate::diag::list;

/// What a rule (or a sample's selector) reads of a request: a parameter, or a field of the
/// body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operand {
    /// A parameter.
    Param(ParamId),
    /// A field of the body's record.
    Field(FieldId),
}

/// What a rule reads: where its check is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// Parameters only: the parameter type checks it.
    Params,
    /// Fields of the body only: the body record checks it.
    Body,
    /// Both: the parameter type checks it with the body.
    Both,
}

impl Rule {
    /// Where the rule's check is made, from what it reads.
    pub fn reads(&self) -> Reads {
        let ops = self.operands();
        let fields = ops
            .iter()
            .filter(|op| matches!(op, Operand::Field(_)))
            .count();
        match fields {
            0 => Reads::Params,
            n if n == ops.len() => Reads::Body,
            _ => Reads::Both,
        }
    }
}

/// A rule across the inputs of a request; `P` names what it reads: an [`Operand`] in the
/// model, a name when two models are compared ([`Requirement::map`]).
#[derive(Clone, Debug)]
pub struct Rule<P = Operand> {
    /// Where the spec defines it.
    pub at: Location,
    /// Stable id.
    pub id: String,
    /// Explanation; also the reason of a violation.
    pub doc: String,
    /// Provenance.
    pub provenance: Provenance,
    /// The rule applies only when this holds.
    pub when: Option<Condition<P>>,
    /// What must hold.
    pub requirement: Requirement<P>,
}

impl<P: Clone> Rule<P> {
    /// The part of the id after the endpoint (`range_order` of `x.range_order`).
    pub fn name(&self) -> &str {
        self.id.split_once('.').map_or(&self.id, |(_, n)| n)
    }

    /// The reason a violation gives: the doc without its final period.
    pub fn reason(&self) -> &str {
        self.doc.trim().trim_end_matches('.')
    }

    /// Every input the rule reads, its condition's included.
    pub fn operands(&self) -> Vec<P> {
        let mut out = self.requirement.operands();
        if let Some(c) = &self.when {
            out.push(c.operand());
        }
        out
    }

    /// The regular expressions of the rule: its requirement's and its condition's.
    pub fn patterns(&self) -> Vec<&Pattern> {
        let check = self
            .requirement
            .facts()
            .into_iter()
            .filter_map(|(_, fact)| match fact {
                Fact::Pattern(p) => Some(p),
                _ => None,
            });
        let when = match &self.when {
            Some(Condition::Matches { pattern, .. }) => Some(pattern),
            _ => None,
        };
        check.chain(when).collect()
    }

    /// The values the rule names (of its condition and its allowed values).
    pub fn literals(&self) -> impl Iterator<Item = &Literal> {
        let when = match &self.when {
            Some(Condition::In { values, .. }) => values.as_slice(),
            _ => &[],
        };
        let check = match &self.requirement {
            Requirement::AllowedValues { values, .. } => values.as_slice(),
            _ => &[],
        };
        when.iter().chain(check)
    }
}

/// A condition on one input (which must be given for the condition to hold). `P` names the
/// input: an [`Operand`] in the model; a tool comparing two models maps it to a name
/// ([`Condition::map`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Condition<P = Operand> {
    /// The value is one of these.
    In {
        /// The parameter.
        param: P,
        /// Allowed values; value-set values when the parameter is an enum.
        values: Vec<Literal>,
    },
    /// The value matches a regular expression.
    Matches {
        /// The parameter.
        param: P,
        /// Regular expression.
        pattern: Pattern,
    },
}

impl<P: Clone> Condition<P> {
    /// The input looked at, borrowed.
    pub fn operand_ref(&self) -> &P {
        match self {
            Condition::In { param, .. } | Condition::Matches { param, .. } => param,
        }
    }

    /// The input looked at.
    pub fn operand(&self) -> P {
        match self {
            Condition::In { param, .. } | Condition::Matches { param, .. } => param.clone(),
        }
    }

    /// The same condition, its parameter named by `f` (a wire name, say).
    pub fn map<Q>(&self, f: impl Fn(P) -> Q) -> Condition<Q> {
        match self {
            Condition::In { param, values } => Condition::In {
                param: f(param.clone()),
                values: values.clone(),
            },
            Condition::Matches { param, pattern } => Condition::Matches {
                param: f(param.clone()),
                pattern: pattern.clone(),
            },
        }
    }
}

/// What a rule requires, of inputs of its endpoint. `P` names an input: an [`Operand`] in the
/// model; a tool comparing two models maps them to names ([`Requirement::map`]).
///
/// Adding a kind here makes the compiler list every place that must handle it: the matches of
/// this file, the checker's lowering and the model emitter's generated check.
#[derive(Clone, Debug, PartialEq)]
pub enum Requirement<P = Operand> {
    /// `before < after` when both are given (`before <= after` when `equal` allows it).
    Ordered {
        /// Earlier parameter.
        before: P,
        /// Later parameter.
        after: P,
        /// Whether the two may be the same instant.
        equal: Equal,
    },
    /// `to - from <= seconds` when both are given.
    MaxSpan {
        /// Start.
        from: P,
        /// End.
        to: P,
        /// Largest difference.
        seconds: i64,
    },
    /// `param` given implies `needs` given.
    Requires {
        /// The dependent parameter.
        param: P,
        /// The parameter it needs.
        needs: P,
    },
    /// At least one of these is given.
    AtLeastOne(Vec<P>),
    /// `param`, when given, is one of `values`.
    AllowedValues {
        /// The parameter.
        param: P,
        /// Allowed values.
        values: Vec<Literal>,
    },
    /// `param`, when given, matches `pattern`.
    Matches {
        /// The parameter.
        param: P,
        /// Regular expression.
        pattern: Pattern,
    },
}

impl<P: Clone> Requirement<P> {
    /// The same check, its parameters named by `f` (wire names, say).
    pub fn map<Q>(&self, f: impl Fn(P) -> Q) -> Requirement<Q> {
        match self {
            Requirement::Ordered {
                before,
                after,
                equal,
            } => Requirement::Ordered {
                before: f(before.clone()),
                after: f(after.clone()),
                equal: *equal,
            },
            Requirement::MaxSpan { from, to, seconds } => Requirement::MaxSpan {
                from: f(from.clone()),
                to: f(to.clone()),
                seconds: *seconds,
            },
            Requirement::Requires { param, needs } => Requirement::Requires {
                param: f(param.clone()),
                needs: f(needs.clone()),
            },
            Requirement::AtLeastOne(params) => {
                Requirement::AtLeastOne(params.iter().map(|p| f(p.clone())).collect())
            }
            Requirement::AllowedValues { param, values } => Requirement::AllowedValues {
                param: f(param.clone()),
                values: values.clone(),
            },
            Requirement::Matches { param, pattern } => Requirement::Matches {
                param: f(param.clone()),
                pattern: pattern.clone(),
            },
        }
    }

    /// The kind's spelling in the spec (`max_span`).
    pub fn kind(&self) -> RuleKind {
        match self {
            Requirement::Ordered { .. } => RuleKind::Ordered,
            Requirement::MaxSpan { .. } => RuleKind::MaxSpan,
            Requirement::Requires { .. } => RuleKind::Requires,
            Requirement::AtLeastOne(_) => RuleKind::AtLeastOne,
            Requirement::AllowedValues { .. } => RuleKind::AllowedValues,
            Requirement::Matches { .. } => RuleKind::Matches,
        }
    }

    /// The inputs the check reads.
    pub fn operands(&self) -> Vec<P> {
        match self {
            Requirement::Ordered { before, after, .. } => vec![before.clone(), after.clone()],
            Requirement::MaxSpan { from, to, .. } => vec![from.clone(), to.clone()],
            Requirement::Requires { param, needs } => vec![param.clone(), needs.clone()],
            Requirement::AtLeastOne(params) => params.clone(),
            Requirement::AllowedValues { param, .. } | Requirement::Matches { param, .. } => {
                vec![param.clone()]
            }
        }
    }

    /// The input a violation names (`field` of the issue).
    pub fn field(&self) -> P {
        match self {
            Requirement::Ordered { after: f, .. }
            | Requirement::MaxSpan { to: f, .. }
            | Requirement::Requires { param: f, .. }
            | Requirement::AllowedValues { param: f, .. }
            | Requirement::Matches { param: f, .. } => f.clone(),
            Requirement::AtLeastOne(params) => params[0].clone(),
        }
    }

    /// True when the check is about which parameters are present, not their values.
    pub fn is_presence(&self) -> bool {
        matches!(
            self,
            Requirement::Requires { .. } | Requirement::AtLeastOne(_)
        )
    }
}

impl<P: Clone> Requirement<P> {
    /// The inputs a request must give for the check to apply at all (`at_least_one` applies
    /// to every request).
    pub fn triggers(&self) -> Vec<&P> {
        match self {
            Requirement::Ordered { before, after, .. } => vec![before, after],
            Requirement::MaxSpan { from, to, .. } => vec![from, to],
            Requirement::Requires { param, .. }
            | Requirement::AllowedValues { param, .. }
            | Requirement::Matches { param, .. } => vec![param],
            Requirement::AtLeastOne(_) => Vec::new(),
        }
    }

    /// The inputs that count as given when they were sent at all, even with a value their own
    /// checks refuse (reported apart): those a presence check looks for. Empty for a check
    /// of values.
    pub fn presence(&self) -> Vec<&P> {
        match self {
            Requirement::Requires { needs, .. } => vec![needs],
            Requirement::AtLeastOne(ops) => ops.iter().collect(),
            Requirement::Ordered { .. }
            | Requirement::MaxSpan { .. }
            | Requirement::AllowedValues { .. }
            | Requirement::Matches { .. } => Vec::new(),
        }
    }

    /// The kind's own facts, by the key each goes by in the OpenAPI document's `x-rules`
    /// (beside the kind, the inputs and the field every rule has), in order.
    pub fn facts(&self) -> Vec<(&'static str, Fact<'_, P>)> {
        match self {
            Requirement::Ordered {
                before,
                after,
                equal,
            } => {
                let mut facts = vec![
                    ("before", Fact::Input(before)),
                    ("after", Fact::Input(after)),
                ];
                // Only when allowed, so the document of a spec without it is as it was.
                if *equal == Equal::Allowed {
                    facts.push(("equal", Fact::Word("allowed")));
                }
                facts
            }
            Requirement::MaxSpan { from, to, seconds } => vec![
                ("from", Fact::Input(from)),
                ("to", Fact::Input(to)),
                ("seconds", Fact::Integer(*seconds)),
            ],
            Requirement::Requires { param, needs } => vec![
                ("parameter", Fact::Input(param)),
                ("needs", Fact::Input(needs)),
            ],
            Requirement::AtLeastOne(_) => Vec::new(),
            Requirement::AllowedValues { param, values } => vec![
                ("parameter", Fact::Input(param)),
                ("values", Fact::Values(values)),
            ],
            Requirement::Matches { param, pattern } => vec![
                ("parameter", Fact::Input(param)),
                ("pattern", Fact::Pattern(pattern)),
            ],
        }
    }
}

/// One fact of a requirement ([`Requirement::facts`]).
#[derive(Clone, Copy, Debug)]
pub enum Fact<'r, P> {
    /// An input it reads.
    Input(&'r P),
    /// A number (of seconds).
    Integer(i64),
    /// Values, as the spec writes them.
    Values(&'r [Literal]),
    /// A regular expression.
    Pattern(&'r Pattern),
    /// A word of the spec's spelling (`allowed`).
    Word(&'static str),
}

impl<P: std::fmt::Display> Requirement<P> {
    /// The check in words, its inputs named by `P`
    /// (`` ordered: `start_time` before `end_time` ``).
    pub fn describe(&self) -> String {
        let wires = |values: &[Literal]| values.iter().map(Literal::wire).collect::<Vec<_>>();
        match self {
            Requirement::Ordered {
                before,
                after,
                equal: Equal::Refused,
            } => format!("ordered: `{before}` before `{after}`"),
            Requirement::Ordered {
                before,
                after,
                equal: Equal::Allowed,
            } => format!("ordered: `{before}` not after `{after}`"),
            Requirement::MaxSpan { from, to, seconds } => {
                format!("max_span: `{to}` - `{from}` at most {seconds} seconds")
            }
            Requirement::Requires { param, needs } => {
                format!("requires: `{param}` needs `{needs}`")
            }
            Requirement::AtLeastOne(names) => {
                let names: Vec<String> = names.iter().map(ToString::to_string).collect();
                format!("at_least_one: {}", list(&names))
            }
            Requirement::AllowedValues { param, values } => {
                format!("allowed_values: `{param}` one of {}", list(&wires(values)))
            }
            Requirement::Matches { param, pattern } => {
                format!("matches: `{param}` matches `{pattern}`")
            }
        }
    }
}

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
