//! `params.rs`: one parameter type per endpoint, with construction, validation, parsing of
//! received parameters and serialization.
//!
//! Hygiene: spec-derived names appear only as struct fields, methods and argument names of
//! `new`; every local holding a parameter's value is `p_<name>`, so it can collide neither with
//! another parameter nor with the few fixed locals (`raw`, `issues`, `query`); patterns are
//! statics scoped to the expression that uses them (`mrds_runtime::pattern!`, holding the
//! automaton the checker compiled, [`mrds_spec::model::Pattern`]).

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::MAX_ARGS;
use super::checks::{
    Var, base_type, body_local, int, literal_pattern, param_local, rule_check, set_of,
    value_checks, value_type, var, vars,
};
use super::init::{init_docs, init_name};
use crate::endpoint_doc::{EndpointDoc, Style};
use crate::{deprecation, docs, ident, prose, with_provenance};
use mrds_spec::model::{
    Api, Body, Endpoint, Format, Inputs, IntegerFormat, ListForm, ListStyle, Literal, Operand,
    Param, ParamId, ParamLocation, Reads, Rule, ValueCheck, ValueType,
};

mod wire;

use wire::{from_raw_body, path_body, to_query_body};

pub(super) fn file(api: &Api) -> TokenStream {
    let types = api.endpoints.iter().map(|e| params_type(api, e));
    let sets: BTreeSet<&str> = api
        .endpoints
        .iter()
        .flat_map(|e| &e.params)
        .filter_map(|p| match &p.ty {
            ValueType::Enum(e) => Some(e.name.as_str()),
            _ => None,
        })
        .chain(api.endpoints.iter().flat_map(|e| {
            // The rules the parameter type checks (the body record checks those reading the
            // body alone).
            (e.rules.iter())
                .filter(|r| r.reads() != Reads::Body)
                .flat_map(Rule::literals)
                .filter_map(set_of)
        }))
        .collect();
    let sets: Vec<_> = sets.into_iter().map(ident).collect();
    let uses = (!api.endpoints.is_empty()).then(|| {
        quote!(
            use mrds_runtime::{RawParams, Request, ValidationError};
        )
    });
    let uses_sets = (!sets.is_empty()).then(|| quote!(use crate::value_sets::{#(#sets),*};));
    quote! {
        //! One parameter type per endpoint: required parameters by construction, defaults from
        //! the spec, `validate()` enforcing every rule, and query parsing and serialization.

        #uses
        #uses_sets

        #(#types)*
    }
}

/// The local holding a parameter's value while parsing and checking.
fn local(p: &Param) -> proc_macro2::Ident {
    param_local(p.bare_ident())
}

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
struct CheckValues {
    /// The struct, or nothing.
    definition: TokenStream,
    /// The check function's parameters after `issues`.
    params: TokenStream,
    /// The struct's name, when there is one.
    view: Option<proc_macro2::Ident>,
}

impl CheckValues {
    fn new(e: &Endpoint, checked: &[&Param]) -> CheckValues {
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
    fn args(&self, checked: &[&Param], value: impl Fn(&Param) -> TokenStream) -> TokenStream {
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
fn from_self(p: &Param) -> TokenStream {
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
fn from_local(p: &Param) -> TokenStream {
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

/// A literal as a value of its parameter's type (its value set imported): its pattern, but
/// text owned.
fn literal(l: &Literal) -> TokenStream {
    match l {
        Literal::String(s) => quote!(#s.to_string()),
        other => literal_pattern(other),
    }
}

/// The checks of one parameter's own rules, one statement each.
fn param_checks(e: &Endpoint, p: &Param) -> Vec<TokenStream> {
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

/// The facts a field's doc lists: where it travels, required, default, bounds, format.
fn field_facts(p: &Param) -> String {
    let mut facts = vec![format!(
        "`{}` in the {}",
        p.wire,
        match p.location {
            ParamLocation::Path => "path",
            ParamLocation::Query => "query",
        }
    )];
    if p.required {
        facts.push("required".into());
    }
    if let Some(d) = &p.default {
        facts.push(format!("default `{}`", d.wire()));
    }
    let mut values = Vec::new();
    match &p.ty {
        ValueType::Integer(t) => {
            if t.min.is_some() || t.max.is_some() {
                values.push(mrds_runtime::range_reason(t.min, t.max).replace("must be ", ""));
            }
            if t.format == Some(IntegerFormat::UnixSeconds) {
                values.push(format!("format: {}", Format::UnixSeconds.description()));
            }
        }
        ValueType::String(t) => {
            if let Some(f) = t.format {
                values.push(format!("format: {}", f.info().description));
            }
            if let Some(pattern) = &t.pattern {
                values.push(format!("pattern `{pattern}`"));
            }
        }
        ValueType::Boolean | ValueType::Enum(_) => {}
    }
    match &p.list {
        None => facts.extend(values),
        Some(form) => {
            facts.push(match form.style {
                ListStyle::Comma => format!("a list, comma-separated (`{}=a,b`)", p.wire),
                ListStyle::Repeated => {
                    format!(
                        "a list, the parameter once per item (`{0}=a&{0}=b`)",
                        p.wire
                    )
                }
            });
            let items = mrds_runtime::items_reason(form.min_items, form.max_items);
            if !items.is_empty() {
                facts.push(items.replace("must have ", ""));
            }
            facts.push("no item is the parameter not given".into());
            if !values.is_empty() {
                facts.push(format!("each item: {}", values.join(", ")));
            }
        }
    }
    format!("{}.", facts.join("; "))
}

fn struct_doc(api: &Api, e: &Endpoint) -> String {
    let described = EndpointDoc::new(e, Style::Rustdoc);
    let mut doc = format!(
        "Parameters of {}\n\nAnswers `data` as an array of [`crate::records::{}`].{}",
        described.head(),
        api.returns(e).name,
        described.body()
    );
    let made = if e.params.iter().filter(|p| p.required).count() > MAX_ARGS {
        init_docs(&e.names.params_type, "parameters")
    } else {
        "Made with `new` (the required parameters) and the `with_` setters".into()
    };
    doc.push_str(&format!(
        "\n\nNon-exhaustive. {made}, so a parameter added later is not a breaking change; every \
         field stays public to read and assign."
    ));
    with_provenance(doc, &e.provenance)
}

fn params_type(api: &Api, e: &Endpoint) -> TokenStream {
    let name = ident(&e.names.params_type);
    let record = ident(&api.returns(e).name);
    let constant = format_ident!("{}", e.names.constant);
    let type_docs = docs(&struct_doc(api, e));
    let (deprecated, allow) = deprecation(e.removed.as_ref());

    let fields = e.params.iter().map(|p| {
        let x = ident(&p.ident);
        let base = base_type(p);
        let ty = if p.list.is_some() {
            quote!(Vec<#base>)
        } else if p.always() {
            base
        } else {
            quote!(Option<#base>)
        };
        let text = format!("{}\n\n{}", prose(&p.doc), field_facts(p));
        let docs = docs(&with_provenance(text, &p.provenance));
        quote! { #docs pub #x: #ty, }
    });

    // new(): the required parameters (or, past MAX_ARGS of them, the init struct naming them);
    // defaults fill the rest.
    let required: Vec<&Param> = e.params.iter().filter(|p| p.required).collect();
    let with_init = required.len() > MAX_ARGS;
    // `required_field` makes a required parameter's field (`x: init.x`, `x: x.into()`, `x`).
    let new_fields = |required_field: &dyn Fn(&Param) -> TokenStream| -> Vec<TokenStream> {
        e.params
            .iter()
            .map(|p| {
                let x = ident(&p.ident);
                match (&p.default, p.required) {
                    (_, true) => required_field(p),
                    _ if p.list.is_some() => quote!(#x: Vec::new()),
                    (Some(d), false) => {
                        let v = literal(d);
                        quote!(#x: #v)
                    }
                    (None, false) => quote!(#x: None),
                }
            })
            .collect()
    };
    let (init, new_fn) = if with_init {
        let init = init_name(&e.names.params_type);
        let members = required.iter().map(|p| {
            let (x, t) = (ident(&p.ident), value_type(p));
            let docs = docs(&prose(&p.doc));
            quote! { #docs pub #x: #t, }
        });
        let fields = new_fields(&|p| {
            let x = ident(&p.ident);
            quote!(#x: init.#x)
        });
        let doc = docs(&format!(
            "The required parameters of [`{0}`], by name: `{0}::from({0}Init {{ .. }})` makes \
             the parameters with defaults for the rest, for its `with_` setters.\n\n\
             Exhaustive on purpose, so a struct literal names every value: it holds only the \
             required parameters, and a parameter added later as optional does not change it.",
            e.names.params_type
        ));
        let from_doc = docs("These required parameters, with defaults for the rest.");
        let items = quote! {
            #doc
            #deprecated
            #[derive(Clone, Debug, PartialEq)]
            pub struct #init {
                #(#members)*
            }

            #allow
            impl From<#init> for #name {
                #from_doc
                fn from(init: #init) -> Self {
                    Self { #(#fields),* }
                }
            }
        };
        (items, None)
    } else {
        let args = required.iter().map(|p| {
            let x = ident(&p.ident);
            match p.ty {
                ValueType::String(_) if p.list.is_none() => quote!(#x: impl Into<String>),
                _ => {
                    let t = value_type(p);
                    quote!(#x: #t)
                }
            }
        });
        let fields = new_fields(&|p| {
            let x = ident(&p.ident);
            match p.ty {
                ValueType::String(_) if p.list.is_none() => quote!(#x: #x.into()),
                _ => quote!(#x),
            }
        });
        let new = quote! {
            /// The parameters with every required one given and defaults for the rest.
            pub fn new(#(#args),*) -> Self {
                Self { #(#fields),* }
            }
        };
        (TokenStream::new(), Some(new))
    };
    let setters = e.params.iter().filter(|p| !p.required).map(|p| {
        let x = ident(&p.ident);
        let setter = format_ident!("with_{}", p.bare_ident());
        let doc = docs(&format!("Sets `{}`.", p.wire));
        let (arg, value) = match (&p.ty, p.default.is_some()) {
            _ if p.list.is_some() => (value_type(p), quote!(value)),
            (ValueType::String(_), true) => (quote!(impl Into<String>), quote!(value.into())),
            (ValueType::String(_), false) => {
                (quote!(impl Into<String>), quote!(Some(value.into())))
            }
            (_, true) => (base_type(p), quote!(value)),
            (_, false) => (base_type(p), quote!(Some(value))),
        };
        quote! {
            #doc
            #[must_use]
            pub fn #setter(mut self, value: #arg) -> Self {
                self.#x = #value;
                self
            }
        }
    });

    // The check function, over the parameters some check reads: their own checks and the
    // rules that read parameters alone.
    let per_param: Vec<TokenStream> = e.params.iter().flat_map(|p| param_checks(e, p)).collect();
    let param_rules: Vec<&Rule> = (e.rules.iter())
        .filter(|r| r.reads() == Reads::Params)
        .collect();
    let var = vars(api.inputs(e));
    let rules: Vec<TokenStream> = (param_rules.iter())
        .filter_map(|r| rule_check(r, &var))
        .collect();
    let used: BTreeSet<ParamId> = (param_rules.iter())
        .flat_map(|r| r.operands())
        .filter_map(|op| match op {
            Operand::Param(id) => Some(id),
            Operand::Field(_) => None,
        })
        .chain(
            e.params
                .iter()
                .filter(|p| !param_checks(e, p).is_empty())
                .map(|p| p.id),
        )
        .collect();
    let checked: Vec<&Param> = e.params.iter().filter(|p| used.contains(&p.id)).collect();
    let has_checks = !per_param.is_empty() || !rules.is_empty();
    let values = CheckValues::new(e, &checked);
    let check_fn = has_checks.then(|| {
        let params = &values.params;
        quote! {
            fn check(issues: &mut mrds_runtime::Issues, #params) {
                #(#per_param)*
                #(#rules)*
            }
        }
    });
    let check_values = has_checks.then(|| values.definition.clone());
    let validate_body = if has_checks {
        let args = values.args(&checked, from_self);
        quote! {
            let mut issues = mrds_runtime::Issues::new();
            Self::check(&mut issues, #args);
            issues.finish()
        }
    } else {
        quote!(Ok(()))
    };
    let from_raw_body = from_raw_body(e, &checked, has_checks.then_some(&values));
    let (to_query, path) = (to_query_body(e), path_body(e));
    let default_impl = required.is_empty().then(|| {
        quote! {
            #allow
            impl ::std::default::Default for #name {
                fn default() -> Self {
                    Self::new()
                }
            }
        }
    });
    let paged = e.paging.as_ref().and_then(|paging| {
        let offset = ident(&e.param(paging.offset?).ident);
        let limit = ident(&e.param(paging.limit).ident);
        Some(quote! {
            #allow
            impl mrds_runtime::Paged for #name {
                fn limit(&self) -> i64 {
                    self.#limit
                }
                fn offset(&self) -> i64 {
                    self.#offset
                }
                fn set_offset(&mut self, offset: i64) {
                    self.#offset = offset;
                }
            }
        })
    });

    let typed = super::jiff::param_methods(e);
    let with_body = e.body.as_ref().map(|b| body_impl(api, e, b));

    quote! {
        #type_docs
        #deprecated
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
        pub struct #name {
            #(#fields)*
        }

        #init
        #check_values

        #allow
        impl #name {
            #new_fn

            #(#setters)*

            /// Checks every rule of every parameter and every rule across parameters;
            /// returns all problems at once.
            pub fn validate(&self) -> Result<(), ValidationError> {
                #validate_body
            }

            /// Parses and validates received parameters; reports every problem at once.
            pub fn from_raw(raw: &RawParams) -> Result<Self, ValidationError> {
                Self::read(raw, true)
            }

            /// Reads received parameters, and with `checked` validates them (`from_raw`);
            /// without, only what a value of the type cannot hold is refused.
            fn read(raw: &RawParams, checked: bool) -> Result<Self, ValidationError> {
                #from_raw_body
            }

            /// The query pairs, in documented order.
            pub fn to_query(&self) -> Vec<(&'static str, String)> {
                #to_query
            }

            /// The path below the base path, path parameters percent-encoded.
            pub fn path(&self) -> String {
                #path
            }

            #check_fn
        }

        #default_impl

        #typed

        #allow
        impl Request for #name {
            type Record = crate::records::#record;
            const ENDPOINT: &'static mrds_runtime::Endpoint = &crate::api::#constant;
            fn validate(&self) -> Result<(), ValidationError> {
                #name::validate(self)
            }
            fn to_query(&self) -> Vec<(&'static str, String)> {
                #name::to_query(self)
            }
            fn path(&self) -> String {
                #name::path(self)
            }
            fn from_raw(raw: &RawParams) -> Result<Self, ValidationError> {
                #name::from_raw(raw)
            }
            fn from_raw_unchecked(raw: &RawParams) -> Option<Result<Self, ValidationError>> {
                Some(#name::read(raw, false))
            }
        }

        #paged
        #with_body
    }
}

/// `validate_body` and the runtime's `WithBody` for an endpoint with a body: the body's own
/// checks, then the rules that read a parameter and a field of the body.
fn body_impl(api: &Api, e: &Endpoint, body: &Body) -> TokenStream {
    let name = ident(&e.names.params_type);
    let record = api.record(body.record);
    let body_ty = ident(&record.name);
    let mixed: Vec<&Rule> = (e.rules.iter())
        .filter(|r| r.reads() == Reads::Both)
        .collect();
    let inputs = api.inputs(e);
    let var = vars(inputs);
    let checks: Vec<TokenStream> = mixed.iter().filter_map(|r| rule_check(r, &var)).collect();
    let read: BTreeSet<Operand> = mixed.iter().flat_map(|r| r.operands()).collect();
    let locals = read.iter().filter_map(|op| match *op {
        Operand::Param(id) => {
            let p = e.param(id);
            let (x, value) = (local(p), from_self(p));
            Some(quote!(let #x = #value;))
        }
        Operand::Field(_) => body_local(&inputs.get(*op)?, &quote!(body)),
    });
    let (_, allow) = deprecation(e.removed.as_ref());
    let body_rule = e.body_rule();
    quote! {
        #allow
        impl #name {
            /// Checks `body` with these parameters: every check of the body's fields and every
            /// rule across them, and the rules that read a parameter and a field of the body;
            /// every problem at once.
            pub fn validate_body(&self, body: &crate::records::#body_ty) -> Result<(), ValidationError> {
                let mut issues = mrds_runtime::Issues::new();
                mrds_runtime::BodyRecord::check(body, &mut issues);
                #(#locals)*
                #(#checks)*
                issues.finish()
            }
        }

        #allow
        impl mrds_runtime::WithBody for #name {
            type Body = crate::records::#body_ty;
            const BODY_RULE: &'static str = #body_rule;
            fn validate_body(&self, body: &Self::Body) -> Result<(), ValidationError> {
                #name::validate_body(self, body)
            }
        }
    }
}
