//! The errors a call ends with, by variant: invalid input (checked before sending, so nothing
//! is sent), the service's error envelopes as API errors (any status, `success: false` with
//! 200, unknown codes), error statuses without the error object (bare, HTML, JSON of another
//! shape: what a proxy or gateway answers), and answers that cannot be decoded (not JSON,
//! truncated, cut, empty, wrong records, long bodies cut to the prefix); and what every error
//! answers alike (`is_timeout`, `is_retryable`, `status`, `code`, `request_id`,
//! `retry_after`, `attempts`).

use mrds_client::{Client, Error};
use mrds_model::params::{PersonCommentaryParams, StockDividendsParams};
use mrds_model::{ErrorCode, TimeType};
use serde_json::{Value, json};

use super::{
    Reply, api_error, dividend, dividends, failure, http, serve, status_error, success, undecodable,
};

// ---------------------------------------------------------------------------------------------
// Validation before sending
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn invalid_params_fail_without_traffic() {
    let server = serve(|_, _| http(200, &[], &success(json!([])))).await;
    let params =
        StockDividendsParams::new("BRK.B", 1_710_000_000, 1_700_000_000, TimeType::PaymentDate)
            .with_limit(0);
    let err = server.client().stock_dividends(&params).await.unwrap_err();
    let Error::InvalidInput(validation) = &err else {
        panic!("expected invalid input, got {err:?}");
    };
    assert_eq!(validation, &params.validate().unwrap_err());
    assert!(
        validation.breaks("stock_dividends.limit.range"),
        "{validation}"
    );
    assert!(
        validation.breaks("stock_dividends.range_order"),
        "{validation}"
    );

    let object = err.error_object().unwrap();
    assert_eq!(object.code, ErrorCode::InvalidParameter);
    assert_eq!(object.details.len(), validation.issues.len());
    assert!(err.to_string().contains("nothing was sent"), "{err}");
    assert_eq!(err.status(), None);
    assert_eq!(err.attempts(), 0);
    assert_eq!(err.code(), Some(ErrorCode::InvalidParameter));
    assert!(!err.is_retryable() && !err.is_timeout());

    let params = PersonCommentaryParams::new("not-a-uuid", 1, 2);
    let err = server
        .client()
        .person_commentary(&params)
        .await
        .unwrap_err();
    assert!(matches!(err, Error::InvalidInput(_)), "{err:?}");
    assert_eq!(
        server.count(),
        0,
        "an invalid call must not reach the server"
    );
}

// ---------------------------------------------------------------------------------------------
// Error envelopes
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn error_envelopes_map_to_api_errors() {
    let cases = [
        (400, "INVALID_PARAMETER", ErrorCode::InvalidParameter),
        (401, "UNAUTHORIZED", ErrorCode::Unauthorized),
        (404, "RESOURCE_NOT_FOUND", ErrorCode::ResourceNotFound),
        (410, "ENDPOINT_REMOVED", ErrorCode::EndpointRemoved),
        (500, "INTERNAL_ERROR", ErrorCode::InternalError),
    ];
    for (status, code, expected) in cases {
        let details = json!([{"field": "symbol", "got": "??", "reason": "must be a symbol"}]);
        let body = failure(code, "it went wrong", details);
        let server = serve(move |_, _| http(status, &[], &body)).await;
        let result = server.client().stock_dividends(&dividends()).await;
        let err = result.unwrap_err();
        assert_eq!(err.status(), Some(status));
        assert_eq!(err.request_id(), Some("req-err-1"));
        assert_eq!(err.code(), Some(expected.clone()));
        assert!(!err.is_retryable() && !err.is_timeout(), "HTTP {status}");
        let text = err.to_string();
        assert!(text.contains(&format!("HTTP {status} {code}")), "{text}");
        assert!(text.contains("req-err-1"), "{text}");
        let e = api_error(Err::<(), _>(err));
        assert_eq!(e.status, status);
        assert_eq!(e.error.code, expected);
        assert_eq!(e.error.message, "it went wrong");
        assert_eq!(e.error.details[0].field, "symbol");
        assert_eq!(e.error.hint.as_deref(), Some("check it"));
        assert_eq!(server.count(), 1, "HTTP {status} is not retried");
        assert_eq!(e.attempts, 1);
    }
}

