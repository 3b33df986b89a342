//! Proxies: plain HTTP requests sent to the proxy with the whole URL and its credentials,
//! HTTPS tunnelled through it (the key never shown to it), `no_proxy()`, proxies the client
//! cannot speak to refused without showing their password, and proxies from the environment
//! (run in a child process, `src/bin/mrds-env-proxy-probe.rs`, so the variables are its own).

use mrds_client::{BuildError, Client, Error, TransportKind};
use serde_json::json;

use super::{KEY, dividends, http, serve, success};

/// `proxy` with credentials, as a user would write it, for the server at `root`.
fn proxy_url(root: &str) -> String {
    root.replace("http://", "http://user:s3cret@")
}

#[tokio::test]
async fn http_requests_go_to_the_proxy_with_the_whole_url() {
    let proxy = serve(|_, _| http(200, &[], &success(json!([])))).await;
    // The service's host does not resolve: only the proxy can reach it.
    let client = Client::builder("http://mrds.invalid:8080")
        .api_key(KEY)
        .proxy(proxy_url(&proxy.root))
        .build()
        .unwrap();
    client.stock_dividends(&dividends()).await.unwrap();
    let seen = &proxy.seen()[0];
    assert!(
        seen.target
            .starts_with("http://mrds.invalid:8080/api/v1/stocks/dividends?"),
        "{}",
        seen.target
    );
    assert_eq!(seen.header("host"), Some("mrds.invalid:8080"));
    assert_eq!(seen.header("x-api-key"), Some(KEY));
    // user:s3cret in Basic form.
    assert_eq!(
        seen.header("proxy-authorization"),
        Some("Basic dXNlcjpzM2NyZXQ=")
    );
}

#[tokio::test]
async fn https_requests_tunnel_through_the_proxy() {
    // The proxy refuses the tunnel: the call fails to connect, and the proxy saw only the
    // CONNECT, never the key or the query.
    let proxy = serve(|_, _| http(403, &[], "")).await;
    let client = Client::builder("https://mrds.invalid")
        .api_key(KEY)
        .proxy(proxy_url(&proxy.root))
        .no_retries()
        .build()
        .unwrap();
    let err = client.stock_dividends(&dividends()).await.unwrap_err();
    assert!(
        matches!(&err, Error::Transport(t) if t.kind == TransportKind::Connect),
        "{err:?}"
    );
    let seen = proxy.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].target, "mrds.invalid:443");
    assert_eq!(
        seen[0].header("proxy-authorization"),
        Some("Basic dXNlcjpzM2NyZXQ=")
    );
    assert_eq!(seen[0].header("x-api-key"), None);
}

#[tokio::test]
async fn no_proxy_goes_straight_to_the_service() {
    let server = serve(|_, _| http(200, &[], &success(json!([])))).await;
    let client = Client::builder(&server.root)
        .proxy("http://127.0.0.1:9")
        .no_proxy()
        .build()
        .unwrap();
    client.stock_dividends(&dividends()).await.unwrap();
    assert!(
        server.seen()[0]
            .target
            .starts_with("/api/v1/stocks/dividends?")
    );
}

#[test]
fn proxies_the_client_cannot_speak_to_are_refused_without_their_password() {
    for (bad, reason) in [
        ("socks5://user:pw@127.0.0.1:1080", "`http://` proxies only"),
        ("https://proxy.example", "`http://` proxies only"),
        ("not a url", "invalid"),
    ] {
        let err = Client::builder("http://host")
            .proxy(bad)
            .build()
            .unwrap_err();
        let text = err.to_string();
        assert!(
            matches!(err, BuildError::InvalidProxy { .. }),
            "{bad}: {err:?}"
        );
        assert!(text.contains(reason), "{bad}: {text}");
        assert!(!text.contains("pw@"), "{text}");
    }
    let builder = Client::builder("http://host").proxy("http://user:pw@proxy:3128");
    let text = format!("{builder:?}");
    assert!(text.contains("http://<credentials>@proxy:3128"), "{text}");
    assert!(!text.contains("pw"), "{text}");
}

/// Runs the probe (`src/bin/mrds-env-proxy-probe.rs`) on `url` with only the proxy variables
/// of `env` set; its output and whether it got an answer.
fn probe_with_env(url: &str, env: &[(&str, &str)]) -> (String, bool) {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_mrds-env-proxy-probe"));
    for name in [
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "NO_PROXY",
        "REQUEST_METHOD",
    ] {
        command.env_remove(name).env_remove(name.to_lowercase());
    }
    let output = command.arg(url).envs(env.iter().copied()).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).trim().to_string();
    (text, output.status.success())
}

#[test]
fn proxies_come_from_the_environment() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let proxy = runtime.block_on(serve(|_, _| http(204, &[], "")));
    let url = "http://mrds.invalid:8080/api/v1/x?y=1";

    // HTTP_PROXY: the request goes to the proxy, naming the whole URL.
    let (out, answered) = probe_with_env(url, &[("HTTP_PROXY", &proxy.root)]);
    assert!(answered && out == "204", "{out}");
    assert_eq!(proxy.seen()[0].target, url);

    // ALL_PROXY in lower case, with credentials.
    let with_credentials = proxy.root.replace("http://", "http://u:p@");
    let (out, answered) = probe_with_env(url, &[("all_proxy", &with_credentials)]);
    assert!(answered && out == "204", "{out}");
    assert_eq!(
        proxy.seen()[1].header("proxy-authorization"),
        Some("Basic dTpw")
    );

    // NO_PROXY names the host: straight to it, which does not resolve.
    let (out, answered) = probe_with_env(
        url,
        &[("HTTP_PROXY", &proxy.root), ("NO_PROXY", "mrds.invalid")],
    );
    assert!(
        !answered && out.starts_with("error: could not connect"),
        "{out}"
    );

    // A SOCKS proxy is not spoken to, and the error says so.
    let (out, answered) = probe_with_env(url, &[("HTTP_PROXY", "socks5://127.0.0.1:1")]);
    assert!(!answered && out.contains("`http://` proxies only"), "{out}");
    assert_eq!(proxy.count(), 2);
}
