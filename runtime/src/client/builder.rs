//! Configuring a client.

use std::fmt;
use std::marker::PhantomData;
use std::time::Duration;

use reqwest::Url;
use reqwest::header::{HeaderName, HeaderValue};

use super::transport::{Inner, Transport};
use super::{
    DEFAULT_DEADLINE_FACTOR, DEFAULT_TIMEOUT, DEFAULT_USER_AGENT, MAX_REDIRECTS, RetryPolicy,
};
use crate::Protocol;

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
    http: Option<reqwest::Client>,
    retry: RetryPolicy,
    retry_timeouts: bool,
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
            http: self.http.clone(),
            retry: self.retry,
            retry_timeouts: self.retry_timeouts,
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
            .field("custom_http_client", &self.http.is_some())
            .field("retry", &self.retry)
            .field("retry_timeouts", &self.retry_timeouts)
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
            http: None,
            retry: RetryPolicy::default(),
            retry_timeouts: true,
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
    /// (default [`DEFAULT_TIMEOUT`]). Applies to a custom `reqwest::Client` too. A timed-out
    /// attempt is retried (see [`retry_timeouts`](Self::retry_timeouts)).
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

    /// The `User-Agent` header (default [`DEFAULT_USER_AGENT`]); sent on every request,
    /// through a custom `reqwest::Client` too.
    #[must_use]
    pub fn user_agent(mut self, user_agent: impl Into<String>) -> Self {
        self.user_agent = user_agent.into();
        self
    }

    /// Sends through this `reqwest::Client` (for proxies, TLS roots, connection pools shared
    /// with other code) instead of one built here. Its redirect policy is then its own: the
    /// one built here follows redirects only within one origin, since reqwest keeps the
    /// `X-API-Key` header when a redirect leads to another host.
    #[must_use]
    pub fn http_client(mut self, client: reqwest::Client) -> Self {
        self.http = Some(client);
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
        let http = match self.http {
            Some(client) => client,
            None => {
                refuse_https_without_tls(&base, TLS).map_err(|reason| {
                    BuildError::InvalidBaseUrl {
                        url: self.base_url.clone(),
                        reason,
                    }
                })?;
                http_client()?
            }
        };
        let auth_header = HeaderName::from_bytes(self.protocol.auth_header.as_bytes())
            .expect("the generator checked the key header name");
        Ok(C::from(Transport::new(Inner {
            http,
            base,
            auth_header,
            api_key,
            user_agent,
            timeout: self.timeout,
            deadline: self.deadline.resolve(self.timeout),
            retry: self.retry,
            retry_timeouts: self.retry_timeouts,
        })))
    }
}

/// Whether this build can speak `https`: one of the TLS features is on.
const TLS: bool = cfg!(any(
    feature = "client-rustls-ring",
    feature = "client-rustls-aws-lc-rs",
    feature = "client-native-tls"
));

/// Why an `https` base URL is refused by a build without TLS.
const NO_TLS: &str = "this build has no TLS: enable a TLS feature of mrds-client (`rustls-ring`, \
                      the default, `rustls-aws-lc-rs` or `native-tls`), or give a reqwest client \
                      of your own with `http_client`";

/// An `https` base URL needs TLS, which a build without a TLS feature does not have (reqwest
/// would only say "scheme is not http" on the first call).
fn refuse_https_without_tls(base: &Url, tls: bool) -> Result<(), String> {
    if base.scheme() == "https" && !tls {
        Err(NO_TLS.to_string())
    } else {
        Ok(())
    }
}

/// The `reqwest::Client` built when the caller gives none: redirects within one origin, and
/// TLS from the feature that is on (native-tls, then rustls with aws-lc-rs, as reqwest
/// prefers them; rustls with `ring` is configured here, since reqwest has no provider of
/// its own for it).
fn http_client() -> Result<reqwest::Client, BuildError> {
    let builder = reqwest::Client::builder().redirect(same_origin_redirects());
    #[cfg(all(
        feature = "client-rustls-ring",
        not(feature = "client-rustls-aws-lc-rs"),
        not(feature = "client-native-tls")
    ))]
    let builder = builder.tls_backend_preconfigured(ring_tls()?);
    builder.build().map_err(BuildError::Http)
}

