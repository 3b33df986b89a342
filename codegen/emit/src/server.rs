//! The server-stub crate: one trait method per endpoint and an axum router over it. The
//! request pipeline is `mrds_runtime::server`; what the spec decides is generated here.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::endpoint_doc::{EndpointDoc, Style};
use super::{
    Emitted, cargo_toml_with_features, deprecation, docs, ident, inner_docs, prose, readme,
    runtime_dependency, sibling_dependency, with_provenance,
};
use mrds_spec::model::Api;

/// Crate directory, relative to the workspace root.
pub const DIR: &str = "crates/mrds-server";

/// The OpenAPI document, inside the crate that serves it.
pub const OPENAPI: &str = "crates/mrds-server/openapi.json";

/// Adds the server crate's files to `out`.
pub fn emit(api: &Api, out: &mut Emitted) {
    out.text(
        format!("{DIR}/Cargo.toml"),
        cargo_toml_with_features(
            "mrds-server",
            "Server stub of the Market and Reference Data Service: an axum router over one trait",
            &[
                &sibling_dependency("mrds-model"),
                &runtime_dependency(&["server"]),
            ],
            COMPRESSION_FEATURE,
        ),
    );
    out.text(OPENAPI, super::openapi::document_text(api));
    out.text(format!("{DIR}/README.md"), readme_md(api));
    let files: [(&str, TokenStream); 3] = [
        ("lib.rs", lib_rs(api)),
        ("service.rs", service_rs(api)),
        ("router.rs", router_rs(api)),
    ];
    out.crate_sources(DIR, files);
}

