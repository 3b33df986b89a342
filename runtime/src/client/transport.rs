//! Sending requests: validation, retries within a deadline, decoding, tracing.

use std::fmt;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use bytes::Bytes;
use http::header::{
    ACCEPT, CONTENT_TYPE, HeaderName, HeaderValue, LOCATION, RETRY_AFTER, USER_AGENT,
};
use http::{Method, StatusCode, Uri};
use http_body_util::{BodyExt, Full};
use tracing::Instrument;
use tracing::field::Empty;

use super::error::{ApiError, Error, Response, TransportError, TransportKind, UndecodableError};
use super::paging::RecordStream;
use super::stack::Http;
use super::{MAX_REDIRECTS, REQUEST_ID_HEADER, RETRY_STATUSES, RetryPolicy};
use crate::drift::{self, Drift, Finding, Shapes};
use crate::text::percent_encode;
use crate::{ErrorBody, Paged, Request, ValidationError, WithBody};

/// The header naming a call that is not idempotent, so that the service can tell a repeat.
const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

/// What one call sends besides its URL: a JSON body, and whether its attempts may be
/// repeated after one that may have reached the service (a timeout, a reset, an answer
/// asking to retry).
struct Payload {
    body: Option<(Bytes, Option<HeaderValue>)>,
    repeatable: bool,
}

/// The HTTP side of a generated client: base URL, key, timeouts, retries, and sending one
/// request of any endpoint. The generated `Client` wraps one and adds a method per endpoint.
///
/// Cheap to clone (the connection pool and settings are shared). `Debug` never shows the
/// API key.
#[derive(Clone)]
pub struct Transport {
    inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub(crate) http: Http,
    pub(crate) base: Uri,
    pub(crate) auth_header: HeaderName,
    pub(crate) api_key: Option<HeaderValue>,
    pub(crate) user_agent: HeaderValue,
    pub(crate) timeout: Duration,
    pub(crate) deadline: Option<Duration>,
    pub(crate) retry: RetryPolicy,
    pub(crate) retry_timeouts: bool,
    pub(crate) shapes: &'static Shapes,
    pub(crate) notice_drift: bool,
    pub(crate) drift: Drift,
}

impl fmt::Debug for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = &self.inner;
        f.debug_struct("Client")
            .field("base_url", &format_args!("{}", inner.base))
            .field("api_key", &inner.api_key.as_ref().map(|_| "<redacted>"))
            .field("timeout", &inner.timeout)
            .field("deadline", &inner.deadline)
            .field("user_agent", &inner.user_agent)
            .field("retry", &inner.retry)
            .field("retry_timeouts", &inner.retry_timeouts)
            .field("notice_drift", &inner.notice_drift)
            .finish()
    }
}

/// Whether, and after how long, a failed attempt may be tried again.
enum Retry {
    /// Not retried: the answer stands.
    No,
    /// Retried if the policy and the deadline allow; `Some` is the service's `Retry-After`.
    After(Option<Duration>),
}

/// A failed attempt: the error and whether it may be retried.
struct Failure<E> {
    error: Error<E>,
    retry: Retry,
}

impl<E> From<Error<E>> for Failure<E> {
    fn from(error: Error<E>) -> Self {
        Self {
            error,
            retry: Retry::No,
        }
    }
}

/// The HTTP side of one attempt under way: the head and the whole body, or why not.
type Fetching<'a> = Pin<Box<dyn Future<Output = Result<(Head, Vec<u8>), Lost>> + Send + 'a>>;

/// An attempt that got no complete answer: why, and whether it may be retried.
struct Lost {
    error: LostError,
    retry: Retry,
}

enum LostError {
    /// No complete head.
    Transport(TransportError),
    /// The body ended early.
    Truncated(UndecodableError),
}

impl<E> From<Lost> for Failure<E> {
    fn from(lost: Lost) -> Self {
        Self {
            error: match lost.error {
                LostError::Transport(e) => Error::Transport(e),
                LostError::Truncated(e) => Error::Undecodable(e),
            },
            retry: lost.retry,
        }
    }
}

/// What the head of a response said, for decoding and for the error.
struct Head {
    status: u16,
    retry_after: Option<Duration>,
    location: Option<String>,
    request_id: Option<String>,
}

impl Transport {
    pub(crate) fn new(inner: Inner) -> Self {
        Self {
            inner: Arc::new(inner),
        }
    }

    /// The service root every endpoint path is appended to, ending in `/api`.
    pub fn base_url(&self) -> &Uri {
        &self.inner.base
    }

    /// The retry policy in force.
    pub fn retry_policy(&self) -> RetryPolicy {
        self.inner.retry
    }

    /// The time allowed for one attempt.
    pub fn timeout(&self) -> Duration {
        self.inner.timeout
    }

    /// The time allowed for a whole call, attempts and waits between them included; `None`
    /// when calls have no deadline.
    pub fn deadline(&self) -> Option<Duration> {
        self.inner.deadline
    }

