//! The generated router's one entry: every request is routed by the runtime's router
//! ([`crate::route`], the one every part of the runtime shares) to its endpoint's handler;
//! the OpenAPI document, unknown paths and methods a path does not answer are answered here,
//! in the envelope.

use std::future::Future;
use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::response::Response;

use super::ApiError;
use super::pipeline::{PathParams, json_document, unrouted};
use crate::ErrorBody;
use crate::api::Endpoint;
use crate::route::{Routed, Routes};

/// The router of a generated server: each request to an endpoint of `endpoints` goes to
/// `handler` with the endpoint's index in `endpoints` (its path parameters in the request's
/// [`PathParams`]); `GET {base_path}/openapi.json` answers `document` when there is one; any
/// other path answers 404 `RESOURCE_NOT_FOUND`, and a method the path's endpoints do not
/// answer 405 with `Allow`, both in the envelope of `E`.
pub fn dispatch<E, H, F>(
    base_path: &'static str,
    endpoints: &'static [Endpoint],
    document: Option<&'static str>,
    handler: H,
) -> Router
where
    E: ErrorBody,
    H: Fn(usize, Request) -> F + Clone + Send + Sync + 'static,
    F: Future<Output = Response> + Send + 'static,
{
    let routes = Arc::new(Routes::new(endpoints));
    let document_path: Option<Arc<str>> =
        document.map(|_| format!("{base_path}/openapi.json").into());
    Router::new().fallback(move |request: Request| {
        let (routes, handler, document_path) =
            (Arc::clone(&routes), handler.clone(), document_path.clone());
        async move {
            let method = request.method().as_str();
            let path = request.uri().path();
            let routed = match (&document_path, document) {
                (Some(at), Some(text)) if path == &**at => match method {
                    "GET" | "HEAD" => return json_document(text),
                    _ => Routed::MethodNotAllowed(vec!["GET", "HEAD"]),
                },
                _ => routes.route(base_path, method, path),
            };
            match routed {
                Routed::Endpoint(matched) => {
                    let params = (matched.params.iter())
                        .map(|(name, segment)| (*name, (*segment).to_owned()))
                        .collect();
                    let index = matched.index;
                    let mut request = request;
                    request.extensions_mut().insert(PathParams(params));
                    handler(index, request).await
                }
                Routed::MethodNotAllowed(allow) => {
                    let allow = HeaderValue::from_str(&allow.join(","))
                        .unwrap_or(HeaderValue::from_static(""));
                    unrouted(request, |parts| {
                        ApiError::<E>::method_not_allowed(parts.method.as_str(), parts.uri.path())
                            .with_header(header::ALLOW, allow)
                    })
                }
                Routed::NotFound => unrouted(request, |parts| {
                    not_found::<E>(parts).with_hint(format!(
                        "every endpoint's path is below {base_path}/; {base_path}/openapi.json lists them"
                    ))
                }),
            }
        }
    })
}

/// The 404 of a request the router sends to no handler of the generated router (the arm its
/// `match` over endpoint indices needs; the router only gives indices of its table).
pub fn unknown_endpoint<E: ErrorBody>(request: Request) -> Response {
    unrouted(request, not_found::<E>)
}

fn not_found<E: ErrorBody>(parts: &axum::http::request::Parts) -> ApiError<E> {
    ApiError::not_found(format!(
        "no endpoint serves {} {}",
        parts.method,
        parts.uri.path()
    ))
}
