//! Rules across the inputs of a request: what they read ([`Operand`]), when they apply
//! ([`Condition`]) and what they require ([`Check`]).

use super::{Equal, FieldId, Literal, Location, ParamId, Pattern, Provenance};

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
/// model, a name when two models are compared ([`Check::map`]).
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
    pub check: Check<P>,
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
        let mut out = self.check.operands();
        if let Some(c) = &self.when {
            out.push(c.operand());
        }
        out
    }

    /// The values the rule names (of its condition and its allowed values).
    pub fn literals(&self) -> impl Iterator<Item = &Literal> {
        let when = match &self.when {
            Some(Condition::In { values, .. }) => values.as_slice(),
            _ => &[],
        };
        let check = match &self.check {
            Check::AllowedValues { values, .. } => values.as_slice(),
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
/// model; a tool comparing two models maps them to names ([`Check::map`]).
///
/// Adding a kind here makes the compiler list every place that must handle it: the checker
/// lowers each kind, the model emitter generates its check, the OpenAPI emitter describes it.
#[derive(Clone, Debug, PartialEq)]
pub enum Check<P = Operand> {
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

impl<P: Clone> Check<P> {
    /// The same check, its parameters named by `f` (wire names, say).
    pub fn map<Q>(&self, f: impl Fn(P) -> Q) -> Check<Q> {
        match self {
            Check::Ordered {
                before,
                after,
                equal,
            } => Check::Ordered {
                before: f(before.clone()),
                after: f(after.clone()),
                equal: *equal,
            },
            Check::MaxSpan { from, to, seconds } => Check::MaxSpan {
                from: f(from.clone()),
                to: f(to.clone()),
                seconds: *seconds,
            },
            Check::Requires { param, needs } => Check::Requires {
                param: f(param.clone()),
                needs: f(needs.clone()),
            },
            Check::AtLeastOne(params) => {
                Check::AtLeastOne(params.iter().map(|p| f(p.clone())).collect())
            }
            Check::AllowedValues { param, values } => Check::AllowedValues {
                param: f(param.clone()),
                values: values.clone(),
            },
            Check::Matches { param, pattern } => Check::Matches {
                param: f(param.clone()),
                pattern: pattern.clone(),
            },
        }
    }

    /// The kind's spelling in the spec (`max_span`).
    pub fn kind(&self) -> &'static str {
        match self {
            Check::Ordered { .. } => "ordered",
            Check::MaxSpan { .. } => "max_span",
            Check::Requires { .. } => "requires",
            Check::AtLeastOne(_) => "at_least_one",
            Check::AllowedValues { .. } => "allowed_values",
            Check::Matches { .. } => "matches",
        }
    }

    /// The inputs the check reads.
    pub fn operands(&self) -> Vec<P> {
        match self {
            Check::Ordered { before, after, .. } => vec![before.clone(), after.clone()],
            Check::MaxSpan { from, to, .. } => vec![from.clone(), to.clone()],
            Check::Requires { param, needs } => vec![param.clone(), needs.clone()],
            Check::AtLeastOne(params) => params.clone(),
            Check::AllowedValues { param, .. } | Check::Matches { param, .. } => {
                vec![param.clone()]
            }
        }
    }

    /// The input a violation names (`field` of the issue).
    pub fn field(&self) -> P {
        match self {
            Check::Ordered { after: f, .. }
            | Check::MaxSpan { to: f, .. }
            | Check::Requires { param: f, .. }
            | Check::AllowedValues { param: f, .. }
            | Check::Matches { param: f, .. } => f.clone(),
            Check::AtLeastOne(params) => params[0].clone(),
        }
    }

    /// True when the check is about which parameters are present, not their values.
    pub fn is_presence(&self) -> bool {
        matches!(self, Check::Requires { .. } | Check::AtLeastOne(_))
    }
}
