//! The real spec under `spec/` says what the interface description says, and what the spec
//! assumes where it says "not shown": every endpoint, record, value set, rule, error code and
//! history row the service documents or the project decided is there, as documented.
//!
//! These are facts of the description, checked to be present: none pins a count or an exact
//! list, so the spec can follow the provider (an endpoint, a field, a value, a history row
//! added) without a change here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::OnceLock;

use mrds_codegen::model::{
    Api, AuthMode, ChangeAction, Condition, Endpoint, Equal, IntegerFormat, Literal, ParamLocation,
    Provenance, Requirement, TextFormat, TypeRef, ValueType,
};

fn api() -> &'static Api {
    static API: OnceLock<Api> = OnceLock::new();
    API.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
        mrds_codegen::load_spec(&dir).unwrap_or_else(|diags| panic!("spec/ must load:\n{diags}"))
    })
}

fn endpoint(id: &str) -> &'static Endpoint {
    api()
        .endpoints
        .iter()
        .find(|e| e.id == id)
        .unwrap_or_else(|| panic!("no endpoint `{id}`"))
}

fn set<'a>(items: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    items.into_iter().map(str::to_owned).collect()
}

/// Asserts `expected` is in `actual` in the same order (other items may come between).
fn in_order<T: PartialEq + std::fmt::Debug>(actual: &[T], expected: &[T], what: &str) {
    let mut rest = actual.iter();
    for e in expected {
        assert!(
            rest.any(|a| a == e),
            "{what}: {e:?} is missing or out of order in {actual:?}"
        );
    }
}

/// Asserts every item of `expected` is in `actual`.
fn subset(actual: &BTreeSet<String>, expected: &BTreeSet<String>, what: &str) {
    let missing: Vec<&String> = expected.difference(actual).collect();
    assert!(missing.is_empty(), "{what}: missing {missing:?}");
}

/// The endpoints of the interface description.
fn described() -> impl Iterator<Item = &'static Endpoint> {
    api()
        .endpoints
        .iter()
        .filter(|e| ENDPOINT_PATHS.contains(&e.path.to_string().as_str()))
}

fn literal(l: &Literal) -> String {
    match l {
        Literal::String(s) => s.clone(),
        Literal::Integer(n) => n.to_string(),
        Literal::Boolean(b) => b.to_string(),
        Literal::Variant(v) => v.wire.clone(),
    }
}

/// One parameter in one line: `path name*: type (format) min..=max = default`.
fn describe_param(p: &mrds_codegen::model::Param) -> String {
    let mut s = String::new();
    if p.location == ParamLocation::Path {
        s.push_str("path ");
    }
    s.push_str(&p.wire);
    if p.required {
        s.push('*');
    }
    s.push_str(": ");
    match &p.ty {
        ValueType::String(t) => {
            s.push_str("string");
            let format = match t.format {
                Some(TextFormat::Rfc3339) => " (rfc3339)",
                Some(TextFormat::Uuid) => " (uuid)",
                Some(TextFormat::Hex16) => " (hex16)",
                Some(TextFormat::Date) => " (date)",
                None => "",
            };
            s.push_str(format);
        }
        ValueType::Integer(t) => {
            s.push_str("integer");
            if t.format == Some(IntegerFormat::UnixSeconds) {
                s.push_str(" (unix_seconds)");
            }
            if t.min.is_some() || t.max.is_some() {
                let bound = |b: Option<i64>| b.map(|n| n.to_string()).unwrap_or_default();
                s.push_str(&format!(" {}..={}", bound(t.min), bound(t.max)));
            }
        }
        ValueType::Boolean => s.push_str("boolean"),
        ValueType::Enum(e) => s.push_str(&e.name),
    }
    if let Some(d) = &p.default {
        s.push_str(&format!(" = {}", literal(d)));
    }
    s
}

