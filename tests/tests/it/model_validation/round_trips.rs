//! `to_query()` and `path()` read back with `from_raw()` for every endpoint (from decoded pairs
//! and from a percent-encoded query string), the documented order of the query, the spec's
//! paths, and a path parameter percent-encoded; and, over requests drawn from the spec for
//! every endpoint, the parameters read back as the client sends them and the client, the
//! server and the generator agreeing on every rule.

use std::fmt::Debug;

use mrds_model::params::{
    CompanyDetailParams, EquityOfferingParams, LeverageRatioParams, NandFlashSpotPriceParams,
    PersonCommentaryParams, ResearchUnitsParams, ScreenerEventsParams, SsrParams,
    StockDividendsParams, TreasuryRatesParams,
};
use mrds_model::runtime::text::percent_encode;
use mrds_model::{
    Interval, NandItem, RawParams, Request, ScreenerEventType, Session, SortOrder, TimeField,
    TimeType, UnitKind,
};
use mrds_tests::fuzz::endpoints::{self, Typed};
use mrds_tests::fuzz::generate;
use mrds_tests::spec_gen::Rng;

use super::{
    DAY, DOC_ID, OPTION_PAIR, T0, UUID, YEAR_366, assert_one, check, commentary, dividends, etf,
    forex, index_1min, kline, nand, non_us, ok, percent_decode, perp, raw_of,
};

/// The query string a client sends: every value percent-encoded.
fn query_string<P: Request>(p: &P) -> String {
    p.to_query()
        .iter()
        .map(|(name, value)| format!("{name}={}", percent_encode(value)))
        .collect::<Vec<_>>()
        .join("&")
}

/// `to_query()` and `path()` read back with `from_raw` give the same parameters, both from
/// decoded pairs and from a percent-encoded query string; `path()` is the endpoint's path.
#[track_caller]
/// The largest value the spec allows `param` of `endpoint`: the bound is the spec's, not this
/// test's.
fn max(endpoint: &str, param: &str) -> i64 {
    mrds_tests::integer_bounds(endpoint, param).1
}

fn round_trip<P: Request + Debug + PartialEq>(p: &P) {
    ok(p.validate());
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
            .with_limit(max("equity_offering", "limit"))
            .with_offset(12_345),
    );
    round_trip(&etf());
    round_trip(&forex());
    round_trip(&forex().with_sort_order(SortOrder::Asc));
    round_trip(&index_1min());
    round_trip(&index_1min().with_limit(max("index_1min", "limit")));
    round_trip(&LeverageRatioParams::new("BTC"));
    round_trip(
        &LeverageRatioParams::new("BTC")
            .with_start_time(T0)
            .with_end_time(T0 + DAY)
            .with_time_field(TimeField::ObservedAt)
            .with_limit(max("leverage_ratio", "limit")),
    );
    round_trip(&kline("US_SPOT_AAPL_USD", Interval::FiveMinutes));
    round_trip(
        &kline(OPTION_PAIR, Interval::OneMinute)
            .with_start_time("2026-07-01T00:00:00+02:00")
            .with_end_time("2026-07-02T00:00:00.5Z")
            .with_limit(max("market_kline", "limit"))
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
    round_trip(&perp().with_limit(max("perp_kline", "limit")));
    round_trip(&commentary());
    round_trip(
        &commentary()
            .with_limit(max("person_commentary", "limit"))
            .with_offset(40),
    );
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
        &StockDividendsParams::new("BRK-B", 0, 1, TimeType::DeclarationDate)
            .with_limit(max("stock_dividends", "limit")),
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

// ---------------------------------------------------------------- over generated requests

/// The seed and the number of requests per endpoint of the properties over generated
/// requests: `MRDS_PROPERTY_SEED`, `MRDS_PROPERTY_CASES` for another draw or a longer run
/// (`MRDS_PROPERTY_CASES=5000 cargo test -p mrds-tests --test it over_generated`).
pub(crate) fn generated_cases() -> (u64, usize) {
    let number = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let cases = number("MRDS_PROPERTY_CASES", 120);
    (
        number("MRDS_PROPERTY_SEED", 20_261_127),
        usize::try_from(cases).expect("a count"),
    )
}

/// Runs `property` over generated requests of every endpoint (`mrds_tests::fuzz::generate`:
/// the contract suite's requests with parameters changed), reached through the generated
/// model's `visit_requests`.
fn over_generated_requests(property: impl Fn(&Typed, &RawParams)) {
    let (seed, cases) = generated_cases();
    let mut rng = Rng::new(seed);
    for typed in endpoints::all() {
        let endpoint = mrds_tests::real_spec()
            .endpoint_named(typed.endpoint.id)
            .expect("every endpoint of the table is in the spec");
        for raw in generate::requests(endpoint, &mut rng, cases) {
            property(typed, &raw);
        }
    }
}

/// Encoded and decoded, every parameter type over generated requests: what `from_raw`
/// accepts, `validate()` accepts and reads back from the client's request as the same
/// parameters; the parameters as received without their checks read back alike.
#[test]
fn every_parameter_type_reads_back_what_the_client_sends_over_generated_requests() {
    over_generated_requests(|typed, raw| (typed.read_back)(raw));
}

/// The client and the server agree on every rule over generated requests: the client's
/// `validate()` of the parameters (out of range, breaking rules) and the server's `from_raw`
/// of the request the client sends for them name the same rules; and the generator's own
/// judgement of a request (`Endpoint::problems`) names the rules `from_raw` names.
#[test]
fn the_client_the_server_and_the_generator_agree_on_every_rule_over_generated_requests() {
    over_generated_requests(|typed, raw| {
        (typed.agreed)(raw);
        (typed.judged)(raw);
    });
}
