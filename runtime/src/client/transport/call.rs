//! The attempts of one call: validated first, then tried until one stands, the retries run
//! out or the deadline leaves no time for another, each attempt decoded; and the call's
//! traces.

use std::time::{Duration, Instant};

use http::Uri;
use tracing::Instrument;
use tracing::field::Empty;

use super::decode::{Notice, decode};
use super::exchange::{Lost, LostError, Retry};
use super::{Payload, Transport};
use crate::client::RETRY_STATUSES;
use crate::client::error::{Error, TransportKind};
use crate::client::response::Response;
use crate::drift::{Evidence, Finding, REQUEST_EXAMPLE_LIMIT, Source, cut, looser};
use crate::{ErrorBody, Request, ValidationError};

/// A failed attempt: the error and whether it may be retried.
struct FailedAttempt<E> {
    error: Error<E>,
    retry: Retry,
}

impl<E> From<Error<E>> for FailedAttempt<E> {
    fn from(error: Error<E>) -> Self {
        Self {
            error,
            retry: Retry::No,
        }
    }
}

impl<E> From<Lost> for FailedAttempt<E> {
    fn from(lost: Lost) -> Self {
        Self {
            error: match lost.error {
                LostError::Transport(e) => Error::Transport(e),
                LostError::Truncated(e) => Error::Undecodable(e),
            },
            retry: lost.retry,
        }
    }
}

impl Transport {
    /// One call: `validation` the outcome of validating it, `payload` what it sends.
    pub(super) async fn call_with<P, E>(
        &self,
        params: &P,
        validation: Result<(), ValidationError>,
        payload: Payload,
    ) -> Result<(Response<P::Record>, u32), Error<E>>
    where
        P: Request + Sync,
        E: ErrorBody,
    {
        let endpoint = P::ENDPOINT;
        let span = tracing::info_span!(
            "mrds.call",
            endpoint = endpoint.id,
            method = endpoint.method.as_str(),
            path = endpoint.path,
        );
        let started = Instant::now();
        let outcome = async {
            match validation {
                Ok(()) => self.send_valid(params, &payload).await,
                Err(e) => Err((Error::InvalidInput(e), 0)),
            }
        }
        .instrument(span)
        .await;
        let elapsed_ms = millis(started.elapsed());
        match &outcome {
            Ok((response, status, attempts)) => tracing::info!(
                endpoint = endpoint.id,
                status,
                attempts,
                request_id = response.request_id.as_str(),
                elapsed_ms,
                "call finished"
            ),
            Err((error, attempts)) => tracing::info!(
                endpoint = endpoint.id,
                status = error.status(),
                attempts,
                request_id = error.request_id(),
                elapsed_ms,
                error = error_kind(error),
                "call failed"
            ),
        }
        outcome
            .map(|(response, _, attempts)| (response, attempts))
            .map_err(|(error, _)| error)
    }