/// gzip of large answers, on by default; the sample-data crate turns it off for tests serving
/// in process (the workspace's dependency on this crate says `default-features = false`).
const COMPRESSION_FEATURE: &str = "\
default = [\"compression\"]
# gzip of large answers for clients that accept it (`ServeConfig::compression`): tower-http and
# flate2. A test serving the sample data in process (`mrds-mock`) does without.
compression = [\"mrds-runtime/compression\"]
";

/// The path of the error object's Rust type.
pub(super) fn error_object(api: &Api) -> TokenStream {
    let name = ident(&api.error_object().name);
    quote!(mrds_model::records::#name)
}

/// The README: what the crate holds and how a service is served.
fn readme_md(api: &Api) -> String {
    let body = format!(
        "Server stub of the {}: an axum router over one trait, `Api`, with an async method \
         per endpoint. The router checks the API key, parses and validates every parameter \
         with the model crate (`mrds-model`, re-exported) and answers in the common envelope \
         with a request id, so an implementation only returns records or a `ServerError`. It \
         also serves the OpenAPI document of the same spec at `{}/openapi.json`.\n\n\
         Implement `Api` and serve the router with `serve`. Every method has a default: write \
         the endpoints you serve, and the others answer 501 `NOT_IMPLEMENTED` in the envelope \
         (logged once per endpoint), so a new endpoint in the spec does not break your build \
         (the sample-data server `mrds-mock` implements every endpoint). `serve` adds the connection cap, timeouts, graceful \
         shutdown on SIGINT and SIGTERM, compression and an optional rate limit, with \
         production defaults (`ServeConfig` lists each and why):\n\n\
         ```no_run\n\
         async fn run(my_api: impl mrds_server::Api) -> std::io::Result<()> {{\n\
         \x20   let router = mrds_server::router(my_api, mrds_server::StaticKeys::new([\"my-key\"]));\n\
         \x20   let config = mrds_server::ServeConfig::default().with_addr(([0, 0, 0, 0], 8080).into());\n\
         \x20   mrds_server::serve(router, config).await\n\
         }}\n\
         ```",
        prose(&api.title),
        api.base_path
    );
    let features = "## Features\n\n`jiff`: the model crate's typed time (see `mrds-model`).";
    readme("mrds-server", &body, features)
}

fn lib_rs(api: &Api) -> TokenStream {
    let docs = inner_docs(&format!(
        "## Reference\n\nServer stub of the {}.\n\n\
         [`router`] mounts every endpoint below `{}`; requests reach the [`Api`] implementation \
         only after the API key is checked and the parameters parsed and validated; every \
         answer, success or failure (404, 405 included), travels in the common envelope with a \
         request id. [`serve`] adds what production needs around it: a connection cap, \
         header-read, keep-alive and write timeouts, a bounded request head, graceful shutdown \
         on SIGINT and SIGTERM, gzip for large answers and an optional per-caller rate limit \
         ([`ServeConfig`] lists every default and why). The pipeline and the serving code are \
         `mrds_runtime::server`.",
        api.title, api.base_path
    ));
    quote! {
        #![doc = include_str!("../README.md")]
        #docs

        #![warn(missing_docs)]

        // Generated modules are formatted by the generator (prettyplease), not by rustfmt.
        #[rustfmt::skip]
        mod router;
        #[rustfmt::skip]
        mod service;

        pub use mrds_model;
        pub use mrds_runtime::server::axum;
        pub use mrds_runtime::server::{
            KeyStore, REQUEST_ID_HEADER, RequestContext, StaticKeys, new_request_id,
        };
        pub use mrds_runtime::server::{RateLimit, ServeConfig, Server, ShutdownHandle, serve};
        pub use router::{OPENAPI_JSON, router};
        pub use service::{Api, NotImplemented, ServerError};
    }
}

fn service_rs(api: &Api) -> TokenStream {
    let object = error_object(api);
    let mut methods = Vec::new();
    let mut answers = Vec::new();
    for e in &api.endpoints {
        let name = ident(&e.names.method);
        let record = ident(&api.returns(e).name);
        let params = ident(&e.names.params_type);
        let constant = format_ident!("{}", e.names.constant);
        let mut text = EndpointDoc::new(e, Style::Rustdoc).full();
        let body = e.body.as_ref().map(|b| {
            let body = ident(&api.record(b.record).name);
            quote!(body: mrds_model::records::#body,)
        });
        let (default, answer) = match &e.removed {
            Some(_) => (
                "Unless overridden, answered by [`Api::fallback`], which by default answers 410 \
                 `ENDPOINT_REMOVED`.",
                quote!(ServerError::removed(&mrds_model::api::#constant)),
            ),
            None => (
                "Unless overridden, answered by [`Api::fallback`], which by default answers 501 \
                 `NOT_IMPLEMENTED`.",
                quote!(ServerError::not_implemented(&mrds_model::api::#constant)),
            ),
        };
        text.push_str(&format!("\n\n{default}"));
        let docs = docs(&with_provenance(text, &e.provenance));
        let args = match &e.body {
            Some(_) => quote!(ctx, params, body),
            None => quote!(ctx, params),
        };
        let signature = quote! {
            fn #name(
                &self,
                ctx: RequestContext,
                params: mrds_model::params::#params,
                #body
            ) -> impl Future<Output = Result<Vec<mrds_model::records::#record>, ServerError>> + Send
        };
        methods.push(quote! {
            #docs
            #signature {
                self.fallback().#name(#args)
            }
        });
        answers.push(quote! {
            #signature {
                let _ = (#args);
                std::future::ready(Err(#answer))
            }
        });
    }
    quote! {
        //! The trait an implementation of the service fills in.
        #![allow(deprecated)]

        use std::future::Future;

        use crate::RequestContext;

        /// A failure an implementation answers with; it becomes the error envelope with the
        /// HTTP status of its code.
        pub type ServerError = mrds_runtime::server::ServerError<#object>;

        /// The service: one method per endpoint. Each receives parameters that already passed
        /// every rule of the spec, and returns the records of `data` or a [`ServerError`].
        ///
        /// Every method has a default: an implementation writes the endpoints it serves, and
        /// the others go to [`Api::fallback`], by default [`NotImplemented`], which answers
        /// 501 `NOT_IMPLEMENTED` in the envelope (410 `ENDPOINT_REMOVED` for an endpoint the
        /// change history lists as removed); the router logs an unimplemented endpoint once,
        /// at WARN. So an endpoint added to the spec is an addition for implementations, not a
        /// compile error.
        ///
        /// Methods may be written as `async fn`; the futures must be `Send`.
        pub trait Api: Send + Sync + 'static {
            /// The implementation answering the endpoints this one leaves out: [`NotImplemented`]
            /// unless overridden. An implementation that changes a few endpoints of another
            /// (a wrapper around the sample server, say) returns the other one here and writes
            /// only the methods it changes.
            fn fallback(&self) -> &impl Api {
                &NotImplemented
            }

            #(#methods)*
        }

        /// The implementation of no endpoint: every method answers 501 `NOT_IMPLEMENTED`
        /// ([`ServerError::not_implemented`]), the endpoints the change history lists as removed
        /// 410 `ENDPOINT_REMOVED`. The default [`Api::fallback`].
        #[derive(Clone, Copy, Debug, Default)]
        pub struct NotImplemented;

        impl Api for NotImplemented {
            #(#answers)*
        }
    }
}

fn router_rs(api: &Api) -> TokenStream {
    let object = error_object(api);
    // One arm per endpoint, by its index in `ENDPOINTS` (the model's order).
    let arms = api.endpoints.iter().enumerate().map(|(index, e)| {
        let method = ident(&e.names.method);
        let params = ident(&e.names.params_type);
        let (_, allow) = deprecation(e.removed.as_ref());
        match &e.body {
            None => quote! {
                #index => Box::pin(async move {
                    #allow
                    let call = |ctx, params: mrds_model::params::#params| shared.service.#method(ctx, params);
                    shared.handle(request, call).await
                }),
            },
            Some(body) => {
                let body = ident(&api.record(body.record).name);
                quote! {
                    #index => Box::pin(async move {
                        #allow
                        let call = |ctx, params: mrds_model::params::#params, body: mrds_model::records::#body| {
                            shared.service.#method(ctx, params, body)
                        };
                        shared.handle_with_body(request, call).await
                    }),
                }
            }
        }
    });
    quote! {
        //! The router: every endpoint at its path, and the envelope for unknown paths.

        use std::sync::Arc;

        use mrds_model::api::{AUTH_HEADER, BASE_PATH, ENDPOINTS};
        use mrds_runtime::server::axum::Router;
        use mrds_runtime::server::{Answer, KeyStore, Shared};

        use crate::service::Api;

        /// The router serving `service`, with the keys `keys` accepts.
        ///
        /// Every endpoint is served at its documented path below the base path, the OpenAPI
        /// document at `openapi.json` below it. A request goes to the endpoint of the most
        /// specific path template that fits it (a literal segment before a placeholder, from
        /// the left: `mrds_runtime::route`), then of its method (GET also answers HEAD); any
        /// other path answers 404 `RESOURCE_NOT_FOUND` in the envelope, a method the path's
        /// endpoints do not answer 405 in the envelope with `Allow`.
        pub fn router<S: Api, K: KeyStore>(service: S, keys: K) -> Router {
            let shared = Arc::new(Shared::new(service, keys, AUTH_HEADER));
            mrds_runtime::server::dispatch::<#object, _>(BASE_PATH, ENDPOINTS, Some(OPENAPI_JSON), move |index, request| -> Answer {
                let shared = Arc::clone(&shared);
                match index {
                    #(#arms)*
                    _ => Box::pin(std::future::ready(mrds_runtime::server::unknown_endpoint::<#object>(request))),
                }
            })
        }

        /// The OpenAPI 3.1 document of the service, generated from the same spec.
        pub const OPENAPI_JSON: &str = include_str!("../openapi.json");
    }
}
