//! What a test controls of a sample server: the scenarios set from Rust or over HTTP, the
//! `Prefer` header sent by any client, the journal of what was received and how it was
//! answered, and the admin API. One axum middleware around the sample server's router, the
//! same for the command line and the in-process [`MockServer`](super::MockServer); it also
//! writes the server's log line of each request (method, endpoint, query, key, status, the
//! time the answer took, a delay included; and requests the client abandoned).

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::Response;
use http_body::{Frame, SizeHint};
use http_body_util::BodyExt;

use super::admin;
use super::journal::{
    AnsweredBy, Finished, JOURNAL_BODY_BYTES, Journal, KeySent, Outcome, Received,
};
use super::plans::{Facts, Plans};
use super::prefer::{self, Preference};
use super::scenario::{Answer, Reply, Scenario, ScenarioError};
use crate::app::ErrorAnswers;
use crate::route::{Routed, Routes};
use crate::server::LoggedOutside;
use crate::{Endpoint, Protocol};

/// The `Preference-Applied` response header (RFC 7240): the preferences an answer followed.
const PREFERENCE_APPLIED: HeaderName = HeaderName::from_static("preference-applied");

/// The state of the middleware: what it controls, for one server.
pub(crate) struct Control {
    endpoints: &'static [Endpoint],
    routes: Routes,
    base_path: &'static str,
    errors: ErrorAnswers,
    /// Follow the `Prefer` header.
    prefer: bool,
    /// Serve the admin API (`/__admin/...`).
    admin: bool,
    plans: Plans,
    /// The journal (a capacity of 0 keeps nothing, and only redacts the log line).
    journal: Journal,
}

impl Control {
    /// The control of a server of `endpoints` under `protocol`, answering errors with
    /// `errors`; `prefer`: follow the `Prefer` header; `admin`: serve the admin API;
    /// `journal`: what is received.
    pub fn new(
        endpoints: &'static [Endpoint],
        protocol: Protocol,
        errors: ErrorAnswers,
        (prefer, admin): (bool, bool),
        journal: Journal,
    ) -> Self {
        Self {
            endpoints,
            routes: Routes::new(endpoints),
            base_path: protocol.base_path,
            errors,
            prefer,
            admin,
            plans: Plans::default(),
            journal,
        }
    }

    /// `router` behind the middleware.
    pub fn around(self: &Arc<Self>, router: Router) -> Router {
        router.layer(middleware::from_fn_with_state(self.clone(), control))
    }

    /// Adds `scenario` for `endpoint` once checked; its name.
    pub fn plan(&self, endpoint: &Endpoint, scenario: Scenario) -> Result<String, ScenarioError> {
        self.plans.add(self.endpoints, Some(endpoint.id), scenario)
    }

    /// The scenarios given.
    pub fn plans(&self) -> &Plans {
        &self.plans
    }

    /// The journal.
    pub fn journal(&self) -> &Journal {
        &self.journal
    }
}

/// What one request gets instead of its plain answer.
struct Step {
    answer: Answer,
    reply: Reply,
    retry_after: Option<u64>,
    /// From `Prefer` (said back in `Preference-Applied`).
    preferred: Option<Preference>,
    by: AnsweredBy,
}

