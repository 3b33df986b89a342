//! The HTTP side of one attempt, the same for every endpoint: the request, redirects followed
//! within one origin, the head and the whole body read within the attempt's timeout, and
//! whether a failure may be retried.

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use http::Uri;
use http::header::{
    ACCEPT, CONTENT_TYPE, HeaderName, HeaderValue, LOCATION, RETRY_AFTER, USER_AGENT,
};
use http_body_util::{BodyExt, Full};

use super::redirect::redirect_target;
use super::{Payload, Transport};
use crate::client::error::{TransportError, TransportKind, UndecodableError};
use crate::client::{MAX_REDIRECTS, REQUEST_ID_HEADER};

/// The header naming a call that is not idempotent, so that the service can tell a repeat.
const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

/// Whether, and after how long, a failed attempt may be tried again.
pub(super) enum Retry {
    /// Not retried: the answer stands.
    No,
    /// Retried if the policy and the deadline allow; `Some` is the service's `Retry-After`.
    After(Option<Duration>),
}

/// The HTTP side of one attempt under way: the head and the whole body, or why not.
type Fetching<'a> = Pin<Box<dyn Future<Output = Result<(Head, Vec<u8>), Lost>> + Send + 'a>>;

/// An attempt that got no complete answer: why, and whether it may be retried.
pub(super) struct Lost {
    pub(super) error: LostError,
    pub(super) retry: Retry,
}

pub(super) enum LostError {
    /// No complete head.
    Transport(TransportError),
    /// The body ended early.
    Truncated(UndecodableError),
}

/// What the head of a response said, for decoding and for the error.
pub(super) struct Head {
    pub(super) status: u16,
    pub(super) retry_after: Option<Duration>,
    pub(super) location: Option<String>,
    pub(super) request_id: Option<String>,
}

impl Transport {
    /// The HTTP side of one attempt, the same for every endpoint: send, then read the head
    /// and the whole body within the attempt's timeout (`capped`: it is the time left before
    /// the call's deadline).
    ///
    /// Boxed here, in a function that is not generic, so that the HTTP stack's futures are
    /// compiled once, in this crate, instead of in every crate that instantiates a call for
    /// its endpoints (the generated client's build time).
    pub(super) fn fetch<'a>(
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
                error.cut_short = true;
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
                .then(|| redirect_target(&target, &resp, payload.method != crate::Method::Get))
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
        *request.method_mut() = payload.method.into();
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
}

/// A `Retry-After` value: delay-seconds, or an HTTP date (the wait until then from `now`,
/// zero when it has passed). Anything else is ignored.
pub(super) fn parse_retry_after(text: &str, now: SystemTime) -> Option<Duration> {
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
