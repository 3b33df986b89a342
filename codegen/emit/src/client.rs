//! The client crate: a typed async client, one method per endpoint.
//!
//! The runtime (builder, errors, sending with validation and retries, paging) does not depend
//! on the spec and is `mrds_runtime::client`. What the spec decides is generated here: the
//! `Client` wrapping the runtime's transport, one thin method per endpoint, and a paging
//! stream for each endpoint that pages with an offset.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::endpoint_doc::{EndpointDoc, Style};
use super::{
    Emitted, cargo_toml_with_features, deprecation, docs, example_request, ident, inner_docs,
    prose, readme, runtime_dependency, sibling_dependency,
};
use mrds_spec::model::Api;

/// Crate directory, relative to the workspace root.
pub const DIR: &str = "crates/mrds-client";

/// The client's TLS features, forwarded to the runtime; the README's *TLS* section gives what
/// each costs to build (measured by `bench/build-cost.sh`).
const TLS_FEATURES: &str = "\
# TLS, for `https://` base URLs (see the README for what each option costs to build). With
# several on, native-tls is used, then rustls with aws-lc-rs.
default = [\"rustls-ring\"]
# rustls with the `ring` provider: no cmake, no system library.
rustls-ring = [\"mrds-runtime/client-rustls-ring\"]
# rustls with the `aws-lc-rs` provider (its C library builds with cmake).
rustls-aws-lc-rs = [\"mrds-runtime/client-rustls-aws-lc-rs\"]
# The platform's TLS library (OpenSSL on Linux, which needs its development package).
native-tls = [\"mrds-runtime/client-native-tls\"]
";

use super::client_examples::MOCK_EXAMPLE;

/// Adds the client crate's files to `out`.
pub fn emit(api: &Api, out: &mut Emitted) {
    let mut toml = cargo_toml_with_features(
        "mrds-client",
        "Typed async client of the Market and Reference Data Service",
        &[
            &sibling_dependency("mrds-model"),
            &runtime_dependency(&["client"]),
        ],
        TLS_FEATURES,
    );
    toml.push_str(&format!(
        "\n# For the examples in `examples/` (`{MOCK_EXAMPLE}.rs` tests the client against the\n\
         # sample server in process).\n[dev-dependencies]\n{}\n\
         tokio = {{ version = \"1\", features = [\"macros\", \"rt\"] }}\n",
        sibling_dependency("mrds-mock")
    ));
    out.text(format!("{DIR}/Cargo.toml"), toml);
    out.text(format!("{DIR}/README.md"), readme_md(api));
    let files: [(&str, TokenStream); 3] = [
        ("lib.rs", lib_rs(api)),
        ("client.rs", client_rs(api)),
        ("endpoints.rs", endpoints_rs(api)),
    ];
    out.crate_sources(DIR, files);
    super::client_examples::emit(api, DIR, out);
}

/// The README: what the client does, and a call of one endpoint of the spec's samples.
fn readme_md(api: &Api) -> String {
    let mut code = String::from("```rust,no_run\nuse mrds_client::{Client, Error};\n");
    let call = example_request(api);
    if let Some(x) = &call {
        code.push_str(&x.uses("mrds_client::model").join("\n"));
        code.push('\n');
    }
    code.push_str(
        "\n# async fn run() -> Result<(), Box<dyn std::error::Error>> {\n\
         let client = Client::builder(\"http://127.0.0.1:8080\").api_key(\"demo-key\").build()?;\n",
    );
    if let Some(x) = &call {
        code.push_str(&format!(
            "let params = {};\n\
             match client.{}(&params).await {{\n\
             \x20   Ok(page) => println!(\"{{}} records (request {{}})\", page.data.len(), page.request_id),\n\
             \x20   Err(e) if e.status() == Some(404) => println!(\"nothing there\"),\n\
             \x20   Err(e) if e.is_timeout() => println!(\"no answer in time ({{}} attempts)\", e.attempts()),\n\
             \x20   Err(e @ Error::Status(_)) => println!(\"a proxy or gateway answered: {{e}}\"),\n\
             \x20   Err(e) => return Err(e.into()),\n\
             }}\n",
            x.text(None, false),
            x.endpoint.names.method
        ));
    } else {
        code.push_str("println!(\"{}\", client.base_url());\n");
    }
    code.push_str("# Ok(())\n# }\n```");
    let body = format!(
        "Typed async client of the {} (hyper; TLS through rustls by default): one method per endpoint taking the \
         endpoint's parameter type from the model crate (`mrds-model`, re-exported as \
         `mrds_client::model`). Every call validates its parameters before sending, retries \
         what is worth retrying, and fails with one error type, `Error`, that tells invalid \
         input, transport failures, the service's error answers, error statuses without the \
         error object (a proxy's or gateway's) and undecodable answers apart, and answers the \
         same questions of each: `is_timeout()` (an attempt's timeout or the call's deadline, \
         the same on every run whatever the retry jitter), `is_retryable()`, `status()`, \
         `code()`, `request_id()`, `retry_after()`, `attempts()`. Endpoints that page with an \
         offset also get a stream of all their records.\n\n{code}\n\n\
         To test code that uses the client, point it at the sample server in process \
         (`mrds_mock::MockServer`, in `mrds-mock`): it answers with the spec's sample data, \
         answers requests with any status, a body, a delay or a lost connection when the test \
         says so (matched by query parameter, path parameter or body field, with expectations \
         checked when it drops), and keeps a journal of what it received and how it answered. \
         `examples/{MOCK_EXAMPLE}.rs` shows a call that meets two 429 answers, \
         retries as their `Retry-After` says and succeeds (`cargo run -p mrds-client --example \
         {MOCK_EXAMPLE}`).",
        prose(&api.title)
    );
    let features = "## Features\n\n\
         - TLS, for `https://` base URLs: `rustls-ring` (the default: rustls with the `ring` \
         provider, which builds without cmake or a system library: a cold build of about 30 s \
         of CPU, 9 s over no TLS), `rustls-aws-lc-rs` \
         (whose C library, built with cmake, adds about 20 s \
         of CPU more) or `native-tls` (the platform's library: OpenSSL on Linux, \
         with its development package installed; about as cheap to build as `rustls-ring`). Choose another with \
         `default-features = false, features = [\"native-tls\"]`; with none, the client \
         speaks plain `http://` only and refuses an `https://` base URL when it is built. \
         Proxies come from the environment (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`, \
         `NO_PROXY`) or from `ClientBuilder::proxy`.\n\
         - `jiff`: the model crate's typed time (see `mrds-model`).\n\n\
         Calls are `async`: run them on tokio (`tokio = { version = \"1\", features = \
         [\"macros\", \"rt-multi-thread\"] }`). The paging streams are \
         `futures_util::Stream`s; read them with `futures-util = \"0.3\"` (`StreamExt`, \
         `TryStreamExt`).";
    readme("mrds-client", &body, features)
}

fn lib_rs(api: &Api) -> TokenStream {
    let mut text = format!(
        "## Reference\n\nTyped async client of the {}.\n\nInterface description version {}; every path below `{}`.\n\n",
        api.title, api.api_version, api.base_path
    );
    text.push_str(
        "Every method validates its parameters before sending (an invalid call fails with \
         [`Error::InvalidInput`] and sends nothing), retries on 429, 502, 503, 504, failed or \
         reset connections and timeouts as the [`RetryPolicy`] says within the call's deadline \
         ([`ClientBuilder`]), traces each call and attempt with `tracing` (one INFO event per call, a warning per \
         retry; never the key), and \
         separates the failures in [`Error`], which says how many attempts were made.\n\n\
         | method | endpoint | records |\n|---|---|---|",
    );
    for e in &api.endpoints {
        let removed = if e.removed.is_some() {
            " (removed, deprecated)"
        } else {
            ""
        };
        text.push_str(&format!(
            "\n| [`{id}`](Client::{id}){removed} | `{method} {path}` | [`{rec}`](mrds_model::records::{rec}) |",
            id = e.names.method,
            method = e.method.as_str(),
            path = e.path,
            rec = api.returns(e).name,
        ));
    }
    let streams: Vec<String> = api
        .endpoints
        .iter()
        .filter(|e| e.offset_paged())
        .map(|e| format!("[`{s}`](Client::{s})", s = e.names.stream))
        .collect();
    if !streams.is_empty() {
        text.push_str(&format!(
            "\n\nEndpoints that page with an offset also get a stream of all their records \
             (`Unpin`: `.next().await` works without pinning): {}. A stream advances the offset \
             by the records received, ends on an empty page (or when the envelope's \
             `pagination` says `has_more: false` or its `total` is reached), and fails with \
             [`Error::Paging`] when a page repeats the previous one.",
            streams.join(", ")
        ));
    }
    let docs = inner_docs(&text);
    quote! {
        #![doc = include_str!("../README.md")]
        #docs

        #![warn(missing_docs)]

        // Generated modules are formatted by the generator (prettyplease), not by rustfmt.
        #[rustfmt::skip]
        mod client;
        #[rustfmt::skip]
        mod endpoints;

        pub use client::*;
        pub use mrds_model as model;
    }
}

fn client_rs(api: &Api) -> TokenStream {
    let object = super::server::error_object(api);
    quote! {
        //! The client: the runtime's transport with the spec's protocol and error object.

        use std::fmt;

        use mrds_runtime::client::Transport;
        use mrds_runtime::{Paged, Request};

        pub use mrds_runtime::client::{
            BODY_PREFIX_LIMIT, BuildError, DEFAULT_DEADLINE_FACTOR, DEFAULT_TIMEOUT,
            DEFAULT_USER_AGENT, MAX_REDIRECTS, PagingError, REQUEST_ID_HEADER, RETRY_STATUSES,
            Response, RetryPolicy, StatusError, TransportError, TransportKind, UndecodableError,
            http,
        };
        pub use mrds_runtime::drift::{Drift, Finding, Observed};

        #[doc = mrds_runtime::__client_error_doc!(
            "use mrds_client::Error;\n\nfn describe(error: &Error) -> String {"
        )]
        ///
        /// (`mrds_runtime::client::Error` with the spec's error object.)
        pub type Error = mrds_runtime::client::Error<#object>;

        /// The service's answer to a failed request.
        pub type ApiError = mrds_runtime::client::ApiError<#object>;

        /// Configures a [`Client`]; made by [`Client::builder`]. `Debug` never shows the API key.
        pub type ClientBuilder = mrds_runtime::client::ClientBuilder<Client>;

        /// A client of the service: one async method per endpoint (named after the endpoint
        /// id), each taking the endpoint's parameter type from [`mrds_model::params`].
        ///
        /// Cheap to clone (the connection pool and settings are shared). `Debug` never shows
        /// the API key.
        #[derive(Clone)]
        pub struct Client {
            transport: Transport,
        }

        impl From<Transport> for Client {
            fn from(transport: Transport) -> Self {
                Self { transport }
            }
        }

        impl fmt::Debug for Client {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.transport.fmt(f)
            }
        }

        impl Client {
            /// A builder for a client of the service at `base_url`.
            ///
            /// The base URL is the service root, whose path ends in the base path; when it
            /// does not, the base path is appended, so `http://host:8080`,
            /// `http://host:8080/` and `http://host:8080/api/` all name the same root. A
            /// prefix is kept: `https://gateway/mrds` becomes `https://gateway/mrds/api`.
            pub fn builder(base_url: impl Into<String>) -> ClientBuilder {
                ClientBuilder::new(mrds_model::api::PROTOCOL, base_url)
            }

            /// The service root every endpoint path is appended to.
            pub fn base_url(&self) -> &mrds_runtime::client::http::Uri {
                self.transport.base_url()
            }

            /// The retry policy in force.
            pub fn retry_policy(&self) -> RetryPolicy {
                self.transport.retry_policy()
            }

            /// What the service's answers held that the spec does not describe, so far (see
            /// [`ClientBuilder::notice_drift`]): [`Drift::findings`], and
            /// [`Drift::to_json_lines`] for `cargo xtask drift`.
            pub fn drift(&self) -> &Drift {
                self.transport.drift()
            }

            /// The full URL of a request: base URL, the endpoint path (path parameters
            /// percent-encoded) and the query, every name and value percent-encoded.
            pub fn url_for<P: Request>(&self, params: &P) -> mrds_runtime::client::http::Uri {
                self.transport.url_for(params)
            }

            /// Sends one request of any endpoint: validates `params` (an invalid request fails
            /// with [`Error::InvalidInput`] and nothing is sent), then sends it, retrying as the
            /// [`RetryPolicy`] says within the call's deadline, and decodes the envelope.
            pub async fn send<P: Request + Sync>(&self, params: &P) -> Result<Response<P::Record>, Error> {
                self.transport.send(params).await
            }

            /// Sends one request of an endpoint with a JSON body, as [`send`](Self::send): the
            /// parameters and the body are validated together first. A call the spec does not
            /// mark idempotent is not retried once it may have reached the service, unless the
            /// [`RetryPolicy`] sends idempotency keys.
            pub async fn send_with_body<P>(&self, params: &P, body: &P::Body) -> Result<Response<P::Record>, Error>
            where
                P: mrds_runtime::WithBody + Sync,
                P::Body: Sync,
            {
                self.transport.send_with_body(params, body).await
            }

            /// Every record of an endpoint that pages with an offset, page after page, as an
            /// `Unpin` stream (see `mrds_runtime::client::Transport::stream_all` for when it
            /// ends).
            pub fn stream_all<P>(
                &self,
                params: P,
            ) -> impl mrds_runtime::client::Stream<Item = Result<P::Record, Error>> + Send + Unpin + 'static
            where
                P: Paged,
                P::Record: Send + 'static,
            {
                self.transport.stream_all(params)
            }
        }
    }
}

fn endpoints_rs(api: &Api) -> TokenStream {
    let methods = api.endpoints.iter().map(|e| {
        let name = ident(&e.names.method);
        let params = ident(&e.names.params_type);
        let returns = &api.returns(e).name;
        let record = ident(returns);
        let described = EndpointDoc::new(e, Style::Rustdoc);
        let doc = format!(
            "{}\n\nParameters: [`{p}`](mrds_model::params::{p}); records: [`{r}`](mrds_model::records::{r}).{}\n\nThe parameters are validated first: an invalid call fails with \
             [`Error::InvalidInput`] and sends nothing.",
            described.head(),
            described.body(),
            p = e.names.params_type,
            r = returns,
        );
        let (deprecated, allow) = deprecation(e.removed.as_ref());
        let method_docs = docs(&doc);
        let stream = e.offset_paged().then(|| {
            let stream_name = format_ident!("{}", e.names.stream);
            let doc = docs(&format!(
                "Every record of [`{id}`](Self::{id}), page after page: starts at the offset of \
                 `params` and advances it by the records received (a page shorter than the page \
                 size does not end the stream). It ends after an empty page, or when the \
                 envelope's `pagination` says `has_more: false` or its `total` is reached; a page \
                 that repeats the previous one (the offset is ignored) fails with \
                 [`Error::Paging`]. The first error is yielded and ends the stream. `Unpin`: \
                 `.next().await` works without pinning.",
                id = e.names.method
            ));
            quote! {
                #doc
                #deprecated
                #allow
                pub fn #stream_name(
                    &self,
                    params: &mrds_model::params::#params,
                ) -> impl mrds_runtime::client::Stream<Item = Result<mrds_model::records::#record, Error>> + Send + Unpin + 'static {
                    self.stream_all(params.clone())
                }
            }
        });
        let (body_arg, send) = match &e.body {
            Some(b) => {
                let body = ident(&api.record(b.record).name);
                (
                    quote!(body: &mrds_model::records::#body,),
                    quote!(self.send_with_body(params, body).await),
                )
            }
            None => (TokenStream::new(), quote!(self.send(params).await)),
        };
        quote! {
            #method_docs
            #deprecated
            #allow
            pub async fn #name(
                &self,
                params: &mrds_model::params::#params,
                #body_arg
            ) -> Result<Response<mrds_model::records::#record>, Error> {
                #send
            }

            #stream
        }
    });
    quote! {
        //! One method per endpoint, each validating, sending and decoding through
        //! [`Client::send`].

        use crate::{Client, Error, Response};

        impl Client {
            #(#methods)*
        }
    }
}
