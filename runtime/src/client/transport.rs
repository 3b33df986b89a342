//! Sending requests: validation, retries, decoding, paging.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{Stream, TryStreamExt};
use reqwest::Url;
use reqwest::header::{ACCEPT, HeaderName, HeaderValue, LOCATION, RETRY_AFTER, USER_AGENT};

use super::error::{ApiError, Error, Response, TransportError, TransportKind, UndecodableError};
use super::{RETRY_STATUSES, RetryPolicy};
use crate::text::percent_encode;
use crate::{ErrorBody, Paged, Request};

/// The HTTP side of a generated client: base URL, key, timeouts, retries, and sending one
/// request of any endpoint. The generated `Client` wraps one and adds a method per endpoint.
///
/// Cheap to clone (the connection pool and settings are shared). `Debug` never shows the
/// API key.
#[derive(Clone)]
pub struct Transport {
    inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub(crate) http: reqwest::Client,
    pub(crate) base: Url,
    pub(crate) auth_header: HeaderName,
    pub(crate) api_key: Option<HeaderValue>,
    pub(crate) user_agent: HeaderValue,
    pub(crate) timeout: Duration,
    pub(crate) retry: RetryPolicy,
}

impl fmt::Debug for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = &self.inner;
        f.debug_struct("Client")
            .field("base_url", &inner.base.as_str())
            .field("api_key", &inner.api_key.as_ref().map(|_| "<redacted>"))
            .field("timeout", &inner.timeout)
            .field("user_agent", &inner.user_agent)
            .field("retry", &inner.retry)
            .finish()
    }
}

impl Transport {
    pub(crate) fn new(inner: Inner) -> Self {
        Self {
            inner: Arc::new(inner),
        }
    }

    /// The service root every endpoint path is appended to, ending in `/api`.
    pub fn base_url(&self) -> &Url {
        &self.inner.base
    }

    /// The retry policy in force.
    pub fn retry_policy(&self) -> RetryPolicy {
        self.inner.retry
    }

    /// The full URL of a request: base URL, the endpoint path (path parameters
    /// percent-encoded) and the query, every name and value percent-encoded.
    pub fn url_for<P: Request>(&self, params: &P) -> Url {
        let mut url = self.inner.base.clone();
        url.set_path(&format!("{}{}", self.inner.base.path(), params.path()));
        let query: Vec<String> = params
            .to_query()
            .iter()
            .map(|(name, value)| format!("{}={}", percent_encode(name), percent_encode(value)))
            .collect();
        if !query.is_empty() {
            url.set_query(Some(&query.join("&")));
        }
        url
    }

    /// Sends one request of any endpoint: validates `params` (an invalid request fails
    /// with [`Error::InvalidInput`] and nothing is sent), then sends it, retrying as the
    /// [`RetryPolicy`] says, and decodes the envelope.
    pub async fn send<P, E>(&self, params: &P) -> Result<Response<P::Record>, Error<E>>
    where
        P: Request + Sync,
        E: ErrorBody,
    {
        params.validate().map_err(Error::InvalidInput)?;
        let url = self.url_for(params);
        let policy = self.inner.retry;
        let mut retries = 0;
        loop {
            let outcome = self.attempt(&url).await;
            if retries < policy.max_retries {
                let wait = match &outcome {
                    Ok(resp) if RETRY_STATUSES.contains(&resp.status().as_u16()) => {
                        Some(retry_after(resp))
                    }
                    Err(Error::Transport(t)) if t.kind == TransportKind::Connect => Some(None),
                    _ => None,
                };
                if let Some(retry_after) = wait {
                    retries += 1;
                    tokio::time::sleep(policy.delay(retries, retry_after)).await;
                    continue;
                }
            }
            let resp = outcome?;
            let status = resp.status().as_u16();
            let retry_after = retry_after(&resp);
            let location = resp
                .headers()
                .get(LOCATION)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
            let body = read_body(resp, status).await?;
            return decode(status, retry_after, location, &body);
        }
    }

    /// One attempt: the response head, or a transport failure.
    async fn attempt<E>(&self, url: &Url) -> Result<reqwest::Response, Error<E>> {
        let inner = &self.inner;
        let mut request = inner
            .http
            .get(url.clone())
            .timeout(inner.timeout)
            .header(ACCEPT, HeaderValue::from_static("application/json"))
            .header(USER_AGENT, inner.user_agent.clone());
        if let Some(key) = &inner.api_key {
            request = request.header(inner.auth_header.clone(), key.clone());
        }
        request
            .send()
            .await
            .map_err(|e| Error::Transport(TransportError::new(e)))
    }

