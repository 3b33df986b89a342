//! The serving path (`mrds_server::serve`) over real sockets: timeouts close idle,
//! byte-dripping and resting connections; the connection cap never keeps a valid request
//! out; every answer the service gives (404, 405, 401, 400, 429) is an envelope with a
//! request id; repeated keys are refused; compression; and, with the sample server's
//! command line as a child process (`mrds-mock-slow`), graceful shutdown on SIGTERM, its
//! deadline, a second signal, the request timeout, and logs and output that never show a
//! key.

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mrds_model::ErrorCode;
use mrds_server::{RateLimit, ServeConfig, Server, StaticKeys};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::http::{assert_request_id, get, read_answer, send};

const KEY: &str = "runtime-test-key";
const TREASURY: &str = "/api/v1/macro/treasury-rates?start_time=1793491200&end_time=1795996800";
const DIVIDENDS: &str = "/api/v1/stocks/dividends?symbol=AAPL&start_time=1735689600&end_time=1798761600&time_type=PAYMENT_DATE";

/// A test configuration: loopback, port 0, no signal handling (the test process is shared).
fn config() -> ServeConfig {
    ServeConfig::default()
        .with_addr(([127, 0, 0, 1], 0).into())
        .with_handle_signals(false)
}

/// Serves the sample data with `config` for the rest of the test.
async fn serve(config: ServeConfig) -> SocketAddr {
    let server = Server::bind(config).await.unwrap();
    let addr = server.local_addr().unwrap();
    let router = mrds_mock::router(StaticKeys::new([KEY, "other-key"]));
    tokio::spawn(server.serve(router));
    addr
}

/// How long until the server closes `stream` (reading and dropping whatever it sends);
/// panics after `limit`.
async fn closed_after(stream: &mut TcpStream, since: Instant, limit: Duration) -> Duration {
    let mut buf = [0u8; 1024];
    loop {
        match tokio::time::timeout_at((since + limit).into(), stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return since.elapsed(),
            Ok(Ok(_)) => continue,
            Err(_) => panic!("still open after {limit:?}"),
        }
    }
}

// ---------------------------------------------------------------- timeouts and the cap

