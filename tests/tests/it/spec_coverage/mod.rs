//! The real spec under `spec/` says what the interface description says, and what the spec
//! assumes where it says "not shown": every endpoint, record, value set, rule, error code and
//! history row the service documents or the project decided is there, as documented.
//!
//! These are facts of the description, checked to be present: none pins a count or an exact
//! list, so the spec can follow the provider (an endpoint, a field, a value, a history row
//! added) without a change here. By subject:
//!
//! - [`service`]: the base path, key header and envelope, the endpoints (their records, which
//!   need a key, the removed one, sample data), the error codes, the change history, and where
//!   the spec defines each thing;
//! - [`records_and_value_sets`]: the records and their fields, the value sets and their wire
//!   values, which are tolerant;
//! - [`parameters`]: every endpoint's parameters, and which of them are decisions (assumed);
//! - [`cross_parameter_rules`]: every rule across parameters, by id, kind and condition.
//!
//! This module holds what they share: the loaded spec, the description's endpoints, and the
//! assertions that something is present (in order).

mod cross_parameter_rules;
mod parameters;
mod records_and_value_sets;
mod service;

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::OnceLock;

use mrds_codegen::model::{Api, Endpoint, Literal};

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
