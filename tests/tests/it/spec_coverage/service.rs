//! The service as the description gives it: base path, key header and envelope; the endpoints
//! (each path's record, which need a key, the removed one, sample data for the sample server);
//! the error codes and their statuses; the change history; and where the spec defines each
//! thing, for reports that point back at it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use mrds_codegen::model::{AuthMode, ChangeAction, Provenance, TypeRef};

use super::{ENDPOINT_PATHS, api, described, endpoint, in_order, set, subset};

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
