//! `records.rs`: the records of the service, the elements of `data`, and the error object.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::MAX_ARGS;
use super::checks::{body_local, rule_check, set_of, value_checks, var, vars};
use super::init::{init_docs, init_name};
use crate::{docs, ident, prose, with_provenance};
use mrds_spec::model::{Api, Endpoint, Field, Input, Operand, Place, Reads, Record, Rule, TypeRef};

pub(super) fn file(api: &Api) -> TokenStream {
    let in_bodies = in_bodies(api);
    let records = api.records.iter().map(|r| {
        let name = ident(&r.name);
        let mut text = prose(&r.doc);
        if r.name != r.spec_name {
            text.push_str(&format!(
                "\n\n`{}` in the interface description.",
                r.spec_name
            ));
        }
        let made = if r.fields.iter().filter(|f| !f.optional).count() > MAX_ARGS {
            init_docs(&r.name, "fields")
        } else {
            "Made with [`new`](Self::new) (the required fields) and the `with_` setters".into()
        };
        text.push_str(&format!(
            "\n\nNon-exhaustive. {made} (the optional ones), so a field added to the record \
             later is not a breaking change; every field stays public to read and assign."
        ));
        let docs = docs(&with_provenance(text, &r.provenance));
        let read = if in_bodies.contains(&r.id) {
            Read::Exactly
        } else {
            Read::Answers
        };
        let fields = struct_fields(api, &r.fields, read);
        let construction = constructors(api, &r.name, &TokenStream::new(), &r.fields);
        let time = super::jiff::record_methods(&r.name, &TokenStream::new(), &r.fields);
        let body = api
            .endpoints
            .iter()
            .find(|e| e.body.as_ref().is_some_and(|b| b.record == r.id))
            .map(|e| body_checks(api, e, r));
        quote! {
            #docs
            #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
            #[non_exhaustive]
            pub struct #name {
                #(#fields)*
            }

            #construction
            #time
            #body
        }
    });
    // The value sets the rules of bodies checked here name.
    let sets: std::collections::BTreeSet<&str> = (api.endpoints.iter())
        .flat_map(|e| &e.rules)
        .filter(|r| r.reads() == Reads::Body)
        .flat_map(Rule::literals)
        .filter_map(set_of)
        .collect();
    let sets: Vec<_> = sets.into_iter().map(ident).collect();
    let uses = (!sets.is_empty()).then(|| quote!(use crate::value_sets::{#(#sets),*};));
    quote! {
        //! The records of the service: the elements of `data`, and the error object.
        //!
        //! Decoding ignores fields the server adds later; value-set fields keep values the
        //! spec does not know. Records are non-exhaustive: `new` takes the required fields (a
        //! record with more than six has an init struct naming them instead), `with_` setters
        //! the optional ones.

        #uses

        #(#records)*
    }
}

/// The checks of a request body `r` of endpoint `e`: its fields' own checks and the rules
/// reading only its fields, as `validate()` and the runtime's `BodyRecord::check`.
fn body_checks(api: &Api, e: &Endpoint, r: &Record) -> TokenStream {
    let name = ident(&r.name);
    let inputs = api.inputs(e);
    let fields: Vec<Input<'_>> = inputs.all().filter(|i| i.place == Place::Body).collect();
    let own: Vec<TokenStream> = (fields.iter())
        .flat_map(|i| value_checks(e, &var(i)))
        .collect();
    let rules: Vec<&Rule> = (e.rules.iter())
        .filter(|rule| rule.reads() == Reads::Body)
        .collect();
    let var_of = vars(inputs);
    let checks: Vec<TokenStream> = (rules.iter())
        .filter_map(|rule| rule_check(rule, &var_of))
        .collect();
    // The locals some check reads.
    let read: std::collections::BTreeSet<Operand> = (fields.iter())
        .filter(|i| !value_checks(e, &var(i)).is_empty())
        .map(|i| i.operand)
        .chain(rules.iter().flat_map(|rule| rule.operands()))
        .collect();
    let locals = (read.iter())
        .filter_map(|op| inputs.get(*op))
        .filter_map(|i| body_local(&i, &quote!(self)));
    let doc = docs(&format!(
        "Checks this body of `{} {}` ([`crate::params::{}`]): the checks of its fields and the \
         rules across them, every problem at once; the rules that also read a parameter are \
         checked by [`crate::params::{}::validate_body`].",
        e.method.as_str(),
        e.path,
        e.names.params_type,
        e.names.params_type
    ));
    let issues = if checks.is_empty() && own.is_empty() {
        quote!(_issues)
    } else {
        quote!(issues)
    };
    quote! {
        impl #name {
            #doc
            pub fn validate(&self) -> Result<(), mrds_runtime::ValidationError> {
                let mut issues = mrds_runtime::Issues::new();
                mrds_runtime::BodyRecord::check(self, &mut issues);
                issues.finish()
            }
        }

        impl mrds_runtime::BodyRecord for #name {
            fn check(&self, #issues: &mut mrds_runtime::Issues) {
                #(#locals)*
                #(#own)*
                #(#checks)*
            }
        }
    }
}

