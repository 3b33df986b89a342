//! Range rules of the parameter types: `end_time > start_time` on every endpoint with a range
//! (integer times, the removed endpoint's, the reason's wording, half-open ranges of the
//! crypto metrics), and the screener's maximum span per event type.

use mrds_model::params::{
    EtfFlowParams, ForexHistoricalParams, LeverageRatioParams, NandFlashSpotPriceParams,
    NonUsKlineParams, PerpKlineParams, PersonCommentaryParams, ScreenerEventsParams, SsrParams,
    StockDividendsParams, TreasuryRatesParams,
};
use mrds_model::{Interval, NandItem, ScreenerEventType, TimeField, TimeType, ValidationError};

use super::{DAY, T0, UUID, YEAR_366, assert_one, check, err, ok, rules};

/// `end_time > start_time`: equal is invalid, one second more is valid, reversed is invalid;
/// the issue names `end_time` and its value.
#[track_caller]
fn probe_order(rule: &str, check: impl Fn(i64, i64) -> Result<(), ValidationError>) {
    assert_one(check(T0, T0), rule, "end_time", &T0.to_string());
    ok(check(T0, T0 + 1));
    ok(check(T0 - DAY, T0));
    assert_one(check(T0 + 1, T0), rule, "end_time", &T0.to_string());
    assert_one(check(T0, 0), rule, "end_time", "0");
    ok(check(0, 1));
    ok(check(-1, 0));
    assert_one(
        check(i64::MAX, i64::MIN),
        rule,
        "end_time",
        &i64::MIN.to_string(),
    );
}

#[test]
fn range_order_of_every_endpoint_with_integer_times() {
    probe_order("stock_dividends.range_order", |a, b| {
        check(&StockDividendsParams::new(
            "AAPL",
            a,
            b,
            TimeType::PaymentDate,
        ))
    });
    probe_order("person_commentary.range_order", |a, b| {
        check(&PersonCommentaryParams::new(UUID, a, b))
    });
    for event in ScreenerEventType::ALL {
        probe_order("screener_events.range_order", |a, b| {
            check(&ScreenerEventsParams::new(event.clone(), a, b))
        });
    }
    probe_order("treasury_rates.range_order", |a, b| {
        check(
            &TreasuryRatesParams::new()
                .with_start_time(a)
                .with_end_time(b),
        )
    });
    probe_order("etf_flow.range_order", |a, b| {
        check(&EtfFlowParams::new("SPY", a, b))
    });
    probe_order("non_us_kline.range_order", |a, b| {
        check(&NonUsKlineParams::new("0700.HK", a, b))
    });
    probe_order("forex_historical.range_order", |a, b| {
        check(&ForexHistoricalParams::new("EURUSD", a, b))
    });
    probe_order("perp_kline.range_order", |a, b| {
        check(&PerpKlineParams::new("ETH", Interval::OneDay, a, b))
    });
    probe_order("leverage_ratio.range_order", |a, b| {
        check(
            &LeverageRatioParams::new("BTC")
                .with_start_time(a)
                .with_end_time(b),
        )
    });
    probe_order("ssr.range_order", |a, b| {
        check(&SsrParams::new("BTC").with_start_time(a).with_end_time(b))
    });
    probe_order("nand_flash_spot_price.range_order", |a, b| {
        check(&NandFlashSpotPriceParams::new(
            NandItem::Slc1Gb128Mbx8,
            a,
            b,
        ))
    });
}

#[test]
#[allow(deprecated)]
fn range_order_of_the_removed_index_1min_endpoint() {
    probe_order("index_1min.range_order", |a, b| {
        check(&mrds_model::params::Index1minParams::new("GSPC", a, b))
    });
}

#[test]
fn range_order_reason_names_both_times() {
    let issues = err(dividends_with(T0 + 5, T0).validate());
    assert_eq!(issues.len(), 1);
    assert!(
        issues[0].reason.contains("start_time"),
        "{}",
        issues[0].reason
    );
    assert!(
        issues[0].reason.contains(&(T0 + 5).to_string()),
        "{}",
        issues[0].reason
    );
}

fn dividends_with(start: i64, end: i64) -> StockDividendsParams {
    StockDividendsParams::new("AAPL", start, end, TimeType::DeclarationDate)
}

#[test]
fn crypto_metrics_accept_a_half_open_or_absent_range() {
    ok(check(&LeverageRatioParams::new("BTC").with_start_time(T0)));
    ok(check(&LeverageRatioParams::new("BTC").with_end_time(T0)));
    ok(check(&SsrParams::new("BTC").with_start_time(T0)));
    ok(check(&SsrParams::new("BTC").with_end_time(T0)));
    for tf in TimeField::ALL {
        ok(check(&SsrParams::new("BTC").with_time_field(*tf)));
        ok(check(&LeverageRatioParams::new("BTC").with_time_field(*tf)));
    }
}

// ---------------------------------------------------------------------------------------------
// Screener: event type and maximum span
// ---------------------------------------------------------------------------------------------

#[test]
fn screener_span_of_366_days_for_split_and_earnings() {
    for event in [
        ScreenerEventType::SplitDate,
        ScreenerEventType::EarningsDate,
    ] {
        let p = |span: i64| ScreenerEventsParams::new(event.clone(), T0, T0 + span);
        ok(check(&p(1)));
        ok(check(&p(YEAR_366 - 1)));
        ok(check(&p(YEAR_366)));
        assert_eq!(YEAR_366, 31_622_400);
        assert_one(
            check(&p(31_622_401)),
            "screener_events.max_span",
            "end_time",
            &(T0 + 31_622_401).to_string(),
        );
        assert_one(
            check(&p(10 * YEAR_366)),
            "screener_events.max_span",
            "end_time",
            &(T0 + 10 * YEAR_366).to_string(),
        );
    }
}

#[test]
fn screener_span_is_unlimited_for_ipo_date() {
    let p = |span: i64| ScreenerEventsParams::new(ScreenerEventType::IpoDate, T0, T0 + span);
    ok(check(&p(YEAR_366)));
    ok(check(&p(31_622_401)));
    ok(check(&p(30 * YEAR_366)));
    ok(check(&ScreenerEventsParams::new(
        ScreenerEventType::IpoDate,
        i64::MIN,
        i64::MAX,
    )));
}

#[test]
fn screener_span_does_not_overflow_and_is_not_reported_for_a_reversed_range() {
    // The widest possible range: span past i64 must not wrap around to "valid".
    assert_one(
        check(&ScreenerEventsParams::new(
            ScreenerEventType::SplitDate,
            i64::MIN,
            i64::MAX,
        )),
        "screener_events.max_span",
        "end_time",
        &i64::MAX.to_string(),
    );
    // A reversed range breaks the order only, not the span.
    assert_eq!(
        rules(check(&ScreenerEventsParams::new(
            ScreenerEventType::EarningsDate,
            T0 + 2 * YEAR_366,
            T0,
        ))),
        ["screener_events.range_order"]
    );
}
