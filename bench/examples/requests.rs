//! `requests MODE N`: answers N valid dividends requests in process, one at a time, through
//! the generated router (`generated`) or the hand-written handler (`handwritten`).
//! `bench/instructions.sh` counts its instructions under callgrind.

use mrds_server::axum::body::Body;
use mrds_server::axum::http::Request;
use tower::ServiceExt;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (router, n) = match args.as_slice() {
        [mode, n] if mode == "generated" => (mrds_bench::generated(), n),
        [mode, n] if mode == "handwritten" => (mrds_bench::baseline(), n),
        _ => usage(),
    };
    let n: usize = n.parse().unwrap_or_else(|_| usage());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime starts");
    for _ in 0..n {
        let request = Request::get(format!("/api{}", mrds_bench::VALID))
            .header("X-API-Key", mrds_bench::KEY)
            .body(Body::empty())
            .expect("a valid request");
        let response = runtime
            .block_on(router.clone().oneshot(request))
            .expect("routers do not fail");
        assert!(response.status().is_success(), "{}", response.status());
    }
}

fn usage() -> ! {
    eprintln!("usage: requests generated|handwritten N");
    std::process::exit(2);
}
