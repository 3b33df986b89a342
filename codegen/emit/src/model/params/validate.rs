//! What `validate` and `from_raw` check: each parameter's own checks (a list's items one by
//! one), and how the values checked reach the check function ([`CheckValues`]).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::local;
use crate::docs;
use crate::ident;
use crate::model::MAX_ARGS;
use crate::model::checks::{Var, base_type, int, value_checks, var};
use mrds_spec::model::{
    Endpoint, Inputs, ListForm, ListStyle, Operand, Param, ValueCheck, ValueType,
};

/// How the check function sees a parameter: `Option<&str>`, `Option<i64>`, ...
fn check_type(p: &Param) -> TokenStream {
    check_type_for(p, &quote!())
}

/// [`check_type`] with the references' `lifetime` (`'a`, or nothing where it is elided).
fn check_type_for(p: &Param, lifetime: &TokenStream) -> TokenStream {
    if p.list.is_some() {
        // Its items; `None` when they could not be read.
        let t = base_type(p);
        return quote!(Option<&#lifetime [#t]>);
    }
    match &p.ty {
        ValueType::String(_) => quote!(Option<&#lifetime str>),
        ValueType::Integer(_) => quote!(Option<i64>),
        ValueType::Boolean => quote!(Option<bool>),
        ValueType::Enum(_) => {
            let t = base_type(p);
            quote!(Option<&#lifetime #t>)
        }
    }
}

/// How the values a parameter type checks reach its `check` function: one argument each
/// after `issues` while that makes at most [`MAX_ARGS`], otherwise one private struct,
/// `<Type>Checks` (a name the checker reserves), naming each.
pub(super) struct CheckValues {
    /// The struct, or nothing.
    pub(super) definition: TokenStream,
    /// The check function's parameters after `issues`.
    pub(super) params: TokenStream,
    /// The struct's name, when there is one.
    view: Option<proc_macro2::Ident>,
}

impl CheckValues {
    pub(super) fn new(e: &Endpoint, checked: &[&Param]) -> CheckValues {
        let locals: Vec<_> = checked.iter().map(|p| local(p)).collect();
        if checked.len() < MAX_ARGS {
            let types = checked.iter().map(|p| check_type(p));
            return CheckValues {
                definition: TokenStream::new(),
                params: quote!(#(#locals: #types),*),
                view: None,
            };
        }
        let view = format_ident!("{}", mrds_spec::naming::checks_type(&e.names.params_type));
        let types = checked.iter().map(|p| check_type_for(p, &quote!('a)));
        let doc = docs(&format!(
            "The values [`{}`] checks, by name (more than a function takes one by one).",
            e.names.params_type
        ));
        CheckValues {
            definition: quote! {
                #doc
                struct #view<'a> {
                    #(#locals: #types,)*
                }
            },
            params: quote!(#view { #(#locals),* }: #view<'_>),
            view: Some(view),
        }
    }

    /// The arguments after `issues` of a call, each parameter's value made by `value`.
    pub(super) fn args(
        &self,
        checked: &[&Param],
        value: impl Fn(&Param) -> TokenStream,
    ) -> TokenStream {
        let values = checked.iter().map(|p| value(p));
        match &self.view {
            None => quote!(#(#values),*),
            Some(view) => {
                let fields = checked.iter().zip(values).map(|(p, value)| {
                    let x = local(p);
                    // The local itself: the shorthand, as clippy wants it.
                    if x == value.to_string() {
                        quote!(#x)
                    } else {
                        quote!(#x: #value)
                    }
                });
                quote!(#view { #(#fields),* })
            }
        }
    }
}

/// `self.x` as the check function sees it.
pub(super) fn from_self(p: &Param) -> TokenStream {
    let x = ident(&p.ident);
    if p.list.is_some() {
        return quote!(Some(self.#x.as_slice()));
    }
    match (&p.ty, p.always()) {
        (ValueType::String(_), true) => quote!(Some(self.#x.as_str())),
        (ValueType::String(_), false) => quote!(self.#x.as_deref()),
        (ValueType::Integer(_) | ValueType::Boolean, true) => quote!(Some(self.#x)),
        (ValueType::Integer(_) | ValueType::Boolean, false) => quote!(self.#x),
        (ValueType::Enum(_), true) => quote!(Some(&self.#x)),
        (ValueType::Enum(_), false) => quote!(self.#x.as_ref()),
    }
}

/// The parsed local `Option<T>` as the check function sees it.
pub(super) fn from_local(p: &Param) -> TokenStream {
    let x = local(p);
    if p.list.is_some() {
        return quote!(#x.as_deref());
    }
    match &p.ty {
        ValueType::String(_) => quote!(#x.as_deref()),
        ValueType::Integer(_) | ValueType::Boolean => quote!(#x),
        ValueType::Enum(_) => quote!(#x.as_ref()),
    }
}

/// The checks of one parameter's own rules, one statement each.
pub(super) fn param_checks(e: &Endpoint, p: &Param) -> Vec<TokenStream> {
    let inputs = Inputs {
        params: &e.params,
        body: None,
    };
    let Some(v) = inputs.get(Operand::Param(p.id)).as_ref().map(var) else {
        return Vec::new();
    };
    match &p.list {
        None => value_checks(e, &v),
        Some(form) => list_checks(e, p, form, &v),
    }
}

/// The checks of a list parameter: the number of its items (none when it is required, then
/// its bounds), and each item's own checks, the issues naming the item by its index; when the
/// items could not be read, none.
fn list_checks(e: &Endpoint, p: &Param, form: &ListForm, v: &Var<'_>) -> Vec<TokenStream> {
    let (x, wire) = (&v.local, &v.wire);
    let mut per_item = value_checks(e, v);
    // An empty item of a comma list (or one holding a comma) is no item: one problem, and its
    // own checks are not run on it (the server's reading and the generator's judgement agree).
    if let (ListStyle::Comma, ValueType::String(_)) = (form.style, &p.ty) {
        let rule = e.value_rule(wire, ValueCheck::Type);
        per_item = vec![quote! {
            if issues.comma_item(#rule, #wire, #x) {
                #(#per_item)*
            }
        }];
    }
    let counted = p.required || form.min_items.is_some() || form.max_items.is_some();
    if !counted && per_item.is_empty() {
        return Vec::new();
    }
    let count = counted.then(|| {
        let required = match p.required {
            true => {
                let rule = e.value_rule(wire, ValueCheck::Required);
                quote!(Some(#rule))
            }
            false => quote!(None),
        };
        let rule = e.value_rule(wire, ValueCheck::Items);
        let (min, max) = (option_int(form.min_items), option_int(form.max_items));
        quote!(issues.items((#required, #rule), #wire, items.len(), #min, #max);)
    });
    let each = (!per_item.is_empty()).then(|| {
        let item = match &p.ty {
            ValueType::String(_) => quote!(Some(item.as_str())),
            ValueType::Integer(_) | ValueType::Boolean => quote!(Some(*item)),
            ValueType::Enum(_) => quote!(Some(item)),
        };
        quote! {
            issues.each(#wire, items, |issues, item| {
                let #x = #item;
                #(#per_item)*
            });
        }
    });
    vec![quote! {
        if let Some(items) = #x {
            #count
            #each
        }
    }]
}

/// `Some(n)` or `None`, as the runtime's checks take a bound.
fn option_int(v: Option<i64>) -> TokenStream {
    match v.map(int) {
        Some(n) => quote!(Some(#n)),
        None => quote!(None),
    }
}
