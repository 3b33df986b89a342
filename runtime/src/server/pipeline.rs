//! The request pipeline every generated route runs: key check, parameter parsing and
//! validation, the call into the implementation, and the envelope around its answer.

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{FromRequestParts, RawPathParams, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::response::Response;
use futures_util::FutureExt;

use super::rate_limit::{Caller, RateLimiter};
use super::request_id::{RequestId, new_request_id};
use super::{ApiError, KeyStore};
use crate::{
    Auth, BodyRecord, DEFAULT_BODY_LIMIT, ErrorBody, Issues, RawParams, Request as Params,
    ValidationError, ValidationIssue, WithBody,
};

/// The response header carrying the request id.
pub const REQUEST_ID_HEADER: &str = "x-request-id";

const REQUEST_ID: HeaderName = HeaderName::from_static(REQUEST_ID_HEADER);

/// What the server knows of one request besides its parameters.
#[derive(Clone)]
pub struct RequestContext {
    /// The id of the request, also in the envelope and the `x-request-id` header.
    pub request_id: String,
    /// The caller's API key, when one was given (and accepted).
    pub api_key: Option<String>,
}

impl fmt::Debug for RequestContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RequestContext")
            .field("request_id", &self.request_id)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

/// The rule and parameter a path that does not decode is reported under.
#[derive(Clone, Copy, Debug)]
pub struct PathRule {
    /// The rule id (the first path parameter's `type` rule).
    pub rule: &'static str,
    /// The path parameter.
    pub field: &'static str,
}

/// What every route of one router shares: the implementation, the keys and the name of the
/// key header.
pub struct Shared<S, K> {
    /// The implementation of the service.
    pub service: S,
    keys: K,
    auth_header: HeaderName,
    /// `WWW-Authenticate` of a 401: `ApiKey header="X-API-Key"`.
    challenge: HeaderValue,
}

impl<S, K: KeyStore> Shared<S, K> {
    /// The shared state of a router serving `service`, accepting the keys `keys` accepts in
    /// the header `auth_header` (a valid header name; the generator checks the spec's).
    pub fn new(service: S, keys: K, auth_header: &'static str) -> Self {
        Self {
            service,
            keys,
            auth_header: HeaderName::from_bytes(auth_header.as_bytes())
                .expect("the generator checked the key header name"),
            challenge: HeaderValue::from_str(&format!("ApiKey header=\"{auth_header}\""))
                .expect("a header name is a valid header value"),
        }
    }

    /// Runs one request of endpoint `P`: key check, rate limit (when [`serve`](super::serve)
    /// attached a [`RateLimiter`] to the request), parsing and validation,
    /// the implementation (`call`), and the envelope. Never panics; a panic inside `call`
    /// becomes a 500. `path` says under which rule a path that does not decode is reported
    /// (`None` for endpoints without path parameters).
    ///
    /// Everything before the call into the implementation happens here, at once; the future
    /// returned holds only the implementation's future and what the envelope needs (the
    /// request is gone by then), which keeps the future each route boxes small.
    pub fn handle<P, E, F, Fut>(
        &self,
        request: Request,
        path: Option<PathRule>,
        call: F,
    ) -> impl Future<Output = Response> + use<S, K, P, E, F, Fut>
    where
        P: Params,
        E: ErrorBody,
        F: FnOnce(RequestContext, P) -> Fut,
        Fut: Future<Output = Result<Vec<P::Record>, ApiError<E>>>,
    {
        let started = log_enabled().then(Instant::now);
        let (mut parts, _body) = request.into_parts();
        let (request_id, header) = request_id(&mut parts);
        let admitted = self.admit(&parts, P::ENDPOINT.auth).and_then(|api_key| {
            let raw = raw_params(&mut parts, path)?;
            Ok((api_key, P::from_raw(&raw)?))
        });
        let admitted = admitted.map(|(api_key, params)| (api_key, |ctx| call(ctx, params)));
        Handled::new(
            &parts,
            P::ENDPOINT.id,
            (request_id, header, started),
            admitted,
        )
    }

    /// Runs one request of endpoint `P`, which has a JSON body: as [`handle`](Self::handle),
    /// and the body is read (at most its limit: [`BodyLimit`], else [`DEFAULT_BODY_LIMIT`];
    /// over it, 413), declared JSON (`Content-Type: application/json`; else 415), parsed as
    /// `P::Body` (malformed JSON or another shape: 400 naming the line and column), and
    /// checked with the parameters ([`WithBody::validate_body`]): every problem of the
    /// parameters and of the body at once. `call` gets the parameters and the body.
    pub async fn handle_with_body<P, E, F, Fut>(
        &self,
        request: Request,
        path: Option<PathRule>,
        call: F,
    ) -> Response
    where
        P: WithBody,
        E: ErrorBody,
        F: FnOnce(RequestContext, P, P::Body) -> Fut,
        Fut: Future<Output = Result<Vec<P::Record>, ApiError<E>>>,
    {
        let started = log_enabled().then(Instant::now);
        let (mut parts, body) = request.into_parts();
        let (request_id, header) = request_id(&mut parts);
        let admitted = match self.admit(&parts, P::ENDPOINT.auth) {
            Ok(api_key) => read_body::<P, E>(&parts, body).await.and_then(|body| {
                let params = raw_params(&mut parts, path).and_then(|raw| P::from_raw(&raw));
                Ok((api_key, checked::<P, E>(params, body)?))
            }),
            Err(error) => Err(error),
        };
        let admitted =
            admitted.map(|(api_key, (params, body))| (api_key, |ctx| call(ctx, params, body)));
        Handled::new(
            &parts,
            P::ENDPOINT.id,
            (request_id, header, started),
            admitted,
        )
        .await
    }

    /// The key check, then the rate limit: a request is counted against its accepted key,
    /// or against its peer address when it has none (a rejected key included, so guessing
    /// keys is limited too).
    fn admit<E: ErrorBody>(
        &self,
        parts: &Parts,
        auth: Auth,
    ) -> Result<Option<String>, ApiError<E>> {
        let checked = self.check_key(&parts.headers, auth);
        if let Some(limiter) = parts.extensions.get::<Arc<RateLimiter>>() {
            let caller = match &checked {
                Ok(Some(key)) => Some(Caller::Key(key)),
                _ => parts
                    .extensions
                    .get::<PeerAddr>()
                    .map(|peer| Caller::Peer(peer.0.ip())),
            };
            if let Some(caller) = caller
                && let Err(retry_after) = limiter.check(caller)
            {
                return Err(ApiError::rate_limited_for(retry_after));
            }
        }
        checked
    }

    fn check_key<E: ErrorBody>(
        &self,
        headers: &HeaderMap,
        auth: Auth,
    ) -> Result<Option<String>, ApiError<E>> {
        let unauthorized = |message: String| {
            ApiError::of_kind(crate::ErrorKind::Unauthorized, message)
                .with_hint(format!(
                    "send one valid key in the {} header",
                    self.auth_header
                ))
                .with_header(header::WWW_AUTHENTICATE, self.challenge.clone())
        };
        let mut values = headers.get_all(&self.auth_header).iter();
        let Some(value) = values.next() else {
            return match auth {
                Auth::Required => Err(unauthorized("missing API key".to_string())),
                Auth::Optional => Ok(None),
            };
        };
        let more = values.count();
        if more > 0 {
            return Err(unauthorized(format!(
                "the {} header is given {} times; give one API key",
                self.auth_header,
                more + 1
            )));
        }
        match value.to_str() {
            Ok(key) if self.keys.accepts(key) => Ok(Some(key.to_string())),
            _ => Err(unauthorized("unknown API key".to_string())),
        }
    }
}

pin_project_lite::pin_project! {
    /// One request past its key check and parsing: the implementation's answer (or the
    /// error that refused the request) on its way into the envelope.
    struct Handled<Fut, E> {
        #[pin]
        state: State<Fut, E>,
        // The request id as the answer's `x-request-id` header (its text also goes into the
        // envelope).
        request_id: HeaderValue,
        endpoint: &'static str,
        started: Option<Instant>,
    }
}

impl<Fut, E> Handled<Fut, E> {
    /// The answer to a request of `endpoint`: `admitted` holds the accepted key and the call
    /// into the implementation (started here, with the request's context and timeout), or the
    /// error refusing the request; then the request id, as text and as a header, and when the
    /// request started (when it is logged).
    fn new<F>(
        parts: &Parts,
        endpoint: &'static str,
        (request_id, header, started): (String, HeaderValue, Option<Instant>),
        admitted: Result<(Option<String>, F), ApiError<E>>,
    ) -> Self
    where
        F: FnOnce(RequestContext) -> Fut,
    {
        let state = match admitted {
            Ok((api_key, call)) => State::Running {
                future: call(RequestContext {
                    request_id,
                    api_key,
                }),
                limit: parts
                    .extensions
                    .get::<RequestTimeout>()
                    .map(|timeout| timeout.0),
                timer: None,
            },
            Err(error) => State::Refused { error },
        };
        Handled {
            state,
            request_id: header,
            endpoint,
            started,
        }
    }
}

pin_project_lite::pin_project! {
    #[project = StateProj]
    #[project_replace = StateOwned]
    enum State<Fut, E> {
        // The implementation is answering. `limit` is the per-request timeout; its timer is
        // only made when the implementation is not ready at its first poll, so an
        // implementation answering at once (from memory, say) pays for no timer:
        // registering and cancelling one cost about 0.7 µs per request in
        // `bench/server.sh`, some 4 % of a request.
        Running {
            #[pin]
            future: Fut,
            limit: Option<Duration>,
            timer: Option<Pin<Box<tokio::time::Sleep>>>,
        },
        // The key check or the parameters refused the request.
        Refused { error: ApiError<E> },
        // The answer was given.
        Done,
    }
}

impl<R, E, Fut> Future for Handled<Fut, E>
where
    R: serde::Serialize,
    E: ErrorBody,
    Fut: Future<Output = Result<Vec<R>, ApiError<E>>>,
{
    type Output = Response;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Response> {
        let mut this = self.project();
        let ended = match this.state.as_mut().project() {
            StateProj::Running {
                future,
                limit,
                timer,
            } => match guarded(future, *limit, timer, cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(ended) => Some(ended),
            },
            _ => None,
        };
        let outcome = match (ended, this.state.as_mut().project_replace(State::Done)) {
            (Some(Guarded::Answered(answer)), _) => answer,
            (Some(Guarded::Panicked), _) => Err(ApiError::internal("the implementation panicked")),
            (Some(Guarded::TimedOut(limit)), _) => Err(ApiError::of_kind(
                crate::ErrorKind::InternalError,
                format!(
                    "the request did not finish within {} s",
                    limit.as_secs_f64()
                ),
            )
            .with_hint("try again later, or ask for less (a shorter range)")),
            (None, StateOwned::Refused { error }) => Err(error),
            (None, _) => Err(ApiError::internal(
                "the answer was polled after it was given",
            )),
        };
        let request_id = std::mem::replace(this.request_id, HeaderValue::from_static(""));
        let response = match outcome {
            Ok(records) => success::<_, E>(request_id, &records),
            Err(error) => {
                if error.kind() == Some(crate::ErrorKind::NotImplemented) {
                    not_implemented_once(this.endpoint);
                }
                failure(request_id, &error)
            }
        };
        log(&response, this.endpoint, None, *this.started);
        Poll::Ready(response)
    }
}

/// How the implementation's future ended.
#[derive(Debug, PartialEq)]
enum Guarded<T> {
    /// With its answer.
    Answered(T),
    /// With a panic.
    Panicked,
    /// Not within the limit.
    TimedOut(Duration),
}

/// Polls the implementation's `future`, catching a panic, and gives up on it when it has not
/// answered `limit` after the first time it waited (`timer` is made then).
fn guarded<F: Future>(
    future: Pin<&mut F>,
    limit: Option<Duration>,
    timer: &mut Option<Pin<Box<tokio::time::Sleep>>>,
    cx: &mut Context<'_>,
) -> Poll<Guarded<F::Output>> {
    match std::panic::catch_unwind(AssertUnwindSafe(|| future.poll(cx))) {
        Ok(Poll::Ready(answer)) => return Poll::Ready(Guarded::Answered(answer)),
        Ok(Poll::Pending) => {}
        Err(_) => return Poll::Ready(Guarded::Panicked),
    }
    let Some(limit) = limit else {
        return Poll::Pending;
    };
    let timer = timer.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
    timer.as_mut().poll(cx).map(|()| Guarded::TimedOut(limit))
}

/// The largest request body a route reads, in bytes, in a request's extensions when
/// [`serve`](super::serve) has a [`max_body_bytes`](super::ServeConfig::max_body_bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyLimit(pub usize);

/// True when `headers` declare a JSON body (`Content-Type: application/json`, whatever its
/// parameters).
pub(crate) fn declares_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"))
}

