//! `records.rs`: the records of the service, the elements of `data`, and the error object.

use proc_macro2::TokenStream;
use quote::quote;

use crate::emit::{docs, ident, prose, with_provenance};
use crate::model::*;

pub(super) fn file(api: &Api) -> TokenStream {
    let records = api.records.iter().map(|r| {
        let name = ident(&r.name);
        let mut text = prose(&r.doc);
        if r.name != r.spec_name {
            text.push_str(&format!(
                "\n\n`{}` in the interface description.",
                r.spec_name
            ));
        }
        let docs = docs(&with_provenance(text, &r.provenance));
        let fields = struct_fields(&r.fields);
        quote! {
            #docs
            #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
            pub struct #name {
                #(#fields)*
            }
        }
    });
    quote! {
        //! The records of the service: the elements of `data`, and the error object.
        //!
        //! Decoding ignores fields the server adds later; value-set fields keep values the
        //! spec does not know.

        #(#records)*
    }
}

/// The Rust type of a field.
fn field_type(f: &Field) -> TokenStream {
    let base = match &f.ty {
        TypeRef::String => quote!(String),
        TypeRef::Integer => quote!(i64),
        TypeRef::Number => quote!(f64),
        TypeRef::Boolean => quote!(bool),
        TypeRef::Any => quote!(serde_json::Value),
        TypeRef::Record(n) => {
            let n = ident(n);
            quote!(crate::records::#n)
        }
        TypeRef::ValueSet(n) => {
            let n = ident(n);
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

/// The sentence documenting a field's format.
pub(super) fn format_note(format: FieldFormat) -> &'static str {
    match format {
        FieldFormat::Date => "Format: `YYYY-MM-DD`.",
        FieldFormat::Timestamp => "Format: ISO 8601 timestamp.",
        FieldFormat::TimestampMillis => "Format: ISO 8601 UTC timestamp with milliseconds and `Z`.",
        FieldFormat::DateTime => "Format: `YYYY-MM-DD HH:MM:SS`.",
        FieldFormat::Rfc3339 => "Format: RFC 3339 timestamp.",
        FieldFormat::UnixSeconds => "Format: Unix seconds (UTC).",
        FieldFormat::Uuid => "Format: UUID.",
        FieldFormat::Hex16 => "Format: 16 hexadecimal characters.",
        FieldFormat::NumericText => "Format: a decimal number carried as text.",
        FieldFormat::Url => "Format: URL.",
    }
}

/// The fields of a record or of the envelope, with their serde attributes.
pub(super) fn struct_fields(fields: &[Field]) -> Vec<TokenStream> {
    fields
        .iter()
        .map(|f| {
            let mut text = prose(&f.doc);
            if let Some(format) = f.format {
                text = format!("{text}\n\n{}", format_note(format));
            }
            let docs = docs(&with_provenance(text, &f.provenance));
            let name = ident(&f.ident);
            let ty = field_type(f);
            let wire = &f.wire;
            let mut serde = Vec::new();
            if f.ident.trim_start_matches("r#") != f.wire {
                serde.push(quote!(rename = #wire));
            }
            if f.array && f.optional {
                serde.push(quote!(default));
                serde.push(quote!(deserialize_with = "mrds_runtime::null_as_default"));
                serde.push(quote!(skip_serializing_if = "Vec::is_empty"));
            } else if f.optional {
                serde.push(quote!(default));
                serde.push(quote!(skip_serializing_if = "Option::is_none"));
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
