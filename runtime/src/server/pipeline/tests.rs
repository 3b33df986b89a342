//! The pipeline under test: the implementation's future guarded (timeouts, panics), the
//! not-implemented log, reading and checking a body.

use std::future::Future;
use std::time::Duration;

use axum::body::Body;
use axum::http::request::Parts;

use super::BodyLimit;
use super::body::{checked, read_body};
use super::handled::{Ended, guarded};
use super::log::not_implemented_once;
use crate::DEFAULT_BODY_LIMIT;

async fn run<F: Future>(limit: Option<Duration>, future: F) -> Ended<F::Output> {
    let mut future = std::pin::pin!(future);
    let mut timer = None;
    std::future::poll_fn(|cx| guarded(future.as_mut(), limit, &mut timer, cx)).await
}

#[tokio::test]
async fn a_ready_answer_is_given_even_with_no_time_left() {
    // The answer is polled before any timer: a zero limit does not lose a ready answer.
    assert_eq!(
        run(Some(Duration::ZERO), async { 7 }).await,
        Ended::Answered(7)
    );
}

#[tokio::test]
async fn an_answer_past_the_limit_is_given_up() {
    let slow = tokio::time::sleep(Duration::from_secs(60));
    let limit = Duration::from_millis(20);
    assert_eq!(run(Some(limit), slow).await, Ended::TimedOut(limit));
    let quick = async {
        tokio::time::sleep(Duration::from_millis(5)).await;
        "late but in time"
    };
    assert_eq!(
        run(Some(Duration::from_secs(5)), quick).await,
        Ended::Answered("late but in time")
    );
    // Without a limit, a waiting answer is waited for.
    let waited = async {
        tokio::time::sleep(Duration::from_millis(30)).await;
        1
    };
    assert_eq!(run(None, waited).await, Ended::Answered(1));
}

#[test]
fn not_implemented_is_logged_once_per_endpoint() {
    assert!(not_implemented_once("pipeline_test_a"));
    assert!(!not_implemented_once("pipeline_test_a"));
    assert!(not_implemented_once("pipeline_test_b"));
}

#[tokio::test]
async fn a_panic_is_caught_at_any_poll() {
    async fn boom() -> u8 {
        panic!("inside the implementation")
    }
    assert_eq!(run(None, boom()).await, Ended::Panicked);
    let later = async {
        tokio::time::sleep(Duration::from_millis(5)).await;
        boom().await
    };
    assert_eq!(
        run(Some(Duration::from_secs(5)), later).await,
        Ended::Panicked
    );
}

/// A body endpoint written by hand: a parameter `n` and a body `{ "k": <int> }` whose
/// own check wants `k <= 10`, and a rule reading both wanting `k <= n`.
mod body {
    use crate::{Auth, BodyRecord, Issues, RawParams, ValidationError, WithBody};

    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    pub(super) struct Payload {
        pub(super) k: i64,
    }

    impl BodyRecord for Payload {
        fn check(&self, issues: &mut Issues) {
            issues.range("x.body.k.range", "body.k", Some(self.k), None, Some(10));
        }
    }

    pub(super) struct Params {
        n: i64,
    }

    static ENDPOINT: crate::Endpoint = crate::Endpoint {
        id: "x",
        method: crate::Method::Post,
        path: "/x",
        summary: "",
        auth: Auth::Optional,
        removed: None,
        idempotent: false,
    };

    impl Params {
        pub(super) fn new(n: i64) -> Result<Self, ValidationError> {
            let mut issues = Issues::new();
            issues.range("x.n.range", "n", Some(n), Some(0), None);
            issues.finish().map(|()| Self { n })
        }
    }

    impl Params_ for Params {
        type Record = Payload;
        const ENDPOINT: &'static crate::Endpoint = &ENDPOINT;
        fn validate(&self) -> Result<(), ValidationError> {
            Ok(())
        }
        fn to_query(&self) -> Vec<(&'static str, String)> {
            Vec::new()
        }
        fn path(&self) -> String {
            "/x".into()
        }
        fn from_raw(_: &RawParams) -> Result<Self, ValidationError> {
            Self::new(0)
        }
    }

    impl WithBody for Params {
        type Body = Payload;
        const BODY_RULE: &'static str = "x.body";
        fn validate_body(&self, body: &Payload) -> Result<(), ValidationError> {
            let mut issues = Issues::new();
            body.check(&mut issues);
            issues.range("x.k_within_n", "body.k", Some(body.k), None, Some(self.n));
            issues.finish()
        }
    }

