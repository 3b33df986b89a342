//! `bench-server MODE ADDR`: serves dividends for the wrk benchmark (`bench/server.sh`), on one
//! worker thread so the load generator has the other core.
//!
//! - `generated`: the generated router (key check, raw query parsing, validation, envelope,
//!   request id, tracing) over an implementation that returns fixed records, served by
//!   `mrds_server::serve` with its defaults: what an implementer gets (connection cap,
//!   header-read, keep-alive and write timers, bounded head, gzip above 4 KiB, graceful
//!   shutdown);
//! - `generated-plain`: the same router on `axum::serve` (none of those layers);
//! - `generated-nogzip`: `serve` with compression off;
//! - `generated-notimeout`: `serve` without the per-request timeout;
//! - `generated-limited`: `serve` with a rate limit too high to refuse anything (the per-key
//!   bookkeeping only);
//! - `baseline`: a hand-written axum handler on `axum::serve` that answers the same bytes
//!   with no key check, no parsing and no validation: it takes the same records and
//!   serializes the envelope;
//! - `baseline-serve`: the same hand-written handler served by `mrds_server::serve` with its
//!   defaults (the serving layers without the generated pipeline);
//! - `static`: a hand-written handler answering bytes serialized once at start (a floor: no
//!   work per request beyond HTTP).
//!
//! Built with the `mimalloc` feature it allocates with mimalloc instead of the system's.

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use mrds_server::{RateLimit, ServeConfig};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, addr] = args.as_slice() else {
        usage()
    };
    let addr: std::net::SocketAddr = addr.parse().unwrap_or_else(|_| usage());
    let config = ServeConfig::default().with_addr(addr);
    let (app, config) = match mode.as_str() {
        "generated" => (mrds_bench::generated(), Some(config)),
        "generated-plain" => (mrds_bench::generated(), None),
        "generated-nogzip" => (
            mrds_bench::generated(),
            Some(config.with_compression(false)),
        ),
        "generated-notimeout" => (
            mrds_bench::generated(),
            Some(config.with_request_timeout(None)),
        ),
        "generated-limited" => (
            mrds_bench::generated(),
            Some(config.with_rate_limit(Some(RateLimit::per_second(u32::MAX)))),
        ),
        "baseline" => (mrds_bench::baseline(), None),
        "baseline-serve" => (mrds_bench::baseline(), Some(config)),
        "static" => (mrds_bench::fixed_bytes(), None),
        _ => usage(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime starts");
    runtime.block_on(async {
        match config {
            Some(config) => mrds_server::serve(app, config).await.expect("server runs"),
            None => {
                let listener = tokio::net::TcpListener::bind(addr)
                    .await
                    .expect("address is free");
                mrds_server::axum::serve(listener, app)
                    .await
                    .expect("server runs");
            }
        }
    });
}

fn usage() -> ! {
    eprintln!(
        "usage: bench-server generated|generated-plain|generated-nogzip|generated-notimeout|generated-limited|baseline|baseline-serve|static HOST:PORT"
    );
    std::process::exit(2);
}
