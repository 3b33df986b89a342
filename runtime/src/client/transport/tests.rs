//! The transport's parsing of `Retry-After`, its redirects and its decoding errors.

use std::time::Duration;

use http::Uri;
use http::header::LOCATION;

use super::decode::{decode_body, short_type_name};
use super::exchange::parse_retry_after;
use super::redirect::{redirect_target, resolve_location, same_origin};
use crate::client::error::{Error, UndecodableError};

#[test]
fn retry_after_takes_seconds_and_http_dates() {
    let now = httpdate::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
    let at = |text| parse_retry_after(text, now);
    assert_eq!(at("120"), Some(Duration::from_secs(120)));
    assert_eq!(at(" 0 "), Some(Duration::ZERO));
    // IMF-fixdate, and the obsolete RFC 850 and asctime forms RFC 9110 still accepts.
    assert_eq!(
        at("Sun, 06 Nov 1994 08:50:07 GMT"),
        Some(Duration::from_secs(30))
    );
    assert_eq!(
        at("Sunday, 06-Nov-94 08:50:07 GMT"),
        Some(Duration::from_secs(30))
    );
    assert_eq!(
        at("Sun Nov  6 08:50:07 1994"),
        Some(Duration::from_secs(30))
    );
    // A date in the past means now.
    assert_eq!(at("Sun, 06 Nov 1994 08:00:00 GMT"), Some(Duration::ZERO));
    for bad in ["", "-1", "1.5", "soon", "Sun, 06 Nov 1994 25:00:00 GMT"] {
        assert_eq!(at(bad), None, "{bad:?}");
    }
}

#[test]
fn redirects_resolve_against_the_request_and_stay_within_its_origin() {
    let from = Uri::from_static("http://host:8080/api/v1/stocks/dividends?symbol=A");
    let at = |location: &str| resolve_location(&from, location).map(|u| u.to_string());
    assert_eq!(
        at("/api/v2/x?y=1#frag").as_deref(),
        Some("http://host:8080/api/v2/x?y=1")
    );
    assert_eq!(
        at("splits").as_deref(),
        Some("http://host:8080/api/v1/stocks/splits")
    );
    assert_eq!(at("//other/p").as_deref(), Some("http://other/p"));
    assert_eq!(
        at("https://host:8080/p").as_deref(),
        Some("https://host:8080/p")
    );

    let same =
        |a: &'static str, b: &'static str| same_origin(&Uri::from_static(a), &Uri::from_static(b));
    assert!(same("http://Host/a", "http://host:80/b"));
    assert!(same("https://h/a", "https://h:443/b"));
    assert!(!same("http://h/a", "https://h/a"));
    assert!(!same("http://h/a", "http://h:8080/a"));
    assert!(!same("http://h/a", "http://g/a"));

    let answer = |status: u16, location: &str| {
        http::Response::builder()
            .status(status)
            .header(LOCATION, location)
            .body(())
            .unwrap()
    };
    let next = |status, location, with_body| {
        redirect_target(&from, &answer(status, location), with_body).map(|u| u.to_string())
    };
    assert_eq!(
        next(302, "/api/x", false).as_deref(),
        Some("http://host:8080/api/x")
    );
    assert_eq!(next(302, "http://elsewhere/api/x", false), None);
    // A body is sent again only where the method is kept.
    assert_eq!(next(303, "/api/x", true), None);
    assert_eq!(
        next(307, "/api/x", true).as_deref(),
        Some("http://host:8080/api/x")
    );
    assert_eq!(next(200, "/api/x", false), None);
    assert_eq!(next(304, "/api/x", false), None);
}

#[derive(Debug, serde::Deserialize)]
#[allow(dead_code)]
struct Row {
    name: String,
    n: i64,
}

use crate::test_object::Object;

fn misfit(body: &str) -> UndecodableError {
    match decode_body::<Row, Object>(200, body.as_bytes(), None) {
        Err(Error::Undecodable(e)) => e,
        other => panic!("expected undecodable, got {other:?}"),
    }
}

#[test]
fn misfits_name_the_record_the_field_and_the_position() {
    let body = "{\"success\": true, \"request_id\": \"r\", \"data\": [\n\
                {\"name\": \"a\", \"n\": 1},\n{\"name\": \"b\", \"n\": \"two\"}]}";
    let e = misfit(body);
    assert_eq!(e.path.as_deref(), Some("data[1].n"));
    assert_eq!(e.position(), Some((3, 24)));
    assert!(
        e.reason
            .starts_with("record Row at `data[1].n` (line 3, column 24): invalid type"),
        "{}",
        e.reason
    );

    let e = misfit(r#"{"success": true, "request_id": "r", "data": [{"n": 1}]}"#);
    assert_eq!(e.path.as_deref(), Some("data[0].name"));
    assert!(e.reason.contains("missing field `name`"), "{}", e.reason);

    let e = misfit(r#"{"success": true, "data": []}"#);
    assert_eq!(e.path.as_deref(), Some("request_id"));
    assert!(
        e.reason
            .starts_with("the JSON is not the response envelope: `request_id`"),
        "{}",
        e.reason
    );

    let e = misfit(r#"{"success": true, "request_id": "r", "data": [}"#);
    assert_eq!((e.path.as_deref(), e.position()), (None, Some((1, 47))));
    assert_eq!(e.reason, "the body is not JSON");
}

#[test]
fn errors_stay_small() {
    // Clippy's `result_large_err` (and callers' own functions returning the error) warn
    // above 128 bytes.
    assert!(std::mem::size_of::<Error<Object>>() <= 128);
}

#[test]
fn type_names_are_short() {
    assert_eq!(short_type_name::<Row>(), "Row");
    assert_eq!(short_type_name::<Vec<Row>>(), "Vec");
    assert_eq!(short_type_name::<u8>(), "u8");
}
