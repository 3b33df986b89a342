//! A requirement's own facts, as data (the OpenAPI document's `x-rules`) and in words
//! (spec-diff).

use crate::diag::list;
use crate::model::{Equal, Literal, Pattern};

use super::Requirement;

impl<P: Clone> Requirement<P> {
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
