//! The client crate: a typed async client on reqwest, one method per endpoint.
//!
//! The runtime (builder, errors, sending with validation and retries, paging) does not depend
//! on the spec and lives in `client_support.rs` beside this file, copied in as `support.rs`.
//! What the spec decides is generated here: one thin method per endpoint calling
//! `Client::send`, and a paging stream for each endpoint that pages with `limit` and `offset`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Emitted, cargo_toml, doc_attrs, ident, static_rust};
use crate::model::*;

/// Crate directory, relative to the workspace root.
pub const DIR: &str = "crates/mrds-client";

/// Adds the client crate's files to `out`.
pub fn emit(api: &Api, out: &mut Emitted) {
    out.text(format!("{DIR}/Cargo.toml"), client_cargo_toml());
    out.text(
        format!("{DIR}/src/support.rs"),
        static_rust(include_str!("client_support.rs")),
    );
    let files: [(&str, TokenStream); 2] =
        [("lib.rs", lib_rs(api)), ("endpoints.rs", endpoints_rs(api))];
    out.crate_sources(DIR, files);
}

fn client_cargo_toml() -> String {
    let mut text = cargo_toml(
        "mrds-client",
        "Typed async client of the Market and Reference Data Service",
        &[
            "futures-util = { version = \"0.3\", default-features = false }",
            "mrds-model = { path = \"../mrds-model\" }",
            "reqwest = { version = \"0.13\", default-features = false, features = [\"rustls\"] }",
            "serde = { version = \"1\", features = [\"derive\"] }",
            "serde_json = \"1\"",
            "tokio = { version = \"1\", default-features = false, features = [\"time\"] }",
        ],
    );
    text.push_str(
        "\n# For the hand-written examples in `examples/`.\n[dev-dependencies]\n\
         tokio = { version = \"1\", features = [\"macros\", \"rt\"] }\n",
    );
    text
}

/// The wire names of a `limit`/`offset` pair that [`crate::model::Endpoint`] pages with:
/// both integer query parameters that always have a value (required or defaulted).
fn offset_paged(e: &Endpoint) -> bool {
    let always_int = |name: &str| {
        e.param(name).is_some_and(|p| {
            p.kind == ParamKind::Integer
                && p.location == ParamLocation::Query
                && (p.required || p.default.is_some())
        })
    };
    always_int("limit") && always_int("offset")
}

fn auth_text(e: &Endpoint) -> &'static str {
    match e.auth {
        AuthMode::Required => "The API key is required.",
        AuthMode::Optional => "The API key is accepted but not required.",
    }
}

