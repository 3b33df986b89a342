//! The parameters of every endpoint of the description (name, location, required, type,
//! format, bounds, default; patterns the decisions state outright), and which of them are
//! decisions, marked assumed.

use std::collections::{BTreeMap, BTreeSet};

use mrds_spec::model::{IntegerFormat, ParamLocation, TextFormat, ValueType};

use super::{described_endpoint, in_order, literal, same_or_acknowledged, set};

/// One parameter in one line: `path name*: type (format) min..=max = default`.
fn describe_param(p: &mrds_spec::model::Param) -> String {
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

/// The parameters of every endpoint of the description, as it documents them, in order (the spec
/// may add more); a parameter the provider changed since, as a release of the history
/// acknowledges. A parameter the spec assumes (a decision, where the description says "not
/// shown") is there, in order; its facts may be revised by evidence in `spec/` alone.
#[test]
fn the_parameters_of_every_endpoint() {
    for (id, expected) in described_params() {
        let Some(e) = described_endpoint(id) else {
            continue;
        };
        let names: Vec<&str> = e.params.iter().map(|p| p.wire.as_str()).collect();
        for line in &expected {
            let name = described_name(line);
            let subject = format!("{id}.{name}");
            let param = e.param_named(name);
            // A fact the spec assumes is the project's decision, which evidence may revise in
            // spec/ alone (it stays marked assumed: `decisions_are_marked_assumed`); what the
            // description documents changes with a release of the provider.
            if param.is_some_and(|p| p.provenance.is_assumed()) {
                continue;
            }
            same_or_acknowledged(&subject, Some(line.clone()), param.map(describe_param));
        }
        let kept: Vec<&str> = (expected.iter().map(|l| described_name(l)))
            .filter(|n| names.contains(n))
            .collect();
        in_order(&names, &kept, id);
    }

    // Patterns the decisions state outright.
    let pattern = |id: &str, param: &str, expected: &str| {
        let Some(e) = described_endpoint(id) else {
            return;
        };
        let in_spec = e.param_named(param).and_then(|p| match &p.ty {
            ValueType::String(t) => t.pattern.as_ref().map(|p| p.source().to_owned()),
            _ => None,
        });
        same_or_acknowledged(&format!("{id}.{param}"), Some(expected.to_owned()), in_spec);
    };
    pattern("leverage_ratio", "symbol", "^BTC$");
    pattern("ssr", "symbol", "^BTC$");
    pattern("forex_historical", "symbol", "^[A-Z]{6}$");
    pattern("non_us_kline", "symbol", r"^[A-Za-z0-9]{1,12}\.[A-Z]{1,4}$");
    pattern(
        "market_kline",
        "trading_pair",
        "^[A-Z0-9]+_(SPOT|PERP|OPTION|FUTURE)_[A-Z0-9]+_[A-Z0-9]+$",
    );
}

/// What the interface description leaves open is marked assumed, with its reason.
#[test]
fn decisions_are_marked_assumed() {
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
    // A parameter gone since (acknowledged by the parameters' test) counts as described.
    let assumed = |id: &str, param: &str| {
        let found = described_endpoint(id).and_then(|e| e.param_named(param));
        match found {
            Some(p) => p.provenance.is_assumed(),
            None => expected.contains(&format!("{id}.{param}")),
        }
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
    assert_eq!(actual, expected);

    // The venue literal of the perpetual kline path is a decision too.
    if let Some(e) = described_endpoint("perp_kline") {
        assert!(e.provenance.is_assumed());
    }
    // Documented parameters stay documented.
    assert!(!assumed("stock_dividends", "time_type"));
    assert!(!assumed("market_kline", "trading_pair"));
    assert!(!assumed("person_commentary", "person_id"));
}
