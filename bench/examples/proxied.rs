//! `proxied MODE N`: sends N valid dividends requests one at a time to a provider on a loopback
//! socket (the generated server answering fixed records, `mrds_bench::generated`), `direct`ly
//! with the client's HTTP stack or through the checking proxy's router in process (`proxied`),
//! which forwards each to the provider with the same stack and checks the request and the
//! answer against the spec. `bench/proxy-instructions.sh` counts both under callgrind: the
//! difference is what the proxy adds to a request.

use std::time::Duration;

use mrds_runtime::client::RawClient;
use mrds_runtime::proxy::Proxy;
use mrds_server::axum::body::{Body, Bytes, to_bytes};
use mrds_server::axum::http::Request;
use tower::ServiceExt;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, n] = args.as_slice() else { usage() };
    let proxied = match mode.as_str() {
        "direct" => false,
        "proxied" => true,
        _ => usage(),
    };
    let n: usize = n.parse().unwrap_or_else(|_| usage());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime starts");
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let provider = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            mrds_server::axum::serve(listener, mrds_bench::generated())
                .await
                .unwrap()
        });
        let router = Proxy::builder(&mrds_mock::APP, provider.as_str())
            .build()
            .expect("the proxy builds")
            .router();
        let raw = RawClient::new().expect("the client builds");
        for _ in 0..n {
            if proxied {
                let request = Request::get(format!("/api{}", mrds_bench::VALID))
                    .header("X-API-Key", mrds_bench::KEY)
                    .body(Body::empty())
                    .unwrap();
                let answer = router.clone().oneshot(request).await.unwrap();
                assert_eq!(answer.status(), 200);
                to_bytes(answer.into_body(), usize::MAX).await.unwrap();
            } else {
                let request = Request::get(format!("{provider}/api{}", mrds_bench::VALID))
                    .header("X-API-Key", mrds_bench::KEY)
                    .body(Bytes::new())
                    .unwrap();
                let answer = raw.send(request, Duration::from_secs(10)).await.unwrap();
                assert_eq!(answer.status(), 200);
            }
        }
    });
}

fn usage() -> ! {
    eprintln!("usage: proxied direct|proxied N");
    std::process::exit(2)
}
