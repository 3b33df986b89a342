//! Hand-written tests of the generated parameter types (`mrds_model::params`): every rule
//! across parameters (the rule ids of `spec/endpoints/*.yaml`) probed just inside and just
//! outside its bound, and the behaviour a reader should see spelled out (share-class and caret
//! spellings, several problems at once, read problems first, defaults, round trips, the error
//! object). Most probes go through [`check`], which runs `validate()` *and* `from_raw()` on the
//! serialized query and asserts that both agree. Each parameter's own rules (required,
//! repeated, type, values, range, pattern, format) are covered by the cases derived from the
//! resolved model, in `contract`.

use std::fmt::Debug;

use mrds_model::params::{
    CompanyDetailParams, EquityOfferingParams, EtfFlowParams, ForexHistoricalParams,
    LeverageRatioParams, MarketKlineParams, NandFlashSpotPriceParams, NonUsKlineParams,
    PerpKlineParams, PersonCommentaryParams, ResearchUnitsParams, ScreenerEventsParams, SsrParams,
    StockDividendsParams, TreasuryRatesParams,
};
use mrds_model::runtime::text::percent_encode;
use mrds_model::{
    ErrorCode, Interval, NandItem, RawParams, Request, ScreenerEventType, Session, SortOrder,
    TimeField, TimeType, UnitKind, ValidationError, ValidationIssue,
};

/// 2026-01-01T00:00:00Z.
const T0: i64 = 1_767_225_600;
/// One day.
const DAY: i64 = 86_400;
/// "One year" of the screener: 366 days.
const YEAR_366: i64 = 31_622_400;
const UUID: &str = "123e4567-e89b-12d3-a456-426614174000";
const DOC_ID: &str = "00ff00ff00ff00ff";
const OPTION_PAIR: &str = "US_OPTION_AAPL251219C00200000_USD";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// The rule ids of a result, in reported order (empty when valid).
fn rules<T>(r: Result<T, ValidationError>) -> Vec<&'static str> {
    match r {
        Ok(_) => Vec::new(),
        Err(e) => e.issues.iter().map(|i| i.rule).collect(),
    }
}

/// `(rule, field, got)` of every issue.
fn keys(e: &ValidationError) -> Vec<(&'static str, &'static str, String)> {
    e.issues
        .iter()
        .map(|i| (i.rule, i.field, i.got.clone()))
        .collect()
}

/// The value of a valid result; panics with the issues otherwise.
#[track_caller]
fn ok<T>(r: Result<T, ValidationError>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => panic!("expected valid, got {e}"),
    }
}

/// The issues of an invalid result.
#[track_caller]
fn err<T: Debug>(r: Result<T, ValidationError>) -> Vec<ValidationIssue> {
    match r {
        Ok(v) => panic!("expected invalid, got {v:?}"),
        Err(e) => e.issues,
    }
}

/// Asserts exactly one issue, with this rule, field and got.
#[track_caller]
fn assert_one<T: Debug>(r: Result<T, ValidationError>, rule: &str, field: &str, got: &str) {
    let issues = err(r);
    assert_eq!(issues.len(), 1, "expected only `{rule}`, got {issues:#?}");
    let i = &issues[0];
    assert_eq!(
        (i.rule, i.field, i.got.as_str()),
        (rule, field, got),
        "unexpected issue {i:#?}"
    );
}

/// Percent-decodes what `percent_encode` produced.
fn percent_decode(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            out.push(u8::from_str_radix(&text[i + 1..i + 3], 16).expect("hex escape"));
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("utf-8")
}

/// The parameters as a server receives them: `to_query()` pairs, and the path parameters
/// read back from `path()` against the endpoint's path template.
fn raw_of<P: Request>(p: &P) -> RawParams {
    let mut raw = RawParams::from_pairs(p.to_query());
    let path = p.path();
    let template: Vec<&str> = P::ENDPOINT.path.split('/').collect();
    let actual: Vec<&str> = path.split('/').collect();
    assert_eq!(
        template.len(),
        actual.len(),
        "{path} vs {}",
        P::ENDPOINT.path
    );
    for (t, a) in template.iter().zip(&actual) {
        match t.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
            Some(name) => raw = raw.with_path(name, percent_decode(a)),
            None => assert_eq!(t, a, "fixed path segment"),
        }
    }
    raw
}

/// The query string a client sends: every value percent-encoded.
fn query_string<P: Request>(p: &P) -> String {
    p.to_query()
        .iter()
        .map(|(name, value)| format!("{name}={}", percent_encode(value)))
        .collect::<Vec<_>>()
        .join("&")
}

