//! Benchmarks of the generated crates. `bench-server` serves one dividends answer through the
//! generated server (or through a hand-written axum handler, for comparison) so `bench/server.sh`
//! can load it with wrk; `benches/decode.rs` measures decoding a large candle response.

use mrds_model::params::*;
use mrds_model::records::*;
use mrds_server::axum::Router;
use mrds_server::axum::http::header;
use mrds_server::axum::routing::get;
use mrds_server::{Api, RequestContext, ServerError, StaticKeys};

/// The API key the benchmark server accepts.
pub const KEY: &str = "bench-key";

/// A valid dividends request (path and query below the base path).
pub const VALID: &str = "/v1/stocks/dividends?symbol=AAPL&start_time=1735689600&end_time=1798761600&time_type=PAYMENT_DATE&limit=5";

/// A unified kline request, answered with 10,000 candles (about 1.7 MB of JSON).
pub const KLINE: &str = "/v1/market/kline?trading_pair=US_SPOT_AAPL_USD&interval=1m";

/// A request breaking three rules (limit range, unknown time type, range order).
pub const INVALID: &str =
    "/v1/stocks/dividends?symbol=AAPL&start_time=9&end_time=5&time_type=NOPE&limit=0";

/// The records every dividends request is answered with.
pub fn dividends() -> Vec<PitDividend> {
    (0..5)
        .map(|i| {
            PitDividend::from(PitDividendInit {
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
        })
        .collect()
}

/// `n` one-minute candles.
pub fn candles(n: usize) -> Vec<Candle> {
    (0..n)
        .map(|i| {
            let p = 91_000.0 + i as f64 * 0.5;
            let minute = |s: u32| {
                format!(
                    "2026-11-{:02}T{:02}:{:02}:{s:02}Z",
                    1 + i / 1440 % 28,
                    i / 60 % 24,
                    i % 60
                )
            };
            Candle::from(CandleInit {
                price_open: p,
                price_high: p + 12.25,
                price_low: p - 9.75,
                price_close: p + 0.5,
                volume: 150.5 + i as f64,
                time_open: minute(0),
                time_close: minute(59),
            })
        })
        .collect()
}

/// The generated router over an implementation answering fixed dividends (and 10,000
/// candles for the unified kline).
pub fn generated() -> Router {
    mrds_server::router(
        Fixed {
            dividends: dividends(),
            candles: std::sync::Arc::new(candles(10_000)),
        },
        StaticKeys::new([KEY]),
    )
}

/// Fixed dividends and candles: the two endpoints the benchmarks request (every other one
/// answers 501 `NOT_IMPLEMENTED`, the trait's default).
struct Fixed {
    dividends: Vec<PitDividend>,
    candles: std::sync::Arc<Vec<Candle>>,
}

impl Api for Fixed {
    async fn market_kline(
        &self,
        _ctx: RequestContext,
        _params: MarketKlineParams,
    ) -> Result<Vec<Candle>, ServerError> {
        Ok(self.candles.to_vec())
    }

    async fn stock_dividends(
        &self,
        _ctx: RequestContext,
        _params: StockDividendsParams,
    ) -> Result<Vec<PitDividend>, ServerError> {
        Ok(self.dividends.clone())
    }
}

fn envelope(records: Vec<PitDividend>) -> mrds_model::Envelope<PitDividend> {
    mrds_model::Envelope::new(true, "req_000000000000000000", records)
}

/// A hand-written axum handler answering the same records, serialized per request, with no key
/// check, no parsing and no validation.
pub fn baseline() -> Router {
    let records = std::sync::Arc::new(dividends());
    Router::new().route(
        "/api/v1/stocks/dividends",
        get(move || {
            let records = records.clone();
            async move {
                let body =
                    serde_json::to_vec(&envelope(records.to_vec())).expect("records serialize");
                ([(header::CONTENT_TYPE, "application/json")], body)
            }
        }),
    )
}

/// A hand-written handler answering bytes serialized once: the floor of HTTP cost.
pub fn fixed_bytes() -> Router {
    let body = serde_json::to_vec(&envelope(dividends())).expect("records serialize");
    let body: &'static [u8] = body.leak();
    Router::new().route(
        "/api/v1/stocks/dividends",
        get(move || async move { ([(header::CONTENT_TYPE, "application/json")], body) }),
    )
}

/// The JSON answer of `n` one-minute candles, as the service sends it.
pub fn candles_body(n: usize) -> Vec<u8> {
    candles_body_with(n, |_, _| {})
}

/// The JSON answer of `n` candles, `edit` changing each.
pub fn candles_body_with(n: usize, edit: impl Fn(usize, &mut serde_json::Value)) -> Vec<u8> {
    let candles: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let p = 91_000.0 + i as f64 * 0.5;
            let mut candle = serde_json::json!({
                "price_open": p, "price_high": p + 12.25, "price_low": p - 9.75, "price_close": p + 0.5,
                "volume": 150.5 + i as f64,
                "time_open": format!("2026-11-{:02}T{:02}:{:02}:00Z", 1 + i / 1440 % 28, i / 60 % 24, i % 60),
                "time_close": format!("2026-11-{:02}T{:02}:{:02}:59Z", 1 + i / 1440 % 28, i / 60 % 24, i % 60),
            });
            edit(i, &mut candle);
            candle
        })
        .collect();
    serde_json::to_vec(
        &serde_json::json!({ "success": true, "request_id": "req_1", "data": candles }),
    )
    .unwrap()
}

/// The JSON answer of `n` commentary rows of the spec's shape: texts of a few dozen
/// characters, three value-set fields each.
pub fn commentary_body(n: usize) -> Vec<u8> {
    let rows: Vec<serde_json::Value> = (0..n).map(commentary_row).collect();
    serde_json::to_vec(&serde_json::json!({ "success": true, "request_id": "req_1", "data": rows }))
        .unwrap()
}

fn commentary_row(i: usize) -> serde_json::Value {
    let published_at_source = ["page", "fetch"][i % 2];
    let source_kind = ["own", "transcript", "interview"][i % 3];
    serde_json::json!({
        "person_id": "123e4567-e89b-12d3-a456-426614174000",
        "quote": format!("Remark {i}: rates will stay where they are for a while longer."),
        "url": format!("https://example.org/interviews/{i}"),
        "page_title": "An interview", "venue": "A venue", "author": "", "lang": "en",
        "said_on": "2026-07-01", "published_at": 1_780_000_000 + i,
        "published_at_source": published_at_source,
        "source_kind": source_kind,
        "own_channel_verified": null,
        "cluster_id": format!("c{i}"),
    })
}
