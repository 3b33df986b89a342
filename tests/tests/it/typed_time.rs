//! Typed time, the model crate's `jiff` feature (this test crate turns it on): time parameters
//! take `jiff` values and write the wire's plain forms, the date and timestamp fields of every
//! sample record read back as `jiff` values, and the server takes the ISO 8601 basic offset
//! (`+0000`) that generated clients send as well as RFC 3339's `+00:00`.

use std::path::Path;

use mrds_model::params::{MarketKlineParams, PersonCommentaryParams, StockDividendsParams};
use mrds_model::records::{Candle, EquityOffering, PersonCommentary, PitDividend, ResearchUnit};
use mrds_model::runtime::time::{self, Timestamp};
use mrds_model::value_sets::{Interval, TimeType};
use mrds_spec::model::{Api, Format, TextFormat, TypeRef};
use serde::de::DeserializeOwned;
use serde_json::Value;
use tower::ServiceExt;

fn at(text: &str) -> Timestamp {
    text.parse().unwrap()
}

fn api() -> Api {
    mrds_spec::load_spec(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec"))
        .unwrap_or_else(|d| panic!("{d}"))
}

/// The records of the first sample set of endpoint `id`.
fn samples<T: DeserializeOwned>(api: &Api, id: &str) -> Vec<T> {
    let set = &api
        .endpoint_named(id)
        .unwrap()
        .samples
        .as_ref()
        .unwrap()
        .sets[0];
    serde_json::from_str(&set.records_json).unwrap()
}

#[test]
fn time_parameters_take_jiff_values_and_write_the_wire_forms() {
    // Unix seconds.
    let typed = StockDividendsParams::new_jiff(
        "BRK.B",
        at("2025-01-01T00:00:00Z"),
        at("2027-01-01T00:00:00Z"),
        TimeType::PaymentDate,
    );
    let plain =
        StockDividendsParams::new("BRK.B", 1_735_689_600, 1_798_761_600, TimeType::PaymentDate);
    assert_eq!(typed, plain);
    let person = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f";
    assert_eq!(
        PersonCommentaryParams::new_jiff(
            person,
            at("1970-01-01T00:00:01Z"),
            at("2026-01-01T00:00:00+01:00")
        ),
        PersonCommentaryParams::new(person, 1, 1_767_222_000)
    );

    // RFC 3339 text: optional parameters, so setters.
    let kline = MarketKlineParams::new("US_SPOT_AAPL_USD", Interval::OneDay)
        .with_start_time_jiff(at("2026-11-17T00:00:00Z"))
        .with_end_time_jiff(at("2026-11-18T12:00:00.5+02:00"));
    assert_eq!(kline.start_time.as_deref(), Some("2026-11-17T00:00:00Z"));
    assert_eq!(kline.end_time.as_deref(), Some("2026-11-18T10:00:00.5Z"));
    kline.validate().unwrap();
    assert_eq!(
        kline,
        MarketKlineParams::new("US_SPOT_AAPL_USD", Interval::OneDay)
            .with_start_time("2026-11-17T00:00:00Z")
            .with_end_time("2026-11-18T10:00:00.5Z")
    );
    // The rules see the same instants: an end before the start is still broken.
    let backwards = MarketKlineParams::new("US_SPOT_AAPL_USD", Interval::OneDay)
        .with_start_time_jiff(at("2026-11-18T00:00:00Z"))
        .with_end_time_jiff(at("2026-11-17T00:00:00Z"));
    assert!(backwards.validate().is_err());
}

#[test]
fn date_and_timestamp_fields_read_as_jiff_values() {
    let api = api();
    let dividend = &samples::<PitDividend>(&api, "stock_dividends")[0];
    let date = dividend.date_jiff().unwrap();
    assert_eq!(date.to_string(), dividend.date);
    assert!(dividend.payment_date_jiff().unwrap() >= date);

    let offering = &samples::<EquityOffering>(&api, "equity_offering")[0];
    // `timestamp_millis` is an instant; `date_time` a civil date and time without a zone.
    assert_eq!(
        offering.date_jiff().unwrap(),
        time::parse_timestamp(&offering.date).unwrap()
    );
    let filed = offering.filing_date_jiff().unwrap();
    assert_eq!(
        filed.strftime("%Y-%m-%d %H:%M:%S").to_string(),
        offering.filing_date
    );

    let commentary = &samples::<PersonCommentary>(&api, "person_commentary")[0];
    assert_eq!(
        commentary.published_at_jiff().unwrap().as_second(),
        commentary.published_at
    );
    let unit = &samples::<ResearchUnit>(&api, "research_units")[0];
    assert_eq!(
        unit.published_at_jiff().unwrap(),
        at("2026-08-20T09:30:00Z")
    );
    let candle = &samples::<Candle>(&api, "market_kline")[0];
    assert!(candle.time_open_jiff().unwrap() < candle.time_close_jiff().unwrap());

    // A field that does not hold its format is an error, not a panic.
    let mut broken = dividend.clone();
    broken.payment_date = "soon".into();
    assert!(broken.payment_date_jiff().is_err());
}

/// Every date and time field of every sample record of the spec reads as its `jiff` type, so
/// the typed accessors work on what the sample server answers.
#[test]
fn every_time_field_of_every_sample_record_parses() {
    let api = api();
    let mut checked = 0;
    for e in &api.endpoints {
        let record = api.returns(e);
        for set in e.samples.iter().flat_map(|s| &s.sets) {
            let records: Vec<Value> = serde_json::from_str(&set.records_json).unwrap();
            for r in &records {
                for f in &record.fields {
                    let (Some(format), Some(value)) = (f.format, r.get(&f.wire)) else {
                        continue;
                    };
                    let values = match value {
                        Value::Array(items) => items.clone(),
                        Value::Null => Vec::new(),
                        one => vec![one.clone()],
                    };
                    for v in values {
                        let ok = match (format, &f.ty) {
                            (Format::Text(TextFormat::Date), _) => {
                                time::parse_date(v.as_str().unwrap()).is_ok()
                            }
                            (Format::DateTime, _) => {
                                time::parse_date_time(v.as_str().unwrap()).is_ok()
                            }
                            (
                                Format::Timestamp
                                | Format::TimestampMillis
                                | Format::Text(TextFormat::Rfc3339),
                                _,
                            ) => time::parse_timestamp(v.as_str().unwrap()).is_ok(),
                            (Format::UnixSeconds, TypeRef::Integer) => {
                                time::from_unix_seconds(v.as_i64().unwrap()).is_ok()
                            }
                            _ => continue,
                        };
                        assert!(ok, "{}: {}.{} = {v}", e.id, record.spec_name, f.wire);
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} time values in the samples");
}

/// What the sample server answers `target` (below the base path) with: status and body.
async fn answer(target: &str) -> (u16, Value) {
    let app = mrds_mock::router(mrds_server::StaticKeys::new(["k"]));
    let request = mrds_server::axum::http::Request::get(format!("/api{target}"))
        .header("X-API-Key", "k")
        .body(mrds_server::axum::body::Body::empty())
        .unwrap();
    let response = app.oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    let bytes = mrds_server::axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    (status, serde_json::from_slice(&bytes).unwrap())
}

#[tokio::test]
async fn the_server_takes_rfc3339_and_iso_8601_basic_offsets() {
    let kline = |start: &str, end: &str| {
        format!(
            "/v1/market/kline?trading_pair=US_SPOT_AAPL_USD&interval=1d&start_time={start}&end_time={end}"
        )
    };
    // `+00:00` (RFC 3339) and `+0000` (what OpenAPI Generator's Python client sends, with
    // microseconds) name the same instants and select the same candles.
    let (status, rfc) = answer(&kline(
        "2026-11-17T00:00:00%2B00:00",
        "2026-11-18T12:00:00%2B02:00",
    ))
    .await;
    assert_eq!(status, 200, "{rfc}");
    let (status, basic) = answer(&kline(
        "2026-11-17T00:00:00.000000%2B0000",
        "2026-11-18T12:00:00.000000%2B0200",
    ))
    .await;
    assert_eq!(status, 200, "{basic}");
    assert_eq!(rfc["data"], basic["data"]);
    assert_eq!(rfc["data"].as_array().unwrap().len(), 2);
    // An offset with neither form, or no offset, is still invalid.
    for bad in ["2026-11-17T00:00:00%2B00", "2026-11-17T00:00:00"] {
        let (status, body) = answer(&kline(bad, "2026-11-18T00:00:00Z")).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
    // The model and so the client check the same way.
    let p = MarketKlineParams::new("US_SPOT_AAPL_USD", Interval::OneDay)
        .with_start_time("2026-11-17T00:00:00.000000+0000");
    p.validate().unwrap();
}