fn lib_rs(api: &Api) -> TokenStream {
    let title = format!(" Typed async client of the {}.", api.title);
    let version = format!(
        " Interface description version {}; every path below `{}`.",
        api.api_version, api.base_path
    );
    let mut table = String::from(" | method | endpoint | records |\n |---|---|---|");
    for e in &api.endpoints {
        let method = e.method.as_str();
        let removed = if e.removed.is_some() {
            " (removed, deprecated)"
        } else {
            ""
        };
        table.push_str(&format!(
            "\n | [`{id}`](Client::{id}){removed} | `{method} {path}` | [`{rec}`](mrds_model::records::{rec}) |",
            id = e.id,
            path = e.path,
            rec = e.returns,
        ));
    }
    let table = table.lines().map(|l| quote!(#![doc = #l]));
    let streams: Vec<String> = api
        .endpoints
        .iter()
        .filter(|e| offset_paged(e))
        .map(|e| format!("[`{id}_stream`](Client::{id}_stream)", id = e.id))
        .collect();
    let streams = format!(
        " Endpoints that page with `limit` and `offset` also get a stream of all their records: {}.",
        streams.join(", ")
    );
    // A usage example, shown when the spec has the endpoint it calls.
    let example = api
        .endpoints
        .iter()
        .any(|e| e.id == "stock_dividends" && e.removed.is_none())
        .then(|| {
            quote! {
            #![doc = " ```no_run"]
            #![doc = " use mrds_client::{Client, Error};"]
            #![doc = " use mrds_client::model::params::StockDividendsParams;"]
            #![doc = " use mrds_client::model::TimeType;"]
            #![doc = ""]
            #![doc = " # async fn run() -> Result<(), Box<dyn std::error::Error>> {"]
            #![doc = " let client = Client::builder(\"http://127.0.0.1:8080/api\").api_key(\"demo-key\").build()?;"]
            #![doc = " let params = StockDividendsParams::new(\"AAPL\", 1_700_000_000, 1_710_000_000, TimeType::PaymentDate);"]
            #![doc = " match client.stock_dividends(&params).await {"]
            #![doc = "     Ok(page) => println!(\"{} dividends (request {})\", page.data.len(), page.request_id),"]
            #![doc = "     Err(Error::Api(e)) if e.status == 404 => println!(\"nothing there\"),"]
            #![doc = "     Err(e) => return Err(e.into()),"]
            #![doc = " }"]
            #![doc = " # Ok(())"]
            #![doc = " # }"]
            #![doc = " ```"]
            #![doc = ""]
            }
        });
    quote! {
        #![doc = #title]
        #![doc = ""]
        #![doc = #version]
        #![doc = ""]
        #example
        #![doc = " Every method validates its parameters before sending (an invalid call fails with"]
        #![doc = " [`Error::InvalidInput`] and sends nothing), retries on 429, 502, 503, 504 and failed"]
        #![doc = " connections as the [`RetryPolicy`] says, and separates the failures in [`Error`]."]
        #![doc = ""]
        #(#table)*
        #![doc = ""]
        #![doc = #streams]

        #![warn(missing_docs)]

        // Generated modules are formatted by the generator (prettyplease), not by rustfmt.
        #[rustfmt::skip]
        mod endpoints;
        #[rustfmt::skip]
        pub mod support;

        pub use mrds_model as model;
        pub use reqwest;
        pub use support::*;
    }
}

fn endpoints_rs(api: &Api) -> TokenStream {
    let methods = api.endpoints.iter().map(|e| {
        let name = ident(&e.id);
        let params = ident(&e.params_type);
        let record = ident(&e.returns);
        let method = e.method.as_str();
        let mut doc = format!(
            "`{method} {}`: {}\n\nParameters: [`{}`](mrds_model::params::{}); records: [`{}`](mrds_model::records::{}). {}",
            e.path,
            e.summary,
            e.params_type,
            e.params_type,
            e.returns,
            e.returns,
            auth_text(e)
        );
        if let Some(o) = &e.ordering {
            doc.push_str(&format!("\n\nOrdering: {o}"));
        }
        doc.push_str(
            "\n\nThe parameters are validated first: an invalid call fails with \
             [`Error::InvalidInput`] and sends nothing.",
        );
        let (deprecated, allow) = match &e.removed {
            Some(r) => {
                doc.push_str(&format!(
                    "\n\nRemoved from the service on {} ({}): the service answers 410 `ENDPOINT_REMOVED`.",
                    r.date, r.version
                ));
                let since = r.version.trim_start_matches('v');
                let note = format!(
                    "the endpoint was removed from the service on {} ({})",
                    r.date, r.version
                );
                (
                    quote!(#[deprecated(since = #since, note = #note)]),
                    quote!(#[allow(deprecated)]),
                )
            }
            None => (quote!(), quote!()),
        };
        let docs = doc_attrs(&doc, Source::Documented);
        let stream = offset_paged(e).then(|| {
            let stream_name = format_ident!("{}_stream", e.id);
            let doc = format!(
                "Every record of [`{id}`](Self::{id}), page after page: starts at `params.offset`, \
                 advances `offset` by the records received and stops after a page shorter than \
                 `params.limit`. The first error is yielded and ends the stream.",
                id = e.id
            );
            let doc = doc_attrs(&doc, Source::Documented);
            quote! {
                #doc
                #deprecated
                #allow
                pub fn #stream_name(
                    &self,
                    params: &mrds_model::params::#params,
                ) -> impl futures_util::Stream<Item = Result<mrds_model::records::#record, Error>> + Send + 'static {
                    self.stream_all(params.clone())
                }
            }
        });
        quote! {
            #docs
            #deprecated
            #allow
            pub async fn #name(
                &self,
                params: &mrds_model::params::#params,
            ) -> Result<Response<mrds_model::records::#record>, Error> {
                self.send(params).await
            }

            #stream
        }
    });
    let paged = api.endpoints.iter().filter(|e| offset_paged(e)).map(|e| {
        let params = ident(&e.params_type);
        let limit = ident(&e.param("limit").expect("checked by offset_paged").ident);
        let offset = ident(&e.param("offset").expect("checked by offset_paged").ident);
        let allow = e.removed.as_ref().map(|_| quote!(#[allow(deprecated)]));
        quote! {
            #allow
            impl OffsetPaged for mrds_model::params::#params {
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
        }
    });
    let paged: Vec<TokenStream> = paged.collect();
    let use_paged = (!paged.is_empty()).then(|| {
        quote!(
            use crate::support::OffsetPaged;
        )
    });
    quote! {
        //! One method per endpoint, each validating, sending and decoding through
        //! [`Client::send`].

        use crate::support::{Client, Error, Response};
        #use_paged

        impl Client {
            #(#methods)*
        }

        #(#paged)*
    }
}
