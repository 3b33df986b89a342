//! The client's runtime: the builder, the response and error types, sending with validation
//! and retries, and paging. None of it depends on the spec: the generated `endpoints` module
//! adds one thin method per endpoint on top of [`Client::send`].

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::{Stream, TryStreamExt};
use mrds_model::api::{AUTH_HEADER, BASE_PATH};
use mrds_model::records::ErrorObject;
use mrds_model::support::percent_encode;
use mrds_model::{Envelope, Request, ValidationError};
use reqwest::Url;
use reqwest::header::{ACCEPT, HeaderValue, LOCATION, RETRY_AFTER, USER_AGENT};

/// Time allowed for one attempt (connect, send, read the whole body) unless
/// [`ClientBuilder::timeout`] says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The `User-Agent` sent unless [`ClientBuilder::user_agent`] says otherwise.
pub const DEFAULT_USER_AGENT: &str = concat!("mrds-client/", env!("CARGO_PKG_VERSION"));

/// How many bytes of an undecodable body [`UndecodableError::body_prefix`] keeps.
pub const BODY_PREFIX_LIMIT: usize = 512;

/// Redirects followed within one origin by the client built here; a redirect to another
/// origin is not followed (see [`ClientBuilder::http_client`]).
pub const MAX_REDIRECTS: usize = 5;

/// HTTP statuses answered by a retry (when retries are left): 429, 502, 503, 504.
pub const RETRY_STATUSES: &[u16] = &[429, 502, 503, 504];

// ---------------------------------------------------------------- retry policy

/// When and how often a request is tried again.
///
/// A request is retried after HTTP 429, 502, 503 or 504 and after a failed connection, at
/// most [`max_retries`](Self::max_retries) times. The wait before retry `n` (from 1) is
/// `initial_backoff * 2^(n-1)`, capped at [`max_backoff`](Self::max_backoff), of which a
/// random part (up to half) is dropped so clients do not retry in step. A `Retry-After`
/// header in seconds replaces that wait, capped at `max_backoff` as well. Timeouts and
/// other failures are not retried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt; `0` turns retrying off.
    pub max_retries: u32,
    /// Wait before the first retry, before jitter.
    pub initial_backoff: Duration,
    /// Longest wait before any retry, including one asked for by `Retry-After`.
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    /// Three retries, waits from 250 ms doubling, at most 30 s.
    fn default() -> Self {
        Self {
            max_retries: 3,
            initial_backoff: Duration::from_millis(250),
            max_backoff: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// No retries: every request is tried once.
    pub fn none() -> Self {
        Self {
            max_retries: 0,
            ..Self::default()
        }
    }

    /// The wait before retry number `retry` (1 for the first), `Retry-After` taking
    /// precedence over the computed backoff.
    pub fn delay(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(wait) = retry_after {
            return wait.min(self.max_backoff);
        }
        let factor = 2u32.saturating_pow(retry.saturating_sub(1));
        let full = self
            .initial_backoff
            .saturating_mul(factor)
            .min(self.max_backoff);
        Duration::try_from_secs_f64(full.as_secs_f64() * (1.0 - jitter() / 2.0)).unwrap_or(full)
    }
}

/// A number in `[0, 1)`, different on every call. Seeded by the standard library's
/// per-process random hash keys, a counter and the clock: enough to spread retries.
fn jitter() -> f64 {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default();
    hasher.write_u32(nanos);
    (hasher.finish() >> 11) as f64 / (1u64 << 53) as f64
}

// ---------------------------------------------------------------- builder

/// Configures a [`Client`]; made by [`Client::builder`].
///
/// `Debug` never shows the API key.
#[derive(Clone)]
pub struct ClientBuilder {
    base_url: String,
    api_key: Option<String>,
    timeout: Duration,
    user_agent: String,
    http: Option<reqwest::Client>,
    retry: RetryPolicy,
}

impl fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("timeout", &self.timeout)
            .field("user_agent", &self.user_agent)
            .field("custom_http_client", &self.http.is_some())
            .field("retry", &self.retry)
            .finish()
    }
}

