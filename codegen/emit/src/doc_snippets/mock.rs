//! The snippets of the sample server in process (`mrds_mock::MockServer`): scenarios, retries,
//! expectations checked on drop, and the journal, on the endpoint of the client's example of
//! the same ([`crate::client_examples::mock_call`]).

use mrds_spec::model::Api;

use super::{MODEL, answers_records, filter, imports, paragraph, rust};
use crate::client_examples::mock_call;
use crate::sample_request::{SampleRequest, SampleValue};

/// What the snippets say when the spec serves no endpoint they could call.
const NOTHING: &str = "The spec serves no `GET` endpoint that requires the key and has a sample \
                       request giving every required parameter: no test against the sample \
                       server to show here.";

/// `.query_param(name)` of the first query parameter the request sends, as a check of the
/// journal's request `at`; `None` when it sends none.
fn query_check(x: &SampleRequest<'_>, at: usize) -> Option<String> {
    let (name, value) = x.query.first()?;
    Some(format!(
        "    assert_eq!(received[{at}].query_param({name:?}).as_deref(), Some({value:?}));\n"
    ))
}

/// The `use` lines of a test calling `x` against the sample server: the client, the
/// endpoint's constant, the request's types, and `mock`, the items of `mrds_mock`.
fn test_uses(x: &SampleRequest<'_>, mock: &str) -> String {
    let mut uses = vec![
        "use mrds_client::Client;".to_string(),
        format!("use {MODEL}::api::{};", x.endpoint.names.constant),
        format!("use mrds_mock::{mock};"),
    ];
    uses.extend(x.uses(MODEL));
    imports(uses)
}

/// `README.md`: two 429s expected, a 503 for another value of a parameter, the call retried,
/// the journal.
pub(super) fn mock_test(api: &Api) -> String {
    let Some(x) = mock_call(api) else {
        return paragraph(NOTHING);
    };
    let e = x.endpoint;
    let constant = &e.names.constant;
    let uses = test_uses(&x, "{MockServer, Scenario}");
    let gateway = filter(&x)
        .map(|(p, other)| {
            format!(
                "    server.answer(&{constant}, Scenario::status(503).when_query({:?}, {other:?}))?;\n",
                p.wire
            )
        })
        .unwrap_or_default();
    let call = match answers_records(api, &x) {
        true => format!(
            "    assert!(!client.{}(&params).await?.data.is_empty());\n",
            e.names.method
        ),
        false => format!("    client.{}(&params).await?;\n", e.names.method),
    };
    let code = format!(
        "use std::time::Duration;\n\n{uses}\n\n\
         #[tokio::test]\n\
         async fn retries_two_429s() -> Result<(), Box<dyn std::error::Error>> {{\n\
         \x20   let server = MockServer::start().await?;\n\
         \x20   let limited = Scenario::status(429).retry_after(Duration::ZERO).expect(2);\n\
         \x20   server.answer(&{constant}, limited)?;\n\
         {gateway}\n\
         \x20   let client = Client::builder(server.base_url()).api_key(server.api_key()).build()?;\n\
         \x20   let params = {params};\n\
         {call}\n\
         \x20   let received = server.received_requests_of(&{constant});\n\
         \x20   assert_eq!(received.len(), 3); // two 429s, then the samples\n\
         {journal}\
         \x20   Ok(()) // the server checks its expectations as it drops\n\
         }}\n",
        params = x.text(None, true),
        journal = query_check(&x, 0).unwrap_or_default(),
    );
    rust("rust,no_run", &code)
}

/// `docs/downstream.md`, *Testing against the sample server*: two 429s expected exactly
/// twice, the call retried, and the journal: the key accepted and redacted, the parameters
/// sent, how the last request was answered.
pub(super) fn mock_journal(api: &Api) -> String {
    let Some(x) = mock_call(api) else {
        return paragraph(NOTHING);
    };
    let e = x.endpoint;
    let constant = &e.names.constant;
    let uses = test_uses(&x, "{KeySent, MockServer, Outcome, Scenario}");
    let check = match answers_records(api, &x) {
        true => "    assert!(!page.data.is_empty());\n",
        false => "    println!(\"{} records\", page.data.len());\n",
    };
    let code = format!(
        "use std::time::Duration;\n\n{uses}\n\n\
         #[tokio::test]\n\
         async fn two_429s_then_the_samples() -> Result<(), Box<dyn std::error::Error>> {{\n\
         \x20   let server = MockServer::start().await?; // accepts mrds_mock::DEMO_KEY\n\
         \x20   // The next two requests: 429 RATE_LIMITED (the spec's error object) with `Retry-After: 0`;\n\
         \x20   // expected exactly twice (checked when the server drops); then the samples again.\n\
         \x20   let limited = Scenario::status(429).retry_after(Duration::ZERO).expect(2);\n\
         \x20   server.answer(&{constant}, limited)?;\n\
         \n\
         \x20   let client = Client::builder(server.base_url()) // http://127.0.0.1:PORT{base}\n\
         \x20       .api_key(server.api_key())\n\
         \x20       .build()?;\n\
         \x20   let params = {params};\n\
         \x20   let page = client.{call}(&params).await?; // retried twice, then the samples\n\
         {check}\
         \n\
         \x20   let received = server.received_requests_of(&{constant});\n\
         \x20   assert_eq!(received.len(), 3);\n\
         \x20   assert!(received.iter().all(|r| r.api_key == KeySent::Accepted));\n\
         \x20   assert_eq!(received[0].header(mrds_mock::AUTH_HEADER), Some(mrds_mock::REDACTED));\n\
         {journal}\
         \x20   assert_eq!(received[2].outcome, Outcome::Answered {{ status: 200 }});\n\
         \x20   Ok(())\n\
         }}\n",
        base = api.base_path,
        params = x.text(None, true),
        call = e.names.method,
        journal = query_check(&x, 0).unwrap_or_default(),
    );
    rust("rust,no_run", &code)
}

