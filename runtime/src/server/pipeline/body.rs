//! Reading a request's JSON body: declared JSON, within its limit, parsed with the position
//! of a problem, then checked with the parameters.

use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};

use super::BodyLimit;
use crate::server::ServerError;
use crate::{
    BodyRecord, DEFAULT_BODY_LIMIT, ErrorBody, Issues, ValidationError, ValidationIssue, WithBody,
};

/// True when `headers` declare a JSON body (`Content-Type: application/json`, whatever its
/// parameters).
pub(crate) fn declares_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"))
}

/// Why a body was not read whole: [`read_limited`].
pub(crate) enum Unread {
    /// Longer than the limit, as declared or as read.
    TooLarge,
    /// The body failed while it was read (the connection's error).
    Failed(Box<dyn std::error::Error + Send + Sync>),
}

/// Reads a body (a request's, or an answer's) to its end, at most `limit` bytes: refused
/// before a byte is read when its `headers` declare a longer `Content-Length`.
pub(crate) async fn read_limited<B>(
    headers: &HeaderMap,
    body: B,
    limit: usize,
) -> Result<axum::body::Bytes, Unread>
where
    B: http_body::Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    use http_body_util::BodyExt;

    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(Unread::TooLarge);
    }
    match http_body_util::Limited::new(body, limit).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Err(Unread::TooLarge),
        Err(e) => Err(Unread::Failed(e)),
    }
}

/// The body of a request of `P`: declared JSON, within its limit, parsed as `P::Body`.
pub(super) async fn read_body<P: WithBody, E: ErrorBody>(
    parts: &Parts,
    body: Body,
) -> Result<P::Body, ServerError<E>> {
    if !declares_json(&parts.headers) {
        return Err(ServerError::of_kind(
            crate::ErrorKind::UnsupportedMediaType,
            "the request body must be JSON",
        )
        .with_hint("send the body with `Content-Type: application/json`"));
    }
    let limit = parts
        .extensions
        .get::<BodyLimit>()
        .map_or(DEFAULT_BODY_LIMIT, |l| l.0);
    let bytes = match read_limited(&parts.headers, body, limit).await {
        Ok(bytes) => bytes,
        Err(Unread::TooLarge) => {
            return Err(ServerError::of_kind(
                crate::ErrorKind::PayloadTooLarge,
                format!("the request body is larger than {limit} bytes"),
            )
            .with_hint("send a smaller body"));
        }
        Err(Unread::Failed(e)) => {
            return Err(ServerError::of_kind(
                crate::ErrorKind::InvalidParameter,
                format!("the request body could not be read: {e}"),
            ));
        }
    };
    serde_json::from_slice::<P::Body>(&bytes).map_err(|e| {
        let what = if e.is_syntax() || e.is_eof() {
            "is not valid JSON"
        } else {
            "is not of the body's shape"
        };
        let reason = format!(
            "the request body {what} at line {}, column {}: {}",
            e.line(),
            e.column(),
            json_problem(&e)
        );
        ServerError::invalid(&ValidationError {
            issues: vec![ValidationIssue::new(
                P::BODY_RULE,
                "body",
                String::new(),
                reason,
            )],
        })
    })
}

/// serde_json's message without its own `at line L column C` (the reason says where).
fn json_problem(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    text.strip_suffix(&suffix).unwrap_or(&text).to_string()
}

/// The parameters (as parsed) and the body, checked together: every problem of both at once.
pub(super) fn checked<P: WithBody, E: ErrorBody>(
    params: Result<P, ValidationError>,
    body: P::Body,
) -> Result<(P, P::Body), ServerError<E>> {
    match params {
        Ok(params) => match params.validate_body(&body) {
            Ok(()) => Ok((params, body)),
            Err(error) => Err(ServerError::invalid(&error)),
        },
        Err(mut error) => {
            let mut issues = Issues::new();
            body.check(&mut issues);
            error.issues.extend(issues.as_slice().iter().cloned());
            Err(ServerError::invalid(&error))
        }
    }
}