/// One rule in one line: its check, then its condition (inputs by their names).
fn describe_rule(e: &mrds_codegen::model::Endpoint, r: &mrds_codegen::model::Rule) -> String {
    let inputs = api().inputs(e);
    let name = |op| inputs.get(op).map(|i| i.name()).unwrap_or_default();
    let check = match &r.requirement.map(name) {
        Requirement::Ordered {
            before,
            after,
            equal: Equal::Refused,
        } => format!("ordered {before} < {after}"),
        Requirement::Ordered {
            before,
            after,
            equal: Equal::Allowed,
        } => format!("ordered {before} <= {after}"),
        Requirement::MaxSpan { from, to, seconds } => {
            format!("max_span {to} - {from} <= {seconds}")
        }
        Requirement::Requires { param, needs } => format!("requires {param} -> {needs}"),
        Requirement::AtLeastOne(names) => format!("at_least_one [{}]", names.join(", ")),
        Requirement::AllowedValues { param, values } => format!(
            "allowed_values {param} in [{}]",
            values.iter().map(literal).collect::<Vec<_>>().join(", ")
        ),
        Requirement::Matches { param, pattern } => format!("matches {param} ~ {pattern}"),
    };
    match &r.when.as_ref().map(|c| c.map(name)) {
        None => check,
        Some(Condition::In { param, values }) => format!(
            "{check} when {param} in [{}]",
            values.iter().map(literal).collect::<Vec<_>>().join(", ")
        ),
        Some(Condition::Matches { param, pattern }) => {
            format!("{check} when {param} ~ {pattern}")
        }
    }
}

const ENDPOINT_PATHS: &[&str] = &[
    "/v1/persons/{person_id}/commentary",
    "/v1/stocks/dividends",
    "/v1/stocks/company/detail",
    "/v1/stocks/screener/events",
    "/v1/stocks/research/units",
    "/v1/macro/treasury-rates",
    "/v1/etf/flow",
    "/v1/stocks/non-us/kline",
    "/v1/macro/forex/historical",
    "/v1/crypto/hyperliquid/perp/usdc/kline",
    "/v1/crypto/metrics/leverage-ratio",
    "/v1/crypto/metrics/ssr",
    "/v1/stocks/equity-offering",
    "/v1/other/semiconductor/nand-flash-spot-price",
    "/v1/macro/index/1min",
    "/v1/market/kline",
];

#[test]
fn service_basics() {
    let api = api();
    assert_eq!(api.base_path, "/api");
    assert_eq!(api.auth.header, "X-API-Key");
    let records: Vec<_> = api
        .envelope
        .fields
        .iter()
        .filter(|f| f.ty == TypeRef::Records)
        .map(|f| (f.wire.as_str(), f.array, f.optional))
        .collect();
    assert_eq!(
        records,
        [("data", true, false)],
        "`data` carries the records"
    );
    let envelope: Vec<_> = api
        .envelope
        .fields
        .iter()
        .map(|f| f.wire.as_str())
        .collect();
    in_order(
        &envelope,
        &[
            "success",
            "request_id",
            "data",
            "error",
            "metadata",
            "pagination",
        ],
        "the envelope's fields",
    );
}

#[test]
fn the_sixteen_endpoints() {
    let api = api();
    let paths: BTreeSet<String> = api.endpoints.iter().map(|e| e.path.to_string()).collect();
    subset(&paths, &set(ENDPOINT_PATHS.iter().copied()), "paths");
    assert_eq!(paths.len(), api.endpoints.len(), "one endpoint per path");

    // Which record each returns, by its name in the interface description.
    let returns: BTreeMap<String, &str> = described()
        .map(|e| {
            let record = api.returns(e);
            (e.path.to_string(), record.spec_name.as_str())
        })
        .collect();
    let expected: BTreeMap<String, &str> = [
        ("/v1/persons/{person_id}/commentary", "PersonCommentary"),
        ("/v1/stocks/dividends", "PITDividend"),
        ("/v1/stocks/company/detail", "CompanyProfile"),
        ("/v1/stocks/screener/events", "ScreenerEvent"),
        ("/v1/stocks/research/units", "ResearchUnit"),
        ("/v1/macro/treasury-rates", "TreasuryRate"),
        ("/v1/etf/flow", "ETFFlow"),
        ("/v1/stocks/non-us/kline", "NonUSBar"),
        ("/v1/macro/forex/historical", "ForexBar"),
        ("/v1/crypto/hyperliquid/perp/usdc/kline", "Candle"),
        ("/v1/crypto/metrics/leverage-ratio", "LeverageRatio"),
        ("/v1/crypto/metrics/ssr", "SSR"),
        ("/v1/stocks/equity-offering", "EquityOffering"),
        (
            "/v1/other/semiconductor/nand-flash-spot-price",
            "NandSpotPrice",
        ),
        ("/v1/macro/index/1min", "IndexBar1Min"),
        ("/v1/market/kline", "Candle"),
    ]
    .into_iter()
    .map(|(path, record)| (path.to_string(), record))
    .collect();
    assert_eq!(returns, expected);
}

