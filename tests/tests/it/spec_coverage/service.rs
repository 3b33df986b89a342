//! The service as the description gives it: base path, key header and envelope; the endpoints
//! (each path's record, which need a key, the removed one, sample data for the sample server);
//! the error codes and their statuses; the change history; and where the spec defines each
//! thing, for reports that point back at it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use mrds_spec::model::{AuthMode, ChangeAction, Provenance, TypeRef};

use super::{
    DESCRIBED_ENDPOINTS, api, described, described_endpoint, endpoint, in_order, removed_since,
    same_or_acknowledged, set,
};

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
    // Every endpoint of the description is there (a `GET` at its path), unless a release since
    // removed it.
    for (id, path) in DESCRIBED_ENDPOINTS {
        if let Some(e) = described_endpoint(id) {
            assert_eq!(e.path.to_string(), *path, "{id}");
            assert_eq!(e.method, mrds_spec::model::Method::Get, "{id}");
        }
    }

    // Which record each returns, by its name in the interface description.
    let expected: BTreeMap<&str, &str> = [
        ("person_commentary", "PersonCommentary"),
        ("stock_dividends", "PITDividend"),
        ("company_detail", "CompanyProfile"),
        ("screener_events", "ScreenerEvent"),
        ("research_units", "ResearchUnit"),
        ("treasury_rates", "TreasuryRate"),
        ("etf_flow", "ETFFlow"),
        ("non_us_kline", "NonUSBar"),
        ("forex_historical", "ForexBar"),
        ("perp_kline", "Candle"),
        ("leverage_ratio", "LeverageRatio"),
        ("ssr", "SSR"),
        ("equity_offering", "EquityOffering"),
        ("nand_flash_spot_price", "NandSpotPrice"),
        ("index_1min", "IndexBar1Min"),
        ("market_kline", "Candle"),
    ]
    .into_iter()
    .collect();
    for e in described() {
        let record = api.returns(e).spec_name.as_str();
        same_or_acknowledged(&e.id, expected.get(e.id.as_str()).copied(), Some(record));
    }
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

/// The description's removed endpoint is marked removed; one the provider removed since, as a
/// release of the history says; no other.
#[test]
fn the_removed_endpoint() {
    for e in described() {
        let removal = e
            .removed
            .as_ref()
            .map(|r| (r.date.as_str(), r.version.as_str()));
        let path = e.path.to_string();
        match (e.id.as_str(), removal) {
            ("index_1min", removal) => assert_eq!(removal, Some(("2026-07-29", "v0.10.43"))),
            (id, Some((date, version))) => assert!(
                removed_since(e.method, &path)
                    && api()
                        .history
                        .iter()
                        .any(|h| h.date == date && h.versions.iter().any(|v| v == version)),
                "{id} is marked removed on {date} in {version}, but no release since the \
                 description removes it"
            ),
            (_, None) => {}
        }
    }
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
        .filter(|c| c.action == ChangeAction::Removed && c.method == mrds_runtime::Method::Get)
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
