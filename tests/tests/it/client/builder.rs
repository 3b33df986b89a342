//! The client builder: base URL spellings that name the same root, settings it refuses, a
//! `Debug` that never shows the key, and errors and futures that are `Send`.

use mrds_client::{BuildError, Client, Error};
use serde_json::json;

use super::{KEY, dividends, http, serve, success};

#[tokio::test]
async fn base_url_spellings_name_the_same_root() {
    let server = serve(|_, _| http(200, &[], &success(json!([])))).await;
    let root = server.root.clone();
    let spellings = [
        root.clone(),
        format!("{root}/"),
        format!("{root}/api"),
        format!("{root}/api/"),
        format!(" {root}/api// "),
    ];
    for spelling in &spellings {
        let client = Client::builder(spelling).build().unwrap();
        assert_eq!(
            client.base_url().to_string(),
            format!("{root}/api"),
            "{spelling}"
        );
        client.stock_dividends(&dividends()).await.unwrap();
    }
    let prefixed = Client::builder(format!("{root}/gateway/mrds"))
        .build()
        .unwrap();
    assert_eq!(
        prefixed.base_url().to_string(),
        format!("{root}/gateway/mrds/api")
    );
    prefixed.stock_dividends(&dividends()).await.unwrap();

    let seen = server.seen();
    assert_eq!(seen.len(), spellings.len() + 1);
    for s in &seen[..spellings.len()] {
        assert!(
            s.target.starts_with("/api/v1/stocks/dividends?"),
            "{}",
            s.target
        );
    }
    assert!(
        seen[spellings.len()]
            .target
            .starts_with("/gateway/mrds/api/v1/stocks/dividends?")
    );
}

#[test]
fn bad_settings_are_rejected() {
    for bad in [
        "not a url",
        "ftp://host/api",
        "http://host/api?x=1",
        "http://user:pw@host/api",
        "http://host/api#part",
        "http://bücher.example/api",
        "/api",
    ] {
        let err = Client::builder(bad).build().unwrap_err();
        assert!(
            matches!(err, BuildError::InvalidBaseUrl { .. }),
            "{bad}: {err:?}"
        );
        assert!(err.to_string().contains("invalid base URL"), "{err}");
    }
    let err = Client::builder("http://host")
        .api_key("bad\nkey")
        .build()
        .unwrap_err();
    assert!(matches!(err, BuildError::InvalidApiKey));
    assert!(!err.to_string().contains("bad"), "the key is never shown");
    let err = Client::builder("http://host")
        .api_key("")
        .build()
        .unwrap_err();
    assert!(matches!(err, BuildError::InvalidApiKey));
    let err = Client::builder("http://host")
        .user_agent("a\u{7f}")
        .build()
        .unwrap_err();
    assert!(matches!(err, BuildError::InvalidUserAgent(_)));
}

#[test]
fn debug_never_shows_the_key() {
    let builder = Client::builder("http://127.0.0.1:8080").api_key(KEY);
    let text = format!("{builder:?}");
    assert!(!text.contains(KEY) && text.contains("<redacted>"), "{text}");
    let client = builder.build().unwrap();
    let text = format!("{client:?} {client:#?}");
    assert!(!text.contains(KEY) && text.contains("<redacted>"), "{text}");
    assert!(text.contains("http://127.0.0.1:8080/api"), "{text}");
}

#[test]
fn errors_and_futures_are_send() {
    fn error<T: std::error::Error + Send + Sync + 'static>() {}
    error::<Error>();
    error::<BuildError>();
    fn send<T: Send>(_: &T) {}
    let client = Client::builder("http://127.0.0.1:8080").build().unwrap();
    let params = dividends();
    send(&client.stock_dividends(&params));
    send(&client);
}
