//! Forwarding one request: its body read within the limit, the spec's judgement of it, the
//! exchange with the service within the limits, the check, and the answer passed on as it
//! came (or a bare 502 or 504, or the spec's envelope, when there is none).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, Uri};
use axum::response::Response;
use http_body_util::Full;

use super::Proxy;
use super::check::ProxiedRequest;
use super::har::HarEntry;
use super::wire::{answer_of, bare, forwarded_headers};
use crate::RawParams;
use crate::client::TransportError;
use crate::drift::cut;
use crate::judge::Judgement;
use crate::server::{REQUEST_ID_HEADER, Unread, declares_json, read_limited};

impl Proxy {
    /// The answer of the spec's error object for `status` (when a code of the spec has it),
    /// else `status` with an empty body.
    fn refuse(&self, status: u16, message: String, hint: &str) -> Response {
        self.app
            .errors
            .answer(status, message, hint.to_string(), None)
            .unwrap_or_else(|| bare(status))
    }
}

/// How an exchange with the service failed.
enum ForwardFailure {
    /// Connecting, sending, reading (its message names the service's URL, without the query).
    Transport(TransportError),
    /// An answer over the limit.
    TooLarge(usize),
    /// No whole answer within the time.
    TimedOut(Duration),
    /// The service's URL and the request's target make no URL.
    Target(String),
}

/// Forwards one request and checks the exchange.
pub(super) async fn forward(State(proxy): State<Arc<Proxy>>, request: Request) -> Response {
    let started = Instant::now();
    let started_at = std::time::SystemTime::now();
    let (parts, body) = request.into_parts();
    let matched = proxy.endpoint_of(&parts.method, parts.uri.path());
    let body = match read_request_body(&proxy, &parts, body).await {
        Ok(body) => body,
        Err(refused) => return refused,
    };
    let judgement = match &matched {
        Some(m) if m.endpoint.removed.is_none() => match m.check {
            Some(check) => {
                let mut raw = RawParams::from_query_string(parts.uri.query().unwrap_or_default());
                for (name, segment) in &m.path_params {
                    raw = raw.with_encoded_path(name, segment);
                }
                let json = declares_json(&parts.headers).then_some(&body[..]);
                check.judge(&raw, json)
            }
            None => Judgement::NotJudged,
        },
        _ => Judgement::NotJudged,
    };
    let endpoint_id = matched.as_ref().map(|m| m.endpoint.id);
    proxy.forwarded.fetch_add(1, Ordering::Relaxed);
    let answer = exchange(&proxy, &parts, body.clone()).await;
    let (head, bytes) = match answer {
        Ok(answer) => answer,
        Err(failure) => {
            proxy.failed.fetch_add(1, Ordering::Relaxed);
            let (status, message) = match failure {
                ForwardFailure::Transport(e) => (502, e.to_string()),
                ForwardFailure::TooLarge(limit) => (
                    502,
                    format!("the service's answer is larger than {limit} bytes"),
                ),
                ForwardFailure::Target(why) => (
                    502,
                    format!("the request's target makes no URL of the service: {why}"),
                ),
                ForwardFailure::TimedOut(limit) => (
                    504,
                    format!(
                        "the service gave no whole answer within {} s",
                        limit.as_secs_f64()
                    ),
                ),
            };
            tracing::warn!(
                endpoint = endpoint_id,
                path = endpoint_id
                    .is_none()
                    .then(|| cut(parts.uri.path().to_string(), 200)),
                status,
                micros = started.elapsed().as_micros() as u64,
                "no answer from the service: {message}"
            );
            return proxy.refuse(
                status,
                message,
                "the proxy could not get the service's answer; try again later",
            );
        }
    };
    let below_base = (parts.uri.path().strip_prefix(proxy.app.protocol.base_path))
        .is_some_and(|rest| rest.starts_with('/'));
    let checked = matched.is_some() || below_base;
    let exchange = ProxiedRequest {
        matched,
        method: &parts.method,
        path: parts.uri.path(),
        query: parts.uri.query().unwrap_or_default(),
        judgement,
        keys: parts
            .headers
            .get_all(proxy.app.protocol.auth_header)
            .iter()
            .map(HeaderValue::as_bytes)
            .collect(),
    };
    if checked {
        proxy.check(&exchange, &head, &bytes);
    }
    if let Some(har) = &proxy.har {
        let target = parts.uri.path_and_query().map_or("", |p| p.as_str());
        let recorded = HarEntry {
            started: started_at,
            millis: started.elapsed().as_secs_f64() * 1000.0,
            method: &parts.method,
            url: &format!("{}{target}", proxy.root),
            query: exchange.query,
            request_headers: &parts.headers,
            request_body: &body,
            status: head.status.as_u16(),
            response_headers: &head.headers,
            response_body: &bytes,
            key_header: proxy.app.protocol.auth_header,
        };
        if let Err(e) = har.record(&recorded, &|text| exchange.scrub(text)) {
            tracing::warn!(file = %har.path().display(), "cannot write the HAR file: {e}");
        }
    }
    let request_id = head
        .headers
        .get(REQUEST_ID_HEADER)
        .and_then(|id| id.to_str().ok())
        .unwrap_or_default();
    tracing::info!(
        request_id,
        endpoint = endpoint_id,
        path = endpoint_id
            .is_none()
            .then(|| cut(parts.uri.path().to_string(), 200)),
        status = head.status.as_u16(),
        micros = started.elapsed().as_micros() as u64,
        "proxied"
    );
    answer_of(&parts.method, head, bytes)
}

