//! Value sets: every value set's wire names (display, parsing, serde), the spellings readers
//! look for, request-only sets strict in serde, and record sets tolerant of unknown values.

use mrds_model::{
    ErrorCode, InstrumentType, Interval, NandItem, OwnChannelVerified, PublishedAtSource,
    ScreenerEventType, Session, SortOrder, SourceKind, TimeField, TimeType, UnitKind,
};
use serde_json::{Value, json};

/// For a value set: `WIRE` holds the values the interface description lists (the provider may
/// add more), one per value of `ALL`; every value of `ALL` displays as, parses from, serializes
/// to and deserializes from its wire name; strict `FromStr` rejects `$bad`.
macro_rules! value_set {
    ($t:ty, [$($wire:expr),+ $(,)?], bad: [$($bad:expr),+ $(,)?]) => {{
        let expected: &[&str] = &[$($wire),+];
        for wire in expected {
            assert!(<$t>::WIRE.contains(wire), "{} lacks {wire}", stringify!($t));
        }
        assert_eq!(<$t>::ALL.len(), <$t>::WIRE.len(), "ALL of {}", stringify!($t));
        for (value, wire) in <$t>::ALL.iter().zip(<$t>::WIRE) {
            assert_eq!(value.to_string(), *wire);
            assert_eq!(value.as_str(), *wire);
            assert_eq!(&wire.parse::<$t>().unwrap(), value);
            let json = serde_json::to_value(value).unwrap();
            assert_eq!(json, Value::String(wire.to_string()));
            assert_eq!(&serde_json::from_value::<$t>(json).unwrap(), value);
        }
        // Values the spec does not have, as the spec stands (a release may add one).
        let bad: Vec<String> = [$($bad),+]
            .into_iter()
            .map(|b: &str| match b.trim().is_empty() {
                true => b.to_string(),
                false => mrds_tests::unknown_value(stringify!($t), b),
            })
            .collect();
        for bad in &bad {
            let bad = bad.as_str();
            let e = bad.parse::<$t>().unwrap_err();
            assert_eq!(e.got, bad);
            assert_eq!(e.set, stringify!($t));
            assert_eq!(e.expected, <$t>::WIRE);
            let text = e.to_string();
            assert!(text.contains(bad) && text.contains(expected[0]), "{text}");
        }
    }};
}

