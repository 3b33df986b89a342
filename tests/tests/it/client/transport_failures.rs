//! Transport failures: a refused connection, attempts that time out (retried, or not when told),
//! connections reset or closed without an answer, and the deadline that bounds the whole call.

use std::time::Duration;

use mrds_client::{Client, Error, RetryPolicy, TransportKind};
use serde_json::json;

use super::{Reply, api_error, dividend, dividends, failure, fast_retries, http, serve, success};

#[tokio::test]
async fn connection_refused_is_a_transport_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let root = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let client = Client::builder(&root)
        .retry(fast_retries(2))
        .build()
        .unwrap();
    let err = client.stock_dividends(&dividends()).await.unwrap_err();
    let Error::Transport(t) = &err else {
        panic!("expected a transport error, got {err:?}");
    };
    assert_eq!(t.kind, TransportKind::Connect);
    assert_eq!(t.attempts, 3, "one attempt and two retries");
    assert!(
        std::error::Error::source(&err).is_some(),
        "the source is kept"
    );
    assert!(err.to_string().contains("could not connect"), "{err}");
}

#[tokio::test]
#[ignore = "slow: waits out attempt timeouts on real sockets; .ci/exhaustive runs it"]
async fn timeouts_are_retried() {
    // The first attempt hangs and times out; the retry is answered.
    let server = serve(|n, _| match n {
        0 => Reply::Hang,
        _ => http(200, &[], &success(json!([dividend()]))),
    })
    .await;
    let client = Client::builder(&server.root)
        .timeout(Duration::from_millis(200))
        .retry(fast_retries(3))
        .build()
        .unwrap();
    let page = client.stock_dividends(&dividends()).await.unwrap();
    assert_eq!(page.data.len(), 1);
    assert_eq!(server.count(), 2);

    // A server that never answers: every attempt times out, and the error says how many.
    let server = serve(|_, _| Reply::Hang).await;
    let client = Client::builder(&server.root)
        .timeout(Duration::from_millis(100))
        .no_deadline()
        .retry(fast_retries(2))
        .build()
        .unwrap();
    let err = client.stock_dividends(&dividends()).await.unwrap_err();
    assert!(
        matches!(&err, Error::Transport(t) if t.kind == TransportKind::Timeout && t.attempts == 3),
        "{err:?}"
    );
    assert_eq!(err.attempts(), 3);
    assert!(
        err.to_string().contains("timed out") && err.to_string().contains("after 3 attempts"),
        "{err}"
    );
    assert_eq!(server.count(), 3);

    // Retrying timeouts can be turned off.
    let server = serve(|_, _| Reply::Hang).await;
    let client = Client::builder(&server.root)
        .timeout(Duration::from_millis(100))
        .retry(fast_retries(2))
        .retry_timeouts(false)
        .build()
        .unwrap();
    let err = client.stock_dividends(&dividends()).await.unwrap_err();
    assert!(
        matches!(&err, Error::Transport(t) if t.kind == TransportKind::Timeout),
        "{err:?}"
    );
    assert_eq!((err.attempts(), server.count()), (1, 1));
}

#[tokio::test]
async fn connection_resets_are_retried() {
    // A reset, then a connection closed without an answer, then the answer.
    let server = serve(|n, _| match n {
        0 => Reply::Reset,
        1 => Reply::Close,
        _ => http(200, &[], &success(json!([dividend()]))),
    })
    .await;
    let page = server.client().stock_dividends(&dividends()).await.unwrap();
    assert_eq!(page.data.len(), 1);
    assert_eq!(server.count(), 3);

    for reply in [|| Reply::Reset, || Reply::Close] {
        let server = serve(move |_, _| reply()).await;
        let client = Client::builder(&server.root)
            .retry(fast_retries(2))
            .build()
            .unwrap();
        let err = client.stock_dividends(&dividends()).await.unwrap_err();
        let Error::Transport(t) = &err else {
            panic!("expected a transport error, got {err:?}");
        };
        assert_eq!(t.kind, TransportKind::Reset, "{err:?}");
        assert_eq!((err.attempts(), server.count()), (3, 3));
        assert!(
            err.to_string()
                .contains("closed before a complete response"),
            "{err}"
        );
    }
}

