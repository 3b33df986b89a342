//! The sample-data server's command line (`mrds_runtime::mock::run`, the serving path of
//! `mrds-mock`) over the sample data, except that `treasury_rates` (`mrds_tests::SLOW_ENDPOINT`) answers after
//! `MRDS_TEST_DELAY_MS` milliseconds (default 1,000): a request that is in flight long
//! enough for the shutdown tests of `tests/it/server_runtime/shutdown.rs` to signal the
//! process.

// The endpoint slowed down may be marked removed by the spec; it is still served here.
#![allow(deprecated)]

use std::process::ExitCode;
use std::time::Duration;

use mrds_model::params::TreasuryRatesParams;
use mrds_model::records::TreasuryRate;
use mrds_server::{Api, RequestContext, ServerError};

/// The sample data, with `treasury_rates` slowed down and served even when the spec marks it
/// removed (the other endpoints answer as the sample server does).
struct Slow(mrds_mock::Mock);

impl Api for Slow {
    fn fallback(&self) -> &impl Api {
        &self.0
    }

    async fn treasury_rates(
        &self,
        ctx: RequestContext,
        params: TreasuryRatesParams,
    ) -> Result<Vec<TreasuryRate>, ServerError> {
        let delay = std::env::var("MRDS_TEST_DELAY_MS")
            .ok()
            .and_then(|ms| ms.parse().ok())
            .unwrap_or(1000);
        tokio::time::sleep(Duration::from_millis(delay)).await;
        (mrds_mock::Mock::serving_removed())
            .treasury_rates(ctx, params)
            .await
    }
}

fn main() -> ExitCode {
    mrds_runtime::mock::run(&mrds_runtime::app::App {
        name: "mrds-mock-slow",
        router: |_, keys| mrds_server::router(Slow(mrds_mock::Mock::new()), keys),
        ..mrds_mock::APP
    })
}
