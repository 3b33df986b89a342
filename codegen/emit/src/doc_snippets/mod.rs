//! The Rust snippets of the hand-written docs (the README, `docs/downstream.md`,
//! `docs/maintainers.md`) that show the generated API, generated from the model so that
//! following the provider stays an edit of `spec/` alone: each page holds a region
//! `snippet <name>` ([`crate::regions`]) that `cargo xtask codegen` fills with the snippet of
//! that name. A snippet takes its endpoint, endpoint constant, parameter type and values,
//! record type and fields from the model, and prints records with `{:?}` where a field does
//! not matter; where the spec has nothing to show (no endpoint with a time parameter, no
//! paged endpoint, ...), its region holds a sentence saying so instead of code.
//!
//! The choices are the other examples' ([`crate::sample_request`]): the call of the crates'
//! READMEs ([`crate::example_request`]) and the call of the client's example of the sample
//! server in process ([`crate::client_examples::mock_call`]).

mod mock;
mod model;

use mrds_spec::model::{Api, Param, ParamLocation, ValueType};

use crate::regions::Region;
use crate::sample_request::{self, SampleRequest, SampleValue};

/// What the snippets' begin lines say they are generated from.
pub const FROM: &str = "spec/";

/// The prefix of a snippet's region name: the region `snippet client_call` holds the snippet
/// `client_call`.
pub const PREFIX: &str = "snippet ";

/// A snippet: its name and what makes it.
type Make = fn(&Api) -> String;

/// Every snippet, by name, in the order the pages show them.
const SNIPPETS: [(&str, Make); 8] = [
    ("client_call", client_call),
    ("mock_test", mock::mock_test),
    ("typed_time", model::typed_time),
    ("model_query", model::model_query),
    ("client_stream", client_stream),
    ("mock_journal", mock::mock_journal),
    ("mock_failures", mock::mock_failures),
    ("init_struct", model::init_struct),
];

/// The names of the snippets.
pub fn names() -> impl Iterator<Item = &'static str> {
    SNIPPETS.iter().map(|(name, _)| *name)
}

/// The snippet `name` for `api` (Markdown: a fenced Rust block, maybe a sentence; or only a
/// sentence where the spec has nothing to show); `None` for a name that is not a snippet's.
pub fn snippet(api: &Api, name: &str) -> Option<String> {
    SNIPPETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, make)| make(api))
}

/// Every snippet as the region that holds it (`snippet <name>`, from `spec/`).
pub fn regions(api: &Api) -> Vec<Region> {
    SNIPPETS
        .iter()
        .map(|(name, make)| Region {
            name: format!("{PREFIX}{name}"),
            from: FROM.to_string(),
            body: make(api),
        })
        .collect()
}

/// A fenced block of Rust (`rust` or `rust,no_run`) holding `code`.
fn rust(info: &str, code: &str) -> String {
    format!("```{info}\n{}\n```\n", code.trim_end())
}

/// `text` as a Markdown paragraph: its words in lines of at most [`WIDTH`] characters (a word
/// longer than that on a line of its own).
fn paragraph(text: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// The width of the pages' paragraphs.
const WIDTH: usize = 95;

/// `use` lines, each once, sorted (as rustfmt orders them).
fn imports(lines: impl IntoIterator<Item = String>) -> String {
    let lines: std::collections::BTreeSet<String> = lines.into_iter().collect();
    lines.into_iter().collect::<Vec<_>>().join("\n")
}

/// The model crate's path in the snippets: through the client, as a downstream crate that
/// depends on the client alone writes it.
const MODEL: &str = "mrds_client::model";

/// The `with_` setter of an endpoint's optional page size with its largest value
/// (`.with_limit(1000)`), when the endpoint pages with one that has a maximum and the sample
/// request does not give it.
fn page_size(x: &SampleRequest<'_>) -> Option<String> {
    let e = x.endpoint;
    let limit = e.param(e.paging.as_ref()?.limit);
    match &limit.ty {
        ValueType::Integer(t) if !limit.required && x.value(limit).is_none() => {
            Some(format!(".with_{}({})", limit.bare_ident(), t.max?))
        }
        _ => None,
    }
}

/// A text parameter of the request's query that a scenario can match (the first the sample
/// request gives), and a second value of it (another spelling the endpoint's samples select
/// by): what `when_query` filters on in the snippets of the sample server.
fn filter<'a>(x: &SampleRequest<'a>) -> Option<(&'a Param, &'a str)> {
    let samples = x.endpoint.samples.as_ref()?;
    (x.required.iter().chain(&x.optional)).find_map(|(p, v)| {
        let SampleValue::Text(given) = v else {
            return None;
        };
        if p.location != ParamLocation::Query {
            return None;
        }
        let other = (samples.sets.iter())
            .flat_map(|set| set.when.iter())
            .filter(|(op, _)| *op == mrds_spec::model::Operand::Param(p.id))
            .flat_map(|(_, spellings)| spellings.iter())
            .find(|s| s.as_str() != *given && !s.is_empty())?;
        Some((*p, other.as_str()))
    })
}

