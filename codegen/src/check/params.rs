//! One request parameter: its type and the constraints that kind of type can carry, its
//! default, and the literals rules compare it with.

use super::{Cx, regex_problem};
use crate::ast::{self, ParamFormat, ParamLocation};
use crate::load::LoadedFile;
use crate::model::*;

/// Primitive parameter types.
const PARAM_PRIMITIVES: &[&str] = &["string", "integer", "boolean"];

impl Cx<'_> {
    pub(super) fn param(
        &mut self,
        file: &LoadedFile,
        path: &str,
        p: &ast::Param,
        ident: String,
        value_sets: &[ValueSet],
    ) -> Option<Param> {
        let before = self.errors.len();
        let name = &p.name;
        let type_text = p.ty.as_str();
        let mut ty = match type_text {
            "string" => ParamType::String(StringType::default()),
            "integer" => ParamType::Integer(IntegerType {
                min: p.min,
                max: p.max,
                format: None,
            }),
            "boolean" => ParamType::Boolean,
            other => match value_sets.iter().find(|v| v.spec_name == other) {
                Some(vs) => ParamType::Enum(EnumType {
                    name: vs.name.clone(),
                    tolerant: vs.tolerant,
                    values: vs.values.iter().map(|v| v.wire.clone()).collect(),
                }),
                None => {
                    let d = self.err(
                        file,
                        &format!("{path}.type"),
                        format!("unknown type `{other}` for parameter `{name}`"),
                    );
                    let mut candidates: Vec<&str> = PARAM_PRIMITIVES.to_vec();
                    candidates.extend(value_sets.iter().map(|v| v.name.as_str()));
                    Self::suggest(d, other, candidates);
                    if d.hint.is_none() {
                        Self::hint(
                            d,
                            "a parameter type is string, integer, boolean or a value set",
                        );
                    }
                    return None;
                }
            },
        };
        if let Some(format) = p.format {
            let fits = match (&mut ty, format) {
                (ParamType::Integer(t), ParamFormat::UnixSeconds) => {
                    t.format = Some(IntegerFormat::UnixSeconds);
                    true
                }
                (ParamType::String(t), f) => {
                    t.format = match f {
                        ParamFormat::Rfc3339 => Some(StringFormat::Rfc3339),
                        ParamFormat::Uuid => Some(StringFormat::Uuid),
                        ParamFormat::Hex16 => Some(StringFormat::Hex16),
                        ParamFormat::Date => Some(StringFormat::Date),
                        ParamFormat::UnixSeconds => None,
                    };
                    t.format.is_some()
                }
                _ => false,
            };
            if !fits {
                let d = self.err(
                    file,
                    &format!("{path}.format"),
                    format!(
                        "format `{}` does not fit parameter `{name}` of type `{type_text}`",
                        format.name()
                    ),
                );
                Self::hint(
                    d,
                    "parameters take unix_seconds on integers, and rfc3339, uuid, hex16 or date on strings",
                );
            }
        }
        if p.location == ParamLocation::Path && ty == ParamType::Boolean {
            self.err(
                file,
                &format!("{path}.type"),
                format!("path parameter `{name}` cannot be a boolean"),
            );
        }
        if (p.min.is_some() || p.max.is_some()) && !matches!(ty, ParamType::Integer(_)) {
            let key = if p.min.is_some() { "min" } else { "max" };
            self.err(file, &format!("{path}.{key}"), format!("parameter `{name}` has a range but is of type `{type_text}`; ranges apply to integers"));
        }
        if let (Some(min), Some(max)) = (p.min, p.max)
            && min > max
        {
            let d = self.err(
                file,
                &format!("{path}.min"),
                format!("parameter `{name}` has min {min} above its max {max}"),
            );
            Self::hint(d, "swap them, or correct one");
        }
        if let Some(re) = &p.pattern {
            match &mut ty {
                ParamType::String(t) => {
                    if self.regex(file, &format!("{path}.pattern"), re).is_some() {
                        t.pattern = Some(Pattern {
                            regex: re.clone(),
                            doc: p.pattern_doc.clone(),
                        });
                    }
                }
                _ => {
                    self.err(file, &format!("{path}.pattern"), format!("parameter `{name}` has a pattern but is of type `{type_text}`; patterns apply to strings"));
                }
            }
        }
        if p.pattern_doc.is_some() && p.pattern.is_none() {
            self.err(
                file,
                &format!("{path}.pattern_doc"),
                format!("parameter `{name}` explains a pattern it does not have"),
            );
        }
        if p.required && p.default.is_some() {
            let d = self.err(
                file,
                &format!("{path}.default"),
                format!("required parameter `{name}` has a default, which would never apply"),
            );
            Self::hint(d, "drop the default, or make the parameter optional");
        }
        let default = p.default.as_ref().and_then(|v| {
            let what = format!("the default of `{name}`");
            let lit = self.literal(file, &format!("{path}.default"), v, &ty, value_sets, &what)?;
            self.default_fits(file, &format!("{path}.default"), name, &lit, &ty)
                .then_some(lit)
        });
        if self.errors.len() != before {
            return None;
        }
        Some(Param {
            at: file.at(path),
            wire: p.name.clone(),
            ident,
            location: p.location,
            ty,
            required: p.required,
            default,
            doc: p.doc.clone(),
            provenance: Provenance::from_reason(p.assumed.as_ref()),
        })
    }

    /// A default must pass the parameter's own checks.
    fn default_fits(
        &mut self,
        file: &LoadedFile,
        path: &str,
        name: &str,
        lit: &Literal,
        ty: &ParamType,
    ) -> bool {
        match (lit, ty) {
            (Literal::Integer(n), ParamType::Integer(t))
                if t.min.is_some_and(|min| *n < min) || t.max.is_some_and(|max| *n > max) =>
            {
                let range = match (t.min, t.max) {
                    (Some(a), Some(b)) => format!("{a}..={b}"),
                    (Some(a), None) => format!(">= {a}"),
                    (None, b) => format!("<= {}", b.unwrap_or_default()),
                };
                self.err(
                    file,
                    path,
                    format!(
                        "the default {n} of parameter `{name}` is outside its own range {range}"
                    ),
                );
                false
            }
            (Literal::String(s), ParamType::String(t)) => {
                if let Some(p) = &t.pattern
                    && regex::Regex::new(&p.regex).is_ok_and(|re| !re.is_match(s))
                {
                    self.err(file, path, format!("the default `{s}` of parameter `{name}` does not match its own pattern `{}`", p.regex));
                    return false;
                }
                if let Some(f) = t.format
                    && !f.runtime().holds(s)
                {
                    self.err(
                        file,
                        path,
                        format!(
                            "the default `{s}` of parameter `{name}` {}",
                            f.runtime().reason()
                        ),
                    );
                    return false;
                }
                true
            }
            _ => true,
        }
    }

    /// A YAML scalar read as a value of `ty`.
    pub(super) fn literal(
        &mut self,
        file: &LoadedFile,
        path: &str,
        v: &serde_yaml::Value,
        ty: &ParamType,
        value_sets: &[ValueSet],
        what: &str,
    ) -> Option<Literal> {
        use serde_yaml::Value;
        let text = match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => {
                self.err(file, path, format!("{what} must be a single value"));
                return None;
            }
        };
        match ty {
            // Values of rules are written as text (`in: ["true"]`): read that text too.
            ParamType::Integer(_) => match v.as_i64().or_else(|| text.parse().ok()) {
                Some(n) => Some(Literal::Integer(n)),
                None => {
                    self.err(file, path, format!("{what} is `{text}`, not an integer"));
                    None
                }
            },
            ParamType::Boolean => match v.as_bool().or(match text.as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            }) {
                Some(b) => Some(Literal::Boolean(b)),
                None => {
                    self.err(
                        file,
                        path,
                        format!("{what} is `{text}`, not `true` or `false`"),
                    );
                    None
                }
            },
            ParamType::String(_) => Some(Literal::String(text)),
            ParamType::Enum(e) => {
                let vs = value_sets.iter().find(|v| v.name == e.name)?;
                match vs.values.iter().find(|x| x.wire == text) {
                    Some(x) => Some(Literal::Variant(ValueRef {
                        set: e.name.clone(),
                        ident: x.ident.clone(),
                        wire: x.wire.clone(),
                    })),
                    None => {
                        let d = self.err(
                            file,
                            path,
                            format!("{what} is `{text}`, which is not a value of `{}`", e.name),
                        );
                        Self::suggest(d, &text, vs.values.iter().map(|x| x.wire.as_str()));
                        if d.hint.is_none() {
                            let all: Vec<_> =
                                vs.values.iter().map(|x| format!("`{}`", x.wire)).collect();
                            Self::hint(d, format!("the values are {}", all.join(", ")));
                        }
                        None
                    }
                }
            }
        }
    }

    /// An anchored regular expression.
    pub(super) fn regex(
        &mut self,
        file: &LoadedFile,
        path: &str,
        re: &str,
    ) -> Option<regex::Regex> {
        match regex::Regex::new(re) {
            Ok(compiled) => {
                if !re.starts_with('^') || !re.ends_with('$') {
                    let d = self.err(file, path, format!("pattern `{re}` is not anchored"));
                    Self::hint(
                        d,
                        "start it with `^` and end it with `$`, so it describes the whole value everywhere (Rust and OpenAPI alike)",
                    );
                    None
                } else {
                    self.automaton(file, path, re).map(|()| compiled)
                }
            }
            Err(e) => {
                self.err(
                    file,
                    path,
                    format!("invalid regular expression `{re}`: {}", regex_problem(&e)),
                );
                None
            }
        }
    }

    /// The automaton the generated code checks a valid regular expression with
    /// ([`crate::emit::matcher`]); a pattern without one is reported here, at its spec line,
    /// rather than when the crates are generated.
    pub(super) fn automaton(&mut self, file: &LoadedFile, path: &str, re: &str) -> Option<()> {
        let Err(why) = crate::emit::matcher::table(re) else {
            return Some(());
        };
        let d = self.err(
            file,
            path,
            format!(
                "pattern `{re}` cannot be compiled to an automaton: {}",
                why.reason
            ),
        );
        Self::hint(d, why.hint);
        None
    }
}