impl ClientBuilder {
    /// The API key, sent as the `X-API-Key` header on every request (the endpoints that do
    /// not require one accept it).
    #[must_use]
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(key.into());
        self
    }

    /// Time allowed for one attempt: connecting, sending and reading the whole body
    /// (default [`DEFAULT_TIMEOUT`]). Applies to a custom `reqwest::Client` too.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
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
    pub fn build(self) -> Result<Client, BuildError> {
        let base = normalize_base_url(&self.base_url)?;
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
            None => reqwest::Client::builder()
                .redirect(same_origin_redirects())
                .build()
                .map_err(BuildError::Http)?,
        };
        Ok(Client {
            inner: Arc::new(Inner {
                http,
                base,
                api_key,
                user_agent,
                timeout: self.timeout,
                retry: self.retry,
            }),
        })
    }
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

/// The service root: `/api` is appended unless the path already ends with it; a trailing
/// `/` is dropped.
fn normalize_base_url(text: &str) -> Result<Url, BuildError> {
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
    let path = if path.ends_with(BASE_PATH) {
        path.to_string()
    } else {
        format!("{path}{BASE_PATH}")
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
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::Http(e) => Some(e),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------- client

/// A client of the service: one async method per endpoint (named after the endpoint id),
/// each taking the endpoint's parameter type from [`mrds_model::params`].
///
/// Cheap to clone (the connection pool and settings are shared). `Debug` never shows the
/// API key.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    http: reqwest::Client,
    base: Url,
    api_key: Option<HeaderValue>,
    user_agent: HeaderValue,
    timeout: Duration,
    retry: RetryPolicy,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = &self.inner;
        f.debug_struct("Client")
            .field("base_url", &inner.base.as_str())
            .field("api_key", &inner.api_key.as_ref().map(|_| "<redacted>"))
            .field("timeout", &inner.timeout)
            .field("user_agent", &inner.user_agent)
            .field("retry", &inner.retry)
            .finish()
    }
}

impl Client {
    /// A builder for a client of the service at `base_url`.
    ///
    /// The base URL is the service root, whose path ends in `/api` (`http://host:8080/api`);
    /// when it does not, `/api` is appended, so `http://host:8080`, `http://host:8080/` and
    /// `http://host:8080/api/` all name the same root. A prefix is kept:
    /// `https://gateway/mrds` becomes `https://gateway/mrds/api`.
    pub fn builder(base_url: impl Into<String>) -> ClientBuilder {
        ClientBuilder {
            base_url: base_url.into(),
            api_key: None,
            timeout: DEFAULT_TIMEOUT,
            user_agent: DEFAULT_USER_AGENT.to_string(),
            http: None,
            retry: RetryPolicy::default(),
        }
    }

    /// The service root every endpoint path is appended to, ending in `/api`.
    pub fn base_url(&self) -> &Url {
        &self.inner.base
    }

    /// The retry policy in force.
    pub fn retry_policy(&self) -> RetryPolicy {
        self.inner.retry
    }

    /// The full URL of a request: base URL, the endpoint path (path parameters
    /// percent-encoded) and the query, every name and value percent-encoded.
    pub fn url_for<P: Request>(&self, params: &P) -> Url {
        let mut url = self.inner.base.clone();
        url.set_path(&format!("{}{}", self.inner.base.path(), params.path()));
        let query: Vec<String> = params
            .to_query()
            .iter()
            .map(|(name, value)| format!("{}={}", percent_encode(name), percent_encode(value)))
            .collect();
        if !query.is_empty() {
            url.set_query(Some(&query.join("&")));
        }
        url
    }

    /// Sends one request of any endpoint: validates `params` (an invalid request fails
    /// with [`Error::InvalidInput`] and nothing is sent), then sends it, retrying as the
    /// [`RetryPolicy`] says, and decodes the envelope.
    pub async fn send<P>(&self, params: &P) -> Result<Response<P::Record>, Error>
    where
        P: Request + Sync,
    {
        params.validate().map_err(Error::InvalidInput)?;
        let url = self.url_for(params);
        let policy = self.inner.retry;
        let mut retries = 0;
        loop {
            let outcome = self.attempt(&url).await;
            if retries < policy.max_retries {
                let wait = match &outcome {
                    Ok(resp) if RETRY_STATUSES.contains(&resp.status().as_u16()) => {
                        Some(retry_after(resp))
                    }
                    Err(Error::Transport(t)) if t.kind == TransportKind::Connect => Some(None),
                    _ => None,
                };
                if let Some(retry_after) = wait {
                    retries += 1;
                    tokio::time::sleep(policy.delay(retries, retry_after)).await;
                    continue;
                }
            }
            let resp = outcome?;
            let status = resp.status().as_u16();
            let retry_after = retry_after(&resp);
            let location = resp
                .headers()
                .get(LOCATION)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
            let body = read_body(resp, status).await?;
            return decode(status, retry_after, location, &body);
        }
    }