/// `validate()`, cross-checked against `from_raw()` of the serialized parameters: both must
/// report the same issues (rule, field, got), and a valid value must parse back unchanged.
#[track_caller]
fn check<P: Request + Debug + PartialEq>(p: &P) -> Result<(), ValidationError> {
    let validated = p.validate();
    let parsed = P::from_raw(&raw_of(p));
    match (&validated, &parsed) {
        (Ok(()), Ok(back)) => assert_eq!(back, p, "from_raw(to_query()) changed the parameters"),
        (Err(a), Err(b)) => assert_eq!(keys(a), keys(b), "validate() and from_raw() disagree"),
        _ => panic!("validate() gave {validated:?} but from_raw() gave {parsed:?}"),
    }
    validated
}

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

/// Pattern or format probes: every `good` value is valid, every `bad` one breaks `rule` alone.
#[track_caller]
fn probe_text(
    field: &str,
    rule: &str,
    good: &[&str],
    bad: &[&str],
    check: impl Fn(&str) -> Result<(), ValidationError>,
) {
    for g in good {
        if let Err(e) = check(g) {
            panic!("`{g}` should be a valid {field}: {e}");
        }
    }
    for b in bad {
        assert_one(check(b), rule, field, b);
    }
}

fn raw(query: &str) -> RawParams {
    RawParams::from_query_string(query)
}

// Baseline valid parameter values of each endpoint.

fn dividends() -> StockDividendsParams {
    StockDividendsParams::new("AAPL", T0, T0 + 90 * DAY, TimeType::RecordDate)
}
fn commentary() -> PersonCommentaryParams {
    PersonCommentaryParams::new(UUID, T0, T0 + DAY)
}
fn non_us() -> NonUsKlineParams {
    NonUsKlineParams::new("0700.HK", T0, T0 + 30 * DAY)
}
fn perp() -> PerpKlineParams {
    PerpKlineParams::new("BTC", Interval::OneHour, T0, T0 + DAY)
}
fn kline(pair: &str, interval: Interval) -> MarketKlineParams {
    MarketKlineParams::new(pair, interval)
}
fn forex() -> ForexHistoricalParams {
    ForexHistoricalParams::new("EURUSD", T0, T0 + 30 * DAY)
}
fn etf() -> EtfFlowParams {
    EtfFlowParams::new("SPY", T0, T0 + 30 * DAY)
}
fn nand() -> NandFlashSpotPriceParams {
    NandFlashSpotPriceParams::new(NandItem::Mlc128Gb16Gbx8, T0, T0 + 30 * DAY)
}
#[allow(deprecated)]
fn index_1min() -> mrds_model::params::Index1minParams {
    mrds_model::params::Index1minParams::new("^GSPC", T0, T0 + DAY)
}

// ---------------------------------------------------------------------------------------------
// Range order (end_time > start_time) of every endpoint with a range
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Research units: doc_id, kind, idx
// ---------------------------------------------------------------------------------------------

#[test]
fn research_idx_requires_kind() {
    // idx without kind: invalid.
    assert_one(
        check(&ResearchUnitsParams::new(DOC_ID).with_idx(3)),
        "research_units.idx_requires_kind",
        "idx",
        "3",
    );
    assert_one(
        check(&ResearchUnitsParams::new(DOC_ID).with_idx(0)),
        "research_units.idx_requires_kind",
        "idx",
        "0",
    );
    // idx with kind: valid.
    for kind in UnitKind::ALL {
        ok(check(
            &ResearchUnitsParams::new(DOC_ID)
                .with_kind(kind.clone())
                .with_idx(3),
        ));
        ok(check(
            &ResearchUnitsParams::new(DOC_ID).with_kind(kind.clone()),
        ));
    }
    // neither: valid.
    ok(check(&ResearchUnitsParams::new(DOC_ID)));
}

#[test]
fn research_invalid_kind_with_idx_reports_only_the_kind() {
    let q = format!("doc_id={DOC_ID}&kind=table&idx=1");
    assert_one(
        ResearchUnitsParams::from_raw(&raw(&q)),
        "research_units.kind.values",
        "kind",
        "table",
    );
    // validate() on the same values:
    assert_one(
        ResearchUnitsParams::new(DOC_ID)
            .with_kind(UnitKind::Unknown("table".into()))
            .with_idx(1)
            .validate(),
        "research_units.kind.values",
        "kind",
        "table",
    );
}

// ---------------------------------------------------------------------------------------------
// Company detail: at least one of symbol and name_kw
// ---------------------------------------------------------------------------------------------

