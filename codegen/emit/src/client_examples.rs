//! The client crate's examples (`examples/`), generated so that no spec change leaves one
//! behind: `quickstart.rs` calls the first endpoints the spec serves with their sample
//! requests' values and prints what comes back (records printed whole, so no field is named);
//! `mock_retries.rs` meets two 429 answers of the sample server in process on the first
//! endpoint it serves, retries and succeeds, and checks the server's journal. Both read the
//! endpoints, their parameters and the values from the model, as the READMEs' examples do.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use mrds_spec::model::{Api, AuthMode, Endpoint, Method, ValueType};

use super::{Emitted, ident, inner_docs};

/// The name of the example that tests a client against the in-process sample server.
pub const MOCK_EXAMPLE: &str = "mock_retries";

/// How many endpoints the quickstart calls, at most.
const QUICKSTART_CALLS: usize = 3;

/// Adds the examples of the client crate in `dir` to `out`: each a root of its docs and its
/// `main` (rustfmt reads example roots) and a module of the rest (`#[rustfmt::skip]`).
pub fn emit(api: &Api, dir: &str, out: &mut Emitted) {
    let (doc, calls) = quickstart(api);
    out.rust(
        format!("{dir}/examples/quickstart.rs"),
        root(&doc, "quickstart", false),
    );
    out.rust(format!("{dir}/examples/quickstart/calls.rs"), calls);
    let (doc, calls) = mock_retries(api);
    out.rust(
        format!("{dir}/examples/{MOCK_EXAMPLE}.rs"),
        root(&doc, MOCK_EXAMPLE, true),
    );
    out.rust(format!("{dir}/examples/{MOCK_EXAMPLE}/calls.rs"), calls);
}

/// An example's root: its docs, its module of calls, and `main` running them; `run` re-exported
/// when the example has one (what a test calls).
fn root(doc: &str, name: &str, run: bool) -> TokenStream {
    let path = format!("{name}/calls.rs");
    let run = run.then(|| {
        quote!(
            pub use calls::run;
        )
    });
    let doc = inner_docs(doc);
    quote! {
        #doc

        #[rustfmt::skip]
        #[path = #path]
        mod calls;

        #run

        fn main() -> Result<(), Box<dyn std::error::Error>> {
            calls::main()
        }
    }
}

/// A call of an endpoint with its sample request's values: the parameter type and the
/// expression making it.
struct Call<'a> {
    endpoint: &'a Endpoint,
    params: TokenStream,
    /// The sample request's query parameters (wire name, value), for the journal's check.
    query: Vec<(String, String)>,
}

/// The endpoints the examples may call, in the spec's order: served, a `GET` without a body or
/// a list parameter, with a sample request giving every required parameter.
fn calls(api: &Api) -> Vec<Call<'_>> {
    api.endpoints.iter().filter_map(|e| call(api, e)).collect()
}

