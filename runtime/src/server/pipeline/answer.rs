//! The answers: the success and error envelopes (the one definition of the error envelope's
//! shape), the answer to a request no endpoint takes, and JSON documents.

use axum::body::Body;
use axum::extract::Request;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;

use super::log::{log, started};
use super::{REQUEST_ID, request_id};
use crate::ErrorBody;
use crate::server::ServerError;
#[cfg(feature = "mock")]
use crate::server::request_id::new_request_id;

/// The answer to a request no endpoint takes: `error` in the envelope, with a request id,
/// logged with its path.
pub(crate) fn unrouted<E: ErrorBody>(
    request: Request,
    error: impl FnOnce(&Parts) -> ServerError<E>,
) -> Response {
    let started = started(&request);
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

pub(super) fn success<T: serde::Serialize, E: ErrorBody>(
    request_id: HeaderValue,
    records: &[T],
) -> Response {
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
        Err(e) => failure::<E>(request_id, &ServerError::internal(e)),
    }
}

/// The error envelope as an answer: [`error_envelope`] with the status of the error, its
/// headers, and the request id in `x-request-id`; an internal error's detail is logged.
pub(crate) fn failure<E: ErrorBody>(request_id: HeaderValue, error: &ServerError<E>) -> Response {
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
pub(crate) fn answer_error<E: ErrorBody>(error: &ServerError<E>) -> Response {
    let id = new_request_id();
    let header = HeaderValue::from_str(&id).unwrap_or(HeaderValue::from_static(""));
    failure(header, error)
}

/// The error envelope's JSON, the one definition of its shape: `success: false`, the request
/// id, the error object in `error` and as the one element of `data`. Every error answer is
/// written with it: the router's ([`failure`]) and the connection's own, for a request head
/// refused before any router (`conn/`).
pub(crate) fn error_envelope<E: ErrorBody>(request_id: &str, error: &ServerError<E>) -> Vec<u8> {
    #[derive(serde::Serialize)]
    struct ErrorEnvelope<'a, E> {
        success: bool,
        request_id: &'a str,
        data: [&'a E; 1],
        error: &'a E,
    }
    let object = error.error_object();
    let body = ErrorEnvelope {
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
