//! What a test controls of a sample server: the scenarios set from Rust, the `Prefer` header
//! sent by any client, and the journal of what was received. One axum middleware around the
//! sample server's router, the same for the command line (`Prefer` only) and the in-process
//! [`MockServer`](super::MockServer) (all three).

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::Response;
use http_body::{Frame, SizeHint};
use http_body_util::BodyExt;

use super::journal::{JOURNAL_BODY_BYTES, Journal, Received};
use super::prefer::{self, PreferError, Preference};
use super::scenario::{Answer, Plans, Scenario, ScenarioError};
use crate::route::Routes;
use crate::server::{ApiError, answer_error};
use crate::{Endpoint, ErrorBody, ErrorKind, Protocol};

/// The `Preference-Applied` response header (RFC 7240): the preferences an answer followed.
const PREFERENCE_APPLIED: HeaderName = HeaderName::from_static("preference-applied");

/// The spec's error answers, for the statuses scenarios and `Prefer: code=` ask for; made for
/// the spec's error object with [`ErrorAnswers::of`].
#[derive(Clone, Copy)]
pub struct ErrorAnswers {
    statuses: fn() -> Vec<(u16, String)>,
    status: fn(u16, String, String, Option<u64>) -> Option<Response>,
    prefer_refused: fn(PreferError, String) -> Response,
}

impl std::fmt::Debug for ErrorAnswers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries((self.statuses)()).finish()
    }
}

impl ErrorAnswers {
    /// The answers with the error object `E` (the spec's), whose codes are
    /// [`ErrorBody::codes`].
    pub const fn of<E: ErrorBody>() -> Self {
        Self {
            statuses: statuses::<E>,
            status: status_answer::<E>,
            prefer_refused: prefer_refused::<E>,
        }
    }

    /// Each status the spec's codes have, with its code (`429 RATE_LIMITED`), in the spec's
    /// order, a status once.
    pub fn statuses(&self) -> Vec<String> {
        (self.statuses)()
            .into_iter()
            .map(|(status, code)| format!("{status} {code}"))
            .collect()
    }

    /// `status` with the spec's error object of the first code answered with it, `message`
    /// and `hint`; `None` when no code of the spec has the status.
    #[cfg(feature = "proxy")]
    pub(crate) fn answer(&self, status: u16, message: String, hint: String) -> Option<Response> {
        (self.status)(status, message, hint, None)
    }

    fn has(&self, status: u16) -> bool {
        (self.statuses)().iter().any(|(s, _)| *s == status)
    }
}

/// The statuses of `E`'s codes, the first code of each.
fn statuses<E: ErrorBody>() -> Vec<(u16, String)> {
    let mut out: Vec<(u16, String)> = Vec::new();
    for code in E::codes() {
        let Some(status) = E::from_code(code.clone(), String::new()).http_status() else {
            continue;
        };
        if !out.iter().any(|(s, _)| *s == status) {
            out.push((status, code.to_string()));
        }
    }
    out
}

