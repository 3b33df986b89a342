//! The request pipeline every generated handler runs: key check, parameter parsing and
//! validation, the call into the implementation, and the envelope around its answer.

use std::fmt;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use axum::body::Body;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::Response;
use futures_util::FutureExt;
use mrds_model::api::{AUTH_HEADER, Auth, Endpoint};
use mrds_model::{Envelope, ErrorCode, ErrorObject, RawParams, Request, ValidationError};
use subtle::ConstantTimeEq;

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

/// A failure an implementation answers with; it becomes the error envelope with the HTTP
/// status of its code.
#[derive(Clone, Debug)]
pub struct ApiError {
    object: Box<ErrorObject>,
    internal: Option<String>,
}

impl ApiError {
    /// An error with `code` and a message for the caller.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            object: Box::new(ErrorObject {
                code,
                message: message.into(),
                details: Vec::new(),
                docs_url: None,
                examples: Vec::new(),
                hint: None,
                suggestions: Vec::new(),
            }),
            internal: None,
        }
    }

    /// `INVALID_PARAMETER` with one detail per problem.
    pub fn invalid(error: &ValidationError) -> Self {
        Self {
            object: Box::new(error.to_error_object()),
            internal: None,
        }
    }

    /// `RESOURCE_NOT_FOUND`: nothing matches where a single thing was asked for.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::ResourceNotFound, message)
    }

    /// `ENDPOINT_REMOVED`, naming when the endpoint went away.
    pub fn removed(endpoint: &Endpoint) -> Self {
        let message = match endpoint.removed {
            Some(r) => format!(
                "{} {} was removed on {} ({})",
                endpoint.method, endpoint.path, r.date, r.version
            ),
            None => format!("{} {} was removed", endpoint.method, endpoint.path),
        };
        Self::new(ErrorCode::EndpointRemoved, message)
    }

    /// `RATE_LIMITED`.
    pub fn rate_limited() -> Self {
        Self::new(ErrorCode::RateLimited, "too many requests")
    }

    /// `INTERNAL_ERROR`. `detail` is logged with the request id and never sent to the caller.
    pub fn internal(detail: impl fmt::Display) -> Self {
        Self {
            internal: Some(detail.to_string()),
            ..Self::new(ErrorCode::InternalError, "internal error")
        }
    }

    /// Adds a suggested fix.
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.object.hint = Some(hint.into());
        self
    }

    /// The error code.
    pub fn code(&self) -> &ErrorCode {
        &self.object.code
    }

    /// The HTTP status of the error code.
    pub fn status(&self) -> StatusCode {
        self.object
            .code
            .http_status()
            .and_then(|s| StatusCode::from_u16(s).ok())
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    /// The error object sent to the caller.
    pub fn error_object(&self) -> &ErrorObject {
        &self.object
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.object.code, self.object.message)
    }
}

impl std::error::Error for ApiError {}

impl From<ValidationError> for ApiError {
    fn from(error: ValidationError) -> Self {
        Self::invalid(&error)
    }
}

/// Decides which API keys are accepted.
pub trait KeyStore: Send + Sync + 'static {
    /// True when `key` is a known key. Implementations should compare in constant time.
    fn accepts(&self, key: &str) -> bool;
}

/// A fixed set of keys, compared in constant time: every key is compared over the same
/// number of bytes (the longest key's length), whatever matches, so neither a key's content
/// nor its length shows in the time an answer takes.
#[derive(Clone)]
pub struct StaticKeys {
    /// Each key zero-padded to the longest one, with its length.
    keys: Vec<(Box<[u8]>, u64)>,
}

impl StaticKeys {
    /// The set of `keys`.
    pub fn new<K: AsRef<str>>(keys: impl IntoIterator<Item = K>) -> Self {
        let keys: Vec<Vec<u8>> = keys
            .into_iter()
            .map(|k| k.as_ref().as_bytes().to_vec())
            .collect();
        let width = keys.iter().map(Vec::len).max().unwrap_or(0);
        Self {
            keys: keys
                .into_iter()
                .map(|mut k| {
                    let len = k.len() as u64;
                    k.resize(width, 0);
                    (k.into_boxed_slice(), len)
                })
                .collect(),
        }
    }
}

impl fmt::Debug for StaticKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StaticKeys({} keys)", self.keys.len())
    }
}

