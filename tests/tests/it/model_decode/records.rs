//! Every record type decoded from a success envelope: its fields by their wire names (`yield`),
//! integers in number fields, numeric text kept as text, optional and null values, unknown
//! values of tolerant value sets, unknown fields dropped; and encoded back.
//!
//! Each field is read on the wire, as the record encodes it ([`field`]), not through its Rust
//! type: the spec may retype a field (an integer become a number, a text a value set) in
//! `spec/` alone, and the values these answers hold stay what they are.

use mrds_model::{
    Candle, CompanyProfile, Envelope, EquityOffering, EtfFlow, ForexBar, IndexBar1Min,
    LeverageRatio, NandSpotPrice, NonUsBar, PersonCommentary, PitDividend, ResearchUnit,
    ScreenerEvent, Ssr, TreasuryRate,
};
use serde_json::json;

use mrds_tests::conform::holds;

use super::{decode, field, field_says, success};

#[track_caller]
fn assert_success<T>(env: &Envelope<T>, len: usize) {
    assert!(env.success);
    assert_eq!(env.request_id, "req_01JBQ7Y8H3K2M4N6P8R0S2T4V6");
    assert_eq!(env.data.len(), len);
    assert_eq!(env.error, None);
    assert_eq!(
        env.metadata.as_ref().unwrap()["source"].as_str(),
        Some("sample")
    );
    assert_eq!(env.pagination.as_ref().unwrap()["limit"].as_i64(), Some(50));
    assert_eq!(
        env.pagination.as_ref().unwrap()["has_more"].as_bool(),
        Some(false)
    );
}

#[test]
fn decodes_pit_dividends() {
    let body = success(
        r#"[
        {"symbol": "BRK-B", "date": "2026-05-08", "record_date": "2026-05-11",
         "payment_date": "2026-05-29", "declaration_date": "2026-04-24",
         "adj_dividend": 0.26, "dividend": 0.26, "yield": 0.41, "frequency": "Quarterly",
         "currency": "USD"},
        {"symbol": "BRK-B", "date": "2026-02-06", "record_date": "2026-02-09",
         "payment_date": "2026-02-27", "declaration_date": "2026-01-23",
         "adj_dividend": 0.25, "dividend": 0.5, "yield": 0, "frequency": "Quarterly"}
    ]"#,
    );
    // `currency` stands for a field the record does not have (a release may add it).
    let unknown = mrds_tests::unknown_field("PITDividend", "currency");
    let body = body.replace("\"currency\"", &format!("\"{unknown}\""));
    let env = decode!(PitDividend, &body);
    assert_success(&env, 2);
    let d = &env.data[0];
    field(d, "symbol", json!("BRK-B"));
    field(d, "date", json!("2026-05-08"));
    field(d, "record_date", json!("2026-05-11"));
    field(d, "payment_date", json!("2026-05-29"));
    field(d, "declaration_date", json!("2026-04-24"));
    field(d, "adj_dividend", json!(0.26));
    field(d, "yield", json!(0.41));
    field(d, "frequency", json!("Quarterly"));
    // An integer in a number field.
    field(&env.data[1], "yield", json!(0.0));
    field(&env.data[1], "dividend", json!(0.5));
    // Serialized back under the wire name `yield`.
    let back = serde_json::to_value(d).unwrap();
    if holds("PitDividend", "yield", &json!(0.41)) {
        assert_eq!(back["yield"], 0.41);
    }
    assert!(back.get("r#yield").is_none());
    assert!(back.get(&unknown).is_none(), "unknown fields are not kept");
}