    /// Every record of an endpoint that pages with a page size and an offset, page after page:
    /// the first page at `params.offset`, each next one `limit` further (by the number of
    /// records received), until a page holds fewer than `limit` records. The first error
    /// ends the stream after it is yielded.
    pub fn stream_all<P, E>(
        &self,
        params: P,
    ) -> impl Stream<Item = Result<P::Record, Error<E>>> + Send + 'static
    where
        P: Paged,
        P::Record: Send + 'static,
        E: ErrorBody,
    {
        let client = self.clone();
        futures_util::stream::try_unfold(Some(params), move |next| {
            let client = client.clone();
            async move {
                let Some(mut params) = next else {
                    return Ok(None);
                };
                let page = client.send(&params).await?;
                let got = i64::try_from(page.data.len()).unwrap_or(i64::MAX);
                let next = if got == 0 || got < params.limit() {
                    None
                } else {
                    params.set_offset(params.offset().saturating_add(got));
                    Some(params)
                };
                Ok(Some((page.data, next)))
            }
        })
        .map_ok(|records| futures_util::stream::iter(records.into_iter().map(Ok)))
        .try_flatten()
    }
}

/// A `Retry-After` in seconds (the HTTP-date form is ignored).
fn retry_after(resp: &reqwest::Response) -> Option<Duration> {
    let text = resp.headers().get(RETRY_AFTER)?.to_str().ok()?;
    text.trim().parse::<u64>().ok().map(Duration::from_secs)
}

/// The whole body; a connection cut mid-body gives what arrived as an undecodable body.
async fn read_body<E>(mut resp: reqwest::Response, status: u16) -> Result<Vec<u8>, Error<E>> {
    let mut body = Vec::new();
    loop {
        match resp.chunk().await {
            Ok(Some(chunk)) => body.extend_from_slice(&chunk),
            Ok(None) => return Ok(body),
            Err(e) if e.is_timeout() => return Err(Error::Transport(TransportError::new(e))),
            Err(e) => {
                return Err(Error::Undecodable(UndecodableError::new(
                    status,
                    &body,
                    "the body ended before it was complete",
                    Some(Box::new(e)),
                )));
            }
        }
    }
}

/// The parts of a failure envelope, each optional so that anything known is kept.
#[derive(serde::Deserialize)]
struct FailureEnvelope<E> {
    #[serde(default)]
    success: Option<bool>,
    #[serde(default)]
    request_id: Option<String>,
    #[serde(default = "none")]
    error: Option<E>,
}

fn none<E>() -> Option<E> {
    None
}

/// The envelope of a successful answer (the generator checks that the spec's envelope has
/// these fields).
#[derive(serde::Deserialize)]
struct Envelope<T, E> {
    success: bool,
    request_id: String,
    data: Vec<T>,
    #[serde(default = "none")]
    error: Option<E>,
    #[serde(default)]
    metadata: Option<serde_json::Value>,
    #[serde(default)]
    pagination: Option<serde_json::Value>,
}

/// Turns a complete response into records or the error it means; never panics.
fn decode<T: serde::de::DeserializeOwned, E: ErrorBody>(
    status: u16,
    retry_after: Option<Duration>,
    location: Option<String>,
    body: &[u8],
) -> Result<Response<T>, Error<E>> {
    let undecodable = |reason: &str, source: Option<serde_json::Error>| {
        Error::Undecodable(UndecodableError::new(
            status,
            body,
            reason,
            source.map(|e| Box::new(e) as _),
        ))
    };
    let api = |error: E, request_id: Option<String>| {
        Error::Api(Box::new(ApiError {
            status,
            error,
            request_id,
            retry_after,
        }))
    };
    if (300..400).contains(&status) {
        let reason = format!(
            "a redirect to `{}` that was not followed (only redirects within one origin are)",
            location.as_deref().unwrap_or("?")
        );
        return Err(undecodable(&reason, None));
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(undecodable("the body is empty", None));
    }
    if (200..300).contains(&status) {
        match serde_json::from_slice::<Envelope<T, E>>(body) {
            Ok(envelope) if envelope.success => Ok(Response {
                data: envelope.data,
                request_id: envelope.request_id,
                metadata: envelope.metadata,
                pagination: envelope.pagination,
            }),
            Ok(envelope) => match envelope.error {
                Some(error) => Err(api(error, Some(envelope.request_id))),
                None => Err(undecodable(
                    "`success` is false but the envelope has no error object",
                    None,
                )),
            },
            Err(e) => match serde_json::from_slice::<FailureEnvelope<E>>(body) {
                Ok(FailureEnvelope {
                    success: Some(false),
                    request_id,
                    error: Some(error),
                }) => Err(api(error, request_id)),
                _ => Err(undecodable(json_problem(&e), Some(e))),
            },
        }
    } else {
        match serde_json::from_slice::<FailureEnvelope<E>>(body) {
            Ok(FailureEnvelope {
                request_id,
                error: Some(error),
                ..
            }) => Err(api(error, request_id)),
            Ok(_) => Err(undecodable(
                "an error status without an error object in the body",
                None,
            )),
            Err(e) => Err(undecodable(json_problem(&e), Some(e))),
        }
    }
}

fn json_problem(e: &serde_json::Error) -> &'static str {
    match e.classify() {
        serde_json::error::Category::Eof => "the JSON ends early (truncated body)",
        serde_json::error::Category::Syntax => "the body is not JSON",
        serde_json::error::Category::Data => "the JSON is not the response envelope",
        serde_json::error::Category::Io => "the body could not be read",
    }
}
