//! The client's TLS options (features of `mrds-client`, forwarded to the runtime): the default
//! speaks TLS through rustls with the `ring` provider and builds no C library with cmake, no
//! aws-lc and no OpenSSL; and the client builds no URL library (and so no Unicode tables for
//! international host names): its stack is hyper's.

use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};

use mrds_client::{Client, Error, TransportKind};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::client::{Reply, dividends, http, read_head, success};

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

/// A file of the test certificates (`tests/tls`).
fn tls_file(name: &str) -> PathBuf {
    mrds_tests::workspace_root().join("tests/tls").join(name)
}

fn ring() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A TLS server on a loopback port with the test certificate of `localhost` and `127.0.0.1`,
/// answering every request with a canned success; its port and the heads it read.
async fn tls_server() -> (u16, Arc<Mutex<Vec<String>>>) {
    let certs = CertificateDer::pem_file_iter(tls_file("localhost.pem"))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_file(tls_file("localhost.key")).unwrap();
    let config = rustls::ServerConfig::builder_with_provider(ring())
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let heads = Arc::new(Mutex::new(Vec::new()));
    let seen = heads.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let (acceptor, seen) = (acceptor.clone(), seen.clone());
            tokio::spawn(async move {
                // A client that refuses the certificate ends here.
                let Ok(mut tls) = acceptor.accept(socket).await else {
                    return;
                };
                let Some(head) = read_head(&mut tls).await else {
                    return;
                };
                seen.lock()
                    .unwrap()
                    .push(String::from_utf8_lossy(&head).into_owned());
                let Reply::Raw(answer) = http(200, &[], &success(json!([]))) else {
                    unreachable!("a canned answer is bytes")
                };
                let _ = tls.write_all(&answer).await;
                let _ = tls.shutdown().await;
            });
        }
    });
    (port, heads)
}

#[tokio::test]
async fn https_end_to_end_with_a_private_authority_and_refused_without_it() {
    let (port, heads) = tls_server().await;
    let root = format!("https://127.0.0.1:{port}");

    // The platform's verifier does not know the test authority: the handshake fails, and the
    // error's sources say it was the certificate.
    let err = Client::builder(&root)
        .api_key("key")
        .no_retries()
        .build()
        .unwrap()
        .stock_dividends(&dividends())
        .await
        .unwrap_err();
    let Error::Transport(t) = &err else {
        panic!("expected a transport error, got {err:?}");
    };
    assert_eq!(t.kind, TransportKind::Connect);
    let chain = mrds_tests::error_chain(&err);
    assert!(chain.contains("certificate"), "{chain}");
    assert!(heads.lock().unwrap().is_empty(), "nothing was sent");

    // With a root store of the test authority (`tls_config`), the call goes through TLS.
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(tls_file("ca.pem")).unwrap() {
        roots.add(cert.unwrap()).unwrap();
    }
    let config = rustls::ClientConfig::builder_with_provider(ring())
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let client = Client::builder(&root)
        .api_key("key")
        .tls_config(config)
        .no_retries()
        .build()
        .unwrap();
    assert!(format!("{client:?}").contains("https://127.0.0.1"));
    let page = client.stock_dividends(&dividends()).await.unwrap();
    assert!(page.data.is_empty());
    let heads = heads.lock().unwrap();
    assert_eq!(heads.len(), 1);
    assert!(
        heads[0].starts_with("GET /api/v1/stocks/dividends?"),
        "{}",
        heads[0]
    );
    assert!(
        heads[0].to_ascii_lowercase().contains("x-api-key: key"),
        "{}",
        heads[0]
    );
}
