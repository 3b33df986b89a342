//! `value_sets.rs`: enumerations with their wire spelling, and the error codes.

use proc_macro2::TokenStream;
use quote::quote;

use crate::{docs, ident, prose, with_provenance};
use mrds_spec::model::{Api, Provenance};

/// One enum to generate.
struct EnumSpec<'a> {
    name: &'a str,
    doc: String,
    provenance: &'a Provenance,
    tolerant: bool,
    /// (Rust variant, wire spelling, doc, provenance).
    variants: Vec<(&'a str, &'a str, Option<&'a str>, &'a Provenance)>,
}

pub(super) fn file(api: &Api) -> TokenStream {
    let sets = api.value_sets.iter().map(|vs| {
        enum_tokens(&EnumSpec {
            name: &vs.name,
            doc: prose(&vs.doc),
            provenance: &vs.provenance,
            tolerant: vs.tolerant,
            variants: vs
                .values
                .iter()
                .map(|v| {
                    (
                        v.ident.as_str(),
                        v.wire.as_str(),
                        v.doc.as_deref(),
                        &v.provenance,
                    )
                })
                .collect(),
        })
    });
    let documented = Provenance::Documented;
    let error_code = enum_tokens(&EnumSpec {
        name: "ErrorCode",
        doc: "Machine-readable error code of the error object, with the HTTP status it is answered with.".into(),
        provenance: &documented,
        tolerant: true,
        variants: api
            .error_codes
            .iter()
            .map(|c| (c.variant.as_str(), c.code.as_str(), Some(c.doc.as_str()), &c.provenance))
            .collect(),
    });
    let variants: Vec<_> = api.error_codes.iter().map(|c| ident(&c.variant)).collect();
    let statuses = api.error_codes.iter().map(|c| c.status);
    let kinds: Vec<TokenStream> = mrds_runtime::ErrorKind::ALL
        .iter()
        .filter_map(|kind| {
            let code = api.error_codes.iter().find(|c| c.code == kind.code())?;
            let (kind, variant) = (ident(&format!("{kind:?}")), ident(&code.variant));
            Some(quote!(mrds_runtime::ErrorKind::#kind => ErrorCode::#variant,))
        })
        .collect();
    // The kinds only a request with a body meets, in a spec without one (the runtime never
    // answers with them then).
    let others = (kinds.len() < mrds_runtime::ErrorKind::ALL.len())
        .then(|| quote!(other => ErrorCode::Unknown(other.code().to_string()),));
    quote! {
        //! Value sets: enumerations with their wire spelling.
        //!
        //! Sets that appear in records are tolerant (unknown values decode into `Unknown`);
        //! sets used only by parameters are strict.

        #error_code

        impl ErrorCode {
            /// The HTTP status the service answers this code with (`None` for an unknown code).
            pub fn http_status(&self) -> Option<u16> {
                match self {
                    #(ErrorCode::#variants => Some(#statuses),)*
                    ErrorCode::Unknown(_) => None,
                }
            }
        }

        impl From<mrds_runtime::ErrorKind> for ErrorCode {
            fn from(kind: mrds_runtime::ErrorKind) -> Self {
                match kind {
                    #(#kinds)*
                    #others
                }
            }
        }

        #(#sets)*
    }
}

fn enum_tokens(e: &EnumSpec<'_>) -> TokenStream {
    let name = ident(e.name);
    let mut doc = e.doc.clone();
    if e.tolerant {
        doc.push_str(&format!(
            "\n\nTolerant: a value the spec does not know decodes into `{}::Unknown` with the raw \
             text, so a server adding values later does not break decoding. `FromStr` stays strict.",
            e.name
        ));
    } else {
        doc.push_str("\n\nStrict: a value the spec does not list is rejected.");
    }
    doc.push_str(if e.tolerant {
        "\n\nNon-exhaustive: a later version may add values (a value that decoded into \
         `Unknown` then decodes into its own variant), so a `match` needs a `_` arm."
    } else {
        "\n\nNon-exhaustive: a later version may add values, so a `match` needs a `_` arm."
    });
    let enum_docs = docs(&with_provenance(doc, e.provenance));
    let variants: Vec<_> = e.variants.iter().map(|(v, ..)| ident(v)).collect();
    let wires = e.variants.iter().map(|(_, w, ..)| *w);
    let variant_docs = e.variants.iter().map(|(_, w, d, p)| {
        let text = match d {
            Some(d) => format!("`{w}`: {}", prose(d)),
            None => format!("`{w}`."),
        };
        docs(&with_provenance(text, p))
    });
    let pairs = quote!({ #(#variants = #wires),* });
    if e.tolerant {
        quote! {
            #enum_docs
            #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
            #[non_exhaustive]
            pub enum #name {
                #(#variant_docs #variants,)*
                /// A value the spec does not know, kept as received.
                Unknown(String),
            }

            mrds_runtime::value_set!(tolerant #name #pairs);
        }
    } else {
        quote! {
            #enum_docs
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
            #[non_exhaustive]
            pub enum #name {
                #(#variant_docs #variants,)*
            }

            mrds_runtime::value_set!(strict #name #pairs);
        }
    }
}