    /// What the service's answers held that the spec does not describe, so far: one
    /// [`Finding`] per endpoint and kind of thing (a field a record does not declare, a
    /// value outside a value set, ...), with a count and examples. Shared by the clones of
    /// this client; empty when [`notice_drift`](super::ClientBuilder::notice_drift) is off.
    /// [`Drift::to_json_lines`] writes what `cargo xtask drift` reads.
    pub fn drift(&self) -> &Drift {
        &self.inner.drift
    }

    /// The full URL of a request: base URL, the endpoint path (path parameters
    /// percent-encoded) and the query, every name and value percent-encoded.
    pub fn url_for<P: Request>(&self, params: &P) -> Uri {
        let base = &self.inner.base;
        let query: Vec<String> = params
            .to_query()
            .iter()
            .map(|(name, value)| format!("{}={}", percent_encode(name), percent_encode(value)))
            .collect();
        let mut path_and_query = format!("{}{}", base.path(), params.path());
        if !query.is_empty() {
            path_and_query.push('?');
            path_and_query.push_str(&query.join("&"));
        }
        let mut parts = base.clone().into_parts();
        parts.path_and_query = Some(
            path_and_query
                .parse()
                .expect("percent-encoded paths and queries are valid in a URI"),
        );
        Uri::from_parts(parts).expect("the base URL is absolute")
    }

    /// Sends one request of any endpoint: validates `params` (an invalid request fails
    /// with [`Error::InvalidInput`] and nothing is sent), then sends it, retrying as the
    /// [`RetryPolicy`] says within the call's deadline, and decodes the envelope.
    ///
    /// Traced (neither the key, the headers nor the query is ever recorded):
    ///
    /// - a span `mrds.call` (INFO: `endpoint`, `method`, `path` template) around the call,
    ///   holding a span `mrds.attempt` (DEBUG: `attempt`, then the attempt's `status`,
    ///   `request_id` and `error` kind) per attempt; no field appears in two of them;
    /// - a WARN event `retrying` before each retry, in the call's span: the failed `attempt`,
    ///   its `status` and `request_id` when there was an answer, the `reason` (error kind) and
    ///   `wait_ms`;
    /// - one INFO event when the call is over, after its span closes (so it reads alone on a
    ///   line): `call finished` (`endpoint`, `status`, `attempts`, `request_id`, `elapsed_ms`)
    ///   or `call failed` (the same, as far as known, and `error`, the error kind; `attempts`
    ///   is 0 when invalid input stopped the call before sending).
    pub async fn send<P, E>(&self, params: &P) -> Result<Response<P::Record>, Error<E>>
    where
        P: Request + Sync,
        E: ErrorBody,
    {
        self.call(params).await.map(|(response, _)| response)
    }

    /// Sends one request of an endpoint with a JSON body, as [`send`](Self::send): the
    /// parameters and the body are validated together (every problem at once; nothing is
    /// sent when there is one), and the body goes as `application/json`. A call the spec
    /// does not mark idempotent is retried only when its connection failed before anything
    /// was sent, unless the [`RetryPolicy`] sends idempotency keys.
    pub async fn send_with_body<P, E>(
        &self,
        params: &P,
        body: &P::Body,
    ) -> Result<Response<P::Record>, Error<E>>
    where
        P: WithBody + Sync,
        P::Body: Sync,
        E: ErrorBody,
    {
        let mut issues = params
            .validate()
            .err()
            .map(|e| e.issues)
            .unwrap_or_default();
        issues.extend(
            params
                .validate_body(body)
                .err()
                .map(|e| e.issues)
                .unwrap_or_default(),
        );
        let validation = ValidationError::check(issues);
        let keyed = !P::ENDPOINT.idempotent && self.inner.retry.idempotency_keys;
        let key = keyed
            .then(|| HeaderValue::from_str(&super::retry::idempotency_key()).ok())
            .flatten();
        let payload = match serde_json::to_vec(body) {
            Ok(bytes) => Payload {
                body: Some((Bytes::from(bytes), key)),
                repeatable: P::ENDPOINT.idempotent || keyed,
            },
            Err(e) => {
                return Err(Error::InvalidInput(ValidationError {
                    issues: vec![crate::ValidationIssue::new(
                        P::BODY_RULE,
                        "body",
                        String::new(),
                        format!("the body does not serialize as JSON: {e}"),
                    )],
                }));
            }
        };
        self.call_with(params, validation, payload)
            .await
            .map(|(response, _)| response)
    }

    /// [`send`](Self::send), also saying how many attempts the call made.
    pub(crate) async fn call<P, E>(
        &self,
        params: &P,
    ) -> Result<(Response<P::Record>, u32), Error<E>>
    where
        P: Request + Sync,
        E: ErrorBody,
    {
        let payload = Payload {
            body: None,
            repeatable: P::ENDPOINT.idempotent,
        };
        self.call_with(params, params.validate(), payload).await
    }

