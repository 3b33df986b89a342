//! The sample-data server crate: the server trait implemented over the spec's `samples:`.
//! The selection engine is `mrds_runtime::samples` and the server and command line
//! `mrds_runtime::mock`; the tables of sample data (as `mrds_spec::model::SampleTables` maps
//! the spec's samples) and the trait implementation are generated here.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{
    Emitted, cargo_toml_with_features, ident, inner_docs, prose, readme, runtime_dependency,
    sibling_dependency,
};
use mrds_spec::model::samples;
use mrds_spec::model::{Api, Endpoint, SampleTables, Samples, TableField};

/// Crate directory, relative to the workspace root.
pub const DIR: &str = "crates/mrds-mock";

/// The key the sample server accepts when no other is given.
const DEMO_KEY: &str = "demo-key";

/// The command line and the checking proxy, features of their own: a test using `MockServer`
/// needs neither the argument parser and compression of the one, nor the client's HTTP stack
/// with TLS of the other. The binary needs the command line.
const FEATURES: &str = "\
# The command line (the `mrds-mock` binary, `run`): the argument parser, the log output and
# compression. Off by default: a test serving the samples in process (`MockServer`) does not
# pay for it. `cargo run -p mrds-mock --features cli`.
cli = [\"mrds-runtime/cli\"]
# The checking proxy (`mrds-mock --proxy URL`, `mrds_runtime::proxy::Proxy`): the client's HTTP
# stack, with rustls (the `ring` provider) for an `https://` service, and the command line.
proxy = [\"cli\", \"mrds-runtime/proxy\", \"mrds-runtime/client-rustls-ring\"]
";

/// The binary, built only with the command line (and not as a test: it has none).
const BINARY: &str = "
[[bin]]
name = \"mrds-mock\"
path = \"src/main.rs\"
required-features = [\"cli\"]
test = false
";

/// Adds the sample-data server's files to `out`.
pub fn emit(api: &Api, out: &mut Emitted) {
    out.text(
        format!("{DIR}/Cargo.toml"),
        cargo_toml_with_features(
            "mrds-mock",
            "Sample-data server of the Market and Reference Data Service, built from the spec's samples",
            &[
                &sibling_dependency("mrds-model"),
                &runtime_dependency(&["mock"]),
                &sibling_dependency("mrds-server"),
            ],
            FEATURES,
        ) + BINARY,
    );
    out.text(format!("{DIR}/README.md"), readme_md(api));
    let files: [(&str, TokenStream); 4] = [
        ("lib.rs", lib_rs(api)),
        ("service.rs", service_rs(api)),
        ("samples.rs", samples_rs(api)),
        ("main.rs", main_rs()),
    ];
    out.crate_sources(DIR, files);
}

/// The README: what the sample server serves, how to run it, how to test against it in
/// process (scenarios, the journal) and from any language (`Prefer`).
fn readme_md(api: &Api) -> String {
    let body = format!(
        "Sample-data server of the {}: the server stub (`mrds-server`) implemented over the \
         spec's sample records, so clients can be tried and tested without the real service. \
         The samples are illustrative, not market data.\n\n\
         ## Testing against it\n\n\
         `MockServer` serves it in the test's process, on a free loopback port, until it is \
         dropped: point the code under test at `base_url()` (the base path included) with \
         `api_key()`. A `Scenario` makes requests of an endpoint (typed by the model crate's \
         endpoint constants) answer any status (with the spec's error object where the spec \
         has a code for it, bare where it has none, or a body of the test's own, with \
         `Retry-After`), wait, or lose their connection, then the samples again; it may match \
         by query parameter, path parameter or body field, and expect a number of requests, \
         checked when the server drops. The journal holds what was received (the key's value \
         redacted) and how each request was answered, the time it took included:\n\n{}\n\n\
         ## From any language\n\n\
         `cargo run -p mrds-mock --features cli` serves it on `127.0.0.1:8080` and accepts the \
         key `{DEMO_KEY}` (`--addr`, `--api-key`, `--serve-removed`, `--no-prefer`; `--help` \
         for more). A request asks for an answer with the `Prefer` header (as Prism does): \
         `Prefer: code=503` answers that status (the spec's error object where it has a code, \
         bare where not; `retry-after=<s>` sets its `Retry-After`), `Prefer: delay=250` waits \
         250 ms first (at most 10 s). With `--admin` (on a loopback address unless \
         `--admin-remote`) it serves an admin API in WireMock's shape: `POST \
         /__admin/scenarios` (the scenarios above, as JSON), `GET /__admin/requests` (the \
         journal), `POST /__admin/reset`.\n\n\
         ## Checking the real service\n\n\
         `cargo run -p mrds-mock --features proxy -- --proxy https://host` serves no sample data: it is a checking proxy in front \
         of the service. Point clients at it; it forwards every request (the key passed on \
         unchanged, never logged or written), returns the service's answers as they came, and \
         checks both against the spec: what the answers hold that the spec does not describe, \
         requests the spec refuses that the service accepts and the reverse. What it finds goes \
         to `--findings` (`drift.jsonl`) as JSON lines, which `cargo xtask drift` turns into \
         spec edits, and a summary is printed when it stops.",
        prose(&api.title),
        mock_server_example(api),
    );
    let features = "## Features\n\n\
         - `cli` (off by default): the command line and the binary (the argument parser, the \
         log output, compression), which a test serving the samples in process does not \
         need.\n\
         - `proxy` (off by default): the checking proxy (`--proxy`), with the client's HTTP stack \
         and rustls (the `ring` provider); it turns on `cli`.\n\
         - `jiff`: the model crate's typed time (see `mrds-model`).";
    readme("mrds-mock", &body, features)
}

/// The README's example of the in-process server: a scenario on the endpoint of the client's
/// example (else the first endpoint not removed, whose constant is not deprecated), and the
/// journal.
fn mock_server_example(api: &Api) -> String {
    let endpoint = super::example_request(api)
        .map(|x| x.endpoint)
        .or_else(|| api.endpoints.iter().find(|e| e.removed.is_none()));
    let mut code = String::from(
        "```rust,no_run\nuse std::time::Duration;\n\nuse mrds_mock::{MockServer, Scenario};\n",
    );
    if let Some(e) = endpoint {
        code.push_str(&format!("use mrds_model::api::{};\n", e.names.constant));
    }
    code.push_str(
        "\n# async fn run() -> Result<(), Box<dyn std::error::Error>> {\n\
         let server = MockServer::start().await?;\n",
    );
    if let Some(e) = endpoint {
        let constant = &e.names.constant;
        code.push_str(&format!(
            "// Its next two requests answer 429 RATE_LIMITED with `Retry-After: 0`, then the samples.\n\
             let limited = Scenario::status(429).retry_after(Duration::ZERO).times(2);\n\
             server.answer(&{constant}, limited)?;\n\
             // A bare 503 (no error code of the spec has it), expected at most once.\n\
             server.answer(&{constant}, Scenario::status(503).expect(..=1).named(\"gateway\"))?;\n\
             // ... the code under test calls server.base_url() with server.api_key() ...\n\
             for request in server.received_requests_of(&{constant}) {{\n\
             \x20   assert_eq!(request.header(mrds_mock::AUTH_HEADER), Some(mrds_mock::REDACTED));\n\
             \x20   println!(\"{{}} {{}}?{{}}: {{:?}} in {{:?}}\", request.method, request.path, request.query, request.outcome, request.duration);\n\
             }}\n"
        ));
    }
    code.push_str("# Ok(())\n# }\n```");
    code
}

fn lib_rs(api: &Api) -> TokenStream {
    let docs = inner_docs(&format!(
        "## Reference\n\nSample-data server of the {}.\n\n\
         [`Mock`] implements [`mrds_server::Api`] with the records of the spec's `samples:` \
         sections, selected as they declare (matching sets, echoed spellings, ranges, order, \
         offset and limit). Removed endpoints answer 410 unless [`Mock::serving_removed`].\n\n\
         [`MockServer`] serves it in process for tests, with [`Scenario`]s (any status, a \
         body, a delay, a reset; matched by query parameter, path parameter or body field; with \
         expectations) and a journal of [`ReceivedRequest`]s. `cargo run -p mrds-mock \
         --features cli` serves it on `127.0.0.1:8080` through `mrds_server::serve`, the \
         serving path of any implementation (`--addr`, `--api-key`, `--serve-removed`, a flag \
         per limit, `--log-format`, `--no-prefer`, `--admin`; see `--help`). `--proxy URL` \
         makes it a checking proxy in front of the real service instead \
         (`mrds_runtime::proxy::Proxy`, feature `proxy`).",
        api.title
    ));
    quote! {
        #![doc = include_str!("../README.md")]
        #docs

        #![warn(missing_docs)]

        // Generated modules are formatted by the generator (prettyplease), not by rustfmt.
        #[rustfmt::skip]
        mod samples;
        #[rustfmt::skip]
        mod service;

        pub use mrds_model::api::{AUTH_HEADER, BASE_PATH};
        pub use mrds_runtime::app::Example;
        pub use mrds_runtime::mock::{AnsweredBy, KeySent, Outcome};
        pub use mrds_runtime::mock::{Expectation, ReceivedRequest, Scenario, ScenarioError};
        pub use mrds_runtime::mock::{MAX_PREFER_DELAY, REDACTED};
        pub use mrds_runtime::mock::{Unmet, UnmetExpectations};
        pub use samples::EXAMPLES;
        #[cfg(feature = "cli")]
        pub use service::run;
        pub use service::{APP, DEMO_KEY, EXAMPLE, Mock, router};
        pub use service::{MockServer, MockServerBuilder};
    }
}

fn main_rs() -> TokenStream {
    quote! {
        //! `mrds-mock`: serves the spec's sample data on a local port (see `--help`).

        fn main() -> std::process::ExitCode {
            mrds_mock::run()
        }
    }
}

fn service_rs(api: &Api) -> TokenStream {
    let methods = api.endpoints.iter().map(|e| method(api, e));
    let uses = api.endpoints.iter().any(|e| e.samples.is_some()).then(|| {
        quote! {
            use mrds_runtime::ParamValue;
            use mrds_runtime::mock::answer;

            use crate::samples;
        }
    });
    let example = api
        .endpoints
        .iter()
        .find_map(|e| Some(example(e, e.samples.as_ref()?)))
        .unwrap_or_else(|| {
            quote!(mrds_runtime::app::Example {
                endpoint: "",
                method: mrds_runtime::Method::Get,
                request: "",
                body: None,
            })
        });
    let about = format!("Serves the {} with the sample data of its spec.", api.title);
    let error_object = super::server::error_object(api);
    quote! {
        //! [`Mock`]: the service answering with the sample data.
        #![allow(deprecated)]

        use std::future::Future;

        use mrds_server::{KeyStore, RequestContext, ServerError};
        #uses

        /// The service answering with sample data.
        #[derive(Clone, Copy, Debug, Default)]
        pub struct Mock {
            serve_removed: bool,
        }

        impl Mock {
            /// Removed endpoints answer 410 `ENDPOINT_REMOVED`, as the service does.
            pub fn new() -> Self {
                Self::default()
            }

            /// Removed endpoints answer with their sample data instead of 410.
            pub fn serving_removed() -> Self {
                Self { serve_removed: true }
            }

            /// True when removed endpoints answer with their sample data.
            pub fn serves_removed(&self) -> bool {
                self.serve_removed
            }
        }

        /// The key accepted when no other is configured.
        pub const DEMO_KEY: &str = #DEMO_KEY;

        /// A request the sample data answers: the first of [`crate::EXAMPLES`].
        pub const EXAMPLE: mrds_runtime::app::Example = #example;

        /// The command line: what `mrds-mock` serves.
        pub const APP: mrds_runtime::app::App = mrds_runtime::app::App {
            name: "mrds-mock",
            about: #about,
            protocol: mrds_model::api::PROTOCOL,
            demo_key: DEMO_KEY,
            example: EXAMPLE,
            router: |serve_removed, keys| {
                let mock = if serve_removed { Mock::serving_removed() } else { Mock::new() };
                mrds_server::router(mock, keys)
            },
            endpoints: mrds_model::api::ENDPOINTS,
            errors: mrds_runtime::app::ErrorAnswers::of::<#error_object>(),
            requests: request_checks,
        };

        /// How the spec judges each endpoint's requests: its parameter type's checks (and its
        /// body's), for the checking proxy (`mrds-mock --proxy`).
        fn request_checks() -> Vec<mrds_runtime::judge::RequestCheck> {
            struct Checks(Vec<mrds_runtime::judge::RequestCheck>);
            impl mrds_model::api::RequestVisitor for Checks {
                fn visit<P>(&mut self)
                where
                    P: mrds_runtime::Request + Clone + std::fmt::Debug + Send + Sync + 'static,
                {
                    self.0.push(mrds_runtime::judge::RequestCheck::of::<P>());
                }
                fn visit_with_body<P>(&mut self)
                where
                    P: mrds_runtime::WithBody + Clone + std::fmt::Debug + Send + Sync + 'static,
                    P::Body: Clone + std::fmt::Debug + Send + Sync + 'static,
                {
                    self.0.push(mrds_runtime::judge::RequestCheck::with_body::<P>());
                }
            }
            let mut checks = Checks(Vec::new());
            mrds_model::api::visit_requests(&mut checks);
            checks.0
        }

        impl mrds_runtime::mock::SampleServer for Mock {
            const APP: mrds_runtime::app::App = APP;
        }

        #[doc = mrds_runtime::__mock_server_doc!()]
        ///
        /// (`mrds_runtime::mock::MockServer` serving [`Mock`].)
        pub type MockServer = mrds_runtime::mock::MockServer<Mock>;

        /// A [`MockServer`] being configured ([`MockServer::builder`]).
        pub type MockServerBuilder = mrds_runtime::mock::MockServerBuilder<Mock>;

        /// Runs the command line (`mrds-mock --help`) until interrupted (feature `cli`).
        #[cfg(feature = "cli")]
        pub fn run() -> std::process::ExitCode {
            mrds_runtime::mock::run(&APP)
        }

        /// The router of [`Mock::new`], accepting the keys `keys` accepts.
        pub fn router<K: KeyStore>(keys: K) -> mrds_server::axum::Router {
            mrds_server::router(Mock::new(), keys)
        }

        impl mrds_server::Api for Mock {
            #(#methods)*
        }
    }
}

fn method(api: &Api, e: &Endpoint) -> TokenStream {
    let name = ident(&e.names.method);
    let params_ty = ident(&e.names.params_type);
    let record = ident(&api.returns(e).name);
    let table = format_ident!("{}", e.names.constant);
    // The body's fields the samples select by or echo, as they are given.
    let read = samples::body_inputs(api, e);
    let body = match &e.samples {
        Some(_) => {
            let params = e.params.iter().map(|p| {
                let wire = &p.wire;
                let field = ident(&p.ident);
                if p.list.is_some() {
                    // Samples select by single values only: a list is given as its text.
                    quote!((#wire, mrds_runtime::ListStyle::Comma.pairs(#wire, &params.#field).pop().map(|(_, v)| v)))
                } else if p.always() {
                    quote!((#wire, Some(params.#field.to_param())))
                } else {
                    quote!((#wire, params.#field.as_ref().map(ParamValue::to_param)))
                }
            });
            let fields = read.iter().map(|i| {
                let name = i.name();
                let field = ident(i.ident);
                if i.required {
                    quote!((#name, Some(body.#field.to_param())))
                } else {
                    quote!((#name, body.#field.as_ref().map(ParamValue::to_param)))
                }
            });
            let given = params.chain(fields);
            let answer = quote!(answer(&samples::#table, &[#(#given),*]));
            match &e.removed {
                Some(_) => quote! {
                    std::future::ready(if self.serves_removed() {
                        #answer
                    } else {
                        Err(ServerError::removed(&mrds_model::api::#table))
                    })
                },
                None => quote!(std::future::ready(#answer)),
            }
        }
        None => quote! {
            let _ = params;
            std::future::ready(Ok(Vec::new()))
        },
    };
    // The body (checked by the server) selects and echoes what the samples say it does.
    let body_arg = e.body.as_ref().map(|b| {
        let record = ident(&api.record(b.record).name);
        let body = if read.is_empty() {
            quote!(_body)
        } else {
            quote!(body)
        };
        quote!(#body: mrds_model::records::#record,)
    });
    // An endpoint without parameters gives the samples none to select by.
    let params_arg = match e.params.is_empty() && e.samples.is_some() {
        true => quote!(_params),
        false => quote!(params),
    };
    quote! {
        fn #name(
            &self,
            _ctx: RequestContext,
            #params_arg: mrds_model::params::#params_ty,
            #body_arg
        ) -> impl Future<Output = Result<Vec<mrds_model::records::#record>, ServerError>> + Send {
            #body
        }
    }
}

fn samples_rs(api: &Api) -> TokenStream {
    // The tables as `mrds_spec::model::samples` maps the spec's samples to the engine's (the
    // same value it builds at run time): inputs named as their issues do, fields as they travel.
    let tables = api.endpoints.iter().filter_map(|e| {
        let t = SampleTables::of(api, e)?;
        let name = format_ident!("{}", e.names.constant);
        let doc = super::docs(&format!("Sample data of `{}`.", e.id));
        let not_found = t.not_found_when_missing;
        let (first_of, contains) = (&t.first_of, &t.contains);
        let echo = t.echo.iter().map(|(f, op)| quote!((#f, #op)));
        let filter = t.filter.iter().map(|(op, f)| quote!((#op, #f)));
        let range = option(t.range.as_ref().map(|(from, to, field)| {
            let (from, to, field) = (option_str(*from), option_str(*to), choice(field));
            quote!(Range { from: #from, to: #to, field: #field })
        }));
        let order = option(t.order.as_ref().map(|(field, descending, by)| {
            let (field, by) = (choice(field), option_str(*by));
            quote!(Order { field: #field, descending: #descending, by: #by })
        }));
        let latest = &t.latest_without;
        let (limit, offset) = (option_str(t.limit), option_str(t.offset));
        let sets = t.sets.iter().map(|set| {
            let records = set.records;
            let when = set.when.iter().map(|(op, spellings)| {
                let spellings = spellings.iter();
                quote!((#op, &[#(#spellings),*]))
            });
            quote!(Set { when: &[#(#when),*], records: #records })
        });
        Some(quote! {
            #doc
            pub static #name: Samples = Samples {
                not_found_when_missing: #not_found,
                first_of: &[#(#first_of),*],
                contains: &[#(#contains),*],
                echo: &[#(#echo),*],
                filter: &[#(#filter),*],
                range: #range,
                order: #order,
                latest_without: &[#(#latest),*],
                limit: #limit,
                offset: #offset,
                sets: &[#(#sets),*],
                parsed: OnceLock::new(),
            };
        })
    });
    let tables: Vec<TokenStream> = tables.collect();
    // The runtime's types the tables name.
    let samples: Vec<&Samples> = api
        .endpoints
        .iter()
        .filter_map(|e| e.samples.as_ref())
        .collect();
    let ranges = samples.iter().any(|s| s.range.is_some());
    let orders = samples.iter().any(|s| s.order.is_some());
    let names = [
        ("FieldChoice", ranges || orders),
        ("Order", orders),
        ("Range", ranges),
        ("Samples", true),
        ("Set", true),
    ]
    .into_iter()
    .filter(|(_, used)| *used)
    .map(|(name, _)| ident(name));
    let uses = (!tables.is_empty()).then(|| {
        quote! {
            use std::sync::OnceLock;

            use mrds_runtime::mock::{#(#names),*};
        }
    });
    let examples = api
        .endpoints
        .iter()
        .filter_map(|e| Some(example(e, e.samples.as_ref()?)));
    quote! {
        //! The sample data of every endpoint, from the spec's `samples:` sections.
        #![allow(clippy::type_complexity)]

        #uses

        /// Of every endpoint with sample data, a request it answers with sample records.
        pub const EXAMPLES: &[mrds_runtime::app::Example] = &[#(#examples),*];

        #(#tables)*
    }
}

/// The example request of endpoint `e` with samples `s`, as the runtime's `Example`.
fn example(e: &Endpoint, s: &Samples) -> TokenStream {
    let (id, method, request) = (&e.id, crate::method(e.method), &s.example);
    let body = option(s.example_body.as_ref().map(|b| quote!(#b)));
    quote!(mrds_runtime::app::Example {
        endpoint: #id,
        method: #method,
        request: #request,
        body: #body,
    })
}

fn option(tokens: Option<TokenStream>) -> TokenStream {
    match tokens {
        Some(t) => quote!(Some(#t)),
        None => quote!(None),
    }
}

fn option_str(name: Option<&str>) -> TokenStream {
    option(name.map(|s| quote!(#s)))
}

/// A field of the tables, as the runtime's `FieldChoice`.
fn choice(f: &TableField<'_>) -> TokenStream {
    match f {
        TableField::Fixed(name) => quote!(FieldChoice::Fixed(#name)),
        TableField::By(param, fields) => {
            let pairs = fields.iter().map(|(v, f)| quote!((#v, #f)));
            quote!(FieldChoice::By(#param, &[#(#pairs),*]))
        }
    }
}
