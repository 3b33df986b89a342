//! The generated router's one entry: every request is routed by the runtime's router
//! ([`crate::route`], the one every part of the runtime shares) to its endpoint's handler;
//! the OpenAPI document, unknown paths and methods a path does not answer are answered here,
//! in the envelope.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::response::Response;

use super::ServerError;
use super::pipeline::{PathParams, json_document, unrouted};
use crate::ErrorBody;
use crate::api::Endpoint;
use crate::route::{Routed, Routes};

/// The answer of one request to a handler of [`dispatch`]: the handler's own future, boxed,
/// so that each request allocates what its endpoint's answer needs and no more (one future
/// over every endpoint would be as large as the largest, an allocation malloc makes slowly).
pub type Answer = Pin<Box<dyn Future<Output = Response> + Send>>;

/// The router of a generated server: each request to an endpoint of `endpoints` goes to
/// `handler` with the endpoint's index in `endpoints` (its path parameters in the request's
/// [`PathParams`]); `GET {base_path}/openapi.json` answers `document` when there is one; any
/// other path answers 404 `RESOURCE_NOT_FOUND`, and a method the path's endpoints do not
/// answer 405 with `Allow`, both in the envelope of `E`. The request is routed before the
/// answer's future exists, which holds only the handler's.
pub fn dispatch<E, H>(
    base_path: &'static str,
    endpoints: &'static [Endpoint],
    document: Option<&'static str>,
    handler: H,
) -> Router
where
    E: ErrorBody,
    H: Fn(usize, Request) -> Answer + Clone + Send + Sync + 'static,
{
    let routes = Arc::new(Routes::new(endpoints));
    let document_path: Option<Arc<str>> =
        document.map(|_| format!("{base_path}/openapi.json").into());
    let router = Router::new().fallback(move |mut request: Request| {
        let ready = |response: Response| -> Answer { Box::pin(std::future::ready(response)) };
        let method = request.method().as_str();
        let path = request.uri().path();
        let routed = match (&document_path, document) {
            (Some(at), Some(text)) if path == &**at => match method {
                "GET" | "HEAD" => return ready(json_document(text)),
                _ => Routed::MethodNotAllowed(vec!["GET", "HEAD"]),
            },
            _ => routes.route(base_path, method, path),
        };
        match routed {
            Routed::Endpoint(matched) => {
                let index = matched.index;
                if !matched.params.is_empty() {
                    let params = (matched.params.iter())
                        .map(|(name, segment)| (*name, (*segment).to_owned()))
                        .collect();
                    request.extensions_mut().insert(PathParams(params));
                }
                handler(index, request)
            }
            Routed::MethodNotAllowed(allow) => {
                let allow =
                    HeaderValue::from_str(&allow.join(",")).unwrap_or(HeaderValue::from_static(""));
                ready(unrouted(request, |parts| {
                    ServerError::<E>::method_not_allowed(parts.method.as_str(), parts.uri.path())
                        .with_header(header::ALLOW, allow)
                }))
            }
            Routed::NotFound => ready(unrouted(request, |parts| {
                not_found::<E>(parts).with_hint(format!(
                    "every endpoint's path is below {base_path}/; {base_path}/openapi.json lists them"
                ))
            })),
        }
    });
    // The handler made a route once, here, rather than on every request (axum makes the
    // handlers of a router that still takes its state into routes on each call).
    router.with_state(())
}

/// The 404 of a request the router sends to no handler of the generated router (the arm its
/// `match` over endpoint indices needs; the router only gives indices of its table).
pub fn unknown_endpoint<E: ErrorBody>(request: Request) -> Response {
    unrouted(request, not_found::<E>)
}

fn not_found<E: ErrorBody>(parts: &axum::http::request::Parts) -> ServerError<E> {
    ServerError::not_found(format!(
        "no endpoint serves {} {}",
        parts.method,
        parts.uri.path()
    ))
}
