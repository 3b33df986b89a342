//! Requests sent as they are, for tools that probe a server.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};

use super::BuildError;
use super::error::TransportError;
use super::stack::{self, Http};

/// Sends requests as they are through the client's HTTP stack (connection pool, TLS from the
/// feature that is on, the environment's proxies): no validation, no retries, no redirects
/// followed, no envelope decoded. For tools that probe a server with requests the typed
/// client would refuse to send, such as the contract suite; applications use the generated
/// client.
///
/// Cheap to clone (the connection pool is shared).
#[derive(Clone)]
pub struct RawClient {
    http: Arc<Http>,
}

impl std::fmt::Debug for RawClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RawClient").finish_non_exhaustive()
    }
}

impl RawClient {
    /// A client sending through the proxies of the environment, as the generated client does
    /// by default.
    pub fn new() -> Result<Self, BuildError> {
        Ok(Self {
            http: Arc::new(Http::new(Some(stack::environment_proxies()), None)?),
        })
    }

    /// Sends `request` (its URI absolute: `http://host:port/path?query`) and reads the whole
    /// answer within `timeout`. An answer of any status is `Ok`; `Err` is a request that got
    /// no complete answer ([`TransportKind::Timeout`](super::TransportKind::Timeout) when the
    /// time ran out).
    pub async fn send(
        &self,
        request: http::Request<Bytes>,
        timeout: Duration,
    ) -> Result<http::Response<Bytes>, TransportError> {
        let url = request.uri().clone();
        let request = request.map(Full::new);
        let exchange = async {
            let response = self
                .http
                .send(request)
                .await
                .map_err(|e| TransportError::new(&url, e))?;
            let (head, body) = response.into_parts();
            let body = body
                .collect()
                .await
                .map_err(|e| TransportError::of_body(&url, e))?;
            Ok(http::Response::from_parts(head, body.to_bytes()))
        };
        tokio::time::timeout(timeout, exchange)
            .await
            .unwrap_or_else(|_| Err(TransportError::timed_out(&url, false)))
    }
}
