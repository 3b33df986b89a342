//! `decodes CASE N`: decodes one answer N times as the client does, so that
//! `bench/decode-instructions.sh` can count the instructions of one decode under callgrind:
//! `candles` (10,000 candles, not noticing drift), `candles_noticing` (the client's default),
//! `commentary` and `commentary_noticing` (2,000 commentary rows, three value-set fields each).

use mrds_model::records::{Candle, ErrorObject, PersonCommentary};
use mrds_model::shapes::SHAPES;
use mrds_runtime::drift::Drift;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [case, n] = args.as_slice() else { usage() };
    let n: usize = n.parse().unwrap_or_else(|_| usage());
    let drift = Drift::default();
    let (candles, noticing) = match case.as_str() {
        "candles" => (true, false),
        "candles_noticing" => (true, true),
        "commentary" => (false, false),
        "commentary_noticing" => (false, true),
        _ => usage(),
    };
    let body = if candles {
        mrds_bench::candles_body(10_000)
    } else {
        mrds_bench::commentary_body(2_000)
    };
    for _ in 0..n {
        if candles {
            let noticing = noticing.then_some((&SHAPES, "market_kline", &drift));
            let decoded =
                mrds_runtime::client::decode_body::<Candle, ErrorObject>(200, &body, noticing);
            assert_eq!(decoded.unwrap().data.len(), 10_000);
        } else {
            let noticing = noticing.then_some((&SHAPES, "person_commentary", &drift));
            let decoded = mrds_runtime::client::decode_body::<PersonCommentary, ErrorObject>(
                200, &body, noticing,
            );
            assert_eq!(decoded.unwrap().data.len(), 2_000);
        }
    }
    assert!(drift.is_empty(), "{:?}", drift.findings());
}

fn usage() -> ! {
    eprintln!("usage: decodes candles|candles_noticing|commentary|commentary_noticing N");
    std::process::exit(2)
}