    /// One call: `validation` the outcome of validating it, `payload` what it sends.
    async fn call_with<P, E>(
        &self,
        params: &P,
        validation: Result<(), ValidationError>,
        payload: Payload,
    ) -> Result<(Response<P::Record>, u32), Error<E>>
    where
        P: Request + Sync,
        E: ErrorBody,
    {
        let endpoint = P::ENDPOINT;
        let span = tracing::info_span!(
            "mrds.call",
            endpoint = endpoint.id,
            method = endpoint.method,
            path = endpoint.path,
        );
        let started = Instant::now();
        let outcome = async {
            match validation {
                Ok(()) => self.send_valid(params, &payload).await,
                Err(e) => Err((Error::InvalidInput(e), 0)),
            }
        }
        .instrument(span)
        .await;
        let elapsed_ms = millis(started.elapsed());
        match &outcome {
            Ok((response, status, attempts)) => tracing::info!(
                endpoint = endpoint.id,
                status,
                attempts,
                request_id = response.request_id.as_str(),
                elapsed_ms,
                "call finished"
            ),
            Err((error, attempts)) => tracing::info!(
                endpoint = endpoint.id,
                status = error.status(),
                attempts,
                request_id = error.request_id(),
                elapsed_ms,
                error = error_kind(error),
                "call failed"
            ),
        }
        outcome
            .map(|(response, _, attempts)| (response, attempts))
            .map_err(|(error, _)| error)
    }

