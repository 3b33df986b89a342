//! The unified kline's parameters (`market_kline`): the trading pair's shape, option symbols,
//! daily-only futures and FX pairs, every interval for the other pairs, RFC 3339 times (and a
//! `+` offset in a query string), and their order as instants.

use mrds_model::params::MarketKlineParams;
use mrds_model::{Interval, Session};

use super::{OPTION_PAIR, assert_one, check, kline, ok, probe_text, raw, rules};

#[test]
fn unified_kline_trading_pair_shape() {
    probe_text(
        "trading_pair",
        "market_kline.trading_pair.pattern",
        &[
            "BINANCE_SPOT_BTC_USDT",
            "BINANCE_PERP_BTC_USDT",
            "HYPERLIQUID_SPOT_HYPE_USDC",
            "HYPERLIQUID_PERP_BTC_USDC",
            "US_SPOT_AAPL_USD",
            "US_SPOT_SPY_USD",
            "US_SPOT_SPX_USD",
            "A_SPOT_B_C",
            "X1_PERP_1000PEPE_USDT",
        ],
        &[
            "us_spot_aapl_usd",   // lowercase
            "US_SPOT_aapl_USD",   // lowercase symbol
            "US_spot_AAPL_USD",   // lowercase type
            "US_SPOT_AAPL",       // three parts
            "SPOT_AAPL_USD",      // three parts
            "US_SPOT_AAPL_USD_X", // five parts
            "BINANCE_SWAP_BTC_USDT",
            "BINANCE_SPOTS_BTC_USDT",
            "US__AAPL_USD",
            "US_SPOT__USD",
            "US_SPOT_AAPL_",
            "_SPOT_AAPL_USD",
            "US-SPOT-AAPL-USD",
            "US_SPOT_BRK.B_USD",
            "US_SPOT_AAPL_USD ",
            "",
        ],
        |pair| check(&kline(pair, Interval::OneDay)),
    );
}

#[test]
fn unified_kline_option_symbol() {
    for pair in [
        OPTION_PAIR,
        "US_OPTION_AAPL251219P00200000_USD",
        "US_OPTION_A251219C00000001_USD",
        "US_OPTION_ABCDEF251219C00200000_USD",
        "US_OPTION_SPY260116P00450000_USD",
    ] {
        for interval in Interval::ALL {
            ok(check(&kline(pair, *interval)));
        }
    }
    probe_text(
        "trading_pair",
        "market_kline.option_symbol",
        &[OPTION_PAIR],
        &[
            "US_OPTION_AAPL_USD",                   // no expiry, side, strike
            "US_OPTION_AAPL251219X00200000_USD",    // side not C/P
            "US_OPTION_AAPL25121C00200000_USD",     // five-digit expiry
            "US_OPTION_AAPL2512190C00200000_USD",   // seven-digit expiry
            "US_OPTION_AAPL251219C0020000_USD",     // seven-digit strike
            "US_OPTION_AAPL251219C002000000_USD",   // nine-digit strike
            "US_OPTION_ABCDEFG251219C00200000_USD", // seven-letter underlying
            "US_OPTION_251219C00200000_USD",        // no underlying
            "US_OPTION_AAPL251219C00200000P_USD",
            "US_OPTION_00200000C251219AAPL_USD",
        ],
        |pair| check(&kline(pair, Interval::OneDay)),
    );
    // A lowercase option pair breaks the shape, and its symbol is no option symbol either.
    assert_eq!(
        rules(check(&kline(
            "US_OPTION_aapl251219c00200000_USD",
            Interval::OneDay
        ))),
        [
            "market_kline.trading_pair.pattern",
            "market_kline.option_symbol"
        ]
    );
}

#[test]
fn unified_kline_future_and_fx_are_daily_only() {
    for interval in Interval::ALL {
        let future = check(&kline("CME_FUTURE_GC_USD", *interval));
        let fx = check(&kline("FX_SPOT_EURUSD_USD", *interval));
        if *interval == Interval::OneDay {
            ok(future);
            ok(fx);
        } else {
            assert_one(
                future,
                "market_kline.future_daily_only",
                "interval",
                interval.as_str(),
            );
            assert_one(
                fx,
                "market_kline.fx_daily_only",
                "interval",
                interval.as_str(),
            );
        }
    }
    // The ones named in the brief.
    assert_one(
        check(&kline("COMEX_FUTURE_SI_USD", Interval::FiveMinutes)),
        "market_kline.future_daily_only",
        "interval",
        "5min",
    );
    assert_one(
        check(&kline("FX_SPOT_JPY_USD", Interval::FiveMinutes)),
        "market_kline.fx_daily_only",
        "interval",
        "5min",
    );
}