#[test]
fn decodes_company_profiles() {
    let body = success(
        r#"[{
        "symbol": "AAPL", "name": "Apple Inc.", "exchange": "NASDAQ Global Select",
        "exchange_short_name": "NASDAQ", "industry": "Consumer Electronics",
        "sector": "Technology", "cik": "0000320193", "country": "US", "ceo": "Timothy D. Cook",
        "company_description": "Apple Inc. designs, manufactures and markets smartphones.",
        "employees": 164000, "ipo_date": "1980-12-12", "website": "https://www.apple.com",
        "logo": "https://images.example.com/logos/AAPL.png", "is_adr": false, "is_etf": false,
        "is_fund": false, "is_listed": true,
        "keywords": ["$AAPL", "Apple", "iPhone", "Tim Cook", "Vision Pro"],
        "market_cap": 3.9e12, "pe_ratio": 33.1
    }, {
        "symbol": "0700.HK", "name": "Tencent Holdings Ltd", "exchange": "HKSE",
        "exchange_short_name": "HKSE", "industry": "Internet Content & Information",
        "sector": "Communication Services", "cik": "", "country": "CN", "ceo": "Huateng Ma",
        "company_description": "腾讯控股", "employees": 105417, "ipo_date": "2004-06-16",
        "website": "https://www.tencent.com", "logo": "", "is_adr": false, "is_etf": false,
        "is_fund": false, "is_listed": true, "keywords": []
    }]"#,
    );
    let env = decode!(CompanyProfile, &body);
    assert_success(&env, 2);
    let c = &env.data[0];
    field(c, "symbol", json!("AAPL"));
    field_says(
        c,
        "cik",
        json!("0000320193"),
        "a zero-padded string, not a number",
    );
    field(c, "employees", json!(164_000));
    field(c, "ipo_date", json!("1980-12-12"));
    for (flag, set) in [
        ("is_listed", true),
        ("is_adr", false),
        ("is_etf", false),
        ("is_fund", false),
    ] {
        field(c, flag, json!(set));
    }
    field(
        c,
        "keywords",
        json!(["$AAPL", "Apple", "iPhone", "Tim Cook", "Vision Pro"]),
    );
    field(&env.data[1], "keywords", json!([]));
    field(&env.data[1], "company_description", json!("腾讯控股"));
}

#[test]
fn decodes_screener_events_with_an_unknown_type() {
    let body = success(
        r#"[
        {"symbol": "RDDT", "type": "IPO Date", "value": "2024-03-21"},
        {"symbol": "NVDA", "type": "Split Date", "value": "10:1", "ratio": 10},
        {"symbol": "AAPL", "type": "Earnings Date", "value": "2026-10-29"},
        {"symbol": "KO", "type": "Dividend Date", "value": "2026-09-15"}
    ]"#,
    );
    let env = decode!(ScreenerEvent, &body);
    assert_success(&env, 4);
    field(&env.data[0], "type", json!("IPO Date"));
    field(&env.data[1], "type", json!("Split Date"));
    field(&env.data[1], "value", json!("10:1"));
    field(&env.data[2], "type", json!("Earnings Date"));
    field(&env.data[3], "type", json!("Dividend Date"));
    // Serialized back: the unknown type as received, the field the record does not have
    // (`ratio`) left out.
    let back = serde_json::to_value(&env.data[3]).unwrap();
    for (name, value) in [
        ("symbol", "KO"),
        ("type", "Dividend Date"),
        ("value", "2026-09-15"),
    ] {
        if holds("ScreenerEvent", name, &json!(value)) {
            assert_eq!(back[name], value, "{back}");
        }
    }
    assert!(back.get("ratio").is_none() || holds("ScreenerEvent", "ratio", &json!(10)));
}

