//! Decoding of responses into the generated model (`mrds_model::Envelope<T>` and the
//! records), value sets with their wire spelling, error codes, and the API constants.

use mrds_model::api::{self, Auth, ChangeAction, Removal};
use mrds_model::{
    Candle, CompanyProfile, EquityOffering, ErrorCode, ErrorObject, EtfFlow, ForexBar,
    IndexBar1Min, InstrumentType, Interval, LeverageRatio, NandItem, NandSpotPrice, NonUsBar,
    OwnChannelVerified, PersonCommentary, PitDividend, PublishedAtSource, ResearchUnit,
    ScreenerEvent, ScreenerEventType, Session, SortOrder, SourceKind, Ssr, TimeField, TimeType,
    TreasuryRate, UnitKind,
};
use mrds_model::{Envelope, ErrorDetail};
use serde_json::{Value, json};

/// Decodes a response body into `Envelope<$t>`, panicking with the serde error; then checks
/// that serializing the envelope and decoding it again gives the same value.
macro_rules! decode {
    ($t:ty, $json:expr) => {{
        let text: &str = $json;
        let env: Envelope<$t> = match serde_json::from_str(text) {
            Ok(env) => env,
            Err(e) => panic!("cannot decode Envelope<{}>: {e}", stringify!($t)),
        };
        let again: Envelope<$t> =
            serde_json::from_value(serde_json::to_value(&env).unwrap()).unwrap();
        assert_eq!(again, env, "serialize/deserialize round trip");
        env
    }};
}

/// A success envelope around `data` (given as JSON text), with metadata and pagination.
fn success(data: &str) -> String {
    format!(
        r#"{{
            "success": true,
            "request_id": "req_01JBQ7Y8H3K2M4N6P8R0S2T4V6",
            "data": {data},
            "metadata": {{"source": "sample", "generated_at": "2026-09-10T08:00:00Z", "count": 2}},
            "pagination": {{"limit": 50, "offset": 0, "total": 2, "has_more": false}}
        }}"#
    )
}

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

