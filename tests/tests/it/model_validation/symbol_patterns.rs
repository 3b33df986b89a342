//! Symbol patterns that readers spell in more than one way: share classes with a dot or a
//! hyphen (dividends), index symbols with or without a caret (the removed `index_1min`).

use mrds_model::TimeType;
use mrds_model::params::StockDividendsParams;

use super::{DAY, T0, check, ok, probe_text};

#[test]
fn dividends_symbol_takes_dot_or_hyphen_share_classes() {
    probe_text(
        "symbol",
        "stock_dividends.symbol.pattern",
        &[
            "AAPL",
            "BRK.B",
            "BRK-B",
            "brk.b",
            "A",
            "ABCDEFGHIJ",
            "ABCDEFGHIJ.ABCD",
            "RDS-A",
        ],
        &[
            "BRK_B",
            "BRK B",
            "BRK/B",
            "BRK.B.C",
            "BRK.",
            ".B",
            "BRK.ABCDE",
            "ABCDEFGHIJK",
            "AAPL\n",
            "",
        ],
        |s| {
            check(&StockDividendsParams::new(
                s,
                T0,
                T0 + DAY,
                TimeType::RecordDate,
            ))
        },
    );
    for tt in TimeType::ALL {
        ok(check(&StockDividendsParams::new(
            "BRK.B",
            T0,
            T0 + DAY,
            *tt,
        )));
    }
}

#[test]
#[allow(deprecated)]
fn index_symbol_with_or_without_caret() {
    probe_text(
        "symbol",
        "index_1min.symbol.pattern",
        &[
            "^GSPC",
            "GSPC",
            "^DJI",
            "ABCDEFGHIJKLMNO",
            "^ABCDEFGHIJKLMNO",
            "^N225",
            "HSI.HK",
        ],
        &[
            "^^GSPC",
            "^",
            "GSPC^",
            "GS PC",
            "ABCDEFGHIJKLMNOP",
            "^ABCDEFGHIJKLMNOP",
            "",
        ],
        |s| check(&mrds_model::params::Index1minParams::new(s, T0, T0 + DAY)),
    );
}