#[test]
fn decodes_research_units_with_optional_score_and_unknown_kind() {
    let body = success(
        r#"[{
        "doc_id": "9f3a1c0b7d2e4a68", "file_url": "https://files.example.com/r/9f3a1c0b7d2e4a68.pdf#page=3",
        "heading": "Investment thesis", "idx": 0, "kind": "section", "page_from": 3, "page_to": 5,
        "published_at": "2026-08-27T06:30:00Z", "publisher": "Example Securities",
        "region": "US", "scope": "company", "sector": "Technology",
        "summary": "We initiate with Overweight.", "symbols": ["AAPL", "MSFT"],
        "title": "Big Tech outlook", "chunk_tokens": 512
    }, {
        "doc_id": "9f3a1c0b7d2e4a68", "file_url": "https://files.example.com/r/9f3a1c0b7d2e4a68.pdf#page=9",
        "heading": "Figure 4: Revenue by segment", "idx": 1, "kind": "exhibit", "page_from": 9,
        "page_to": 9, "published_at": "2026-08-27T06:30:00Z", "publisher": "Example Securities",
        "region": "US", "scope": "company", "sector": "Technology", "score": 0.873,
        "summary": "Services grow fastest.", "symbols": [], "title": "Big Tech outlook"
    }, {
        "doc_id": "9f3a1c0b7d2e4a68", "file_url": "https://files.example.com/r/9f3a1c0b7d2e4a68.pdf",
        "heading": "Appendix", "idx": 2, "kind": "table", "page_from": 20, "page_to": 22,
        "published_at": "2026-08-27T06:30:00Z", "publisher": "Example Securities",
        "region": "US", "scope": "company", "sector": "Technology", "score": null,
        "summary": "", "symbols": ["AAPL"], "title": "Big Tech outlook"
    }]"#,
    );
    let env = decode!(ResearchUnit, &body);
    assert_success(&env, 3);
    let [a, b, c] = &env.data[..] else {
        unreachable!()
    };
    field(a, "doc_id", json!("9f3a1c0b7d2e4a68"));
    field(a, "kind", json!("section"));
    field_says(a, "score", json!(null), "absent score");
    field(a, "symbols", json!(["AAPL", "MSFT"]));
    for (name, n) in [("idx", 0), ("page_from", 3), ("page_to", 5)] {
        field(a, name, json!(n));
    }
    field(
        a,
        "file_url",
        json!("https://files.example.com/r/9f3a1c0b7d2e4a68.pdf#page=3"),
    );
    field(b, "kind", json!("exhibit"));
    field(b, "score", json!(0.873));
    field(c, "kind", json!("table"));
    field_says(c, "score", json!(null), "null score");
    // An absent score stays absent when serialized.
    let back = serde_json::to_value(a).unwrap();
    if holds("ResearchUnit", "score", &json!(null)) {
        assert!(back.get("score").is_none(), "{back}");
    }
    if holds("ResearchUnit", "kind", &json!("table")) {
        assert_eq!(back["kind"], "section");
        assert_eq!(serde_json::to_value(c).unwrap()["kind"], "table");
    }
}

#[test]
fn decodes_treasury_rates() {
    let body = success(
        r#"[{"date": "2026-09-09", "month1": 4.31, "month2": 4.29, "month3": 4.22,
             "month6": 4.05, "year1": 3.87, "year2": 3.61, "year3": 3.55, "year5": 3.62,
             "year7": 3.79, "year10": 4.05, "year20": 4.61, "year30": 4.68},
            {"date": "2026-09-08", "month1": 4.3, "month2": 4.3, "month3": 4.2, "month6": 4,
             "year1": 3.9, "year2": 3.6, "year3": 3.5, "year5": 3.6, "year7": 3.8,
             "year10": 4, "year20": 4.6, "year30": 4.7, "month4": 4.1}]"#,
    );
    let env = decode!(TreasuryRate, &body);
    assert_success(&env, 2);
    let r = &env.data[0];
    field(r, "date", json!("2026-09-09"));
    field(r, "month1", json!(4.31));
    field(r, "year10", json!(4.05));
    field(r, "year30", json!(4.68));
    field(&env.data[1], "month6", json!(4.0));
}

#[test]
fn decodes_etf_flows_keeping_numeric_text() {
    let body = success(
        r#"[{"symbol": "SPY", "date": "2026-09-09", "close": "512.34",
             "net_flow": "-1234567.89", "net_flow_in_shares": -2409.5, "volume": 61234500,
             "expiration_cycle": "monthly", "is_fomc": false, "nav": "512.30"},
            {"symbol": "SPY", "date": "2026-09-17", "close": "515.00", "net_flow": "0",
             "net_flow_in_shares": 0, "volume": 70000000, "expiration_cycle": "weekly",
             "is_fomc": true}]"#,
    );
    let env = decode!(EtfFlow, &body);
    assert_success(&env, 2);
    let f = &env.data[0];
    field(f, "close", json!("512.34"));
    field(f, "net_flow", json!("-1234567.89"));
    field(f, "net_flow_in_shares", json!(-2409.5));
    field(f, "volume", json!(61_234_500.0));
    field(f, "is_fomc", json!(false));
    field(&env.data[1], "is_fomc", json!(true));
    field_says(
        &env.data[1],
        "close",
        json!("515.00"),
        "trailing zeros kept",
    );
    let back = serde_json::to_value(f).unwrap();
    if holds("EtfFlow", "close", &json!("512.34")) {
        assert_eq!(back["close"], "512.34", "serialized as text, not a number");
    }
}