#[tokio::test]
#[allow(deprecated)]
async fn removed_endpoint_answers_410() {
    let body = failure("ENDPOINT_REMOVED", "removed on 2026-07-29", json!([]));
    let server = serve(move |_, _| http(410, &[], &body)).await;
    let params = mrds_model::params::Index1minParams::new("^GSPC", 1_700_000_000, 1_700_000_600);
    let e = api_error(server.client().index_1min(&params).await);
    assert_eq!(e.status, 410);
    assert_eq!(e.error.code, ErrorCode::EndpointRemoved);
}

#[tokio::test]
async fn success_false_with_200_is_an_api_error() {
    let body = failure("INTERNAL_ERROR", "partial failure", json!([]));
    let server = serve(move |_, _| http(200, &[], &body)).await;
    let e = api_error(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.status, 200);
    assert_eq!(e.error.code, ErrorCode::InternalError);
    assert_eq!(e.request_id.as_deref(), Some("req-err-1"));

    // An unknown code is kept as received.
    let code = mrds_tests::unknown_code("QUOTA_EXCEEDED");
    let body = failure(&code, "over quota", json!([]));
    let server = serve(move |_, _| http(403, &[], &body)).await;
    let e = api_error(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.error.code, ErrorCode::Unknown(code));
}

// ---------------------------------------------------------------------------------------------
// Bodies that cannot be decoded
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn non_json_body_is_undecodable() {
    let server = serve(|_, _| {
        http(
            200,
            &[("content-type", "text/html")],
            "<html>maintenance</html>",
        )
    })
    .await;
    let e = undecodable(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.status, 200);
    assert_eq!(e.body_prefix, "<html>maintenance</html>");
    assert_eq!(e.reason, "the body is not JSON");
    assert!(std::error::Error::source(&e).is_some());
}

#[tokio::test]
async fn truncated_json_is_undecodable() {
    let body = success(json!([dividend()]));
    let cut = body[..body.len() / 2].to_string();
    let server = serve(move |_, _| http(200, &[], &cut)).await;
    let e = undecodable(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.status, 200);
    assert_eq!(e.body_prefix, &body[..body.len() / 2]);
    assert!(e.reason.contains("truncated"), "{}", e.reason);
}

#[tokio::test]
async fn connection_cut_mid_body_is_undecodable() {
    let server = serve(|_, _| {
        Reply::Raw(
            b"HTTP/1.1 200 OK\r\ncontent-length: 500\r\n\r\n{\"success\": true, \"da".to_vec(),
        )
    })
    .await;
    let e = undecodable(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.status, 200);
    assert_eq!(e.body_prefix, "{\"success\": true, \"da");
    assert!(e.reason.contains("ended"), "{}", e.reason);
}

#[tokio::test]
async fn empty_body_is_undecodable() {
    let server = serve(|_, _| http(200, &[], "")).await;
    let e = undecodable(server.client().stock_dividends(&dividends()).await);
    assert_eq!((e.status, e.body_len, e.body_prefix.as_str()), (200, 0, ""));
    assert_eq!(e.reason, "the body is empty");

    // An error status with an empty body is a status without the error object.
    let server = serve(|_, _| http(404, &[], "")).await;
    let e = status_error(server.client().stock_dividends(&dividends()).await);
    assert_eq!((e.status, e.body_len), (404, 0));
}

