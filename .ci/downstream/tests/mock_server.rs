//! The packaged sample server in process (`mrds_mock::MockServer`), as a downstream test uses
//! it: the code under test (this crate's `commentary`) meets two 429 `RATE_LIMITED` answers,
//! retries as their `Retry-After: 0` says and succeeds, and the server's journal shows what it
//! sent, the key's value redacted.

use std::time::Duration;

use mrds_client::model::api::PERSON_COMMENTARY;
use mrds_client::model::params::PersonCommentaryParams;
use mrds_mock::{KeySent, MockServer, Scenario};
use mrds_model::{RawParams, Request};

/// The sample server's example request of `person_commentary`, as typed parameters.
fn example_params() -> PersonCommentaryParams {
    let example = mrds_mock::EXAMPLES
        .iter()
        .find(|x| x.endpoint == PERSON_COMMENTARY.id)
        .expect("an example of person_commentary")
        .request;
    let (path, query) = example.split_once('?').unwrap_or((example, ""));
    let mut raw = RawParams::from_query_string(query);
    let template = <PersonCommentaryParams as Request>::ENDPOINT.path;
    for (name, value) in template.split('/').zip(path.split('/')) {
        if let Some(name) = name.strip_prefix('{').and_then(|n| n.strip_suffix('}')) {
            raw = raw.with_path(name, value);
        }
    }
    PersonCommentaryParams::from_raw(&raw).expect("the example is valid")
}

#[tokio::test]
async fn the_code_under_test_retries_two_429s_and_the_journal_shows_it() {
    let server = MockServer::start().await.expect("a loopback port");
    assert_eq!(server.api_key(), mrds_mock::DEMO_KEY);
    let limited = Scenario::status(429).retry_after(Duration::ZERO).times(2);
    server
        .answer(&PERSON_COMMENTARY, limited)
        .expect("the spec has a code for 429");

    let params = example_params().with_limit(1);
    let (first, all, read) = mrds_downstream::commentary(server.base_url(), &params)
        .await
        .expect("the calls succeed after the retries");
    assert_eq!(first, 1, "limit 1: one record on the first page");
    assert!(all >= 1 && all == read, "{all} records streamed, {read} read");

    let received = server.received_requests_of(&PERSON_COMMENTARY);
    // The first call: two attempts answered 429, the third with the samples; then the pages
    // of the two streams.
    assert!(received.len() > 3, "{} requests", received.len());
    assert!(received[..3].iter().all(|r| r.query == received[0].query));
    for request in &received {
        assert_eq!(request.api_key, KeySent::Accepted);
        assert_eq!(request.header(mrds_mock::AUTH_HEADER), Some(mrds_mock::REDACTED));
        assert_eq!(request.query_param("limit").as_deref(), Some("1"));
    }
    assert!(!format!("{received:?}").contains(mrds_mock::DEMO_KEY));
}