    /// One attempt: the response head, or a transport failure.
    async fn attempt(&self, url: &Url) -> Result<reqwest::Response, Error> {
        let inner = &self.inner;
        let mut request = inner
            .http
            .get(url.clone())
            .timeout(inner.timeout)
            .header(ACCEPT, HeaderValue::from_static("application/json"))
            .header(USER_AGENT, inner.user_agent.clone());
        if let Some(key) = &inner.api_key {
            request = request.header(AUTH_HEADER, key.clone());
        }
        request
            .send()
            .await
            .map_err(|e| Error::Transport(TransportError::new(e)))
    }

    /// Every record of an endpoint that pages with `limit` and `offset`, page after page:
    /// the first page at `params.offset`, each next one `limit` further (by the number of
    /// records received), until a page holds fewer than `limit` records. The first error
    /// ends the stream after it is yielded.
    pub fn stream_all<P>(
        &self,
        params: P,
    ) -> impl Stream<Item = Result<P::Record, Error>> + Send + 'static
    where
        P: OffsetPaged,
        P::Record: Send + 'static,
    {
        let client = self.clone();
        futures_util::stream::try_unfold(Some(params), move |next| {
            let client = client.clone();
            async move {
                let Some(mut params) = next else {
                    return Ok(None);
                };
                let page = client.send(&params).await?;
                let got = i64::try_from(page.data.len()).unwrap_or(i64::MAX);
                let next = if got == 0 || got < params.limit() {
                    None
                } else {
                    params.set_offset(params.offset().saturating_add(got));
                    Some(params)
                };
                Ok(Some((page.data, next)))
            }
        })
        .map_ok(|records| futures_util::stream::iter(records.into_iter().map(Ok)))
        .try_flatten()
    }
}

/// A `Retry-After` in seconds (the HTTP-date form is ignored).
fn retry_after(resp: &reqwest::Response) -> Option<Duration> {
    let text = resp.headers().get(RETRY_AFTER)?.to_str().ok()?;
    text.trim().parse::<u64>().ok().map(Duration::from_secs)
}

/// The whole body; a connection cut mid-body gives what arrived as an undecodable body.
async fn read_body(mut resp: reqwest::Response, status: u16) -> Result<Vec<u8>, Error> {
    let mut body = Vec::new();
    loop {
        match resp.chunk().await {
            Ok(Some(chunk)) => body.extend_from_slice(&chunk),
            Ok(None) => return Ok(body),
            Err(e) if e.is_timeout() => return Err(Error::Transport(TransportError::new(e))),
            Err(e) => {
                return Err(Error::Undecodable(UndecodableError::new(
                    status,
                    &body,
                    "the body ended before it was complete",
                    Some(Box::new(e)),
                )));
            }
        }
    }
}

/// The parts of a failure envelope, each optional so that anything known is kept.
#[derive(serde::Deserialize)]
struct FailureEnvelope {
    #[serde(default)]
    success: Option<bool>,
    #[serde(default)]
    request_id: Option<String>,
    #[serde(default)]
    error: Option<ErrorObject>,
}

