//! The client's examples that need no running service, run as tests: their source is compiled
//! here as a module (`cargo test` only builds examples), so what the README points to is what
//! passes. `mock_retries`: a call meets two 429 answers of the in-process sample server,
//! retries at once as their `Retry-After: 0` says, succeeds, and the journal shows the three
//! requests.

use std::time::{Duration, Instant};

// `main` is the example's entry point when it runs on its own (generated: `examples/mock_retries/`).
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "../../../crates/mrds-client/examples/mock_retries/calls.rs"]
mod mock_retries;

#[tokio::test]
async fn the_mock_retries_example_succeeds_after_two_429s() {
    let started = Instant::now();
    let records = mock_retries::run()
        .await
        .unwrap_or_else(|e| panic!("the example failed: {e}"));
    assert!(records > 0, "the sample records");
    let took = started.elapsed();
    assert!(took < Duration::from_secs(1), "took {took:?}");
}
