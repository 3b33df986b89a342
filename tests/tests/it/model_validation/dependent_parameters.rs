//! Parameters that depend on one another: a research unit's `idx` needs its `kind`, company
//! detail needs `symbol` or `name_kw`, and treasury rates' `end_time` needs `start_time`.

use mrds_model::params::{CompanyDetailParams, ResearchUnitsParams, TreasuryRatesParams};
use mrds_model::{RawParams, UnitKind};

use super::{DOC_ID, T0, assert_one, check, ok, raw};

// ---------------------------------------------------------------------------------------------
// Research units: doc_id, kind, idx
// ---------------------------------------------------------------------------------------------

#[test]
fn research_idx_requires_kind() {
    // idx without kind: invalid.
    assert_one(
        check(&ResearchUnitsParams::new(DOC_ID).with_idx(3)),
        "research_units.idx_requires_kind",
        "idx",
        "3",
    );
    assert_one(
        check(&ResearchUnitsParams::new(DOC_ID).with_idx(0)),
        "research_units.idx_requires_kind",
        "idx",
        "0",
    );
    // idx with kind: valid.
    for kind in UnitKind::ALL {
        ok(check(
            &ResearchUnitsParams::new(DOC_ID)
                .with_kind(kind.clone())
                .with_idx(3),
        ));
        ok(check(
            &ResearchUnitsParams::new(DOC_ID).with_kind(kind.clone()),
        ));
    }
    // neither: valid.
    ok(check(&ResearchUnitsParams::new(DOC_ID)));
}

#[test]
fn research_invalid_kind_with_idx_reports_only_the_kind() {
    let q = format!("doc_id={DOC_ID}&kind=table&idx=1");
    assert_one(
        ResearchUnitsParams::from_raw(&raw(&q)),
        "research_units.kind.values",
        "kind",
        "table",
    );
    // validate() on the same values:
    assert_one(
        ResearchUnitsParams::new(DOC_ID)
            .with_kind(UnitKind::Unknown("table".into()))
            .with_idx(1)
            .validate(),
        "research_units.kind.values",
        "kind",
        "table",
    );
}

// ---------------------------------------------------------------------------------------------
// Company detail: at least one of symbol and name_kw
// ---------------------------------------------------------------------------------------------

#[test]
fn company_detail_symbol_or_name() {
    ok(check(
        &CompanyDetailParams::new()
            .with_symbol("AAPL")
            .with_name_kw("apple"),
    ));
    ok(check(&CompanyDetailParams::new().with_symbol("AAPL")));
    ok(check(&CompanyDetailParams::new().with_name_kw("apple")));
    assert_one(
        check(&CompanyDetailParams::new()),
        "company_detail.symbol_or_name",
        "symbol",
        "",
    );
    assert_one(
        check(&CompanyDetailParams::default()),
        "company_detail.symbol_or_name",
        "symbol",
        "",
    );
    assert_one(
        CompanyDetailParams::from_raw(&RawParams::default()),
        "company_detail.symbol_or_name",
        "symbol",
        "",
    );
    // Unknown parameters do not count as either.
    assert_one(
        CompanyDetailParams::from_raw(&raw("name=apple&sym=AAPL")),
        "company_detail.symbol_or_name",
        "symbol",
        "",
    );
}

// ---------------------------------------------------------------------------------------------
// Treasury rates: end_time requires start_time
// ---------------------------------------------------------------------------------------------

#[test]
fn treasury_end_time_requires_start_time() {
    ok(check(&TreasuryRatesParams::new()));
    ok(check(&TreasuryRatesParams::default()));
    ok(check(&TreasuryRatesParams::new().with_start_time(T0)));
    ok(check(
        &TreasuryRatesParams::new()
            .with_start_time(T0)
            .with_end_time(T0 + 1),
    ));
    assert_one(
        check(&TreasuryRatesParams::new().with_end_time(T0)),
        "treasury_rates.end_requires_start",
        "end_time",
        &T0.to_string(),
    );
    assert_one(
        TreasuryRatesParams::from_raw(&raw(&format!("end_time={T0}"))),
        "treasury_rates.end_requires_start",
        "end_time",
        &T0.to_string(),
    );
    let parsed = ok(TreasuryRatesParams::from_raw(&RawParams::default()));
    assert_eq!(parsed, TreasuryRatesParams::new());
}

#[test]
fn treasury_bad_start_time_is_not_reported_as_missing() {
    assert_one(
        TreasuryRatesParams::from_raw(&raw(&format!("start_time=abc&end_time={T0}"))),
        "treasury_rates.start_time.type",
        "start_time",
        "abc",
    );
}