#[test]
fn company_detail_symbol_or_name() {
    ok(check(
        &CompanyDetailParams::new()
            .with_symbol("AAPL")
            .with_name_kw("apple"),
    ));
    ok(check(&CompanyDetailParams::new().with_symbol("AAPL")));
    ok(check(&CompanyDetailParams::new().with_name_kw("apple")));
    assert_one(
        check(&CompanyDetailParams::new()),
        "company_detail.symbol_or_name",
        "symbol",
        "",
    );
    assert_one(
        check(&CompanyDetailParams::default()),
        "company_detail.symbol_or_name",
        "symbol",
        "",
    );
    assert_one(
        CompanyDetailParams::from_raw(&RawParams::default()),
        "company_detail.symbol_or_name",
        "symbol",
        "",
    );
    // Unknown parameters do not count as either.
    assert_one(
        CompanyDetailParams::from_raw(&raw("name=apple&sym=AAPL")),
        "company_detail.symbol_or_name",
        "symbol",
        "",
    );
}

// ---------------------------------------------------------------------------------------------
// Treasury rates: end_time requires start_time
// ---------------------------------------------------------------------------------------------

#[test]
fn treasury_end_time_requires_start_time() {
    ok(check(&TreasuryRatesParams::new()));
    ok(check(&TreasuryRatesParams::default()));
    ok(check(&TreasuryRatesParams::new().with_start_time(T0)));
    ok(check(
        &TreasuryRatesParams::new()
            .with_start_time(T0)
            .with_end_time(T0 + 1),
    ));
    assert_one(
        check(&TreasuryRatesParams::new().with_end_time(T0)),
        "treasury_rates.end_requires_start",
        "end_time",
        &T0.to_string(),
    );
    assert_one(
        TreasuryRatesParams::from_raw(&raw(&format!("end_time={T0}"))),
        "treasury_rates.end_requires_start",
        "end_time",
        &T0.to_string(),
    );
    let parsed = ok(TreasuryRatesParams::from_raw(&RawParams::default()));
    assert_eq!(parsed, TreasuryRatesParams::new());
}

#[test]
fn treasury_bad_start_time_is_not_reported_as_missing() {
    assert_one(
        TreasuryRatesParams::from_raw(&raw(&format!("start_time=abc&end_time={T0}"))),
        "treasury_rates.start_time.type",
        "start_time",
        "abc",
    );
}

// ---------------------------------------------------------------------------------------------
// Unified kline: trading pair, option symbol, intervals per pair kind, RFC 3339 times
// ---------------------------------------------------------------------------------------------

#[test]
fn unified_kline_trading_pair_shape() {
    probe_text(
        "trading_pair",
        "market_kline.trading_pair.pattern",
        &[
            "BINANCE_SPOT_BTC_USDT",
            "BINANCE_PERP_BTC_USDT",
            "HYPERLIQUID_SPOT_HYPE_USDC",
            "HYPERLIQUID_PERP_BTC_USDC",
            "US_SPOT_AAPL_USD",
            "US_SPOT_SPY_USD",
            "US_SPOT_SPX_USD",
            "A_SPOT_B_C",
            "X1_PERP_1000PEPE_USDT",
        ],
        &[
            "us_spot_aapl_usd",   // lowercase
            "US_SPOT_aapl_USD",   // lowercase symbol
            "US_spot_AAPL_USD",   // lowercase type
            "US_SPOT_AAPL",       // three parts
            "SPOT_AAPL_USD",      // three parts
            "US_SPOT_AAPL_USD_X", // five parts
            "BINANCE_SWAP_BTC_USDT",
            "BINANCE_SPOTS_BTC_USDT",
            "US__AAPL_USD",
            "US_SPOT__USD",
            "US_SPOT_AAPL_",
            "_SPOT_AAPL_USD",
            "US-SPOT-AAPL-USD",
            "US_SPOT_BRK.B_USD",
            "US_SPOT_AAPL_USD ",
            "",
        ],
        |pair| check(&kline(pair, Interval::OneDay)),
    );
}

