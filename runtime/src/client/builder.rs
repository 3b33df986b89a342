//! Configuring a client.

use std::fmt;
use std::marker::PhantomData;
use std::time::Duration;

use http::Uri;
use http::header::{HeaderName, HeaderValue};

use super::error::BuildError;
use super::stack::{self, Http, TLS, TlsConfig};
use super::transport::{Transport, TransportSettings};
use super::{DEFAULT_DEADLINE_FACTOR, DEFAULT_TIMEOUT, DEFAULT_USER_AGENT, RetryPolicy};
use crate::Protocol;
use crate::drift::{Drift, Source};

/// Configures a client; `C` is the client it builds (the generated client crate names this
/// type `ClientBuilder` with `C` filled in, and makes it with `Client::builder`).
///
/// `Debug` never shows the API key.
pub struct ClientBuilder<C> {
    protocol: Protocol,
    base_url: String,
    api_key: Option<String>,
    timeout: Duration,
    deadline: Deadline,
    user_agent: String,
    proxy: ProxySetting,
    tls: Option<TlsConfig>,
    retry: RetryPolicy,
    retry_timeouts: bool,
    notice_drift: bool,
    skip_undecodable: bool,
    client: PhantomData<fn() -> C>,
}

/// The deadline of a call as configured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Deadline {
    /// [`DEFAULT_DEADLINE_FACTOR`] times the per-attempt timeout.
    Default,
    /// This long.
    Fixed(Duration),
    /// None: attempts and waits are bounded by the retry policy alone.
    Unbounded,
}

/// Where requests go, as configured.
#[derive(Clone, Debug, PartialEq, Eq)]
enum ProxySetting {
    /// Through the proxies of the environment, if any.
    Environment,
    /// Through this proxy.
    Fixed(String),
    /// Straight to the service.
    Off,
}

impl Deadline {
    fn resolve(self, timeout: Duration) -> Option<Duration> {
        match self {
            Deadline::Default => Some(timeout.saturating_mul(DEFAULT_DEADLINE_FACTOR)),
            Deadline::Fixed(d) => Some(d),
            Deadline::Unbounded => None,
        }
    }
}

impl<C> Clone for ClientBuilder<C> {
    fn clone(&self) -> Self {
        Self {
            protocol: self.protocol,
            base_url: self.base_url.clone(),
            api_key: self.api_key.clone(),
            timeout: self.timeout,
            deadline: self.deadline,
            user_agent: self.user_agent.clone(),
            proxy: self.proxy.clone(),
            tls: self.tls.clone(),
            retry: self.retry,
            retry_timeouts: self.retry_timeouts,
            notice_drift: self.notice_drift,
            skip_undecodable: self.skip_undecodable,
            client: PhantomData,
        }
    }
}

impl<C> fmt::Debug for ClientBuilder<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("timeout", &self.timeout)
            .field("deadline", &self.deadline.resolve(self.timeout))
            .field("user_agent", &self.user_agent)
            .field("proxy", &ProxyDebug(&self.proxy))
            .field("custom_tls", &self.tls.is_some())
            .field("retry", &self.retry)
            .field("retry_timeouts", &self.retry_timeouts)
            .field("notice_drift", &self.notice_drift)
            .field("skip_undecodable_records", &self.skip_undecodable)
            .finish()
    }
}

impl<C: From<Transport>> ClientBuilder<C> {
    /// A builder for a client of the service at `base_url` speaking `protocol`.
    ///
    /// The base URL is the service root, whose path ends in the base path (`/api`); when it
    /// does not, the base path is appended, so `http://host:8080`, `http://host:8080/` and
    /// `http://host:8080/api/` all name the same root. A prefix is kept:
    /// `https://gateway/mrds` becomes `https://gateway/mrds/api`.
    pub fn new(protocol: Protocol, base_url: impl Into<String>) -> Self {
        Self {
            protocol,
            base_url: base_url.into(),
            api_key: None,
            timeout: DEFAULT_TIMEOUT,
            deadline: Deadline::Default,
            user_agent: DEFAULT_USER_AGENT.to_string(),
            proxy: ProxySetting::Environment,
            tls: None,
            retry: RetryPolicy::default(),
            retry_timeouts: true,
            notice_drift: true,
            skip_undecodable: false,
            client: PhantomData,
        }
    }

