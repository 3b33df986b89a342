//! The client's HTTP stack: hyper's pooled HTTP/1.1 client over TCP, TLS from the feature
//! that is on, and `http://` proxies (from the environment, as curl reads it, or set on the
//! builder).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::header::PROXY_AUTHORIZATION;
use http::{HeaderValue, Uri};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::rt::{Read, ReadBufCursor, Write};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::proxy::Tunnel;
use hyper_util::client::legacy::connect::{Connected, Connection, HttpConnector};
use hyper_util::client::proxy::matcher::{Intercept, Matcher};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use tokio::net::TcpStream;
use tower_service::Service;

use super::error::BuildError;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// How long an idle pooled connection is kept.
const POOL_IDLE_TIMEOUT: Duration = Duration::from_secs(90);

/// Whether this build can speak `https`: one of the TLS features is on.
pub(crate) const TLS: bool = cfg!(any(
    feature = "client-rustls-ring",
    feature = "client-rustls-aws-lc-rs",
    feature = "client-native-tls"
));

/// A TLS configuration given with `ClientBuilder::tls_config`: rustls's, in the builds whose
/// TLS is rustls; none can be made in the others.
pub(crate) use tls::Config as TlsConfig;
use tls::Connect;

/// The pooled HTTP client a transport sends through.
pub(crate) struct Http {
    client: Client<Connect, Full<Bytes>>,
    proxies: Option<Arc<Matcher>>,
}

impl Http {
    /// A pool sending through `proxies` (none: straight to the service), with the caller's
    /// TLS configuration if there is one.
    pub(crate) fn new(
        proxies: Option<Matcher>,
        tls: Option<TlsConfig>,
    ) -> Result<Self, BuildError> {
        let proxies = proxies.map(Arc::new);
        let mut tcp = HttpConnector::new();
        tcp.set_nodelay(true);
        // The TLS layer above takes `https` destinations; the TCP connector below sees them.
        tcp.enforce_http(!TLS);
        let connector = Connector {
            tcp,
            proxies: proxies.clone(),
        };
        let client = Client::builder(TokioExecutor::new())
            .pool_timer(TokioTimer::new())
            .pool_idle_timeout(POOL_IDLE_TIMEOUT)
            .build(tls::wrap(connector, tls)?);
        Ok(Self { client, proxies })
    }

    /// The `Proxy-Authorization` header a request to `dst` carries: for an `http://`
    /// destination sent through a proxy with credentials (an `https://` one gets it in the
    /// tunnel's `CONNECT` instead).
    fn proxy_authorization(&self, dst: &Uri) -> Option<HeaderValue> {
        if dst.scheme_str() != Some("http") {
            return None;
        }
        let intercept = self.proxies.as_ref()?.intercept(dst)?;
        intercept.basic_auth().cloned()
    }

    /// Sends one request (with the proxy's credentials when it goes to a proxy that needs
    /// them) and returns the head of its answer (the body streams).
    pub(crate) async fn send(
        &self,
        mut request: http::Request<Full<Bytes>>,
    ) -> Result<http::Response<Incoming>, hyper_util::client::legacy::Error> {
        if let Some(auth) = self.proxy_authorization(request.uri()) {
            request.headers_mut().insert(PROXY_AUTHORIZATION, auth);
        }
        self.client.request(request).await
    }
}

/// The proxies of the environment (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`, `NO_PROXY`,
/// in either case), read as curl reads them.
pub(crate) fn environment_proxies() -> Matcher {
    Matcher::from_env()
}

/// One proxy for every request; `url` is an `http://` URL, with credentials if it needs them.
pub(crate) fn fixed_proxy(url: &str) -> Result<Matcher, String> {
    let uri: Uri = url.trim().parse().map_err(|e| format!("{e}"))?;
    if uri.scheme_str() != Some("http") {
        return Err("the client speaks to `http://` proxies only".to_string());
    }
    if uri.host().is_none_or(str::is_empty) {
        return Err("it has no host".to_string());
    }
    Ok(Matcher::builder().all(url.trim().to_string()).build())
}

/// TCP to the service, or to the proxy that intercepts its destination: a `CONNECT` tunnel
/// for `https`, the proxy itself for `http` (the request then names the whole URL).
#[derive(Clone)]
pub(crate) struct Connector {
    tcp: HttpConnector,
    proxies: Option<Arc<Matcher>>,
}

