//! The request pipeline every generated route runs: key check, parameter parsing and
//! validation, the call into the implementation, and the envelope around its answer.

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::task::Poll;
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
use crate::{Auth, ErrorBody, RawParams, Request as Params, ValidationError, ValidationIssue};

/// The response header carrying the request id.
pub const REQUEST_ID_HEADER: &str = "x-request-id";

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
    pub async fn handle<P, E, F, Fut>(
        &self,
        request: Request,
        path: Option<PathRule>,
        call: F,
    ) -> Response
    where
        P: Params,
        E: ErrorBody,
        F: FnOnce(RequestContext, P) -> Fut,
        Fut: Future<Output = Result<Vec<P::Record>, ApiError<E>>>,
    {
        let started = log_enabled().then(Instant::now);
        let endpoint = P::ENDPOINT;
        let (mut parts, _body) = request.into_parts();
        let request_id = request_id(&mut parts);
        let timeout = parts.extensions.get::<RequestTimeout>().copied();
        let outcome = async {
            let api_key = self.admit(&parts, endpoint.auth)?;
            let raw = raw_params(&mut parts, path).await?;
            let params = P::from_raw(&raw)?;
            let ctx = RequestContext {
                request_id: request_id.clone(),
                api_key,
            };
            let answer = AssertUnwindSafe(call(ctx, params)).catch_unwind();
            let answer = match timeout {
                Some(RequestTimeout(limit)) => match within(limit, answer).await {
                    Some(answer) => answer,
                    None => {
                        return Err(ApiError::of_kind(
                            crate::ErrorKind::InternalError,
                            format!(
                                "the request did not finish within {} s",
                                limit.as_secs_f64()
                            ),
                        )
                        .with_hint("try again later, or ask for less (a shorter range)"));
                    }
                },
                None => answer.await,
            };
            match answer {
                Ok(answer) => answer,
                Err(_) => Err(ApiError::internal("the implementation panicked")),
            }
        }
        .await;
        let response = match outcome {
            Ok(records) => success::<_, E>(&request_id, &records),
            Err(error) => failure(&request_id, &error),
        };
        log(&request_id, endpoint.id, None, response.status(), started);
        response
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

/// `future`'s output, or `None` when it has not finished `limit` after the call: like
/// `tokio::time::timeout`, except that the timer is only registered when `future` is not
/// ready at its first poll. An implementation answering at once (from memory, say) then pays
/// for no timer: registering and cancelling one cost about 0.7 µs per request in
/// `bench/server.sh`, some 4 % of a request.
async fn within<F: Future>(limit: Duration, future: F) -> Option<F::Output> {
    let deadline = tokio::time::Instant::now() + limit;
    let mut future = std::pin::pin!(future);
    let mut timer = std::pin::pin!(None::<tokio::time::Sleep>);
    std::future::poll_fn(|cx| {
        if let Poll::Ready(output) = future.as_mut().poll(cx) {
            return Poll::Ready(Some(output));
        }
        if timer.is_none() {
            timer.set(Some(tokio::time::sleep_until(deadline)));
        }
        match timer.as_mut().as_pin_mut().map(|t| t.poll(cx)) {
            Some(Poll::Ready(())) => Poll::Ready(None),
            _ => Poll::Pending,
        }
    })
    .await
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
/// new one.
fn request_id(parts: &mut Parts) -> String {
    match parts.extensions.remove::<RequestId>() {
        Some(RequestId(id)) => id,
        None => new_request_id(),
    }
}

/// The parameters of a request: its raw query and the path parameters the router matched.
async fn raw_params(
    parts: &mut axum::http::request::Parts,
    path: Option<PathRule>,
) -> Result<RawParams, ValidationError> {
    let mut raw = RawParams::from_query_string(parts.uri.query().unwrap_or_default());
    let Some(rule) = path else {
        return Ok(raw);
    };
    match RawPathParams::from_request_parts(parts, &()).await {
        Ok(pairs) => {
            for (name, value) in &pairs {
                raw = raw.with_path(name, value);
            }
            Ok(raw)
        }
        Err(rejection) => Err(ValidationError {
            issues: vec![ValidationIssue::new(
                rule.rule,
                rule.field,
                String::new(),
                rejection.body_text(),
            )],
        }),
    }
}

/// The 404 envelope for a path no endpoint serves (the router's fallback).
pub async fn unknown_path<E: ErrorBody>(request: Request) -> Response {
    unrouted(request, |parts| {
        ApiError::<E>::not_found(format!(
            "no endpoint serves {} {}",
            parts.method,
            parts.uri.path()
        ))
        .with_hint("see the endpoint table of the API; every path starts with /api/v1/")
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
    let request_id = request_id(&mut parts);
    let response = failure(&request_id, &error(&parts));
    log(
        &request_id,
        "",
        Some(parts.uri.path()),
        response.status(),
        started,
    );
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

fn success<T: serde::Serialize, E: ErrorBody>(request_id: &str, records: &[T]) -> Response {
    #[derive(serde::Serialize)]
    struct Success<'a, T> {
        success: bool,
        request_id: &'a str,
        data: &'a [T],
    }
    let body = Success {
        success: true,
        request_id,
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

/// The error envelope: `success: false`, the request id, the error object in `error` and as
/// the one element of `data`.
pub(crate) fn failure<E: ErrorBody>(request_id: &str, error: &ApiError<E>) -> Response {
    #[derive(serde::Serialize)]
    struct Failure<'a, E> {
        success: bool,
        request_id: &'a str,
        data: [&'a E; 1],
        error: &'a E,
    }
    if let Some(detail) = error.internal_detail() {
        tracing::error!(
            request_id,
            detail,
            "request failed inside the implementation"
        );
    }
    let object = error.error_object();
    let body = Failure {
        success: false,
        request_id,
        data: [object],
        error: object,
    };
    let bytes = serde_json::to_vec(&body).unwrap_or_else(|_| {
        br#"{"success":false,"request_id":"","data":[],"error":{"code":"INTERNAL_ERROR","message":"internal error"}}"#
            .to_vec()
    });
    let mut response = json(error.status(), request_id, bytes);
    for (name, value) in error.headers() {
        response.headers_mut().append(name, value.clone());
    }
    response
}

fn json(status: StatusCode, request_id: &str, bytes: Vec<u8>) -> Response {
    let mut response = Response::new(Body::from(bytes));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    if let Ok(id) = HeaderValue::from_str(request_id) {
        headers.insert(HeaderName::from_static(REQUEST_ID_HEADER), id);
    }
    response
}

fn log_enabled() -> bool {
    tracing::enabled!(tracing::Level::INFO)
}

/// Logs one request: its id, the endpoint (or for a path no endpoint serves, the path, cut
/// at 200 bytes), the status and the duration. Never the query (which may hold anything) nor
/// the key. `started` is `None` when INFO logging is off (nothing to do then).
fn log(
    request_id: &str,
    endpoint: &str,
    path: Option<&str>,
    status: StatusCode,
    started: Option<Instant>,
) {
    let Some(started) = started else {
        return;
    };
    let micros = started.elapsed().as_micros() as u64;
    let status = status.as_u16();
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

    #[tokio::test]
    async fn within_gives_a_ready_answer_even_with_no_time_left() {
        // The answer is polled before any timer: a zero limit does not lose a ready answer.
        assert_eq!(within(Duration::ZERO, async { 7 }).await, Some(7));
    }

    #[tokio::test]
    async fn within_gives_up_on_an_answer_past_the_limit() {
        let slow = tokio::time::sleep(Duration::from_secs(60));
        assert_eq!(within(Duration::from_millis(20), slow).await, None);
        let quick = async {
            tokio::time::sleep(Duration::from_millis(5)).await;
            "late but in time"
        };
        assert_eq!(
            within(Duration::from_secs(5), quick).await,
            Some("late but in time")
        );
    }
}