/// Why a body was not read whole: [`read_limited`].
pub(crate) enum Unread {
    /// Longer than the limit, as declared or as read.
    TooLarge,
    /// The body failed while it was read (the connection's error).
    Failed(Box<dyn std::error::Error + Send + Sync>),
}

/// Reads a body (a request's, or an answer's) to its end, at most `limit` bytes: refused
/// before a byte is read when its `headers` declare a longer `Content-Length`.
pub(crate) async fn read_limited<B>(
    headers: &HeaderMap,
    body: B,
    limit: usize,
) -> Result<axum::body::Bytes, Unread>
where
    B: http_body::Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    use http_body_util::BodyExt;

    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(Unread::TooLarge);
    }
    match http_body_util::Limited::new(body, limit).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Err(Unread::TooLarge),
        Err(e) => Err(Unread::Failed(e)),
    }
}

/// The body of a request of `P`: declared JSON, within its limit, parsed as `P::Body`.
async fn read_body<P: WithBody, E: ErrorBody>(
    parts: &Parts,
    body: Body,
) -> Result<P::Body, ApiError<E>> {
    if !declares_json(&parts.headers) {
        return Err(ApiError::of_kind(
            crate::ErrorKind::UnsupportedMediaType,
            "the request body must be JSON",
        )
        .with_hint("send the body with `Content-Type: application/json`"));
    }
    let limit = parts
        .extensions
        .get::<BodyLimit>()
        .map_or(DEFAULT_BODY_LIMIT, |l| l.0);
    let bytes = match read_limited(&parts.headers, body, limit).await {
        Ok(bytes) => bytes,
        Err(Unread::TooLarge) => {
            return Err(ApiError::of_kind(
                crate::ErrorKind::PayloadTooLarge,
                format!("the request body is larger than {limit} bytes"),
            )
            .with_hint("send a smaller body"));
        }
        Err(Unread::Failed(e)) => {
            return Err(ApiError::of_kind(
                crate::ErrorKind::InvalidParameter,
                format!("the request body could not be read: {e}"),
            ));
        }
    };
    serde_json::from_slice::<P::Body>(&bytes).map_err(|e| {
        let what = if e.is_syntax() || e.is_eof() {
            "is not valid JSON"
        } else {
            "is not of the body's shape"
        };
        let reason = format!(
            "the request body {what} at line {}, column {}: {}",
            e.line(),
            e.column(),
            json_problem(&e)
        );
        ApiError::invalid(&ValidationError {
            issues: vec![ValidationIssue::new(
                P::BODY_RULE,
                "body",
                String::new(),
                reason,
            )],
        })
    })
}