    use crate::Request as Params_;
}

use crate::test_object::Object;

/// The request head of a `POST` with `headers`, and `limit` as its body limit.
fn head(headers: &[(&str, &str)], limit: Option<usize>) -> Parts {
    let mut request = axum::http::Request::post("/x");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let (mut parts, ()) = request.body(()).unwrap().into_parts();
    if let Some(limit) = limit {
        parts.extensions.insert(BodyLimit(limit));
    }
    parts
}

async fn read(
    headers: &[(&str, &str)],
    limit: Option<usize>,
    text: &str,
) -> Result<body::Payload, Object> {
    read_body::<body::Params, Object>(&head(headers, limit), Body::from(text.to_owned()))
        .await
        .map_err(|e| e.error_object().clone())
}

const JSON: (&str, &str) = ("content-type", "application/json; charset=utf-8");

#[tokio::test]
async fn a_body_is_read_when_it_is_json_within_its_limit() {
    assert_eq!(read(&[JSON], None, r#"{"k": 3}"#).await.unwrap().k, 3);
    // Exactly at a limit set by serve.
    assert_eq!(read(&[JSON], Some(8), r#"{"k": 3}"#).await.unwrap().k, 3);
}

#[tokio::test]
async fn a_body_that_is_not_declared_json_is_415() {
    for headers in [
        &[][..],
        &[("content-type", "text/plain")],
        &[("content-type", "application/jsonx")],
    ] {
        let e = read(headers, None, r#"{"k": 3}"#).await.unwrap_err();
        assert_eq!(e.code, "UNSUPPORTED_MEDIA_TYPE", "{headers:?}");
    }
}

#[tokio::test]
async fn a_body_over_its_limit_is_413_declared_or_not() {
    // Declared too long: refused before reading.
    let e = read(&[JSON, ("content-length", "9")], Some(8), "{\"k\": 33}")
        .await
        .unwrap_err();
    assert_eq!(e.code, "PAYLOAD_TOO_LARGE");
    // Streamed past the limit without a length.
    let e = read(&[JSON], Some(8), r#"{"k": 33}"#).await.unwrap_err();
    assert_eq!(e.code, "PAYLOAD_TOO_LARGE");
    let big = format!(r#"{{"k": 1, "pad": "{}"}}"#, "x".repeat(DEFAULT_BODY_LIMIT));
    let e = read(&[JSON], None, &big).await.unwrap_err();
    assert_eq!(e.code, "PAYLOAD_TOO_LARGE");
}

#[tokio::test]
async fn a_malformed_body_is_400_naming_line_and_column() {
    let e = read(&[JSON], None, "{\n  \"k\": ? }").await.unwrap_err();
    assert_eq!(e.code, "INVALID_PARAMETER");
    let (field, _, reason) = &e.details[0];
    assert_eq!(field, "body");
    assert!(
        reason
            .starts_with("the request body is not valid JSON at line 2, column 8: expected value"),
        "{reason}"
    );
    assert!(reason.contains("[rule x.body]"), "{reason}");

    let e = read(&[JSON], None, r#"{"k": "3"}"#).await.unwrap_err();
    let reason = &e.details[0].2;
    assert!(
        reason.starts_with(
            "the request body is not of the body's shape at line 1, column 9: invalid type: string"
        ),
        "{reason}"
    );
    let e = read(&[JSON], None, "").await.unwrap_err();
    assert!(
        e.details[0]
            .2
            .contains("is not valid JSON at line 1, column 0"),
        "{:?}",
        e.details
    );
}

#[test]
fn the_parameters_and_the_body_are_checked_together() {
    let problems = |params, k| match checked::<body::Params, Object>(params, body::Payload { k }) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .error_object()
            .details
            .iter()
            .map(|d| d.0.clone())
            .collect::<Vec<_>>(),
    };
    assert!(problems(body::Params::new(5), 4).is_empty());
    // A rule reading a parameter and a field, and the body's own check.
    assert_eq!(problems(body::Params::new(5), 6), ["body.k"]);
    assert_eq!(problems(body::Params::new(20), 11), ["body.k"]);
    // Parameters refused: the body's own problems are reported with theirs.
    assert_eq!(problems(body::Params::new(-1), 11), ["n", "body.k"]);
    assert_eq!(problems(body::Params::new(-1), 1), ["n"]);
}
