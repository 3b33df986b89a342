//! The request pipeline every generated route runs: key check, parameter parsing and
//! validation, the call into the implementation, and the envelope around its answer.
//!
//! The routes' entry points ([`Shared::handle`], [`Shared::handle_with_body`]) and what a
//! request carries are here; the implementation's answer on its way into the envelope in
//! `handled.rs`, reading a body in `body.rs`, the envelopes and the router's fallbacks in
//! `answer.rs`, the request log in `log.rs`.

mod answer;
mod body;
mod handled;
mod log;
#[cfg(test)]
mod tests;

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderName, HeaderValue, header};
use axum::response::Response;

use super::rate_limit::{Caller, RateLimiter};
use super::request_id::{RequestId, new_request_id};
use super::{KeyStore, ServerError};
use crate::{Auth, ErrorBody, RawParams, Request as Params, WithBody};

#[cfg(feature = "mock")]
pub(crate) use answer::answer_error;
pub(crate) use answer::error_envelope;
pub use answer::json_document;
pub(crate) use answer::unrouted;
#[cfg(feature = "proxy")]
pub(crate) use body::{Unread, declares_json, read_limited};
use body::{checked, read_body};
use handled::Handled;
#[cfg(feature = "mock")]
pub(crate) use log::LoggedOutside;

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

/// The path parameters the router matched, still percent-encoded: the request's extension
/// the pipeline reads them from ([`dispatch`](super::dispatch) puts them there).
#[derive(Clone, Debug, Default)]
pub struct PathParams(pub Vec<(&'static str, String)>);

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
    /// becomes a 500. The path parameters are those the router matched ([`PathParams`]).
    ///
    /// Everything before the call into the implementation happens here, at once; the future
    /// returned holds only the implementation's future and what the envelope needs (the
    /// request is gone by then), which keeps the future each route boxes small.
    pub fn handle<P, E, F, Fut>(
        &self,
        request: Request,
        call: F,
    ) -> impl Future<Output = Response> + use<S, K, P, E, F, Fut>
    where
        P: Params,
        E: ErrorBody,
        F: FnOnce(RequestContext, P) -> Fut,
        Fut: Future<Output = Result<Vec<P::Record>, ServerError<E>>>,
    {
        let started = log::started(&request);
        let (mut parts, _body) = request.into_parts();
        let (request_id, header) = request_id(&mut parts);
        let admitted = self.admit(&parts, P::ENDPOINT.auth).and_then(|api_key| {
            let raw = raw_params(&parts);
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
    ///
    /// [`DEFAULT_BODY_LIMIT`]: crate::DEFAULT_BODY_LIMIT
    pub async fn handle_with_body<P, E, F, Fut>(&self, request: Request, call: F) -> Response
    where
        P: WithBody,
        E: ErrorBody,
        F: FnOnce(RequestContext, P, P::Body) -> Fut,
        Fut: Future<Output = Result<Vec<P::Record>, ServerError<E>>>,
    {
        let started = log::started(&request);
        let (mut parts, body) = request.into_parts();
        let (request_id, header) = request_id(&mut parts);
        let admitted = match self.admit(&parts, P::ENDPOINT.auth) {
            Ok(api_key) => read_body::<P, E>(&parts, body).await.and_then(|body| {
                let params = P::from_raw(&raw_params(&parts));
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
    ) -> Result<Option<String>, ServerError<E>> {
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
                return Err(ServerError::rate_limited_for(retry_after));
            }
        }
        checked
    }

    fn check_key<E: ErrorBody>(
        &self,
        headers: &HeaderMap,
        auth: Auth,
    ) -> Result<Option<String>, ServerError<E>> {
        let unauthorized = |message: String| {
            ServerError::of_kind(crate::ErrorKind::Unauthorized, message)
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

/// The largest request body a route reads, in bytes, in a request's extensions when
/// [`serve`](super::serve) has a [`max_body_bytes`](super::ServeConfig::max_body_bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyLimit(pub usize);

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

/// The parameters of a request: its raw query and the path parameters the router matched
/// ([`PathParams`], decoded here: a segment that is not UTF-8 once decoded is reported by the
/// parameter's type check).
fn raw_params(parts: &Parts) -> RawParams {
    let mut raw = RawParams::from_query_string(parts.uri.query().unwrap_or_default());
    if let Some(PathParams(pairs)) = parts.extensions.get::<PathParams>() {
        for (name, segment) in pairs {
            raw = raw.with_encoded_path(name, segment);
        }
    }
    raw
}