    /// The API key, sent in the key header (`X-API-Key`) on every request (the endpoints
    /// that do not require one accept it).
    #[must_use]
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(key.into());
        self
    }

    /// Time allowed for one attempt: connecting, sending and reading the whole body
    /// (default [`DEFAULT_TIMEOUT`]). A timed-out attempt is retried (see
    /// [`retry_timeouts`](Self::retry_timeouts)).
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Time allowed for a whole call: every attempt and every wait between them. An attempt
    /// gets the per-attempt timeout or the time left, whichever is shorter (running out of it
    /// is [`TransportKind::Deadline`](super::TransportKind::Deadline)); a retry whose wait
    /// would end past the deadline is not made, and the last error is returned at once.
    ///
    /// Default: [`DEFAULT_DEADLINE_FACTOR`] (2) times the per-attempt timeout, 60 s with the
    /// default timeout, so that one attempt may take its whole timeout and still leave time
    /// for a retry.
    #[must_use]
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.deadline = Deadline::Fixed(deadline);
        self
    }

    /// No deadline per call: attempts and waits are bounded by the timeout and the retry
    /// policy alone.
    #[must_use]
    pub fn no_deadline(mut self) -> Self {
        self.deadline = Deadline::Unbounded;
        self
    }

    /// Whether an attempt that timed out is retried (default `true`: every endpoint is a
    /// read-only GET, so trying again is safe). Failed connections and connections reset
    /// before a complete response are always retried, within the policy and the deadline.
    #[must_use]
    pub fn retry_timeouts(mut self, retry: bool) -> Self {
        self.retry_timeouts = retry;
        self
    }

    /// The `User-Agent` header (default [`DEFAULT_USER_AGENT`]); sent on every request.
    #[must_use]
    pub fn user_agent(mut self, user_agent: impl Into<String>) -> Self {
        self.user_agent = user_agent.into();
        self
    }

    /// Sends every request through this `http://` proxy (with `user:password@` in the URL
    /// if it asks for credentials): `https` requests through a `CONNECT` tunnel, so the proxy
    /// sees neither the key nor the query; `http` requests to the proxy itself.
    ///
    /// By default the client uses the proxies of the environment as curl does:
    /// `HTTPS_PROXY`, `HTTP_PROXY` or `ALL_PROXY` (in either case) by the service's scheme,
    /// except for the hosts in `NO_PROXY`. SOCKS proxies and TLS to the proxy are not
    /// supported: [`build`](Self::build) refuses one given here
    /// ([`BuildError::InvalidProxy`]), and a call through one from the environment fails to
    /// connect, its error's source saying why.
    #[must_use]
    pub fn proxy(mut self, url: impl Into<String>) -> Self {
        self.proxy = ProxySetting::Fixed(url.into());
        self
    }

    /// Sends requests straight to the service, whatever the environment says.
    #[must_use]
    pub fn no_proxy(mut self) -> Self {
        self.proxy = ProxySetting::Off;
        self
    }

    /// Speaks TLS with this rustls configuration instead of the default (the process's
    /// default crypto provider or the feature's, and the platform's certificate verifier):
    /// for a private certificate authority (a root store of its own), a client certificate,
    /// or a verifier of one's own. Its ALPN protocols are set to HTTP/1.1.
    ///
    /// In the builds whose TLS is rustls (features `rustls-ring`, `rustls-aws-lc-rs`, without
    /// `native-tls`).
    #[cfg(all(
        not(feature = "client-native-tls"),
        any(feature = "client-rustls-ring", feature = "client-rustls-aws-lc-rs")
    ))]
    #[must_use]
    pub fn tls_config(mut self, config: rustls::ClientConfig) -> Self {
        self.tls = Some(config);
        self
    }

    /// The retry policy (default [`RetryPolicy::default`]).
    #[must_use]
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// Sets only the number of retries; `0` turns retrying off.
    #[must_use]
    pub fn max_retries(mut self, retries: u32) -> Self {
        self.retry.max_retries = retries;
        self
    }

    /// Turns retrying off: every request is tried once.
    #[must_use]
    pub fn no_retries(self) -> Self {
        self.max_retries(0)
    }

    /// Whether the client notices what the service's answers hold that the spec does not
    /// describe (on by default): fields a record or the envelope does not declare, values
    /// outside a value set while decoding; for an answer that does not decode, or an error
    /// answer, also required fields arriving `null` or missing and values of another JSON
    /// type. Each is traced once (WARN, target `mrds::drift`) and kept in the client's
    /// [`Drift`](crate::drift::Drift) (`Client::drift()`). Noticing never changes what a call
    /// returns, and on clean answers costs within a few percent of decoding (BENCHMARKS.md,
    /// *Client decoding*).
    #[must_use]
    pub fn notice_drift(mut self, on: bool) -> Self {
        self.notice_drift = on;
        self
    }

    /// What a call does with a page some of whose records do not decode (a required field
    /// `null`, a value of another type): by default (`false`) it fails with
    /// [`Error::Undecodable`](super::Error::Undecodable), whose error keeps the body and reads
    /// the records that decode ([`UndecodableError::records`](super::UndecodableError::records));
    /// with `true` it returns the records that decode, the others left out and counted in
    /// [`Response::skipped`](super::Response::skipped) (a paging stream still advances past
    /// them). Either way, what broke each record is a drift finding (`Client::drift()`,
    /// traced once). The decoding of a page that decodes whole is the same either way.
    #[must_use]
    pub fn skip_undecodable_records(mut self, on: bool) -> Self {
        self.skip_undecodable = on;
        self
    }

    /// Checks the settings and makes the client.
    pub fn build(self) -> Result<C, BuildError> {
        let base = normalize_base_url(&self.base_url, self.protocol.base_path)?;
        let api_key = match &self.api_key {
            None => None,
            Some(key) if key.is_empty() => return Err(BuildError::InvalidApiKey),
            Some(key) => {
                let mut value =
                    HeaderValue::from_str(key).map_err(|_| BuildError::InvalidApiKey)?;
                value.set_sensitive(true);
                Some(value)
            }
        };
        let user_agent = HeaderValue::from_str(&self.user_agent)
            .map_err(|_| BuildError::InvalidUserAgent(self.user_agent.clone()))?;
        refuse_https_without_tls(&base, TLS).map_err(|reason| BuildError::InvalidBaseUrl {
            url: self.base_url.clone(),
            reason,
        })?;
        let proxies = match &self.proxy {
            ProxySetting::Environment => Some(stack::environment_proxies()),
            ProxySetting::Fixed(url) => {
                Some(
                    stack::fixed_proxy(url).map_err(|reason| BuildError::InvalidProxy {
                        url: redact_credentials(url),
                        reason,
                    })?,
                )
            }
            ProxySetting::Off => None,
        };
        let http = Http::new(proxies, self.tls)?;
        let auth_header = HeaderName::from_bytes(self.protocol.auth_header.as_bytes())
            .expect("the generator checked the key header name");
        Ok(C::from(Transport::new(TransportSettings {
            http,
            base,
            auth_header,
            api_key,
            user_agent,
            timeout: self.timeout,
            deadline: self.deadline.resolve(self.timeout),
            retry: self.retry,
            retry_timeouts: self.retry_timeouts,
            shapes: self.protocol.shapes,
            notice_drift: self.notice_drift,
            drift: Drift::new(Source::Client),
            undecodable: if self.skip_undecodable {
                super::transport::Undecodable::Skip
            } else {
                super::transport::Undecodable::Fail
            },
        })))
    }
}