// ---------------------------------------------------------------------------------------------
// Every record type
// ---------------------------------------------------------------------------------------------

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
    let env = decode!(PitDividend, &body);
    assert_success(&env, 2);
    let d = &env.data[0];
    assert_eq!(d.symbol, "BRK-B");
    assert_eq!(d.date, "2026-05-08");
    assert_eq!(d.record_date, "2026-05-11");
    assert_eq!(d.payment_date, "2026-05-29");
    assert_eq!(d.declaration_date, "2026-04-24");
    assert_eq!(d.adj_dividend, 0.26);
    assert_eq!(d.r#yield, 0.41);
    assert_eq!(d.frequency, "Quarterly");
    // An integer in a number field.
    assert_eq!(env.data[1].r#yield, 0.0);
    assert_eq!(env.data[1].dividend, 0.5);
    // Serialized back under the wire name `yield`.
    let back = serde_json::to_value(d).unwrap();
    assert_eq!(back["yield"], 0.41);
    assert!(back.get("r#yield").is_none());
    assert!(
        back.get("currency").is_none(),
        "unknown fields are not kept"
    );
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
    assert_eq!(c.symbol, "AAPL");
    assert_eq!(c.cik, "0000320193", "a zero-padded string, not a number");
    assert_eq!(c.employees, 164_000);
    assert_eq!(c.ipo_date, "1980-12-12");
    assert!(c.is_listed && !c.is_adr && !c.is_etf && !c.is_fund);
    assert_eq!(c.keywords[0], "$AAPL");
    assert_eq!(c.keywords.len(), 5);
    assert!(env.data[1].keywords.is_empty());
    assert_eq!(env.data[1].company_description, "腾讯控股");
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
    assert_eq!(env.data[0].r#type, ScreenerEventType::IpoDate);
    assert_eq!(env.data[1].r#type, ScreenerEventType::SplitDate);
    assert_eq!(env.data[1].value, "10:1");
    assert_eq!(env.data[2].r#type, ScreenerEventType::EarningsDate);
    assert_eq!(
        env.data[3].r#type,
        ScreenerEventType::Unknown("Dividend Date".into())
    );
    assert!(!env.data[3].r#type.is_known());
    assert_eq!(env.data[3].r#type.as_str(), "Dividend Date");
    let back = serde_json::to_value(&env.data[3]).unwrap();
    assert_eq!(
        back,
        json!({"symbol": "KO", "type": "Dividend Date", "value": "2026-09-15"})
    );
    assert_eq!(
        serde_json::to_value(&env.data[0]).unwrap()["type"],
        "IPO Date"
    );
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
    assert_eq!(a.doc_id, "9f3a1c0b7d2e4a68");
    assert_eq!(a.kind, UnitKind::Section);
    assert_eq!(a.score, None, "absent score");
    assert_eq!(a.symbols, ["AAPL", "MSFT"]);
    assert_eq!((a.idx, a.page_from, a.page_to), (0, 3, 5));
    assert!(a.file_url.ends_with("#page=3"));
    assert_eq!(b.kind, UnitKind::Exhibit);
    assert_eq!(b.score, Some(0.873));
    assert_eq!(c.kind, UnitKind::Unknown("table".into()));
    assert_eq!(c.score, None, "null score");
    // An absent score stays absent when serialized.
    let back = serde_json::to_value(a).unwrap();
    assert!(back.get("score").is_none(), "{back}");
    assert_eq!(back["kind"], "section");
    assert_eq!(serde_json::to_value(c).unwrap()["kind"], "table");
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
    assert_eq!(r.date, "2026-09-09");
    assert_eq!(r.month1, 4.31);
    assert_eq!(r.year10, 4.05);
    assert_eq!(r.year30, 4.68);
    assert_eq!(env.data[1].month6, 4.0);
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
    assert_eq!(f.close, "512.34");
    assert_eq!(f.net_flow, "-1234567.89");
    assert_eq!(f.net_flow_in_shares, -2409.5);
    assert_eq!(f.volume, 61_234_500.0);
    assert!(!f.is_fomc);
    assert!(env.data[1].is_fomc);
    assert_eq!(env.data[1].close, "515.00", "trailing zeros kept");
    let back = serde_json::to_value(f).unwrap();
    assert_eq!(back["close"], "512.34", "serialized as text, not a number");
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
    assert_eq!(b.price_close, 385.0);
    assert_eq!(b.quote_currency, "HKD");
    assert_eq!(b.time_open, 1_757_379_600_000.0);
    assert_eq!(b.time_period_start, "2026-09-09T00:00:00.0000000Z");
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
    assert_eq!(b.symbol, "EURUSD");
    assert_eq!(b.close, 1.0866);
    assert_eq!(b.change_percent, 0.22);
    assert_eq!(b.volume, 0.0);
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
    assert_eq!(c.price_open, 111_250.5);
    assert_eq!(c.price_high, 111_480.0);
    assert_eq!(c.volume, 1523.0412);
    assert_eq!(c.time_close, "2026-09-09T08:59:59.999Z");
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
    assert_eq!(env.data[0].symbol, "BTC");
    assert_eq!(env.data[0].leverage_ratio, 0.2617);
    assert_eq!(env.data[0].timestamp, 1_788_220_800.0);
    assert_eq!(env.data[0].time, "2026-09-09");

    let env = decode!(
        Ssr,
        &success(
            r#"[{"symbol": "BTC", "ssr": 8.93, "time": "2026-09-09T00:00:00Z",
                 "timestamp": 1788220800}]"#
        )
    );
    assert_success(&env, 1);
    assert_eq!(env.data[0].ssr, 8.93);
    assert_eq!(env.data[0].time, "2026-09-09T00:00:00Z");
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
    assert_eq!(o.cik, "0001990000");
    assert_eq!(o.date, "2026-09-08T21:04:11.000Z");
    assert_eq!(o.filing_date, "2026-09-08 00:00:00");
    assert_eq!(o.form_type, "D/A");
    assert!(o.is_amendment && o.incorporated_within_five_years);
    assert!(!o.is_business_combination_transaction && !o.has_non_accredited_investors);
    assert_eq!(o.total_offering_amount, 50_000_000.0);
    assert_eq!(o.total_amount_sold, 31_250_000.5);
    assert_eq!(o.total_number_already_invested, 42.0);
    assert_eq!(o.related_person_last_name, "Doe");
    assert_eq!(o.issuer_state_or_country_description, "CALIFORNIA");
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
    assert_eq!(p.symbol, "MLC 128Gb 16GBx8");
    assert_eq!(
        p.symbol.parse::<NandItem>().unwrap(),
        NandItem::Mlc128Gb16Gbx8
    );
    assert_eq!((p.avg, p.high, p.low), (3.412, 3.6, 3.25));
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
    assert_eq!(env.data[0].symbol, "^GSPC");
    assert_eq!(env.data[0].timestamp, 1_785_283_200.0);
    assert_eq!(env.data[0].close, 6413.1);
    assert_eq!(env.data[1].symbol, "GSPC");
    assert_eq!(env.data[1].high, 6414.0);
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
    assert_eq!(own.person_id, "123e4567-e89b-12d3-a456-426614174000");
    assert_eq!(own.source_kind, SourceKind::Own);
    assert_eq!(own.own_channel_verified, Some(OwnChannelVerified::Author));
    assert_eq!(own.published_at, 1_788_220_800);
    assert_eq!(own.published_at_source, PublishedAtSource::Page);
    assert_eq!(own.cluster_id, "c_8f1e");

    assert_eq!(transcript.source_kind, SourceKind::Transcript);
    assert_eq!(transcript.own_channel_verified, None, "absent");
    assert_eq!(transcript.published_at_source, PublishedAtSource::Fetch);
    assert_eq!(transcript.author, "");

    assert_eq!(podcast.source_kind, SourceKind::Unknown("podcast".into()));
    assert!(!podcast.source_kind.is_known());
    assert_eq!(
        podcast.published_at_source,
        PublishedAtSource::Unknown("header".into())
    );
    assert_eq!(podcast.own_channel_verified, None, "null");

    assert_eq!(
        own2.own_channel_verified,
        Some(OwnChannelVerified::Unknown("handle".into()))
    );

    // Back to JSON: wire names, unknown values as received, absent optional left out.
    let back = serde_json::to_value(podcast).unwrap();
    assert_eq!(back["source_kind"], "podcast");
    assert_eq!(back["published_at_source"], "header");
    assert!(back.get("own_channel_verified").is_none(), "{back}");
    let back = serde_json::to_value(own).unwrap();
    assert_eq!(back["source_kind"], "own");
    assert_eq!(back["own_channel_verified"], "author");
    assert_eq!(back["published_at"], 1_788_220_800_i64);
}

#[test]
fn a_missing_required_field_or_a_wrong_type_is_an_error() {
    // `yield` missing.
    let body = success(
        r#"[{"symbol": "KO", "date": "2026-05-08", "record_date": "2026-05-11",
             "payment_date": "2026-05-29", "declaration_date": "2026-04-24",
             "adj_dividend": 0.51, "dividend": 0.51, "frequency": "Quarterly"}]"#,
    );
    let e = serde_json::from_str::<Envelope<PitDividend>>(&body).unwrap_err();
    assert!(e.to_string().contains("yield"), "{e}");
    // `data` must be an array.
    let e = serde_json::from_str::<Envelope<Ssr>>(
        r#"{"success": true, "request_id": "r", "data": {"symbol": "BTC"}}"#,
    );
    assert!(e.is_err());
}

#[test]
fn envelope_without_metadata_and_pagination() {
    let env: Envelope<Ssr> =
        serde_json::from_str(r#"{"success": true, "request_id": "r1", "data": []}"#).unwrap();
    assert_eq!(env.metadata, None);
    assert_eq!(env.pagination, None);
    assert_eq!(env.error, None);
    let back = serde_json::to_value(&env).unwrap();
    assert_eq!(
        back,
        json!({"success": true, "request_id": "r1", "data": []})
    );
}

// ---------------------------------------------------------------------------------------------
// Failure envelopes and error codes
// ---------------------------------------------------------------------------------------------

#[test]
fn decodes_a_failure_envelope() {
    let error = json!({
        "code": "INVALID_PARAMETER",
        "message": "2 invalid parameters",
        "details": [
            {"field": "limit", "got": "0",
             "reason": "must be between 1 and 1000 [rule stock_dividends.limit.range]"},
            {"field": "end_time", "got": "1767225600",
             "reason": "start_time must be before end_time (start_time is 1767225610) [rule stock_dividends.range_order]"}
        ],
        "docs_url": "https://docs.example.com/errors#INVALID_PARAMETER",
        "examples": ["/api/v1/stocks/dividends?symbol=AAPL&start_time=1767225600&end_time=1775001600&time_type=RECORD_DATE"],
        "hint": "Check the range.",
        "suggestions": ["limit=50"],
        "trace": "not part of the record"
    });
    let body = json!({
        "success": false,
        "request_id": "req_err_1",
        "data": [error.clone()],
        "error": error,
    })
    .to_string();
    let env = decode!(ErrorObject, &body);
    assert!(!env.success);
    assert_eq!(env.request_id, "req_err_1");
    let e = env.error.as_ref().expect("error present on failure");
    assert_eq!(e.code, ErrorCode::InvalidParameter);
    assert_eq!(e.code.http_status(), Some(400));
    assert_eq!(e.message, "2 invalid parameters");
    assert_eq!(e.details.len(), 2);
    assert_eq!(
        e.details[0],
        ErrorDetail::new(
            "limit",
            "0",
            "must be between 1 and 1000 [rule stock_dividends.limit.range]"
        )
    );
    assert!(e.details[1].reason.contains("stock_dividends.range_order"));
    assert_eq!(
        e.docs_url.as_deref(),
        Some("https://docs.example.com/errors#INVALID_PARAMETER")
    );
    assert_eq!(e.examples.len(), 1);
    assert_eq!(e.hint.as_deref(), Some("Check the range."));
    assert_eq!(e.suggestions, ["limit=50"]);
    // `data` repeats the error object.
    assert_eq!(env.data, std::slice::from_ref(e));
}

#[test]
fn decodes_an_unknown_error_code_and_a_minimal_error_object() {
    let body = r#"{
        "success": false, "request_id": "req_err_2",
        "data": [{"code": "QUOTA_EXCEEDED", "message": "Monthly quota exceeded"}],
        "error": {"code": "QUOTA_EXCEEDED", "message": "Monthly quota exceeded",
                  "details": null, "examples": null, "suggestions": null, "hint": null}
    }"#;
    let env = decode!(ErrorObject, body);
    let e = env.error.as_ref().unwrap();
    assert_eq!(e.code, ErrorCode::Unknown("QUOTA_EXCEEDED".into()));
    assert!(!e.code.is_known());
    assert_eq!(e.code.as_str(), "QUOTA_EXCEEDED");
    assert_eq!(e.code.http_status(), None);
    assert!(e.details.is_empty() && e.examples.is_empty() && e.suggestions.is_empty());
    assert_eq!((e.docs_url.as_deref(), e.hint.as_deref()), (None, None));
    assert_eq!(env.data[0], *e, "absent and null decode alike");
    // Serialized back: the code as received, empty lists and absent options left out.
    let back = serde_json::to_value(e).unwrap();
    assert_eq!(
        back,
        json!({"code": "QUOTA_EXCEEDED", "message": "Monthly quota exceeded"})
    );
    // Strict parsing of the same text fails.
    assert!("QUOTA_EXCEEDED".parse::<ErrorCode>().is_err());

    // Every documented code decodes to its variant.
    for (code, wire) in ErrorCode::ALL.iter().zip(ErrorCode::WIRE) {
        let e: ErrorObject = serde_json::from_value(json!({"code": wire, "message": "m"})).unwrap();
        assert_eq!(&e.code, code);
    }
    // RESOURCE_NOT_FOUND is documented by the interface description itself.
    let e: ErrorObject =
        serde_json::from_value(json!({"code": "RESOURCE_NOT_FOUND", "message": "no such person"}))
            .unwrap();
    assert_eq!(e.code, ErrorCode::ResourceNotFound);
    assert_eq!(e.code.http_status(), Some(404));
}

#[test]
fn error_code_http_status() {
    assert_eq!(ErrorCode::InvalidParameter.http_status(), Some(400));
    assert_eq!(ErrorCode::Unauthorized.http_status(), Some(401));
    assert_eq!(ErrorCode::ResourceNotFound.http_status(), Some(404));
    assert_eq!(ErrorCode::EndpointRemoved.http_status(), Some(410));
    assert_eq!(ErrorCode::RateLimited.http_status(), Some(429));
    assert_eq!(ErrorCode::InternalError.http_status(), Some(500));
    assert_eq!(ErrorCode::Unknown("TEAPOT".into()).http_status(), None);
    assert_eq!(ErrorCode::NotImplemented.http_status(), Some(501));
    // Every code the spec lists has its status.
    assert!(ErrorCode::ALL.iter().all(|c| c.http_status().is_some()));
}

// ---------------------------------------------------------------------------------------------
// Value sets
// ---------------------------------------------------------------------------------------------

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
        for bad in [$($bad),+] {
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
            let r = serde_json::from_value::<$t>(json!($bad));
            let e = r.expect_err(concat!(stringify!($t), " must reject ", $bad));
            assert!(e.to_string().contains($bad), "{e}");
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
            let v: $t = serde_json::from_value(json!($raw)).unwrap();
            assert_eq!(v, <$t>::Unknown($raw.to_string()));
            assert!(!v.is_known());
            assert_eq!(v.to_string(), $raw);
            assert_eq!(serde_json::to_value(&v).unwrap(), json!($raw));
            // FromStr stays strict.
            assert!($raw.parse::<$t>().is_err());
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

// ---------------------------------------------------------------------------------------------
// API constants
// ---------------------------------------------------------------------------------------------

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
    let spec = mrds_codegen::load_spec(&mrds_tests::workspace_root().join("spec")).unwrap();
    for e in api::ENDPOINTS {
        let method = spec.endpoint_named(e.id).map(|s| s.method.as_str());
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
                && c.method == "GET"
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

/// A `type: any` field (the envelope's `metadata` and `pagination`) keeps any JSON as it came,
/// and encodes back to the same value. (The records are none of the spec's: `data` is empty.)
#[test]
fn an_open_field_keeps_any_json() {
    let body = r#"{"success": true, "request_id": "r", "data": [],
        "metadata": {"nested": {"list": [1, -2, 2.5, null, "x"]}, "flag": true}}"#;
    let env: Envelope<Value> = serde_json::from_str(body).unwrap();
    let metadata = env.metadata.as_ref().unwrap();
    assert_eq!(metadata["nested"]["list"][1].as_i64(), Some(-2));
    assert_eq!(metadata["nested"]["list"][2].as_f64(), Some(2.5));
    assert!(metadata["nested"]["list"][3].is_null());
    assert_eq!(metadata["flag"].as_bool(), Some(true));
    let again: Value = serde_json::to_value(&env).unwrap();
    let original: Value = serde_json::from_str(body).unwrap();
    assert_eq!(again["metadata"], original["metadata"]);
}