/// The argument type a constructor or setter takes for a field, and how the field is made
/// from the argument `x`.
fn field_argument(api: &Api, f: &Field, x: &proc_macro2::Ident) -> (TokenStream, TokenStream) {
    if f.array {
        return (
            field_type(
                api,
                &Field {
                    optional: false,
                    ..f.clone()
                },
            ),
            quote!(#x),
        );
    }
    let ty = field_type(
        api,
        &Field {
            optional: false,
            boxed: false,
            ..f.clone()
        },
    );
    let (arg, value) = match (&f.ty, f.boxed) {
        (TypeRef::String, _) => (quote!(impl Into<String>), quote!(#x.into())),
        (_, true) => (ty, quote!(Box::new(#x))),
        (_, false) => (ty, quote!(#x)),
    };
    if f.optional {
        (arg, quote!(Some(#value)))
    } else {
        (arg, value)
    }
}

/// How a record or envelope `name` with `generics` (`<T>` or nothing) is made, and one
/// `with_<field>` setter per optional field: `new` taking the required fields in wire order
/// when there are at most [`MAX_ARGS`] of them, otherwise the init struct `<name>Init` holding
/// them by name, which converts into the record ([`init_struct`]).
pub(super) fn constructors(
    api: &Api,
    name: &str,
    generics: &TokenStream,
    fields: &[Field],
) -> TokenStream {
    let ty = ident(name);
    let required: Vec<&Field> = fields.iter().filter(|f| !f.optional).collect();
    let setters = fields.iter().filter(|f| f.optional).map(|f| {
        let x = ident(&f.ident);
        let setter = format_ident!("with_{}", mrds_spec::naming::bare(&f.ident));
        let value = format_ident!("value");
        let (arg, made) = field_argument(api, f, &value);
        let doc = docs(&format!("Sets `{}`.", f.wire));
        quote! {
            #doc
            #[must_use]
            pub fn #setter(mut self, value: #arg) -> Self {
                self.#x = #made;
                self
            }
        }
    });
    let default = required.is_empty().then(|| {
        quote! {
            impl #generics ::std::default::Default for #ty #generics {
                fn default() -> Self {
                    Self::new()
                }
            }
        }
    });
    let (init, new) = if required.len() > MAX_ARGS {
        (init_struct(api, name, generics, fields), None)
    } else {
        (TokenStream::new(), Some(new_fn(api, name, fields)))
    };
    quote! {
        #init

        impl #generics #ty #generics {
            #new

            #(#setters)*
        }

        #default
    }
}

/// `new`: the required fields in wire order, each optional one empty.
fn new_fn(api: &Api, name: &str, fields: &[Field]) -> TokenStream {
    let args = fields.iter().filter(|f| !f.optional).map(|f| {
        let x = ident(&f.ident);
        let (arg, _) = field_argument(api, f, &x);
        quote!(#x: #arg)
    });
    let values = fields.iter().map(|f| {
        let x = ident(&f.ident);
        if f.optional {
            empty(f)
        } else if f.array || (f.ty != TypeRef::String && !f.boxed) {
            // The argument is the field's value.
            quote!(#x)
        } else {
            let (_, value) = field_argument(api, f, &x);
            quote!(#x: #value)
        }
    });
    let doc = docs(&format!(
        "A `{name}` with the required fields given{}.",
        if fields.iter().any(|f| f.optional) {
            " and every optional one empty"
        } else {
            ""
        }
    ));
    quote! {
        #doc
        pub fn new(#(#args),*) -> Self {
            Self { #(#values),* }
        }
    }
}

/// An optional field left empty.
fn empty(f: &Field) -> TokenStream {
    let x = ident(&f.ident);
    if f.array {
        quote!(#x: Vec::new())
    } else {
        quote!(#x: None)
    }
}

/// `<name>Init`: the required fields of a record with more than [`MAX_ARGS`] of them, by name,
/// and its conversion into the record with every optional field empty. Exhaustive on purpose,
/// so a struct literal names them all: it holds no optional field, so a field added later as
/// optional leaves it alone, and a new required field breaks the record's users anyway.
fn init_struct(api: &Api, name: &str, generics: &TokenStream, fields: &[Field]) -> TokenStream {
    let (ty, init) = (ident(name), init_name(name));
    let required: Vec<&Field> = fields.iter().filter(|f| !f.optional).collect();
    let members = required.iter().map(|f| {
        let x = ident(&f.ident);
        let value = format_ident!("value");
        let (arg, _) = field_argument(api, f, &value);
        // `impl Into<String>` is an argument's type, not a field's.
        let t = if f.ty == TypeRef::String && !f.array {
            quote!(String)
        } else {
            arg
        };
        let docs = docs(&prose(&f.doc));
        quote! {
            #docs
            pub #x: #t,
        }
    });
    let values = fields.iter().map(|f| {
        let x = ident(&f.ident);
        if f.optional {
            empty(f)
        } else if f.boxed && !f.array {
            quote!(#x: Box::new(init.#x))
        } else {
            quote!(#x: init.#x)
        }
    });
    let doc = docs(&format!(
        "The required fields of a [`{name}`], by name: `{name}::from({name}Init {{ .. }})` \
         makes the record with every optional field empty, for its `with_` setters.\n\n\
         Exhaustive on purpose, so a struct literal names every value: it holds only the \
         required fields, and a field the record gains as optional later does not change it."
    ));
    let from_doc = docs(&format!(
        "The `{name}` with these required fields and no optional one."
    ));
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq)]
        pub struct #init #generics {
            #(#members)*
        }

        impl #generics From<#init #generics> for #ty #generics {
            #from_doc
            fn from(init: #init #generics) -> Self {
                Self { #(#values),* }
            }
        }
    }
}

/// The Rust type of a field.
fn field_type(api: &Api, f: &Field) -> TokenStream {
    let base = match &f.ty {
        TypeRef::String => quote!(String),
        TypeRef::Integer => quote!(i64),
        TypeRef::Number => quote!(f64),
        TypeRef::Boolean => quote!(bool),
        TypeRef::Any => quote!(mrds_runtime::JsonValue),
        TypeRef::Record(id) => {
            let n = ident(&api.record(*id).name);
            quote!(crate::records::#n)
        }
        TypeRef::ValueSet(id) => {
            let n = ident(&api.value_set(*id).name);
            quote!(crate::value_sets::#n)
        }
        TypeRef::ErrorCode => quote!(crate::value_sets::ErrorCode),
        TypeRef::Records => quote!(T),
    };
    let base = if f.boxed { quote!(Box<#base>) } else { base };
    match (f.array, f.optional) {
        (true, _) => quote!(Vec<#base>),
        (false, true) => quote!(Option<#base>),
        (false, false) => base,
    }
}

/// How a record's fields are read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Read {
    /// From the service's answers: an integer field reads a whole number written as a
    /// decimal (`12.0`) as the integer it names (`mrds_runtime::whole_number`).
    Answers,
    /// From request bodies too (a body record, or a record inside one): exactly as serde
    /// reads the field's type, as the server checks a body.
    Exactly,
}

/// The records a request body holds: the body records and every record inside one.
fn in_bodies(api: &Api) -> std::collections::BTreeSet<mrds_spec::model::RecordId> {
    let mut found = std::collections::BTreeSet::new();
    let mut todo: Vec<_> = (api.endpoints.iter())
        .filter_map(|e| e.body.as_ref().map(|b| b.record))
        .collect();
    while let Some(id) = todo.pop() {
        if found.insert(id) {
            for f in &api.record(id).fields {
                if let TypeRef::Record(inner) = f.ty {
                    todo.push(inner);
                }
            }
        }
    }
    found
}

/// The fields of a record or of the envelope, with their serde attributes.
pub(super) fn struct_fields(api: &Api, fields: &[Field], read: Read) -> Vec<TokenStream> {
    fields
        .iter()
        .map(|f| {
            let mut text = prose(&f.doc);
            if let Some(format) = f.format {
                text = format!("{text}\n\n{}", super::format_note(format));
            }
            let docs = docs(&with_provenance(text, &f.provenance));
            let name = ident(&f.ident);
            let ty = field_type(api, f);
            let wire = &f.wire;
            let mut serde = Vec::new();
            if f.ident.trim_start_matches("r#") != f.wire {
                serde.push(quote!(rename = #wire));
            }
            let whole = read == Read::Answers && f.ty == TypeRef::Integer && !f.boxed;
            if f.array && f.optional {
                let with = if whole {
                    "mrds_runtime::whole_numbers_or_empty"
                } else {
                    "mrds_runtime::null_as_default"
                };
                serde.push(quote!(default));
                serde.push(quote!(deserialize_with = #with));
                serde.push(quote!(skip_serializing_if = "Vec::is_empty"));
            } else if f.optional {
                serde.push(quote!(default));
                if whole {
                    serde.push(quote!(
                        deserialize_with = "mrds_runtime::whole_number_option"
                    ));
                }
                serde.push(quote!(skip_serializing_if = "Option::is_none"));
            } else if whole && f.array {
                serde.push(quote!(deserialize_with = "mrds_runtime::whole_numbers"));
            } else if whole {
                serde.push(quote!(deserialize_with = "mrds_runtime::whole_number"));
            }
            let serde = (!serde.is_empty()).then(|| quote!(#[serde(#(#serde),*)]));
            quote! {
                #docs
                #serde
                pub #name: #ty,
            }
        })
        .collect()
}
