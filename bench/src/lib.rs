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

/// The records every dividends request is answered with: five of the endpoint's record type.
pub fn dividends() -> Vec<PitDividend> {
    (0..5).map(|i| shaped("stock_dividends", i)).collect()
}

/// `n` candles of the unified kline endpoint's record type.
pub fn candles(n: usize) -> Vec<Candle> {
    (0..n).map(|i| shaped("market_kline", i)).collect()
}

/// The `i`th record answering `endpoint`, every field given a value of its type from the
/// model's shapes (`mrds_model::shapes`), not written out here: a change of the record's fields
/// in `spec/` leaves the benchmarks building. Numbers and texts vary with `i`; optional fields
/// are given too; a list holds one item.
fn shaped<T: serde::de::DeserializeOwned>(endpoint: &str, i: usize) -> T {
    let shapes = &mrds_model::shapes::SHAPES;
    let record = shapes
        .returns(endpoint)
        .unwrap_or_else(|| panic!("the spec has no endpoint `{endpoint}`"));
    serde_json::from_value(shaped_value(record, i, 0))
        .unwrap_or_else(|e| panic!("a record of `{endpoint}` from its shape: {e}"))
}

/// The value of the record at `record` of the shapes, for [`shaped`]; `depth` stops a record
/// holding itself.
fn shaped_value(record: usize, i: usize, depth: usize) -> serde_json::Value {
    use mrds_model::runtime::shapes::FieldType;
    use serde_json::{Value, json};
    let shapes = &mrds_model::shapes::SHAPES;
    let shape = shapes.record(record).expect("a record of the shapes");
    let mut fields = serde_json::Map::new();
    for f in shape.fields {
        let instant = 1_793_491_200 + 60 * i as i64;
        let one = match (f.ty, f.format) {
            (FieldType::String, Some(format)) => json!(shaped_text(format, instant)),
            (FieldType::String, None) => json!(format!("{} {i}", f.name)),
            (FieldType::Integer, Some(format)) if format.holds_integer(instant) => json!(instant),
            (FieldType::Integer, _) => json!(i),
            (FieldType::Number, _) => json!(91_000.0 + i as f64 * 0.5),
            (FieldType::Boolean, _) => json!(i.is_multiple_of(2)),
            (FieldType::Any | FieldType::Records, _) => Value::Null,
            (FieldType::ValueSet(set), _) => {
                let values = shapes.value_set(set).map_or(&[][..], |s| s.values);
                values
                    .get(i % values.len().max(1))
                    .map_or(Value::Null, |v| json!(v))
            }
            (FieldType::Record(_), _) if depth > 2 => continue,
            (FieldType::Record(inner), _) => shaped_value(inner, i, depth + 1),
        };
        fields.insert(f.name.to_string(), if f.array { json!([one]) } else { one });
    }
    Value::Object(fields)
}

/// A text holding `format`: the point in time `instant` (Unix seconds) for a time format, else
/// the first of a few texts of the other formats that holds it.
fn shaped_text(format: mrds_model::runtime::Format, instant: i64) -> String {
    if let Some(text) = format.write_instant(instant) {
        return text;
    }
    let candidates = [
        "123e4567-e89b-12d3-a456-426614174000",
        "0123456789abcdef",
        "12.5",
        "https://example.org/a",
        "2026-11-01",
    ];
    (candidates.into_iter())
        .find(|c| format.holds_text(c))
        .unwrap_or("text")
        .to_string()
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

/// The JSON answer of `n` candles ([`candles`]), `edit` changing each.
pub fn candles_body_with(n: usize, edit: impl Fn(usize, &mut serde_json::Value)) -> Vec<u8> {
    let candles: Vec<serde_json::Value> = (candles(n).iter().enumerate())
        .map(|(i, candle)| {
            let mut candle = serde_json::to_value(candle).expect("a candle serializes");
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
