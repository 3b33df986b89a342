//! The process's logs and output: no key in any log line or in the output (JSON lines, one per
//! request, no ANSI codes), and a head refused before routing logged at warn with its request
//! id.

use std::time::Duration;

use mrds_model::ErrorCode;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::{Process, slow_target};
use crate::http::{assert_request_id, get, send};

#[tokio::test]
async fn no_key_in_any_log_line_or_output() {
    let target = slow_target();
    let secret = "sk-live-7d1e0c9b";
    let process = Process::start(0, &["--api-key", secret, "--api-key", "second-secret"]);
    let addr = process.addr;
    let output = process.stdout.join("\n");
    assert!(
        output.contains("accepting 2 API keys"),
        "startup output: {output}"
    );
    for request in [
        get(addr, target, Some(secret)).await,
        get(addr, target, Some("sk-wrong-4242")).await,
        get(addr, "/api/v1/nothing", Some(secret)).await,
        send(addr, "POST", target, &[("X-API-Key", secret)]).await,
        send(
            addr,
            "GET",
            target,
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
