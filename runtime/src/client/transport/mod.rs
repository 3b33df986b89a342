//! Sending requests: validation, retries within a deadline, decoding, tracing.
//!
//! [`Transport`] and its methods of the API are here (but `stream_all`, with the stream it
//! makes in `client/paging.rs`); the attempts of one call and their retries in `call.rs`, the
//! HTTP side of one attempt in `exchange.rs` (redirects in `redirect.rs`), turning an answer
//! into records or an error in `decode.rs`.

mod call;
mod decode;
mod exchange;
mod partial;
mod redirect;
#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::Uri;
use http::header::{HeaderName, HeaderValue};

use super::RetryPolicy;
use super::error::Error;
use super::response::Response;
use super::stack::Http;
use crate::drift::Drift;
use crate::shapes::Shapes;
use crate::text::percent_encode;
use crate::{ErrorBody, Request, ValidationError, WithBody};

#[doc(hidden)]
pub use decode::{decode_body, decode_body_with};
pub use partial::Page;
pub(crate) use partial::Undecodable;

/// What one call sends besides its URL: its method, a JSON body, and whether its attempts may
/// be repeated after one that may have reached the service (a timeout, a reset, an answer
/// asking to retry).
struct Payload {
    method: crate::Method,
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
    inner: Arc<TransportSettings>,
}

pub(crate) struct TransportSettings {
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
    pub(crate) undecodable: partial::Undecodable,
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
            .field("undecodable", &inner.undecodable)
            .finish()
    }
}

impl Transport {
    pub(crate) fn new(inner: TransportSettings) -> Self {
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
    ///
    /// [`Finding`]: crate::drift::Finding
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
                method: P::ENDPOINT.method,
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
            method: P::ENDPOINT.method,
            body: None,
            repeatable: P::ENDPOINT.idempotent,
        };
        self.call_with(params, params.validate(), payload).await
    }
}
