//! Shutdown: a shutdown handle stops accepting and finishes what is open, a graceful shutdown
//! lets a pipelining client read every answer sent; and the process on SIGTERM completes the
//! request in flight, ends at its deadline, or at a second signal.

use std::time::{Duration, Instant};

use mrds_server::{Server, StaticKeys};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use super::{KEY, Process, config, read_to_close, slow_target, target};
use crate::http::{get, read_answer};

#[tokio::test]
async fn a_shutdown_handle_stops_accepting_and_finishes_what_is_open() {
    let target = target();
    let server = Server::bind(config().with_shutdown_timeout(Duration::from_secs(5)))
        .await
        .unwrap();
    let addr = server.local_addr().unwrap();
    let handle = server.shutdown_handle();
    let router = mrds_mock::router(StaticKeys::new([KEY]));
    let serving = tokio::spawn(server.serve(router));
    // A kept-alive connection resting between requests does not hold the shutdown up.
    let mut resting = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {target} HTTP/1.1\r\nHost: x\r\nX-API-Key: {KEY}\r\n\r\n");
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

#[tokio::test]
#[ignore = "slow: signals a child process and waits for its request; .ci/exhaustive runs it"]
async fn sigterm_completes_the_request_in_flight_and_exits_0() {
    let target = slow_target();
    let process = Process::start(800, &["--api-key", KEY, "--shutdown-timeout", "5s"]);
    let addr = process.addr;
    let slow = tokio::spawn(get(addr, target, Some(KEY)));
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
#[ignore = "slow: signals a child process and waits out its deadline; .ci/exhaustive runs it"]
async fn the_shutdown_deadline_and_a_second_signal_end_the_process() {
    let target = slow_target();
    // A request that would take 20 s, a deadline of 0.5 s.
    let process = Process::start(20_000, &["--shutdown-timeout", "500ms"]);
    let slow = tokio::spawn(get(process.addr, target, Some("demo-key")));
    tokio::time::sleep(Duration::from_millis(250)).await;
    process.signal("TERM");
    let (code, took, logs) = process.wait(Duration::from_secs(5));
    assert_eq!(code, Some(0), "{logs}");
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert!(logs.contains("shutdown timeout passed"), "{logs}");
    slow.abort();

    // A deadline of 60 s, and a second SIGINT.
    let process = Process::start(20_000, &["--shutdown-timeout", "60s"]);
    let slow = tokio::spawn(get(process.addr, target, Some("demo-key")));
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