#[test]
fn unified_kline_option_symbol() {
    for pair in [
        OPTION_PAIR,
        "US_OPTION_AAPL251219P00200000_USD",
        "US_OPTION_A251219C00000001_USD",
        "US_OPTION_ABCDEF251219C00200000_USD",
        "US_OPTION_SPY260116P00450000_USD",
    ] {
        for interval in Interval::ALL {
            ok(check(&kline(pair, *interval)));
        }
    }
    probe_text(
        "trading_pair",
        "market_kline.option_symbol",
        &[OPTION_PAIR],
        &[
            "US_OPTION_AAPL_USD",                   // no expiry, side, strike
            "US_OPTION_AAPL251219X00200000_USD",    // side not C/P
            "US_OPTION_AAPL25121C00200000_USD",     // five-digit expiry
            "US_OPTION_AAPL2512190C00200000_USD",   // seven-digit expiry
            "US_OPTION_AAPL251219C0020000_USD",     // seven-digit strike
            "US_OPTION_AAPL251219C002000000_USD",   // nine-digit strike
            "US_OPTION_ABCDEFG251219C00200000_USD", // seven-letter underlying
            "US_OPTION_251219C00200000_USD",        // no underlying
            "US_OPTION_AAPL251219C00200000P_USD",
            "US_OPTION_00200000C251219AAPL_USD",
        ],
        |pair| check(&kline(pair, Interval::OneDay)),
    );
    // A lowercase option pair breaks the shape, and its symbol is no option symbol either.
    assert_eq!(
        rules(check(&kline(
            "US_OPTION_aapl251219c00200000_USD",
            Interval::OneDay
        ))),
        [
            "market_kline.trading_pair.pattern",
            "market_kline.option_symbol"
        ]
    );
}

#[test]
fn unified_kline_future_and_fx_are_daily_only() {
    for interval in Interval::ALL {
        let future = check(&kline("CME_FUTURE_GC_USD", *interval));
        let fx = check(&kline("FX_SPOT_EURUSD_USD", *interval));
        if *interval == Interval::OneDay {
            ok(future);
            ok(fx);
        } else {
            assert_one(
                future,
                "market_kline.future_daily_only",
                "interval",
                interval.as_str(),
            );
            assert_one(
                fx,
                "market_kline.fx_daily_only",
                "interval",
                interval.as_str(),
            );
        }
    }
    // The ones named in the brief.
    assert_one(
        check(&kline("COMEX_FUTURE_SI_USD", Interval::FiveMinutes)),
        "market_kline.future_daily_only",
        "interval",
        "5min",
    );
    assert_one(
        check(&kline("FX_SPOT_JPY_USD", Interval::FiveMinutes)),
        "market_kline.fx_daily_only",
        "interval",
        "5min",
    );
}

#[test]
fn unified_kline_other_pairs_take_every_interval() {
    for pair in [
        "US_SPOT_AAPL_USD",
        "BINANCE_SPOT_BTC_USDT",
        "BINANCE_PERP_ETH_USDT",
        "HYPERLIQUID_SPOT_HYPE_USDC",
        "HYPERLIQUID_PERP_BTC_USDC",
        // FX only as a market of a SPOT pair; a crypto venue whose name starts with FX is not.
        "FXCM_SPOT_BTC_USD",
    ] {
        for interval in Interval::ALL {
            ok(check(&kline(pair, *interval)));
        }
    }
    ok(check(&kline("US_SPOT_AAPL_USD", Interval::FiveMinutes)));
    for session in Session::ALL {
        ok(check(
            &kline("BINANCE_SPOT_BTC_USDT", Interval::OneMinute).with_session(*session),
        ));
    }
}

#[test]
fn unified_kline_rfc3339_times() {
    let good = [
        "2026-07-01T00:00:00Z",
        "2026-07-01T00:00:00.250Z",
        "2026-07-01T02:00:00+02:00",
        "2026-06-30T19:00:00-05:00",
        "2026-07-01t00:00:00z",
        "2028-02-29T00:00:00Z",
        "1970-01-01T00:00:00Z",
    ];
    let bad = [
        "2026-07-01",
        "2026-07-01T00:00:00",
        "2026-07-01 00:00",
        "1782864000",
        "yesterday",
        "2026-13-01T00:00:00Z",
        "2026-02-29T00:00:00Z",
        "2026-07-01T24:00:00Z",
        "2026-07-01T00:60:00Z",
        "2026-07-01T00:00:00+2:00",
        "2026-07-01T00:00:00.Z",
        "2026-07-01T00:00:00Zjunk",
        "",
    ];
    probe_text(
        "start_time",
        "market_kline.start_time.format",
        &good,
        &bad,
        |t| check(&kline("US_SPOT_AAPL_USD", Interval::OneHour).with_start_time(t)),
    );
    probe_text(
        "end_time",
        "market_kline.end_time.format",
        &good,
        &bad,
        |t| check(&kline("US_SPOT_AAPL_USD", Interval::OneHour).with_end_time(t)),
    );
    // Both bad: both reported, and no order issue.
    assert_eq!(
        rules(check(
            &kline("US_SPOT_AAPL_USD", Interval::OneHour)
                .with_start_time("soon")
                .with_end_time("later")
        )),
        [
            "market_kline.start_time.format",
            "market_kline.end_time.format"
        ]
    );
}