#[test]
fn auth_is_required_except_commentary_and_unified_kline() {
    let optional: BTreeSet<String> = described()
        .filter(|e| e.auth == AuthMode::Optional)
        .map(|e| e.id.clone())
        .collect();
    assert_eq!(optional, set(["person_commentary", "market_kline"]));
    for e in described() {
        match e.auth {
            AuthMode::Required => {}
            AuthMode::Optional => assert!(
                e.auth_provenance.is_assumed(),
                "{}: the description leaves its key requirement open",
                e.id
            ),
        }
    }
}

#[test]
fn the_records() {
    let names: BTreeSet<String> = api().records.iter().map(|r| r.spec_name.clone()).collect();
    subset(
        &names,
        &set([
            "PITDividend",
            "CompanyProfile",
            "ScreenerEvent",
            "ResearchUnit",
            "TreasuryRate",
            "ETFFlow",
            "NonUSBar",
            "ForexBar",
            "Candle",
            "LeverageRatio",
            "SSR",
            "EquityOffering",
            "NandSpotPrice",
            "IndexBar1Min",
            "PersonCommentary",
            "ErrorObject",
            "ErrorDetail",
        ]),
        "records",
    );
    let fields = |name: &str| -> Vec<String> {
        api()
            .records
            .iter()
            .find(|r| r.spec_name == name)
            .unwrap_or_else(|| panic!("no record {name}"))
            .fields
            .iter()
            .map(|f| f.wire.clone())
            .collect()
    };
    let fields = |name: &str, expected: &[&str]| {
        let actual = fields(name);
        let actual: Vec<&str> = actual.iter().map(String::as_str).collect();
        in_order(&actual, expected, name);
    };
    fields("ErrorDetail", &["field", "got", "reason"]);
    fields(
        "ErrorObject",
        &[
            "code",
            "message",
            "details",
            "docs_url",
            "examples",
            "hint",
            "suggestions",
        ],
    );
    fields(
        "Candle",
        &[
            "price_open",
            "price_high",
            "price_low",
            "price_close",
            "volume",
            "time_open",
            "time_close",
        ],
    );
}

#[test]
fn the_value_sets_and_their_wire_values() {
    let actual: BTreeMap<String, Vec<String>> = api()
        .value_sets
        .iter()
        .map(|v| {
            (
                v.name.clone(),
                v.values.iter().map(|x| x.wire.clone()).collect(),
            )
        })
        .collect();
    let expected: BTreeMap<String, Vec<String>> = [
        (
            "Interval",
            &[
                "1min", "5min", "15min", "30min", "1h", "4h", "1d", "1w", "1m",
            ][..],
        ),
        (
            "TimeType",
            &["RECORD_DATE", "PAYMENT_DATE", "DECLARATION_DATE"],
        ),
        ("UnitKind", &["section", "exhibit"]),
        ("SourceKind", &["own", "transcript", "interview"]),
        ("PublishedAtSource", &["page", "fetch"]),
        ("OwnChannelVerified", &["author", "channel", "unverified"]),
        ("SortOrder", &["asc", "desc"]),
        ("Session", &["RTH", "ETH"]),
        ("TimeField", &["DATE", "OBSERVED_AT"]),
        (
            "ScreenerEventType",
            &["IPO Date", "Split Date", "Earnings Date"],
        ),
        (
            "NandItem",
            &[
                "MLC 128Gb 16GBx8",
                "MLC 256Gb 32GBx8",
                "MLC 32Gb 4GBx8",
                "MLC 64Gb 8GBx8",
                "SLC 16Gb 2GBx8",
                "SLC 1Gb 128MBx8",
                "SLC 2Gb 256MBx8",
                "SLC 4Gb 512MBx8",
                "SLC 8Gb 1GBx8",
            ],
        ),
        ("InstrumentType", &["SPOT", "PERP", "OPTION", "FUTURE"]),
    ]
    .into_iter()
    .map(|(name, values)| {
        (
            name.to_owned(),
            values.iter().map(|v| v.to_string()).collect(),
        )
    })
    .collect();
    for (name, values) in &expected {
        let values: Vec<&str> = values.iter().map(String::as_str).collect();
        let have = actual
            .get(name)
            .unwrap_or_else(|| panic!("no value set {name}"));
        let have: Vec<&str> = have.iter().map(String::as_str).collect();
        in_order(&have, &values, name);
    }

    // The sets record fields use decode unknown values; the others are strict.
    let tolerant: BTreeSet<String> = api()
        .value_sets
        .iter()
        .filter(|v| v.tolerant)
        .map(|v| v.name.clone())
        .collect();
    subset(
        &tolerant,
        &set([
            "ScreenerEventType",
            "UnitKind",
            "SourceKind",
            "PublishedAtSource",
            "OwnChannelVerified",
        ]),
        "tolerant value sets",
    );
    for set in ["Interval", "TimeType", "SortOrder", "Session", "NandItem"] {
        assert!(
            !tolerant.contains(set),
            "{set} is read by no record: strict"
        );
    }
}

