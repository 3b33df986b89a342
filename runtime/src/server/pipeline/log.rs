//! The request log: one INFO line per request, and the WARN line of an endpoint the
//! implementation leaves unimplemented, once.

use std::time::Instant;

use axum::response::Response;

use super::REQUEST_ID;

/// Logs, at WARN, that the implementation does not serve `endpoint`: the first time it
/// answers `NOT_IMPLEMENTED` in this process, not on every request (each request still has
/// its INFO line, with status 501). Returns whether it logged.
pub(super) fn not_implemented_once(endpoint: &'static str) -> bool {
    static LOGGED: std::sync::Mutex<std::collections::BTreeSet<&'static str>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    let first = LOGGED
        .lock()
        .map(|mut logged| logged.insert(endpoint))
        .unwrap_or(false);
    if first {
        tracing::warn!(
            endpoint,
            "endpoint not implemented: the implementation leaves its method to the default, which answers 501 NOT_IMPLEMENTED (logged once per endpoint)"
        );
    }
    first
}

pub(super) fn log_enabled() -> bool {
    tracing::enabled!(tracing::Level::INFO)
}

/// In a request's extensions when a layer around the router logs the request itself (the
/// sample server's, whose line says more: the method, the query, the key, a delay): the
/// pipeline then writes no line of its own.
#[derive(Clone, Copy, Debug)]
pub struct LoggedOutside;

/// When the pipeline logs `request`, the time it started: `None` when INFO logging is off or
/// a layer around the router logs it ([`LoggedOutside`]).
pub(super) fn started<B>(request: &axum::http::Request<B>) -> Option<Instant> {
    (log_enabled() && request.extensions().get::<LoggedOutside>().is_none()).then(Instant::now)
}

/// Logs one request: its id, the endpoint (or for a path no endpoint serves, the path, cut
/// at 200 bytes), the status and the duration. Never the query (which may hold anything) nor
/// the key. `started` is `None` when INFO logging is off (nothing to do then).
pub(super) fn log(
    response: &Response,
    endpoint: &str,
    path: Option<&str>,
    started: Option<Instant>,
) {
    let Some(started) = started else {
        return;
    };
    let micros = started.elapsed().as_micros() as u64;
    let status = response.status().as_u16();
    let request_id = response
        .headers()
        .get(&REQUEST_ID)
        .and_then(|id| id.to_str().ok())
        .unwrap_or_default();
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