    /// The attempts of one validated call, until one stands, the retries run out or the
    /// deadline leaves no time for another; with the status of the answer and the number of
    /// attempts made.
    #[allow(clippy::type_complexity)]
    async fn send_valid<P, E>(
        &self,
        params: &P,
        payload: &Payload,
    ) -> Result<(Response<P::Record>, u16, u32), (Error<E>, u32)>
    where
        P: Request + Sync,
        E: ErrorBody,
    {
        let url = self.url_for(params);
        let endpoint_id = P::ENDPOINT.id;
        let inner = &*self.inner;
        let deadline = inner
            .deadline
            .and_then(|deadline| Instant::now().checked_add(deadline));
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            // The attempt gets its timeout, or the time left before the deadline if shorter.
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            let (timeout, capped) = match left {
                Some(left) if left < inner.timeout => (left, true),
                _ => (inner.timeout, false),
            };
            let span = tracing::debug_span!(
                "mrds.attempt",
                attempt,
                status = Empty,
                request_id = Empty,
                error = Empty,
            );
            let outcome = self
                .attempt::<P::Record, E>(&url, (timeout, capped), payload, endpoint_id)
                .instrument(span.clone())
                .await;
            let Failure { mut error, retry } = match outcome {
                Ok((response, status)) => return Ok((response, status, attempt)),
                Err(failure) => failure,
            };
            error.set_attempts(attempt);
            span.record("error", error_kind(&error));
            let Retry::After(retry_after) = retry else {
                return Err((error, attempt));
            };
            if attempt > inner.retry.max_retries {
                return Err((error, attempt));
            }
            let wait = inner.retry.delay(attempt, retry_after);
            let too_late = |d| Instant::now().checked_add(wait).is_none_or(|t| t >= d);
            if deadline.is_some_and(too_late) {
                tracing::info!(
                    attempt,
                    wait_ms = millis(wait),
                    reason = error_kind(&error),
                    "not retrying: the call's deadline comes before the next attempt"
                );
                return Err((error, attempt));
            }
            tracing::warn!(
                attempt,
                status = error.status(),
                request_id = error.request_id(),
                reason = error_kind(&error),
                wait_ms = millis(wait),
                "retrying"
            );
            tokio::time::sleep(wait).await;
        }
    }

    /// One attempt: send, read the whole body, decode; the records and the status, or a
    /// failure saying whether it may be retried. Runs inside its `mrds.attempt` span.
    async fn attempt<T, E>(
        &self,
        url: &Uri,
        timeout: (Duration, bool),
        payload: &Payload,
        endpoint: &str,
    ) -> Result<(Response<T>, u16), Failure<E>>
    where
        T: serde::de::DeserializeOwned,
        E: ErrorBody,
    {
        let span = tracing::Span::current();
        let (head, body) = self.fetch(url, timeout, payload).await?;
        let status = head.status;
        match decode::<T, E>(&head, &body, self.notice(endpoint)) {
            Ok(response) => {
                span.record("request_id", response.request_id.as_str());
                Ok((response, status))
            }
            Err(error) => {
                if let Some(id) = error.request_id() {
                    span.record("request_id", id);
                }
                let retry = if payload.repeatable && RETRY_STATUSES.contains(&status) {
                    Retry::After(head.retry_after)
                } else {
                    Retry::No
                };
                Err(Failure { error, retry })
            }
        }
    }

    /// Where the drift of an answer of `endpoint` goes, when the client notices it.
    fn notice<'a>(&'a self, endpoint: &'a str) -> Option<Notice<'a>> {
        let inner = &*self.inner;
        inner.notice_drift.then_some(Notice {
            shapes: inner.shapes,
            endpoint,
            drift: &inner.drift,
        })
    }

    /// The HTTP side of one attempt, the same for every endpoint: send, then read the head
    /// and the whole body within the attempt's timeout (`capped`: it is the time left before
    /// the call's deadline).
    ///
    /// Boxed here, in a function that is not generic, so that the HTTP stack's futures are
    /// compiled once, in this crate, instead of in every crate that instantiates a call for
    /// its endpoints (the generated client's build time).
    fn fetch<'a>(
        &'a self,
        url: &'a Uri,
        timeout: (Duration, bool),
        payload: &'a Payload,
    ) -> Fetching<'a> {
        Box::pin(self.fetch_unboxed(url, timeout, payload))
    }

    async fn fetch_unboxed(
        &self,
        url: &Uri,
        (timeout, capped): (Duration, bool),
        payload: &Payload,
    ) -> Result<(Head, Vec<u8>), Lost> {
        let span = tracing::Span::current();
        let repeatable = payload.repeatable;
        let until = tokio::time::Instant::now().checked_add(timeout);
        let timed_out =
            || self.transport_failure(TransportError::timed_out(url, capped), repeatable);
        let resp = match within(until, self.exchange(url, payload)).await {
            None => return Err(timed_out()),
            Some(Err(e)) => {
                return Err(self.transport_failure(TransportError::new(url, e), repeatable));
            }
            Some(Ok(resp)) => resp,
        };
        let status = resp.status().as_u16();
        span.record("status", status);
        let header = |name: &str| {
            resp.headers()
                .get(name)
                .map(|v: &HeaderValue| String::from_utf8_lossy(v.as_bytes()).into_owned())
        };
        let head = Head {
            status,
            retry_after: header(RETRY_AFTER.as_str())
                .and_then(|v| parse_retry_after(&v, SystemTime::now())),
            location: header(LOCATION.as_str()),
            request_id: header(REQUEST_ID_HEADER),
        };
        if let Some(id) = &head.request_id {
            span.record("request_id", id.as_str());
        }
        match within(until, read_body(resp.into_body())).await {
            None => Err(timed_out()),
            Some(Ok(body)) => Ok((head, body)),
            Some(Err((partial, e))) => {
                // The connection broke mid-body: retried like a reset.
                let mut error = UndecodableError::new(
                    status,
                    &partial,
                    "the body ended before it was complete",
                    Some(Box::new(e)),
                );
                error.request_id = head.request_id.map(Into::into);
                Err(Lost {
                    error: LostError::Truncated(error),
                    retry: if repeatable {
                        Retry::After(None)
                    } else {
                        Retry::No
                    },
                })
            }
        }
    }

    /// Sends the request to `url` and returns the head of the answer, following redirects
    /// within one origin: at most [`MAX_REDIRECTS`], and for a call with a body only those
    /// that keep the method (307, 308). The key header must not travel to another host, and
    /// a body must not turn into a `GET`; a redirect not followed is the answer.
    async fn exchange(
        &self,
        url: &Uri,
        payload: &Payload,
    ) -> Result<http::Response<hyper::body::Incoming>, hyper_util::client::legacy::Error> {
        let mut target = url.clone();
        let mut redirects = 0;
        loop {
            let resp = self.inner.http.send(self.request(&target, payload)).await?;
            let next = (redirects < MAX_REDIRECTS)
                .then(|| redirect_target(&target, &resp, payload.body.is_some()))
                .flatten();
            match next {
                Some(next) => {
                    redirects += 1;
                    target = next;
                }
                None => return Ok(resp),
            }
        }
    }

    /// The request of one call to `target`: method, headers (key, user agent, JSON body).
    fn request(&self, target: &Uri, payload: &Payload) -> http::Request<Full<Bytes>> {
        let inner = &*self.inner;
        let mut request = http::Request::new(Full::new(Bytes::new()));
        *request.uri_mut() = target.clone();
        let headers = request.headers_mut();
        headers.insert(ACCEPT, HeaderValue::from_static("application/json"));
        headers.insert(USER_AGENT, inner.user_agent.clone());
        if let Some(key) = &inner.api_key {
            headers.insert(inner.auth_header.clone(), key.clone());
        }
        if let Some((bytes, key)) = &payload.body {
            headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
            if let Some(key) = key {
                headers.insert(IDEMPOTENCY_KEY, key.clone());
            }
            *request.method_mut() = Method::POST;
            *request.body_mut() = Full::new(bytes.clone());
        }
        request
    }

    /// A transport failure, retried when it is a failed connection (nothing was sent), and
    /// for a call that may be repeated, a reset or (unless turned off) a timeout.
    fn transport_failure(&self, error: TransportError, repeatable: bool) -> Lost {
        let retry = match error.kind {
            TransportKind::Connect => Retry::After(None),
            TransportKind::Reset if repeatable => Retry::After(None),
            TransportKind::Timeout if repeatable && self.inner.retry_timeouts => Retry::After(None),
            _ => Retry::No,
        };
        Lost {
            error: LostError::Transport(error),
            retry,
        }
    }

    /// Every record of an endpoint that pages with a page size and an offset, page after
    /// page, as an `Unpin` stream (`.next().await` works without pinning).
    ///
    /// The first page is requested at `params.offset`; each next one at the offset advanced
    /// by the number of records received (not by the page size, so a service that caps pages
    /// below `limit` loses nothing). The stream ends after an empty page, or after a page
    /// whose envelope's `pagination` says there is no more (`has_more: false`, or a `total`
    /// the records so far reach). A short page alone does not end it. A page that repeats
    /// the previous one record for record (the service or a proxy ignores the offset) fails
    /// with [`Error::Paging`] naming both offsets, so the stream can neither loop nor yield
    /// duplicates. The first error is yielded and ends the stream; each page is one call,
    /// with its own retries and deadline.
    pub fn stream_all<P, E>(&self, params: P) -> RecordStream<P::Record, E>
    where
        P: Paged,
        P::Record: Send + 'static,
        E: ErrorBody,
    {
        RecordStream::new(self.clone(), params)
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A short name of what went wrong, for traces.
fn error_kind<E>(error: &Error<E>) -> &'static str {
    match error {
        Error::InvalidInput(_) => "invalid_input",
        Error::Transport(t) => match t.kind {
            TransportKind::Connect => "connect",
            TransportKind::Reset => "reset",
            TransportKind::Timeout => "timeout",
            TransportKind::Deadline => "deadline",
            _ => "transport",
        },
        Error::Api(_) => "api",
        Error::Undecodable(_) => "undecodable",
        Error::Paging(_) => "paging",
    }
}

