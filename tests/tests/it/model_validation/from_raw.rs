//! `from_raw()`, the parameters as a server reads them from a request: a missing parameter
//! alone, a repeated one not reported as missing, unknown parameters ignored, defaults
//! applied (and the constructors' the same), several problems at once, and read problems
//! first.

use mrds_model::params::{
    CompanyDetailParams, EquityOfferingParams, ForexHistoricalParams, LeverageRatioParams,
    MarketKlineParams, NonUsKlineParams, PerpKlineParams, PersonCommentaryParams,
    ResearchUnitsParams, SsrParams, StockDividendsParams, TreasuryRatesParams,
};
use mrds_model::{Interval, RawParams, Session, SortOrder, TimeField, TimeType};

use super::{
    DAY, DOC_ID, T0, UUID, assert_one, dividends, forex, keys, kline, non_us, ok, perp, raw, rules,
};

#[test]
fn from_raw_reports_one_missing_parameter_alone() {
    let q = format!("symbol=AAPL&start_time={T0}&end_time={}", T0 + DAY);
    assert_one(
        StockDividendsParams::from_raw(&raw(&q)),
        "stock_dividends.time_type.required",
        "time_type",
        "",
    );
    assert_one(
        MarketKlineParams::from_raw(&raw("trading_pair=US_SPOT_AAPL_USD")),
        "market_kline.interval.required",
        "interval",
        "",
    );
    assert_one(
        PerpKlineParams::from_raw(&raw(&format!(
            "symbol=BTC&start_time={T0}&end_time={}",
            T0 + 1
        ))),
        "perp_kline.interval.required",
        "interval",
        "",
    );
}

#[test]
fn company_detail_repeated_symbol_is_not_reported_as_missing() {
    assert_one(
        CompanyDetailParams::from_raw(&raw("symbol=AAPL&symbol=MSFT")),
        "company_detail.symbol.repeated",
        "symbol",
        "AAPL",
    );
}

#[test]
fn from_raw_ignores_unknown_parameters() {
    let q = format!(
        "symbol=BRK.B&start_time={T0}&end_time={}&time_type=PAYMENT_DATE&apikey=secret&format=csv&page=2&Symbol=MSFT",
        T0 + DAY
    );
    let parsed = ok(StockDividendsParams::from_raw(&raw(&q)));
    assert_eq!(
        parsed,
        StockDividendsParams::new("BRK.B", T0, T0 + DAY, TimeType::PaymentDate)
    );
    let parsed = ok(TreasuryRatesParams::from_raw(&raw("foo=bar&&end=1")));
    assert_eq!(parsed, TreasuryRatesParams::new());
}

#[test]
fn from_raw_applies_defaults() {
    let t = format!("start_time={T0}&end_time={}", T0 + DAY);

    let p = ok(StockDividendsParams::from_raw(&raw(&format!(
        "symbol=AAPL&{t}&time_type=RECORD_DATE"
    ))));
    assert_eq!(p.limit, 50);
    assert_eq!(
        p,
        StockDividendsParams::new("AAPL", T0, T0 + DAY, TimeType::RecordDate)
    );

    let p = ok(ForexHistoricalParams::from_raw(&raw(&format!(
        "symbol=EURUSD&{t}"
    ))));
    assert_eq!(p.sort_order, SortOrder::Desc);

    let p = ok(MarketKlineParams::from_raw(&raw(
        "trading_pair=US_SPOT_AAPL_USD&interval=5min",
    )));
    assert_eq!(p.session, Session::Eth);
    assert_eq!(p.limit, 500);
    assert_eq!(
        (p.start_time.as_deref(), p.end_time.as_deref()),
        (None, None)
    );

    let p = ok(NonUsKlineParams::from_raw(&raw(&format!(
        "symbol=0700.HK&{t}"
    ))));
    assert_eq!(p.interval, Interval::OneDay);
    assert_eq!(p.limit, 500);

    let p = ok(PerpKlineParams::from_raw(&raw(&format!(
        "symbol=BTC&interval=1h&{t}"
    ))));
    assert_eq!(p.limit, 500);

    let p = ok(PersonCommentaryParams::from_raw(
        &raw(&t).with_path("person_id", UUID),
    ));
    assert_eq!((p.limit, p.offset), (50, 0));

    let p = ok(EquityOfferingParams::from_raw(&RawParams::default()));
    assert_eq!((p.limit, p.offset), (50, 0));
    assert_eq!(p, EquityOfferingParams::new());

    let p = ok(LeverageRatioParams::from_raw(&raw("symbol=BTC")));
    assert_eq!(p.time_field, TimeField::Date);
    assert_eq!((p.start_time, p.end_time, p.limit), (None, None, None));
    let p = ok(SsrParams::from_raw(&raw("symbol=BTC")));
    assert_eq!(p.time_field, TimeField::Date);
    assert_eq!(p.limit, None);

    let p = ok(ResearchUnitsParams::from_raw(&raw(&format!(
        "doc_id={DOC_ID}"
    ))));
    assert_eq!((p.kind, p.idx), (None, None));

    // The constructors use the same defaults.
    assert_eq!(non_us().interval, Interval::OneDay);
    assert_eq!(
        kline("US_SPOT_AAPL_USD", Interval::OneDay).session,
        Session::Eth
    );
    assert_eq!(forex().sort_order, SortOrder::Desc);
    assert_eq!(dividends().limit, 50);
    assert_eq!(perp().limit, 500);
}

