//! One request parameter: its type and the constraints that kind of type can carry, its
//! default, and the literals rules compare it with.

use super::Cx;
use crate::ast::{self, Format, ParamLocation, Spanned, ValueKind};
use crate::diag::Span;
use crate::model::{
    EnumType, IntegerFormat, IntegerType, ListForm, ListStyle, Literal, Param, ParamId, Provenance,
    StringType, TextFormat, ValueRef, ValueSet, ValueType, VariantId,
};

/// Primitive parameter types.
const PARAM_PRIMITIVES: &[&str] = &["string", "integer", "boolean"];

impl Cx<'_> {
    pub(super) fn param(
        &mut self,
        id: ParamId,
        p: &Spanned<ast::Param>,
        ident: String,
        value_sets: &[ValueSet],
    ) -> Option<Param> {
        let before = self.errors.len();
        let name = p.name.as_str();
        let type_text = p.ty.as_str();
        let mut ty = match type_text {
            "string" => ValueType::String(StringType::default()),
            "integer" => ValueType::Integer(IntegerType::default()),
            "boolean" => ValueType::Boolean,
            other => match value_sets.iter().find(|v| v.spec_name == other) {
                Some(vs) => ValueType::Enum(EnumType {
                    set: vs.id,
                    name: vs.name.clone(),
                    tolerant: vs.tolerant,
                    values: vs.values.iter().map(|v| v.wire.clone()).collect(),
                }),
                None => {
                    let d = self.err(
                        p.ty.at(),
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
        if let Some(spanned_format) = &p.format {
            let format = **spanned_format;
            let fits = match (&mut ty, format) {
                (ValueType::Integer(t), Format::UnixSeconds) => {
                    t.format = Some(IntegerFormat::UnixSeconds);
                    true
                }
                (ValueType::String(t), Format::Text(f)) => {
                    t.format = Some(f);
                    true
                }
                _ => false,
            };
            if !fits {
                let d = self.err(
                    spanned_format.at(),
                    format!(
                        "format `{}` does not fit parameter `{name}` of type `{type_text}`",
                        format.name()
                    ),
                );
                Self::hint(d, format!("parameters take {}", checked_formats()));
            }
        }
        if *p.location == ParamLocation::Path && ty == ValueType::Boolean {
            self.err(
                p.ty.at(),
                format!("path parameter `{name}` cannot be a boolean"),
            );
        }
        self.constraints(
            &format!("parameter `{name}`"),
            p.constraints(),
            Some(&mut ty),
            &format!("is of type `{type_text}`"),
        );
        let list = self.list_form(p, &ty);
        if let Some(default) = &p.default
            && p.required
        {
            let d = self.err(
                default.at(),
                format!("required parameter `{name}` has a default, which would never apply"),
            );
            Self::hint(d, "drop the default, or make the parameter optional");
        }
        let default = p.default.as_ref().and_then(|v| {
            let what = format!("the default of `{name}`");
            let lit = self.literal(v.at(), v, &ty, value_sets, &what)?;
            self.default_fits(v.at(), name, &lit, &ty).then_some(lit)
        });
        if self.errors.len() != before {
            return None;
        }
        Some(Param {
            id,
            at: self.loc(p.at()),
            wire: p.name.to_string(),
            ident,
            location: *p.location,
            ty,
            list,
            required: p.required,
            default,
            doc: p.doc.clone(),
            provenance: Provenance::from_reason(p.assumed.as_ref()),
        })
    }

    /// The form of a list parameter (`array: true`): a query parameter, with its `style`, item
    /// bounds that can be met, no default, and items a comma can separate; the keys of a list
    /// on a parameter that is not one are refused.
    fn list_form(&mut self, p: &Spanned<ast::Param>, ty: &ValueType) -> Option<ListForm> {
        let name = p.name.as_str();
        let is_list = p.array.as_ref().is_some_and(|a| **a);
        if !is_list {
            for (key, at) in [
                ("style", p.style.as_ref().map(|s| s.at())),
                ("min_items", p.min_items.as_ref().map(|s| s.at())),
                ("max_items", p.max_items.as_ref().map(|s| s.at())),
            ] {
                if let Some(at) = at {
                    let d = self.err(
                        at,
                        format!("parameter `{name}` has `{key}` but is not a list"),
                    );
                    Self::hint(
                        d,
                        "`style`, `min_items` and `max_items` describe a list: add `array: true`, or remove the key",
                    );
                }
            }
            return None;
        }
        let at = p.array.as_ref().map_or(p.at(), |a| a.at());
        if *p.location == ParamLocation::Path {
            let d = self.err(at, format!("path parameter `{name}` cannot be a list"));
            Self::hint(d, "a list is a query parameter: declare it `in: query`");
        }
        if let Some(default) = &p.default {
            let d = self.err(
                default.at(),
                format!("list parameter `{name}` has a default"),
            );
            Self::hint(d, "a list has no default: no item is the list not given");
        }
        let Some(style) = p.style.as_ref().map(|s| **s) else {
            let d = self.err(
                at,
                format!("list parameter `{name}` does not say how it travels"),
            );
            Self::hint(
                d,
                "add `style: comma` (`name=a,b`) or `style: repeated` (`name=a&name=b`)",
            );
            return None;
        };
        let (min, max) = (
            p.min_items.as_deref().copied(),
            p.max_items.as_deref().copied(),
        );
        if let Some(low) = &p.min_items
            && **low < 1
        {
            let d = self.err(
                low.at(),
                format!("list parameter `{name}` has `min_items: {}`", **low),
            );
            Self::hint(
                d,
                "a list given has at least one item (none is not given, which `required` decides): use 2 or more, or leave it out",
            );
        }
        if let Some(high) = &p.max_items
            && **high < 1
        {
            self.err(
                high.at(),
                format!(
                    "list parameter `{name}` has `max_items: {}`, so no list can be given",
                    **high
                ),
            );
        }
        if let (Some(low), Some(min), Some(max)) = (&p.min_items, min, max)
            && min > max
        {
            let d = self.err(
                low.at(),
                format!("list parameter `{name}` has min_items {min} above its max_items {max}"),
            );
            Self::hint(d, "swap them, or correct one");
        }
        if let (ListStyle::Comma, ValueType::Enum(e)) = (style, ty)
            && let Some(v) = e
                .values
                .iter()
                .find(|v| !mrds_runtime::holds::comma_item(v))
        {
            let d = self.err(p.ty.at(), format!("list parameter `{name}` is comma-separated, but its value set `{}` has the value `{v}`, which no comma-separated item can be", e.name));
            Self::hint(d, "use `style: repeated`");
        }
        Some(ListForm {
            style,
            min_items: min,
            max_items: max,
        })
    }

    /// A default must pass the parameter's own checks.
    fn default_fits(&mut self, at: Span, name: &str, lit: &Literal, ty: &ValueType) -> bool {
        match (lit, ty) {
            (Literal::Integer(n), ValueType::Integer(t))
                if t.min.is_some_and(|min| *n < min) || t.max.is_some_and(|max| *n > max) =>
            {
                let range = match (t.min, t.max) {
                    (Some(a), Some(b)) => format!("{a}..={b}"),
                    (Some(a), None) => format!(">= {a}"),
                    (None, b) => format!("<= {}", b.unwrap_or_default()),
                };
                self.err(
                    at,
                    format!(
                        "the default {n} of parameter `{name}` is outside its own range {range}"
                    ),
                );
                false
            }
            (Literal::String(s), ValueType::String(t)) => {
                if let Some(p) = &t.pattern
                    && !p.is_match(s)
                {
                    self.err(at, format!("the default `{s}` of parameter `{name}` does not match its own pattern `{p}`"));
                    return false;
                }
                if let Some(f) = t.format
                    && !f.holds(s)
                {
                    self.err(
                        at,
                        format!("the default `{s}` of parameter `{name}` {}", f.reason()),
                    );
                    return false;
                }
                true
            }
            _ => true,
        }
    }

    /// A YAML scalar (at `at`) read as a value of `ty`.
    pub(super) fn literal(
        &mut self,
        at: Span,
        v: &ValueKind,
        ty: &ValueType,
        value_sets: &[ValueSet],
        what: &str,
    ) -> Option<Literal> {
        let text = match v {
            ValueKind::String(s) => s.clone(),
            ValueKind::Number(n) => n.to_string(),
            ValueKind::Bool(b) => b.to_string(),
            _ => {
                self.err(at, format!("{what} must be a single value"));
                return None;
            }
        };
        match ty {
            // Values of rules are written as text (`in: ["true"]`): read that text too.
            ValueType::Integer(_) => match v.as_i64().or_else(|| text.parse().ok()) {
                Some(n) => Some(Literal::Integer(n)),
                None => {
                    // Untyped, an integer beyond 64 bits is read as its text.
                    let digits = text.strip_prefix(['-', '+']).unwrap_or(&text);
                    let message =
                        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                            format!(
                                "{what} is the integer {text}, out of range: expected {}..={}",
                                i64::MIN,
                                i64::MAX
                            )
                        } else {
                            format!("{what} is `{text}`, not an integer")
                        };
                    self.err(at, message);
                    None
                }
            },
            ValueType::Boolean => match v.as_bool().or(match text.as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            }) {
                Some(b) => Some(Literal::Boolean(b)),
                None => {
                    self.err(at, format!("{what} is `{text}`, not `true` or `false`"));
                    None
                }
            },
            ValueType::String(_) => Some(Literal::String(text)),
            ValueType::Enum(e) => {
                let vs = &value_sets[e.set.index()];
                match vs.values.iter().position(|x| x.wire == text) {
                    Some(i) => Some(Literal::Variant(ValueRef {
                        set: e.set,
                        variant: VariantId::new(i),
                        set_name: vs.name.clone(),
                        ident: vs.values[i].ident.clone(),
                        wire: text,
                    })),
                    None => {
                        let d = self.err(
                            at,
                            format!("{what} is `{text}`, which is not a value of `{}`", vs.name),
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
}

/// The formats a request's values are checked against: `unix_seconds on integers, and rfc3339,
/// uuid, hex16 or date on strings`.
pub(super) fn checked_formats() -> String {
    let text: Vec<&str> = TextFormat::ALL.iter().map(|f| f.name()).collect();
    let (last, rest) = text.split_last().unwrap_or((&"", &[]));
    format!(
        "{} on integers, and {} or {last} on strings",
        Format::UnixSeconds.name(),
        rest.join(", ")
    )
}