#[test]
fn decodes_non_us_bars() {
    let body = success(
        r#"[{"price_open": 381.2, "price_high": 386.4, "price_low": 379.8, "price_close": 385,
             "volume_traded": 18234500, "quote_currency": "HKD",
             "time_open": 1757379600000, "time_close": 1757404800000,
             "time_period_start": "2026-09-09T00:00:00.0000000Z",
             "time_period_end": "2026-09-10T00:00:00.0000000Z", "trades_count": 91234}]"#,
    );
    let env = decode!(NonUsBar, &body);
    assert_success(&env, 1);
    let b = &env.data[0];
    field(b, "price_close", json!(385.0));
    field(b, "quote_currency", json!("HKD"));
    field(b, "time_open", json!(1_757_379_600_000.0));
    field(
        b,
        "time_period_start",
        json!("2026-09-09T00:00:00.0000000Z"),
    );
}

#[test]
fn decodes_forex_bars() {
    let body = success(
        r#"[{"symbol": "EURUSD", "date": "2026-09-09", "open": 1.0842, "high": 1.0871,
             "low": 1.0829, "close": 1.0866, "change": 0.0024, "change_percent": 0.22,
             "volume": 0, "vwap": 1.0855, "label": "Sep 09, 26"}]"#,
    );
    let env = decode!(ForexBar, &body);
    assert_success(&env, 1);
    let b = &env.data[0];
    field(b, "symbol", json!("EURUSD"));
    field(b, "close", json!(1.0866));
    field(b, "change_percent", json!(0.22));
    field(b, "volume", json!(0.0));
}

#[test]
fn decodes_candles() {
    let body = success(
        r#"[{"price_open": 111250.5, "price_high": 111480, "price_low": 111102.25,
             "price_close": 111399, "volume": 1523.0412,
             "time_open": "2026-09-09T08:00:00Z", "time_close": "2026-09-09T08:59:59.999Z",
             "trades": 4211}]"#,
    );
    let env = decode!(Candle, &body);
    assert_success(&env, 1);
    let c = &env.data[0];
    field(c, "price_open", json!(111_250.5));
    field(c, "price_high", json!(111_480.0));
    field(c, "volume", json!(1523.0412));
    field(c, "time_close", json!("2026-09-09T08:59:59.999Z"));
    // An empty result is a success with an empty array.
    let empty = decode!(Candle, &success("[]"));
    assert!(empty.success && empty.data.is_empty());
}

#[test]
fn decodes_leverage_ratios_and_ssr() {
    let env = decode!(
        LeverageRatio,
        &success(
            r#"[{"symbol": "BTC", "leverage_ratio": 0.2617, "time": "2026-09-09",
                 "timestamp": 1788220800, "exchange": "all"}]"#
        )
    );
    assert_success(&env, 1);
    field(&env.data[0], "symbol", json!("BTC"));
    field(&env.data[0], "leverage_ratio", json!(0.2617));
    field(&env.data[0], "timestamp", json!(1_788_220_800.0));
    field(&env.data[0], "time", json!("2026-09-09"));

    let env = decode!(
        Ssr,
        &success(
            r#"[{"symbol": "BTC", "ssr": 8.93, "time": "2026-09-09T00:00:00Z",
                 "timestamp": 1788220800}]"#
        )
    );
    assert_success(&env, 1);
    field(&env.data[0], "ssr", json!(8.93));
    field(&env.data[0], "time", json!("2026-09-09T00:00:00Z"));
}