/// `status` with the error object of the first of `E`'s codes answered with it, `message`,
/// `hint` and `Retry-After`; `None` when no code has the status.
fn status_answer<E: ErrorBody>(
    status: u16,
    message: String,
    hint: String,
    retry_after: Option<u64>,
) -> Option<Response> {
    let code = E::codes()
        .iter()
        .find(|code| E::from_code((*code).clone(), String::new()).http_status() == Some(status))?;
    let mut error = ApiError::<E>::new(code.clone(), message).with_hint(hint);
    if let Some(seconds) = retry_after {
        error = error.with_header(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    Some(answer_error(&error))
}

/// 400 `INVALID_PARAMETER` for a `Prefer` header that cannot be followed, the preference at
/// fault in `details` (field `Prefer`).
fn prefer_refused<E: ErrorBody>(error: PreferError, hint: String) -> Response {
    let mut object = E::from_kind(
        ErrorKind::InvalidParameter,
        "the Prefer header asks for what the sample server cannot do".to_string(),
    );
    object.push_detail("Prefer".to_string(), error.got, error.reason);
    let error = ApiError::from_object(object).with_hint(hint);
    answer_error(&error)
}

/// The state of the middleware: what it controls, for one server.
pub(crate) struct Control {
    endpoints: &'static [Endpoint],
    routes: Routes,
    base_path: &'static str,
    errors: ErrorAnswers,
    /// Follow the `Prefer` header.
    prefer: bool,
    plans: Plans,
    journal: Option<Journal>,
}

impl Control {
    /// The control of a server of `endpoints` under `protocol`, answering errors with
    /// `errors`; `prefer`: follow the `Prefer` header; `journal`: record what is received.
    pub fn new(
        endpoints: &'static [Endpoint],
        protocol: Protocol,
        errors: ErrorAnswers,
        prefer: bool,
        journal: Option<Journal>,
    ) -> Self {
        Self {
            endpoints,
            routes: Routes::new(endpoints),
            base_path: protocol.base_path,
            errors,
            prefer,
            plans: Plans::default(),
            journal,
        }
    }

    /// `router` behind the middleware.
    pub fn around(self: &Arc<Self>, router: Router) -> Router {
        router.layer(middleware::from_fn_with_state(self.clone(), control))
    }

    /// The endpoint of the spec named by `endpoint`'s id, checked against `scenario`.
    pub fn plan(&self, endpoint: &Endpoint, scenario: Scenario) -> Result<(), ScenarioError> {
        let Some(known) = self.endpoints.iter().find(|e| e.id == endpoint.id) else {
            return Err(ScenarioError::UnknownEndpoint {
                endpoint: endpoint.id.to_string(),
            });
        };
        match scenario.answer {
            Answer::Status(status) if !self.errors.has(status) => {
                return Err(ScenarioError::NoErrorCode {
                    status,
                    available: self.errors.statuses(),
                });
            }
            Answer::Bare(status) if !(400..=599).contains(&status) => {
                return Err(ScenarioError::NotAnErrorStatus { status });
            }
            Answer::Samples | Answer::Reset if scenario.retry_after.is_some() => {
                return Err(ScenarioError::RetryAfterWithoutStatus);
            }
            _ => {}
        }
        self.plans.push(known.id, scenario);
        Ok(())
    }

    /// Forgets every scenario.
    pub fn clear_plans(&self) {
        self.plans.clear();
    }

    /// The journal, when the server keeps one.
    pub fn journal(&self) -> Option<&Journal> {
        self.journal.as_ref()
    }

    /// The endpoint a request goes to, by the one router ([`Routes`]).
    fn endpoint_of(&self, method: &Method, path: &str) -> Option<&'static Endpoint> {
        (self.routes)
            .route(self.base_path, method.as_str(), path)
            .endpoint()
    }
}

/// What one request gets instead of its plain answer.
struct Step {
    answer: Answer,
    delay: Duration,
    retry_after: Option<u64>,
    /// From `Prefer` (said back in `Preference-Applied`), or from a scenario.
    preferred: Option<Preference>,
}

/// The middleware: records the request, then answers it as a scenario or `Prefer` says, or
/// lets the router answer.
async fn control(State(control): State<Arc<Control>>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let endpoint = control.endpoint_of(request.method(), request.uri().path());
    let request = match control.journal() {
        Some(journal) => record(journal, endpoint, request).await,
        None => request,
    };
    let Some(endpoint) = endpoint else {
        return next.run(request).await;
    };
    let step = match control.plans.next(endpoint.id) {
        Some(scenario) => Step {
            answer: scenario.answer,
            delay: scenario.delay,
            retry_after: scenario.retry_after_secs(),
            preferred: None,
        },
        None if control.prefer => match preferred(&control, &request) {
            Preferred::Step(step) => step,
            Preferred::Nothing => return next.run(request).await,
            Preferred::Refused(refused) => {
                log(&refused, endpoint, "prefer", started);
                return refused;
            }
        },
        None => return next.run(request).await,
    };
    if !step.delay.is_zero() {
        tokio::time::sleep(step.delay).await;
    }
    // What asked for the answer: in its message, and in the log line.
    let (by, source) = match step.preferred {
        Some(_) => ("the request's Prefer header", "prefer"),
        None => ("a scenario of the sample server", "scenario"),
    };
    let mut response = match step.answer {
        Answer::Samples => next.run(request).await,
        Answer::Status(status) => {
            let message = match step.retry_after {
                Some(seconds) => format!("{status} answered as {by} asks; retry after {seconds} s"),
                None => format!("{status} answered as {by} asks"),
            };
            let hint = match step.preferred {
                Some(_) => "send the request without `Prefer: code=` for the sample records",
                None => {
                    "the test asked for this answer; the sample records follow once its scenario is used up"
                }
            };
            let answer =
                (control.errors.status)(status, message, hint.to_string(), step.retry_after);
            let Some(answer) = answer else {
                // Checked when the scenario was given and the header read.
                return next.run(request).await;
            };
            log(&answer, endpoint, source, started);
            answer
        }
        Answer::Bare(status) => {
            let answer = bare(status, step.retry_after);
            log(&answer, endpoint, source, started);
            answer
        }
        Answer::Reset => {
            tracing::info!(
                endpoint = endpoint.id,
                answered_by = source,
                "connection closed without an answer"
            );
            Response::new(Body::new(Reset))
        }
    };
    if let Some(preference) = step.preferred
        && let Ok(value) = HeaderValue::from_str(&preference.applied())
    {
        response.headers_mut().insert(PREFERENCE_APPLIED, value);
    }
    response
}

/// What the `Prefer` header of a request asks.
enum Preferred {
    /// Nothing the sample server knows.
    Nothing,
    /// This answer.
    Step(Step),
    /// What cannot be followed: the answer saying why.
    Refused(Response),
}

/// What the `Prefer` header of `request` asks.
fn preferred(control: &Control, request: &Request) -> Preferred {
    let values = request
        .headers()
        .get_all(header::HeaderName::from_static("prefer"));
    let hint = || {
        format!(
            "Prefer: code=<status> (one of {}, or 200), delay=<ms> (at most {}), \
             retry-after=<s> with a code",
            control.errors.statuses().join(", "),
            prefer::MAX_PREFER_DELAY.as_millis()
        )
    };
    let preference = match prefer::parse(values.iter().map(HeaderValue::as_bytes)) {
        Ok(Some(preference)) => preference,
        Ok(None) => return Preferred::Nothing,
        Err(error) => return Preferred::Refused((control.errors.prefer_refused)(error, hint())),
    };
    let answer = match preference.code {
        None | Some(200) => Answer::Samples,
        Some(code) if control.errors.has(code) => Answer::Status(code),
        Some(code) => {
            let error = prefer::PreferError {
                got: format!("code={code}"),
                reason: format!(
                    "the spec has no error code answered with {code}; the statuses with one are {}",
                    control.errors.statuses().join(", ")
                ),
            };
            return Preferred::Refused((control.errors.prefer_refused)(error, hint()));
        }
    };
    let retry_after = match (answer, preference.retry_after) {
        (Answer::Status(429), None) => Some(1),
        (_, seconds) => seconds,
    };
    Preferred::Step(Step {
        answer,
        delay: preference.delay.unwrap_or_default(),
        retry_after,
        preferred: Some(preference),
    })
}

/// How long the journal waits for a request's body: a client that announces a body and does
/// not send it holds the request no longer than this before the server sees it.
const JOURNAL_BODY_WAIT: Duration = Duration::from_secs(2);

/// Records `request` in `journal` (its head and up to [`JOURNAL_BODY_BYTES`] of its body, as
/// much as came within [`JOURNAL_BODY_WAIT`]), and gives it back whole: the body read so far,
/// then the rest as it comes.
async fn record(
    journal: &Journal,
    endpoint: Option<&'static Endpoint>,
    request: Request,
) -> Request {
    let (parts, mut body) = request.into_parts();
    let mut read = Vec::new();
    let mut ended = http_body::Body::is_end_stream(&body);
    let mut failed = None;
    let until = tokio::time::Instant::now() + JOURNAL_BODY_WAIT;
    while !ended && read.len() <= JOURNAL_BODY_BYTES {
        // A body that does not come is the server's to judge, not the journal's: it keeps
        // what came in time and passes the rest on.
        let Ok(frame) = tokio::time::timeout_at(until, body.frame()).await else {
            break;
        };
        match frame {
            None => ended = true,
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    read.extend_from_slice(&data);
                }
            }
            Some(Err(e)) => {
                failed = Some(e);
                ended = true;
            }
        }
    }
    let kept = read.len().min(JOURNAL_BODY_BYTES);
    journal.record(Received {
        method: parts.method.as_str(),
        path: parts.uri.path(),
        query: parts.uri.query().unwrap_or_default(),
        headers: &parts.headers,
        body: &read[..kept],
        body_truncated: read.len() > kept || !ended || failed.is_some(),
        endpoint,
    });
    let body = if ended && failed.is_none() {
        Body::from(read)
    } else {
        Body::new(Prefixed {
            prefix: Some(Bytes::from(read)),
            rest: body,
            failed,
        })
    };
    Request::from_parts(parts, body)
}