/// Why an `https` base URL is refused by a build without TLS.
const NO_TLS: &str = "this build has no TLS: enable a TLS feature of mrds-client (`rustls-ring`, \
                      the default, `rustls-aws-lc-rs` or `native-tls`)";

/// An `https` base URL needs TLS, which a build without a TLS feature does not have (the
/// first call would only fail to connect).
fn refuse_https_without_tls(base: &Uri, tls: bool) -> Result<(), String> {
    if base.scheme_str() == Some("https") && !tls {
        Err(NO_TLS.to_string())
    } else {
        Ok(())
    }
}

/// A proxy URL as shown in errors and `Debug`: its user information (`user:password@`)
/// replaced.
fn redact_credentials(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{scheme}://<credentials>@{}", &rest[at + 1..]),
        None => url.to_string(),
    }
}

/// The proxy setting, shown without credentials.
struct ProxyDebug<'a>(&'a ProxySetting);

impl fmt::Debug for ProxyDebug<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            ProxySetting::Environment => f.write_str("environment"),
            ProxySetting::Fixed(url) => f.write_str(&redact_credentials(url)),
            ProxySetting::Off => f.write_str("none"),
        }
    }
}

/// The service root: the base path (`/api`) is appended unless the path already ends with
/// it; a trailing `/` is dropped.
fn normalize_base_url(text: &str, base_path: &str) -> Result<Uri, BuildError> {
    let invalid = |reason: &str| BuildError::InvalidBaseUrl {
        url: text.to_string(),
        reason: reason.to_string(),
    };
    let trimmed = text.trim();
    if trimmed.contains('#') {
        return Err(invalid("it must not carry a query or a fragment"));
    }
    if !trimmed.is_ascii() {
        return Err(invalid(
            "it must be ASCII: write an international host name in its `xn--` form, and \
             percent-encode the path",
        ));
    }
    let uri: Uri = trimmed.parse().map_err(|e| invalid(&format!("{e}")))?;
    let (Some(scheme @ ("http" | "https")), Some(authority)) = (uri.scheme_str(), uri.authority())
    else {
        return Err(invalid(
            "it must be an absolute http or https URL (`http://host:port/...`)",
        ));
    };
    if uri.query().is_some() {
        return Err(invalid("it must not carry a query or a fragment"));
    }
    if authority.as_str().contains('@') {
        return Err(invalid(
            "it must not carry credentials; give the key with `api_key`",
        ));
    }
    if authority.host().is_empty() {
        return Err(invalid("it has no host"));
    }
    let path = uri.path().trim_end_matches('/');
    let path = if path.ends_with(base_path) {
        path.to_string()
    } else {
        format!("{path}{base_path}")
    };
    format!("{scheme}://{authority}{path}")
        .parse()
        .map_err(|e| invalid(&format!("{e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proxy_credentials_are_never_shown() {
        assert_eq!(
            redact_credentials("http://user:pw@proxy:3128/x@y"),
            "http://<credentials>@proxy:3128/x@y"
        );
        assert_eq!(
            redact_credentials("http://proxy:3128/a@b"),
            "http://proxy:3128/a@b"
        );
        assert_eq!(redact_credentials("proxy:3128"), "proxy:3128");
    }

    #[test]
    fn base_urls_are_ascii_absolute_http_urls() {
        let root = |text| normalize_base_url(text, "/api").map(|u| u.to_string());
        assert_eq!(root("http://h:1").unwrap(), "http://h:1/api");
        assert_eq!(root("https://h/gw/").unwrap(), "https://h/gw/api");
        for (bad, reason) in [
            ("http://bücher.example", "`xn--` form"),
            ("http://h/#x", "fragment"),
            ("h:80", "absolute http or https URL"),
            ("mailto:x@y", "absolute http or https URL"),
        ] {
            let err = root(bad).unwrap_err().to_string();
            assert!(err.contains(reason), "{bad}: {err}");
        }
    }

    #[test]
    fn https_needs_a_tls_feature() {
        let https = Uri::from_static("https://host/api");
        let http = Uri::from_static("http://host/api");
        let refused = refuse_https_without_tls(&https, false).unwrap_err();
        assert!(
            refused.contains("enable a TLS feature of mrds-client"),
            "{refused}"
        );
        assert!(refuse_https_without_tls(&https, true).is_ok());
        assert!(refuse_https_without_tls(&http, false).is_ok());
    }
}
