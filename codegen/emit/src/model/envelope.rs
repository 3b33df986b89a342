//! `envelope.rs`: the common response envelope, and the error object as the runtime builds
//! and reads it (the checker made sure it has the fields used here).

use proc_macro2::TokenStream;
use quote::quote;

use super::MAX_ARGS;
use super::init::init_docs;
use super::jiff::record_methods;
use super::records::{Read, constructors, struct_fields};
use crate::{docs, ident, prose};
use mrds_spec::model::{Api, Record};

pub(super) fn file(api: &Api) -> TokenStream {
    let made = if api.envelope.fields.iter().filter(|f| !f.optional).count() > MAX_ARGS {
        init_docs("Envelope", "fields")
    } else {
        "Made with [`new`](Self::new) and the `with_` setters".into()
    };
    let docs = docs(&format!(
        "{}\n\n`T` is the record type of the endpoint; a failure envelope is \
         `Envelope<ErrorObject>` (its `data` repeats the error object). Non-exhaustive. {made}.",
        prose(&api.envelope.doc)
    ));
    let fields = struct_fields(api, &api.envelope.fields, Read::Answers);
    let generics = quote!(<T>);
    let construction = constructors(api, "Envelope", &generics, &api.envelope.fields);
    let time = record_methods("Envelope", &generics, &api.envelope.fields);
    let glue = error_body(api);
    quote! {
        //! The common response envelope, and the error object as the runtime builds it.

        #docs
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[non_exhaustive]
        pub struct Envelope<T> {
            #(#fields)*
        }

        #construction
        #time
        #glue
    }
}

/// A struct literal of `record` setting the fields named in `given` from locals of the same
/// name (their wire names are plain identifiers, which the checker required) and leaving
/// every other field empty (the checker made them optional or arrays).
fn literal(record: &Record, given: &[&str]) -> TokenStream {
    let name = ident(&record.name);
    let fields = record.fields.iter().map(|f| {
        let x = ident(&f.ident);
        if given.contains(&f.wire.as_str()) {
            quote!(#x)
        } else if f.array {
            quote!(#x: Vec::new())
        } else {
            quote!(#x: None)
        }
    });
    quote!(crate::records::#name { #(#fields),* })
}

/// The `ErrorBody` implementation of the error object.
fn error_body(api: &Api) -> TokenStream {
    let object = api.error_object();
    let detail = api.record(api.errors.detail);
    let name = ident(&object.name);
    let field = |wire: &str| {
        object
            .fields
            .iter()
            .chain(&detail.fields)
            .find(|f| f.wire == wire)
            .map(|f| ident(&f.ident))
    };
    let (code, message, details, hint) = (
        field("code"),
        field("message"),
        field("details"),
        field("hint"),
    );
    let (d_field, d_got, d_reason) = (field("field"), field("got"), field("reason"));
    let new_object = literal(object, &["code", "message"]);
    let new_detail = literal(detail, &["field", "got", "reason"]);
    quote! {
        impl mrds_runtime::ErrorBody for crate::records::#name {
            type Code = crate::value_sets::ErrorCode;

            fn codes() -> &'static [Self::Code] {
                crate::value_sets::ErrorCode::ALL
            }

            fn from_code(code: Self::Code, message: String) -> Self {
                #new_object
            }

            fn code(&self) -> &Self::Code {
                &self.#code
            }

            fn http_status(&self) -> Option<u16> {
                self.#code.http_status()
            }

            fn message(&self) -> &str {
                &self.#message
            }

            fn hint(&self) -> Option<&str> {
                self.#hint.as_deref()
            }

            fn set_hint(&mut self, hint: String) {
                self.#hint = Some(hint);
            }

            fn push_detail(&mut self, field: String, got: String, reason: String) {
                self.#details.push(#new_detail);
            }

            fn details(&self) -> Vec<(&str, &str, &str)> {
                self.#details
                    .iter()
                    .map(|d| (d.#d_field.as_str(), d.#d_got.as_str(), d.#d_reason.as_str()))
                    .collect()
            }
        }

        impl From<&mrds_runtime::ValidationError> for crate::records::#name {
            /// The error object the service answers an invalid request with.
            fn from(error: &mrds_runtime::ValidationError) -> Self {
                error.to_error_object()
            }
        }
    }
}
