//! Calls three endpoints of a running service and prints what comes back.
//!
//! ```sh
//! cargo run -p mrds-client --example quickstart
//! MRDS_BASE_URL=http://127.0.0.1:9000/api MRDS_API_KEY=my-key cargo run -p mrds-client --example quickstart
//! ```
//!
//! Defaults: the service at `http://127.0.0.1:8080` (the client appends `/api`) with the key
//! `demo-key`.

// An endpoint named here may be marked removed by the spec (the service then answers 410 ENDPOINT_REMOVED): the example still builds and says so.
#![allow(deprecated)]

use mrds_client::model::TimeType;
use mrds_client::model::params::{CompanyDetailParams, StockDividendsParams, TreasuryRatesParams};
use mrds_client::{Client, Error};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let base_url =
        std::env::var("MRDS_BASE_URL").unwrap_or_else(|_| "http://127.0.0.1:8080".into());
    let api_key = std::env::var("MRDS_API_KEY").unwrap_or_else(|_| "demo-key".into());
    let client = Client::builder(base_url).api_key(api_key).build()?;
    println!("service root: {}", client.base_url());
    let mut failed = 0;

    // 1. A company profile by symbol.
    let params = CompanyDetailParams::new().with_symbol("AAPL");
    match client.company_detail(&params).await {
        Ok(page) => {
            for company in &page.data {
                println!(
                    "company: {} ({}), {} / {}",
                    company.name, company.symbol, company.sector, company.industry
                );
            }
            println!("  request id {}", page.request_id);
        }
        Err(e) => failed += report("company_detail", &e),
    }

    // 2. Dividends paid in a range, newest first.
    let params = StockDividendsParams::new(
        "BF-B",
        1_735_689_600, // 2025-01-01
        1_798_761_600, // 2027-01-01
        TimeType::PaymentDate,
    )
    .with_limit(5);
    match client.stock_dividends(&params).await {
        Ok(page) => {
            println!("dividends: {} record(s)", page.data.len());
            for d in &page.data {
                println!(
                    "  {} paid {}: {} ({})",
                    d.symbol, d.payment_date, d.dividend, d.frequency
                );
            }
        }
        Err(e) => failed += report("stock_dividends", &e),
    }

    // 3. Treasury rates over one month.
    let params = TreasuryRatesParams::new()
        .with_start_time(1_793_491_200) // 2026-11-01
        .with_end_time(1_796_083_200); // 2026-12-01
    match client.treasury_rates(&params).await {
        Ok(page) => {
            println!("treasury rates: {} day(s)", page.data.len());
            for r in page.data.iter().take(3) {
                println!(
                    "  {}: 3m {} / 10y {} / 30y {}",
                    r.date, r.month3, r.year10, r.year30
                );
            }
        }
        Err(e) => failed += report("treasury_rates", &e),
    }
    if failed > 0 {
        return Err(format!("{failed} of 3 calls failed").into());
    }
    Ok(())
}

/// Prints a failed call, with what each kind of failure tells; counts one failure.
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