/// serde_json's message without its own `at line L column C` (the reason says where).
fn json_problem(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    text.strip_suffix(&suffix).unwrap_or(&text).to_string()
}

/// The parameters (as parsed) and the body, checked together: every problem of both at once.
fn checked<P: WithBody, E: ErrorBody>(
    params: Result<P, ValidationError>,
    body: P::Body,
) -> Result<(P, P::Body), ApiError<E>> {
    match params {
        Ok(params) => match params.validate_body(&body) {
            Ok(()) => Ok((params, body)),
            Err(error) => Err(ApiError::invalid(&error)),
        },
        Err(mut error) => {
            let mut issues = Issues::new();
            body.check(&mut issues);
            error.issues.extend(issues.as_slice().iter().cloned());
            Err(ApiError::invalid(&error))
        }
    }
}

/// The peer address of a connection, in a request's extensions when [`serve`](super::serve)
/// rate-limits (requests without an accepted key are counted against it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeerAddr(pub SocketAddr);

/// The time the implementation gets to answer, in a request's extensions when
/// [`serve`](super::serve) has a [`request_timeout`](super::ServeConfig::request_timeout).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestTimeout(pub std::time::Duration);

/// The id of a request: the one [`serve`](super::serve) adopted from a trusted proxy, or a
/// new one; as text (for the implementation) and as the answer's `x-request-id` header.
fn request_id(parts: &mut Parts) -> (String, HeaderValue) {
    if let Some(RequestId(id)) = parts.extensions.remove::<RequestId>()
        && let Ok(header) = HeaderValue::from_str(&id)
    {
        return (id, header);
    }
    let id = new_request_id();
    let header = HeaderValue::from_str(&id).unwrap_or(HeaderValue::from_static(""));
    (id, header)
}