/// Turns a complete response into records or the error it means; never panics.
fn decode<T: serde::de::DeserializeOwned>(
    status: u16,
    retry_after: Option<Duration>,
    location: Option<String>,
    body: &[u8],
) -> Result<Response<T>, Error> {
    let undecodable = |reason: &str, source: Option<serde_json::Error>| {
        Error::Undecodable(UndecodableError::new(
            status,
            body,
            reason,
            source.map(|e| Box::new(e) as _),
        ))
    };
    let api = |error: ErrorObject, request_id: Option<String>| {
        Error::Api(Box::new(ApiError {
            status,
            error,
            request_id,
            retry_after,
        }))
    };
    if (300..400).contains(&status) {
        let reason = format!(
            "a redirect to `{}` that was not followed (only redirects within one origin are)",
            location.as_deref().unwrap_or("?")
        );
        return Err(undecodable(&reason, None));
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(undecodable("the body is empty", None));
    }
    if (200..300).contains(&status) {
        match serde_json::from_slice::<Envelope<T>>(body) {
            Ok(envelope) if envelope.success => Ok(Response {
                data: envelope.data,
                request_id: envelope.request_id,
                metadata: envelope.metadata,
                pagination: envelope.pagination,
            }),
            Ok(envelope) => match envelope.error {
                Some(error) => Err(api(error, Some(envelope.request_id))),
                None => Err(undecodable(
                    "`success` is false but the envelope has no error object",
                    None,
                )),
            },
            Err(e) => match serde_json::from_slice::<FailureEnvelope>(body) {
                Ok(FailureEnvelope {
                    success: Some(false),
                    request_id,
                    error: Some(error),
                }) => Err(api(error, request_id)),
                _ => Err(undecodable(json_problem(&e), Some(e))),
            },
        }
    } else {
        match serde_json::from_slice::<FailureEnvelope>(body) {
            Ok(FailureEnvelope {
                request_id,
                error: Some(error),
                ..
            }) => Err(api(error, request_id)),
            Ok(_) => Err(undecodable(
                "an error status without an error object in the body",
                None,
            )),
            Err(e) => Err(undecodable(json_problem(&e), Some(e))),
        }
    }
}

fn json_problem(e: &serde_json::Error) -> &'static str {
    match e.classify() {
        serde_json::error::Category::Eof => "the JSON ends early (truncated body)",
        serde_json::error::Category::Syntax => "the body is not JSON",
        serde_json::error::Category::Data => "the JSON is not the response envelope",
        serde_json::error::Category::Io => "the body could not be read",
    }
}

// ---------------------------------------------------------------- paging

/// A parameter type whose endpoint pages with `limit` and `offset`; see
/// [`Client::stream_all`].
pub trait OffsetPaged: Request + Clone + Send + Sync + 'static {
    /// The page size.
    fn limit(&self) -> i64;
    /// Rows to skip.
    fn offset(&self) -> i64;
    /// Sets the rows to skip.
    fn set_offset(&mut self, offset: i64);
}

// ---------------------------------------------------------------- response

/// A successful answer: the records and what the envelope said about them.
#[derive(Clone, Debug, PartialEq)]
pub struct Response<T> {
    /// The records (`data`).
    pub data: Vec<T>,
    /// The service's identifier of the request, for support requests and logs.
    pub request_id: String,
    /// The envelope's `metadata`, as sent.
    pub metadata: Option<serde_json::Value>,
    /// The envelope's `pagination`, as sent.
    pub pagination: Option<serde_json::Value>,
}

impl<T> IntoIterator for Response<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.data.into_iter()
    }
}

// ---------------------------------------------------------------- errors

/// Everything a call can fail with.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The parameters break a rule of the spec; nothing was sent. Holds every problem, as
    /// the service would report them (see [`ValidationError::to_error_object`]).
    InvalidInput(ValidationError),
    /// No complete HTTP response: the connection failed, the attempt timed out, or the
    /// request could not be sent.
    Transport(TransportError),
    /// The service answered with an error envelope (an error status, or `success: false`).
    Api(Box<ApiError>),
    /// The response could not be decoded: not JSON, truncated, empty, or not the envelope.
    Undecodable(UndecodableError),
}