/// A `Retry-After` value: delay-seconds, or an HTTP date (the wait until then from `now`,
/// zero when it has passed). Anything else is ignored.
pub(crate) fn parse_retry_after(text: &str, now: SystemTime) -> Option<Duration> {
    let text = text.trim();
    if let Ok(seconds) = text.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let when = httpdate::parse_http_date(text).ok()?;
    Some(when.duration_since(now).unwrap_or(Duration::ZERO))
}

/// `future`'s output, or `None` when `until` passes first (no limit without one).
async fn within<F: Future>(until: Option<tokio::time::Instant>, future: F) -> Option<F::Output> {
    match until {
        Some(until) => tokio::time::timeout_at(until, future).await.ok(),
        None => Some(future.await),
    }
}

/// Where a redirect answer to a request of `from` leads, if the client follows it: a 301,
/// 302, 303, 307 or 308 (only 307 and 308 for a request with a body) whose `Location`
/// stays within the origin of `from` (scheme, host, port).
fn redirect_target<B>(from: &Uri, resp: &http::Response<B>, with_body: bool) -> Option<Uri> {
    let keeps_method = matches!(
        resp.status(),
        StatusCode::TEMPORARY_REDIRECT | StatusCode::PERMANENT_REDIRECT
    );
    let redirect = keeps_method
        || matches!(
            resp.status(),
            StatusCode::MOVED_PERMANENTLY | StatusCode::FOUND | StatusCode::SEE_OTHER
        );
    if !redirect || (with_body && !keeps_method) {
        return None;
    }
    let location = resp.headers().get(LOCATION)?.to_str().ok()?;
    let next = resolve_location(from, location)?;
    same_origin(from, &next).then_some(next)
}

/// A `Location` resolved against the URL it answers: absolute, scheme-relative (`//host/..`),
/// absolute path or relative path; a fragment is dropped.
fn resolve_location(from: &Uri, location: &str) -> Option<Uri> {
    let location = location.split('#').next()?.trim();
    let scheme = from.scheme_str()?;
    let authority = from.authority()?;
    let text = if location.contains("://") {
        location.to_string()
    } else if let Some(rest) = location.strip_prefix("//") {
        format!("{scheme}://{rest}")
    } else if location.starts_with('/') {
        format!("{scheme}://{authority}{location}")
    } else {
        let path = from.path();
        let directory = &path[..path.rfind('/').map_or(0, |i| i + 1)];
        format!("{scheme}://{authority}{directory}{location}")
    };
    text.parse().ok()
}

/// Whether two URLs have one origin: scheme, host (in any case) and port, a missing port
/// being the scheme's.
fn same_origin(a: &Uri, b: &Uri) -> bool {
    let port = |u: &Uri| {
        u.port_u16().or(match u.scheme_str() {
            Some("http") => Some(80),
            Some("https") => Some(443),
            _ => None,
        })
    };
    a.scheme() == b.scheme()
        && a.host()
            .zip(b.host())
            .is_some_and(|(x, y)| x.eq_ignore_ascii_case(y))
        && port(a) == port(b)
}

