//! The client crate's examples (`examples/`), generated so that no spec change leaves one
//! behind: `quickstart.rs` calls the first endpoints the spec serves with their sample
//! requests' values and prints what comes back (records printed whole, so no field is named);
//! `mock_retries.rs` meets two 429 answers of the sample server in process on the first
//! endpoint it serves, retries and succeeds, and checks the server's journal. Both read the
//! endpoints, their parameters and the values from the model, as the READMEs' examples do.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use mrds_spec::model::{Api, AuthMode, Method};

use super::{Emitted, SampleRequest, ident, inner_docs};

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

/// The endpoints the examples may call, in the spec's order: each `GET` with a sample request
/// ([`SampleRequest::of`]).
fn calls(api: &Api) -> impl Iterator<Item = SampleRequest<'_>> {
    crate::sample_request::all(api).filter(|c| c.endpoint.method == Method::Get)
}

/// The model crate's path in the examples.
fn model() -> TokenStream {
    quote!(mrds_client::model)
}

fn quickstart(api: &Api) -> (String, TokenStream) {
    let calls: Vec<SampleRequest<'_>> = calls(api).take(QUICKSTART_CALLS).collect();
    let count = calls.len();
    let steps = calls.iter().enumerate().map(|(n, c)| {
        let method = ident(&c.endpoint.names.method);
        let id = &c.endpoint.id;
        // Format strings: the spec's text with its braces doubled.
        let literal = |text: String| text.replace('{', "{{").replace('}', "}}");
        let summary = literal(format!("{}. {}", n + 1, c.endpoint.summary.trim()));
        let line = format!("{}: {{}} record(s), request {{}}", literal(id.to_string()));
        let params = c.tokens(&model());
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

/// The call the examples of the sample server in process make: the first `GET` the spec serves
/// with the key required, so its requests carry the key the journal redacts.
pub fn mock_call(api: &Api) -> Option<SampleRequest<'_>> {
    calls(api).find(|c| c.endpoint.auth == AuthMode::Required)
}

fn mock_retries(api: &Api) -> (String, TokenStream) {
    let call = mock_call(api);
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
    let params = c.tokens(&model());
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