fn call<'a>(api: &'a Api, e: &'a Endpoint) -> Option<Call<'a>> {
    if e.removed.is_some()
        || e.method != Method::Get
        || e.body.is_some()
        || e.params.iter().any(|p| p.list.is_some())
    {
        return None;
    }
    let samples = e.samples.as_ref()?;
    let given = |id| {
        (samples.example_values.iter())
            .find(|(p, _)| *p == id)
            .map(|(_, v)| v.as_str())
    };
    let value = |p: &mrds_spec::model::Param, text: &str| -> Option<TokenStream> {
        Some(match &p.ty {
            ValueType::String(_) => quote!(#text),
            ValueType::Integer(_) => {
                let n = Literal::i64_unsuffixed(text.parse().ok()?);
                quote!(#n)
            }
            ValueType::Boolean => {
                let b = format_ident!("{}", text.parse::<bool>().ok()?.to_string());
                quote!(#b)
            }
            ValueType::Enum(set) => {
                let vs = api.value_set(set.set);
                let variant = ident(&vs.values.iter().find(|v| v.wire == text)?.ident);
                let vs = ident(&vs.name);
                quote!(mrds_client::model::value_sets::#vs::#variant)
            }
        })
    };
    let mut values: Vec<(TokenStream, TokenStream)> = Vec::new();
    for p in e.params.iter().filter(|p| p.required) {
        let x = ident(&p.ident);
        values.push((quote!(#x), value(p, given(p.id)?)?));
    }
    // The optional parameters the sample request gives, by their setters.
    let mut setters = Vec::new();
    for p in e.params.iter().filter(|p| !p.required) {
        if let Some(text) = given(p.id) {
            let setter = format_ident!("with_{}", p.bare_ident());
            let v = value(p, text)?;
            setters.push(quote!(.#setter(#v)));
        }
    }
    let ty = ident(&e.names.params_type);
    let params = if values.len() > super::model::MAX_ARGS {
        let init = format_ident!("{}", mrds_spec::naming::init_type(&e.names.params_type));
        let members = values
            .iter()
            .map(|(x, v)| match v.to_string().starts_with('"') {
                true => quote!(#x: #v.into()),
                false => quote!(#x: #v),
            });
        quote!(mrds_client::model::params::#ty::from(
            mrds_client::model::params::#init { #(#members),* }
        ) #(#setters)*)
    } else {
        let args = values.iter().map(|(_, v)| v);
        quote!(mrds_client::model::params::#ty::new(#(#args),*) #(#setters)*)
    };
    let query = (samples.example_values.iter())
        .filter_map(|(id, v)| {
            let p = e.param(*id);
            (p.location == mrds_spec::model::ParamLocation::Query)
                .then(|| (p.wire.clone(), v.clone()))
        })
        .collect();
    Some(Call {
        endpoint: e,
        params,
        query,
    })
}

fn quickstart(api: &Api) -> (String, TokenStream) {
    let calls: Vec<Call<'_>> = calls(api).into_iter().take(QUICKSTART_CALLS).collect();
    let count = calls.len();
    let steps = calls.iter().enumerate().map(|(n, c)| {
        let method = ident(&c.endpoint.names.method);
        let id = &c.endpoint.id;
        // Format strings: the spec's text with its braces doubled.
        let literal = |text: String| text.replace('{', "{{").replace('}', "}}");
        let summary = literal(format!("{}. {}", n + 1, c.endpoint.summary.trim()));
        let line = format!("{}: {{}} record(s), request {{}}", literal(id.to_string()));
        let params = &c.params;
        quote! {
            println!(#summary);
            let params = #params;
            match client.#method(&params).await {
                Ok(page) => {
                    println!(#line, page.data.len(), page.request_id);
                    for record in page.data.iter().take(3) {
                        println!("  {record:?}");
                    }
                }
                Err(e) => failed += report(#id, &e),
            }
        }
    });
    let doc = format!(
        "Calls {count} endpoint{} of a running service with the values of the spec's sample \
         requests and prints what comes back.\n\n\
         ```sh\ncargo run -p mrds-client --example quickstart\n\
         MRDS_BASE_URL=http://127.0.0.1:9000/api MRDS_API_KEY=my-key cargo run -p mrds-client --example quickstart\n```\n\n\
         Defaults: the service at `http://127.0.0.1:8080` (the client appends `/api`) with the \
         key `demo-key`: the sample server (`cargo run -p mrds-mock --features cli`) answers \
         every call.",
        if count == 1 { "" } else { "s" }
    );
    let failed_text = format!("{{failed}} of {count} calls failed");
    let calls = quote! {
        //! The calls of the example, with the values of the spec's sample requests.

        use mrds_client::{Client, Error};

        /// Calls each endpoint and prints what comes back.
        #[tokio::main(flavor = "current_thread")]
        pub async fn main() -> Result<(), Box<dyn std::error::Error>> {
            let base_url = std::env::var("MRDS_BASE_URL").unwrap_or_else(|_| "http://127.0.0.1:8080".into());
            let api_key = std::env::var("MRDS_API_KEY").unwrap_or_else(|_| "demo-key".into());
            let client = Client::builder(base_url).api_key(api_key).build()?;
            println!("service root: {}", client.base_url());
            #[allow(unused_mut)]
            let mut failed = 0;
            #(#steps)*
            if failed > 0 {
                return Err(format!(#failed_text).into());
            }
            Ok(())
        }

        /// Prints a failed call, with what each kind of failure tells; counts one failure.
        #[allow(dead_code)]
        fn report(call: &str, error: &Error) -> u32 {
            eprintln!("{call} failed: {error}");
            match error {
                Error::InvalidInput(v) => {
                    for issue in &v.issues {
                        eprintln!("  {issue}");
                    }
                }
                Error::Transport(_) => {
                    eprintln!("  is the service running? set MRDS_BASE_URL to its address");
                }
                _ => {}
            }
            1
        }
    };
    (doc, calls)
}

fn mock_retries(api: &Api) -> (String, TokenStream) {
    // The first endpoint called with the key: its requests carry the key the journal redacts.
    let call = calls(api)
        .into_iter()
        .find(|c| c.endpoint.auth == AuthMode::Required);
    let doc: String = "Testing code that uses the client against the sample server in process \
         (`mrds_mock::MockServer`, a dev-dependency): the endpoint's next two answers are 429 \
         (the spec's error object, `Retry-After: 0`), so the call retries at once, twice, and \
         succeeds on its third attempt with the sample records; the server's journal then shows \
         the three requests, each with the key (its value redacted) and the parameters sent.\n\n\
         ```sh\ncargo run -p mrds-client --example mock_retries\n```\n\n\
         Nothing needs to be running: the server takes a free loopback port and stops when \
         dropped. `cargo test` runs it too (`tests/tests/it/client_examples.rs`)."
        .into();
    let Some(c) = call else {
        let calls = quote! {
            //! The calls of the example.

            /// Runs the example.
            #[tokio::main(flavor = "current_thread")]
            pub async fn main() -> Result<(), Box<dyn std::error::Error>> {
                println!("done: {} record(s) on the third attempt", run().await?);
                Ok(())
            }

            /// The spec serves no endpoint this example could call: nothing to show.
            pub async fn run() -> Result<usize, Box<dyn std::error::Error>> {
                Ok(0)
            }
        };
        return (doc, calls);
    };
    let method = ident(&c.endpoint.names.method);
    let constant = format_ident!("{}", c.endpoint.names.constant);
    let params = &c.params;
    let checks = c
        .query
        .iter()
        .map(|(name, value)| quote!(|| request.query_param(#name).as_deref() != Some(#value)));
    let calls = quote! {
        //! The calls of the example, on the first endpoint the spec serves with the key.

        use std::time::{Duration, Instant};

        use mrds_client::Client;
        use mrds_client::model::api::#constant;
        use mrds_mock::{KeySent, MockServer, Scenario};

        /// Runs the example.
        #[tokio::main(flavor = "current_thread")]
        pub async fn main() -> Result<(), Box<dyn std::error::Error>> {
            let records = run().await?;
            println!("done: {records} record(s) on the third attempt");
            Ok(())
        }

        /// The example: the number of records the call finally returned.
        pub async fn run() -> Result<usize, Box<dyn std::error::Error>> {
            let server = MockServer::start().await?;
            // Two answers 429 (the spec's error object, `Retry-After: 0`), then the sample
            // records again.
            let limited = Scenario::status(429).retry_after(Duration::ZERO).times(2);
            server.answer(&#constant, limited)?;

            // The code under test: a client pointed at the server (the base URL holds `/api`).
            let client = Client::builder(server.base_url()).api_key(server.api_key()).build()?;
            let params = #params;
            let started = Instant::now();
            let page = client.#method(&params).await?;
            println!(
                "{} record(s) in {} ms, request {}",
                page.data.len(),
                started.elapsed().as_millis(),
                page.request_id
            );

            // What the server received: the two refused attempts and the one answered.
            let received = server.received_requests_of(&#constant);
            for request in &received {
                println!(
                    "received {} {}?{} ({}: {})",
                    request.method,
                    request.path,
                    request.query,
                    mrds_mock::AUTH_HEADER,
                    request.header(mrds_mock::AUTH_HEADER).unwrap_or("none"),
                );
            }
            if received.len() != 3 {
                return Err(format!("expected 3 requests, the server received {}", received.len()).into());
            }
            for request in &received {
                if request.api_key != KeySent::Accepted
                    || request.header(mrds_mock::AUTH_HEADER) != Some(mrds_mock::REDACTED)
                    #(#checks)*
                {
                    return Err(format!("unexpected request in the journal: {request:?}").into());
                }
            }
            Ok(page.data.len())
        }
    };
    (doc, calls)
}