/// The middleware: serves the admin API; records the request, then answers it as a scenario
/// or `Prefer` says, or lets the router answer; completes the journal's entry and logs it.
async fn control(State(control): State<Arc<Control>>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    if control.admin && request.uri().path().starts_with(admin::PREFIX) {
        return admin::answer(&control.plans, &control.journal, control.endpoints, request).await;
    }
    let path = request.uri().path().to_string();
    let routed = (control.routes).route(control.base_path, request.method().as_str(), &path);
    let (endpoint, path_params) = match &routed {
        Routed::Endpoint(matched) => (
            Some(matched.endpoint),
            (matched.params.iter())
                .map(|(name, value)| (*name, crate::text::percent_decode(value)))
                .collect(),
        ),
        _ => (None, Vec::new()),
    };
    let reads_body =
        control.journal.keeps() || endpoint.is_some_and(|e| control.plans.reads_body(e.id));
    let (mut request, body) = if reads_body {
        read_start(request).await
    } else {
        (request, Start::default())
    };
    let seq = control.journal.record(Received {
        method: request.method().as_str(),
        path: &path,
        query: request.uri().query().unwrap_or_default(),
        headers: request.headers(),
        body: &body.bytes,
        body_truncated: body.truncated,
        endpoint,
    });
    request.extensions_mut().insert(LoggedOutside);
    let mut pending = Pending::new(&control, &request, seq, started, endpoint);
    let Some(endpoint) = endpoint else {
        let response = next.run(request).await;
        pending.finish(&response, false);
        return response;
    };
    let query = request.uri().query().unwrap_or_default().to_string();
    let facts = Facts::new(&query, &path_params, &body.bytes);
    let step = match control.plans.next(endpoint.id, &facts) {
        Some((scenario, name)) => {
            let answer = scenario.response.answer(|s| control.errors.has(s));
            Step {
                retry_after: scenario.response.retry_after_secs(answer),
                answer,
                reply: scenario.response,
                preferred: None,
                by: AnsweredBy::Scenario(name),
            }
        }
        None if control.prefer => match preferred(&control, &request) {
            Preferred::Step(step) => step,
            Preferred::Nothing => return pending.run(next, request).await,
            Preferred::Refused(refused) => {
                pending.answered_by = AnsweredBy::Prefer;
                pending.finish(&refused, false);
                return refused;
            }
        },
        None => return pending.run(next, request).await,
    };
    pending.answered_by = step.by.clone();
    if step.reply.delay_ms > 0 {
        tokio::time::sleep(Duration::from_millis(step.reply.delay_ms)).await;
    }
    let mut response = match step.answer {
        Answer::Samples => next.run(request).await,
        Answer::ErrorObject(status) => {
            let by = match &step.by {
                AnsweredBy::Scenario(name) => format!("scenario {name:?} of the sample server"),
                _ => "the request's Prefer header".to_string(),
            };
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
            let answer = control
                .errors
                .answer(status, message, hint.to_string(), step.retry_after);
            match answer {
                Some(answer) => answer,
                // Only a status the spec has a code for is answered with the error object.
                None => plain(status, None, &step.reply.headers, step.retry_after),
            }
        }
        Answer::Plain(status) => plain(
            status,
            step.reply.body.as_deref(),
            &step.reply.headers,
            step.retry_after,
        ),
        Answer::Reset => Response::new(Body::new(Reset)),
    };
    if step.answer != Answer::Reset {
        for (name, value) in &step.reply.headers {
            if let (Ok(name), Ok(value)) = (
                HeaderName::from_bytes(name.as_bytes()),
                HeaderValue::from_str(value),
            ) {
                response.headers_mut().insert(name, value);
            }
        }
    }
    if let Some(preference) = step.preferred
        && let Ok(value) = HeaderValue::from_str(&preference.applied())
    {
        response.headers_mut().insert(PREFERENCE_APPLIED, value);
    }
    pending.finish(&response, step.answer == Answer::Reset);
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

/// What the `Prefer` header of `request` asks: any status a scenario answers (with the
/// spec's error object where it has a code for it, bare where it has none; `200` the
/// samples), a delay, a `Retry-After`.
fn preferred(control: &Control, request: &Request) -> Preferred {
    let values = request
        .headers()
        .get_all(header::HeaderName::from_static("prefer"));
    let hint = || {
        format!(
            "Prefer: code=<status> (200 to 599: with the error object for {}, bare for the \
             others; 200 the samples), delay=<ms> (at most {}), retry-after=<s> with a code",
            control.errors.statuses().join(", "),
            prefer::MAX_PREFER_DELAY.as_millis()
        )
    };
    let preference = match prefer::parse(values.iter().map(HeaderValue::as_bytes)) {
        Ok(Some(preference)) => preference,
        Ok(None) => return Preferred::Nothing,
        Err(error) => return Preferred::Refused(error.refused(&control.errors, hint())),
    };
    let reply = Reply {
        status: preference.code,
        retry_after: preference.retry_after,
        delay_ms: preference
            .delay
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
        ..Reply::default()
    };
    let answer = reply.answer(|s| control.errors.has(s));
    Preferred::Step(Step {
        retry_after: reply.retry_after_secs(answer),
        answer,
        reply,
        preferred: Some(preference),
        by: AnsweredBy::Prefer,
    })
}

/// A request in the middleware, until its answer: completes its journal entry and writes its
/// log line once answered, or, when dropped before (the client went away and the server
/// dropped the request), as abandoned.
struct Pending<'a> {
    control: &'a Control,
    seq: Option<u64>,
    started: Instant,
    method: String,
    /// The endpoint's id, or the path no endpoint serves.
    target: Target,
    query: String,
    key: KeySent,
    answered_by: AnsweredBy,
    done: bool,
}

