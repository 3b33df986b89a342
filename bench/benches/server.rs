//! The generated server's cost per request without the network: one request through the
//! router (`tower::ServiceExt::oneshot`), generated against hand-written.
//!
//! `cargo bench -p mrds-bench --bench server`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mrds_server::axum::Router;
use mrds_server::axum::body::Body;
use mrds_server::axum::http::Request;
use tower::ServiceExt;

fn request(target: &str) -> Request<Body> {
    Request::get(format!("/api{target}"))
        .header("X-API-Key", mrds_bench::KEY)
        .body(Body::empty())
        .unwrap()
}

fn server(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let cases: [(&str, Router, &str); 4] = [
        (
            "generated_valid",
            mrds_bench::generated(),
            mrds_bench::VALID,
        ),
        (
            "generated_invalid",
            mrds_bench::generated(),
            mrds_bench::INVALID,
        ),
        (
            "handwritten_serialized",
            mrds_bench::baseline(),
            mrds_bench::VALID,
        ),
        (
            "handwritten_fixed_bytes",
            mrds_bench::fixed_bytes(),
            mrds_bench::VALID,
        ),
    ];
    let mut group = c.benchmark_group("router_oneshot");
    for (name, router, target) in cases {
        group.bench_function(name, |b| {
            b.iter(|| {
                let response = runtime
                    .block_on(router.clone().oneshot(request(black_box(target))))
                    .unwrap();
                assert!(response.status().as_u16() < 500);
                response
            })
        });
    }
    group.finish();
}

criterion_group!(benches, server);
criterion_main!(benches);
