//! Sends one `GET` of the URL given as its argument through the client's HTTP stack with its
//! default proxies (the environment's: `HTTP_PROXY`, `HTTPS_PROXY`, `ALL_PROXY`, `NO_PROXY`),
//! and prints the answer's status, or the error with its sources and exits with 1. The proxy tests of
//! `tests/it/client/proxies.rs` run it as a child process, so that the environment they set is
//! its own and no other test sees it.

use std::process::ExitCode;
use std::time::Duration;

use mrds_runtime::client::{RawClient, http};

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let Some(url) = std::env::args().nth(1) else {
        eprintln!("usage: mrds-env-proxy-probe URL");
        return ExitCode::from(2);
    };
    let request = match http::Request::get(url).body(Default::default()) {
        Ok(request) => request,
        Err(e) => {
            eprintln!("bad URL: {e}");
            return ExitCode::from(2);
        }
    };
    let client = match RawClient::new() {
        Ok(client) => client,
        Err(e) => {
            eprintln!("no client: {e}");
            return ExitCode::from(2);
        }
    };
    match client.send(request, Duration::from_secs(10)).await {
        Ok(answer) => {
            println!("{}", answer.status().as_u16());
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("error: {}", mrds_tests::error_chain(&e));
            ExitCode::FAILURE
        }
    }
}