/// The parameters of every endpoint of the description (`*` = required), as it documents or
/// the decisions assume them.
fn described_params() -> BTreeMap<&'static str, Vec<String>> {
    let unix = |name: &str, required: bool| {
        format!(
            "{name}{}: integer (unix_seconds)",
            if required { "*" } else { "" }
        )
    };
    let range = |required: bool| vec![unix("start_time", required), unix("end_time", required)];
    let with = |mut head: Vec<String>, tail: &[&str]| {
        head.extend(tail.iter().map(|s| s.to_string()));
        head
    };
    let lead = |first: &[&str], rest: Vec<String>| {
        let mut v: Vec<String> = first.iter().map(|s| s.to_string()).collect();
        v.extend(rest);
        v
    };
    let metrics = lead(
        &["symbol*: string"],
        with(
            range(false),
            &["time_field: TimeField = DATE", "limit: integer 1..=1000"],
        ),
    );
    let expected: BTreeMap<&str, Vec<String>> = [
        (
            "person_commentary",
            lead(
                &["path person_id*: string (uuid)"],
                with(
                    range(true),
                    &["limit: integer 1..=500 = 50", "offset: integer 0..= = 0"],
                ),
            ),
        ),
        (
            "stock_dividends",
            lead(
                &["symbol*: string"],
                with(
                    range(true),
                    &["time_type*: TimeType", "limit: integer 1..=1000 = 50"],
                ),
            ),
        ),
        (
            "company_detail",
            lead(&["symbol: string", "name_kw: string"], vec![]),
        ),
        (
            "screener_events",
            lead(&["event_type*: ScreenerEventType"], range(true)),
        ),
        (
            "research_units",
            lead(
                &[
                    "doc_id*: string (hex16)",
                    "kind: UnitKind",
                    "idx: integer 0..=",
                ],
                vec![],
            ),
        ),
        ("treasury_rates", range(false)),
        ("etf_flow", lead(&["symbol*: string"], range(true))),
        (
            "non_us_kline",
            lead(
                &["symbol*: string"],
                with(
                    range(true),
                    &["interval: Interval = 1d", "limit: integer 1..=10000 = 500"],
                ),
            ),
        ),
        (
            "forex_historical",
            lead(
                &["symbol*: string"],
                with(range(true), &["sort_order: SortOrder = desc"]),
            ),
        ),
        (
            "perp_kline",
            lead(
                &["symbol*: string", "interval*: Interval"],
                with(range(true), &["limit: integer 1..=10000 = 500"]),
            ),
        ),
        ("leverage_ratio", metrics.clone()),
        ("ssr", metrics),
        (
            "equity_offering",
            lead(
                &["limit: integer 1..=1000 = 50", "offset: integer 0..= = 0"],
                vec![],
            ),
        ),
        (
            "nand_flash_spot_price",
            lead(&["item*: NandItem"], range(true)),
        ),
        (
            "index_1min",
            lead(
                &["symbol*: string"],
                with(range(true), &["limit: integer 1..=500"]),
            ),
        ),
        (
            "market_kline",
            lead(
                &[
                    "trading_pair*: string",
                    "interval*: Interval",
                    "start_time: string (rfc3339)",
                    "end_time: string (rfc3339)",
                    "limit: integer 1..=10000 = 500",
                    "session: Session = ETH",
                ],
                vec![],
            ),
        ),
    ]
    .into_iter()
    .collect();
    expected
}