/// The whole body; on a failure what arrived and the error.
async fn read_body(mut body: hyper::body::Incoming) -> Result<Vec<u8>, (Vec<u8>, hyper::Error)> {
    let mut bytes = Vec::new();
    loop {
        match body.frame().await {
            Some(Ok(frame)) => {
                if let Some(chunk) = frame.data_ref() {
                    bytes.extend_from_slice(chunk);
                }
            }
            Some(Err(e)) => return Err((bytes, e)),
            None => return Ok(bytes),
        }
    }
}

/// The parts of a failure envelope, each optional so that anything known is kept.
#[derive(serde::Deserialize)]
struct FailureEnvelope<E> {
    #[serde(default)]
    success: Option<bool>,
    #[serde(default)]
    request_id: Option<String>,
    #[serde(default = "none")]
    error: Option<E>,
}

fn none<E>() -> Option<E> {
    None
}

/// The envelope of a successful answer (the generator checks that the spec's envelope has
/// these fields).
#[derive(serde::Deserialize)]
struct Envelope<T, E> {
    success: bool,
    request_id: String,
    data: Vec<T>,
    #[serde(default = "none")]
    error: Option<E>,
    #[serde(default)]
    metadata: Option<crate::JsonValue>,
    #[serde(default)]
    pagination: Option<crate::JsonValue>,
}

/// Decodes a complete response as the client does: the records of a 2xx envelope, or the
/// error it means; with `noticing`, as a client noticing drift does (against `shapes`, for
/// `endpoint`, into `drift`). For benchmarks and tests; not part of the API.
#[doc(hidden)]
pub fn decode_body<T: serde::de::DeserializeOwned, E: ErrorBody>(
    status: u16,
    body: &[u8],
    noticing: Option<(&'static Shapes, &str, &Drift)>,
) -> Result<Response<T>, Error<E>> {
    let head = Head {
        status,
        retry_after: None,
        location: None,
        request_id: None,
    };
    let notice = noticing.map(|(shapes, endpoint, drift)| Notice {
        shapes,
        endpoint,
        drift,
    });
    decode(&head, body, notice)
}

/// Where the drift of one answer goes: the shapes it is read against, its endpoint, the
/// client's record.
#[derive(Clone, Copy)]
struct Notice<'a> {
    shapes: &'static Shapes,
    endpoint: &'a str,
    drift: &'a Drift,
}

impl Notice<'_> {
    /// Keeps what an answer held, tracing each finding seen for the first time.
    fn absorb(self, noticed: &drift::Noticed) {
        if noticed.is_empty() {
            return;
        }
        for finding in self.drift.absorb(self.endpoint, noticed) {
            trace_finding(&finding);
        }
    }

    /// Walks an answer that did not decode (or an error answer) for everything it holds
    /// that the spec does not describe.
    fn walk(self, status: u16, body: &[u8]) {
        self.absorb(&drift::check_answer(
            self.shapes,
            self.endpoint,
            status,
            body,
        ));
    }
}

/// The WARN event of a finding, once per client: target `mrds::drift`, the finding's
/// fields, and its one-line description.
fn trace_finding(finding: &Finding) {
    let observed = &finding.observed;
    tracing::warn!(
        target: "mrds::drift",
        kind = observed.kind(),
        endpoint = finding.endpoint.as_str(),
        record = observed.record(),
        field = observed.field(),
        value_set = observed.value_set(),
        example = finding.example(),
        count = finding.count,
        "the service's answer differs from the spec: {observed}"
    );
}

/// The envelope of a 2xx answer, decoded, noticing drift when `notice` says so (what was
/// noticed is kept only for an envelope that decodes and says `success`; any other is walked
/// by the caller). Noticing never changes the result: an answer it fails to decode is decoded
/// plainly (a value read as an example can fail where plain decoding skips it).
fn decode_envelope<T: serde::de::DeserializeOwned, E: ErrorBody>(
    body: &[u8],
    notice: Option<Notice<'_>>,
) -> Result<Envelope<T, E>, serde_json::Error> {
    let Some(notice) = notice else {
        return serde_json::from_slice(body);
    };
    let mut de = serde_json::Deserializer::from_slice(body);
    let (result, noticed) =
        drift::decode_noticing::<Envelope<T, E>, _>(notice.shapes, notice.endpoint, &mut de);
    let result = result
        .and_then(|envelope| de.end().map(|()| envelope))
        .or_else(|_| serde_json::from_slice(body));
    if let Ok(envelope) = &result
        && envelope.success
    {
        notice.absorb(&noticed);
    }
    result
}