impl Service<Uri> for Connector {
    type Response = Conn;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Conn, BoxError>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, dst: Uri) -> Self::Future {
        let mut tcp = self.tcp.clone();
        let intercept = self.proxies.as_ref().and_then(|m| m.intercept(&dst));
        Box::pin(async move {
            let Some(proxy) = intercept else {
                let io = tcp.call(dst).await?;
                return Ok(Conn { io, proxied: false });
            };
            let proxy_uri = supported_proxy(&proxy)?;
            if dst.scheme_str() == Some("https") {
                let mut tunnel = Tunnel::new(proxy_uri, tcp);
                if let Some(auth) = proxy.basic_auth() {
                    tunnel = tunnel.with_auth(auth.clone());
                }
                let io = tunnel.call(dst).await?;
                Ok(Conn { io, proxied: false })
            } else {
                let io = tcp.call(proxy_uri).await?;
                Ok(Conn { io, proxied: true })
            }
        })
    }
}

/// The proxy's URL, if the client can speak to it (`http://` only; not SOCKS, not TLS to
/// the proxy).
fn supported_proxy(proxy: &Intercept) -> Result<Uri, BoxError> {
    let uri = proxy.uri();
    match uri.scheme_str() {
        Some("http") => Ok(uri.clone()),
        scheme => Err(format!(
            "the proxy at {} is `{}://`, and the client speaks to `http://` proxies only",
            uri.host().unwrap_or("?"),
            scheme.unwrap_or("?"),
        )
        .into()),
    }
}

/// A TCP connection, which says whether it leads to a proxy (so that hyper writes the whole
/// URL in the request line).
pub(crate) struct Conn {
    io: TokioIo<TcpStream>,
    proxied: bool,
}

impl Connection for Conn {
    fn connected(&self) -> Connected {
        self.io.connected().proxy(self.proxied)
    }
}

impl Read for Conn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl Write for Conn {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }
}

/// TLS from the platform's library (preferred when several TLS features are on).
#[cfg(feature = "client-native-tls")]
mod tls {
    use super::{BuildError, Connector};

    /// None can be given: `ClientBuilder::tls_config` is rustls's.
    #[derive(Clone, Debug)]
    pub(crate) enum Config {}

    /// TCP through [`Connector`], in TLS for `https`.
    pub(crate) type Connect = hyper_tls::HttpsConnector<Connector>;

    pub(crate) fn wrap(connector: Connector, _: Option<Config>) -> Result<Connect, BuildError> {
        let tls = native_tls::TlsConnector::new().map_err(|e| BuildError::Tls(Box::new(e)))?;
        Ok(hyper_tls::HttpsConnector::from((
            connector,
            tokio_native_tls::TlsConnector::from(tls),
        )))
    }
}

/// rustls, as the caller configured it, or with the process's default crypto provider when
/// the application installed one, else the feature's (`aws-lc-rs` before `ring`), and the
/// platform's certificate verifier.
#[cfg(all(
    not(feature = "client-native-tls"),
    any(feature = "client-rustls-ring", feature = "client-rustls-aws-lc-rs")
))]
mod tls {
    use std::sync::Arc;

    use super::{BuildError, Connector};

    pub(crate) type Config = rustls::ClientConfig;

    /// TCP through [`Connector`], in TLS for `https`.
    pub(crate) type Connect = hyper_rustls::HttpsConnector<Connector>;

    pub(crate) fn wrap(
        connector: Connector,
        config: Option<Config>,
    ) -> Result<Connect, BuildError> {
        let config = match config {
            Some(config) => config,
            None => default_config()?,
        };
        Ok(hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(config)
            .https_or_http()
            .enable_http1()
            .wrap_connector(connector))
    }

    /// The configuration of a client given none.
    fn default_config() -> Result<Config, BuildError> {
        use rustls_platform_verifier::BuilderVerifierExt;

        #[cfg(feature = "client-rustls-aws-lc-rs")]
        let provider = rustls::crypto::aws_lc_rs::default_provider;
        #[cfg(not(feature = "client-rustls-aws-lc-rs"))]
        let provider = rustls::crypto::ring::default_provider;
        let provider = rustls::crypto::CryptoProvider::get_default()
            .cloned()
            .unwrap_or_else(|| Arc::new(provider()));
        let tls = |e: rustls::Error| BuildError::Tls(Box::new(e));
        Ok(rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(tls)?
            .with_platform_verifier()
            .map_err(tls)?
            .with_no_client_auth())
    }
}

/// Plain TCP: a build without TLS refuses an `https` base URL when it is built.
#[cfg(not(any(
    feature = "client-native-tls",
    feature = "client-rustls-ring",
    feature = "client-rustls-aws-lc-rs"
)))]
mod tls {
    use super::{BuildError, Connector};

    /// None can be given: `ClientBuilder::tls_config` is rustls's.
    #[derive(Clone, Debug)]
    pub(crate) enum Config {}

    pub(crate) type Connect = Connector;

    pub(crate) fn wrap(connector: Connector, _: Option<Config>) -> Result<Connect, BuildError> {
        Ok(connector)
    }
}