/// The parameters of a request: its raw query and the path parameters the router matched.
fn raw_params(parts: &mut Parts, path: Option<PathRule>) -> Result<RawParams, ValidationError> {
    let mut raw = RawParams::from_query_string(parts.uri.query().unwrap_or_default());
    let Some(rule) = path else {
        return Ok(raw);
    };
    // Reading the matched path parameters never waits (they are in the request's extensions).
    match RawPathParams::from_request_parts(parts, &()).now_or_never() {
        Some(Ok(pairs)) => {
            for (name, value) in &pairs {
                raw = raw.with_path(name, value);
            }
            Ok(raw)
        }
        rejected => Err(ValidationError {
            issues: vec![ValidationIssue::new(
                rule.rule,
                rule.field,
                String::new(),
                match rejected {
                    Some(Err(rejection)) => rejection.body_text(),
                    _ => "the path parameters could not be read".to_string(),
                },
            )],
        }),
    }
}

/// The 404 envelope for a path no endpoint serves (the router's fallback); `base_path` is the
/// spec's (`/api`), which the hint names.
pub async fn unknown_path<E: ErrorBody>(request: Request, base_path: &'static str) -> Response {
    unrouted(request, |parts| {
        ApiError::<E>::not_found(format!(
            "no endpoint serves {} {}",
            parts.method,
            parts.uri.path()
        ))
        .with_hint(format!(
            "every endpoint's path is below {base_path}/; {base_path}/openapi.json lists them"
        ))
    })
}

