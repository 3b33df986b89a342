//! The client's TLS options (features of `mrds-client`, forwarded to the runtime): the default
//! speaks TLS through rustls with the `ring` provider and builds no C library with cmake, no
//! aws-lc and no OpenSSL; and the client builds no URL library (and so no Unicode tables for
//! international host names): its stack is hyper's.

use std::process::Command;

use mrds_client::{Client, Error, TransportKind};
use tokio::io::AsyncReadExt;
use tokio::net::TcpListener;

use crate::client::dividends;

/// Checks the packages a build of `package` with its default features compiles (its normal
/// and build dependencies, from `cargo tree`, offline: the lock file is the workspace's):
/// every one of `present` is among them and none of `absent`.
pub(crate) fn assert_default_tree(package: &str, present: &[&str], absent: &[&str]) {
    let output = Command::new(env!("CARGO"))
        .args(["tree", "--offline", "-p", package, "-e", "normal,build"])
        .args(["--prefix", "none", "--format", "{p}"])
        .current_dir(mrds_tests::workspace_root())
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let tree = String::from_utf8(output.stdout).unwrap();
    let names: Vec<&str> = tree.lines().filter_map(|l| l.split(' ').next()).collect();
    for name in present {
        assert!(
            names.contains(name),
            "{name} is in {package}'s tree:\n{tree}"
        );
    }
    for name in absent {
        assert!(
            !names.contains(name),
            "{name} is not in {package}'s tree:\n{tree}"
        );
    }
}

#[test]
fn the_default_tls_builds_no_cmake_aws_lc_or_openssl_and_no_url_library() {
    assert_default_tree(
        "mrds-client",
        &["rustls", "ring", "rustls-platform-verifier", "hyper-rustls"],
        &[
            "aws-lc-rs",
            "aws-lc-sys",
            "cmake",
            "openssl-sys",
            "native-tls",
            "reqwest",
            "url",
            "idna",
        ],
    );
}

#[tokio::test]
async fn https_is_spoken_with_tls_by_default() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut head = [0u8; 6];
        socket.read_exact(&mut head).await.unwrap();
        head
        // The connection closes here: the handshake never completes.
    });
    let client = Client::builder(format!("https://127.0.0.1:{port}"))
        .api_key("key")
        .no_retries()
        .build()
        .expect("https builds with the default features");
    let err = client.stock_dividends(&dividends()).await.unwrap_err();
    let head = server.await.unwrap();
    // A TLS record of type handshake (22), version 3.x, holding a ClientHello (1).
    assert_eq!((head[0], head[1], head[5]), (22, 3, 1), "{head:?}");
    assert!(
        matches!(&err, Error::Transport(t) if matches!(t.kind, TransportKind::Connect | TransportKind::Reset)),
        "{err:?}"
    );
}
