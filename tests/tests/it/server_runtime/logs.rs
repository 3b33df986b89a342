//! The process's logs and output: no key in any log line or in the output (JSON lines, one per
//! request with its method, query and key status, no ANSI codes), a head refused before
//! routing logged at warn with its request id, and the admin API (`--admin`, on a loopback
//! address unless `--admin-remote`).

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
        get(addr, &with_param(target, "copied", secret), Some(secret)).await,
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
            assert!(record["method"].is_string(), "{line}");
            let key = record["key"].as_str().unwrap_or_default();
            assert!(["accepted", "refused", "repeated"].contains(&key), "{line}");
            if record["endpoint"].is_string() && record["key"] == "accepted" {
                assert!(record["query"].is_string(), "{line}");
            }
        }
    }
    assert_eq!(requests, 6, "one line per request: {logs}");
    assert!(
        logs.contains("copied=<redacted>"),
        "the key in the query is redacted: {logs}"
    );

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
async fn the_admin_api_is_served_with_admin_on_loopback_only_unless_told() {
    let process = Process::start(0, &["--admin", "--api-key", "admin-cli-key-0001"]);
    let addr = process.addr;
    assert!(
        process
            .stdout
            .iter()
            .any(|l| l.contains("admin API at http://")),
        "{:?}",
        process.stdout
    );
    let scenario = format!(
        r#"{{"endpoint": "{}", "response": {{"status": 503}}}}"#,
        mrds_tests::SLOW_ENDPOINT
    );
    let added = crate::http::send_body(
        addr,
        "POST",
        "/__admin/scenarios",
        &[("Content-Type", "application/json")],
        scenario.as_bytes(),
    )
    .await;
    assert_eq!(
        added.status,
        201,
        "{}",
        String::from_utf8_lossy(&added.body)
    );
    assert_eq!(
        get(addr, slow_target(), Some("admin-cli-key-0001"))
            .await
            .status,
        503
    );
    let journal = send(addr, "GET", "/__admin/requests", &[]).await.json();
    assert_eq!(journal["requests"][0]["status"], 503);
    assert_eq!(journal["requests"][0]["api_key"], "accepted");
    assert!(!journal.to_string().contains("admin-cli-key-0001"));
    process.signal("TERM");
    let (code, _, logs) = process.wait(Duration::from_secs(5));
    assert_eq!(code, Some(0), "{logs}");

    // Not on an address other machines reach, unless told.
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_mrds-mock-slow"))
        .args(["--addr", "0.0.0.0:0", "--admin"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("--admin-remote"), "{said}");
}

/// `target` with the query parameter `name=value` added.
fn with_param(target: &str, name: &str, value: &str) -> String {
    let separator = if target.contains('?') { '&' } else { '?' };
    format!("{target}{separator}{name}={value}")
}
