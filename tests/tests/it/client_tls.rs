//! The client's TLS options (features of `mrds-client`, forwarded to the runtime): the default
//! speaks TLS through rustls with the `ring` provider and builds no C library with cmake, no
//! aws-lc and no OpenSSL.

use std::process::Command;

use mrds_client::{Client, Error, TransportKind};
use tokio::io::AsyncReadExt;
use tokio::net::TcpListener;

use crate::client::dividends;

/// The default features' dependency tree, from `cargo tree` (offline: the lock file is the
/// workspace's).
fn default_tree() -> String {
    let output = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "-p",
            "mrds-client",
            "-e",
            "normal,build",
        ])
        .args(["--prefix", "none", "--format", "{p}"])
        .current_dir(mrds_tests::workspace_root())
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_default_tls_builds_no_cmake_aws_lc_or_openssl() {
    let tree = default_tree();
    let names: Vec<&str> = tree.lines().filter_map(|l| l.split(' ').next()).collect();
    for present in ["rustls", "ring", "rustls-platform-verifier", "reqwest"] {
        assert!(
            names.contains(&present),
            "{present} is in the tree:\n{tree}"
        );
    }
    for absent in [
        "aws-lc-rs",
        "aws-lc-sys",
        "cmake",
        "openssl-sys",
        "native-tls",
    ] {
        assert!(
            !names.contains(&absent),
            "{absent} is not in the tree:\n{tree}"
        );
    }
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