/// The 405 envelope for a method an endpoint does not answer (the router's
/// method-not-allowed fallback; axum adds `Allow`). The code is `RESOURCE_NOT_FOUND`: the
/// spec has no code of its own for it, and no endpoint serves that method at that path.
pub async fn method_not_allowed<E: ErrorBody>(request: Request) -> Response {
    unrouted(request, |parts| {
        ApiError::<E>::method_not_allowed(parts.method.as_str(), parts.uri.path())
    })
}

/// The answer to a request no endpoint takes: `error` in the envelope, with a request id,
/// logged with its path.
fn unrouted<E: ErrorBody>(request: Request, error: impl FnOnce(&Parts) -> ApiError<E>) -> Response {
    let started = log_enabled().then(Instant::now);
    let (mut parts, _body) = request.into_parts();
    let (_, request_id) = request_id(&mut parts);
    let response = failure(request_id, &error(&parts));
    log(&response, "", Some(parts.uri.path()), started);
    response
}

/// A `200` answer with a JSON document (the OpenAPI document, say); no key needed.
pub fn json_document(text: &'static str) -> Response {
    let mut response = Response::new(Body::from(text));
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

fn success<T: serde::Serialize, E: ErrorBody>(request_id: HeaderValue, records: &[T]) -> Response {
    #[derive(serde::Serialize)]
    struct Success<'a, T> {
        success: bool,
        request_id: &'a str,
        data: &'a [T],
    }
    let body = Success {
        success: true,
        request_id: request_id.to_str().unwrap_or_default(),
        data: records,
    };
    // Sized for typical records up front: growing from empty copies the body about ten
    // times on the way to a few kilobytes (measured: `cargo bench -p mrds-bench --bench server`).
    let mut bytes = Vec::with_capacity(128 + 256 * records.len());
    match serde_json::to_writer(&mut bytes, &body) {
        Ok(()) => json(StatusCode::OK, request_id, bytes),
        Err(e) => failure::<E>(request_id, &ApiError::internal(e)),
    }
}

