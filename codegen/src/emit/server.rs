//! The server-stub crate: one trait method per endpoint and an axum router over it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Emitted, cargo_toml, doc_attrs, ident, static_rust};
use crate::model::*;

/// Crate directory, relative to the workspace root.
pub const DIR: &str = "crates/mrds-server";

/// Adds the server crate's files to `out`.
pub fn emit(api: &Api, out: &mut Emitted) {
    out.text(
        format!("{DIR}/Cargo.toml"),
        cargo_toml(
            "mrds-server",
            "Server stub of the Market and Reference Data Service: an axum router over one trait",
            &[
                "axum = { version = \"0.8\", default-features = false, features = [\"http1\", \"tokio\"] }",
                "futures-util = { version = \"0.3\", default-features = false, features = [\"std\"] }",
                "mrds-model = { path = \"../mrds-model\" }",
                "serde = { version = \"1\", features = [\"derive\"] }",
                "serde_json = \"1\"",
                "subtle = \"2\"",
                "tracing = \"0.1\"",
            ],
        ),
    );
    out.text(
        format!("{DIR}/src/support.rs"),
        static_rust(include_str!("server_support.rs")),
    );
    let files: [(&str, TokenStream); 3] = [
        ("lib.rs", lib_rs(api)),
        ("service.rs", service_rs(api)),
        ("router.rs", router_rs(api)),
    ];
    out.crate_sources(DIR, files);
}

fn lib_rs(api: &Api) -> TokenStream {
    let title = format!(" Server stub of the {}.", api.title);
    let base = format!(
        " [`router`] mounts every endpoint below `{}`; requests reach the [`Api`] implementation",
        api.base_path
    );
    quote! {
        #![doc = #title]
        #![doc = ""]
        #![doc = " Implement [`Api`] (one async method per endpoint) and serve [`router`]:"]
        #![doc = ""]
        #![doc = " ```"]
        #![doc = " fn app(my_api: impl mrds_server::Api) -> mrds_server::axum::Router {"]
        #![doc = "     mrds_server::router(my_api, mrds_server::StaticKeys::new([\"my-key\"]))"]
        #![doc = " }"]
        #![doc = " ```"]
        #![doc = ""]
        #![doc = " and hand the router to `mrds_server::axum::serve` with a `tokio::net::TcpListener`."]
        #![doc = ""]
        #![doc = #base]
        #![doc = " only after the API key is checked and the parameters parsed and validated; every"]
        #![doc = " answer, success or failure, travels in the common envelope with a request id."]

        // Generated modules are formatted by the generator (prettyplease), not by rustfmt.
        #[rustfmt::skip]
        mod router;
        #[rustfmt::skip]
        mod service;
        #[rustfmt::skip]
        mod support;

        pub use axum;
        pub use mrds_model;
        pub use router::{OPENAPI_JSON, router};
        pub use service::Api;
        pub use support::{
            ApiError, KeyStore, REQUEST_ID_HEADER, RequestContext, StaticKeys, new_request_id,
        };
    }
}

