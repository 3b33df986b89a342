//! Rules across parameters: each names exactly one check kind over parameters of the
//! endpoint, with the types that kind compares, and an optional condition.

use std::collections::BTreeSet;

use super::{Cx, regex_problem};
use crate::ast;
use crate::load::LoadedFile;
use crate::model::*;

impl Cx<'_> {
    /// A rule's parameter reference; reports an unknown one.
    #[allow(clippy::too_many_arguments)]
    fn param_ref<'p>(
        &mut self,
        file: &LoadedFile,
        path: &str,
        endpoint: &str,
        rule: &str,
        name: &str,
        declared: &'p [ast::Param],
        params: &'p [Param],
    ) -> Option<&'p Param> {
        if let Some(p) = params.iter().find(|p| p.wire == name) {
            return Some(p);
        }
        if declared.iter().any(|p| p.name == name) {
            return None; // declared but broken: already reported
        }
        let d = self.err(
            file,
            path,
            format!(
                "rule `{rule}` names parameter `{name}`, which endpoint `{endpoint}` does not have"
            ),
        );
        Self::suggest(d, name, declared.iter().map(|p| p.name.as_str()));
        if d.hint.is_none() {
            let all: Vec<_> = declared.iter().map(|p| format!("`{}`", p.name)).collect();
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

    #[allow(clippy::too_many_arguments)]
    pub(super) fn rule(
        &mut self,
        endpoint: &str,
        file: &LoadedFile,
        path: &str,
        r: &ast::Rule,
        ep: &ast::Endpoint,
        params: &[Param],
        value_sets: &[ValueSet],
    ) -> Option<Rule> {
        let before = self.errors.len();
        let id = r.id.as_str();
        let prefix = format!("{endpoint}.");
        if !id.starts_with(&prefix)
            || id.len() == prefix.len()
            || !id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.')
        {
            let d = self.err(file, &format!("{path}.id"), format!("rule id `{id}` must be `{endpoint}.<name>` in lowercase letters, digits and `_`"));
            Self::hint(d, format!("for example `{endpoint}.range_order`"));
        } else if id.matches('.').count() != 1 {
            let d = self.err(file, &format!("{path}.id"), format!("rule id `{id}` has more than one dot; ids of that shape belong to the generated per-parameter rules"));
            Self::hint(d, format!("for example `{endpoint}.range_order`"));
        }
        let checks = r.checks();
        let (kind, check) = match checks.as_slice() {
            [(kind, check)] => (*kind, check),
            [] => {
                let d = self.err(file, path, format!("rule `{id}` names no check"));
                Self::hint(
                    d,
                    format!(
                        "give exactly one of {}",
                        ast::CHECK_KINDS
                            .iter()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                return None;
            }
            [_, (second, _), ..] => {
                let d = self.err(
                    file,
                    &format!("{path}.{second}"),
                    format!("rule `{id}` names more than one check"),
                );
                Self::hint(d, "split it into one rule per check, each with its own id");
                return None;
            }
        };
        let cpath = format!("{path}.{kind}");
        let pref = |cx: &mut Self, sub: &str, name: &str| {
            let at = if sub.is_empty() {
                cpath.clone()
            } else {
                format!("{cpath}.{sub}")
            };
            cx.param_ref(file, &at, endpoint, id, name, &ep.params, params)
                .cloned()
        };
        let check = match check {
            ast::Check::Ordered(ast::Ordered {
                before: a_name,
                after: b_name,
            })
            | ast::Check::MaxSpan(ast::MaxSpan {
                from: a_name,
                to: b_name,
                ..
            }) => {
                let (k1, k2) = if kind == "ordered" {
                    ("before", "after")
                } else {
                    ("from", "to")
                };
                let a = pref(self, k1, a_name);
                let b = pref(self, k2, b_name);
                if let (Some(a), Some(b)) = (&a, &b) {
                    if a.wire == b.wire {
                        self.err(
                            file,
                            &cpath,
                            format!("rule `{id}` compares parameter `{}` with itself", a.wire),
                        );
                    } else if !a.is_instant() || a.time_format() != b.time_format() {
                        let d = self.err(file, &cpath, format!("rule `{id}` compares `{}` and `{}`, which are not both Unix seconds or both RFC 3339 times", a.wire, b.wire));
                        Self::hint(
                            d,
                            "ordered and max_span compare two time parameters of the same format",
                        );
                    }
                }
                match check {
                    ast::Check::MaxSpan(m) => {
                        if m.seconds <= 0 {
                            self.err(
                                file,
                                &format!("{cpath}.seconds"),
                                format!(
                                    "rule `{id}` allows a span of {} seconds; it must be positive",
                                    m.seconds
                                ),
                            );
                        }
                        Check::MaxSpan {
                            from: a_name.clone(),
                            to: b_name.clone(),
                            seconds: m.seconds,
                        }
                    }
                    _ => Check::Ordered {
                        before: a_name.clone(),
                        after: b_name.clone(),
                    },
                }
            }
            ast::Check::Requires(ast::Requires { param, needs }) => {
                let a = pref(self, "param", param);
                let b = pref(self, "needs", needs);
                if let (Some(a), Some(b)) = (&a, &b) {
                    if a.wire == b.wire {
                        self.err(
                            file,
                            &cpath,
                            format!("rule `{id}` makes `{}` require itself", a.wire),
                        );
                    } else if a.required || b.required {
                        let which = if b.required { &b.wire } else { &a.wire };
                        let d = self.err(
                            file,
                            &cpath,
                            format!("rule `{id}` can never fail: `{which}` is required anyway"),
                        );
                        Self::hint(d, "`requires` relates two optional parameters");
                    }
                }
                Check::Requires {
                    param: param.clone(),
                    needs: needs.clone(),
                }
            }
            ast::Check::AtLeastOne(names) => {
                if names.len() < 2 {
                    self.err(
                        file,
                        &cpath,
                        format!("rule `{id}` needs at least two parameters"),
                    );
                }
                let mut seen = BTreeSet::new();
                for (i, n) in names.iter().enumerate() {
                    if !seen.insert(n) {
                        self.err(
                            file,
                            &format!("{cpath}[{i}]"),
                            format!("rule `{id}` names `{n}` twice"),
                        );
                    } else if let Some(p) = pref(self, "", n)
                        && p.required
                    {
                        let d = self.err(
                            file,
                            &format!("{cpath}[{i}]"),
                            format!("rule `{id}` can never fail: `{n}` is required anyway"),
                        );
                        Self::hint(d, "`at_least_one` names optional parameters");
                    }
                }
                Check::AtLeastOne(names.to_vec())
            }
            ast::Check::AllowedValues(ast::AllowedValues { param, values }) => {
                let lits = pref(self, "param", param).and_then(|p| {
                    if !matches!(p.ty, ParamType::Enum(_)) {
                        self.err(file, &format!("{cpath}.param"), format!("rule `{id}` restricts the values of `{}`, which is not of a value set", p.wire));
                        return None;
                    }
                    if values.is_empty() {
                        self.err(file, &format!("{cpath}.values"), format!("rule `{id}` allows no value at all"));
                    }
                    let mut out = Vec::new();
                    for (i, v) in values.iter().enumerate() {
                        let y = serde_yaml::Value::String(v.clone());
                        out.push(self.literal(file, &format!("{cpath}.values[{i}]"), &y, &p.ty, value_sets, &format!("value `{v}` of rule `{id}`"))?);
                    }
                    Some(out)
                });
                Check::AllowedValues {
                    param: param.clone(),
                    values: lits.unwrap_or_default(),
                }
            }
            ast::Check::Matches(ast::Matches { param, pattern }) => {
                if let Some(p) = pref(self, "param", param)
                    && !matches!(p.ty, ParamType::String(_))
                {
                    self.err(
                        file,
                        &format!("{cpath}.param"),
                        format!(
                            "rule `{id}` matches a pattern against `{}`, which is not a string",
                            p.wire
                        ),
                    );
                }
                self.regex(file, &format!("{cpath}.pattern"), pattern);
                Check::Matches {
                    param: param.clone(),
                    pattern: pattern.clone(),
                }
            }
        };
        let when = r.when.as_ref().and_then(|c| {
            let wpath = format!("{path}.when");
            let p = self.param_ref(file, &format!("{wpath}.param"), endpoint, id, &c.param, &ep.params, params)?.clone();
            match (&c.one_of, &c.matches) {
                (Some(values), None) => {
                    if values.is_empty() {
                        self.err(file, &format!("{wpath}.in"), format!("the condition of rule `{id}` lists no value"));
                    }
                    let mut out = Vec::new();
                    for (i, v) in values.iter().enumerate() {
                        let y = serde_yaml::Value::String(v.clone());
                        out.push(self.literal(file, &format!("{wpath}.in[{i}]"), &y, &p.ty, value_sets, &format!("value `{v}` in the condition of rule `{id}`"))?);
                    }
                    Some(Condition::In { param: c.param.clone(), values: out })
                }
                (None, Some(re)) => {
                    if !matches!(p.ty, ParamType::String(_)) {
                        self.err(file, &format!("{wpath}.param"), format!("the condition of rule `{id}` matches a pattern against `{}`, which is not a string", p.wire));
                        return None;
                    }
                    if !re.starts_with('^') {
                        let d = self.err(file, &format!("{wpath}.matches"), format!("condition pattern `{re}` does not start with `^`"));
                        Self::hint(d, "conditions match a prefix or the whole value; anchor them at the start");
                        return None;
                    }
                    regex::Regex::new(re).map_err(|e| {
                        self.err(file, &format!("{wpath}.matches"), format!("invalid regular expression `{re}`: {}", regex_problem(&e)));
                    }).ok()?;
                    self.automaton(file, &format!("{wpath}.matches"), re)?;
                    Some(Condition::Matches { param: c.param.clone(), pattern: re.clone() })
                }
                _ => {
                    let d = self.err(file, &wpath, format!("the condition of rule `{id}` needs exactly one of `in` and `matches`"));
                    Self::hint(d, "for example `when: { param: event_type, in: [Split Date] }`");
                    None
                }
            }
        });
        if self.errors.len() != before {
            return None;
        }
        Some(Rule {
            at: file.at(path),
            id: r.id.clone(),
            doc: r.doc.clone(),
            provenance: Provenance::from_reason(r.assumed.as_ref()),
            when,
            check,
        })
    }
}
