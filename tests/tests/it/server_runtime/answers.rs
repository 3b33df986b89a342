//! The service's answers: 404, 405, 401, 400 and 429 are envelopes with request ids; a repeated
//! key is refused; incoming request ids are adopted only when trusted; large answers are
//! gzipped for clients that ask; integers have one spelling; the command line follows the
//! `Prefer` header unless told not to.

use mrds_model::ErrorCode;
use mrds_server::RateLimit;

use super::{KEY, Process, config, serve, slow_target, target};
use crate::http::{assert_request_id, get, send};

#[tokio::test]
async fn answers_404_405_401_400_429_are_envelopes_with_request_ids() {
    let target = target();
    let addr = serve(config().with_rate_limit(Some(RateLimit::per_minute(3)))).await;
    let mut ids = std::collections::HashSet::new();

    let answer = get(addr, "/api/v1/nothing", Some(KEY)).await;
    ids.insert(answer.header("x-request-id").unwrap().to_string());
    answer.error(404, ErrorCode::ResourceNotFound);

    for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
        let answer = send(addr, method, target, &[("X-API-Key", KEY)]).await;
        ids.insert(answer.header("x-request-id").unwrap().to_string());
        let error = answer.error(405, ErrorCode::ResourceNotFound);
        assert!(error.message.contains(method), "{}", error.message);
        assert_eq!(answer.header("allow"), Some("GET,HEAD"), "{method}");
    }
    let answer = send(addr, "POST", "/api/openapi.json", &[]).await;
    answer.error(405, ErrorCode::ResourceNotFound);

    let answer = get(addr, target, None).await;
    answer.error(401, ErrorCode::Unauthorized);
    assert_eq!(
        answer.header("www-authenticate"),
        Some(r#"ApiKey header="X-API-Key""#)
    );
    let answer = get(addr, target, Some("wrong")).await;
    answer.error(401, ErrorCode::Unauthorized);
    assert!(answer.header("www-authenticate").is_some());

    // A limit past the spec's largest (read from it: a release may widen the bound).
    let past = mrds_tests::integer_bounds("equity_offering", "limit").1 + 1;
    let target_past = format!("/api/v1/stocks/equity-offering?limit={past}");
    let answer = get(addr, &target_past, Some(KEY)).await;
    answer.error(400, ErrorCode::InvalidParameter);

    // Three requests a minute per key: the fourth is 429 with Retry-After; another key and
    // callers without a key have their own buckets.
    for _ in 0..3 {
        assert_eq!(get(addr, target, Some("other-key")).await.status, 200);
    }
    let answer = get(addr, target, Some("other-key")).await;
    ids.insert(answer.header("x-request-id").unwrap().to_string());
    let error = answer.error(429, ErrorCode::RateLimited);
    let retry: u64 = answer.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert!(error.message.contains("retry after"), "{}", error.message);
    assert_eq!(get(addr, target, Some(KEY)).await.status, 200);
    assert_eq!(ids.len(), 4 + 3, "request ids differ");
}

#[tokio::test]
async fn a_repeated_key_is_refused() {
    let target = target();
    let addr = serve(config()).await;
    for keys in [[KEY, KEY], [KEY, "other-key"], ["wrong", KEY]] {
        let answer = send(
            addr,
            "GET",
            target,
            &[("X-API-Key", keys[0]), ("X-API-Key", keys[1])],
        )
        .await;
        let error = answer.error(401, ErrorCode::Unauthorized);
        assert!(error.message.contains("2 times"), "{}", error.message);
        assert!(answer.header("www-authenticate").is_some());
        assert!(!String::from_utf8_lossy(&answer.body).contains(KEY));
    }
    // Also where a key is optional.
    let kline = "/api/v1/market/kline?trading_pair=US_SPOT_AAPL_USD&interval=1d";
    assert_eq!(get(addr, kline, None).await.status, 200);
    send(
        addr,
        "GET",
        kline,
        &[("X-API-Key", KEY), ("x-api-key", KEY)],
    )
    .await
    .error(401, ErrorCode::Unauthorized);
}

#[tokio::test]
async fn incoming_request_ids_are_adopted_only_when_trusted() {
    let target = target();
    let plain = serve(config()).await;
    let trusting = serve(config().with_trust_request_id(true)).await;
    let header = [("X-API-Key", KEY), ("X-Request-Id", "lb-7f3a:01")];
    let answer = send(plain, "GET", target, &header).await;
    assert_request_id(answer.header("x-request-id").unwrap());
    let answer = send(trusting, "GET", target, &header).await;
    assert_eq!(answer.header("x-request-id"), Some("lb-7f3a:01"));
    assert_eq!(answer.json()["request_id"], "lb-7f3a:01");
    // An invalid one is replaced.
    let bad = [("X-API-Key", KEY), ("X-Request-Id", "has spaces{}")];
    let answer = send(trusting, "GET", target, &bad).await;
    assert_request_id(answer.header("x-request-id").unwrap());
}