fn record_path(e: &Endpoint) -> TokenStream {
    let record = format_ident!("{}", e.returns);
    quote!(mrds_model::records::#record)
}

fn params_path(e: &Endpoint) -> TokenStream {
    let params = format_ident!("{}", e.params_type);
    quote!(mrds_model::params::#params)
}

fn service_rs(api: &Api) -> TokenStream {
    let methods = api.endpoints.iter().map(|e| {
        let name = ident(&e.id);
        let record = record_path(e);
        let params = params_path(e);
        let mut text = format!("`{} {}{}`: {}", e.method.as_str(), api.base_path, e.path, e.summary);
        if let Some(doc) = &e.doc {
            text.push_str("\n\n");
            text.push_str(doc);
        }
        if let Some(ordering) = &e.ordering {
            text.push_str("\n\nOrder: ");
            text.push_str(ordering);
        }
        let docs = doc_attrs(&text, e.source);
        let signature = quote! {
            fn #name(
                &self,
                ctx: RequestContext,
                params: #params,
            ) -> impl Future<Output = Result<Vec<#record>, ApiError>> + Send
        };
        match &e.removed {
            Some(r) => {
                let note = format!(
                    " Removed from the service on {} ({}): answers 410 `ENDPOINT_REMOVED` unless overridden.",
                    r.date, r.version
                );
                let endpoint = format_ident!("{}", e.const_name);
                quote! {
                    #docs
                    ///
                    #[doc = #note]
                    #signature {
                        let _ = (ctx, params);
                        std::future::ready(Err(ApiError::removed(&mrds_model::api::#endpoint)))
                    }
                }
            }
            None => quote! {
                #docs
                #signature;
            },
        }
    });
    quote! {
        //! The trait an implementation of the service fills in.
        #![allow(deprecated)]

        use std::future::Future;

        use crate::support::{ApiError, RequestContext};

        /// The service: one method per endpoint. Each receives parameters that already passed
        /// every rule of the spec, and returns the records of `data` or an [`ApiError`].
        ///
        /// Methods may be written as `async fn`; the futures must be `Send`.
        pub trait Api: Send + Sync + 'static {
            #(#methods)*
        }
    }
}

fn router_rs(api: &Api) -> TokenStream {
    let routes = api.endpoints.iter().map(|e| {
        let name = ident(&e.id);
        let route = format!("{}{}", api.base_path, e.path);
        quote!(.route(#route, get(#name::<S, K>)))
    });
    let openapi_route = format!("{}/openapi.json", api.base_path);
    // From crates/mrds-server/src/ to the document.
    let openapi_file = format!("../../../{}", super::openapi::PATH);
    let handlers = api.endpoints.iter().map(|e| {
        let name = ident(&e.id);
        let params = params_path(e);
        let path_param = e.params.iter().find(|p| p.location == ParamLocation::Path);
        let (path_arg, raw) = if let Some(p) = path_param {
            let rule = p.rule_id(&e.id, "type");
            let field = &p.wire;
            (
                quote!(path: Result<RawPathParams, RawPathParamsRejection>,),
                quote! {
                    crate::support::raw_params(
                        query,
                        path.as_ref().map(RawPathParams::iter).map_err(|e| e.body_text()),
                        #rule,
                        #field,
                    )
                },
            )
        } else {
            (
                quote!(),
                quote!(Ok(RawParams::from_query_string(
                    query.unwrap_or_default()
                ))),
            )
        };
        quote! {
            async fn #name<S: Api, K: KeyStore>(
                State(shared): State<Arc<Shared<S, K>>>,
                #path_arg
                request: Request,
            ) -> Response {
                let query = request.uri().query();
                let raw = #raw;
                crate::support::handle::<#params, _, _>(&shared.keys, request.headers(), raw, |ctx, params| {
                    shared.service.#name(ctx, params)
                })
                .await
            }
        }
    });
    let uses_path = api
        .endpoints
        .iter()
        .any(|e| e.params.iter().any(|p| p.location == ParamLocation::Path));
    let path_imports = if uses_path {
        quote!(
            use axum::extract::{RawPathParams, rejection::RawPathParamsRejection};
        )
    } else {
        quote!()
    };
    quote! {
        //! The router: every endpoint at its path, and the envelope for unknown paths.
        #![allow(deprecated)]

        use std::sync::Arc;

        use axum::Router;
        use axum::extract::{Request, State};
        use axum::response::Response;
        use axum::routing::get;
        #path_imports
        use mrds_model::RawParams;

        use crate::service::Api;
        use crate::support::KeyStore;

        struct Shared<S, K> {
            service: S,
            keys: K,
        }

        /// The router serving `service`, with the keys `keys` accepts.
        ///
        /// Every endpoint is mounted at its documented path below the base path, the OpenAPI
        /// document at `openapi.json` below it; any other path answers 404
        /// `RESOURCE_NOT_FOUND` in the envelope.
        pub fn router<S: Api, K: KeyStore>(service: S, keys: K) -> Router {
            let shared = Arc::new(Shared { service, keys });
            Router::new()
                #(#routes)*
                .route(#openapi_route, get(openapi))
                .fallback(crate::support::unknown_path)
                .with_state(shared)
        }

        /// The OpenAPI 3.1 document of the service, generated from the same spec.
        pub const OPENAPI_JSON: &str = include_str!(#openapi_file);

        /// Serves [`OPENAPI_JSON`]; no key needed.
        async fn openapi() -> Response {
            let mut response = Response::new(axum::body::Body::from(OPENAPI_JSON));
            response.headers_mut().insert(
                axum::http::header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static("application/json"),
            );
            response
        }

        #(#handlers)*
    }
}
