//! `params.rs`: one parameter type per endpoint, with construction, validation, parsing of
//! received parameters and serialization.
//!
//! Hygiene: spec-derived names appear only as struct fields, methods and argument names of
//! `new`; every local holding a parameter's value is `p_<name>`, so it can collide neither with
//! another parameter nor with the few fixed locals (`raw`, `issues`, `query`); patterns are
//! statics scoped to the expression that uses them (`mrds_runtime::pattern!`, holding the
//! automaton the checker compiled, [`mrds_spec::model::Pattern`]).
//!
//! This module makes the file and each type; [`validate`] the checks `validate` and
//! `from_raw` make, [`wire`] the reading and writing of parameters on the wire, [`facts`] the
//! docs of a type and its fields, [`body`] the checks with a body.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::MAX_ARGS;
use super::checks::{
    base_type, literal_pattern, param_local, rule_check, set_of, value_type, vars,
};
use super::init::init_name;
use crate::{deprecation, docs, ident, prose, with_provenance};
use mrds_spec::model::{Api, Endpoint, Literal, Operand, Param, ParamId, Reads, Rule, ValueType};

mod body;
mod facts;
mod validate;
mod wire;

use body::body_impl;
use facts::{field_facts, struct_doc};
use validate::{CheckValues, from_self, param_checks};
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

/// A literal as a value of its parameter's type (its value set imported): its pattern, but
/// text owned.
fn literal(l: &Literal) -> TokenStream {
    match l {
        Literal::String(s) => quote!(#s.to_string()),
        other => literal_pattern(other),
    }
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
