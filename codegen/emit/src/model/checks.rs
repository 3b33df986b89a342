//! The checks the generated code makes, whatever holds the values: an input's own checks and
//! the rules, over the locals [`Var`] names (`p_<param>` for a parameter, `f_<field>` for a field
//! of the body). The parameter types (`params.rs`) and the body records (`records.rs`) both
//! generate theirs here.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::{ident, pattern};
use mrds_spec::model::{
    Condition, Endpoint, Equal, Input, Inputs, Literal, Operand, Param, Place, Requirement, Rule,
    ValueCheck, ValueType,
};

/// `p_<name>`: the local of the parameter whose bare identifier is `bare`.
pub(super) fn param_local(bare: &str) -> proc_macro2::Ident {
    format_ident!("p_{bare}")
}

/// The value set of a literal naming one of its values (imported where the literal is
/// written: a path in a `matches!` pattern is written as it is).
pub(super) fn set_of(l: &Literal) -> Option<&str> {
    match l {
        Literal::Variant(v) => Some(v.set_name.as_str()),
        _ => None,
    }
}

/// A literal as a pattern (for `matches!`).
pub(super) fn literal_pattern(l: &Literal) -> TokenStream {
    match l {
        Literal::String(s) => quote!(#s),
        Literal::Integer(n) => {
            let n = int(*n);
            quote!(#n)
        }
        Literal::Boolean(b) => quote!(#b),
        Literal::Variant(v) => {
            let (set, var) = (ident(&v.set_name), ident(&v.ident));
            quote!(#set::#var)
        }
    }
}

/// An integer literal without a type suffix (`500`, not `500i64`).
pub(super) fn int(n: i64) -> proc_macro2::Literal {
    proc_macro2::Literal::i64_unsuffixed(n)
}

fn option_i64(v: Option<i64>) -> TokenStream {
    match v.map(int) {
        Some(n) => quote!(Some(#n)),
        None => quote!(None),
    }
}

/// A value the checks read: its name in an issue, the local holding it while checking (an
/// `Option` as the check function sees it), and its type.
pub(super) struct Var<'a> {
    pub wire: String,
    pub local: proc_macro2::Ident,
    pub ty: &'a ValueType,
}

/// An input as the checks read it: named as its issues name it (`limit`, `body.handle`), in
/// the local `p_<param>` or `f_<field>`.
pub(super) fn var<'m>(i: &Input<'m>) -> Var<'m> {
    Var {
        wire: i.name(),
        local: match i.place {
            Place::Query | Place::Path => param_local(i.bare_ident()),
            Place::Body => format_ident!("f_{}", i.bare_ident()),
        },
        ty: i.ty,
    }
}

/// The inputs of `e` as the checks read them, by operand.
pub(super) fn vars<'m>(inputs: Inputs<'m>) -> impl Fn(Operand) -> Option<Var<'m>> {
    move |op| inputs.get(op).as_ref().map(var)
}

/// The checks of an input's own rules, one statement each.
pub(super) fn value_checks(e: &Endpoint, v: &Var<'_>) -> Vec<TokenStream> {
    let rule = |check: ValueCheck| e.value_rule(&v.wire, check);
    let (x, wire) = (&v.local, &v.wire);
    let mut out = Vec::new();
    match v.ty {
        ValueType::Integer(t) => {
            if t.min.is_some() || t.max.is_some() {
                let rule = rule(ValueCheck::Range);
                let (min, max) = (option_i64(t.min), option_i64(t.max));
                out.push(quote!(issues.range(#rule, #wire, #x, #min, #max);));
            }
        }
        ValueType::String(t) => {
            if let Some(p) = &t.pattern {
                let rule = rule(ValueCheck::Pattern);
                let reason = mrds_runtime::pattern_reason(p.source(), t.pattern_doc.as_deref());
                let matcher = pattern(p);
                out.push(quote!(issues.pattern(#rule, #wire, #x, #matcher, #reason);));
            }
            if let Some(format) = t.format {
                let rule = rule(ValueCheck::Format);
                let f = format_ident!("{}", format!("{format:?}"));
                out.push(quote!(issues.format(#rule, #wire, #x, mrds_runtime::TextFormat::#f);));
            }
        }
        ValueType::Enum(set) if set.tolerant => {
            let rule = rule(ValueCheck::Values);
            let name = ident(&set.name);
            out.push(quote!(issues.known(#rule, #wire, #x, crate::value_sets::#name::WIRE);));
        }
        ValueType::Enum(_) | ValueType::Boolean => {}
    }
    out
}

/// The condition of a rule, as a boolean expression over the locals `var` names.
fn condition<'v>(c: &Condition, var: &dyn Fn(Operand) -> Option<Var<'v>>) -> Option<TokenStream> {
    let x = var(c.operand())?.local;
    Some(match c {
        Condition::In { values, .. } => {
            let pats = values.iter().map(literal_pattern);
            quote!(matches!(#x, Some(#(#pats)|*)))
        }
        Condition::Matches { pattern: p, .. } => {
            let matcher = pattern(p);
            quote!(#x.is_some_and(|v| #matcher.is_match(v)))
        }
    })
}

/// The check of one rule (over the values `var` names; `None` when one of its operands has
/// none, which the checker never lets through).
pub(super) fn rule_check<'v>(
    rule: &Rule,
    var: &dyn Fn(Operand) -> Option<Var<'v>>,
) -> Option<TokenStream> {
    let id = &rule.id;
    let reason = rule.reason();
    let arg = |op: &Operand| {
        let Var { wire, local: x, .. } = var(*op)?;
        Some(quote!((#wire, #x)))
    };
    let call = match &rule.requirement {
        Requirement::Ordered {
            before,
            after,
            equal,
        } => {
            let (a, b) = (arg(before)?, arg(after)?);
            let equal = match equal {
                Equal::Refused => quote!(mrds_runtime::Equal::Refused),
                Equal::Allowed => quote!(mrds_runtime::Equal::Allowed),
            };
            quote!(issues.ordered(#id, #reason, #a, #b, #equal);)
        }
        Requirement::MaxSpan { from, to, seconds } => {
            let (a, b, seconds) = (arg(from)?, arg(to)?, int(*seconds));
            quote!(issues.max_span(#id, #reason, #seconds, #a, #b);)
        }
        Requirement::Requires {
            param: dependent,
            needs,
        } => {
            let (a, b) = (var(*dependent)?, var(*needs)?);
            let (wire, xa, xb) = (&a.wire, &a.local, &b.local);
            quote!(issues.requires(#id, #wire, #reason, #xa, #xb.is_some());)
        }
        Requirement::AtLeastOne(ops) => {
            let field = var(ops[0])?.wire;
            let given = ops
                .iter()
                .map(|op| {
                    let x = var(*op)?.local;
                    Some(quote!(#x.is_some()))
                })
                .collect::<Option<Vec<_>>>()?;
            quote!(issues.at_least_one(#id, #field, #reason, &[#(#given),*]);)
        }
        Requirement::AllowedValues { param, values } => {
            let Var { wire, local: x, .. } = var(*param)?;
            let pats = values.iter().map(literal_pattern);
            quote!(issues.allowed(#id, #wire, #reason, #x, |v| matches!(v, #(#pats)|*));)
        }
        Requirement::Matches { param, pattern: p } => {
            let Var { wire, local: x, .. } = var(*param)?;
            let matcher = pattern(p);
            quote!(issues.pattern(#id, #wire, #x, #matcher, #reason);)
        }
    };
    Some(match &rule.when {
        Some(c) => {
            let cond = condition(c, var)?;
            quote!(if #cond { #call })
        }
        None => call,
    })
}

/// `let f_x = ...;`: the body field `i` of `from` (`self`, `body`) as the checks read it.
pub(super) fn body_local(i: &Input<'_>, from: &TokenStream) -> Option<TokenStream> {
    let v = var(i);
    let (x, field) = (&v.local, ident(i.ident));
    let optional = !i.required;
    let value = match (v.ty, optional) {
        (ValueType::String(_), false) => quote!(Some(#from.#field.as_str())),
        (ValueType::String(_), true) => quote!(#from.#field.as_deref()),
        (ValueType::Integer(_) | ValueType::Boolean, false) => quote!(Some(#from.#field)),
        (ValueType::Integer(_) | ValueType::Boolean, true) => quote!(#from.#field),
        (ValueType::Enum(_), false) => quote!(Some(&#from.#field)),
        (ValueType::Enum(_), true) => quote!(#from.#field.as_ref()),
    };
    (i.place == Place::Body).then(|| quote!(let #x = #value;))
}

/// The type of a parameter's value: its base type, or a `Vec` of it for a list.
pub(super) fn value_type(p: &Param) -> TokenStream {
    let base = base_type(p);
    match p.list {
        Some(_) => quote!(Vec<#base>),
        None => base,
    }
}

/// The type of one value of a parameter (of each item, for a list).
pub(super) fn base_type(p: &Param) -> TokenStream {
    match &p.ty {
        ValueType::String(_) => quote!(String),
        ValueType::Integer(_) => quote!(i64),
        ValueType::Boolean => quote!(bool),
        ValueType::Enum(e) => {
            let n = ident(&e.name);
            quote!(#n)
        }
    }
}