/// The error envelope as an answer: [`error_envelope`] with the status of the error, its
/// headers, and the request id in `x-request-id`; an internal error's detail is logged.
pub(crate) fn failure<E: ErrorBody>(request_id: HeaderValue, error: &ApiError<E>) -> Response {
    let id = request_id.to_str().unwrap_or_default();
    if let Some(detail) = error.internal_detail() {
        tracing::error!(
            request_id = id,
            detail,
            "request failed inside the implementation"
        );
    }
    let bytes = error_envelope(id, error);
    let mut response = json(error.status(), request_id, bytes);
    for (name, value) in error.headers() {
        response.headers_mut().append(name, value.clone());
    }
    response
}

/// [`failure`] with a new request id: an answer the sample server's middleware gives itself
/// (a scenario's status, a refused `Prefer` header).
#[cfg(feature = "mock")]
pub(crate) fn answer_error<E: ErrorBody>(error: &ApiError<E>) -> Response {
    let id = new_request_id();
    let header = HeaderValue::from_str(&id).unwrap_or(HeaderValue::from_static(""));
    failure(header, error)
}

/// The error envelope's JSON, the one definition of its shape: `success: false`, the request
/// id, the error object in `error` and as the one element of `data`. Every error answer is
/// written with it: the router's ([`failure`]) and the connection's own, for a request head
/// refused before any router (`conn/`).
pub(crate) fn error_envelope<E: ErrorBody>(request_id: &str, error: &ApiError<E>) -> Vec<u8> {
    #[derive(serde::Serialize)]
    struct Failure<'a, E> {
        success: bool,
        request_id: &'a str,
        data: [&'a E; 1],
        error: &'a E,
    }
    let object = error.error_object();
    let body = Failure {
        success: false,
        request_id,
        data: [object],
        error: object,
    };
    serde_json::to_vec(&body).unwrap_or_else(|_| {
        br#"{"success":false,"request_id":"","data":[],"error":{"code":"INTERNAL_ERROR","message":"internal error"}}"#
            .to_vec()
    })
}

fn json(status: StatusCode, request_id: HeaderValue, bytes: Vec<u8>) -> Response {
    let mut response = Response::new(Body::from(bytes));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(REQUEST_ID, request_id);
    response
}

/// Logs, at WARN, that the implementation does not serve `endpoint`: the first time it
/// answers `NOT_IMPLEMENTED` in this process, not on every request (each request still has
/// its INFO line, with status 501). Returns whether it logged.
fn not_implemented_once(endpoint: &'static str) -> bool {
    static LOGGED: std::sync::Mutex<std::collections::BTreeSet<&'static str>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    let first = LOGGED
        .lock()
        .map(|mut logged| logged.insert(endpoint))
        .unwrap_or(false);
    if first {
        tracing::warn!(
            endpoint,
            "endpoint not implemented: the implementation leaves its method to the default, which answers 501 NOT_IMPLEMENTED (logged once per endpoint)"
        );
    }
    first
}

fn log_enabled() -> bool {
    tracing::enabled!(tracing::Level::INFO)
}

