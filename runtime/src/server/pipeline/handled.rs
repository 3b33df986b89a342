//! One request past its key check and parsing ([`Handled`]): the implementation's answer,
//! within the request's timeout and with its panics caught, or the error that refused the
//! request, on its way into the envelope.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::http::HeaderValue;
use axum::http::request::Parts;
use axum::response::Response;

use super::answer::{failure, success};
use super::log::{log, not_implemented_once};
use super::{RequestContext, RequestTimeout};
use crate::ErrorBody;
use crate::server::ServerError;

pin_project_lite::pin_project! {
    /// One request past its key check and parsing: the implementation's answer (or the
    /// error that refused the request) on its way into the envelope.
    pub(super) struct Handled<Fut, E> {
        #[pin]
        state: HandledState<Fut, E>,
        // The request id as the answer's `x-request-id` header (its text also goes into the
        // envelope).
        request_id: HeaderValue,
        endpoint: &'static str,
        started: Option<Instant>,
    }
}

impl<Fut, E> Handled<Fut, E> {
    /// The answer to a request of `endpoint`: `admitted` holds the accepted key and the call
    /// into the implementation (started here, with the request's context and timeout), or the
    /// error refusing the request; then the request id, as text and as a header, and when the
    /// request started (when it is logged).
    pub(super) fn new<F>(
        parts: &Parts,
        endpoint: &'static str,
        (request_id, header, started): (String, HeaderValue, Option<Instant>),
        admitted: Result<(Option<String>, F), ServerError<E>>,
    ) -> Self
    where
        F: FnOnce(RequestContext) -> Fut,
    {
        let state = match admitted {
            Ok((api_key, call)) => HandledState::Running {
                future: call(RequestContext {
                    request_id,
                    api_key,
                }),
                limit: parts
                    .extensions
                    .get::<RequestTimeout>()
                    .map(|timeout| timeout.0),
                timer: None,
            },
            Err(error) => HandledState::Refused { error },
        };
        Handled {
            state,
            request_id: header,
            endpoint,
            started,
        }
    }
}

pin_project_lite::pin_project! {
    #[project = HandledStateProj]
    #[project_replace = HandledStateOwned]
    enum HandledState<Fut, E> {
        // The implementation is answering. `limit` is the per-request timeout; its timer is
        // only made when the implementation is not ready at its first poll, so an
        // implementation answering at once (from memory, say) pays for no timer:
        // registering and cancelling one cost about 0.7 µs per request in
        // `bench/server.sh`, some 4 % of a request.
        Running {
            #[pin]
            future: Fut,
            limit: Option<Duration>,
            timer: Option<Pin<Box<tokio::time::Sleep>>>,
        },
        // The key check or the parameters refused the request.
        Refused { error: ServerError<E> },
        // The answer was given.
        Done,
    }
}

impl<R, E, Fut> Future for Handled<Fut, E>
where
    R: serde::Serialize,
    E: ErrorBody,
    Fut: Future<Output = Result<Vec<R>, ServerError<E>>>,
{
    type Output = Response;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Response> {
        let mut this = self.project();
        let ended = match this.state.as_mut().project() {
            HandledStateProj::Running {
                future,
                limit,
                timer,
            } => match guarded(future, *limit, timer, cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(ended) => Some(ended),
            },
            _ => None,
        };
        let outcome = match (
            ended,
            this.state.as_mut().project_replace(HandledState::Done),
        ) {
            (Some(Ended::Answered(answer)), _) => answer,
            (Some(Ended::Panicked), _) => Err(ServerError::internal("the implementation panicked")),
            (Some(Ended::TimedOut(limit)), _) => Err(ServerError::of_kind(
                crate::ErrorKind::InternalError,
                format!(
                    "the request did not finish within {} s",
                    limit.as_secs_f64()
                ),
            )
            .with_hint("try again later, or ask for less (a shorter range)")),
            (None, HandledStateOwned::Refused { error }) => Err(error),
            (None, _) => Err(ServerError::internal(
                "the answer was polled after it was given",
            )),
        };
        let request_id = std::mem::replace(this.request_id, HeaderValue::from_static(""));
        let response = match outcome {
            Ok(records) => success::<_, E>(request_id, &records),
            Err(error) => {
                if error.kind() == Some(crate::ErrorKind::NotImplemented) {
                    not_implemented_once(this.endpoint);
                }
                failure(request_id, &error)
            }
        };
        log(&response, this.endpoint, None, *this.started);
        Poll::Ready(response)
    }
}

/// How the implementation's future ended.
#[derive(Debug, PartialEq)]
pub(super) enum Ended<T> {
    /// With its answer.
    Answered(T),
    /// With a panic.
    Panicked,
    /// Not within the limit.
    TimedOut(Duration),
}

/// Polls the implementation's `future`, catching a panic, and gives up on it when it has not
/// answered `limit` after the first time it waited (`timer` is made then).
pub(super) fn guarded<F: Future>(
    future: Pin<&mut F>,
    limit: Option<Duration>,
    timer: &mut Option<Pin<Box<tokio::time::Sleep>>>,
    cx: &mut Context<'_>,
) -> Poll<Ended<F::Output>> {
    match std::panic::catch_unwind(AssertUnwindSafe(|| future.poll(cx))) {
        Ok(Poll::Ready(answer)) => return Poll::Ready(Ended::Answered(answer)),
        Ok(Poll::Pending) => {}
        Err(_) => return Poll::Ready(Ended::Panicked),
    }
    let Some(limit) = limit else {
        return Poll::Pending;
    };
    let timer = timer.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
    timer.as_mut().poll(cx).map(|()| Ended::TimedOut(limit))
}
