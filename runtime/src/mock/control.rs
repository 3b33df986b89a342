//! What a test controls of a sample server, in one axum middleware around its router, the
//! same for the command line and the in-process [`MockServer`](super::MockServer): the admin
//! API (`admin.rs`) first; then each request is recorded in the journal (`journal/`), and
//! answered as a scenario (`scenario/`, its matchers read by `plans.rs`) or its `Prefer`
//! header (`prefer.rs`) says, or by the router; its journal entry is completed and its log
//! line written once it is answered (method, endpoint, query, key, status, the time the
//! answer took, a delay included; and requests the client abandoned).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::{self, Next};
use axum::response::Response;

use super::admin;
use super::journal::{AnsweredBy, Journal, Pending, Received, Start, read_start};
use super::plans::{Facts, Plans};
use super::prefer::{self, PREFERENCE_APPLIED, Preference, Preferred};
use super::scenario::{Reply, Reset, Scenario, ScenarioAnswer, ScenarioError, plain};
use crate::app::ErrorAnswers;
use crate::route::{Routed, Routes};
use crate::server::LoggedOutside;
use crate::{Endpoint, Protocol};

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
    answer: ScenarioAnswer,
    reply: Reply,
    retry_after: Option<u64>,
    /// From `Prefer` (said back in `Preference-Applied`).
    preferred: Option<Preference>,
    by: AnsweredBy,
}

impl Step {
    /// The step of `reply`, resolved against the spec's error codes in `errors`.
    fn new(
        reply: Reply,
        errors: &ErrorAnswers,
        preferred: Option<Preference>,
        by: AnsweredBy,
    ) -> Self {
        let answer = reply.answer(|s| errors.has(s));
        Self {
            retry_after: reply.retry_after_secs(answer),
            answer,
            reply,
            preferred,
            by,
        }
    }
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
    let mut pending = Pending::new(&control.journal, &request, seq, started, endpoint);
    let Some(endpoint) = endpoint else {
        let response = next.run(request).await;
        pending.finish(&response, false);
        return response;
    };
    let query = request.uri().query().unwrap_or_default().to_string();
    let facts = Facts::new(&query, &path_params, &body.bytes);
    let step = match control.plans.next(endpoint.id, &facts) {
        Some((scenario, name)) => Step::new(
            scenario.response,
            &control.errors,
            None,
            AnsweredBy::Scenario(name),
        ),
        None if control.prefer => match prefer::preferred(&control.errors, &request) {
            Preferred::Reply(preference, reply) => {
                Step::new(reply, &control.errors, Some(preference), AnsweredBy::Prefer)
            }
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
        ScenarioAnswer::Samples => next.run(request).await,
        ScenarioAnswer::ErrorObject(status) => {
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
        ScenarioAnswer::Plain(status) => plain(
            status,
            step.reply.body.as_deref(),
            &step.reply.headers,
            step.retry_after,
        ),
        ScenarioAnswer::Reset => Response::new(Body::new(Reset)),
    };
    if step.answer != ScenarioAnswer::Reset {
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
    pending.finish(&response, step.answer == ScenarioAnswer::Reset);
    response
}