/// A request body of which the middleware read the start: that start, then the rest (or the
/// error reading it met).
struct Prefixed {
    prefix: Option<Bytes>,
    rest: Body,
    failed: Option<axum::Error>,
}

impl http_body::Body for Prefixed {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Some(prefix) = self.prefix.take().filter(|p| !p.is_empty()) {
            return Poll::Ready(Some(Ok(Frame::data(prefix))));
        }
        if let Some(error) = self.failed.take() {
            return Poll::Ready(Some(Err(error)));
        }
        Pin::new(&mut self.rest).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.prefix.as_ref().is_none_or(Bytes::is_empty)
            && self.failed.is_none()
            && self.rest.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        let rest = self.rest.size_hint();
        let prefix = self.prefix.as_ref().map_or(0, |p| p.len() as u64);
        let mut hint = SizeHint::new();
        hint.set_lower(rest.lower() + prefix);
        if let Some(upper) = rest.upper() {
            hint.set_upper(upper + prefix);
        }
        hint
    }
}

/// The body of an answer that is never given: its first read fails, and hyper closes the
/// connection without writing the head it holds.
struct Reset;

impl http_body::Body for Reset {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        Poll::Ready(Some(Err(io::Error::new(
            io::ErrorKind::ConnectionReset,
            "closed by a scenario of the sample server",
        ))))
    }
}

