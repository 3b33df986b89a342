//! Every rule across parameters the service states, by id, kind and condition: start before
//! end on exactly the endpoints with a range, and every rule id prefixed by its endpoint.

use std::collections::BTreeMap;

use mrds_spec::model::{Condition, Equal, Requirement};

use super::{api, described, literal};

/// One rule in one line: its check, then its condition (inputs by their names).
fn describe_rule(e: &mrds_spec::model::Endpoint, r: &mrds_spec::model::Rule) -> String {
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
    // Each rule as described, or as a release since acknowledges it (by its id).
    for (id, rule) in &expected {
        let endpoint = id.split('.').next().unwrap_or_default();
        if (super::DESCRIBED_ENDPOINTS.iter()).any(|(e, _)| *e == endpoint)
            && super::described_endpoint(endpoint).is_none()
        {
            continue;
        }
        super::same_or_acknowledged(id, Some(rule), actual.get(id));
    }

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
