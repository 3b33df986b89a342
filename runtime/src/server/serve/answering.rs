//! The service of one connection ([`PerConnection`]): what every request of a server shares
//! attached to it, the router (or the router behind the compression layer) called, and the
//! answer's body tracked for the connection's timers; the answers the socket wrapper is told
//! of (one that leaves the body unread, one that looks like hyper's refusal of a head).

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::Response;
use axum::http::header;
use http_body_util::Either;
use hyper::body::Incoming;
use tower::ServiceExt;
use tower::util::Oneshot;

use super::config::ServeConfig;
use crate::DEFAULT_BODY_LIMIT;
use crate::server::REQUEST_ID_HEADER;
use crate::server::compress::{self, Compressed, CompressedBody, When};
use crate::server::conn::{ConnState, RequestBody, Tracked};
use crate::server::pipeline::{BodyLimit, PeerAddr, RequestTimeout};
use crate::server::rate_limit::RateLimiter;
use crate::server::request_id::{RequestId, is_valid_request_id};

/// What every request of one server shares.
pub(super) struct PerRequest {
    limiter: Option<Arc<RateLimiter>>,
    trust_request_id: bool,
    request_timeout: Option<RequestTimeout>,
    body_limit: Option<BodyLimit>,
}

impl PerRequest {
    pub(super) fn new(config: &ServeConfig) -> Self {
        Self {
            limiter: config.rate_limit.map(|l| Arc::new(RateLimiter::new(l))),
            trust_request_id: config.trust_request_id,
            request_timeout: config.request_timeout.map(RequestTimeout),
            // The routes read the default without an extension on every request.
            body_limit: (config.max_body_bytes != DEFAULT_BODY_LIMIT)
                .then_some(BodyLimit(config.max_body_bytes)),
        }
    }
}

/// The router, and (unless compression is off) the router behind the compression layer, for
/// the requests that accept a compressed answer, with the layer's rule of what to compress.
/// The other requests skip the layer and its cost (over a thousand instructions a request).
#[derive(Clone)]
pub(super) struct ServedRoutes {
    pub(super) plain: Router,
    pub(super) compressed: Option<(Compressed, When)>,
}

/// The body of an answer: as the router made it, or through the compression layer.
type AnswerBody = Either<Body, CompressedBody>;

/// The service of one connection: tells the socket wrapper when a request is being
/// answered, and attaches what the pipeline reads from a request's extensions.
pub(super) struct PerConnection {
    pub(super) routes: ServedRoutes,
    pub(super) state: Arc<ConnState>,
    pub(super) peer: SocketAddr,
    pub(super) shared: Arc<PerRequest>,
}

impl hyper::service::Service<hyper::Request<Incoming>> for PerConnection {
    type Response = Response<Tracked<AnswerBody>>;
    type Error = Infallible;
    type Future = Answering;

    fn call(&self, request: hyper::Request<Incoming>) -> Self::Future {
        self.state.request_started();
        let mut request = request.map(|body| {
            if http_body::Body::is_end_stream(&body) {
                Body::new(body)
            } else {
                // Followed, so that an answer given before it is read closes the connection.
                Body::new(RequestBody::new(body, self.state.clone()))
            }
        });
        if let Some(limiter) = &self.shared.limiter {
            let extensions = request.extensions_mut();
            extensions.insert(limiter.clone());
            extensions.insert(PeerAddr(self.peer));
        }
        if let Some(timeout) = self.shared.request_timeout {
            request.extensions_mut().insert(timeout);
        }
        if let Some(limit) = self.shared.body_limit {
            request.extensions_mut().insert(limit);
        }
        if self.shared.trust_request_id
            && let Some(id) = request
                .headers()
                .get(REQUEST_ID_HEADER)
                .and_then(|v| v.to_str().ok())
                .filter(|id| is_valid_request_id(id))
        {
            let id = RequestId(id.to_string());
            request.extensions_mut().insert(id);
        }
        let state = self.state.clone();
        match &self.routes.compressed {
            Some((compressed, _)) if request.headers().contains_key(header::ACCEPT_ENCODING) => {
                Answering::Compressed {
                    answer: compressed.clone().oneshot(request),
                    state,
                }
            }
            compressed => Answering::Plain {
                answer: self.routes.plain.clone().oneshot(request),
                vary_when: compressed.as_ref().map(|(_, when)| when.clone()),
                state,
            },
        }
    }
}

pin_project_lite::pin_project! {
    /// The answer to one request, its body tracked for the connection's timers.
    #[project = AnsweringProj]
    pub(super) enum Answering {
        Plain {
            #[pin]
            answer: Oneshot<Router, Request>,
            // When compression is on: which answers say `Vary: accept-encoding` (those the
            // layer would have compressed for a client that asked).
            vary_when: Option<When>,
            state: Arc<ConnState>,
        },
        Compressed {
            #[pin]
            answer: Oneshot<Compressed, Request>,
            state: Arc<ConnState>,
        },
    }
}

impl Future for Answering {
    type Output = Result<Response<Tracked<AnswerBody>>, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let (response, state) = match self.project() {
            AnsweringProj::Plain {
                answer,
                vary_when,
                state,
            } => {
                let mut response = ready!(answer.poll(cx))?;
                if let Some(when) = vary_when
                    && compress::should_compress(when, &response)
                {
                    let vary = header::HeaderValue::from_static("accept-encoding");
                    response.headers_mut().append(header::VARY, vary);
                }
                (response.map(Either::Left), state)
            }
            AnsweringProj::Compressed { answer, state } => {
                (ready!(answer.poll(cx))?.map(Either::Right), state)
            }
        };
        let close = state.answer_leaves_body_unread();
        if close || matches!(response.status().as_u16(), 400 | 414 | 431) {
            return Poll::Ready(Ok(told(response, close, state)));
        }
        let state = state.clone();
        Poll::Ready(Ok(response.map(|body| Tracked::new(body, state))))
    }
}

/// An answer the connection's socket wrapper is told of, out of the common path (which this
/// keeps from copying every answer once more). `close`: it leaves the request's body unread,
/// and says `Connection: close` (what the client sends after it is no request, the rest of the
/// body or whatever that holds, and is not read as one). A 400, 414 or 431 that hyper writes
/// as it writes its own refusal of a request head (no body, no header but those hyper adds) is
/// counted, so that the wrapper, which takes such refusals over, lets it through (see
/// `conn/`).
#[cold]
#[inline(never)]
fn told(
    mut response: Response<AnswerBody>,
    close: bool,
    state: &Arc<ConnState>,
) -> Response<Tracked<AnswerBody>> {
    if close {
        let value = header::HeaderValue::from_static("close");
        response.headers_mut().insert(header::CONNECTION, value);
    }
    let like_a_refusal = matches!(response.status().as_u16(), 400 | 414 | 431)
        && http_body::Body::size_hint(response.body()).exact() == Some(0)
        && response.headers().keys().all(|name| {
            name == header::CONNECTION || name == header::CONTENT_LENGTH || name == header::DATE
        });
    if like_a_refusal {
        state.answer_looks_like_a_refusal();
    }
    let state = state.clone();
    response.map(|body| Tracked::new(body, state))
}