#[tokio::test]
async fn wrong_records_name_the_record_field_and_position() {
    let server = serve(|_, _| http(200, &[], &success(json!([{"symbol": 5}])))).await;
    let e = undecodable(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.path.as_deref(), Some("data[0].symbol"));
    assert!(
        e.reason
            .starts_with("record PitDividend at `data[0].symbol` (line 1, column "),
        "{}",
        e.reason
    );
    assert!(
        e.reason.contains("invalid type: integer `5`"),
        "{}",
        e.reason
    );

    // A record missing a required field, deep in the page (past the body prefix).
    let mut rows: Vec<Value> = (0..12).map(|_| dividend()).collect();
    rows[9].as_object_mut().unwrap().remove("payment_date");
    let body = success(Value::Array(rows));
    let server = serve(move |_, _| http(200, &[("x-request-id", "req-bad-rows")], &body)).await;
    let err = server
        .client()
        .stock_dividends(&dividends())
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("record PitDividend at `data[9].payment_date`")
            && text.contains("missing field `payment_date`")
            && text.contains("line 1, column"),
        "{text}"
    );
    assert_eq!(err.request_id(), Some("req-bad-rows"));
    let e = undecodable(Err::<(), _>(err));
    assert_eq!(e.path.as_deref(), Some("data[9].payment_date"));
    let (line, column) = e.position().unwrap();
    assert_eq!(line, 1);
    assert!(column > mrds_client::BODY_PREFIX_LIMIT, "{column}");
    assert_eq!(e.attempts, 1, "an undecodable 200 is not retried");
    assert_eq!(server.count(), 1);
}

// ---------------------------------------------------------------------------------------------
// Error statuses without the error object
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn an_error_status_without_the_error_object_is_a_status_error() {
    // A gateway's HTML page: the status, the start of the body, the request id; not retried
    // without retries, but retryable.
    let server = serve(|_, _| {
        http(
            502,
            &[("content-type", "text/html"), ("x-request-id", "req-gw")],
            "<h1>Bad Gateway</h1>",
        )
    })
    .await;
    let client = Client::builder(&server.root).no_retries().build().unwrap();
    let err = client.stock_dividends(&dividends()).await.unwrap_err();
    assert_eq!(err.status(), Some(502));
    assert_eq!(err.code(), None);
    assert_eq!(err.request_id(), Some("req-gw"));
    assert!(err.is_retryable() && !err.is_timeout());
    let text = err.to_string();
    assert!(
        text.starts_with("HTTP 502 Bad Gateway without the service's error object")
            && text.contains("<h1>Bad Gateway</h1>"),
        "{text}"
    );
    let e = status_error(Err::<(), _>(err));
    assert_eq!(e.body_prefix, "<h1>Bad Gateway</h1>");
    assert_eq!((e.body_len, e.attempts), (20, 1));

    // A bare 503 with Retry-After, as a load balancer answers: retried as a 503, then
    // reported with the wait it asked for.
    let server = serve(|_, _| http(503, &[("retry-after", "0")], "")).await;
    let err = server
        .client()
        .stock_dividends(&dividends())
        .await
        .unwrap_err();
    assert_eq!((err.status(), err.attempts()), (Some(503), 4));
    assert_eq!(err.retry_after(), Some(std::time::Duration::ZERO));
    assert!(err.is_retryable());
    assert!(err.to_string().contains("the body is empty"), "{err}");
    let e = status_error(Err::<(), _>(err));
    assert_eq!((e.status, e.body_len, e.body_prefix.as_str()), (503, 0, ""));
    assert_eq!(server.count(), 4, "one attempt and three retries");

    // JSON of another shape: still no error object of the spec.
    let server = serve(|_, _| http(500, &[], r#"{"message": "boom"}"#)).await;
    let e = status_error(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.status, 500);
    assert_eq!(e.body_prefix, r#"{"message": "boom"}"#);
    assert_eq!(server.count(), 1, "a 500 is not retried");
}

#[tokio::test]
async fn long_bodies_are_cut_to_the_prefix() {
    let body = "€".repeat(600); // 1800 bytes; 512 would split the 171st character
    let server = serve(move |_, _| http(200, &[("content-type", "text/plain")], &body)).await;
    let e = undecodable(server.client().stock_dividends(&dividends()).await);
    assert_eq!(e.body_len, 1800);
    assert_eq!(e.body_prefix, "€".repeat(170));
}