impl Error {
    /// The HTTP status, when a response arrived.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Api(e) => Some(e.status),
            Error::Undecodable(e) => Some(e.status),
            Error::InvalidInput(_) | Error::Transport(_) => None,
        }
    }

    /// The error object: the service's, or for invalid input the one it would have sent.
    pub fn error_object(&self) -> Option<std::borrow::Cow<'_, ErrorObject>> {
        match self {
            Error::Api(e) => Some(std::borrow::Cow::Borrowed(&e.error)),
            Error::InvalidInput(e) => Some(std::borrow::Cow::Owned(e.to_error_object())),
            Error::Transport(_) | Error::Undecodable(_) => None,
        }
    }

    /// The service's request id, when it sent one.
    pub fn request_id(&self) -> Option<&str> {
        match self {
            Error::Api(e) => e.request_id.as_deref(),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidInput(e) => write!(f, "{e} (nothing was sent)"),
            Error::Transport(e) => e.fmt(f),
            Error::Api(e) => e.fmt(f),
            Error::Undecodable(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::InvalidInput(e) => Some(e),
            Error::Transport(e) => e.source(),
            Error::Api(_) => None,
            Error::Undecodable(e) => e.source(),
        }
    }
}

/// What kind of transport failure happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportKind {
    /// No connection could be made (refused, unreachable, DNS, TLS handshake). Retried.
    Connect,
    /// The attempt took longer than the timeout. Not retried.
    Timeout,
    /// Anything else (the connection broke while sending, for instance). Not retried.
    Other,
}

/// A request that got no complete HTTP response.
#[derive(Debug)]
pub struct TransportError {
    /// What kind of failure.
    pub kind: TransportKind,
    source: reqwest::Error,
}

impl TransportError {
    fn new(source: reqwest::Error) -> Self {
        let kind = if source.is_timeout() {
            TransportKind::Timeout
        } else if source.is_connect() {
            TransportKind::Connect
        } else {
            TransportKind::Other
        };
        Self { kind, source }
    }

    /// The underlying reqwest error.
    pub fn reqwest_error(&self) -> &reqwest::Error {
        &self.source
    }
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            TransportKind::Connect => "could not connect to the service",
            TransportKind::Timeout => "the request timed out",
            TransportKind::Other => "the request failed",
        };
        match self.source.url() {
            Some(url) => write!(
                f,
                "{what} ({}{})",
                url.origin().ascii_serialization(),
                url.path()
            ),
            None => f.write_str(what),
        }
    }
}

impl std::error::Error for TransportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// The service's answer to a failed request.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError {
    /// The HTTP status (200 when the envelope said `success: false` with 200).
    pub status: u16,
    /// The error object: code, message, per-field details, hint.
    pub error: ErrorObject,
    /// The request id, when the envelope carried one.
    pub request_id: Option<String>,
    /// The `Retry-After` the service asked for (seconds form), if any.
    pub retry_after: Option<Duration>,
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the service answered HTTP {} {}: {}",
            self.status, self.error.code, self.error.message
        )?;
        for d in &self.error.details {
            write!(f, "; {}: {} (got `{}`)", d.field, d.reason, d.got)?;
        }
        if let Some(hint) = &self.error.hint {
            write!(f, "; hint: {hint}")?;
        }
        if let Some(id) = &self.request_id {
            write!(f, " [request {id}]")?;
        }
        Ok(())
    }
}

impl std::error::Error for ApiError {}

/// A response whose body is not the envelope expected.
#[derive(Debug)]
pub struct UndecodableError {
    /// The HTTP status.
    pub status: u16,
    /// The first [`BODY_PREFIX_LIMIT`] bytes of the body (as text, invalid UTF-8 replaced).
    pub body_prefix: String,
    /// The length of the body received, in bytes.
    pub body_len: usize,
    /// What is wrong.
    pub reason: String,
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl UndecodableError {
    fn new(
        status: u16,
        body: &[u8],
        reason: &str,
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        let mut prefix = &body[..body.len().min(BODY_PREFIX_LIMIT)];
        if let Err(e) = std::str::from_utf8(prefix)
            && e.error_len().is_none()
        {
            prefix = &prefix[..e.valid_up_to()];
        }
        Self {
            status,
            body_prefix: String::from_utf8_lossy(prefix).into_owned(),
            body_len: body.len(),
            reason: reason.to_string(),
            source,
        }
    }
}

impl fmt::Display for UndecodableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "undecodable response (HTTP {}, {} bytes): {}",
            self.status, self.body_len, self.reason
        )?;
        if !self.body_prefix.is_empty() {
            write!(f, "; the body starts with {:?}", self.body_prefix)?;
        }
        Ok(())
    }
}

impl std::error::Error for UndecodableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|e| &**e as _)
    }
}