#[test]
fn unified_kline_offset_plus_must_be_percent_encoded_in_a_query_string() {
    // `+` in a query string is a space (form encoding); `%2B` is the plus sign.
    let parsed = ok(MarketKlineParams::from_raw(&raw(
        "trading_pair=US_SPOT_AAPL_USD&interval=1d&start_time=2026-07-01T02:00:00%2B02:00",
    )));
    assert_eq!(
        parsed.start_time.as_deref(),
        Some("2026-07-01T02:00:00+02:00")
    );
    assert_one(
        MarketKlineParams::from_raw(&raw(
            "trading_pair=US_SPOT_AAPL_USD&interval=1d&start_time=2026-07-01T02:00:00+02:00",
        )),
        "market_kline.start_time.format",
        "start_time",
        "2026-07-01T02:00:00 02:00",
    );
}

#[test]
fn unified_kline_range_order() {
    let k = |start: &str, end: &str| {
        check(
            &kline("US_SPOT_AAPL_USD", Interval::OneHour)
                .with_start_time(start)
                .with_end_time(end),
        )
    };
    ok(k("2026-07-01T00:00:00Z", "2026-07-01T00:00:01Z"));
    ok(k("2026-07-01T00:00:00Z", "2026-07-02T00:00:00Z"));
    assert_one(
        k("2026-07-01T00:00:00Z", "2026-07-01T00:00:00Z"),
        "market_kline.range_order",
        "end_time",
        "2026-07-01T00:00:00Z",
    );
    assert_one(
        k("2026-07-01T00:00:00Z", "2026-06-30T23:59:59Z"),
        "market_kline.range_order",
        "end_time",
        "2026-06-30T23:59:59Z",
    );
    // Compared as instants, not as text.
    assert_one(
        k("2026-07-01T02:00:00+02:00", "2026-07-01T00:00:00Z"),
        "market_kline.range_order",
        "end_time",
        "2026-07-01T00:00:00Z",
    );
    ok(k("2026-07-01T02:00:00+02:00", "2026-07-01T00:00:01Z"));
    assert_one(
        k("2026-07-01T00:00:00Z", "2026-07-01T01:00:00+02:00"),
        "market_kline.range_order",
        "end_time",
        "2026-07-01T01:00:00+02:00",
    );
    // Either one alone is fine.
    ok(check(
        &kline("US_SPOT_AAPL_USD", Interval::OneHour).with_start_time("2026-07-01T00:00:00Z"),
    ));
    ok(check(
        &kline("US_SPOT_AAPL_USD", Interval::OneHour).with_end_time("2026-07-01T00:00:00Z"),
    ));
}

// ---------------------------------------------------------------------------------------------
// Per-parameter patterns and formats
// ---------------------------------------------------------------------------------------------

#[test]
fn dividends_symbol_takes_dot_or_hyphen_share_classes() {
    probe_text(
        "symbol",
        "stock_dividends.symbol.pattern",
        &[
            "AAPL",
            "BRK.B",
            "BRK-B",
            "brk.b",
            "A",
            "ABCDEFGHIJ",
            "ABCDEFGHIJ.ABCD",
            "RDS-A",
        ],
        &[
            "BRK_B",
            "BRK B",
            "BRK/B",
            "BRK.B.C",
            "BRK.",
            ".B",
            "BRK.ABCDE",
            "ABCDEFGHIJK",
            "AAPL\n",
            "",
        ],
        |s| {
            check(&StockDividendsParams::new(
                s,
                T0,
                T0 + DAY,
                TimeType::RecordDate,
            ))
        },
    );
    for tt in TimeType::ALL {
        ok(check(&StockDividendsParams::new(
            "BRK.B",
            T0,
            T0 + DAY,
            *tt,
        )));
    }
}

#[test]
#[allow(deprecated)]
fn index_symbol_with_or_without_caret() {
    probe_text(
        "symbol",
        "index_1min.symbol.pattern",
        &[
            "^GSPC",
            "GSPC",
            "^DJI",
            "ABCDEFGHIJKLMNO",
            "^ABCDEFGHIJKLMNO",
            "^N225",
            "HSI.HK",
        ],
        &[
            "^^GSPC",
            "^",
            "GSPC^",
            "GS PC",
            "ABCDEFGHIJKLMNOP",
            "^ABCDEFGHIJKLMNOP",
            "",
        ],
        |s| check(&mrds_model::params::Index1minParams::new(s, T0, T0 + DAY)),
    );
}