    /// The attempts of one validated call, until one stands, the retries run out or the
    /// deadline leaves no time for another; with the status of the answer and the number of
    /// attempts made.
    #[allow(clippy::type_complexity)]
    async fn send_valid<P, E>(
        &self,
        params: &P,
        payload: &Payload,
    ) -> Result<(Response<P::Record>, u16, u32), (Error<E>, u32)>
    where
        P: Request + Sync,
        E: ErrorBody,
    {
        let url = self.url_for(params);
        let endpoint_id = P::ENDPOINT.id;
        let inner = &*self.inner;
        let deadline = inner
            .deadline
            .and_then(|deadline| Instant::now().checked_add(deadline));
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            // The attempt gets its timeout, or the time left before the deadline if shorter.
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            let (timeout, capped) = match left {
                Some(left) if left < inner.timeout => (left, true),
                _ => (inner.timeout, false),
            };
            let span = tracing::debug_span!(
                "mrds.attempt",
                attempt,
                status = Empty,
                request_id = Empty,
                error = Empty,
            );
            let outcome = self
                .attempt::<P::Record, E>(&url, (timeout, capped), payload, endpoint_id)
                .instrument(span.clone())
                .await;

            let FailedAttempt { mut error, retry } = match outcome {
                Ok((response, status)) => return Ok((response, status, attempt)),
                Err(failure) => failure,
            };
            error.set_attempts(attempt);
            span.record("error", error_kind(&error));
            let Retry::After(retry_after) = retry else {
                return Err((error, attempt));
            };
            if attempt > inner.retry.max_retries {
                return Err((error, attempt));
            }
            // Whether to retry is decided on the longest the wait may be, not on the jittered
            // wait: the same settings and timing give the same attempts on every run.
            let wait = inner.retry.delay(attempt, retry_after);
            let longest = inner.retry.max_delay(attempt, retry_after);
            let too_late = |d| Instant::now().checked_add(longest).is_none_or(|t| t >= d);
            if deadline.is_some_and(too_late) {
                tracing::info!(
                    attempt,
                    wait_ms = millis(wait),
                    reason = error_kind(&error),
                    "not retrying: the call's deadline comes before the next attempt"
                );
                return Err((error, attempt));
            }
            tracing::warn!(
                attempt,
                status = error.status(),
                request_id = error.request_id(),
                reason = error_kind(&error),
                wait_ms = millis(wait),
                "retrying"
            );
            tokio::time::sleep(wait).await;
        }
    }

    /// One attempt: send, read the whole body, decode; the records and the status, or a
    /// failure saying whether it may be retried. Runs inside its `mrds.attempt` span.
    async fn attempt<T, E>(
        &self,
        url: &Uri,
        timeout: (Duration, bool),
        payload: &Payload,
        endpoint: &str,
    ) -> Result<(Response<T>, u16), FailedAttempt<E>>
    where
        T: serde::de::DeserializeOwned,
        E: ErrorBody,
    {
        let span = tracing::Span::current();
        let (head, body) = self.fetch(url, timeout, payload).await?;
        let status = head.status;
        let undecodable = self.inner.undecodable;
        let decoded = decode::<T, E>(&head, &body, self.notice(endpoint), undecodable);
        if let Err(Error::Api(_)) = &decoded
            && let Some(notice) = self.notice(endpoint)
            && matches!(status, 400 | 422)
        {
            // A request the spec accepts (it was validated) that the service refuses.
            let example = refused_example(url, &self.inner.base, payload);
            let query = url.query().unwrap_or_default();
            if let Some(mut finding) = looser(Source::Client, endpoint, status, &body, example) {
                finding.evidence = Some(Evidence::refused(query));
                let copy = finding.clone();
                if notice.drift.record(finding) {
                    trace_looser(&copy);
                }
            }
        }
        match decoded {
            Ok(response) => {
                span.record("request_id", response.request_id.as_str());
                Ok((response, status))
            }
            Err(error) => {
                if let Some(id) = error.request_id() {
                    span.record("request_id", id);
                }
                let retry = if payload.repeatable && RETRY_STATUSES.contains(&status) {
                    Retry::After(head.retry_after)
                } else {
                    Retry::No
                };
                Err(FailedAttempt { error, retry })
            }
        }
    }

    /// Where the drift of an answer of `endpoint` goes, when the client notices it.
    fn notice<'a>(&'a self, endpoint: &'a str) -> Option<Notice<'a>> {
        let inner = &*self.inner;
        inner.notice_drift.then_some(Notice {
            shapes: inner.shapes,
            endpoint,
            drift: &inner.drift,
        })
    }
}

/// The request as a `rule.looser` finding's example: method, path below the base path and
/// query (the key travels in its header, never here).
fn refused_example(url: &Uri, base: &Uri, payload: &Payload) -> String {
    let path = url.path();
    let below = path
        .strip_prefix(base.path().trim_end_matches('/'))
        .unwrap_or(path);
    let mut text = format!("{} {below}", payload.method);
    if let Some(query) = url.query().filter(|q| !q.is_empty()) {
        text.push('?');
        text.push_str(query);
    }
    cut(text, REQUEST_EXAMPLE_LIMIT)
}

/// The WARN event of a refusal of a valid request, once per client (as the answers' drift).
fn trace_looser(finding: &Finding) {
    tracing::warn!(
        target: "mrds::drift",
        kind = finding.observed.kind(),
        endpoint = finding.endpoint.as_str(),
        rule = finding.observed.rule(),
        "the service refused a request the spec accepts: {}",
        finding.observed
    );
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A short name of what went wrong, for traces.
fn error_kind<E>(error: &Error<E>) -> &'static str {
    match error {
        Error::InvalidInput(_) => "invalid_input",
        Error::Transport(t) => match t.kind {
            TransportKind::Connect => "connect",
            TransportKind::Reset => "reset",
            TransportKind::Timeout => "timeout",
            TransportKind::Deadline => "deadline",
            _ => "transport",
        },
        Error::Api(_) => "api",
        Error::Status(_) => "status",
        Error::Undecodable(_) => "undecodable",
        Error::Paging(_) => "paging",
    }
}
