//! The generated server and the sample-data server over real HTTP on a loopback port: every
//! endpoint, every rule kind, keys, the removed endpoint, unknown paths and a panicking
//! implementation. Requests are written by hand so the exact query reaches the server.

use std::net::SocketAddr;

use mrds_model::ErrorCode;
use mrds_model::api::{Auth, ENDPOINTS, RequestVisitor};
use mrds_model::records::*;
use mrds_server::{Api, RequestContext, ServerError, StaticKeys};
use serde_json::Value;

use crate::http::{self, Answer};

const KEY: &str = "test-key";

/// Serves `router` on a fresh loopback port for the rest of the test.
async fn serve(router: mrds_server::axum::Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { mrds_server::axum::serve(listener, router).await });
    addr
}

async fn mock() -> SocketAddr {
    serve(mrds_mock::router(StaticKeys::new([KEY]))).await
}

/// `GET /api{target}` with `key` in `X-API-Key` when given.
async fn get(addr: SocketAddr, target: &str, key: Option<&str>) -> Answer {
    http::get(addr, &format!("/api{target}"), key).await
}

/// Decodes the answer of endpoint `id` into its record type (found through
/// `mrds_model::api::visit_requests`); the number of records.
fn decode(id: &str, answer: &Answer) -> usize {
    struct Decode<'a> {
        id: &'a str,
        answer: &'a Answer,
        records: Option<usize>,
    }
    impl RequestVisitor for Decode<'_> {
        fn visit<P>(&mut self)
        where
            P: mrds_model::Request + Clone + std::fmt::Debug + Send + Sync + 'static,
        {
            if P::ENDPOINT.id == self.id {
                self.records = Some(self.answer.records::<P::Record>().len());
            }
        }
    }
    let mut decode = Decode {
        id,
        answer,
        records: None,
    };
    mrds_model::api::visit_requests(&mut decode);
    decode.records.unwrap_or_else(|| panic!("no endpoint {id}"))
}

/// The target of the example request of endpoint `id` (an endpoint named here is a `GET`).
fn example(id: &str) -> &'static str {
    http::example(id).request
}

/// The example request of endpoint `id`, sent as the spec says (its method, its body) with
/// `key`: what tests reaching every endpoint send.
async fn call(addr: SocketAddr, id: &str, key: Option<&str>) -> Answer {
    http::call(addr, "/api", http::example(id), key).await
}

