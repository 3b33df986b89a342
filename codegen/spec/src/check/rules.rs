//! Rules across parameters: each names exactly one check kind over parameters of the
//! endpoint, with the types that kind compares, and an optional condition.

use std::collections::BTreeSet;

use super::Cx;
use super::endpoints::Scope;
use crate::ast::{self, OperandName, Spanned, ValueKind};
use crate::model::{
    Condition, FieldId, Input, Literal, Operand, Pattern, Provenance, Requirement, Rule, ValueSet,
    ValueType,
};

impl Cx<'_> {
    /// An input a rule names: a parameter, or a field of the body (`body.<field>`) that has
    /// checks; reports an unknown one (at the reference).
    fn operand_ref<'p>(
        &mut self,
        scope: &Scope<'p>,
        rule: &str,
        name: &Spanned<OperandName>,
    ) -> Option<Input<'p>> {
        let endpoint = scope.id;
        match &name.item {
            OperandName::Param(param) => {
                if let Some(p) = scope.inputs.params.iter().find(|p| p.wire == *param) {
                    if p.list.is_some() {
                        let d = self.err(
                            name.at(),
                            format!("rule `{rule}` names `{param}`, a list parameter of endpoint `{endpoint}`"),
                        );
                        Self::hint(
                            d,
                            "rules read one value; a list's items are checked by its own `type`, `format`, `min`, `max`, `pattern`, and its number by `min_items` and `max_items`",
                        );
                        return None;
                    }
                    return scope.inputs.get(Operand::Param(p.id));
                }
                if scope.declared.iter().any(|p| p.name == *param) {
                    return None; // declared but broken: already reported
                }
                let d = self.err(
                    name.at(),
                    format!(
                        "rule `{rule}` names parameter `{name}`, which endpoint `{endpoint}` does not have"
                    ),
                );
                Self::suggest(d, param, scope.declared.iter().map(|p| p.name.as_str()));
                if d.hint.is_none() {
                    let all: Vec<_> = scope
                        .declared
                        .iter()
                        .map(|p| format!("`{}`", p.name))
                        .collect();
                    Self::hint(
                        d,
                        format!(
                            "its parameters are {}",
                            if all.is_empty() {
                                "none".to_string()
                            } else {
                                all.join(", ")
                            }
                        ),
                    );
                }
                None
            }
            OperandName::Field(field) => {
                let record = scope.inputs.body;
                let lowered = record.and_then(|r| {
                    let i = r.fields.iter().position(|f| f.wire == *field)?;
                    Some(Operand::Field(FieldId::new(i)))
                });
                if let Some(op) = lowered {
                    let input = scope.inputs.get(op);
                    if input.is_none() {
                        let d = self.err(
                            name.at(),
                            format!(
                                "rule `{rule}` names body field `{field}`, which a rule cannot compare"
                            ),
                        );
                        Self::hint(
                            d,
                            "rules read single text, integer, boolean or value-set fields",
                        );
                    }
                    return input;
                }
                // (A declared field that failed its own checks is reported already.)
                if !scope.body_fields.iter().any(|f| f.name == *field) {
                    let d = self.err(name.at(), format!("rule `{rule}` names `{name}`, but endpoint `{endpoint}` has no body field `{field}`"));
                    Self::suggest(d, field, scope.body_fields.iter().map(|f| f.name.as_str()));
                }
                None
            }
        }
    }

    pub(super) fn rule(
        &mut self,
        scope: &Scope<'_>,
        r: &Spanned<ast::Rule>,
        value_sets: &[ValueSet],
    ) -> Option<Rule> {
        let before = self.errors.len();
        let endpoint = scope.id;
        let id = r.id.as_str();
        let prefix = format!("{endpoint}.");
        if !id.starts_with(&prefix)
            || id.len() == prefix.len()
            || !id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.')
        {
            let d = self.err(r.id.at(), format!("rule id `{id}` must be `{endpoint}.<name>` in lowercase letters, digits and `_`"));
            Self::hint(d, format!("for example `{endpoint}.range_order`"));
        } else if id.matches('.').count() != 1 {
            let d = self.err(r.id.at(), format!("rule id `{id}` has more than one dot; ids of that shape belong to the generated per-parameter rules"));
            Self::hint(d, format!("for example `{endpoint}.range_order`"));
        }
        let checks = r.checks();
        let (kind, check) = match checks.as_slice() {
            [(kind, _, check)] => (*kind, check),
            [] => {
                let d = self.err(r.at(), format!("rule `{id}` names no check"));
                Self::hint(
                    d,
                    format!(
                        "give exactly one of {}",
                        ast::RuleKind::ALL
                            .iter()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                return None;
            }
            [_, (_, second, _), ..] => {
                let d = self.err(*second, format!("rule `{id}` names more than one check"));
                Self::hint(d, "split it into one rule per check, each with its own id");
                return None;
            }
        };
        let check = self.rule_check(scope, id, check, value_sets);
        let when = r
            .when
            .as_ref()
            .and_then(|c| self.condition(scope, id, c, value_sets));
        if self.errors.len() != before {
            return None;
        }
        let check = check?;
        debug_assert_eq!(kind, check.kind());
        Some(Rule {
            at: self.loc(r.at()),
            id: r.id.to_string(),
            doc: r.doc.clone(),
            provenance: Provenance::from_reason(r.assumed.as_ref()),
            when,
            requirement: check,
        })
    }

    /// The check of rule `id`, lowered when its references resolve; every problem of it is
    /// reported either way.
    fn rule_check(
        &mut self,
        scope: &Scope<'_>,
        id: &str,
        check: &ast::Requirement<'_>,
        value_sets: &[ValueSet],
    ) -> Option<Requirement> {
        match check {
            ast::Requirement::Ordered(c) => self
                .time_pair(scope, id, (&c.before, &c.after), c.at())
                .map(|(before, after)| Requirement::Ordered {
                    before,
                    after,
                    equal: c.equal,
                }),
            ast::Requirement::MaxSpan(m) => {
                let pair = self.time_pair(scope, id, (&m.from, &m.to), m.at());
                if *m.seconds <= 0 {
                    self.err(
                        m.seconds.at(),
                        format!(
                            "rule `{id}` allows a span of {} seconds; it must be positive",
                            m.seconds
                        ),
                    );
                }
                pair.map(|(from, to)| Requirement::MaxSpan {
                    from,
                    to,
                    seconds: *m.seconds,
                })
            }
            ast::Requirement::Requires(c) => {
                let a = self.operand_ref(scope, id, &c.param);
                let b = self.operand_ref(scope, id, &c.needs);
                let (a, b) = (a?, b?);
                if a.operand == b.operand {
                    self.err(
                        c.at(),
                        format!("rule `{id}` makes `{}` require itself", a.name()),
                    );
                } else if a.required || b.required {
                    let which = if b.required { b.name() } else { a.name() };
                    let d = self.err(
                        c.at(),
                        format!("rule `{id}` can never fail: `{which}` is required anyway"),
                    );
                    Self::hint(d, "`requires` relates two optional parameters");
                }
                Some(Requirement::Requires {
                    param: a.operand,
                    needs: b.operand,
                })
            }
            ast::Requirement::AtLeastOne(names) => {
                if names.len() < 2 {
                    self.err(
                        names.at(),
                        format!("rule `{id}` needs at least two parameters"),
                    );
                }
                let mut seen = BTreeSet::new();
                let mut params = Some(Vec::new());
                for n in names.iter() {
                    if !seen.insert(&n.item) {
                        self.err(n.at(), format!("rule `{id}` names `{}` twice", n.item));
                        continue;
                    }
                    let p = self.operand_ref(scope, id, n);
                    if let Some(p) = p
                        && p.required
                    {
                        let d = self.err(
                            n.at(),
                            format!(
                                "rule `{id}` can never fail: `{}` is required anyway",
                                n.item
                            ),
                        );
                        Self::hint(d, "`at_least_one` names optional parameters");
                    }
                    params = params.zip(p).map(|(mut all, p)| {
                        all.push(p.operand);
                        all
                    });
                }
                params.map(Requirement::AtLeastOne)
            }
            ast::Requirement::AllowedValues(c) => {
                let p = self.operand_ref(scope, id, &c.param)?;
                if !matches!(p.ty, ValueType::Enum(_)) {
                    self.err(
                        c.param.at(),
                        format!(
                            "rule `{id}` restricts the values of `{}`, which is not of a value set",
                            p.name()
                        ),
                    );
                    return None;
                }
                if c.values.is_empty() {
                    self.err(c.values.at(), format!("rule `{id}` allows no value at all"));
                }
                let what = |v: &str| format!("value `{v}` of rule `{id}`");
                let values = self.literals(&c.values, p.ty, value_sets, what);
                values.map(|values| Requirement::AllowedValues {
                    param: p.operand,
                    values,
                })
            }
            ast::Requirement::Matches(c) => {
                let p = self.operand_ref(scope, id, &c.param);
                if let Some(p) = p
                    && !matches!(p.ty, ValueType::String(_))
                {
                    self.err(
                        c.param.at(),
                        format!(
                            "rule `{id}` matches a pattern against `{}`, which is not a string",
                            p.name()
                        ),
                    );
                }
                let pattern = self.regex(c.pattern.at(), &c.pattern);
                Some(Requirement::Matches {
                    param: p?.operand,
                    pattern: pattern?,
                })
            }
        }
    }

    /// The two parameters of an `ordered` or `max_span` check: distinct, and both times of one
    /// format. Problems are placed at the check (`at`).
    fn time_pair(
        &mut self,
        scope: &Scope<'_>,
        id: &str,
        (a, b): (&Spanned<OperandName>, &Spanned<OperandName>),
        at: crate::diag::Span,
    ) -> Option<(Operand, Operand)> {
        let a = self.operand_ref(scope, id, a);
        let b = self.operand_ref(scope, id, b);
        let (a, b) = (a?, b?);
        if a.operand == b.operand {
            self.err(
                at,
                format!("rule `{id}` compares parameter `{}` with itself", a.name()),
            );
        } else if a.time_format().is_none() || a.time_format() != b.time_format() {
            let d = self.err(at, format!("rule `{id}` compares `{}` and `{}`, which are not both Unix seconds or both RFC 3339 times", a.name(), b.name()));
            Self::hint(
                d,
                "ordered and max_span compare two time parameters of the same format",
            );
        }
        Some((a.operand, b.operand))
    }

    /// Texts of a rule read as values of type `ty`; `what` names one in a message.
    fn literals(
        &mut self,
        values: &[Spanned<String>],
        ty: &ValueType,
        value_sets: &[ValueSet],
        what: impl Fn(&str) -> String,
    ) -> Option<Vec<Literal>> {
        let mut out = Vec::new();
        for v in values {
            let text = ValueKind::String(v.to_string());
            out.push(self.literal(v.at(), &text, ty, value_sets, &what(v))?);
        }
        Some(out)
    }

    /// The condition of rule `id`.
    fn condition(
        &mut self,
        scope: &Scope<'_>,
        id: &str,
        c: &Spanned<ast::Condition>,
        value_sets: &[ValueSet],
    ) -> Option<Condition> {
        let p = self.operand_ref(scope, id, &c.param)?;
        match (&c.one_of, &c.matches) {
            (Some(values), None) => {
                if values.is_empty() {
                    self.err(
                        values.at(),
                        format!("the condition of rule `{id}` lists no value"),
                    );
                }
                let what = |v: &str| format!("value `{v}` in the condition of rule `{id}`");
                let values = self.literals(values, p.ty, value_sets, what)?;
                Some(Condition::In {
                    param: p.operand,
                    values,
                })
            }
            (None, Some(re)) => {
                if !matches!(p.ty, ValueType::String(_)) {
                    self.err(c.param.at(), format!("the condition of rule `{id}` matches a pattern against `{}`, which is not a string", p.name()));
                    return None;
                }
                if !re.starts_with('^') {
                    let d = self.err(
                        re.at(),
                        format!("condition pattern `{re}` does not start with `^`"),
                    );
                    Self::hint(
                        d,
                        "conditions match a prefix or the whole value; anchor them at the start",
                    );
                    return None;
                }
                let pattern = self.compiled(re.at(), re, Pattern::compile(re))?;
                Some(Condition::Matches {
                    param: p.operand,
                    pattern,
                })
            }
            _ => {
                let d = self.err(
                    c.at(),
                    format!("the condition of rule `{id}` needs exactly one of `in` and `matches`"),
                );
                Self::hint(
                    d,
                    "for example `when: { param: event_type, in: [Split Date] }`",
                );
                None
            }
        }
    }
}
