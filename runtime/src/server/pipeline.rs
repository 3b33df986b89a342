//! The request pipeline every generated route runs: key check, parameter parsing and
//! validation, the call into the implementation, and the envelope around its answer.

use std::fmt;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use axum::body::Body;
use axum::extract::{FromRequestParts, RawPathParams, Request};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::Response;
use futures_util::FutureExt;

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
        }
    }

    /// Runs one request of endpoint `P`: key check, parsing and validation, the
    /// implementation (`call`), and the envelope. Never panics; a panic inside `call`
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
        let request_id = new_request_id();
        let (mut parts, _body) = request.into_parts();
        let outcome = async {
            let api_key = self.check_key(&parts.headers, endpoint.auth)?;
            let raw = raw_params(&mut parts, path).await?;
            let params = P::from_raw(&raw)?;
            let ctx = RequestContext {
                request_id: request_id.clone(),
                api_key,
            };
            match AssertUnwindSafe(call(ctx, params)).catch_unwind().await {
                Ok(answer) => answer,
                Err(_) => Err(ApiError::internal("the implementation panicked")),
            }
        }
        .await;
        let response = match outcome {
            Ok(records) => success::<_, E>(&request_id, &records),
            Err(error) => failure(&request_id, &error),
        };
        log(&request_id, endpoint.id, response.status(), started);
        response
    }

    fn check_key<E: ErrorBody>(
        &self,
        headers: &HeaderMap,
        auth: Auth,
    ) -> Result<Option<String>, ApiError<E>> {
        let unauthorized = |message: &str| {
            ApiError::of_kind(crate::ErrorKind::Unauthorized, message).with_hint(format!(
                "send a valid key in the {} header",
                self.auth_header
            ))
        };
        match headers.get(&self.auth_header) {
            None if auth == Auth::Required => Err(unauthorized("missing API key")),
            None => Ok(None),
            Some(value) => match value.to_str() {
                Ok(key) if self.keys.accepts(key) => Ok(Some(key.to_string())),
                _ => Err(unauthorized("unknown API key")),
            },
        }
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

/// A new request id (`req_` and 20 hex digits): unique within the process, not guessable
/// across restarts.
pub fn new_request_id() -> String {
    static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let seed = *SEED.get_or_init(|| {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or_default();
        nanos ^ (u64::from(std::process::id()) << 32)
    });
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    // 48 bits of the seed, then 32 bits of the counter, as hex.
    let value = (u128::from(seed & 0xffff_ffff_ffff) << 32) | u128::from(n as u32);
    let mut id = String::with_capacity(24);
    id.push_str("req_");
    for shift in (0..20).rev() {
        let digit = ((value >> (shift * 4)) & 0xf) as u32;
        id.push(char::from_digit(digit, 16).unwrap_or('0'));
    }
    id
}

/// The 404 envelope for a path no endpoint serves.
pub async fn unknown_path<E: ErrorBody>(method: Method, uri: Uri) -> Response {
    let started = log_enabled().then(Instant::now);
    let request_id = new_request_id();
    let error = ApiError::<E>::not_found(format!("no endpoint serves {method} {}", uri.path()))
        .with_hint("see the endpoint table of the API; every path starts with /api/v1/");
    let response = failure(&request_id, &error);
    log(&request_id, "", response.status(), started);
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
    match serde_json::to_vec(&body) {
        Ok(bytes) => json(StatusCode::OK, request_id, bytes),
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
    json(error.status(), request_id, bytes)
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

/// Logs one request; `started` is `None` when INFO logging is off (nothing to do then).
fn log(request_id: &str, endpoint: &str, status: StatusCode, started: Option<Instant>) {
    let Some(started) = started else {
        return;
    };
    tracing::info!(
        request_id,
        endpoint,
        status = status.as_u16(),
        micros = started.elapsed().as_micros() as u64,
        "request"
    );
}