#[tokio::test]
async fn large_answers_are_gzipped_for_clients_that_ask() {
    let target = target();
    let small = serve(config()).await;
    let from_64_bytes = serve(config().with_compression_min_bytes(64)).await;
    let gzip = [("X-API-Key", KEY), ("Accept-Encoding", "gzip")];
    let plain = send(from_64_bytes, "GET", target, &[("X-API-Key", KEY)]).await;
    assert_eq!(plain.header("content-encoding"), None);
    assert!(plain.body.len() > 64);
    // A request that does not ask skips the compression layer, but its answer still says
    // that it would differ for one that asks (a cache must not reuse it for both).
    assert_eq!(plain.header("vary"), Some("accept-encoding"));
    let zipped = send(from_64_bytes, "GET", target, &gzip).await;
    assert_eq!(zipped.status, 200);
    assert_eq!(zipped.header("content-encoding"), Some("gzip"));
    assert_eq!(zipped.header("vary"), Some("accept-encoding"));
    assert_eq!(zipped.body[..2], [0x1f, 0x8b]);
    // The same answer, and smaller where there is enough of it to gain (the served example's
    // answer is whatever the spec's samples hold).
    let mut unzipped = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(&zipped.body[..]),
        &mut unzipped,
    )
    .unwrap();
    let data =
        |body: &[u8]| serde_json::from_slice::<serde_json::Value>(body).unwrap()["data"].take();
    assert_eq!(data(&unzipped), data(&plain.body));
    if plain.body.len() > 512 {
        assert!(zipped.body.len() < plain.body.len());
    }
    // Below the default threshold (4 KiB) the answer is sent as it is; so are errors.
    let answer = send(small, "GET", target, &gzip).await;
    assert_eq!(answer.header("content-encoding"), None);
    assert_eq!(answer.header("vary"), None);
    assert!(answer.body.len() < 4096);
    let answer = send(small, "GET", target, &[("X-API-Key", KEY)]).await;
    assert_eq!(answer.header("vary"), None);
    let off = serve(
        config()
            .with_compression(false)
            .with_compression_min_bytes(64),
    )
    .await;
    let answer = send(off, "GET", target, &gzip).await;
    assert_eq!(answer.header("content-encoding"), None);
    assert_eq!(answer.header("vary"), None);
    let answer = send(from_64_bytes, "GET", "/api/v1/nothing", &gzip).await;
    assert_eq!(answer.status, 404);
}

#[tokio::test]
async fn integers_have_one_spelling() {
    let addr = serve(config()).await;
    // An integer parameter of the first served example that has one.
    let x = mrds_tests::IntegerExample::find();
    let at = |raw: &str| format!("/api{}", x.with(raw, ""));
    assert_eq!(get(addr, &at(x.value()), Some(KEY)).await.status, 200);
    assert_eq!(get(addr, &at("0"), Some(KEY)).await.status, 200);
    // `+5`, leading zeros, `-0`, a space (encoded or as `+`), overflow.
    for raw in [
        "%2B5",
        "05",
        "-0",
        "%205",
        "+5",
        "5%20",
        "0x10",
        "9223372036854775808",
    ] {
        let error = get(addr, &at(raw), Some(KEY))
            .await
            .error(400, ErrorCode::InvalidParameter);
        assert_eq!(error.details.len(), 1, "{raw}");
        assert_eq!(error.details[0].field, x.param);
        assert!(
            error.details[0].reason.contains(&x.rule("type")),
            "{raw}: {}",
            error.details[0].reason
        );
    }
}

#[tokio::test]
async fn the_command_line_follows_prefer_unless_told_not_to() {
    let target = slow_target();
    let process = Process::start(0, &["--api-key", KEY]);
    let prefer = |value| [("X-API-Key", KEY), ("Prefer", value)];
    let answer = send(
        process.addr,
        "GET",
        target,
        &prefer("code=429, retry-after=0"),
    )
    .await;
    answer.error(429, ErrorCode::RateLimited);
    assert_eq!(answer.header("retry-after"), Some("0"));
    assert_eq!(
        answer.header("preference-applied"),
        Some("code=429, retry-after=0")
    );
    // A status the spec has no code for: bare, as a gateway answers it.
    let answer = send(process.addr, "GET", target, &prefer("code=502")).await;
    assert_eq!((answer.status, answer.body.len()), (502, 0));
    assert_eq!(answer.header("preference-applied"), Some("code=502"));
    let answer = send(process.addr, "GET", target, &prefer("code=99")).await;
    let error = answer.error(400, ErrorCode::InvalidParameter);
    assert!(
        error
            .hint
            .as_deref()
            .unwrap_or_default()
            .contains("500 INTERNAL_ERROR"),
        "{error:?}"
    );
    drop(process);

    let process = Process::start(0, &["--api-key", KEY, "--no-prefer"]);
    let answer = send(process.addr, "GET", target, &prefer("code=429")).await;
    assert_eq!(answer.status, 200);
}
