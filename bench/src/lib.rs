//! Benchmarks of the generated crates. `bench-server` serves one dividends answer through the
//! generated server (or through a hand-written axum handler, for comparison) so `bench/server.sh`
//! can load it with wrk; `benches/decode.rs` measures decoding a large candle response.

use mrds_model::records::PitDividend;

/// The API key the benchmark server accepts.
pub const KEY: &str = "bench-key";

/// A valid dividends request (path and query below the base path).
pub const VALID: &str = "/v1/stocks/dividends?symbol=AAPL&start_time=1735689600&end_time=1798761600&time_type=PAYMENT_DATE&limit=5";

/// A request breaking three rules (limit range, unknown time type, range order).
pub const INVALID: &str =
    "/v1/stocks/dividends?symbol=AAPL&start_time=9&end_time=5&time_type=NOPE&limit=0";

/// The records every dividends request is answered with.
pub fn dividends() -> Vec<PitDividend> {
    (0..5)
        .map(|i| PitDividend {
            symbol: "AAPL".into(),
            date: format!("2026-0{}-11", i + 1),
            record_date: format!("2026-0{}-11", i + 1),
            payment_date: format!("2026-0{}-14", i + 1),
            declaration_date: format!("2026-0{}-01", i + 1),
            adj_dividend: 0.26,
            dividend: 0.26,
            r#yield: 0.41,
            frequency: "Quarterly".into(),
        })
        .collect()
}