/// `docs/downstream.md`, after the list of what the sample server does: a slow provider
/// matched with `is_timeout()`, and a gateway error for one value of a parameter only,
/// expected once; each where the spec has an endpoint for it.
pub(super) fn mock_failures(api: &Api) -> String {
    let slow = crate::example_request(api);
    let gateway = crate::sample_request::best(api, |x| filter(x).is_some());
    let mut uses: Vec<String> = Vec::new();
    let mut constants: Vec<&str> = Vec::new();
    let mut tests: Vec<String> = Vec::new();
    let mut said = Vec::new();
    if let Some(x) = &slow {
        let e = x.endpoint;
        uses.extend(x.uses(MODEL));
        constants.push(&e.names.constant);
        said.push("A slow provider, matched with `is_timeout()` (the same on every run: see *Retries and time*)".to_string());
        tests.push(format!(
            "#[tokio::test]\n\
             async fn a_slow_provider_is_a_timeout() -> Result<(), Box<dyn std::error::Error>> {{\n\
             \x20   let server = MockServer::start().await?;\n\
             \x20   server.answer(&{constant}, Scenario::delay(Duration::from_secs(2)))?;\n\
             \x20   let client = Client::builder(server.base_url())\n\
             \x20       .api_key(server.api_key())\n\
             \x20       .timeout(Duration::from_millis(200)) // the deadline is twice that: no time for a retry\n\
             \x20       .build()?;\n\
             \x20   let err = client\n\
             \x20       .{call}(&{params})\n\
             \x20       .await\n\
             \x20       .unwrap_err();\n\
             \x20   assert!(err.is_timeout() && err.attempts() == 1, \"{{err}}\");\n\
             \x20   Ok(())\n\
             }}\n",
            constant = e.names.constant,
            call = e.names.method,
            params = x.text(None, true),
        ));
    }
    if let Some((x, (p, other))) = gateway.as_ref().and_then(|x| Some((x, filter(x)?))) {
        let e = x.endpoint;
        uses.extend(x.uses(MODEL));
        constants.push(&e.names.constant);
        let given = match x.value(p) {
            Some(SampleValue::Text(t)) => t,
            _ => other,
        };
        said.push(format!(
            "a gateway error for one `{}` only, expected once",
            p.wire
        ));
        tests.push(format!(
            "#[tokio::test]\n\
             async fn one_value_behind_a_broken_gateway() -> Result<(), Box<dyn std::error::Error>> {{\n\
             \x20   let server = MockServer::start().await?;\n\
             \x20   let down = Scenario::status(503).when_query({wire:?}, {other:?}).expect(1).named({name:?});\n\
             \x20   server.answer(&{constant}, down)?;\n\
             \x20   let client = Client::builder(server.base_url())\n\
             \x20       .api_key(server.api_key())\n\
             \x20       .no_retries()\n\
             \x20       .build()?;\n\
             \x20   let params = |{x}: &str| {params};\n\
             \x20   assert!(client.{call}(&params({given:?})).await.is_ok());\n\
             \x20   let err = client.{call}(&params({other:?})).await.unwrap_err();\n\
             \x20   assert!(matches!(&err, Error::Status(e) if e.status == 503) && err.is_retryable());\n\
             \x20   Ok(()) // dropped here: the expectation holds\n\
             }}\n",
            wire = p.wire,
            name = format!("{other} down"),
            constant = e.names.constant,
            x = p.ident,
            params = x.text(Some((p, &p.ident)), true),
            call = e.names.method,
        ));
    }
    if tests.is_empty() {
        return paragraph(NOTHING);
    }
    constants.sort();
    constants.dedup();
    let constants = constants.join(", ");
    let constants = match constants.contains(',') {
        true => format!("{{{constants}}}"),
        false => constants,
    };
    let mut all = vec![format!("use {MODEL}::api::{constants};")];
    all.extend(uses);
    all.push(match gateway.is_some() {
        true => "use mrds_client::{Client, Error};".to_string(),
        false => "use mrds_client::Client;".to_string(),
    });
    all.push("use mrds_mock::{MockServer, Scenario};".to_string());
    let code = format!(
        "use std::time::Duration;\n\n{}\n\n{}",
        imports(all),
        tests.join("\n")
    );
    let missing = match (&slow, said.len()) {
        (Some(_), 1) => format!(
            "\n{}",
            paragraph(
                "(The spec has no endpoint with a required text parameter whose samples hold a \
                 second value: no gateway error for one value to show.)"
            )
        ),
        _ => String::new(),
    };
    format!(
        "{}\n{}{missing}",
        paragraph(&format!("{}:", capitalized(&said.join(", and ")))),
        rust("rust,no_run", &code)
    )
}

/// `text` with its first letter upper case: a sentence.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}