#[test]
fn decodes_equity_offerings() {
    let body = success(
        r#"[{
        "cik": "0001990000", "company_name": "Example Ventures Fund II, L.P.",
        "entity_name": "Example Ventures Fund II, L.P.", "entity_type": "Limited Partnership",
        "date": "2026-09-08T21:04:11.000Z", "filing_date": "2026-09-08 00:00:00",
        "acceptance_time": "2026-09-08 17:04:11", "date_of_first_sale": "2026-08-29",
        "form_type": "D/A", "form_signification": "Amendment of a Notice of Exempt Offering",
        "federal_exemptions_exclusions": "06b,3C,3C.1", "industry_group_type": "Pooled Investment Fund",
        "revenue_range": "Decline to Disclose", "jurisdiction_of_incorporation": "DELAWARE",
        "year_of_incorporation": "2024", "incorporated_within_five_years": true,
        "is_amendment": true, "is_business_combination_transaction": false,
        "duration_of_offering_is_more_than_year": true, "has_non_accredited_investors": false,
        "securities_offered_are_of_equity_type": true,
        "issuer_street": "1 Market Street", "issuer_city": "San Francisco",
        "issuer_state_or_country": "CA", "issuer_state_or_country_description": "CALIFORNIA",
        "issuer_zip_code": "94105", "issuer_phone_number": "415-555-0100",
        "related_person_first_name": "Jane", "related_person_last_name": "Doe",
        "related_person_relationship": "Executive Officer",
        "related_person_street": "1 Market Street", "related_person_city": "San Francisco",
        "related_person_state_or_country": "CA",
        "related_person_state_or_country_description": "CALIFORNIA",
        "related_person_zip_code": "94105",
        "total_offering_amount": 50000000, "total_amount_sold": 31250000.5,
        "total_amount_remaining": 18749999.5, "minimum_investment_accepted": 250000,
        "gross_proceeds_used": 0, "sales_commissions": 0, "finders_fees": 0,
        "total_number_already_invested": 42, "accession_number": "0001990000-26-000003"
    }]"#,
    );
    let env = decode!(EquityOffering, &body);
    assert_success(&env, 1);
    let o = &env.data[0];
    field(o, "cik", json!("0001990000"));
    field(o, "date", json!("2026-09-08T21:04:11.000Z"));
    field(o, "filing_date", json!("2026-09-08 00:00:00"));
    field(o, "form_type", json!("D/A"));
    for (flag, set) in [
        ("is_amendment", true),
        ("incorporated_within_five_years", true),
        ("is_business_combination_transaction", false),
        ("has_non_accredited_investors", false),
    ] {
        field(o, flag, json!(set));
    }
    field(o, "total_offering_amount", json!(50_000_000.0));
    field(o, "total_amount_sold", json!(31_250_000.5));
    field(o, "total_number_already_invested", json!(42.0));
    field(o, "related_person_last_name", json!("Doe"));
    field(
        o,
        "issuer_state_or_country_description",
        json!("CALIFORNIA"),
    );
}

#[test]
fn decodes_nand_spot_prices() {
    let body = success(
        r#"[{"symbol": "MLC 128Gb 16GBx8", "date": "2026-09-09", "avg": 3.412, "high": 3.6,
             "low": 3.25, "change_percent": 0.5}]"#,
    );
    let env = decode!(NandSpotPrice, &body);
    assert_success(&env, 1);
    let p = &env.data[0];
    field(p, "symbol", json!("MLC 128Gb 16GBx8"));
    for (name, n) in [("avg", 3.412), ("high", 3.6), ("low", 3.25)] {
        field(p, name, json!(n));
    }
}

#[test]
fn decodes_index_bars() {
    let body = success(
        r#"[{"symbol": "^GSPC", "data_type": "index", "timestamp": 1785283200,
             "open": 6412.25, "high": 6413.5, "low": 6410.75, "close": 6413.1, "volume": 0},
            {"symbol": "GSPC", "data_type": "index", "timestamp": 1785283260,
             "open": 6413.1, "high": 6414, "low": 6412, "close": 6413.9, "volume": 0,
             "vwap": 6413.2}]"#,
    );
    let env = decode!(IndexBar1Min, &body);
    assert_success(&env, 2);
    field(&env.data[0], "symbol", json!("^GSPC"));
    field(&env.data[0], "timestamp", json!(1_785_283_200.0));
    field(&env.data[0], "close", json!(6413.1));
    field(&env.data[1], "symbol", json!("GSPC"));
    field(&env.data[1], "high", json!(6414.0));
}