enum Target {
    Endpoint(&'static str),
    Path(String),
}

impl<'a> Pending<'a> {
    fn new(
        control: &'a Control,
        request: &Request,
        seq: Option<u64>,
        started: Instant,
        endpoint: Option<&'static Endpoint>,
    ) -> Self {
        let headers: &HeaderMap = request.headers();
        let query = request.uri().query().unwrap_or_default();
        let logs = tracing::enabled!(tracing::Level::INFO);
        Self {
            control,
            seq,
            started,
            method: request.method().to_string(),
            target: match endpoint {
                Some(e) => Target::Endpoint(e.id),
                None => Target::Path(cut(request.uri().path()).to_string()),
            },
            query: if logs {
                cut(&control.journal.redact_text(query, headers)).to_string()
            } else {
                String::new()
            },
            key: control.journal.key_sent(headers),
            answered_by: AnsweredBy::Server,
            done: false,
        }
    }

    /// The router's answer to `request`.
    async fn run(mut self, next: Next, request: Request) -> Response {
        let response = next.run(request).await;
        self.finish(&response, false);
        response
    }

    /// Completes the entry with `response` (`reset`: a connection closed with no answer).
    fn finish(&mut self, response: &Response, reset: bool) {
        self.done = true;
        let outcome = if reset {
            Outcome::Reset
        } else {
            Outcome::Answered {
                status: response.status().as_u16(),
            }
        };
        let request_id = response
            .headers()
            .get(crate::server::REQUEST_ID_HEADER)
            .and_then(|id| id.to_str().ok())
            .unwrap_or_default();
        self.complete(outcome, request_id);
    }

    fn complete(&self, outcome: Outcome, request_id: &str) {
        let duration = self.started.elapsed();
        if let Some(seq) = self.seq {
            let finished = Finished {
                outcome,
                duration,
                answered_by: self.answered_by.clone(),
            };
            self.control.journal.finish(seq, finished);
        }
        let (endpoint, path) = match &self.target {
            Target::Endpoint(id) => (Some(*id), None),
            Target::Path(path) => (None, Some(path.as_str())),
        };
        let scenario = match &self.answered_by {
            AnsweredBy::Scenario(name) => Some(name.as_str()),
            _ => None,
        };
        let answered_by = match &self.answered_by {
            AnsweredBy::Server => "server",
            AnsweredBy::Scenario(_) => "scenario",
            AnsweredBy::Prefer => "prefer",
        };
        let micros = u64::try_from(duration.as_micros()).unwrap_or(u64::MAX);
        let (method, query, key) = (self.method.as_str(), self.query.as_str(), self.key.as_str());
        match outcome {
            Outcome::Answered { status } => tracing::info!(
                request_id,
                method,
                endpoint,
                path,
                query,
                key,
                status,
                micros,
                answered_by,
                scenario,
                "request"
            ),
            Outcome::Reset => tracing::info!(
                method,
                endpoint,
                path,
                query,
                key,
                micros,
                answered_by,
                scenario,
                "request: connection closed without an answer"
            ),
            Outcome::Abandoned | Outcome::Pending => tracing::info!(
                method,
                endpoint,
                path,
                query,
                key,
                micros,
                answered_by,
                scenario,
                "request abandoned: the client went away before the answer"
            ),
        }
    }
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.complete(Outcome::Abandoned, "");
        }
    }
}

/// `text` cut to 200 bytes, on a character boundary.
fn cut(text: &str) -> &str {
    let mut at = text.len().min(200);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    &text[..at]
}

/// How long the journal waits for a request's body: a client that announces a body and does
/// not send it holds the request no longer than this before the server sees it.
const JOURNAL_BODY_WAIT: Duration = Duration::from_secs(2);

/// The start of a request's body, as the journal and the matchers read it.
#[derive(Default)]
struct Start {
    /// At most [`JOURNAL_BODY_BYTES`] of it.
    bytes: Vec<u8>,
    /// The body was longer, came too slowly, or failed.
    truncated: bool,
}

