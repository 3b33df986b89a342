//! The rules of an endpoint as written: each names one kind of requirement ([`RuleKind`]) over
//! the inputs it names, and optionally a condition.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{Equal, OperandName, Spanned, reason};

/// A rule across parameters (and, on an endpoint with a body, the body's fields:
/// `body.<field>`). It names exactly one kind of check as a key of its own (`ordered:`,
/// `max_span:`, `requires:`, `at_least_one:`, `allowed_values:` or `matches:`). Each
/// parameter's own checks have ids too: `<endpoint>.<param>.<check>`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = one_kind)]
pub struct Rule {
    /// Stable id, `<endpoint>.<name>`, named by validation errors
    /// (`stock_dividends.range_order`).
    pub id: Spanned<String>,
    /// Explanation, also the reason given when the rule is broken.
    pub doc: String,
    /// Set when the interface description does not state the fact: why the spec assumes it.
    /// The generated docs and the OpenAPI document show the reason, so it is not blank.
    #[serde(default, deserialize_with = "reason")]
    #[schemars(with = "super::NonBlank")]
    pub assumed: Option<String>,
    /// The rule applies only when this holds: `{ param, in: [...] }` or
    /// `{ param, matches: regex }`.
    #[serde(default)]
    pub when: Option<Spanned<Condition>>,
    /// `{ before, after }`: `before` strictly earlier than `after` when both are given (with
    /// `equal: allowed`, not later: "must not be after").
    #[serde(default)]
    pub ordered: Option<Spanned<Ordered>>,
    /// `{ from, to, seconds }`: `to - from <= seconds` when both are given.
    #[serde(default)]
    pub max_span: Option<Spanned<MaxSpan>>,
    /// `{ param, needs }`: when `param` is given, `needs` must be given too.
    #[serde(default)]
    pub requires: Option<Spanned<Requires>>,
    /// `[...]`: at least one of these parameters is given.
    #[serde(default)]
    pub at_least_one: Option<Spanned<Vec<Spanned<OperandName>>>>,
    /// `{ param, values }`: `param`, when given, is one of `values` (wire spellings).
    #[serde(default)]
    pub allowed_values: Option<Spanned<AllowedValues>>,
    /// `{ param, pattern }`: `param`, when given, matches `pattern`.
    #[serde(default)]
    pub matches: Option<Spanned<Matches>>,
}

/// The kinds of rule: what a rule's requirement is, in the spec ([`Rule`]'s keys, whose serde
/// names are these spellings: a test of the loader holds them together) and in the model
/// (`model::Requirement::kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RuleKind {
    /// `ordered`.
    Ordered,
    /// `max_span`.
    MaxSpan,
    /// `requires`.
    Requires,
    /// `at_least_one`.
    AtLeastOne,
    /// `allowed_values`.
    AllowedValues,
    /// `matches`.
    Matches,
}

impl RuleKind {
    /// Every kind.
    pub const ALL: [RuleKind; 6] = [
        RuleKind::Ordered,
        RuleKind::MaxSpan,
        RuleKind::Requires,
        RuleKind::AtLeastOne,
        RuleKind::AllowedValues,
        RuleKind::Matches,
    ];

    /// The spelling in the spec (`max_span`).
    pub fn name(self) -> &'static str {
        match self {
            RuleKind::Ordered => "ordered",
            RuleKind::MaxSpan => "max_span",
            RuleKind::Requires => "requires",
            RuleKind::AtLeastOne => "at_least_one",
            RuleKind::AllowedValues => "allowed_values",
            RuleKind::Matches => "matches",
        }
    }
}

impl std::fmt::Display for RuleKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule's schema requires exactly one of the kinds' keys ([`RuleKind::ALL`]).
fn one_kind(schema: &mut schemars::Schema) {
    let kinds: Vec<serde_json::Value> = RuleKind::ALL
        .iter()
        .map(|k| serde_json::json!({ "required": [k.name()] }))
        .collect();
    schema.insert("oneOf".into(), kinds.into());
}

impl Rule {
    /// The check kinds this rule names, with their spelling and place. The destructuring
    /// names every field, so a new kind cannot be added to [`Rule`] without being listed here.
    pub fn checks(&self) -> Vec<(RuleKind, crate::diag::Span, Requirement<'_>)> {
        let Rule {
            id: _,
            doc: _,
            assumed: _,
            when: _,
            ordered,
            max_span,
            requires,
            at_least_one,
            allowed_values,
            matches,
        } = self;
        let all = [
            ordered.as_ref().map(|c| (c.span, Requirement::Ordered(c))),
            max_span.as_ref().map(|c| (c.span, Requirement::MaxSpan(c))),
            requires
                .as_ref()
                .map(|c| (c.span, Requirement::Requires(c))),
            at_least_one
                .as_ref()
                .map(|c| (c.span, Requirement::AtLeastOne(c))),
            allowed_values
                .as_ref()
                .map(|c| (c.span, Requirement::AllowedValues(c))),
            matches.as_ref().map(|c| (c.span, Requirement::Matches(c))),
        ];
        all.into_iter()
            .flatten()
            .map(|(at, c)| (c.kind(), at, c))
            .collect()
    }
}