/// Turns a complete response into records or the error it means; never panics.
fn decode<T: serde::de::DeserializeOwned, E: ErrorBody>(
    head: &Head,
    body: &[u8],
    notice: Option<Notice<'_>>,
) -> Result<Response<T>, Error<E>> {
    let status = head.status;
    let undecodable = |reason: &str, source: Option<serde_json::Error>| {
        let mut e = UndecodableError::new(status, body, reason, source.map(|e| Box::new(e) as _));
        e.request_id = head.request_id.as_deref().map(Into::into);
        Error::Undecodable(e)
    };
    let not_json = |e: serde_json::Error| undecodable(json_problem(&e), Some(e));
    let api = |error: E, request_id: Option<String>| {
        Error::Api(Box::new(ApiError {
            status,
            error,
            request_id: request_id.or_else(|| head.request_id.clone()),
            retry_after: head.retry_after,
            attempts: 1,
        }))
    };
    if (300..400).contains(&status) {
        let reason = format!(
            "a redirect to `{}` that was not followed (only redirects within one origin are)",
            head.location.as_deref().unwrap_or("?")
        );
        return Err(undecodable(&reason, None));
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(undecodable("the body is empty", None));
    }
    // An answer that is JSON but not what the spec describes is walked for drift.
    let walk = |e: Option<&serde_json::Error>| {
        if let Some(notice) = notice
            && e.is_none_or(|e| e.classify() == serde_json::error::Category::Data)
        {
            notice.walk(status, body);
        }
    };
    if (200..300).contains(&status) {
        let decoded = decode_envelope::<T, E>(body, notice);
        match &decoded {
            Ok(envelope) if envelope.success => {}
            Ok(_) => walk(None),
            Err(e) => walk(Some(e)),
        }
        match decoded {
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
            Err(e) => match serde_json::from_slice::<FailureEnvelope<E>>(body) {
                Ok(FailureEnvelope {
                    success: Some(false),
                    request_id,
                    error: Some(error),
                }) => Err(api(error, request_id)),
                _ if e.classify() == serde_json::error::Category::Data => {
                    Err(Error::Undecodable(describe_misfit::<T, E>(head, body, e)))
                }
                _ => Err(not_json(e)),
            },
        }
    } else {
        let decoded = serde_json::from_slice::<FailureEnvelope<E>>(body);
        walk(decoded.as_ref().err());
        match decoded {
            Ok(FailureEnvelope {
                request_id,
                error: Some(error),
                ..
            }) => Err(api(error, request_id)),
            Ok(_) => Err(undecodable(
                "an error status without an error object in the body",
                None,
            )),
            Err(e) => Err(not_json(e)),
        }
    }
}

/// The error of a 2xx body that is JSON but not the envelope of `T`: decoded a second time,
/// tracking the path, to name the record type, the field and the position. Only failures pay
/// for this; the fast path is plain serde_json.
fn describe_misfit<T: serde::de::DeserializeOwned, E: ErrorBody>(
    head: &Head,
    body: &[u8],
    first: serde_json::Error,
) -> UndecodableError {
    let mut de = serde_json::Deserializer::from_slice(body);
    let (path, error) = match serde_path_to_error::deserialize::<_, Envelope<T, E>>(&mut de) {
        Ok(_) => (String::new(), first),
        Err(e) => {
            let path = render_path(e.path());
            (path, e.into_inner())
        }
    };
    let mut message = error.to_string();
    let position = (error.line() > 0).then(|| (error.line(), error.column()));
    if let Some((line, column)) = position {
        let suffix = format!(" at line {line} column {column}");
        if let Some(stripped) = message.strip_suffix(&suffix) {
            message = stripped.to_string();
        }
    }
    // A missing field is named as if it were there: `data[3].time_open`.
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split_once('`'))
        .map(|(field, _)| field.to_string());
    let path = match missing {
        Some(field) if path.is_empty() => field,
        Some(field) => format!("{path}.{field}"),
        None => path,
    };
    let at = match position {
        Some((line, column)) => format!(" (line {line}, column {column})"),
        None => String::new(),
    };
    let reason = if path.starts_with("data[") {
        format!(
            "record {} at `{path}`{at}: {message}",
            short_type_name::<T>()
        )
    } else if path.is_empty() {
        format!("the JSON is not the response envelope{at}: {message}")
    } else {
        format!("the JSON is not the response envelope: `{path}`{at}: {message}")
    };
    let mut e = UndecodableError::new(head.status, body, &reason, Some(Box::new(error)));
    e.path = (!path.is_empty()).then(|| path.into());
    e.request_id = head.request_id.as_deref().map(Into::into);
    e
}

/// `data[3].time_open` from serde_path_to_error's path.
fn render_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Unknown => out.push_str(if out.is_empty() { "?" } else { ".?" }),
        }
    }
    out
}

/// `PitDividend` for `mrds_model::records::PitDividend`.
fn short_type_name<T>() -> &'static str {
    let name = std::any::type_name::<T>();
    let name = name.split('<').next().unwrap_or(name);
    name.rsplit("::").next().unwrap_or(name)
}

