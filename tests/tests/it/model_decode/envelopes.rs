//! The envelope around the records: a missing required field or a wrong type refused, metadata
//! and pagination optional, an open (`type: any`) field kept as it came; failure envelopes with
//! their error object, unknown and minimal error objects, and each error code's HTTP status.

use mrds_model::{Envelope, ErrorCode, ErrorDetail, ErrorObject, PitDividend, Ssr};
use serde_json::{Value, json};

use super::{decode, success};

#[test]
fn a_missing_required_field_or_a_wrong_type_is_an_error() {
    // A dividend made to fit the spec, then its last required field (`yield`, as the interface
    // description has it) left out.
    let mut row = json!({"symbol": "KO", "date": "2026-05-08", "record_date": "2026-05-11",
        "payment_date": "2026-05-29", "declaration_date": "2026-04-24",
        "adj_dividend": 0.51, "dividend": 0.51, "yield": 2.9, "frequency": "Quarterly"});
    mrds_tests::conform::record_only("PitDividend", &mut row);
    let record = mrds_tests::conform::record_named("PitDividend").unwrap();
    let left_out = (record.fields.iter().rev())
        .find(|f| !f.optional)
        .expect("a required field");
    row.as_object_mut().unwrap().remove(&left_out.wire);
    let body = success(&json!([row]).to_string());
    let e = serde_json::from_str::<Envelope<PitDividend>>(&body).unwrap_err();
    assert!(e.to_string().contains(&left_out.wire), "{e}");
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
    // A code the spec does not have (a release may add `QUOTA_EXCEEDED`).
    let code = mrds_tests::unknown_code("QUOTA_EXCEEDED");
    let body = json!({
        "success": false, "request_id": "req_err_2",
        "data": [{"code": code, "message": "Monthly quota exceeded"}],
        "error": {"code": code, "message": "Monthly quota exceeded",
                  "details": null, "examples": null, "suggestions": null, "hint": null}
    })
    .to_string();
    let env = decode!(ErrorObject, &body);
    let e = env.error.as_ref().unwrap();
    assert_eq!(e.code, ErrorCode::Unknown(code.clone()));
    assert!(!e.code.is_known());
    assert_eq!(e.code.as_str(), code);
    assert_eq!(e.code.http_status(), None);
    assert!(e.details.is_empty() && e.examples.is_empty() && e.suggestions.is_empty());
    assert_eq!((e.docs_url.as_deref(), e.hint.as_deref()), (None, None));
    assert_eq!(env.data[0], *e, "absent and null decode alike");
    // Serialized back: the code as received, empty lists and absent options left out.
    let back = serde_json::to_value(e).unwrap();
    assert_eq!(
        back,
        json!({"code": code, "message": "Monthly quota exceeded"})
    );
    // Strict parsing of the same text fails.
    assert!(code.parse::<ErrorCode>().is_err());

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
    // Every code the spec lists answers with the status the spec gives it; an unknown code has
    // none.
    for c in &mrds_tests::real_spec().error_codes {
        assert_eq!(
            ErrorCode::from_wire(&c.code).http_status(),
            Some(c.status),
            "{}",
            c.code
        );
    }
    let teapot = mrds_tests::unknown_code("TEAPOT");
    assert_eq!(ErrorCode::Unknown(teapot).http_status(), None);
    assert!(ErrorCode::ALL.iter().all(|c| c.http_status().is_some()));
}