/// What a rule requires, borrowed.
#[derive(Debug)]
pub enum Requirement<'a> {
    /// See [`Ordered`].
    Ordered(&'a Spanned<Ordered>),
    /// See [`MaxSpan`].
    MaxSpan(&'a Spanned<MaxSpan>),
    /// See [`Requires`].
    Requires(&'a Spanned<Requires>),
    /// Parameter names.
    AtLeastOne(&'a Spanned<Vec<Spanned<OperandName>>>),
    /// See [`AllowedValues`].
    AllowedValues(&'a Spanned<AllowedValues>),
    /// See [`Matches`].
    Matches(&'a Spanned<Matches>),
}

impl Requirement<'_> {
    /// The kind.
    pub fn kind(&self) -> RuleKind {
        match self {
            Requirement::Ordered(_) => RuleKind::Ordered,
            Requirement::MaxSpan(_) => RuleKind::MaxSpan,
            Requirement::Requires(_) => RuleKind::Requires,
            Requirement::AtLeastOne(_) => RuleKind::AtLeastOne,
            Requirement::AllowedValues(_) => RuleKind::AllowedValues,
            Requirement::Matches(_) => RuleKind::Matches,
        }
    }
}

/// `before < after` (or `before <= after` with `equal: allowed`) when both are given.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ordered {
    /// The earlier parameter (or body field, `body.<field>`).
    pub before: Spanned<OperandName>,
    /// The later parameter (or body field).
    pub after: Spanned<OperandName>,
    /// Whether the two may be the same instant: `refused` (the default: "before") or
    /// `allowed` ("not after").
    #[serde(default)]
    #[schemars(with = "super::schema::Spellings<Equal>")]
    pub equal: Equal,
}

/// `to - from <= seconds` when both are given.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MaxSpan {
    /// Start of the span: a parameter (or body field, `body.<field>`).
    pub from: Spanned<OperandName>,
    /// End of the span: a parameter (or body field).
    pub to: Spanned<OperandName>,
    /// Largest allowed difference, in seconds.
    pub seconds: Spanned<i64>,
}

/// `param` given implies `needs` given.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Requires {
    /// The dependent parameter (or body field, `body.<field>`).
    pub param: Spanned<OperandName>,
    /// The parameter (or body field) it needs.
    pub needs: Spanned<OperandName>,
}

/// `param`, when given, is one of `values`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AllowedValues {
    /// The parameter (or body field, `body.<field>`) restricted.
    pub param: Spanned<OperandName>,
    /// The values still allowed.
    pub values: Spanned<Vec<Spanned<String>>>,
}

/// `param`, when given, matches `pattern`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Matches {
    /// The parameter (or body field, `body.<field>`) checked.
    pub param: Spanned<OperandName>,
    /// Regular expression the value must match, anchored (`^...$`) to match the whole value.
    pub pattern: Spanned<String>,
}

/// A condition on one parameter's value: `in` or `matches`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// The parameter (or body field, `body.<field>`) looked at.
    pub param: Spanned<OperandName>,
    /// Holds when the value is one of these (wire spellings).
    #[serde(default, rename = "in")]
    pub one_of: Option<Spanned<Vec<Spanned<String>>>>,
    /// Holds when the value matches this regular expression.
    #[serde(default)]
    pub matches: Option<Spanned<String>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys of a rule are the kinds' spellings: a rule written with each key reads as that
    /// kind.
    #[test]
    fn rule_keys_are_the_kinds_spellings() {
        for kind in RuleKind::ALL {
            let value = match kind {
                RuleKind::Ordered => "{ before: a, after: b }",
                RuleKind::MaxSpan => "{ from: a, to: b, seconds: 1 }",
                RuleKind::Requires => "{ param: a, needs: b }",
                RuleKind::AtLeastOne => "[a, b]",
                RuleKind::AllowedValues => "{ param: a, values: [x] }",
                RuleKind::Matches => "{ param: a, pattern: '^x$' }",
            };
            let text = format!("{{ id: e.r, doc: d, {}: {value} }}", kind.name());
            let rule: Rule = crate::yaml::from_str(&text).unwrap_or_else(|e| panic!("{kind}: {e}"));
            let kinds: Vec<RuleKind> = rule.checks().into_iter().map(|(k, _, _)| k).collect();
            assert_eq!(kinds, [kind]);
        }
    }
}