/// The request's body, read to its end within the limit; or the answer refusing it.
async fn read_request_body(proxy: &Proxy, parts: &Parts, body: Body) -> Result<Bytes, Response> {
    let limit = proxy.max_body_bytes;
    let too_large = || {
        proxy.refuse(
            413,
            format!("the request body is larger than {limit} bytes"),
            "send a smaller body",
        )
    };
    match read_limited(&parts.headers, body, limit).await {
        Ok(bytes) => Ok(bytes),
        Err(Unread::TooLarge) => Err(too_large()),
        Err(Unread::Failed(e)) => Err(proxy.refuse(
            400,
            format!("the request body could not be read: {e}"),
            "send the whole body",
        )),
    }
}

/// Sends the request to the service and reads its whole answer, within the limits.
async fn exchange(
    proxy: &Proxy,
    parts: &Parts,
    body: Bytes,
) -> Result<(axum::http::response::Parts, Bytes), ForwardFailure> {
    let target = parts
        .uri
        .path_and_query()
        .map_or(parts.uri.path(), |p| p.as_str());
    let uri: Uri = match format!("{}{target}", proxy.root).parse() {
        Ok(uri) => uri,
        Err(e) => return Err(ForwardFailure::Target(e.to_string())),
    };
    let mut request = axum::http::Request::new(Full::new(body));
    *request.method_mut() = parts.method.clone();
    *request.uri_mut() = uri.clone();
    *request.headers_mut() = forwarded_headers(&parts.headers);
    let limit = proxy.max_answer_bytes;
    let read = async {
        let response = proxy
            .http
            .send(request)
            .await
            .map_err(|e| ForwardFailure::Transport(TransportError::new(&uri, e)))?;
        let (head, body) = response.into_parts();
        match read_limited(&head.headers, body, limit).await {
            Ok(bytes) => Ok((head, bytes)),
            Err(Unread::TooLarge) => Err(ForwardFailure::TooLarge(limit)),
            Err(Unread::Failed(e)) => match e.downcast::<hyper::Error>() {
                Ok(e) => Err(ForwardFailure::Transport(TransportError::of_body(&uri, *e))),
                Err(_) => Err(ForwardFailure::TooLarge(limit)),
            },
        }
    };
    match proxy.timeout {
        Some(limit) => tokio::time::timeout(limit, read)
            .await
            .unwrap_or(Err(ForwardFailure::TimedOut(limit))),
        None => read.await,
    }
}