#[test]
fn every_value_set_round_trips_through_its_wire_names() {
    value_set!(
        Interval,
        ["1min", "5min", "15min", "30min", "1h", "4h", "1d", "1w", "1m"],
        bad: ["2h", "1M", "1D", "daily", "", " 1d"]
    );
    value_set!(
        TimeType,
        ["RECORD_DATE", "PAYMENT_DATE", "DECLARATION_DATE"],
        bad: ["EX_DATE", "record_date", "RECORD DATE"]
    );
    value_set!(UnitKind, ["section", "exhibit"], bad: ["table", "Section", ""]);
    value_set!(
        SourceKind,
        ["own", "transcript", "interview"],
        bad: ["podcast", "OWN", "reported"]
    );
    value_set!(PublishedAtSource, ["page", "fetch"], bad: ["header", "Page"]);
    value_set!(
        OwnChannelVerified,
        ["author", "channel", "unverified"],
        bad: ["handle", "verified"]
    );
    value_set!(SortOrder, ["asc", "desc"], bad: ["ASC", "ascending", "up"]);
    value_set!(Session, ["RTH", "ETH"], bad: ["rth", "PRE", "ALL"]);
    value_set!(TimeField, ["DATE", "OBSERVED_AT"], bad: ["date", "TIMESTAMP"]);
    value_set!(
        ScreenerEventType,
        ["IPO Date", "Split Date", "Earnings Date"],
        bad: ["Dividend Date", "ipo date", "IPO_DATE", "IPO  Date"]
    );
    value_set!(
        NandItem,
        [
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
        bad: ["TLC 512Gb", "MLC 128Gb 16GBX8", "MLC_128Gb_16GBx8", "mlc 128gb 16gbx8"]
    );
    value_set!(
        InstrumentType,
        ["SPOT", "PERP", "OPTION", "FUTURE"],
        bad: ["SWAP", "spot", "FUTURES"]
    );
    value_set!(
        ErrorCode,
        [
            "INVALID_PARAMETER",
            "UNAUTHORIZED",
            "RESOURCE_NOT_FOUND",
            "ENDPOINT_REMOVED",
            "RATE_LIMITED",
            "INTERNAL_ERROR",
            "NOT_IMPLEMENTED",
        ],
        bad: ["QUOTA_EXCEEDED", "invalid_parameter", "NOT_FOUND"]
    );
}

#[test]
fn named_values_have_the_expected_spelling() {
    assert_eq!(ScreenerEventType::IpoDate.to_string(), "IPO Date");
    assert_eq!(Interval::OneMinute.to_string(), "1min");
    assert_eq!(Interval::OneMonth.to_string(), "1m");
    assert_eq!(NandItem::Mlc128Gb16Gbx8.to_string(), "MLC 128Gb 16GBx8");
    assert_eq!(NandItem::Slc1Gb128Mbx8.to_string(), "SLC 1Gb 128MBx8");
    assert_eq!(Session::Eth.to_string(), "ETH");
    assert_eq!("1m".parse::<Interval>().unwrap(), Interval::OneMonth);
    assert_eq!("1min".parse::<Interval>().unwrap(), Interval::OneMinute);
    assert_eq!(
        "SLC 8Gb 1GBx8".parse::<NandItem>().unwrap(),
        NandItem::Slc8Gb1Gbx8
    );
}

#[test]
fn request_only_sets_are_strict_in_serde() {
    macro_rules! rejects {
        ($t:ty, $bad:expr) => {{
            let bad = mrds_tests::unknown_value(stringify!($t), $bad);
            let r = serde_json::from_value::<$t>(json!(bad));
            let e = r.unwrap_err();
            assert!(e.to_string().contains(&bad), "{e}");
        }};
    }
    rejects!(Interval, "2h");
    rejects!(Interval, "1D");
    rejects!(TimeType, "EX_DATE");
    rejects!(SortOrder, "ASC");
    rejects!(Session, "PRE");
    rejects!(TimeField, "TIMESTAMP");
    rejects!(NandItem, "TLC 512Gb");
    rejects!(InstrumentType, "SWAP");
    // Not a string at all.
    assert!(serde_json::from_value::<Interval>(json!(5)).is_err());
    assert!(serde_json::from_value::<TimeType>(json!(null)).is_err());
}

#[test]
fn record_sets_are_tolerant_in_serde() {
    macro_rules! keeps {
        ($t:ty, $raw:expr) => {{
            // A value the spec does not have, as the spec stands (a release may add one).
            let raw = mrds_tests::unknown_value(stringify!($t), $raw);
            let v: $t = serde_json::from_value(json!(raw)).unwrap();
            assert_eq!(v, <$t>::Unknown(raw.clone()));
            assert!(!v.is_known());
            assert_eq!(v.to_string(), raw);
            assert_eq!(serde_json::to_value(&v).unwrap(), json!(raw));
            // FromStr stays strict.
            assert!(raw.parse::<$t>().is_err());
        }};
    }
    keeps!(SourceKind, "podcast");
    keeps!(PublishedAtSource, "header");
    keeps!(OwnChannelVerified, "handle");
    keeps!(UnitKind, "table");
    keeps!(ScreenerEventType, "Dividend Date");
    keeps!(ErrorCode, "QUOTA_EXCEEDED");
    // Known values are known.
    assert!(SourceKind::from_wire("own").is_known());
    assert_eq!(UnitKind::from_wire("exhibit"), UnitKind::Exhibit);
    assert_eq!(
        ScreenerEventType::from_wire("Split Date"),
        ScreenerEventType::SplitDate
    );
}
