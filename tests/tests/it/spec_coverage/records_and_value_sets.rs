//! The records and their fields (in order), and the value sets with their wire values, of which
//! the ones record fields use are tolerant of unknown values and the others strict.

use std::collections::{BTreeMap, BTreeSet};

use super::{api, in_order_or_acknowledged, set, subset};

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
        in_order_or_acknowledged(name, &actual, expected);
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
        in_order_or_acknowledged(name, &have, &values);
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