/// Logs one request: its id, the endpoint (or for a path no endpoint serves, the path, cut
/// at 200 bytes), the status and the duration. Never the query (which may hold anything) nor
/// the key. `started` is `None` when INFO logging is off (nothing to do then).
fn log(response: &Response, endpoint: &str, path: Option<&str>, started: Option<Instant>) {
    let Some(started) = started else {
        return;
    };
    let micros = started.elapsed().as_micros() as u64;
    let status = response.status().as_u16();
    let request_id = response
        .headers()
        .get(&REQUEST_ID)
        .and_then(|id| id.to_str().ok())
        .unwrap_or_default();
    match path {
        None => tracing::info!(request_id, endpoint, status, micros, "request"),
        Some(path) => {
            let mut cut = path.len().min(200);
            while !path.is_char_boundary(cut) {
                cut -= 1;
            }
            let path = &path[..cut];
            tracing::info!(request_id, path, status, micros, "request")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn run<F: Future>(limit: Option<Duration>, future: F) -> Guarded<F::Output> {
        let mut future = std::pin::pin!(future);
        let mut timer = None;
        std::future::poll_fn(|cx| guarded(future.as_mut(), limit, &mut timer, cx)).await
    }

    #[tokio::test]
    async fn a_ready_answer_is_given_even_with_no_time_left() {
        // The answer is polled before any timer: a zero limit does not lose a ready answer.
        assert_eq!(
            run(Some(Duration::ZERO), async { 7 }).await,
            Guarded::Answered(7)
        );
    }

    #[tokio::test]
    async fn an_answer_past_the_limit_is_given_up() {
        let slow = tokio::time::sleep(Duration::from_secs(60));
        let limit = Duration::from_millis(20);
        assert_eq!(run(Some(limit), slow).await, Guarded::TimedOut(limit));
        let quick = async {
            tokio::time::sleep(Duration::from_millis(5)).await;
            "late but in time"
        };
        assert_eq!(
            run(Some(Duration::from_secs(5)), quick).await,
            Guarded::Answered("late but in time")
        );
        // Without a limit, a waiting answer is waited for.
        let waited = async {
            tokio::time::sleep(Duration::from_millis(30)).await;
            1
        };
        assert_eq!(run(None, waited).await, Guarded::Answered(1));
    }

    #[test]
    fn not_implemented_is_logged_once_per_endpoint() {
        assert!(not_implemented_once("pipeline_test_a"));
        assert!(!not_implemented_once("pipeline_test_a"));
        assert!(not_implemented_once("pipeline_test_b"));
    }

    #[tokio::test]
    async fn a_panic_is_caught_at_any_poll() {
        async fn boom() -> u8 {
            panic!("inside the implementation")
        }
        assert_eq!(run(None, boom()).await, Guarded::Panicked);
        let later = async {
            tokio::time::sleep(Duration::from_millis(5)).await;
            boom().await
        };
        assert_eq!(
            run(Some(Duration::from_secs(5)), later).await,
            Guarded::Panicked
        );
    }

    /// A body endpoint written by hand: a parameter `n` and a body `{ "k": <int> }` whose
    /// own check wants `k <= 10`, and a rule reading both wanting `k <= n`.
    mod body {
        use super::*;

        #[derive(Debug, serde::Serialize, serde::Deserialize)]
        pub(super) struct Payload {
            pub(super) k: i64,
        }

        impl BodyRecord for Payload {
            fn check(&self, issues: &mut Issues) {
                issues.range("x.body.k.range", "body.k", Some(self.k), None, Some(10));
            }
        }

        pub(super) struct Params {
            n: i64,
        }

        static ENDPOINT: crate::Endpoint = crate::Endpoint {
            id: "x",
            method: "POST",
            path: "/x",
            summary: "",
            auth: Auth::Optional,
            removed: None,
            idempotent: false,
        };

        impl Params {
            pub(super) fn new(n: i64) -> Result<Self, ValidationError> {
                let mut issues = Issues::new();
                issues.range("x.n.range", "n", Some(n), Some(0), None);
                issues.finish().map(|()| Self { n })
            }
        }

        impl Params_ for Params {
            type Record = Payload;
            const ENDPOINT: &'static crate::Endpoint = &ENDPOINT;
            fn validate(&self) -> Result<(), ValidationError> {
                Ok(())
            }
            fn to_query(&self) -> Vec<(&'static str, String)> {
                Vec::new()
            }
            fn path(&self) -> String {
                "/x".into()
            }
            fn from_raw(_: &RawParams) -> Result<Self, ValidationError> {
                Self::new(0)
            }
        }

        impl WithBody for Params {
            type Body = Payload;
            const BODY_RULE: &'static str = "x.body";
            fn validate_body(&self, body: &Payload) -> Result<(), ValidationError> {
                let mut issues = Issues::new();
                body.check(&mut issues);
                issues.range("x.k_within_n", "body.k", Some(body.k), None, Some(self.n));
                issues.finish()
            }
        }

        use crate::Request as Params_;
    }

    use crate::test_object::Object;

    /// The request head of a `POST` with `headers`, and `limit` as its body limit.
    fn head(headers: &[(&str, &str)], limit: Option<usize>) -> Parts {
        let mut request = axum::http::Request::post("/x");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let (mut parts, ()) = request.body(()).unwrap().into_parts();
        if let Some(limit) = limit {
            parts.extensions.insert(BodyLimit(limit));
        }
        parts
    }

    async fn read(
        headers: &[(&str, &str)],
        limit: Option<usize>,
        text: &str,
    ) -> Result<body::Payload, Object> {
        read_body::<body::Params, Object>(&head(headers, limit), Body::from(text.to_owned()))
            .await
            .map_err(|e| e.error_object().clone())
    }

    const JSON: (&str, &str) = ("content-type", "application/json; charset=utf-8");

    #[tokio::test]
    async fn a_body_is_read_when_it_is_json_within_its_limit() {
        assert_eq!(read(&[JSON], None, r#"{"k": 3}"#).await.unwrap().k, 3);
        // Exactly at a limit set by serve.
        assert_eq!(read(&[JSON], Some(8), r#"{"k": 3}"#).await.unwrap().k, 3);
    }

    #[tokio::test]
    async fn a_body_that_is_not_declared_json_is_415() {
        for headers in [
            &[][..],
            &[("content-type", "text/plain")],
            &[("content-type", "application/jsonx")],
        ] {
            let e = read(headers, None, r#"{"k": 3}"#).await.unwrap_err();
            assert_eq!(e.code, "UNSUPPORTED_MEDIA_TYPE", "{headers:?}");
        }
    }

    #[tokio::test]
    async fn a_body_over_its_limit_is_413_declared_or_not() {
        // Declared too long: refused before reading.
        let e = read(&[JSON, ("content-length", "9")], Some(8), "{\"k\": 33}")
            .await
            .unwrap_err();
        assert_eq!(e.code, "PAYLOAD_TOO_LARGE");
        // Streamed past the limit without a length.
        let e = read(&[JSON], Some(8), r#"{"k": 33}"#).await.unwrap_err();
        assert_eq!(e.code, "PAYLOAD_TOO_LARGE");
        let big = format!(r#"{{"k": 1, "pad": "{}"}}"#, "x".repeat(DEFAULT_BODY_LIMIT));
        let e = read(&[JSON], None, &big).await.unwrap_err();
        assert_eq!(e.code, "PAYLOAD_TOO_LARGE");
    }

    #[tokio::test]
    async fn a_malformed_body_is_400_naming_line_and_column() {
        let e = read(&[JSON], None, "{\n  \"k\": ? }").await.unwrap_err();
        assert_eq!(e.code, "INVALID_PARAMETER");
        let (field, _, reason) = &e.details[0];
        assert_eq!(field, "body");
        assert!(
            reason.starts_with(
                "the request body is not valid JSON at line 2, column 8: expected value"
            ),
            "{reason}"
        );
        assert!(reason.contains("[rule x.body]"), "{reason}");

        let e = read(&[JSON], None, r#"{"k": "3"}"#).await.unwrap_err();
        let reason = &e.details[0].2;
        assert!(reason.starts_with("the request body is not of the body's shape at line 1, column 9: invalid type: string"), "{reason}");
        let e = read(&[JSON], None, "").await.unwrap_err();
        assert!(
            e.details[0]
                .2
                .contains("is not valid JSON at line 1, column 0"),
            "{:?}",
            e.details
        );
    }

    #[test]
    fn the_parameters_and_the_body_are_checked_together() {
        let problems =
            |params, k| match checked::<body::Params, Object>(params, body::Payload { k }) {
                Ok(_) => Vec::new(),
                Err(e) => e
                    .error_object()
                    .details
                    .iter()
                    .map(|d| d.0.clone())
                    .collect::<Vec<_>>(),
            };
        assert!(problems(body::Params::new(5), 4).is_empty());
        // A rule reading a parameter and a field, and the body's own check.
        assert_eq!(problems(body::Params::new(5), 6), ["body.k"]);
        assert_eq!(problems(body::Params::new(20), 11), ["body.k"]);
        // Parameters refused: the body's own problems are reported with theirs.
        assert_eq!(problems(body::Params::new(-1), 11), ["n", "body.k"]);
        assert_eq!(problems(body::Params::new(-1), 1), ["n"]);
    }
}