/// `status` with an empty body and no envelope (as a proxy answers), `Retry-After` when given.
fn bare(status: u16, retry_after: Option<u64>) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
    if let Some(seconds) = retry_after {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

/// Logs an answer the middleware gave itself, as the pipeline logs the router's: request id,
/// endpoint, status, duration, and what asked for it (`scenario` or `prefer`).
fn log(response: &Response, endpoint: &Endpoint, by: &str, started: Instant) {
    let request_id = response
        .headers()
        .get(crate::server::REQUEST_ID_HEADER)
        .and_then(|id| id.to_str().ok())
        .unwrap_or_default();
    tracing::info!(
        request_id,
        endpoint = endpoint.id,
        status = response.status().as_u16(),
        micros = started.elapsed().as_micros() as u64,
        answered_by = by,
        "request"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    use futures_util::StreamExt;

    /// The journal of a request with `body`, and the body the server then reads.
    async fn through(body: Body) -> (super::super::ReceivedRequest, Result<Bytes, String>) {
        let journal = Journal::new(10, &[], "X-API-Key");
        let request = axum::http::Request::post("/api/x").body(body).unwrap();
        let passed = record(&journal, None, request).await;
        let rest = passed.into_body().collect().await;
        let rest = rest.map(|c| c.to_bytes()).map_err(|e| e.to_string());
        (journal.requests().remove(0), rest)
    }

    #[tokio::test]
    async fn the_journal_keeps_the_start_of_a_body_and_the_server_gets_all_of_it() {
        let (entry, rest) = through(Body::from("{\"k\": 1}")).await;
        assert_eq!(
            (entry.body_text(), entry.body_truncated),
            (Some("{\"k\": 1}"), false)
        );
        assert_eq!(rest.unwrap(), "{\"k\": 1}");

        let big = vec![b'x'; JOURNAL_BODY_BYTES * 3];
        let chunks = big
            .chunks(1000)
            .map(|c| Ok::<_, io::Error>(Bytes::copy_from_slice(c)));
        let stream = futures_util::stream::iter(chunks.collect::<Vec<_>>());
        let (entry, rest) = through(Body::from_stream(stream)).await;
        assert_eq!(
            (entry.body.len(), entry.body_truncated),
            (JOURNAL_BODY_BYTES, true)
        );
        assert_eq!(rest.unwrap().len(), big.len());
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_that_does_not_come_is_not_waited_for_long() {
        let start = Bytes::from_static(b"half");
        let stream = futures_util::stream::iter([Ok::<_, io::Error>(start)])
            .chain(futures_util::stream::pending());
        let journal = Journal::new(10, &[], "X-API-Key");
        let request = axum::http::Request::post("/api/x")
            .body(Body::from_stream(stream))
            .unwrap();
        let started = tokio::time::Instant::now();
        let passed = record(&journal, None, request).await;
        assert_eq!(started.elapsed(), JOURNAL_BODY_WAIT);
        let entry = journal.requests().remove(0);
        assert_eq!(
            (entry.body_text(), entry.body_truncated),
            (Some("half"), true)
        );
        // What was read is passed on first.
        let mut body = passed.into_body();
        let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(first, "half");
    }
}