/// The wire name in a line of [`described_params`] (`path person_id*: ...` → `person_id`).
fn described_name(line: &str) -> &str {
    let line = line.strip_prefix("path ").unwrap_or(line);
    line.split([':', '*']).next().unwrap_or(line)
}

/// The parameters of every endpoint of the description, in order (the spec may add more).
#[test]
fn the_parameters_of_every_endpoint() {
    for (id, expected) in described_params() {
        let actual: Vec<String> = endpoint(id).params.iter().map(describe_param).collect();
        in_order(&actual, &expected, id);
    }

    // Patterns the decisions state outright.
    let pattern = |id: &str, param: &str| {
        endpoint(id)
            .param_named(param)
            .and_then(|p| match &p.ty {
                ValueType::String(t) => t.pattern.as_ref().map(|p| p.source().to_owned()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{id}.{param} has no pattern"))
    };
    assert_eq!(pattern("leverage_ratio", "symbol"), "^BTC$");
    assert_eq!(pattern("ssr", "symbol"), "^BTC$");
    assert_eq!(pattern("forex_historical", "symbol"), "^[A-Z]{6}$");
    assert_eq!(
        pattern("non_us_kline", "symbol"),
        r"^[A-Za-z0-9]{1,12}\.[A-Z]{1,4}$"
    );
    assert_eq!(
        pattern("market_kline", "trading_pair"),
        "^[A-Z0-9]+_(SPOT|PERP|OPTION|FUTURE)_[A-Z0-9]+_[A-Z0-9]+$"
    );
}

/// Every cross-parameter rule the service states, by id, kind and condition.
#[test]
fn the_cross_parameter_rules() {
    let actual: BTreeMap<String, String> = described()
        .flat_map(|e| {
            e.rules
                .iter()
                .map(move |r| (r.id.clone(), describe_rule(e, r)))
        })
        .collect();
    let order = "ordered start_time < end_time";
    let mut expected: BTreeMap<String, String> = [
        "person_commentary",
        "stock_dividends",
        "screener_events",
        "treasury_rates",
        "etf_flow",
        "non_us_kline",
        "forex_historical",
        "perp_kline",
        "leverage_ratio",
        "ssr",
        "nand_flash_spot_price",
        "index_1min",
        "market_kline",
    ]
    .into_iter()
    .map(|id| (format!("{id}.range_order"), order.to_owned()))
    .collect();
    expected.extend(
        [
            (
                "screener_events.max_span",
                "max_span end_time - start_time <= 31622400 when event_type in [Split Date, Earnings Date]",
            ),
            (
                "research_units.idx_requires_kind",
                "requires idx -> kind",
            ),
            (
                "company_detail.symbol_or_name",
                "at_least_one [symbol, name_kw]",
            ),
            (
                "treasury_rates.end_requires_start",
                "requires end_time -> start_time",
            ),
            (
                "market_kline.future_daily_only",
                "allowed_values interval in [1d] when trading_pair ~ ^[A-Z0-9]+_FUTURE_",
            ),
            (
                "market_kline.fx_daily_only",
                "allowed_values interval in [1d] when trading_pair ~ ^FX_SPOT_",
            ),
            (
                "market_kline.option_symbol",
                "matches trading_pair ~ ^[A-Z0-9]+_OPTION_[A-Z]{1,6}[0-9]{6}[CP][0-9]{8}_[A-Z0-9]+$ when trading_pair ~ ^[A-Z0-9]+_OPTION_",
            ),
        ]
        .into_iter()
        .map(|(id, rule)| (id.to_owned(), rule.to_owned())),
    );
    assert_eq!(actual, expected, "the rules of the description's endpoints");

    // "Start before end" holds on exactly the endpoints that take a range.
    for e in described() {
        let has_range =
            e.param_named("start_time").is_some() && e.param_named("end_time").is_some();
        let inputs = api().inputs(e);
        let ordered = e.rules.iter().any(|r| {
            let named = r
                .requirement
                .map(|op| inputs.get(op).map(|i| i.name()).unwrap_or_default());
            named
                == Requirement::Ordered {
                    before: "start_time".to_owned(),
                    after: "end_time".to_owned(),
                    equal: Equal::Refused,
                }
                && r.when.is_none()
        });
        assert_eq!(has_range, ordered, "{}: range without order rule", e.id);
    }

    // Every rule id is prefixed by its endpoint.
    for e in &api().endpoints {
        for r in &e.rules {
            assert!(
                r.id.starts_with(&format!("{}.", e.id)),
                "rule {} of {}",
                r.id,
                e.id
            );
        }
    }
}

#[test]
fn the_removed_endpoint() {
    let removed: Vec<_> = described()
        .filter_map(|e| {
            e.removed
                .as_ref()
                .map(|r| (e.path.to_string(), r.date.as_str(), r.version.as_str()))
        })
        .collect();
    assert_eq!(
        removed,
        [("/v1/macro/index/1min".to_string(), "2026-07-29", "v0.10.43")]
    );
    assert_eq!(
        endpoint("index_1min").path.to_string(),
        "/v1/macro/index/1min"
    );
}

#[test]
fn the_error_codes() {
    let codes: Vec<(&str, u16)> = api()
        .error_codes
        .iter()
        .map(|c| (c.code.as_str(), c.status))
        .collect();
    in_order(
        &codes,
        &[
            ("INVALID_PARAMETER", 400),
            ("UNAUTHORIZED", 401),
            ("RESOURCE_NOT_FOUND", 404),
            ("ENDPOINT_REMOVED", 410),
            ("RATE_LIMITED", 429),
            ("INTERNAL_ERROR", 500),
            ("NOT_IMPLEMENTED", 501),
        ],
        "error codes",
    );
    // Only "not found" is documented; the rest of the table is assumed.
    for c in &api().error_codes {
        let documented = c.provenance == Provenance::Documented;
        match c.code.as_str() {
            "RESOURCE_NOT_FOUND" => assert!(documented),
            "INVALID_PARAMETER" | "UNAUTHORIZED" | "ENDPOINT_REMOVED" | "RATE_LIMITED"
            | "INTERNAL_ERROR" | "NOT_IMPLEMENTED" => assert!(!documented, "{}", c.code),
            _ => {}
        }
    }
}

#[test]
fn the_change_history() {
    let history = &api().history;
    let rows: Vec<(&str, Vec<&str>)> = history
        .iter()
        .map(|h| {
            (
                h.date.as_str(),
                h.versions.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    let expected: Vec<(&str, Vec<&str>)> = vec![
        ("2026-09-09", vec!["v0.10.102"]),
        ("2026-09-08", vec!["v0.10.98"]),
        ("2026-09-04", vec!["v0.10.93"]),
        ("2026-08-26", vec!["v0.10.79"]),
        ("2026-08-20", vec!["v0.10.69"]),
        ("2026-08-18", vec!["v0.10.65"]),
        ("2026-08-13", vec!["v0.10.58"]),
        ("2026-08-12", vec!["v0.10.56"]),
        ("2026-07-29", vec!["v0.10.43"]),
        ("2026-07-10", vec!["v0.10.18"]),
        ("2026-07-08", vec!["v0.10.15", "v0.10.16"]),
        ("2026-06-30", vec!["v0.10.8", "v0.10.9"]),
        ("2026-06-26", vec!["v0.10.3"]),
        ("2026-06-22", vec!["v0.9.6"]),
        ("2026-06-15", vec!["v0.8.10"]),
    ];
    in_order(&rows, &expected, "history rows");
    assert!(
        history.windows(2).all(|w| w[0].date > w[1].date),
        "newest first, one row per date"
    );

    // The removal row of the removed endpoint.
    let removals: BTreeSet<String> = history
        .iter()
        .find(|h| h.date == "2026-07-29")
        .expect("row of 2026-07-29")
        .changes
        .iter()
        .filter(|c| c.action == ChangeAction::Removed && c.method == "GET")
        .map(|c| c.path.clone())
        .collect();
    assert_eq!(
        removals,
        set([
            "/v1/macro/commodity/1min",
            "/v1/macro/forex/1min",
            "/v1/macro/index/1min",
        ])
    );
}

/// What the interface description leaves open is marked assumed, with its reason.
#[test]
fn decisions_are_marked_assumed() {
    let assumed = |id: &str, param: &str| {
        endpoint(id)
            .param_named(param)
            .unwrap_or_else(|| panic!("no parameter {id}.{param}"))
            .provenance
            .is_assumed()
    };
    // The samples the decisions name first.
    assert!(assumed("screener_events", "event_type"));
    assert!(assumed("research_units", "doc_id"));
    assert!(assumed("perp_kline", "interval"));

    // Of the description's parameters, exactly those whose name or required flag is "not
    // shown" are assumed.
    let actual: BTreeSet<String> = described_params()
        .into_iter()
        .flat_map(|(id, params)| {
            params
                .iter()
                .map(|line| described_name(line).to_owned())
                .filter(|name| assumed(id, name))
                .map(|name| format!("{id}.{name}"))
                .collect::<Vec<_>>()
        })
        .collect();
    let metrics = ["symbol", "start_time", "end_time", "time_field", "limit"];
    let mut expected = set([
        "person_commentary.limit",
        "person_commentary.offset",
        "screener_events.event_type",
        "screener_events.start_time",
        "screener_events.end_time",
        "research_units.doc_id",
        "research_units.idx",
        "etf_flow.symbol",
        "etf_flow.start_time",
        "etf_flow.end_time",
        "non_us_kline.symbol",
        "non_us_kline.start_time",
        "non_us_kline.end_time",
        "non_us_kline.limit",
        "forex_historical.symbol",
        "forex_historical.start_time",
        "forex_historical.end_time",
        "perp_kline.interval",
        "perp_kline.end_time",
        "perp_kline.limit",
        "equity_offering.limit",
        "equity_offering.offset",
        "market_kline.interval",
        "market_kline.start_time",
        "market_kline.end_time",
        "market_kline.limit",
        "market_kline.session",
    ]);
    for id in ["leverage_ratio", "ssr"] {
        expected.extend(metrics.iter().map(|p| format!("{id}.{p}")));
    }
    assert_eq!(actual, expected);

    // The venue literal of the perpetual kline path is a decision too.
    assert!(endpoint("perp_kline").provenance.is_assumed());
    // Documented parameters stay documented.
    assert!(!assumed("stock_dividends", "time_type"));
    assert!(!assumed("market_kline", "trading_pair"));
    assert!(!assumed("person_commentary", "person_id"));
}

#[test]
fn every_endpoint_has_sample_data_for_the_sample_server() {
    for e in &api().endpoints {
        let samples = e
            .samples
            .as_ref()
            .unwrap_or_else(|| panic!("endpoint `{}` has no samples", e.id));
        assert!(
            samples.sets.iter().any(|s| s.records_json.len() > 2),
            "endpoint `{}` has no sample records",
            e.id
        );
        let path = samples.example.split('?').next().unwrap();
        assert_eq!(
            path.split('/').count(),
            e.path.segments.len() + 1,
            "the example of `{}` requests its path",
            e.id
        );
    }
    // Lookups of one thing answer 404 when it is not in the sample set.
    let not_found: BTreeSet<String> = described()
        .filter(|e| e.samples.as_ref().is_some_and(|s| s.not_found_when_missing))
        .map(|e| e.id.clone())
        .collect();
    assert_eq!(not_found, set(["person_commentary", "research_units"]));
}

/// The resolved model keeps where the spec defines each thing, for reports that point back at it.
#[test]
fn the_model_knows_where_each_thing_is_defined() {
    // Where the file has them (found in its text, not pinned).
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/endpoints/equity.yaml"),
    )
    .unwrap();
    let line_of = |needle: &str, after: usize| {
        text.lines()
            .enumerate()
            .skip(after)
            .find_map(|(i, l)| l.find(needle).map(|col| (i + 1, col + 1)))
            .unwrap_or_else(|| panic!("equity.yaml has no {needle:?}"))
    };
    let e = endpoint("stock_dividends");
    let (line, col) = line_of("stock_dividends:", 0);
    assert_eq!(
        e.at.to_string(),
        format!("spec/endpoints/equity.yaml:{line}:{col}")
    );
    let limit = e.param_named("limit").expect("a limit");
    let (line, col) = line_of("{ name: limit", line);
    assert_eq!(
        limit.at.to_string(),
        format!("spec/endpoints/equity.yaml:{line}:{col}")
    );
    assert_eq!(e.rules[0].at.file, "spec/endpoints/equity.yaml");
    let record = api()
        .record_named("PitDividend")
        .expect("the dividend record")
        .clone();
    assert_eq!(record.at.file, "spec/records.yaml");
    assert!(
        record
            .fields
            .windows(2)
            .all(|w| w[0].at.line < w[1].at.line)
    );
}