/// rustls with the `ring` provider (or the process's default provider, when the application
/// installed one) and the platform's certificate verifier, as reqwest configures rustls with
/// its own provider.
#[cfg(all(
    feature = "client-rustls-ring",
    not(feature = "client-rustls-aws-lc-rs"),
    not(feature = "client-native-tls")
))]
fn ring_tls() -> Result<rustls::ClientConfig, BuildError> {
    use rustls_platform_verifier::BuilderVerifierExt;
    use std::sync::Arc;

    let provider = rustls::crypto::CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| Arc::new(rustls::crypto::ring::default_provider()));
    let tls = |e: rustls::Error| BuildError::Tls(Box::new(e));
    Ok(rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(tls)?
        .with_platform_verifier()
        .map_err(tls)?
        .with_no_client_auth())
}

/// Follows at most [`MAX_REDIRECTS`] redirects, and only within one origin (scheme, host
/// and port): reqwest keeps custom headers across origins, and the API key must not travel to
/// another host.
fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let same_origin = attempt.previous().last().is_some_and(|previous| {
            previous.scheme() == attempt.url().scheme()
                && previous.host_str() == attempt.url().host_str()
                && previous.port_or_known_default() == attempt.url().port_or_known_default()
        });
        if attempt.previous().len() > MAX_REDIRECTS || !same_origin {
            attempt.stop()
        } else {
            attempt.follow()
        }
    })
}

/// The service root: the base path (`/api`) is appended unless the path already ends with
/// it; a trailing `/` is dropped.
fn normalize_base_url(text: &str, base_path: &str) -> Result<Url, BuildError> {
    let invalid = |reason: &str| BuildError::InvalidBaseUrl {
        url: text.to_string(),
        reason: reason.to_string(),
    };
    let mut url = Url::parse(text.trim()).map_err(|e| invalid(&e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(invalid("the scheme must be http or https"));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(invalid("it must not carry a query or a fragment"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(invalid(
            "it must not carry credentials; give the key with `api_key`",
        ));
    }
    let path = url.path().trim_end_matches('/');
    let path = if path.ends_with(base_path) {
        path.to_string()
    } else {
        format!("{path}{base_path}")
    };
    url.set_path(&path);
    Ok(url)
}

/// Why [`ClientBuilder::build`] failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildError {
    /// The base URL does not parse or is not an http(s) service root.
    InvalidBaseUrl {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The API key is empty or holds characters a header cannot carry (not shown).
    InvalidApiKey,
    /// The user agent holds characters a header cannot carry.
    InvalidUserAgent(String),
    /// reqwest could not build its client (for instance, no TLS backend could start).
    Http(reqwest::Error),
    /// The TLS configuration could not be made (the platform's certificate store could not be
    /// read, or the crypto provider offers no safe protocol version).
    Tls(Box<dyn std::error::Error + Send + Sync>),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::InvalidBaseUrl { url, reason } => {
                write!(f, "invalid base URL `{url}`: {reason}")
            }
            BuildError::InvalidApiKey => write!(
                f,
                "invalid API key: it is empty or holds characters an HTTP header cannot carry"
            ),
            BuildError::InvalidUserAgent(ua) => write!(
                f,
                "invalid user agent `{ua}`: it holds characters an HTTP header cannot carry"
            ),
            BuildError::Http(_) => write!(f, "cannot build the HTTP client"),
            BuildError::Tls(_) => write!(f, "cannot configure TLS"),
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::Http(e) => Some(e),
            BuildError::Tls(e) => Some(e.as_ref()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn https_needs_a_tls_feature() {
        let https = Url::parse("https://host/api").unwrap();
        let http = Url::parse("http://host/api").unwrap();
        let refused = refuse_https_without_tls(&https, false).unwrap_err();
        assert!(
            refused.contains("enable a TLS feature of mrds-client"),
            "{refused}"
        );
        assert!(refuse_https_without_tls(&https, true).is_ok());
        assert!(refuse_https_without_tls(&http, false).is_ok());
    }
}