/// The details of a 400 as (field, rule id) pairs, the rule id read from the reason.
fn broken(answer: &Answer) -> Vec<(String, String)> {
    let error = answer.error(400, ErrorCode::InvalidParameter);
    assert!(!error.details.is_empty());
    error
        .details
        .iter()
        .map(|d| {
            let rule = d
                .reason
                .rsplit_once("[rule ")
                .and_then(|(_, r)| r.strip_suffix(']'))
                .unwrap_or_else(|| panic!("reason names no rule: {}", d.reason));
            (d.field.clone(), rule.to_string())
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(f, r)| (f.to_string(), r.to_string()))
        .collect()
}

#[tokio::test]
async fn every_endpoint_answers_its_example_with_records_of_its_type() {
    let addr = mock().await;
    for endpoint in ENDPOINTS.iter().filter(|e| e.removed.is_none()) {
        let answer = call(addr, endpoint.id, Some(KEY)).await;
        let n = decode(endpoint.id, &answer);
        assert!(n > 0, "{}: the example answers no records", endpoint.id);
        // Every record is a JSON object: data is always an array of records.
        assert!(
            answer.json()["data"]
                .as_array()
                .unwrap()
                .iter()
                .all(Value::is_object)
        );
    }
}

#[tokio::test]
async fn every_rule_kind_broken_is_a_400_naming_field_and_rule() {
    let addr = mock().await;
    let cases: &[(&str, &[(&str, &str)])] = &[
        // ordered
        (
            "/v1/stocks/dividends?symbol=AAPL&start_time=20&end_time=20&time_type=RECORD_DATE",
            &[("end_time", "stock_dividends.range_order")],
        ),
        // max_span, only for some event types
        (
            "/v1/stocks/screener/events?event_type=Split%20Date&start_time=0&end_time=31622401",
            &[("end_time", "screener_events.max_span")],
        ),
        // requires
        (
            "/v1/stocks/research/units?doc_id=a1b2c3d4e5f60718&idx=1",
            &[("idx", "research_units.idx_requires_kind")],
        ),
        // at_least_one
        (
            "/v1/stocks/company/detail",
            &[("symbol", "company_detail.symbol_or_name")],
        ),
        // allowed_values under a condition
        (
            "/v1/market/kline?trading_pair=FX_SPOT_EURUSD_USD&interval=1h",
            &[("interval", "market_kline.fx_daily_only")],
        ),
        // matches under a condition
        (
            "/v1/market/kline?trading_pair=US_OPTION_AAPL_USD&interval=1d",
            &[("trading_pair", "market_kline.option_symbol")],
        ),
        // per parameter: required, values, range, pattern, format
        (
            "/v1/etf/flow?symbol=SPY&start_time=1",
            &[("end_time", "etf_flow.end_time.required")],
        ),
        (
            "/v1/crypto/metrics/ssr?symbol=ETH",
            &[("symbol", "ssr.symbol.pattern")],
        ),
        (
            // A limit past the spec's largest: see below.
            "/v1/stocks/equity-offering?limit=PAST_MAX",
            &[("limit", "equity_offering.limit.range")],
        ),
        (
            "/v1/stocks/non-us/kline?symbol=0700HK&start_time=1&end_time=2",
            &[("symbol", "non_us_kline.symbol.pattern")],
        ),
        (
            "/v1/stocks/research/units?doc_id=xyz",
            &[("doc_id", "research_units.doc_id.format")],
        ),
        (
            "/v1/persons/not-a-uuid/commentary?start_time=1&end_time=2",
            &[("person_id", "person_commentary.person_id.format")],
        ),
    ];
    // The spec's largest limit, read from it (a release may widen the bound).
    let past = (mrds_tests::integer_bounds("equity_offering", "limit").1 + 1).to_string();
    for (target, expected) in cases {
        let target = target.replace("PAST_MAX", &past);
        let answer = get(addr, &target, Some(KEY)).await;
        assert_eq!(broken(&answer), pairs(expected), "{target}");
    }
}

#[tokio::test]
async fn several_problems_are_all_reported() {
    let addr = mock().await;
    let answer = get(
        addr,
        "/v1/stocks/dividends?symbol=AAPL&start_time=9&end_time=5&time_type=NOPE&limit=0",
        Some(KEY),
    )
    .await;
    assert_eq!(
        broken(&answer),
        pairs(&[
            ("time_type", "stock_dividends.time_type.values"),
            ("limit", "stock_dividends.limit.range"),
            ("end_time", "stock_dividends.range_order"),
        ])
    );
    let error = answer.error(400, ErrorCode::InvalidParameter);
    assert_eq!(error.details[0].got, "NOPE");
    assert_eq!(error.details[1].got, "0");
}

#[tokio::test]
async fn repeated_and_unparsable_parameters_are_invalid_and_unknown_ones_ignored() {
    let addr = mock().await;
    // An integer parameter of the first served example that has one.
    let x = mrds_tests::IntegerExample::find();
    let (name, value) = (x.param.as_str(), x.value().to_string());
    let repeated = get(
        addr,
        &x.with(&value, &format!("&{name}={value}")),
        Some(KEY),
    )
    .await;
    assert_eq!(broken(&repeated), pairs(&[(name, &x.rule("repeated"))]));

    let letter = get(addr, &x.with("17645x", ""), Some(KEY)).await;
    assert_eq!(broken(&letter), pairs(&[(name, &x.rule("type"))]));
    assert_eq!(
        letter.error(400, ErrorCode::InvalidParameter).details[0].got,
        "17645x"
    );

    let huge = get(addr, &x.with("9223372036854775808", ""), Some(KEY)).await;
    assert_eq!(broken(&huge), pairs(&[(name, &x.rule("type"))]));

    let example = get(addr, &x.with(&value, ""), Some(KEY)).await;
    let unknown = get(addr, &x.with(&value, "&colour=blue"), Some(KEY)).await;
    assert_eq!(
        unknown.status,
        200,
        "{}",
        String::from_utf8_lossy(&unknown.body)
    );
    assert_eq!(unknown.json()["data"], example.json()["data"]);
}

#[tokio::test]
async fn keys_are_required_where_the_spec_says_and_checked_everywhere() {
    let addr = mock().await;
    let required: Vec<_> = ENDPOINTS
        .iter()
        .filter(|e| e.auth == Auth::Required)
        .collect();
    assert!(!required.is_empty());
    for endpoint in required {
        let example = match mrds_mock::EXAMPLES
            .iter()
            .find(|x| x.endpoint == endpoint.id)
        {
            Some(example) => *example,
            None => mrds_mock::Example {
                endpoint: endpoint.id,
                method: endpoint.method,
                request: endpoint.path,
                body: None,
            },
        };
        let longer = format!("{KEY}x");
        for key in [
            None,
            Some("wrong-key"),
            Some(""),
            Some(&KEY[..KEY.len() - 1]),
            Some(&longer),
        ] {
            let answer = http::call(addr, "/api", &example, key).await;
            let error = answer.error(401, ErrorCode::Unauthorized);
            assert!(!String::from_utf8_lossy(&answer.body).contains(KEY));
            assert!(error.message.contains("API key"), "{}", error.message);
        }
    }
    // Those the spec serves (a removed one answers 410 to every key).
    let optional = ENDPOINTS.iter().filter(|e| e.removed.is_none());
    for endpoint in optional.filter(|e| e.auth == Auth::Optional) {
        let id = endpoint.id;
        assert!(decode(id, &call(addr, id, None).await) > 0);
        assert!(decode(id, &call(addr, id, Some(KEY)).await) > 0);
        call(addr, id, Some("wrong-key"))
            .await
            .error(401, ErrorCode::Unauthorized);
    }
}

#[tokio::test]
async fn the_removed_endpoint_answers_410_and_unknown_paths_404() {
    let addr = mock().await;
    // Every endpoint the spec marks removed, with the date of its removal.
    let removed: Vec<_> = (ENDPOINTS.iter())
        .filter_map(|e| Some((e, e.removed?)))
        .collect();
    assert!(!removed.is_empty(), "the spec marks an endpoint removed");
    for (e, removal) in removed {
        let error = call(addr, e.id, Some(KEY))
            .await
            .error(410, ErrorCode::EndpointRemoved);
        assert!(error.message.contains(removal.date), "{}", error.message);
    }

    for target in [
        "/v1/nothing",
        "/v2/stocks/dividends",
        "/v1/stocks/dividends/",
        "",
    ] {
        let error = get(addr, target, Some(KEY))
            .await
            .error(404, ErrorCode::ResourceNotFound);
        // The hint names the spec's base path, which the generated router hands the runtime.
        let hint = error.hint.unwrap_or_default();
        let base = mrds_model::api::BASE_PATH;
        assert!(hint.contains(&format!("{base}/openapi.json")), "{hint}");
    }
}

#[tokio::test]
async fn a_removed_endpoint_can_be_served_when_the_implementation_chooses() {
    let addr = serve(mrds_server::router(
        mrds_mock::Mock::serving_removed(),
        StaticKeys::new([KEY]),
    ))
    .await;
    for e in ENDPOINTS.iter().filter(|e| e.removed.is_some()) {
        let answer = call(addr, e.id, Some(KEY)).await;
        assert!(
            decode(e.id, &answer) > 0,
            "{} answers its sample records",
            e.id
        );
    }
}

// ---------------------------------------------------------------- the sample data's behaviour

/// The records of a 200 answer as JSON, by wire name: the tests of one endpoint's sample data
/// read its fields so, since a release may retype one (they are run while the endpoint and the
/// fields they read are the spec's: [`sample_data_of`]).
fn rows(answer: &Answer) -> Vec<Value> {
    assert_eq!(
        answer.status,
        200,
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
    answer.json()["data"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Whether the tests of endpoint `id`'s sample data run: the spec serves it, and its record
/// still has `fields` (a release may remove the endpoint, or rename a field).
fn sample_data_of(id: &str, fields: &[&str]) -> bool {
    let api = mrds_tests::real_spec();
    let Some(e) = api.endpoint_named(id).filter(|e| e.removed.is_none()) else {
        return false;
    };
    let record = api.returns(e);
    fields.iter().all(|f| record.field_named(f).is_some())
}

/// A value as an instant, a number or a text, in that order (as the sample server compares
/// them), for ordering checks that do not depend on the field's type.
fn key(v: &Value) -> (Option<i64>, Option<f64>, String) {
    let text = v.as_str().map_or_else(|| v.to_string(), str::to_string);
    let instant = match v {
        Value::String(s) => mrds_runtime::text::instant_seconds(s),
        _ => None,
    };
    (instant, v.as_f64().or_else(|| text.parse().ok()), text)
}

fn descending(rows: &[Value], field: &str) -> bool {
    rows.windows(2).all(|w| {
        let (a, b) = (key(&w[0][field]), key(&w[1][field]));
        a.0.zip(b.0).map_or_else(
            || a.1.zip(b.1).map_or(a.2 > b.2, |(x, y)| x > y),
            |(x, y)| x > y,
        )
    })
}

#[tokio::test]
async fn samples_filter_by_range_cap_by_limit_and_apply_defaults() {
    let addr = mock().await;
    // Dividends ordered by the chosen date, newest first, ranged on it.
    if sample_data_of("stock_dividends", &["payment_date", "declaration_date"]) {
        let all = rows(&get(addr, example("stock_dividends"), Some(KEY)).await);
        assert_eq!(all.len(), 5);
        assert!(descending(&all, "payment_date"));
        let target = "/v1/stocks/dividends?symbol=AAPL&start_time=1767225600&end_time=1798761600&time_type=DECLARATION_DATE&limit=2";
        let capped = rows(&get(addr, target, Some(KEY)).await);
        assert_eq!(capped.len(), 2);
        assert!(descending(&capped, "declaration_date"));
        // Record date range: 2026-02-01 .. 2026-06-01 holds two ex-dates.
        let target = "/v1/stocks/dividends?symbol=AAPL&start_time=1769904000&end_time=1780272000&time_type=RECORD_DATE";
        assert_eq!(rows(&get(addr, target, Some(KEY)).await).len(), 2);
    }

    // Non-US kline: the default interval is 1d; bars newest first.
    if sample_data_of("non_us_kline", &["time_open", "time_close"]) {
        let bars = rows(&get(addr, example("non_us_kline"), Some(KEY)).await);
        assert_eq!(bars.len(), 5);
        assert!(descending(&bars, "time_open"));
        for b in &bars {
            let (open, close) = (key(&b["time_open"]).1, key(&b["time_close"]).1);
            assert_eq!(close.zip(open).map(|(c, o)| c - o), Some(86_399.0), "{b}");
        }
        let limited = format!("{}&limit=2", example("non_us_kline"));
        assert_eq!(rows(&get(addr, &limited, Some(KEY)).await).len(), 2);
    }

    // Commentary: pages by limit and offset.
    if sample_data_of("person_commentary", &["published_at"]) {
        let id = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f";
        let range = "start_time=1793491200&end_time=1796083200";
        let mut seen = Vec::new();
        for offset in [0, 2, 4] {
            let target = format!("/v1/persons/{id}/commentary?{range}&limit=2&offset={offset}");
            seen.extend(rows(&get(addr, &target, None).await));
        }
        assert_eq!(seen.len(), 4);
        assert!(descending(&seen, "published_at"), "newest first: {seen:?}");
    }
}

/// An endpoint whose samples answer only the latest record when none of some parameters is
/// given (`latest_without`): its example without those parameters is answered with one record.
/// Read from the model, for every such endpoint the spec serves.
#[tokio::test]
async fn samples_answer_the_latest_record_alone_when_no_range_is_given() {
    let addr = mock().await;
    let api = mrds_tests::real_spec();
    for e in api.endpoints.iter().filter(|e| e.removed.is_none()) {
        let Some(samples) = e.samples.as_ref().filter(|s| !s.latest_without.is_empty()) else {
            continue;
        };
        let left_out: Vec<&str> = (samples.latest_without.iter())
            .map(|id| e.param(*id).wire.as_str())
            .collect();
        let (path, query) = samples
            .example
            .split_once('?')
            .unwrap_or((&samples.example, ""));
        let kept: Vec<&str> = (query.split('&'))
            .filter(|pair| !pair.is_empty())
            .filter(|pair| !left_out.contains(&pair.split('=').next().unwrap_or_default()))
            .collect();
        let target = format!("{path}?{}", kept.join("&"));
        let answer = get(addr, &target, Some(KEY)).await;
        assert_eq!(
            decode(&e.id, &answer),
            1,
            "{target}: the latest record alone"
        );
    }
}

#[tokio::test]
async fn samples_keep_the_documented_orderings_and_spellings() {
    let addr = mock().await;
    if sample_data_of("forex_historical", &["date"]) {
        let forex =
            "/v1/macro/forex/historical?symbol=EURUSD&start_time=1794787200&end_time=1796083200";
        let newest_first = rows(&get(addr, forex, Some(KEY)).await);
        assert!(descending(&newest_first, "date"));
        let mut oldest_first =
            rows(&get(addr, &format!("{forex}&sort_order=asc"), Some(KEY)).await);
        assert_eq!(oldest_first.len(), newest_first.len());
        oldest_first.reverse();
        assert!(descending(&oldest_first, "date"));
    }

    if sample_data_of("stock_dividends", &["symbol"]) {
        for spelling in ["BF.B", "BF-B"] {
            let target = format!(
                "/v1/stocks/dividends?symbol={spelling}&start_time=1735689600&end_time=1798761600&time_type=RECORD_DATE"
            );
            let rows = rows(&get(addr, &target, Some(KEY)).await);
            assert_eq!(rows.len(), 3);
            assert!(rows.iter().all(|r| r["symbol"] == spelling));
        }
    }
    // The company profiles' samples, while the spec serves the endpoint (a release may
    // remove it).
    if !sample_data_of("company_detail", &["symbol"]) {
        return;
    }
    for spelling in ["BRK.B", "BRK-B"] {
        let target = format!("/v1/stocks/company/detail?symbol={spelling}");
        let rows = rows(&get(addr, &target, Some(KEY)).await);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0]["symbol"], spelling);
    }
    // Name keyword: case-insensitive part of the name, in English or Chinese; symbol wins.
    for keyword in ["apple", "APPLE%20INC", "%E8%8B%B9%E6%9E%9C"] {
        let target = format!("/v1/stocks/company/detail?name_kw={keyword}");
        let rows = rows(&get(addr, &target, Some(KEY)).await);
        assert_eq!(rows.len(), 1, "{keyword}");
        assert_eq!(rows[0]["symbol"], "AAPL");
    }
    let both = "/v1/stocks/company/detail?symbol=MSFT&name_kw=apple";
    assert_eq!(rows(&get(addr, both, Some(KEY)).await)[0]["symbol"], "MSFT");
    let none = get(addr, "/v1/stocks/company/detail?symbol=ZZZZ", Some(KEY)).await;
    assert!(rows(&none).is_empty(), "no match is not an error");
}

#[tokio::test]
async fn samples_answer_empty_or_404_where_the_spec_says() {
    let addr = mock().await;
    // Intraday bars of a symbol outside the polling pool: an empty array, not an error.
    if sample_data_of("non_us_kline", &[]) {
        let outside = "/v1/stocks/non-us/kline?symbol=7203.T&start_time=1794787200&end_time=1796083200&interval=5min";
        assert!(rows(&get(addr, outside, Some(KEY)).await).is_empty());
        let daily = outside.replace("&interval=5min", "");
        assert_eq!(rows(&get(addr, &daily, Some(KEY)).await).len(), 4);
        let pool = outside.replace("7203.T", "0700.HK").replace("5min", "1min");
        assert_eq!(rows(&get(addr, &pool, Some(KEY)).await).len(), 4);
    }

    // A document or person not in the sample set: 404.
    if sample_data_of("research_units", &["idx", "heading"]) {
        let doc = get(
            addr,
            "/v1/stocks/research/units?doc_id=ffffffffffffffff",
            Some(KEY),
        )
        .await;
        let error = doc.error(404, ErrorCode::ResourceNotFound);
        assert!(
            error.message.contains("ffffffffffffffff"),
            "{}",
            error.message
        );

        // A known document narrowed by kind and index.
        let units = "/v1/stocks/research/units?doc_id=a1b2c3d4e5f60718";
        let all = rows(&get(addr, units, Some(KEY)).await);
        let idx: Vec<Option<f64>> = all.iter().map(|u| key(&u["idx"]).1).collect();
        assert_eq!(idx, [Some(0.0), Some(1.0), Some(2.0), Some(3.0)]);
        let exhibits = rows(&get(addr, &format!("{units}&kind=exhibit"), Some(KEY)).await);
        assert_eq!(exhibits.len(), 2);
        let one = rows(&get(addr, &format!("{units}&kind=exhibit&idx=3"), Some(KEY)).await);
        assert_eq!(one.len(), 1);
        assert_eq!(one[0]["heading"], "Exhibit 2: Gross margin");
    }
    if sample_data_of("person_commentary", &[]) {
        let person =
            "/v1/persons/00000000-0000-4000-8000-000000000000/commentary?start_time=1&end_time=2";
        get(addr, person, None)
            .await
            .error(404, ErrorCode::ResourceNotFound);
    }
    // An empty range is an empty array.
    if sample_data_of("etf_flow", &[]) {
        let empty = "/v1/etf/flow?symbol=SPY&start_time=1&end_time=2";
        assert!(rows(&get(addr, empty, Some(KEY)).await).is_empty());
    }
}

#[tokio::test]
async fn rfc3339_ranges_of_the_unified_kline_filter() {
    if !sample_data_of("market_kline", &["time_open"]) {
        return;
    }
    let addr = mock().await;
    let target = "/v1/market/kline?trading_pair=US_SPOT_AAPL_USD&interval=1d&start_time=2026-11-17T00:00:00Z&end_time=2026-11-18T12:00:00%2B02:00";
    let candles = rows(&get(addr, target, None).await);
    let opens: Vec<Option<i64>> = candles.iter().map(|c| key(&c["time_open"]).0).collect();
    let days = ["2026-11-17T00:00:00Z", "2026-11-18T00:00:00Z"];
    assert_eq!(opens, days.map(mrds_runtime::text::instant_seconds));
    // A `+` that was not percent-encoded is a space, and the timestamp is invalid.
    let plus = target.replace("%2B", "+");
    assert_eq!(
        broken(&get(addr, &plus, None).await),
        pairs(&[("end_time", "market_kline.end_time.format")])
    );
}

// ---------------------------------------------------------------- failures inside an implementation

/// The sample data, except that dividends panic and ETF flows fail with an internal error.
struct Faulty(mrds_mock::Mock);

impl Api for Faulty {
    fn fallback(&self) -> &impl Api {
        &self.0
    }

    async fn stock_dividends(
        &self,
        _ctx: RequestContext,
        params: mrds_model::params::StockDividendsParams,
    ) -> Result<Vec<PitDividend>, ServerError> {
        panic!("database password is hunter2 (symbol {})", params.symbol);
    }

    async fn etf_flow(
        &self,
        _ctx: RequestContext,
        _params: mrds_model::params::EtfFlowParams,
    ) -> Result<Vec<EtfFlow>, ServerError> {
        Err(ServerError::internal("connection to db-7 refused"))
    }
}

#[tokio::test]
async fn a_panic_or_internal_error_is_a_500_without_detail_and_the_server_keeps_serving() {
    let addr = serve(mrds_server::router(
        Faulty(mrds_mock::Mock::new()),
        StaticKeys::new([KEY]),
    ))
    .await;
    for _ in 0..2 {
        let answer = get(addr, example("stock_dividends"), Some(KEY)).await;
        let error = answer.error(500, ErrorCode::InternalError);
        let body = String::from_utf8_lossy(&answer.body);
        assert!(
            !body.contains("hunter2") && !body.contains("panic"),
            "{body}"
        );
        assert_eq!(error.message, "internal error");

        let answer = get(addr, example("etf_flow"), Some(KEY)).await;
        answer.error(500, ErrorCode::InternalError);
        assert!(!String::from_utf8_lossy(&answer.body).contains("db-7"));

        // The next request is served.
        let served = mrds_tests::served_example();
        let ok = get(addr, served.request, Some(KEY)).await;
        assert!(decode(served.endpoint, &ok) > 0);
    }
}

#[tokio::test]
async fn request_ids_differ_per_request() {
    let addr = mock().await;
    let target = mrds_tests::served_example().request;
    let a = get(addr, target, Some(KEY)).await;
    let b = get(addr, target, Some(KEY)).await;
    assert_ne!(a.header("x-request-id"), b.header("x-request-id"));
    // `req_` and 128 random bits in hex: no shared prefix as a counter would have.
    let (a, b) = (
        a.header("x-request-id").unwrap(),
        b.header("x-request-id").unwrap(),
    );
    assert_eq!((a.len(), b.len()), (36, 36), "{a} {b}");
    assert_ne!(a[..20], b[..20]);
}

#[tokio::test]
async fn the_openapi_document_is_served_without_a_key() {
    let addr = mock().await;
    let answer = get(addr, "/openapi.json", None).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("content-type"), Some("application/json"));
    assert_eq!(answer.body, mrds_server::OPENAPI_JSON.as_bytes());
    let on_disk = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/mrds-server/openapi.json"
    ))
    .unwrap();
    assert_eq!(answer.body, on_disk);
    assert_eq!(answer.json()["openapi"], "3.1.0");
}