#[tokio::test]
#[ignore = "slow: waits out a call deadline on real sockets; .ci/exhaustive runs it"]
async fn the_deadline_bounds_the_whole_call() {
    // Attempts of 300 ms within a deadline of 500 ms: the second attempt gets the 200 ms
    // left and the call ends at the deadline, not after eleven attempts.
    let server = serve(|_, _| Reply::Hang).await;
    let client = Client::builder(&server.root)
        .timeout(Duration::from_millis(300))
        .deadline(Duration::from_millis(500))
        .retry(fast_retries(10))
        .build()
        .unwrap();
    let started = std::time::Instant::now();
    let err = client.stock_dividends(&dividends()).await.unwrap_err();
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(450) && took < Duration::from_millis(1500),
        "{took:?}"
    );
    assert!(
        matches!(&err, Error::Transport(t) if t.kind == TransportKind::Deadline),
        "{err:?}"
    );
    assert_eq!((err.attempts(), server.count()), (2, 2));
    assert!(err.to_string().contains("deadline"), "{err}");

    // A wait that would end past the deadline is not made: the last answer is returned at
    // once, with the wait the service asked for.
    let server = serve(|_, _| {
        http(
            503,
            &[("retry-after", "3")],
            &failure("INTERNAL_ERROR", "try later", json!([])),
        )
    })
    .await;
    let client = Client::builder(&server.root)
        .deadline(Duration::from_millis(500))
        .retry(RetryPolicy {
            max_retries: 3,
            initial_backoff: Duration::from_millis(1),
            max_backoff: Duration::from_secs(10),
            ..RetryPolicy::default()
        })
        .build()
        .unwrap();
    let started = std::time::Instant::now();
    let e = api_error(client.stock_dividends(&dividends()).await);
    assert!(started.elapsed() < Duration::from_millis(500));
    assert_eq!((e.status, e.attempts), (503, 1));
    assert_eq!(e.retry_after, Some(Duration::from_secs(3)));
    assert_eq!(server.count(), 1);

    // The default deadline is twice the per-attempt timeout.
    let client = Client::builder(&server.root)
        .timeout(Duration::from_secs(7))
        .build()
        .unwrap();
    let text = format!("{client:?}");
    assert!(text.contains("deadline: Some(14s)"), "{text}");
    assert_eq!(mrds_client::DEFAULT_DEADLINE_FACTOR, 2);
}

/// Whether a timed-out attempt is retried depends on the settings and the service's timing,
/// never on the retry jitter, so a test asserting the error gets the same one on every run.
/// With a 200 ms timeout, the default deadline (twice it) and the default backoff (250 ms,
/// jittered down to as little as 125 ms), the retry's longest wait would end past the
/// deadline: every call ends after one attempt, `Timeout`. With room for the longest wait,
/// every call retries. Twenty calls each, at once.
#[tokio::test]
#[ignore = "slow: forty calls waiting out their timeouts; .ci/exhaustive runs it"]
async fn whether_a_timed_out_attempt_is_retried_does_not_depend_on_the_jitter() {
    let server = serve(|_, _| Reply::Hang).await;
    let client = Client::builder(&server.root)
        .timeout(Duration::from_millis(200))
        .build()
        .unwrap();
    assert_eq!(client.retry_policy(), RetryPolicy::default());
    let params = dividends();
    let calls = (0..20).map(|_| client.stock_dividends(&params));
    for result in futures_util::future::join_all(calls).await {
        let err = result.unwrap_err();
        assert!(err.is_timeout() && err.is_retryable(), "{err:?}");
        assert!(
            matches!(&err, Error::Transport(t) if t.kind == TransportKind::Timeout),
            "{err:?}"
        );
        assert_eq!(err.attempts(), 1, "{err}");
    }
    assert_eq!(server.count(), 20);

    // A 100 ms timeout, a 400 ms deadline and a backoff of at most 150 ms: the first retry
    // always fits, the second never does.
    let server = serve(|_, _| Reply::Hang).await;
    let client = Client::builder(&server.root)
        .timeout(Duration::from_millis(100))
        .deadline(Duration::from_millis(400))
        .retry(RetryPolicy {
            initial_backoff: Duration::from_millis(150),
            ..RetryPolicy::default()
        })
        .build()
        .unwrap();
    let params = dividends();
    let calls = (0..20).map(|_| client.stock_dividends(&params));
    for result in futures_util::future::join_all(calls).await {
        let err = result.unwrap_err();
        assert!(err.is_timeout(), "{err:?}");
        assert_eq!(err.attempts(), 2, "{err}");
    }
    assert_eq!(server.count(), 40);
}

/// The deadline is a timeout too: `is_timeout()` covers both kinds.
#[tokio::test]
async fn the_deadline_is_a_timeout() {
    let server = serve(|_, _| Reply::Hang).await;
    let client = Client::builder(&server.root)
        .timeout(Duration::from_millis(300))
        .deadline(Duration::from_millis(100))
        .build()
        .unwrap();
    let err = client.stock_dividends(&dividends()).await.unwrap_err();
    assert!(
        matches!(&err, Error::Transport(t) if t.kind == TransportKind::Deadline),
        "{err:?}"
    );
    assert!(err.is_timeout() && err.is_retryable());
    assert_eq!(
        (err.status(), err.code(), err.request_id()),
        (None, None, None)
    );
}
