//! The real spec under `spec/` says what the interface description says, and what the spec
//! assumes where it says "not shown": every endpoint, record, value set, rule, error code and
//! history row the service documents or the project decided is there, as documented.
//!
//! These are facts of the description, checked to be present: none pins a count or an exact
//! list, so the spec can follow the provider (an endpoint, a field, a value, a history row
//! added) without a change here. Where the spec differs from a fact of the description (the
//! provider removed an endpoint, retyped a field, narrowed a bound), a release of the spec's
//! history since the description acknowledges it ([`same_or_acknowledged`]): a row removing
//! the endpoint, or naming the subject of the change (`equity_offering.limit`,
//! `CompanyProfile.employees`, the rule id) in `breaking`, as `cargo xtask spec-diff` asks;
//! a difference no release acknowledges fails, naming the row to add. By subject:
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

use mrds_spec::model::{Api, ChangeAction, Endpoint, HistoryEntry, Literal, Method};

fn api() -> &'static Api {
    static API: OnceLock<Api> = OnceLock::new();
    API.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
        mrds_spec::load_spec(&dir).unwrap_or_else(|diags| panic!("spec/ must load:\n{diags}"))
    })
}

fn endpoint(id: &str) -> &'static Endpoint {
    api()
        .endpoints
        .iter()
        .find(|e| e.id == id)
        .unwrap_or_else(|| panic!("no endpoint `{id}`"))
}

/// The newest row of the interface description's change history: the spec's rows after it are
/// the provider's releases the spec follows since.
const DESCRIBED_UNTIL: &str = "2026-09-09";

/// The rows of the spec's history after the description's.
fn since() -> impl Iterator<Item = &'static HistoryEntry> {
    api()
        .history
        .iter()
        .filter(|h| h.date.as_str() > DESCRIBED_UNTIL)
}

/// True when a release since the description acknowledges a change of `subject` (a parameter
/// `endpoint.param`, a field `Record.field`, a rule id, a value `Set.value`): it names the
/// subject in `breaking`.
fn acknowledged(subject: &str) -> bool {
    since().any(|h| h.breaking.iter().any(|b| b == subject))
}

/// True when a release since the description removes `method path`.
fn removed_since(method: Method, path: &str) -> bool {
    since().any(|h| {
        (h.changes.iter())
            .any(|c| c.action == ChangeAction::Removed && c.method == method && c.path == path)
    })
}

/// Asserts the description's fact of `subject` (`described`) is the spec's (`in_spec`), or that
/// a release since the description acknowledges the difference; the failure names the row to
/// add.
#[track_caller]
fn same_or_acknowledged<T: PartialEq + std::fmt::Debug>(subject: &str, described: T, in_spec: T) {
    if described != in_spec && !acknowledged(subject) {
        panic!(
            "{subject}: the interface description says {described:?}, the spec {in_spec:?}; \
             if the provider changed it, add a history row of its release (dated after \
             {DESCRIBED_UNTIL}) with `breaking: [{subject}]`, as `cargo xtask spec-diff` asks; \
             otherwise correct the spec"
        );
    }
}

/// The described endpoint `id`, unless a release since the description removed it from the
/// spec; its absence otherwise fails, naming the row to add.
#[track_caller]
fn described_endpoint(id: &str) -> Option<&'static Endpoint> {
    let found = api().endpoints.iter().find(|e| e.id == id);
    if found.is_none() {
        let (_, path) = (DESCRIBED_ENDPOINTS.iter())
            .find(|(described, _)| *described == id)
            .unwrap_or_else(|| panic!("`{id}` is not an endpoint of the description"));
        assert!(
            removed_since(Method::Get, path),
            "no endpoint `{id}`: if the provider removed GET {path}, add a history row of its \
             release (dated after {DESCRIBED_UNTIL}) with \
             `changes: [{{ action: removed, method: GET, path: {path} }}]`"
        );
    }
    found
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

/// Asserts the items of `expected` (`owner`'s fields, or values) are in `actual` in the same
/// order, but those a release since the description removed (`breaking: [owner.item]`).
#[track_caller]
fn in_order_or_acknowledged(owner: &str, actual: &[&str], expected: &[&str]) {
    let kept: Vec<&str> = (expected.iter().copied())
        .filter(|item| {
            actual.contains(item) || {
                same_or_acknowledged(&format!("{owner}.{item}"), Some(*item), None);
                false
            }
        })
        .collect();
    in_order(actual, &kept, owner);
}

/// Asserts every item of `expected` is in `actual`.
fn subset(actual: &BTreeSet<String>, expected: &BTreeSet<String>, what: &str) {
    let missing: Vec<&String> = expected.difference(actual).collect();
    assert!(missing.is_empty(), "{what}: missing {missing:?}");
}

/// The endpoints of the interface description the spec has (every one, unless a release since
/// the description removed it: [`described_endpoint`]).
fn described() -> impl Iterator<Item = &'static Endpoint> {
    DESCRIBED_ENDPOINTS
        .iter()
        .filter_map(|(id, _)| described_endpoint(id))
}

fn literal(l: &Literal) -> String {
    match l {
        Literal::String(s) => s.clone(),
        Literal::Integer(n) => n.to_string(),
        Literal::Boolean(b) => b.to_string(),
        Literal::Variant(v) => v.wire.clone(),
    }
}

/// The endpoints of the interface description (all `GET`), by the spec's id and their path.
const DESCRIBED_ENDPOINTS: &[(&str, &str)] = &[
    ("person_commentary", "/v1/persons/{person_id}/commentary"),
    ("stock_dividends", "/v1/stocks/dividends"),
    ("company_detail", "/v1/stocks/company/detail"),
    ("screener_events", "/v1/stocks/screener/events"),
    ("research_units", "/v1/stocks/research/units"),
    ("treasury_rates", "/v1/macro/treasury-rates"),
    ("etf_flow", "/v1/etf/flow"),
    ("non_us_kline", "/v1/stocks/non-us/kline"),
    ("forex_historical", "/v1/macro/forex/historical"),
    ("perp_kline", "/v1/crypto/hyperliquid/perp/usdc/kline"),
    ("leverage_ratio", "/v1/crypto/metrics/leverage-ratio"),
    ("ssr", "/v1/crypto/metrics/ssr"),
    ("equity_offering", "/v1/stocks/equity-offering"),
    (
        "nand_flash_spot_price",
        "/v1/other/semiconductor/nand-flash-spot-price",
    ),
    ("index_1min", "/v1/macro/index/1min"),
    ("market_kline", "/v1/market/kline"),
];

/// A difference from the description that no release acknowledges fails, naming the row to add.
#[test]
fn an_unacknowledged_difference_names_the_row_to_add() {
    // A parameter of the spec no release acknowledges a change of (the history may acknowledge
    // any one of them: the subject is taken from what it does not name).
    let subject = (api().endpoints.iter())
        .flat_map(|e| e.params.iter().map(move |p| format!("{}.{}", e.id, p.wire)))
        .find(|subject| !acknowledged(subject))
        .expect("a parameter no release acknowledges");
    let failed = std::panic::catch_unwind(|| {
        same_or_acknowledged(&subject, "1..=1000", "1..=500");
    });
    let message = failed.expect_err("a difference no release acknowledges fails");
    let message = message.downcast_ref::<String>().expect("a message");
    assert!(
        message.contains(&format!("`breaking: [{subject}]`")),
        "{message}"
    );
    assert!(message.contains(DESCRIBED_UNTIL), "{message}");
    // The same fact on both sides needs nothing.
    same_or_acknowledged(&subject, "1..=1000", "1..=1000");
}