#[test]
fn from_raw_reports_several_problems_at_once() {
    // limit=0, end before start and a bad symbol: three issues.
    let q = format!(
        "symbol=BRK_B&start_time={}&end_time={T0}&time_type=RECORD_DATE&limit=0",
        T0 + 10
    );
    let e = StockDividendsParams::from_raw(&raw(&q)).unwrap_err();
    assert_eq!(
        keys(&e),
        [
            (
                "stock_dividends.symbol.pattern",
                "symbol",
                "BRK_B".to_string()
            ),
            ("stock_dividends.limit.range", "limit", "0".to_string()),
            ("stock_dividends.range_order", "end_time", T0.to_string()),
        ]
    );
    // validate() reports the same.
    let v = StockDividendsParams::new("BRK_B", T0 + 10, T0, TimeType::RecordDate).with_limit(0);
    assert_eq!(keys(&v.validate().unwrap_err()), keys(&e));

    // Missing, type and values problems together with rule problems.
    // A limit past the spec's largest (read from it: a release may widen the bound).
    let past = mrds_tests::integer_bounds("market_kline", "limit").1 + 1;
    let e = MarketKlineParams::from_raw(&raw(&format!(
        "interval=5min&interval=1h&start_time=2026-07-02T00:00:00Z&end_time=2026-07-01T00:00:00Z&limit={past}&session=XYZ",
    )))
    .unwrap_err();
    let mut got = rules(Err::<(), _>(e));
    got.sort_unstable();
    assert_eq!(
        got,
        [
            "market_kline.interval.repeated",
            "market_kline.limit.range",
            "market_kline.range_order",
            "market_kline.session.values",
            "market_kline.trading_pair.required",
        ]
    );

    // A future pair with an intraday interval and a bad limit and a bad start.
    let e = MarketKlineParams::new("CME_FUTURE_GC_USD", Interval::FourHours)
        .with_limit(0)
        .with_start_time("soon")
        .validate()
        .unwrap_err();
    assert_eq!(
        rules(Err::<(), _>(e)),
        [
            "market_kline.start_time.format",
            "market_kline.limit.range",
            "market_kline.future_daily_only",
        ]
    );

    // Every required parameter of the commentary endpoint wrong at once.
    let e = PersonCommentaryParams::from_raw(
        &raw("start_time=x&end_time=y&limit=0&offset=-1").with_path("person_id", "bob"),
    )
    .unwrap_err();
    assert_eq!(
        keys(&e),
        [
            (
                "person_commentary.start_time.type",
                "start_time",
                "x".to_string()
            ),
            (
                "person_commentary.end_time.type",
                "end_time",
                "y".to_string()
            ),
            (
                "person_commentary.person_id.format",
                "person_id",
                "bob".to_string()
            ),
            ("person_commentary.limit.range", "limit", "0".to_string()),
            ("person_commentary.offset.range", "offset", "-1".to_string()),
        ]
    );
}

#[test]
/// As documented on `ValidationError::issues`: problems reading the parameters come first,
/// then each parameter's own checks, then the rules across parameters.
fn from_raw_reports_read_problems_first() {
    let q = format!(
        "symbol=BRK_B&start_time={T0}&end_time={}&time_type=RECORD_DATE&limit=abc",
        T0 + DAY
    );
    assert_eq!(
        rules(StockDividendsParams::from_raw(&raw(&q))),
        [
            "stock_dividends.limit.type",
            "stock_dividends.symbol.pattern"
        ]
    );
}