/// Reads the start of `request`'s body (up to [`JOURNAL_BODY_BYTES`], as much as came within
/// [`JOURNAL_BODY_WAIT`]), and gives the request back whole: the body read so far, then the
/// rest as it comes.
async fn read_start(request: Request) -> (Request, Start) {
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
    let start = Start {
        bytes: read[..kept].to_vec(),
        truncated: read.len() > kept || !ended || failed.is_some(),
    };
    let body = if ended && failed.is_none() {
        Body::from(read)
    } else {
        Body::new(Prefixed {
            prefix: Some(Bytes::from(read)),
            rest: body,
            failed,
        })
    };
    (Request::from_parts(parts, body), start)
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

/// `status` outside the envelope (as a proxy answers): `body` (`text/plain` unless `headers`
/// name a content type) or an empty one, `Retry-After` when given.
fn plain(
    status: u16,
    body: Option<&str>,
    headers: &std::collections::BTreeMap<String, String>,
    retry_after: Option<u64>,
) -> Response {
    let mut response = match body {
        Some(text) => {
            let mut response = Response::new(Body::from(text.to_string()));
            if !headers.contains_key("content-type") {
                response.headers_mut().insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("text/plain; charset=utf-8"),
                );
            }
            response
        }
        None => Response::new(Body::empty()),
    };
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
    if let Some(seconds) = retry_after {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    use futures_util::StreamExt;

    /// The start of a request with `body` as read, and the body the server then reads.
    async fn through(body: Body) -> (Start, Result<Bytes, String>) {
        let request = axum::http::Request::post("/api/x").body(body).unwrap();
        let (passed, start) = read_start(request).await;
        let rest = passed.into_body().collect().await;
        let rest = rest.map(|c| c.to_bytes()).map_err(|e| e.to_string());
        (start, rest)
    }

    #[tokio::test]
    async fn the_start_of_a_body_is_read_and_the_server_gets_all_of_it() {
        let (start, rest) = through(Body::from("{\"k\": 1}")).await;
        assert_eq!(
            (start.bytes.as_slice(), start.truncated),
            (&b"{\"k\": 1}"[..], false)
        );
        assert_eq!(rest.unwrap(), "{\"k\": 1}");

        let big = vec![b'x'; JOURNAL_BODY_BYTES * 3];
        let chunks = big
            .chunks(1000)
            .map(|c| Ok::<_, io::Error>(Bytes::copy_from_slice(c)));
        let stream = futures_util::stream::iter(chunks.collect::<Vec<_>>());
        let (start, rest) = through(Body::from_stream(stream)).await;
        assert_eq!(
            (start.bytes.len(), start.truncated),
            (JOURNAL_BODY_BYTES, true)
        );
        assert_eq!(rest.unwrap().len(), big.len());
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_that_does_not_come_is_not_waited_for_long() {
        let start = Bytes::from_static(b"half");
        let stream = futures_util::stream::iter([Ok::<_, io::Error>(start)])
            .chain(futures_util::stream::pending());
        let request = axum::http::Request::post("/api/x")
            .body(Body::from_stream(stream))
            .unwrap();
        let started = tokio::time::Instant::now();
        let (passed, start) = read_start(request).await;
        assert_eq!(started.elapsed(), JOURNAL_BODY_WAIT);
        assert_eq!(
            (start.bytes.as_slice(), start.truncated),
            (&b"half"[..], true)
        );
        // What was read is passed on first.
        let mut body = passed.into_body();
        let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(first, "half");
    }

    #[test]
    fn plain_answers_carry_their_body_and_retry_after() {
        let none = std::collections::BTreeMap::new();
        let bare = plain(503, None, &none, Some(0));
        assert_eq!(bare.status(), 503);
        assert_eq!(bare.headers()["retry-after"], "0");
        assert!(bare.headers().get("content-type").is_none());
        let page = plain(502, Some("<h1>x</h1>"), &none, None);
        assert_eq!(page.headers()["content-type"], "text/plain; charset=utf-8");
        let mut typed = std::collections::BTreeMap::new();
        typed.insert("content-type".to_string(), "text/html".to_string());
        let page = plain(502, Some("<h1>x</h1>"), &typed, None);
        assert!(
            page.headers().get("content-type").is_none(),
            "set by the caller"
        );
        assert_eq!(cut(&"é".repeat(150)).len(), 200);
    }
}
