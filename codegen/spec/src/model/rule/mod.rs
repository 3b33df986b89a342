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
//!
//! This module holds the rule, its condition and its requirement with what it reads;
//! [`facts`] the requirement's facts as data and in words, [`compare`] how two versions
//! relate, and [`judge`] a request against it (whether it breaks it, a probe on either side).

use super::{Equal, FieldId, Literal, Location, ParamId, Pattern, Provenance, RuleKind};

pub use compare::Relation;
pub use facts::Fact;
pub use judge::{Probing, Reading, Side};

mod compare;
mod facts;
mod judge;

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
/// this module's files, the checker's lowering and the model emitter's generated check.
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
}