fn json_problem(e: &serde_json::Error) -> &'static str {
    match e.classify() {
        serde_json::error::Category::Eof => "the JSON ends early (truncated body)",
        serde_json::error::Category::Syntax => "the body is not JSON",
        serde_json::error::Category::Data => "the JSON is not the response envelope",
        serde_json::error::Category::Io => "the body could not be read",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_takes_seconds_and_http_dates() {
        let now = httpdate::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        let at = |text| parse_retry_after(text, now);
        assert_eq!(at("120"), Some(Duration::from_secs(120)));
        assert_eq!(at(" 0 "), Some(Duration::ZERO));
        // IMF-fixdate, and the obsolete RFC 850 and asctime forms RFC 9110 still accepts.
        assert_eq!(
            at("Sun, 06 Nov 1994 08:50:07 GMT"),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            at("Sunday, 06-Nov-94 08:50:07 GMT"),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            at("Sun Nov  6 08:50:07 1994"),
            Some(Duration::from_secs(30))
        );
        // A date in the past means now.
        assert_eq!(at("Sun, 06 Nov 1994 08:00:00 GMT"), Some(Duration::ZERO));
        for bad in ["", "-1", "1.5", "soon", "Sun, 06 Nov 1994 25:00:00 GMT"] {
            assert_eq!(at(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn redirects_resolve_against_the_request_and_stay_within_its_origin() {
        let from = Uri::from_static("http://host:8080/api/v1/stocks/dividends?symbol=A");
        let at = |location: &str| resolve_location(&from, location).map(|u| u.to_string());
        assert_eq!(
            at("/api/v2/x?y=1#frag").as_deref(),
            Some("http://host:8080/api/v2/x?y=1")
        );
        assert_eq!(
            at("splits").as_deref(),
            Some("http://host:8080/api/v1/stocks/splits")
        );
        assert_eq!(at("//other/p").as_deref(), Some("http://other/p"));
        assert_eq!(
            at("https://host:8080/p").as_deref(),
            Some("https://host:8080/p")
        );

        let same = |a: &'static str, b: &'static str| {
            same_origin(&Uri::from_static(a), &Uri::from_static(b))
        };
        assert!(same("http://Host/a", "http://host:80/b"));
        assert!(same("https://h/a", "https://h:443/b"));
        assert!(!same("http://h/a", "https://h/a"));
        assert!(!same("http://h/a", "http://h:8080/a"));
        assert!(!same("http://h/a", "http://g/a"));

        let answer = |status: u16, location: &str| {
            http::Response::builder()
                .status(status)
                .header(LOCATION, location)
                .body(())
                .unwrap()
        };
        let next = |status, location, with_body| {
            redirect_target(&from, &answer(status, location), with_body).map(|u| u.to_string())
        };
        assert_eq!(
            next(302, "/api/x", false).as_deref(),
            Some("http://host:8080/api/x")
        );
        assert_eq!(next(302, "http://elsewhere/api/x", false), None);
        // A body is sent again only where the method is kept.
        assert_eq!(next(303, "/api/x", true), None);
        assert_eq!(
            next(307, "/api/x", true).as_deref(),
            Some("http://host:8080/api/x")
        );
        assert_eq!(next(200, "/api/x", false), None);
        assert_eq!(next(304, "/api/x", false), None);
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Row {
        name: String,
        n: i64,
    }

    use crate::test_object::Object;

    fn misfit(body: &str) -> UndecodableError {
        match decode_body::<Row, Object>(200, body.as_bytes(), None) {
            Err(Error::Undecodable(e)) => e,
            other => panic!("expected undecodable, got {other:?}"),
        }
    }

    #[test]
    fn misfits_name_the_record_the_field_and_the_position() {
        let body = "{\"success\": true, \"request_id\": \"r\", \"data\": [\n\
                    {\"name\": \"a\", \"n\": 1},\n{\"name\": \"b\", \"n\": \"two\"}]}";
        let e = misfit(body);
        assert_eq!(e.path.as_deref(), Some("data[1].n"));
        assert_eq!(e.position(), Some((3, 24)));
        assert!(
            e.reason
                .starts_with("record Row at `data[1].n` (line 3, column 24): invalid type"),
            "{}",
            e.reason
        );

        let e = misfit(r#"{"success": true, "request_id": "r", "data": [{"n": 1}]}"#);
        assert_eq!(e.path.as_deref(), Some("data[0].name"));
        assert!(e.reason.contains("missing field `name`"), "{}", e.reason);

        let e = misfit(r#"{"success": true, "data": []}"#);
        assert_eq!(e.path.as_deref(), Some("request_id"));
        assert!(
            e.reason
                .starts_with("the JSON is not the response envelope: `request_id`"),
            "{}",
            e.reason
        );

        let e = misfit(r#"{"success": true, "request_id": "r", "data": [}"#);
        assert_eq!((e.path.as_deref(), e.position()), (None, Some((1, 47))));
        assert_eq!(e.reason, "the body is not JSON");
    }

    #[test]
    fn errors_stay_small() {
        // Clippy's `result_large_err` (and callers' own functions returning the error) warn
        // above 128 bytes.
        assert!(std::mem::size_of::<Error<Object>>() <= 128);
    }

    #[test]
    fn type_names_are_short() {
        assert_eq!(short_type_name::<Row>(), "Row");
        assert_eq!(short_type_name::<Vec<Row>>(), "Vec");
        assert_eq!(short_type_name::<u8>(), "u8");
    }
}
