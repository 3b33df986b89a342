//! The raw client (the contract suite's): requests sent as they are, answers of any status
//! read, and a timeout that is not retried.

use std::time::Duration;

use mrds_client::TransportKind;

use super::{Reply, http, serve};

#[tokio::test]
async fn the_raw_client_sends_as_is_and_reads_any_answer() {
    use mrds_runtime::client::{RawClient, http};

    let server = serve(|_, _| http(404, &[("x-probe", "1")], "{\"gone\": true}")).await;
    let raw = RawClient::new().unwrap();
    // A query the typed client would refuse: an unknown parameter and an empty value.
    let request = http::Request::get(format!("{}/api/v1/nowhere?bogus=&x=%20", server.root))
        .header("x-api-key", "wrong")
        .body(Default::default())
        .unwrap();
    let answer = raw.send(request, Duration::from_secs(5)).await.unwrap();
    assert_eq!(answer.status(), 404);
    assert_eq!(answer.headers()["x-probe"], "1");
    assert_eq!(&answer.body()[..], b"{\"gone\": true}");
    let seen = &server.seen()[0];
    assert_eq!(seen.target, "/api/v1/nowhere?bogus=&x=%20");
    assert_eq!(seen.header("x-api-key"), Some("wrong"));

    // No answer in time: a timeout, not retried.
    let silent = serve(|_, _| Reply::Hang).await;
    let request = http::Request::get(format!("{}/api/v1/x", silent.root))
        .body(Default::default())
        .unwrap();
    let e = raw
        .send(request, Duration::from_millis(100))
        .await
        .unwrap_err();
    assert_eq!(e.kind, TransportKind::Timeout);
    assert_eq!(silent.count(), 1);
}
