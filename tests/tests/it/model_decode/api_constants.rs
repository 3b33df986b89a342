//! The API constants (`mrds_model::api`): version, base path, auth header, the endpoints (by
//! id, method and path, with their key requirement) against the spec, the removed endpoint and
//! the change history; and the model crate's dependencies (types only).

use mrds_model::api::{self, Auth, ChangeAction, Removal};

#[test]
fn api_constants() {
    assert_eq!(api::API_VERSION, "1.0");
    assert_eq!(api::BASE_PATH, "/api");
    assert_eq!(api::AUTH_HEADER, "X-API-Key");

    let ids: Vec<&str> = api::ENDPOINTS.iter().map(|e| e.id).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(ids, sorted, "sorted by id, no duplicates");
    // The endpoints of the interface description (the spec may hold more).
    for id in [
        "company_detail",
        "equity_offering",
        "etf_flow",
        "forex_historical",
        "index_1min",
        "leverage_ratio",
        "market_kline",
        "nand_flash_spot_price",
        "non_us_kline",
        "perp_kline",
        "person_commentary",
        "research_units",
        "screener_events",
        "ssr",
        "stock_dividends",
        "treasury_rates",
    ] {
        assert!(ids.contains(&id), "no endpoint {id}");
    }
    let spec = mrds_spec::load_spec(&mrds_tests::workspace_root().join("spec")).unwrap();
    for e in api::ENDPOINTS {
        let method = spec.endpoint_named(e.id).map(|s| s.method);
        assert_eq!(Some(e.method), method, "{}", e.id);
        assert!(e.path.starts_with("/v1/"), "{}", e.path);
        assert!(!e.summary.is_empty());
    }
    let path_of = |id: &str| api::ENDPOINTS.iter().find(|e| e.id == id).unwrap().path;
    assert_eq!(
        path_of("perp_kline"),
        "/v1/crypto/hyperliquid/perp/usdc/kline"
    );
    assert_eq!(
        path_of("person_commentary"),
        "/v1/persons/{person_id}/commentary"
    );
    assert_eq!(path_of("stock_dividends"), "/v1/stocks/dividends");

    // Of the description's endpoints, the key is optional on the commentary and unified kline
    // endpoints only.
    let auth_of = |id: &str| api::ENDPOINTS.iter().find(|e| e.id == id).unwrap().auth;
    assert_eq!(auth_of("market_kline"), Auth::Optional);
    assert_eq!(auth_of("person_commentary"), Auth::Optional);
    assert_eq!(auth_of("stock_dividends"), Auth::Required);
    assert_eq!(auth_of("perp_kline"), Auth::Required);
}

#[test]
#[allow(deprecated)]
fn the_removed_endpoint() {
    let e = api::ENDPOINTS
        .iter()
        .find(|e| e.id == "index_1min")
        .expect("the removed endpoint");
    assert_eq!(*e, api::INDEX_1MIN);
    assert_eq!(e.id, "index_1min");
    assert_eq!(e.path, "/v1/macro/index/1min");
    assert_eq!(e.auth, Auth::Required);
    assert_eq!(
        e.removed,
        Some(Removal {
            date: "2026-07-29",
            version: "v0.10.43"
        })
    );
    // The change history lists the removal on that date.
    let entry = api::HISTORY
        .iter()
        .find(|h| h.date == "2026-07-29")
        .expect("history entry");
    assert_eq!(entry.versions, ["v0.10.43"]);
    assert!(
        entry
            .changes
            .iter()
            .any(|c| c.action == ChangeAction::Removed
                && c.method == mrds_runtime::Method::Get
                && c.path == "/v1/macro/index/1min")
    );
    // ...and its addition earlier.
    let added = api::HISTORY
        .iter()
        .find(|h| h.date == "2026-07-08")
        .expect("history entry");
    assert_eq!(added.versions, ["v0.10.15", "v0.10.16"]);
    assert!(
        added
            .changes
            .iter()
            .any(|c| c.action == ChangeAction::Added && c.path == "/v1/macro/index/1min")
    );
}

#[test]
fn change_history_is_newest_first() {
    let dates: Vec<&str> = api::HISTORY.iter().map(|h| h.date).collect();
    let mut sorted = dates.clone();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(dates, sorted);
    // The description's rows are there: its oldest, and its newest, which removed the news
    // endpoint.
    assert!(dates.contains(&"2026-06-15"));
    let news = api::HISTORY
        .iter()
        .find(|h| h.date == "2026-09-09")
        .expect("the row of 2026-09-09");
    assert_eq!(news.changes[0].path, "/v1/stocks/news");
    assert_eq!(news.changes[0].action, ChangeAction::Removed);
}

/// The model crate is types only: serde and the runtime, with no regular-expression engine (the
/// spec's patterns are automata built at generation), no JSON library (a `type: any` field is
/// the runtime's `JsonValue`; the user picks the serde format) and nothing of HTTP.
#[test]
fn the_model_crate_pulls_no_regex_engine_json_library_or_http() {
    crate::client_tls::assert_default_tree(
        "mrds-model",
        &["mrds-runtime", "serde"],
        &[
            "regex",
            "regex-automata",
            "regex-syntax",
            "serde_json",
            "http",
            "hyper",
            "tokio",
        ],
    );
}
