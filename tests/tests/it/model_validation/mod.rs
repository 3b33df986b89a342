//! Hand-written tests of the generated parameter types (`mrds_model::params`): every rule
//! across parameters (the rule ids of `spec/endpoints/*.yaml`) probed just inside and just
//! outside its bound, and the behaviour a reader should see spelled out (share-class and caret
//! spellings, several problems at once, read problems first, defaults, round trips, the error
//! object). Most probes go through [`check`], which runs `validate()` *and* `from_raw()` on the
//! serialized query and asserts that both agree. Each parameter's own rules (required,
//! repeated, type, values, range, pattern, format) are covered by the cases derived from the
//! resolved model, in `contract`.
//!
//! By subject:
//!
//! - [`ranges`]: start before end on every endpoint with a range, and the screener's maximum
//!   span;
//! - [`dependent_parameters`]: parameters that need or exclude one another (research units,
//!   company detail, treasury rates);
//! - [`market_kline`]: the unified kline's trading pairs, option symbols, intervals per pair
//!   kind and RFC 3339 times;
//! - [`symbol_patterns`]: share-class and caret spellings of symbols;
//! - [`from_raw`]: reading parameters from a request (missing, repeated, unknown, defaults,
//!   several problems at once, their order);
//! - [`round_trips`]: `to_query()` and `path()` read back by `from_raw()`, in the documented
//!   order and on the spec's paths;
//! - [`error_object`]: a `ValidationError` as the service's error object, and its display.
//!
//! This module holds what they share: the constants, the checks that cross `validate()` with
//! `from_raw()`, and a valid baseline of each endpoint's parameters.

mod dependent_parameters;
mod error_object;
mod from_raw;
mod market_kline;
mod ranges;
mod round_trips;
mod symbol_patterns;

pub(crate) use round_trips::generated_cases;

use std::fmt::Debug;

use mrds_model::params::{
    EtfFlowParams, ForexHistoricalParams, MarketKlineParams, NandFlashSpotPriceParams,
    NonUsKlineParams, PerpKlineParams, PersonCommentaryParams, StockDividendsParams,
};
use mrds_model::{
    Interval, NandItem, RawParams, Request, TimeType, ValidationError, ValidationIssue,
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
fn keys(e: &ValidationError) -> Vec<(&'static str, &str, String)> {
    e.issues
        .iter()
        .map(|i| (i.rule, &*i.field, i.got.clone()))
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
        (i.rule, &*i.field, i.got.as_str()),
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

// Baseline valid parameter values of each endpoint; a range within what the spec's rules
// allow (`mrds_tests::range_within`), so a bound the spec takes on stays valid here.

/// The end of a baseline range of `endpoint` from `T0`: `days` days, or what its rules allow.
fn until(endpoint: &str, days: i64) -> i64 {
    T0 + mrds_tests::range_within(endpoint, days * DAY)
}

fn dividends() -> StockDividendsParams {
    StockDividendsParams::new(
        "AAPL",
        T0,
        until("stock_dividends", 90),
        TimeType::RecordDate,
    )
}
fn commentary() -> PersonCommentaryParams {
    PersonCommentaryParams::new(UUID, T0, T0 + DAY)
}
fn non_us() -> NonUsKlineParams {
    NonUsKlineParams::new("0700.HK", T0, until("non_us_kline", 30))
}
fn perp() -> PerpKlineParams {
    PerpKlineParams::new("BTC", Interval::OneHour, T0, T0 + DAY)
}
fn kline(pair: &str, interval: Interval) -> MarketKlineParams {
    MarketKlineParams::new(pair, interval)
}
fn forex() -> ForexHistoricalParams {
    ForexHistoricalParams::new("EURUSD", T0, until("forex_historical", 30))
}
fn etf() -> EtfFlowParams {
    EtfFlowParams::new("SPY", T0, until("etf_flow", 30))
}
fn nand() -> NandFlashSpotPriceParams {
    NandFlashSpotPriceParams::new(
        NandItem::Mlc128Gb16Gbx8,
        T0,
        until("nand_flash_spot_price", 30),
    )
}
#[allow(deprecated)]
fn index_1min() -> mrds_model::params::Index1minParams {
    mrds_model::params::Index1minParams::new("^GSPC", T0, T0 + DAY)
}