// ---------------------------------------------------------------------------------------------
// from_raw: required, repeated, type, values, unknown parameters, defaults
// ---------------------------------------------------------------------------------------------

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
    let e = MarketKlineParams::from_raw(&raw(
        "interval=5min&interval=1h&start_time=2026-07-02T00:00:00Z&end_time=2026-07-01T00:00:00Z&limit=10001&session=XYZ",
    ))
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

// ---------------------------------------------------------------------------------------------
// to_query / path round trips
// ---------------------------------------------------------------------------------------------

/// `to_query()` and `path()` read back with `from_raw` give the same parameters, both from
/// decoded pairs and from a percent-encoded query string; `path()` is the endpoint's path.
#[track_caller]
fn round_trip<P: Request + Debug + PartialEq>(p: &P) {
    ok(p.validate());
    assert_eq!(P::ENDPOINT.method, "GET");
    let names: Vec<&str> = p.to_query().iter().map(|(n, _)| *n).collect();
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "a parameter twice in {names:?}");

    let from_pairs = ok(P::from_raw(&raw_of(p)));
    assert_eq!(&from_pairs, p, "through RawParams::from_pairs");

    let qs = query_string(p);
    let mut raw = RawParams::from_query_string(&qs);
    for (name, value) in raw_path_params(p) {
        raw = raw.with_path(name, value);
    }
    let from_qs = ok(P::from_raw(&raw));
    assert_eq!(&from_qs, p, "through the query string {qs}");

    if !P::ENDPOINT.path.contains('{') {
        assert_eq!(p.path(), P::ENDPOINT.path);
    }
}

fn raw_path_params<P: Request>(p: &P) -> Vec<(String, String)> {
    let path = p.path();
    P::ENDPOINT
        .path
        .split('/')
        .zip(path.split('/'))
        .filter_map(|(t, a)| {
            let name = t.strip_prefix('{')?.strip_suffix('}')?;
            Some((name.to_string(), percent_decode(a)))
        })
        .collect()
}

#[test]
#[allow(deprecated)]
fn to_query_round_trips_for_every_endpoint() {
    round_trip(&CompanyDetailParams::new().with_symbol("BRK.B"));
    round_trip(&CompanyDetailParams::new().with_name_kw("腾讯 控股 & co=1+2"));
    round_trip(
        &CompanyDetailParams::new()
            .with_symbol("AAPL")
            .with_name_kw("apple"),
    );
    round_trip(&EquityOfferingParams::new());
    round_trip(
        &EquityOfferingParams::new()
            .with_limit(1000)
            .with_offset(12_345),
    );
    round_trip(&etf());
    round_trip(&forex());
    round_trip(&forex().with_sort_order(SortOrder::Asc));
    round_trip(&index_1min());
    round_trip(&index_1min().with_limit(500));
    round_trip(&LeverageRatioParams::new("BTC"));
    round_trip(
        &LeverageRatioParams::new("BTC")
            .with_start_time(T0)
            .with_end_time(T0 + DAY)
            .with_time_field(TimeField::ObservedAt)
            .with_limit(1000),
    );
    round_trip(&kline("US_SPOT_AAPL_USD", Interval::FiveMinutes));
    round_trip(
        &kline(OPTION_PAIR, Interval::OneMinute)
            .with_start_time("2026-07-01T00:00:00+02:00")
            .with_end_time("2026-07-02T00:00:00.5Z")
            .with_limit(10_000)
            .with_session(Session::Rth),
    );
    round_trip(&kline("FX_SPOT_EURUSD_USD", Interval::OneDay));
    for item in NandItem::ALL {
        round_trip(&NandFlashSpotPriceParams::new(*item, T0, T0 + DAY));
    }
    round_trip(&nand());
    round_trip(&non_us());
    round_trip(&non_us().with_interval(Interval::OneMonth).with_limit(1));
    round_trip(&perp());
    round_trip(&perp().with_limit(10_000));
    round_trip(&commentary());
    round_trip(&commentary().with_limit(500).with_offset(40));
    round_trip(&ResearchUnitsParams::new(DOC_ID));
    round_trip(
        &ResearchUnitsParams::new(DOC_ID)
            .with_kind(UnitKind::Exhibit)
            .with_idx(0),
    );
    for event in ScreenerEventType::ALL {
        round_trip(&ScreenerEventsParams::new(event.clone(), T0, T0 + YEAR_366));
    }
    round_trip(&SsrParams::new("BTC").with_start_time(T0).with_limit(1));
    round_trip(&dividends());
    round_trip(
        &StockDividendsParams::new("BRK-B", 0, 1, TimeType::DeclarationDate).with_limit(1000),
    );
    round_trip(&TreasuryRatesParams::new());
    round_trip(&TreasuryRatesParams::new().with_start_time(T0));
    round_trip(
        &TreasuryRatesParams::new()
            .with_start_time(T0)
            .with_end_time(T0 + DAY),
    );
}

