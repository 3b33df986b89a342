//! `bench-server generated|baseline|static ADDR`: serves dividends for the wrk benchmark
//! (`bench/server.sh`), on one worker thread so the load generator has the other core.
//!
//! - `generated`: the generated router (key check, raw query parsing, validation, envelope,
//!   request id, tracing) over an implementation that returns fixed records;
//! - `baseline`: a hand-written axum handler that answers the same bytes with no key check,
//!   no parsing and no validation: it takes the same records and serializes the envelope;
//! - `static`: a hand-written handler answering bytes serialized once at start (a floor: no
//!   work per request beyond HTTP).
//!
//! Built with the `mimalloc` feature it allocates with mimalloc instead of the system's.

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (app, addr) = match args.as_slice() {
        [mode, addr] if mode == "generated" => (mrds_bench::generated(), addr),
        [mode, addr] if mode == "baseline" => (mrds_bench::baseline(), addr),
        [mode, addr] if mode == "static" => (mrds_bench::fixed_bytes(), addr),
        _ => {
            eprintln!("usage: bench-server generated|baseline|static HOST:PORT");
            std::process::exit(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime starts");
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .expect("address is free");
        mrds_server::axum::serve(listener, app)
            .await
            .expect("server runs");
    });
}
