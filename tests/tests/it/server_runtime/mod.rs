//! The serving path (`mrds_server::serve`) over real sockets, and the sample server's command
//! line as a child process (`mrds-mock-slow`, whose [`slow_target`] answers late). By subject:
//!
//! - [`limits`]: timeouts close idle, byte-dripping, resting and unread connections; the
//!   connection cap never keeps a valid request out; oversized heads are refused; an
//!   implementation past the request timeout answers 500;
//! - [`answers`]: every answer the service gives (404, 405, 401, 400, 429) is an envelope with
//!   a request id; repeated keys are refused; incoming request ids; compression; integers
//!   with one spelling;
//! - [`shutdown`]: a shutdown handle, a graceful shutdown under a pipelining client, and the
//!   process on SIGTERM: its deadline and a second signal;
//! - [`logs`]: logs and output that never show a key, and a refused head logged at warn.
//!
//! This module holds what they share: the sample server on a test configuration, reading a
//! connection to its close, and the child process.

mod answers;
mod limits;
mod logs;
mod shutdown;

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mrds_server::{ServeConfig, Server, StaticKeys};
use tokio::io::AsyncReadExt;

const KEY: &str = "runtime-test-key";
/// A request the sample server answers with records, needing the key
/// ([`mrds_tests::served_target`]: read from the spec, so it follows a removal).
fn target() -> &'static str {
    mrds_tests::served_target()
}

/// The request `mrds-mock-slow` answers late: the example of the endpoint it slows, which it
/// serves even when the spec marks the endpoint removed.
fn slow_target() -> &'static str {
    static TARGET: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TARGET.get_or_init(|| {
        let example = (mrds_mock::EXAMPLES.iter())
            .find(|x| x.endpoint == mrds_tests::SLOW_ENDPOINT)
            .expect("the slowed endpoint has an example");
        format!("{}{}", mrds_model::api::BASE_PATH, example.request)
    })
}

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

// ---------------------------------------------------------------- the command line as a process

/// `mrds-mock-slow` on a free port; [`slow_target`] answers after `delay_ms`.
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
