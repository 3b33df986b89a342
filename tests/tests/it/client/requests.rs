//! A successful call and what the client sends: the records and the envelope decoded, the key,
//! user agent and accept headers, query and path values percent-encoded, and redirects followed
//! only within one origin (so the key stays home).

use mrds_client::Client;
use mrds_model::Interval;
use mrds_model::params::{MarketKlineParams, PersonCommentaryParams};
use serde_json::json;

use super::{KEY, PERSON, dividend, dividends, http, serve, success, undecodable};

#[tokio::test]
async fn valid_call_decodes_records_and_envelope() {
    let server = serve(|_, _| http(200, &[], &success(json!([dividend(), dividend()])))).await;
    let page = server.client().stock_dividends(&dividends()).await.unwrap();
    assert_eq!(page.data.len(), 2);
    super::decoded_as_sent(&page.data[0], &dividend());
    assert_eq!(page.request_id, "req-ok-1");
    assert_eq!(
        page.metadata.as_ref().unwrap()["source"].as_str(),
        Some("canned")
    );
    assert_eq!(
        page.pagination.as_ref().unwrap()["limit"].as_i64(),
        Some(50)
    );
    assert_eq!(page.into_iter().count(), 2);

    let seen = server.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        seen[0].target,
        "/api/v1/stocks/dividends?symbol=BRK.B&start_time=1700000000&end_time=1710000000\
         &time_type=PAYMENT_DATE&limit=50"
    );
}

#[tokio::test]
async fn sends_key_user_agent_and_accept() {
    let server = serve(|_, _| http(200, &[], &success(json!([])))).await;
    server.client().stock_dividends(&dividends()).await.unwrap();
    let seen = &server.seen()[0];
    assert_eq!(seen.header("x-api-key"), Some(KEY));
    assert_eq!(
        seen.header("user-agent"),
        Some(mrds_client::DEFAULT_USER_AGENT)
    );
    assert!(mrds_client::DEFAULT_USER_AGENT.starts_with("mrds-client/"));
    assert_eq!(seen.header("accept"), Some("application/json"));

    // No key configured: no key header.
    let anonymous = Client::builder(&server.root).build().unwrap();
    anonymous.stock_dividends(&dividends()).await.unwrap();
    assert_eq!(server.seen()[1].header("x-api-key"), None);
}

#[tokio::test]
async fn custom_user_agent() {
    let server = serve(|_, _| http(200, &[], &success(json!([])))).await;
    let client = Client::builder(&server.root)
        .user_agent("probe/1.0")
        .api_key(KEY)
        .build()
        .unwrap();
    client.stock_dividends(&dividends()).await.unwrap();
    let seen = &server.seen()[0];
    assert_eq!(seen.header("user-agent"), Some("probe/1.0"));
    assert_eq!(seen.header("x-api-key"), Some(KEY));
}

#[tokio::test]
async fn query_and_path_values_are_percent_encoded() {
    let server = serve(|_, _| http(200, &[], &success(json!([])))).await;
    let params = MarketKlineParams::new("US_SPOT_AAPL_USD", Interval::OneDay)
        .with_start_time("2026-07-01T00:00:00+02:00")
        .with_end_time("2026-07-02T00:00:00+02:00");
    server.client().market_kline(&params).await.unwrap();
    let seen = &server.seen()[0];
    assert!(
        seen.target.starts_with("/api/v1/market/kline?"),
        "{}",
        seen.target
    );
    assert_eq!(
        seen.query("start_time"),
        Some("2026-07-01T00%3A00%3A00%2B02%3A00")
    );
    assert_eq!(
        seen.query("end_time"),
        Some("2026-07-02T00%3A00%3A00%2B02%3A00")
    );
    assert_eq!(seen.query("trading_pair"), Some("US_SPOT_AAPL_USD"));

    let params = PersonCommentaryParams::new(PERSON, 1_700_000_000, 1_710_000_000);
    server.client().person_commentary(&params).await.unwrap();
    assert_eq!(
        server.seen()[1].target,
        format!(
            "/api/v1/persons/{PERSON}/commentary?start_time=1700000000&end_time=1710000000&limit=50&offset=0"
        )
    );
}

#[tokio::test]
async fn redirects_are_followed_only_within_one_origin() {
    let server = serve(|n, _| match n {
        0 => http(302, &[("location", "/api/v1/stocks/dividends?moved=1")], ""),
        _ => http(200, &[], &success(json!([]))),
    })
    .await;
    server.client().stock_dividends(&dividends()).await.unwrap();
    let seen = server.seen();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[1].target, "/api/v1/stocks/dividends?moved=1");
    assert_eq!(seen[1].header("x-api-key"), Some(KEY));

    // To another origin: not followed, so the key stays home.
    let elsewhere = serve(|_, _| http(200, &[], &success(json!([])))).await;
    let target = elsewhere.root.replace("127.0.0.1", "localhost");
    let server =
        serve(move |_, _| http(307, &[("location", &format!("{target}/steal"))], "")).await;
    let e = undecodable(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.status, 307);
    assert!(e.reason.contains("redirect"), "{}", e.reason);
    assert_eq!(elsewhere.count(), 0);
}