#[test]
fn unified_kline_other_pairs_take_every_interval() {
    for pair in [
        "US_SPOT_AAPL_USD",
        "BINANCE_SPOT_BTC_USDT",
        "BINANCE_PERP_ETH_USDT",
        "HYPERLIQUID_SPOT_HYPE_USDC",
        "HYPERLIQUID_PERP_BTC_USDC",
        // FX only as a market of a SPOT pair; a crypto venue whose name starts with FX is not.
        "FXCM_SPOT_BTC_USD",
    ] {
        for interval in Interval::ALL {
            ok(check(&kline(pair, *interval)));
        }
    }
    ok(check(&kline("US_SPOT_AAPL_USD", Interval::FiveMinutes)));
    for session in Session::ALL {
        ok(check(
            &kline("BINANCE_SPOT_BTC_USDT", Interval::OneMinute).with_session(*session),
        ));
    }
}

#[test]
fn unified_kline_rfc3339_times() {
    let good = [
        "2026-07-01T00:00:00Z",
        "2026-07-01T00:00:00.250Z",
        "2026-07-01T02:00:00+02:00",
        "2026-06-30T19:00:00-05:00",
        "2026-07-01t00:00:00z",
        "2028-02-29T00:00:00Z",
        "1970-01-01T00:00:00Z",
    ];
    let bad = [
        "2026-07-01",
        "2026-07-01T00:00:00",
        "2026-07-01 00:00",
        "1782864000",
        "yesterday",
        "2026-13-01T00:00:00Z",
        "2026-02-29T00:00:00Z",
        "2026-07-01T24:00:00Z",
        "2026-07-01T00:60:00Z",
        "2026-07-01T00:00:00+2:00",
        "2026-07-01T00:00:00.Z",
        "2026-07-01T00:00:00Zjunk",
        "",
    ];
    probe_text(
        "start_time",
        "market_kline.start_time.format",
        &good,
        &bad,
        |t| check(&kline("US_SPOT_AAPL_USD", Interval::OneHour).with_start_time(t)),
    );
    probe_text(
        "end_time",
        "market_kline.end_time.format",
        &good,
        &bad,
        |t| check(&kline("US_SPOT_AAPL_USD", Interval::OneHour).with_end_time(t)),
    );
    // Both bad: both reported, and no order issue.
    assert_eq!(
        rules(check(
            &kline("US_SPOT_AAPL_USD", Interval::OneHour)
                .with_start_time("soon")
                .with_end_time("later")
        )),
        [
            "market_kline.start_time.format",
            "market_kline.end_time.format"
        ]
    );
}

#[test]
fn unified_kline_offset_plus_must_be_percent_encoded_in_a_query_string() {
    // `+` in a query string is a space (form encoding); `%2B` is the plus sign.
    let parsed = ok(MarketKlineParams::from_raw(&raw(
        "trading_pair=US_SPOT_AAPL_USD&interval=1d&start_time=2026-07-01T02:00:00%2B02:00",
    )));
    assert_eq!(
        parsed.start_time.as_deref(),
        Some("2026-07-01T02:00:00+02:00")
    );
    assert_one(
        MarketKlineParams::from_raw(&raw(
            "trading_pair=US_SPOT_AAPL_USD&interval=1d&start_time=2026-07-01T02:00:00+02:00",
        )),
        "market_kline.start_time.format",
        "start_time",
        "2026-07-01T02:00:00 02:00",
    );
}

#[test]
fn unified_kline_range_order() {
    let k = |start: &str, end: &str| {
        check(
            &kline("US_SPOT_AAPL_USD", Interval::OneHour)
                .with_start_time(start)
                .with_end_time(end),
        )
    };
    ok(k("2026-07-01T00:00:00Z", "2026-07-01T00:00:01Z"));
    ok(k("2026-07-01T00:00:00Z", "2026-07-02T00:00:00Z"));
    assert_one(
        k("2026-07-01T00:00:00Z", "2026-07-01T00:00:00Z"),
        "market_kline.range_order",
        "end_time",
        "2026-07-01T00:00:00Z",
    );
    assert_one(
        k("2026-07-01T00:00:00Z", "2026-06-30T23:59:59Z"),
        "market_kline.range_order",
        "end_time",
        "2026-06-30T23:59:59Z",
    );
    // Compared as instants, not as text.
    assert_one(
        k("2026-07-01T02:00:00+02:00", "2026-07-01T00:00:00Z"),
        "market_kline.range_order",
        "end_time",
        "2026-07-01T00:00:00Z",
    );
    ok(k("2026-07-01T02:00:00+02:00", "2026-07-01T00:00:01Z"));
    assert_one(
        k("2026-07-01T00:00:00Z", "2026-07-01T01:00:00+02:00"),
        "market_kline.range_order",
        "end_time",
        "2026-07-01T01:00:00+02:00",
    );
    // Either one alone is fine.
    ok(check(
        &kline("US_SPOT_AAPL_USD", Interval::OneHour).with_start_time("2026-07-01T00:00:00Z"),
    ));
    ok(check(
        &kline("US_SPOT_AAPL_USD", Interval::OneHour).with_end_time("2026-07-01T00:00:00Z"),
    ));
}