#[test]
#[allow(deprecated)]
fn to_query_is_in_documented_order_and_paths_match_the_spec() {
    let names = |q: Vec<(&'static str, String)>| q.into_iter().map(|(n, _)| n).collect::<Vec<_>>();
    assert_eq!(
        names(dividends().to_query()),
        ["symbol", "start_time", "end_time", "time_type", "limit"]
    );
    assert_eq!(
        dividends().to_query(),
        [
            ("symbol", "AAPL".to_string()),
            ("start_time", T0.to_string()),
            ("end_time", (T0 + 90 * DAY).to_string()),
            ("time_type", "RECORD_DATE".to_string()),
            ("limit", "50".to_string()),
        ]
    );
    assert_eq!(
        names(
            kline("US_SPOT_AAPL_USD", Interval::OneDay)
                .with_start_time("2026-07-01T00:00:00Z")
                .to_query()
        ),
        ["trading_pair", "interval", "start_time", "limit", "session"]
    );
    assert_eq!(
        names(commentary().to_query()),
        ["start_time", "end_time", "limit", "offset"]
    );
    assert_eq!(
        names(TreasuryRatesParams::new().to_query()),
        Vec::<&str>::new()
    );
    assert_eq!(
        ScreenerEventsParams::new(ScreenerEventType::IpoDate, T0, T0 + 1).to_query()[0],
        ("event_type", "IPO Date".to_string())
    );
    assert_eq!(
        nand().to_query()[0],
        ("item", "MLC 128Gb 16GBx8".to_string())
    );

    assert_eq!(dividends().path(), "/v1/stocks/dividends");
    assert_eq!(
        CompanyDetailParams::new().path(),
        "/v1/stocks/company/detail"
    );
    assert_eq!(
        ScreenerEventsParams::new(ScreenerEventType::IpoDate, T0, T0 + 1).path(),
        "/v1/stocks/screener/events"
    );
    assert_eq!(
        ResearchUnitsParams::new(DOC_ID).path(),
        "/v1/stocks/research/units"
    );
    assert_eq!(
        TreasuryRatesParams::new().path(),
        "/v1/macro/treasury-rates"
    );
    assert_eq!(etf().path(), "/v1/etf/flow");
    assert_eq!(non_us().path(), "/v1/stocks/non-us/kline");
    assert_eq!(forex().path(), "/v1/macro/forex/historical");
    assert_eq!(perp().path(), "/v1/crypto/hyperliquid/perp/usdc/kline");
    assert_eq!(
        LeverageRatioParams::new("BTC").path(),
        "/v1/crypto/metrics/leverage-ratio"
    );
    assert_eq!(SsrParams::new("BTC").path(), "/v1/crypto/metrics/ssr");
    assert_eq!(
        EquityOfferingParams::new().path(),
        "/v1/stocks/equity-offering"
    );
    assert_eq!(
        nand().path(),
        "/v1/other/semiconductor/nand-flash-spot-price"
    );
    assert_eq!(index_1min().path(), "/v1/macro/index/1min");
    assert_eq!(
        kline(OPTION_PAIR, Interval::OneDay).path(),
        "/v1/market/kline"
    );
    assert_eq!(
        commentary().path(),
        format!("/v1/persons/{UUID}/commentary")
    );
    assert!(
        mrds_model::params::Index1minParams::ENDPOINT
            .removed
            .is_some(),
        "the removed endpoint's parameters point at the removed entry"
    );
}

#[test]
fn person_id_path_is_percent_encoded() {
    assert_eq!(
        PersonCommentaryParams::new("a b/c?d#e", T0, T0 + 1).path(),
        "/v1/persons/a%20b%2Fc%3Fd%23e/commentary"
    );
    assert_eq!(
        PersonCommentaryParams::new("ü%", T0, T0 + 1).path(),
        "/v1/persons/%C3%BC%25/commentary"
    );
    assert_eq!(
        PersonCommentaryParams::new("../x", T0, T0 + 1).path(),
        "/v1/persons/..%2Fx/commentary"
    );
    // A valid UUID needs no escaping and reads back unchanged.
    let p = commentary();
    assert_eq!(p.path(), format!("/v1/persons/{UUID}/commentary"));
    let segment = p.path().split('/').nth(3).unwrap().to_string();
    let back = ok(PersonCommentaryParams::from_raw(
        &RawParams::from_pairs(p.to_query()).with_path("person_id", percent_decode(&segment)),
    ));
    assert_eq!(back, p);
    // An escaped id decodes back to the same (invalid) text, reported as such.
    let p = PersonCommentaryParams::new("a b/c", T0, T0 + 1);
    assert_one(
        check(&p),
        "person_commentary.person_id.format",
        "person_id",
        "a b/c",
    );
}

// ---------------------------------------------------------------------------------------------
// The error object
// ---------------------------------------------------------------------------------------------

#[test]
fn validation_error_to_error_object() {
    let q = format!(
        "symbol=BRK_B&start_time={}&end_time={T0}&time_type=RECORD_DATE&limit=0",
        T0 + 10
    );
    let e = StockDividendsParams::from_raw(&raw(&q)).unwrap_err();
    assert_eq!(e.issues.len(), 3);
    let obj: mrds_model::ErrorObject = e.to_error_object();
    assert_eq!(obj.code, ErrorCode::InvalidParameter);
    assert_eq!(obj.code.http_status(), Some(400));
    assert_eq!(obj.message, "3 invalid parameters");
    assert_eq!(obj.details.len(), e.issues.len());
    for (detail, issue) in obj.details.iter().zip(&e.issues) {
        assert_eq!(detail.field, issue.field);
        assert_eq!(detail.got, issue.got);
        assert!(
            detail.reason.contains(issue.rule),
            "reason `{}` does not name `{}`",
            detail.reason,
            issue.rule
        );
        assert!(detail.reason.contains(&issue.reason));
        assert_eq!(detail.reason, issue.detail_reason());
    }
    assert_eq!(obj.details[0].field, "symbol");
    assert_eq!(obj.details[0].got, "BRK_B");
    assert!(
        obj.details[0]
            .reason
            .contains("stock_dividends.symbol.pattern")
    );
    assert_eq!(obj.details[2].field, "end_time");
    assert_eq!(obj.details[2].got, T0.to_string());
    assert!(
        obj.details[2]
            .reason
            .contains("stock_dividends.range_order")
    );
    assert_eq!(obj.docs_url, None);
    assert_eq!(obj.hint, None);
    assert!(obj.examples.is_empty() && obj.suggestions.is_empty());

    // As JSON: the wire code, one details entry per issue, nothing empty.
    let json = serde_json::to_value(&obj).unwrap();
    assert_eq!(json["code"], "INVALID_PARAMETER");
    assert_eq!(json["details"].as_array().unwrap().len(), 3);
    assert_eq!(json["details"][1]["field"], "limit");
    assert_eq!(json["details"][1]["got"], "0");
    assert!(
        json["details"][1]["reason"]
            .as_str()
            .unwrap()
            .contains("stock_dividends.limit.range")
    );
    let members: Vec<&String> = json.as_object().unwrap().keys().collect();
    assert_eq!(members, ["code", "details", "message"], "{json}");

    // One issue: singular message; a missing parameter has an empty `got`.
    let e = MarketKlineParams::from_raw(&raw("trading_pair=US_SPOT_AAPL_USD")).unwrap_err();
    let obj: mrds_model::ErrorObject = e.to_error_object();
    assert_eq!(obj.message, "1 invalid parameter");
    assert_eq!(obj.details.len(), 1);
    assert_eq!(obj.details[0].field, "interval");
    assert_eq!(obj.details[0].got, "");
    assert!(
        obj.details[0]
            .reason
            .contains("market_kline.interval.required")
    );
}

#[test]
fn validation_error_breaks_and_display() {
    let e = StockDividendsParams::new("BRK_B", T0 + 10, T0, TimeType::RecordDate)
        .with_limit(0)
        .validate()
        .unwrap_err();
    assert!(e.breaks("stock_dividends.symbol.pattern"));
    assert!(e.breaks("stock_dividends.limit.range"));
    assert!(e.breaks("stock_dividends.range_order"));
    assert!(!e.breaks("stock_dividends.limit"));
    assert!(!e.breaks("stock_dividends.time_type.values"));
    assert!(!e.breaks("non_us_kline.range_order"));
    let text = e.to_string();
    for issue in &e.issues {
        assert!(text.contains(issue.rule), "{text}");
        assert!(text.contains(issue.field), "{text}");
    }
    assert!(ValidationError::check(Vec::new()).is_ok());
    assert_eq!(
        rules(ValidationError::check(vec![ValidationIssue::new(
            "x.y.range",
            "y",
            "0",
            "must be positive"
        )])),
        ["x.y.range"]
    );
}
