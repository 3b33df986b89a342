//! Decoding a 10,000-candle response: as the client does (`mrds_runtime::client`'s decoding of
//! a 200 response into records, the same function every call goes through), the same while
//! noticing drift against the spec's shapes (the client's default), into the model's
//! `Envelope<Candle>`, and with serde_json into a plain hand-written struct of the same shape.
//! The `decode_10k_drifted` group decodes candles that each carry a field the spec does not
//! declare, and `decode_2k_commentary` commentary rows (longer texts, three value-set fields
//! whose values are looked up as they pass), as the client does without and with noticing.
//!
//! `cargo bench -p mrds-bench --bench decode`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mrds_model::Envelope;
use mrds_model::records::{Candle, ErrorObject, PersonCommentary};
use mrds_model::shapes::SHAPES;
use mrds_runtime::client::Response;
use mrds_runtime::drift::Drift;
use serde::Deserialize;

#[derive(Deserialize)]
#[allow(dead_code)]
struct PlainEnvelope {
    success: bool,
    request_id: String,
    data: Vec<PlainCandle>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct PlainCandle {
    price_open: f64,
    price_high: f64,
    price_low: f64,
    price_close: f64,
    volume: f64,
    time_open: String,
    time_close: String,
}

fn decode(c: &mut Criterion) {
    let body = mrds_bench::candles_body(10_000);
    let mut group = c.benchmark_group("decode_10k_candles");
    group.throughput(Throughput::Bytes(body.len() as u64));
    group.bench_function("client", |b| b.iter(|| client(&body, None)));
    let drift = Drift::default();
    group.bench_function("client_noticing", |b| {
        b.iter(|| client(&body, Some(&drift)))
    });
    assert!(drift.is_empty(), "{:?}", drift.findings());
    group.bench_function("model", |b| {
        b.iter(|| {
            let envelope: Envelope<Candle> = serde_json::from_slice(black_box(&body)).unwrap();
            assert_eq!(envelope.data.len(), 10_000);
            envelope
        })
    });
    group.bench_function("plain_struct", |b| {
        b.iter(|| {
            let envelope: PlainEnvelope = serde_json::from_slice(black_box(&body)).unwrap();
            assert_eq!(envelope.data.len(), 10_000);
            envelope
        })
    });
    group.finish();

    // Every candle with a field the spec does not declare (and a different value in each).
    let drifted = mrds_bench::candles_body_with(10_000, |i, candle| {
        candle["trades"] = serde_json::json!(i * 7);
    });
    let mut group = c.benchmark_group("decode_10k_drifted");
    group.throughput(Throughput::Bytes(drifted.len() as u64));
    group.bench_function("client", |b| b.iter(|| client(&drifted, None)));
    let drift = Drift::default();
    group.bench_function("client_noticing", |b| {
        b.iter(|| client(&drifted, Some(&drift)))
    });
    // One finding however many answers were decoded (none when the case was filtered out).
    assert!(drift.findings().len() <= 1, "{:?}", drift.findings());
    group.finish();

    let commentary = mrds_bench::commentary_body(2_000);
    let mut group = c.benchmark_group("decode_2k_commentary");
    group.throughput(Throughput::Bytes(commentary.len() as u64));
    let decode_rows = |drift: Option<&Drift>| {
        let noticing = drift.map(|d| (&SHAPES, "person_commentary", d));
        let response = mrds_runtime::client::decode_body::<PersonCommentary, ErrorObject>(
            200,
            black_box(&commentary),
            noticing,
        )
        .unwrap();
        assert_eq!(response.data.len(), 2_000);
        response
    };
    group.bench_function("client", |b| b.iter(|| decode_rows(None)));
    let drift = Drift::default();
    group.bench_function("client_noticing", |b| b.iter(|| decode_rows(Some(&drift))));
    assert!(drift.is_empty(), "{:?}", drift.findings());
    group.finish();
}

/// The client's decoding of a 200 answer of `market_kline`, noticing drift into `drift`.
fn client(body: &[u8], drift: Option<&Drift>) -> Response<Candle> {
    let noticing = drift.map(|d| (&SHAPES, "market_kline", d));
    let response =
        mrds_runtime::client::decode_body::<Candle, ErrorObject>(200, black_box(body), noticing)
            .unwrap();
    assert_eq!(response.data.len(), 10_000);
    response
}

criterion_group!(benches, decode);
criterion_main!(benches);