/// True when the request's example answers records (as the sample server selects them).
fn answers_records(api: &Api, x: &SampleRequest<'_>) -> bool {
    matches!(
        mrds_spec::model::samples::example_answer(api, x.endpoint),
        Some(Ok(records)) if !records.is_empty()
    )
}

/// `README.md`: a call of the crates' README example's endpoint with its sample request, a
/// timeout, the first record or `None` on `RESOURCE_NOT_FOUND`.
fn client_call(api: &Api) -> String {
    let Some(x) = crate::example_request(api) else {
        return paragraph(
            "The spec has no endpoint whose sample request gives every required parameter: \
                no call to show here.\n",
        );
    };
    let e = x.endpoint;
    let record = &api.returns(e).name;
    let mut uses = vec![
        "use mrds_client::Client;".to_string(),
        "use mrds_client::model::ErrorCode;".to_string(),
    ];
    uses.extend(x.uses(MODEL));
    uses.push(format!("use {MODEL}::records::{record};"));
    let code = format!(
        "use std::time::Duration;\n\n{uses}\n\n\
         /// The first record of `{method} {path}` for the spec's sample request;\n\
         /// `None` when the service knows nothing of it.\n\
         async fn first_record() -> Result<Option<{record}>, mrds_client::Error> {{\n\
         \x20   let client = Client::builder(\"https://provider.example\")\n\
         \x20       .api_key(\"my-key\")\n\
         \x20       .timeout(Duration::from_secs(5)) // per attempt; the call's deadline is twice that\n\
         \x20       .build()\n\
         \x20       .expect(\"a valid base URL and key\");\n\
         \x20   let params = {params};\n\
         \x20   match client.{call}(&params).await {{\n\
         \x20       Ok(page) => Ok(page.data.into_iter().next()),\n\
         \x20       Err(e) if e.code() == Some(ErrorCode::ResourceNotFound) => Ok(None),\n\
         \x20       Err(e) => Err(e), // is_timeout(), is_retryable(), status(), attempts() tell the rest\n\
         \x20   }}\n\
         }}\n",
        uses = imports(uses),
        method = e.method.as_str(),
        path = e.path,
        params = x.text(None, true),
        call = e.names.method,
    );
    rust("rust,no_run", &code)
}

/// `docs/downstream.md`, *Using the client*: the builder's timeout and deadline, one page of
/// an endpoint that pages with an offset, then its stream collected and read row by row.
fn client_stream(api: &Api) -> String {
    let Some(x) = sample_request::best(api, |x| x.endpoint.offset_paged()) else {
        return paragraph(
            "The spec has no endpoint that pages with an offset (and a sample request \
                giving every required parameter), so no client method returns a stream of \
                every record to show here.\n",
        );
    };
    let e = x.endpoint;
    let mut uses = vec![
        "use futures_util::{StreamExt, TryStreamExt};".to_string(),
        "use mrds_client::Client;".to_string(),
    ];
    uses.extend(x.uses(MODEL));
    let code = format!(
        "use std::time::Duration;\n\n{uses}\n\n\
         async fn every_record() -> Result<(), Box<dyn std::error::Error>> {{\n\
         \x20   let client = Client::builder(\"http://127.0.0.1:8080\") // `{base}` is appended when missing\n\
         \x20       .api_key(\"demo-key\") // sent as {header}; never in Debug or traces\n\
         \x20       .timeout(Duration::from_secs(30)) // per attempt (the default)\n\
         \x20       .deadline(Duration::from_secs(60)) // per call, retries included (default: 2x the timeout)\n\
         \x20       .build()?;\n\
         \x20   let params = {params}{size};\n\
         \x20   let first = client.{call}(&params).await?; // records, request_id, metadata, pagination\n\
         \x20   println!(\"{{}} records (request {{}})\", first.data.len(), first.request_id);\n\
         \x20   let all: Vec<_> = client.{stream}(&params).try_collect().await?;\n\
         \x20   println!(\"{{}} in all\", all.len());\n\
         \x20   let mut rows = client.{stream}(&params); // `Unpin`: no pinning needed\n\
         \x20   while let Some(row) = rows.next().await {{\n\
         \x20       let row = row?;\n\
         \x20       println!(\"{{row:?}}\");\n\
         \x20   }}\n\
         \x20   Ok(())\n\
         }}\n",
        uses = imports(uses),
        base = api.base_path,
        header = api.auth.header,
        params = x.text(None, true),
        size = page_size(&x).unwrap_or_default(),
        call = e.names.method,
        stream = e.names.stream,
    );
    rust("rust,no_run", &code)
}
