//! `params.rs`: one parameter type per endpoint, with construction, validation, parsing of
//! received parameters and serialization.
//!
//! Hygiene: spec-derived names appear only as struct fields, methods and argument names of
//! `new`; every local holding a parameter's value is `p_<name>`, so it can collide neither with
//! another parameter nor with the few fixed locals (`raw`, `issues`, `query`); patterns are
//! statics scoped to the expression that uses them (`mrds_runtime::pattern!`, holding the
//! automaton the checker compiled, [`crate::model::Pattern`]).

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::MAX_ARGS;
use super::checks::{
    base_type, body_local, int, param_local, rule_check, set_of, value_checks, var, vars,
};
use super::init::{init_docs, init_name};
use crate::emit::endpoint_doc::{EndpointDoc, Style};
use crate::emit::{deprecation, docs, ident, prose, with_provenance};
use crate::model::{
    Api, Body, Endpoint, Format, Inputs, IntegerFormat, Literal, Operand, Param, ParamId,
    ParamLocation, Reads, Rule, Segment, ValueType,
};

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
        let view = format_ident!("{}", crate::naming::checks_type(&e.names.params_type));
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
    match &p.ty {
        ValueType::String(_) => quote!(#x.as_deref()),
        ValueType::Integer(_) | ValueType::Boolean => quote!(#x),
        ValueType::Enum(_) => quote!(#x.as_ref()),
    }
}

/// A literal as a value of its parameter's type (its value set imported).
fn literal(l: &Literal) -> TokenStream {
    match l {
        Literal::String(s) => quote!(#s.to_string()),
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

/// The checks of one parameter's own rules, one statement each.
fn param_checks(e: &Endpoint, p: &Param) -> Vec<TokenStream> {
    let inputs = Inputs {
        params: &e.params,
        body: None,
    };
    (inputs.get(Operand::Param(p.id)).as_ref())
        .map(|i| value_checks(e, &var(i)))
        .unwrap_or_default()
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
    match &p.ty {
        ValueType::Integer(t) => {
            if t.min.is_some() || t.max.is_some() {
                facts.push(mrds_runtime::range_reason(t.min, t.max).replace("must be ", ""));
            }
            if t.format == Some(IntegerFormat::UnixSeconds) {
                facts.push(format!("format: {}", Format::UnixSeconds.description()));
            }
        }
        ValueType::String(t) => {
            if let Some(f) = t.format {
                facts.push(format!("format: {}", f.info().description));
            }
            if let Some(pattern) = &t.pattern {
                facts.push(format!("pattern `{pattern}`"));
            }
        }
        ValueType::Boolean | ValueType::Enum(_) => {}
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
        let ty = if p.always() {
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
            let (x, t) = (ident(&p.ident), base_type(p));
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
                ValueType::String(_) => quote!(#x: impl Into<String>),
                _ => {
                    let t = base_type(p);
                    quote!(#x: #t)
                }
            }
        });
        let fields = new_fields(&|p| {
            let x = ident(&p.ident);
            match p.ty {
                ValueType::String(_) => quote!(#x: #x.into()),
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

/// `read`: read each parameter, run the same checks when `checked` (`from_raw`), build the
/// value.
fn from_raw_body(e: &Endpoint, checked: &[&Param], values: Option<&CheckValues>) -> TokenStream {
    if e.params.is_empty() {
        return quote! {
            let _ = (raw, checked);
            Ok(Self {})
        };
    }
    let reads = e.params.iter().map(|p| {
        let x = local(p);
        let (endpoint, wire) = (&e.id, &p.wire);
        let t = base_type(p);
        let rules = quote!(mrds_runtime::param_rules!(#endpoint, #wire));
        let read = match (p.location, p.required) {
            (ParamLocation::Path, _) => quote!(raw.path(#wire, #rules, &mut issues)),
            (ParamLocation::Query, true) => quote!(raw.required(#wire, #rules, &mut issues)),
            (ParamLocation::Query, false) => quote!(raw.optional(#wire, #rules, &mut issues)),
        };
        match &p.default {
            Some(d) => {
                let v = literal(d);
                quote!(let #x: Option<#t> = #read.or(Some(#v));)
            }
            None => quote!(let #x: Option<#t> = #read;),
        }
    });
    let check = values.map(|values| {
        let args = values.args(checked, from_local);
        quote!(Self::check(&mut issues, #args);)
    });
    // Presence rules: a parameter that was sent but did not parse counts as given.
    let wire = |op: &Operand| match op {
        Operand::Param(id) => Some(e.param(*id).wire.as_str()),
        Operand::Field(_) => None,
    };
    let forgive = (e.rules.iter())
        .filter(|r| r.reads() == Reads::Params)
        .filter_map(|r| {
            let presence = r.requirement.presence();
            if presence.is_empty() {
                return None;
            }
            let given: Vec<&str> = presence.into_iter().map(wire).collect::<Option<_>>()?;
            let id = &r.id;
            Some(quote!(issues.forgive(#id, #(raw.has(#given))||*);))
        });
    let build_fields = e.params.iter().map(|p| {
        let (x, l) = (ident(&p.ident), local(p));
        quote!(#x: #l)
    });
    let always: Vec<proc_macro2::Ident> =
        e.params.iter().filter(|p| p.always()).map(local).collect();
    let build = match always.as_slice() {
        [] => quote! {
            if issues.is_empty() {
                Ok(Self { #(#build_fields),* })
            } else {
                Err(issues.into_error())
            }
        },
        [one] => quote! {
            match #one {
                Some(#one) if issues.is_empty() => Ok(Self { #(#build_fields),* }),
                _ => Err(issues.into_error()),
            }
        },
        many => quote! {
            match (#(#many),*) {
                (#(Some(#many)),*) if issues.is_empty() => Ok(Self { #(#build_fields),* }),
                _ => Err(issues.into_error()),
            }
        },
    };
    let forgive: Vec<TokenStream> = forgive.collect();
    let checks = if check.is_none() && forgive.is_empty() {
        quote!(let _ = checked;)
    } else {
        quote! {
            if checked {
                #check
                #(#forgive)*
            }
        }
    };
    quote! {
        let mut issues = mrds_runtime::Issues::new();
        #(#reads)*
        #checks
        #build
    }
}

/// `to_query`: the query pairs in documented order, path parameters excluded.
fn to_query_body(e: &Endpoint) -> TokenStream {
    let query: Vec<&Param> = e
        .params
        .iter()
        .filter(|p| p.location == ParamLocation::Query)
        .collect();
    // The parameters that always have a value before the first optional one start the list.
    let lead = query.iter().take_while(|p| p.always()).count();
    let pair = |p: &Param| {
        let (x, wire) = (ident(&p.ident), &p.wire);
        quote!((#wire, mrds_runtime::ParamValue::to_param(&self.#x)))
    };
    let first: Vec<TokenStream> = query[..lead].iter().map(|p| pair(p)).collect();
    if lead == query.len() {
        return if first.is_empty() {
            quote!(Vec::new())
        } else {
            quote!(Vec::from([#(#first),*]))
        };
    }
    let rest = query[lead..].iter().map(|p| {
        let (x, wire) = (ident(&p.ident), &p.wire);
        if p.always() {
            let pair = pair(p);
            quote!(query.push(#pair);)
        } else {
            quote! {
                if let Some(v) = &self.#x {
                    query.push((#wire, mrds_runtime::ParamValue::to_param(v)));
                }
            }
        }
    });
    let start = if first.is_empty() {
        quote!(Vec::new())
    } else {
        quote!(Vec::from([#(#first),*]))
    };
    quote! {
        let mut query = #start;
        #(#rest)*
        query
    }
}

/// `path`: the path with path parameters filled in and percent-encoded.
fn path_body(e: &Endpoint) -> TokenStream {
    if e.path.is_fixed() {
        let path = e.path.to_string();
        return quote!(#path.to_string());
    }
    let mut template = String::new();
    let mut args = Vec::new();
    for s in &e.path.segments {
        template.push('/');
        match s {
            Segment::Literal(l) => template.push_str(l),
            Segment::Param { param, .. } => {
                template.push_str("{}");
                let p = e.param(*param);
                let x = ident(&p.ident);
                args.push(quote! {
                    mrds_runtime::text::percent_encode(&mrds_runtime::ParamValue::to_param(&self.#x))
                });
            }
        }
    }
    quote!(format!(#template, #(#args),*))
}