#[tokio::test]
async fn idle_and_slow_header_connections_are_closed_after_the_header_read_timeout() {
    let timeout = Duration::from_millis(400);
    let addr = serve(config().with_header_read_timeout(timeout)).await;
    let start = Instant::now();
    // A connection that sends nothing.
    let mut idle = TcpStream::connect(addr).await.unwrap();
    // A connection that drips its head a byte every 50 ms (it would need 3 s).
    let mut drip = TcpStream::connect(addr).await.unwrap();
    let dripping = async {
        for byte in format!("GET {TREASURY} HTTP/1.1\r\nHost: x\r\n").bytes() {
            if drip.write_all(&[byte]).await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        closed_after(&mut drip, start, Duration::from_secs(5)).await
    };
    let (idle_closed, drip_closed) = tokio::join!(
        closed_after(&mut idle, start, Duration::from_secs(5)),
        dripping
    );
    for closed in [idle_closed, drip_closed] {
        assert!(closed >= timeout, "closed early: {closed:?}");
        assert!(closed < timeout * 4, "closed late: {closed:?}");
    }
    // The server goes on serving.
    assert_eq!(get(addr, TREASURY, Some(KEY)).await.status, 200);
}

#[tokio::test]
async fn keep_alive_connections_rest_longer_than_the_header_timeout_but_not_forever() {
    let header = Duration::from_millis(300);
    let keep_alive = Duration::from_millis(1500);
    let addr = serve(
        config()
            .with_header_read_timeout(header)
            .with_keep_alive_timeout(Some(keep_alive)),
    )
    .await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {TREASURY} HTTP/1.1\r\nHost: x\r\nX-API-Key: {KEY}\r\n\r\n");
    for _ in 0..2 {
        stream.write_all(request.as_bytes()).await.unwrap();
        assert_eq!(read_answer(&mut stream).await.status, 200);
        // Rest for twice the header-read timeout: still open.
        tokio::time::sleep(header * 2).await;
    }
    let rested = Instant::now();
    let closed = closed_after(&mut stream, rested, Duration::from_secs(5)).await;
    // Resting since the answer: the two sleeps and the wait (less a little for the time the
    // answer took to read).
    let rested = closed + header * 2;
    assert!(
        rested + Duration::from_millis(100) >= keep_alive,
        "{rested:?}"
    );
    assert!(rested < keep_alive + Duration::from_secs(2), "{rested:?}");
}

#[tokio::test]
async fn connections_beyond_the_cap_do_not_stop_a_valid_request() {
    let header = Duration::from_millis(500);
    let addr = serve(
        config()
            .with_max_connections(4)
            .with_header_read_timeout(header),
    )
    .await;
    // Three times the cap in connections that send nothing.
    let mut idle = Vec::new();
    for _ in 0..12 {
        idle.push(TcpStream::connect(addr).await.unwrap());
    }
    let start = Instant::now();
    let answer = tokio::time::timeout(Duration::from_secs(5), get(addr, TREASURY, Some(KEY)))
        .await
        .expect("a valid request is answered while idle connections hold the cap");
    assert_eq!(answer.status, 200);
    // It waited at most for the idle ones to time out (in rounds of the cap).
    assert!(start.elapsed() < header * 4, "{:?}", start.elapsed());
    drop(idle);
}

#[tokio::test]
async fn at_the_cap_resting_keep_alive_connections_give_their_slot_up() {
    let header = Duration::from_millis(300);
    let addr = serve(
        config()
            .with_max_connections(2)
            .with_header_read_timeout(header)
            .with_keep_alive_timeout(Some(Duration::from_secs(60))),
    )
    .await;
    let request = format!("GET {TREASURY} HTTP/1.1\r\nHost: x\r\nX-API-Key: {KEY}\r\n\r\n");
    let mut resting = Vec::new();
    for _ in 0..2 {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        assert_eq!(read_answer(&mut stream).await.status, 200);
        resting.push(stream);
    }
    let start = Instant::now();
    let answer = tokio::time::timeout(Duration::from_secs(5), get(addr, TREASURY, Some(KEY)))
        .await
        .expect("answered long before the 60 s keep-alive timeout");
    assert_eq!(answer.status, 200);
    assert!(start.elapsed() < header * 5, "{:?}", start.elapsed());
}

#[tokio::test]
async fn a_client_that_stops_reading_is_closed_after_the_write_timeout() {
    let addr = serve(
        config()
            .with_write_timeout(Duration::from_millis(300))
            .with_compression(false),
    )
    .await;
    // Pipelined requests whose answers are never read fill the socket buffers.
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {DIVIDENDS} HTTP/1.1\r\nHost: x\r\nX-API-Key: {KEY}\r\n\r\n");
    let start = Instant::now();
    let mut writes = 0;
    loop {
        match tokio::time::timeout(
            Duration::from_millis(1500),
            stream.write_all(request.as_bytes()),
        )
        .await
        {
            Ok(Ok(())) => writes += 1,
            // The server closed the connection, or stopped reading it.
            Ok(Err(_)) | Err(_) => break,
        }
        assert!(start.elapsed() < Duration::from_secs(8), "{writes} writes");
    }
    tokio::time::sleep(Duration::from_millis(600)).await;
    // Closed by now: the first read drains what was sent, and the end comes soon.
    let closed = closed_after(&mut stream, Instant::now(), Duration::from_secs(5)).await;
    assert!(closed < Duration::from_secs(5));
    assert_eq!(get(addr, TREASURY, Some(KEY)).await.status, 200);
}

// ---------------------------------------------------------------- every answer in the envelope

#[tokio::test]
async fn answers_404_405_401_400_429_are_envelopes_with_request_ids() {
    let addr = serve(config().with_rate_limit(Some(RateLimit::per_minute(3)))).await;
    let mut ids = std::collections::HashSet::new();

    let answer = get(addr, "/api/v1/nothing", Some(KEY)).await;
    ids.insert(answer.header("x-request-id").unwrap().to_string());
    answer.error(404, ErrorCode::ResourceNotFound);

    for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
        let answer = send(addr, method, TREASURY, &[("X-API-Key", KEY)]).await;
        ids.insert(answer.header("x-request-id").unwrap().to_string());
        let error = answer.error(405, ErrorCode::ResourceNotFound);
        assert!(error.message.contains(method), "{}", error.message);
        assert_eq!(answer.header("allow"), Some("GET,HEAD"), "{method}");
    }
    let answer = send(addr, "POST", "/api/openapi.json", &[]).await;
    answer.error(405, ErrorCode::ResourceNotFound);

    let answer = get(addr, TREASURY, None).await;
    answer.error(401, ErrorCode::Unauthorized);
    assert_eq!(
        answer.header("www-authenticate"),
        Some(r#"ApiKey header="X-API-Key""#)
    );
    let answer = get(addr, TREASURY, Some("wrong")).await;
    answer.error(401, ErrorCode::Unauthorized);
    assert!(answer.header("www-authenticate").is_some());

    let answer = get(addr, "/api/v1/stocks/equity-offering?limit=1001", Some(KEY)).await;
    answer.error(400, ErrorCode::InvalidParameter);

    // Three requests a minute per key: the fourth is 429 with Retry-After; another key and
    // callers without a key have their own buckets.
    for _ in 0..3 {
        assert_eq!(get(addr, TREASURY, Some("other-key")).await.status, 200);
    }
    let answer = get(addr, TREASURY, Some("other-key")).await;
    ids.insert(answer.header("x-request-id").unwrap().to_string());
    let error = answer.error(429, ErrorCode::RateLimited);
    let retry: u64 = answer.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert!(error.message.contains("retry after"), "{}", error.message);
    assert_eq!(get(addr, TREASURY, Some(KEY)).await.status, 200);
    assert_eq!(ids.len(), 4 + 3, "request ids differ");
}

#[tokio::test]
async fn a_repeated_key_is_refused() {
    let addr = serve(config()).await;
    for keys in [[KEY, KEY], [KEY, "other-key"], ["wrong", KEY]] {
        let answer = send(
            addr,
            "GET",
            TREASURY,
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
    let plain = serve(config()).await;
    let trusting = serve(config().with_trust_request_id(true)).await;
    let header = [("X-API-Key", KEY), ("X-Request-Id", "lb-7f3a:01")];
    let answer = send(plain, "GET", TREASURY, &header).await;
    assert_request_id(answer.header("x-request-id").unwrap());
    let answer = send(trusting, "GET", TREASURY, &header).await;
    assert_eq!(answer.header("x-request-id"), Some("lb-7f3a:01"));
    assert_eq!(answer.json()["request_id"], "lb-7f3a:01");
    // An invalid one is replaced.
    let bad = [("X-API-Key", KEY), ("X-Request-Id", "has spaces{}")];
    let answer = send(trusting, "GET", TREASURY, &bad).await;
    assert_request_id(answer.header("x-request-id").unwrap());
}

#[tokio::test]
async fn large_answers_are_gzipped_for_clients_that_ask() {
    let small = serve(config()).await;
    let from_64_bytes = serve(config().with_compression_min_bytes(64)).await;
    let gzip = [("X-API-Key", KEY), ("Accept-Encoding", "gzip")];
    let plain = send(from_64_bytes, "GET", DIVIDENDS, &[("X-API-Key", KEY)]).await;
    assert_eq!(plain.header("content-encoding"), None);
    assert!(plain.body.len() > 64);
    // A request that does not ask skips the compression layer, but its answer still says
    // that it would differ for one that asks (a cache must not reuse it for both).
    assert_eq!(plain.header("vary"), Some("accept-encoding"));
    let zipped = send(from_64_bytes, "GET", DIVIDENDS, &gzip).await;
    assert_eq!(zipped.status, 200);
    assert_eq!(zipped.header("content-encoding"), Some("gzip"));
    assert_eq!(zipped.header("vary"), Some("accept-encoding"));
    assert_eq!(zipped.body[..2], [0x1f, 0x8b]);
    assert!(zipped.body.len() < plain.body.len());
    // Below the default threshold (4 KiB) the answer is sent as it is; so are errors.
    let answer = send(small, "GET", DIVIDENDS, &gzip).await;
    assert_eq!(answer.header("content-encoding"), None);
    assert_eq!(answer.header("vary"), None);
    assert!(answer.body.len() < 4096);
    let answer = send(small, "GET", DIVIDENDS, &[("X-API-Key", KEY)]).await;
    assert_eq!(answer.header("vary"), None);
    let off = serve(
        config()
            .with_compression(false)
            .with_compression_min_bytes(64),
    )
    .await;
    let answer = send(off, "GET", DIVIDENDS, &gzip).await;
    assert_eq!(answer.header("content-encoding"), None);
    assert_eq!(answer.header("vary"), None);
    let answer = send(from_64_bytes, "GET", "/api/v1/nothing", &gzip).await;
    assert_eq!(answer.status, 404);
}

#[tokio::test]
async fn oversized_heads_are_refused_and_the_server_goes_on() {
    let limit = 2048;
    let addr = serve(config().with_max_head_bytes(limit)).await;
    let long = "a".repeat(2 * limit);
    // Headers over the limit: 431, in the envelope.
    let answer = send(addr, "GET", TREASURY, &[("X-Padding", &long)]).await;
    let error = answer.error(431, ErrorCode::InvalidParameter);
    assert_eq!(error.message, "the request head is larger than 2048 bytes");
    // A request target that fits, with headers that take the head over the limit: 431 too.
    let fits = "a".repeat(limit / 2);
    let target = format!("{TREASURY}&pad={fits}");
    let answer = send(addr, "GET", &target, &[("X-Padding", &fits)]).await;
    answer.error(431, ErrorCode::InvalidParameter);
    // A request target over the limit on its own: 414, on a new connection and on a kept-alive
    // one after an answer.
    let answer = get(addr, &format!("{TREASURY}&pad={long}"), Some(KEY)).await;
    let error = answer.error(414, ErrorCode::InvalidParameter);
    assert!(
        error.message.contains("longer than 2048 bytes"),
        "{}",
        error.message
    );
    assert_eq!(answer.header("connection"), Some("close"));
    assert!(answer.header("date").is_some());
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {TREASURY} HTTP/1.1\r\nHost: x\r\nX-API-Key: {KEY}\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    assert_eq!(read_answer(&mut stream).await.status, 200);
    let request = format!("GET {TREASURY}&pad={long} HTTP/1.1\r\nHost: x\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    assert_eq!(read_answer(&mut stream).await.status, 414);
    assert_eq!(get(addr, TREASURY, Some(KEY)).await.status, 200);
}

#[tokio::test]
async fn a_client_still_sending_a_long_target_reads_the_414_without_a_reset() {
    // The default head limit (16 KiB) and a target of 256 KiB: the server refuses after the
    // first 16 KiB while the client is still sending the rest.
    let addr = serve(config()).await;
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let target = format!("{TREASURY}&pad={}", "a".repeat(256 * 1024));
    let request = format!("GET {target} HTTP/1.1\r\nHost: x\r\nX-API-Key: {KEY}\r\n\r\n");
    let writing = tokio::spawn(async move {
        // Without a lingering close the server's reset may fail this write; that is not
        // what the test checks (the answer is).
        let _ = writer.write_all(request.as_bytes()).await;
        writer
    });
    let raw = read_to_close(&mut reader, Duration::from_secs(20)).await;
    let raw = raw.unwrap_or_else(|(e, raw)| {
        panic!(
            "the connection failed ({e}) after {} bytes: {:?}",
            raw.len(),
            String::from_utf8_lossy(&raw)
        )
    });
    let (answer, end) = crate::http::parse(&raw);
    assert_eq!(answer.status, 414);
    assert_eq!(end, raw.len(), "one answer, then the close");
    drop(writing.await.unwrap());
}

#[tokio::test]
async fn a_shutdown_handle_stops_accepting_and_finishes_what_is_open() {
    let server = Server::bind(config().with_shutdown_timeout(Duration::from_secs(5)))
        .await
        .unwrap();
    let addr = server.local_addr().unwrap();
    let handle = server.shutdown_handle();
    let router = mrds_mock::router(StaticKeys::new([KEY]));
    let serving = tokio::spawn(server.serve(router));
    // A kept-alive connection resting between requests does not hold the shutdown up.
    let mut resting = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {TREASURY} HTTP/1.1\r\nHost: x\r\nX-API-Key: {KEY}\r\n\r\n");
    resting.write_all(request.as_bytes()).await.unwrap();
    assert_eq!(read_answer(&mut resting).await.status, 200);
    let start = Instant::now();
    handle.shutdown();
    tokio::time::timeout(Duration::from_secs(3), serving)
        .await
        .expect("stops without waiting for the resting connection")
        .unwrap()
        .unwrap();
    assert!(start.elapsed() < Duration::from_secs(3));
    assert!(
        TcpStream::connect(addr).await.is_err(),
        "no longer accepting"
    );
}

/// Reads `stream` until the server closes it: `Ok` with every byte at a clean end (EOF),
/// `Err` with the error and the bytes read before it when the connection fails (a reset);
/// panics after `limit`.
async fn read_to_close<R: tokio::io::AsyncRead + Unpin>(
    stream: &mut R,
    limit: Duration,
) -> Result<Vec<u8>, (std::io::Error, Vec<u8>)> {
    let mut raw = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    let reading = async {
        loop {
            match stream.read(&mut chunk).await {
                Ok(0) => return Ok(()),
                Ok(n) => raw.extend_from_slice(&chunk[..n]),
                Err(e) => return Err(e),
            }
        }
    };
    match tokio::time::timeout(limit, reading).await {
        Ok(Ok(())) => Ok(raw),
        Ok(Err(e)) => Err((e, raw)),
        Err(_) => panic!("still open after {limit:?} ({} bytes read)", raw.len()),
    }
}

/// The answers at the start of `raw` that are complete (head and the whole body by
/// `Content-Length`), and the bytes they took.
fn complete_answers(raw: &[u8]) -> (Vec<crate::http::Answer>, usize) {
    let mut answers = Vec::new();
    let mut at = 0;
    while let Some(split) = raw[at..].windows(4).position(|w| w == b"\r\n\r\n") {
        let head = String::from_utf8_lossy(&raw[at..at + split]).to_ascii_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .expect("answers here have a Content-Length")
            .parse()
            .unwrap();
        if at + split + 4 + length > raw.len() {
            break;
        }
        let (answer, taken) = crate::http::parse(&raw[at..]);
        answers.push(answer);
        at += taken;
    }
    (answers, at)
}

#[tokio::test]
async fn a_graceful_shutdown_lets_a_pipelining_client_read_every_answer_sent() {
    use mrds_server::axum::{Router, routing::get as route};
    use std::sync::Arc;

    // `/slow` tells the test it has started, waits to be released, and answers 4 MiB (far
    // more than the socket buffers hold, so most of it is still queued in the server's kernel
    // when the server is done writing and closes).
    const SLOW_BYTES: usize = 4 << 20;
    let (started_tx, mut started) = tokio::sync::mpsc::channel::<()>(1);
    let release = Arc::new(tokio::sync::Notify::new());
    let router = {
        let release = release.clone();
        Router::new()
            .route("/fast", route(|| async { "fast" }))
            .route(
                "/slow",
                route(move || async move {
                    let _ = started_tx.send(()).await;
                    release.notified().await;
                    (0..SLOW_BYTES)
                        .map(|i| (i % 251) as u8)
                        .collect::<Vec<u8>>()
                }),
            )
    };
    let server = Server::bind(config().with_shutdown_timeout(Duration::from_secs(30)))
        .await
        .unwrap();
    let addr = server.local_addr().unwrap();
    let handle = server.shutdown_handle();
    let serving = tokio::spawn(server.serve(router));

    // Two quick requests, the slow one, then 64 KiB more: far more than hyper reads ahead
    // (its buffer is the head limit, 16 KiB), so some of them are still unread in the
    // server's kernel when it closes the connection.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    // A small receive window, so the answer cannot all be in the client's kernel early.
    socket.set_recv_buffer_size(64 * 1024).unwrap();
    let stream = socket.connect(addr).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let fast = "GET /fast HTTP/1.1\r\nHost: x\r\n\r\n";
    let mut requests = fast.repeat(2);
    requests.push_str("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
    requests.push_str(&fast.repeat(64 * 1024 / fast.len()));
    // The writes go on beside the reads (the server reads the rest only when it has answered);
    // a write that fails (a reset) shows in what the reader gets.
    let writing = tokio::spawn(async move {
        let _ = writer.write_all(requests.as_bytes()).await;
        writer
    });
    tokio::time::timeout(Duration::from_secs(20), started.recv())
        .await
        .expect("the slow request starts")
        .unwrap();
    // Shut down while the slow request is in flight and the rest wait behind it; the
    // listener closes at once (a refused connection shows the shutdown has begun).
    handle.shutdown();
    while TcpStream::connect(addr).await.is_ok() {
        tokio::task::yield_now().await;
    }
    release.notify_one();

    let raw = read_to_close(&mut reader, Duration::from_secs(30)).await;
    let raw = raw.unwrap_or_else(|(e, raw)| {
        let (answers, taken) = complete_answers(&raw);
        panic!(
            "the connection failed ({e}) after {} complete answers and {} bytes of the next",
            answers.len(),
            raw.len() - taken
        )
    });
    let (answers, taken) = complete_answers(&raw);
    assert_eq!(taken, raw.len(), "nothing but complete answers");
    assert!(answers.len() >= 3, "{} answers", answers.len());
    assert!(answers.iter().all(|a| a.status == 200));
    assert_eq!(answers[0].body, b"fast");
    assert_eq!(answers[1].body, b"fast");
    let slow = &answers[2];
    assert_eq!(slow.body.len(), SLOW_BYTES);
    assert!(
        slow.body
            .iter()
            .enumerate()
            .all(|(i, &b)| b == (i % 251) as u8),
        "the slow answer arrived intact"
    );
    // The server closes after the answer in flight: not every pipelined request is answered.
    assert!(answers.len() < 2 + 1 + 64 * 1024 / fast.len());
    assert_eq!(answers.last().unwrap().header("connection"), Some("close"));
    drop((reader, writing.await.unwrap()));
    tokio::time::timeout(Duration::from_secs(20), serving)
        .await
        .expect("the shutdown completes")
        .unwrap()
        .unwrap();
}

// ---------------------------------------------------------------- the command line as a process

/// `mrds-mock-slow` on a free port; `treasury_rates` answers after `delay_ms`.
struct Process {
    child: Child,
    addr: SocketAddr,
    stdout: Vec<String>,
    stderr: Option<std::thread::JoinHandle<String>>,
}

impl Process {
    fn start(delay_ms: u64, args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mrds-mock-slow"))
            .args(["--addr", "127.0.0.1:0", "--log-format", "json"])
            .args(args)
            .env("MRDS_TEST_DELAY_MS", delay_ms.to_string())
            .env("RUST_LOG", "debug")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut stdout = Vec::new();
        let addr = loop {
            let line = lines
                .next()
                .expect("the server prints its address")
                .unwrap();
            stdout.push(line.clone());
            if let Some((_, rest)) = line.split_once("serving sample data at http://") {
                break rest.trim_end_matches("/api").parse().unwrap();
            }
        };
        stdout.extend(lines.map_while(Result::ok).take(1));
        Self {
            child,
            addr,
            stdout,
            stderr: Some(stderr),
        }
    }

    fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// The exit code, waiting at most `limit`; and the log lines.
    fn wait(mut self, limit: Duration) -> (Option<i32>, Duration, String) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let logs = self.stderr.take().unwrap().join().unwrap();
                return (status.code(), start.elapsed(), logs);
            }
            if start.elapsed() > limit {
                let _ = self.child.kill();
                panic!("still running after {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

#[tokio::test]
async fn sigterm_completes_the_request_in_flight_and_exits_0() {
    let process = Process::start(800, &["--api-key", KEY, "--shutdown-timeout", "5s"]);
    let addr = process.addr;
    let slow = tokio::spawn(get(addr, TREASURY, Some(KEY)));
    tokio::time::sleep(Duration::from_millis(250)).await;
    process.signal("TERM");
    let answer = tokio::time::timeout(Duration::from_secs(5), slow)
        .await
        .expect("the request in flight is answered")
        .unwrap();
    assert_eq!(answer.status, 200);
    assert!(answer.json()["success"].as_bool().unwrap());
    let (code, took, logs) = process.wait(Duration::from_secs(5));
    assert_eq!(code, Some(0), "{logs}");
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert!(logs.contains("SIGTERM"), "{logs}");
}

#[tokio::test]
async fn the_shutdown_deadline_and_a_second_signal_end_the_process() {
    // A request that would take 20 s, a deadline of 0.5 s.
    let process = Process::start(20_000, &["--shutdown-timeout", "500ms"]);
    let slow = tokio::spawn(get(process.addr, TREASURY, Some("demo-key")));
    tokio::time::sleep(Duration::from_millis(250)).await;
    process.signal("TERM");
    let (code, took, logs) = process.wait(Duration::from_secs(5));
    assert_eq!(code, Some(0), "{logs}");
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert!(logs.contains("shutdown timeout passed"), "{logs}");
    slow.abort();

    // A deadline of 60 s, and a second SIGINT.
    let process = Process::start(20_000, &["--shutdown-timeout", "60s"]);
    let slow = tokio::spawn(get(process.addr, TREASURY, Some("demo-key")));
    tokio::time::sleep(Duration::from_millis(250)).await;
    process.signal("INT");
    tokio::time::sleep(Duration::from_millis(250)).await;
    process.signal("INT");
    let (code, took, logs) = process.wait(Duration::from_secs(5));
    assert_eq!(code, Some(0), "{logs}");
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert!(logs.contains("second stop request"), "{logs}");
    slow.abort();
}

#[tokio::test]
async fn an_implementation_past_the_request_timeout_answers_500_in_the_envelope() {
    // `treasury_rates` would take 20 s; the service gets 300 ms per request.
    let process = Process::start(20_000, &["--request-timeout", "300ms"]);
    let started = Instant::now();
    let answer = tokio::time::timeout(
        Duration::from_secs(5),
        get(process.addr, TREASURY, Some("demo-key")),
    )
    .await
    .expect("answered at the request timeout");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    let error = answer.error(500, ErrorCode::InternalError);
    assert!(error.message.contains("within 0.3 s"), "{}", error.message);
    assert_request_id(answer.header("x-request-id").unwrap());
    // The server goes on: another endpoint answers at once.
    let answer = get(process.addr, DIVIDENDS, Some("demo-key")).await;
    assert_eq!(answer.status, 200);
    process.signal("TERM");
    let (code, _, logs) = process.wait(Duration::from_secs(5));
    assert_eq!(code, Some(0), "{logs}");
    assert!(logs.contains("\"status\":500"), "{logs}");
}

#[tokio::test]
async fn no_key_in_any_log_line_or_output() {
    let secret = "sk-live-7d1e0c9b";
    let process = Process::start(0, &["--api-key", secret, "--api-key", "second-secret"]);
    let addr = process.addr;
    let output = process.stdout.join("\n");
    assert!(
        output.contains("accepting 2 API keys"),
        "startup output: {output}"
    );
    for request in [
        get(addr, TREASURY, Some(secret)).await,
        get(addr, TREASURY, Some("sk-wrong-4242")).await,
        get(addr, "/api/v1/nothing", Some(secret)).await,
        send(addr, "POST", TREASURY, &[("X-API-Key", secret)]).await,
        send(
            addr,
            "GET",
            TREASURY,
            &[("X-API-Key", secret), ("X-API-Key", "second-secret")],
        )
        .await,
    ] {
        assert_request_id(request.header("x-request-id").unwrap());
    }
    process.signal("TERM");
    let (code, _, logs) = process.wait(Duration::from_secs(5));
    assert_eq!(code, Some(0));
    let mut requests = 0;
    for line in logs.lines() {
        for key in [secret, "second-secret", "sk-wrong-4242"] {
            assert!(!line.contains(key), "a key in a log line: {line}");
            assert!(!output.contains(key), "a key in the output: {output}");
        }
        assert!(!line.contains('\u{1b}'), "ANSI codes in a log file: {line}");
        let record: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        if record["message"] == "request" {
            requests += 1;
            assert_request_id(record["request_id"].as_str().unwrap());
            assert!(
                record["status"].is_u64() && record["micros"].is_u64(),
                "{line}"
            );
            assert!(record["endpoint"].is_string() || record["path"].is_string());
        }
    }
    assert_eq!(requests, 5, "one line per request: {logs}");

    // The built-in demo key is the one key the output shows.
    let process = Process::start(0, &[]);
    let output = process.stdout.join("\n");
    assert!(
        output.contains("accepting the demo API key demo-key"),
        "{output}"
    );
}

#[tokio::test]
async fn a_refused_head_is_logged_at_warn_with_its_request_id() {
    let process = Process::start(0, &[]);
    let mut stream = TcpStream::connect(process.addr).await.unwrap();
    stream
        .write_all(b"GET /api/v1/nothing HTTP/2.0\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    stream.shutdown().await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let (answer, _) = crate::http::parse(&raw);
    let error = answer.error(400, ErrorCode::InvalidParameter);
    let id = answer.header("x-request-id").unwrap().to_string();
    process.signal("TERM");
    let (code, _, logs) = process.wait(Duration::from_secs(5));
    assert_eq!(code, Some(0), "{logs}");
    let line = logs
        .lines()
        .find(|line| line.contains(&id))
        .unwrap_or_else(|| panic!("no log line with {id}: {logs}"));
    let record: Value = serde_json::from_str(line).unwrap();
    assert_eq!(record["level"], "WARN", "{line}");
    assert_eq!(record["status"], 400, "{line}");
    assert!(record["peer"].is_string(), "{line}");
    let message = record["message"].as_str().unwrap();
    assert!(
        message.starts_with("request rejected before routing"),
        "{line}"
    );
    assert!(message.contains(&error.message), "{line}");
    // Logged once.
    assert_eq!(logs.matches("rejected before routing").count(), 1, "{logs}");
}

#[tokio::test]
async fn integers_have_one_spelling() {
    let addr = serve(config()).await;
    let flow =
        |start: &str| format!("/api/v1/etf/flow?symbol=SPY&start_time={start}&end_time=1796083200");
    assert_eq!(get(addr, &flow("1794787200"), Some(KEY)).await.status, 200);
    assert_eq!(get(addr, &flow("0"), Some(KEY)).await.status, 200);
    // `+5`, leading zeros, `-0`, a space (encoded or as `+`), overflow.
    for start in [
        "%2B5",
        "05",
        "-0",
        "%205",
        "+5",
        "5%20",
        "0x10",
        "9223372036854775808",
    ] {
        let error = get(addr, &flow(start), Some(KEY))
            .await
            .error(400, ErrorCode::InvalidParameter);
        assert_eq!(error.details.len(), 1, "{start}");
        assert_eq!(error.details[0].field, "start_time");
        assert!(
            error.details[0].reason.contains("etf_flow.start_time.type"),
            "{start}: {}",
            error.details[0].reason
        );
    }
}