#[test]
fn decodes_person_commentary_with_unknown_and_absent_values() {
    let body = success(
        r#"[{
        "person_id": "123e4567-e89b-12d3-a456-426614174000",
        "quote": "We are going to keep building.", "url": "https://x.example.com/p/1",
        "page_title": "Post", "venue": "X", "author": "Jane Example", "lang": "en",
        "said_on": "2026-09-08", "published_at": 1788220800, "published_at_source": "page",
        "source_kind": "own", "own_channel_verified": "author",
        "cluster_id": "c_8f1e", "sentiment": 0.4
    }, {
        "person_id": "123e4567-e89b-12d3-a456-426614174000",
        "quote": "Rates will stay where they are.", "url": "https://tv.example.com/t/2",
        "page_title": "Transcript: Morning show", "venue": "Morning show", "author": "",
        "lang": "en", "said_on": "2026-09-07", "published_at": 1788134400,
        "published_at_source": "fetch", "source_kind": "transcript", "cluster_id": "c_77aa"
    }, {
        "person_id": "123e4567-e89b-12d3-a456-426614174000",
        "quote": "Ce n'est pas fini.", "url": "https://pod.example.com/e/3",
        "page_title": "Episode 3", "venue": "Some Podcast", "author": "", "lang": "fr",
        "said_on": "2026-09-06", "published_at": 1788048000, "published_at_source": "header",
        "source_kind": "podcast", "own_channel_verified": null, "cluster_id": "c_0003"
    }, {
        "person_id": "123e4567-e89b-12d3-a456-426614174000",
        "quote": "Hello.", "url": "https://blog.example.com/4", "page_title": "Blog",
        "venue": "Blog", "author": "", "lang": "en", "said_on": "2026-09-05",
        "published_at": 1787961600, "published_at_source": "page", "source_kind": "own",
        "own_channel_verified": "handle", "cluster_id": "c_0004"
    }]"#,
    );
    let env = decode!(PersonCommentary, &body);
    assert_success(&env, 4);
    let [own, transcript, podcast, own2] = &env.data[..] else {
        unreachable!()
    };
    field(
        own,
        "person_id",
        json!("123e4567-e89b-12d3-a456-426614174000"),
    );
    field(own, "source_kind", json!("own"));
    field(own, "own_channel_verified", json!("author"));
    field(own, "published_at", json!(1_788_220_800));
    field(own, "published_at_source", json!("page"));
    field(own, "cluster_id", json!("c_8f1e"));

    field(transcript, "source_kind", json!("transcript"));
    field_says(transcript, "own_channel_verified", json!(null), "absent");
    field(transcript, "published_at_source", json!("fetch"));
    field(transcript, "author", json!(""));

    field(podcast, "source_kind", json!("podcast"));
    field(podcast, "published_at_source", json!("header"));
    field_says(podcast, "own_channel_verified", json!(null), "null");

    field(own2, "own_channel_verified", json!("handle"));

    // Back to JSON: wire names, unknown values as received, absent optional left out.
    let encoded = |record: &PersonCommentary, name: &str, value: serde_json::Value| {
        if holds("PersonCommentary", name, &value) {
            let back = serde_json::to_value(record).unwrap();
            assert_eq!(
                back.get(name).unwrap_or(&json!(null)),
                &value,
                "{name} in {back}"
            );
        }
    };
    encoded(podcast, "source_kind", json!("podcast"));
    encoded(podcast, "published_at_source", json!("header"));
    if holds("PersonCommentary", "own_channel_verified", &json!(null)) {
        let back = serde_json::to_value(podcast).unwrap();
        assert!(back.get("own_channel_verified").is_none(), "{back}");
    }
    encoded(own, "source_kind", json!("own"));
    encoded(own, "own_channel_verified", json!("author"));
    encoded(own, "published_at", json!(1_788_220_800_i64));
}

/// Every record type over answers drawn from the spec's shapes (`mrds_model::shapes::SHAPES`:
/// each endpoint's records in success envelopes, the error object in failure ones), decoded
/// into the generated types and encoded back to the same values (`mrds_tests::fuzz`'s record
/// round trip), every endpoint reached through `visit_requests`. `MRDS_PROPERTY_SEED` and
/// `MRDS_PROPERTY_CASES` draw others or more.
#[test]
fn every_record_round_trips_over_answers_drawn_from_the_shapes() {
    let (seed, cases) = crate::model_validation::generated_cases();
    let mut rng = mrds_tests::spec_gen::Rng::new(seed);
    let shapes = mrds_model::api::PROTOCOL.shapes;
    for typed in mrds_tests::fuzz::endpoints::all() {
        for _ in 0..cases {
            let failure = rng.chance(20);
            let answer =
                mrds_tests::fuzz::generate::answer(shapes, typed.endpoint.id, failure, &mut rng)
                    .expect("the shapes know every endpoint");
            (typed.records)(&answer);
        }
    }
}