impl KeyStore for StaticKeys {
    fn accepts(&self, key: &str) -> bool {
        let given = key.as_bytes();
        let mut found = subtle::Choice::from(0);
        for (padded, len) in &self.keys {
            let mut same = len.ct_eq(&(given.len() as u64));
            for (i, byte) in padded.iter().enumerate() {
                same &= byte.ct_eq(&given.get(i).copied().unwrap_or(0));
            }
            found |= same;
        }
        found.into()
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

/// Runs one request of endpoint `P`: key check, parsing and validation, the implementation
/// (`call`), and the envelope. Never panics; a panic inside `call` becomes a 500.
pub async fn handle<P, F, Fut>(
    keys: &dyn KeyStore,
    headers: &HeaderMap,
    raw: Result<RawParams, ValidationError>,
    call: F,
) -> Response
where
    P: Request,
    F: FnOnce(RequestContext, P) -> Fut,
    Fut: Future<Output = Result<Vec<P::Record>, ApiError>>,
{
    let started = log_enabled().then(Instant::now);
    let endpoint = P::ENDPOINT;
    let request_id = new_request_id();
    let outcome = async {
        let api_key = check_key(keys, headers, endpoint.auth)?;
        let params = P::from_raw(&raw?)?;
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
        Ok(records) => success(&request_id, &records),
        Err(error) => failure(&request_id, &error),
    };
    log(&request_id, endpoint.id, response.status(), started);
    response
}

/// The parameters of a request: its raw query and the path parameters axum matched. A path
/// that does not decode breaks `rule` of path parameter `field`.
pub fn raw_params<'a>(
    query: Option<&str>,
    path: Result<impl IntoIterator<Item = (&'a str, &'a str)>, String>,
    rule: &'static str,
    field: &'static str,
) -> Result<RawParams, ValidationError> {
    let mut raw = RawParams::from_query_string(query.unwrap_or_default());
    match path {
        Ok(pairs) => {
            for (name, value) in pairs {
                raw = raw.with_path(name, value);
            }
            Ok(raw)
        }
        Err(reason) => Err(ValidationError {
            issues: vec![mrds_model::ValidationIssue::new(
                rule,
                field,
                String::new(),
                reason,
            )],
        }),
    }
}

/// The 404 envelope for a path no endpoint serves.
pub async fn unknown_path(method: Method, uri: Uri) -> Response {
    let started = log_enabled().then(Instant::now);
    let request_id = new_request_id();
    let error = ApiError::not_found(format!("no endpoint serves {method} {}", uri.path()))
        .with_hint("see the endpoint table of the API; every path starts with /api/v1/");
    let response = failure(&request_id, &error);
    log(&request_id, "", response.status(), started);
    response
}

fn check_key(
    keys: &dyn KeyStore,
    headers: &HeaderMap,
    auth: Auth,
) -> Result<Option<String>, ApiError> {
    let unauthorized = |message: &str| {
        ApiError::new(ErrorCode::Unauthorized, message)
            .with_hint(format!("send a valid key in the {AUTH_HEADER} header"))
    };
    static KEY_HEADER: std::sync::LazyLock<Option<HeaderName>> =
        std::sync::LazyLock::new(|| HeaderName::from_bytes(AUTH_HEADER.as_bytes()).ok());
    let given = match &*KEY_HEADER {
        Some(name) => headers.get(name),
        None => headers.get(AUTH_HEADER),
    };
    match given {
        None if auth == Auth::Required => Err(unauthorized("missing API key")),
        None => Ok(None),
        Some(value) => match value.to_str() {
            Ok(key) if keys.accepts(key) => Ok(Some(key.to_string())),
            _ => Err(unauthorized("unknown API key")),
        },
    }
}

fn success<T: serde::Serialize>(request_id: &str, records: &[T]) -> Response {
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
        Err(e) => failure(request_id, &ApiError::internal(e)),
    }
}

fn failure(request_id: &str, error: &ApiError) -> Response {
    if let Some(detail) = &error.internal {
        tracing::error!(
            request_id,
            detail,
            "request failed inside the implementation"
        );
    }
    let object = (*error.object).clone();
    let envelope = Envelope {
        success: false,
        request_id: request_id.to_string(),
        data: vec![object.clone()],
        error: Some(object),
        metadata: None,
        pagination: None,
    };
    let bytes = serde_json::to_vec(&envelope).unwrap_or_else(|_| {
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
