//! What the checking proxy (`mrds-mock --proxy`) adds to a request: one request sent to a
//! provider on a loopback socket directly (the client's HTTP stack), and the same request sent
//! through the proxy's router in process (`tower::ServiceExt::oneshot`), which forwards it to
//! that provider with the same stack and checks the request and the answer against the spec.
//! The provider is the generated server answering fixed records (`mrds_bench::generated`): five
//! dividends, or 10,000 candles (1.7 MB). The difference of the two cases is the proxy's cost.
//!
//! `cargo bench -p mrds-bench --bench proxy`

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use mrds_runtime::client::RawClient;
use mrds_runtime::proxy::Proxy;
use mrds_server::axum::Router;
use mrds_server::axum::body::{Body, Bytes, to_bytes};
use mrds_server::axum::http::Request;
use tower::ServiceExt;

fn proxy(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let provider = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let at = listener.local_addr().unwrap();
        tokio::spawn(async move {
            mrds_server::axum::serve(listener, mrds_bench::generated())
                .await
                .unwrap()
        });
        format!("http://{at}")
    });
    let proxy: Arc<Proxy> = Proxy::builder(&mrds_mock::APP, provider.as_str())
        .build()
        .unwrap();
    let router: Router = proxy.router();
    let raw = RawClient::new().unwrap();
    let mut group = c.benchmark_group("proxy");
    for (name, target) in [
        ("dividends", mrds_bench::VALID),
        ("kline_10k", mrds_bench::KLINE),
    ] {
        group.bench_function(format!("{name}/direct"), |b| {
            b.iter(|| {
                let request = Request::get(format!("{provider}/api{}", black_box(target)))
                    .header("X-API-Key", mrds_bench::KEY)
                    .body(Bytes::new())
                    .unwrap();
                let answer = runtime
                    .block_on(raw.send(request, Duration::from_secs(10)))
                    .unwrap();
                assert_eq!(answer.status(), 200);
                answer
            })
        });
        group.bench_function(format!("{name}/proxied"), |b| {
            b.iter(|| {
                let request = Request::get(format!("/api{}", black_box(target)))
                    .header("X-API-Key", mrds_bench::KEY)
                    .body(Body::empty())
                    .unwrap();
                runtime.block_on(async {
                    let answer = router.clone().oneshot(request).await.unwrap();
                    assert_eq!(answer.status(), 200);
                    to_bytes(answer.into_body(), usize::MAX).await.unwrap()
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, proxy);
criterion_main!(benches);