#[tokio::test]
async fn every_configured_key_is_accepted_whatever_its_length() {
    let addr = serve(mrds_mock::router(StaticKeys::new([
        "k",
        "a-much-longer-key",
        "k2",
    ])))
    .await;
    let served = mrds_tests::served_example();
    for key in ["k", "a-much-longer-key", "k2"] {
        let answer = get(addr, served.request, Some(key)).await;
        assert!(decode(served.endpoint, &answer) > 0, "{key}");
    }
    let target = served.request;
    for key in ["", "K", "k3", "a-much-longer-ke", "a-much-longer-key0"] {
        get(addr, target, Some(key))
            .await
            .error(401, ErrorCode::Unauthorized);
    }
}

/// An implementation of no endpoint (the trait's defaults): every endpoint answers 501
/// `NOT_IMPLEMENTED` in the envelope, naming its path, after the key and parameter checks; the
/// removed endpoint still answers 410.
#[tokio::test]
#[allow(deprecated)]
async fn endpoints_an_implementation_leaves_out_answer_501_in_the_envelope() {
    let addr = serve(mrds_server::router(
        mrds_server::NotImplemented,
        StaticKeys::new([KEY]),
    ))
    .await;
    for endpoint in ENDPOINTS {
        let answer = call(addr, endpoint.id, Some(KEY)).await;
        if endpoint.removed.is_some() {
            answer.error(410, ErrorCode::EndpointRemoved);
            continue;
        }
        let error = answer.error(501, ErrorCode::NotImplemented);
        assert!(error.message.contains(endpoint.path), "{}", error.message);
        assert!(error.hint.is_some());
        // The key and the parameters are checked first.
        if endpoint.auth == Auth::Required {
            call(addr, endpoint.id, None)
                .await
                .error(401, ErrorCode::Unauthorized);
        }
    }
}

/// The sample data except one endpoint, through `fallback`: the wrapper writes only what it
/// changes.
#[tokio::test]
async fn a_wrapper_changes_one_endpoint_and_falls_back_for_the_others() {
    struct OneChanged(mrds_mock::Mock);
    impl Api for OneChanged {
        fn fallback(&self) -> &impl Api {
            &self.0
        }
        async fn etf_flow(
            &self,
            _ctx: RequestContext,
            _params: mrds_model::params::EtfFlowParams,
        ) -> Result<Vec<EtfFlow>, ServerError> {
            Err(ServerError::not_found("no flows today"))
        }
    }
    let addr = serve(mrds_server::router(
        OneChanged(mrds_mock::Mock::new()),
        StaticKeys::new([KEY]),
    ))
    .await;
    let error = get(addr, example("etf_flow"), Some(KEY))
        .await
        .error(404, ErrorCode::ResourceNotFound);
    assert_eq!(error.message, "no flows today");
    for endpoint in ENDPOINTS
        .iter()
        .filter(|e| e.removed.is_none() && e.id != "etf_flow")
    {
        let answer = call(addr, endpoint.id, Some(KEY)).await;
        assert!(decode(endpoint.id, &answer) > 0, "{}", endpoint.id);
    }
}
