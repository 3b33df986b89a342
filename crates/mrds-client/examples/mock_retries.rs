//! Testing code that uses the client against the sample server in process
//! (`mrds_mock::MockServer`, a dev-dependency): the endpoint's next two answers are 429
//! `RATE_LIMITED` with `Retry-After: 0`, so the call retries at once, twice, and succeeds on
//! its third attempt with the sample records; the server's journal then shows the three
//! requests, each with the key (its value redacted) and the parameters sent.
//!
//! ```sh
//! cargo run -p mrds-client --example mock_retries
//! ```
//!
//! Nothing needs to be running: the server takes a free loopback port and stops when dropped.
//! `cargo test` runs it too (`tests/tests/it/client_examples.rs`).

use std::time::{Duration, Instant};

use mrds_client::Client;
use mrds_client::model::TimeType;
use mrds_client::model::api::STOCK_DIVIDENDS;
use mrds_client::model::params::StockDividendsParams;
use mrds_mock::{KeySent, MockServer, Scenario};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let records = run().await?;
    println!("done: {records} record(s) on the third attempt");
    Ok(())
}

/// The example: the number of records the call finally returned.
pub async fn run() -> Result<usize, Box<dyn std::error::Error>> {
    let server = MockServer::start().await?;
    // Two answers 429 RATE_LIMITED (the spec's error object, `Retry-After: 0`), then the
    // sample records again.
    let limited = Scenario::status(429).retry_after(Duration::ZERO).times(2);
    server.answer(&STOCK_DIVIDENDS, limited)?;

    // The code under test: a client pointed at the server (the base URL holds `/api`).
    let client = Client::builder(server.base_url())
        .api_key(server.api_key())
        .build()?;
    let params = StockDividendsParams::new(
        "BF-B",
        1_735_689_600, // 2025-01-01
        1_798_761_600, // 2027-01-01
        TimeType::PaymentDate,
    )
    .with_limit(5);
    let started = Instant::now();
    let page = client.stock_dividends(&params).await?;
    println!(
        "{} dividend record(s) in {} ms, request {}",
        page.data.len(),
        started.elapsed().as_millis(),
        page.request_id
    );

    // What the server received: the two refused attempts and the one answered.
    let received = server.received_requests_of(&STOCK_DIVIDENDS);
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
        return Err(format!(
            "expected 3 requests, the server received {}",
            received.len()
        )
        .into());
    }
    for request in &received {
        if request.api_key != KeySent::Accepted
            || request.header(mrds_mock::AUTH_HEADER) != Some(mrds_mock::REDACTED)
            || request.query_param("symbol").as_deref() != Some("BF-B")
        {
            return Err(format!("unexpected request in the journal: {request:?}").into());
        }
    }
    Ok(page.data.len())
}
