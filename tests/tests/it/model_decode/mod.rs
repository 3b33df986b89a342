//! Decoding of responses into the generated model (`mrds_model::Envelope<T>` and the
//! records), value sets with their wire spelling, error codes, and the API constants. By
//! subject:
//!
//! - [`records`]: every record type decoded from a success envelope (and encoded back);
//! - [`envelopes`]: the envelope itself: required fields, optional metadata and pagination,
//!   open fields, failure envelopes and their error codes;
//! - [`value_sets`]: every value set's wire names, strict and tolerant decoding;
//! - [`api_constants`]: the API's constants, its endpoints and change history, and what the
//!   model crate depends on.
//!
//! This module holds what they share: [`decode!`](decode) and a success envelope.

mod api_constants;
mod envelopes;
mod records;
mod value_sets;

/// Decodes a response body into `Envelope<$t>`, panicking with the serde error; then checks
/// that serializing the envelope and decoding it again gives the same value. The body is
/// written as the interface description shows the record; it is first made to fit the spec as
/// it stands ([`mrds_tests::conform`]: what a release made required or retyped since takes a
/// value the spec's samples hold), so the test checks what the release left as it was.
macro_rules! decode {
    ($t:ty, $json:expr) => {{
        let text = mrds_tests::conform::envelope(stringify!($t), $json);
        let env: ::mrds_model::Envelope<$t> = match serde_json::from_str(&text) {
            Ok(env) => env,
            Err(e) => panic!("cannot decode Envelope<{}>: {e}", stringify!($t)),
        };
        let again: ::mrds_model::Envelope<$t> =
            serde_json::from_value(serde_json::to_value(&env).unwrap()).unwrap();
        assert_eq!(again, env, "serialize/deserialize round trip");
        env
    }};
}
use decode;

/// Asserts that `record`, encoded, holds `expected` in its field `name` (an absent field holds
/// null); numbers compare as numbers, so `3` and `3.0` are one value whether the spec makes
/// the field an integer or a number. A field the spec no longer has, or whose type no longer
/// takes `expected` (a release renamed or retyped it), is not asserted: the answer was made to
/// fit (see [`decode!`]).
#[track_caller]
fn field<T: serde::Serialize>(record: &T, name: &str, expected: serde_json::Value) {
    field_says(record, name, expected, "");
}

/// [`field`], saying `why` when it fails.
#[track_caller]
fn field_says<T: serde::Serialize>(record: &T, name: &str, expected: serde_json::Value, why: &str) {
    if !mrds_tests::conform::holds(std::any::type_name::<T>(), name, &expected) {
        return;
    }
    let encoded = serde_json::to_value(record).expect("a record encodes");
    let got = encoded.get(name).unwrap_or(&serde_json::Value::Null);
    let same = match (got.as_f64(), expected.as_f64()) {
        (Some(a), Some(b)) => a == b,
        _ => *got == expected,
    };
    assert!(
        same,
        "field `{name}`: expected {expected}, got {got} in {encoded} {why}"
    );
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
