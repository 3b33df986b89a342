//! A request on its way through the sample server's middleware, until its answer
//! ([`Pending`]): its journal entry completed and its log line written once answered (method,
//! endpoint, query with keys redacted, key, status, the time the answer took, a delay
//! included, what answered it), or, when it is dropped before, as abandoned.

use std::time::Instant;

use axum::extract::Request;
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;

use super::request::{AnsweredBy, KeySent, Outcome};
use super::{Finished, Journal};
use crate::Endpoint;

/// A request in the middleware, until its answer: completes its journal entry and writes its
/// log line once answered, or, when dropped before (the client went away and the server
/// dropped the request), as abandoned.
pub(crate) struct Pending<'a> {
    journal: &'a Journal,
    seq: Option<u64>,
    started: Instant,
    method: String,
    /// The endpoint's id, or the path no endpoint serves.
    target: Target,
    query: String,
    key: KeySent,
    /// What answers it (the server unless a scenario or `Prefer` does).
    pub(crate) answered_by: AnsweredBy,
    done: bool,
}

enum Target {
    Endpoint(&'static str),
    Path(String),
}

impl<'a> Pending<'a> {
    pub(crate) fn new(
        journal: &'a Journal,
        request: &Request,
        seq: Option<u64>,
        started: Instant,
        endpoint: Option<&'static Endpoint>,
    ) -> Self {
        let headers: &HeaderMap = request.headers();
        let query = request.uri().query().unwrap_or_default();
        let logs = tracing::enabled!(tracing::Level::INFO);
        Self {
            journal,
            seq,
            started,
            method: request.method().to_string(),
            target: match endpoint {
                Some(e) => Target::Endpoint(e.id),
                None => Target::Path(cut(request.uri().path()).to_string()),
            },
            query: if logs {
                cut(&journal.redact_text(query, headers)).to_string()
            } else {
                String::new()
            },
            key: journal.key_sent(headers),
            answered_by: AnsweredBy::Server,
            done: false,
        }
    }

    /// The router's answer to `request`.
    pub(crate) async fn run(mut self, next: Next, request: Request) -> Response {
        let response = next.run(request).await;
        self.finish(&response, false);
        response
    }

    /// Completes the entry with `response` (`reset`: a connection closed with no answer).
    pub(crate) fn finish(&mut self, response: &Response, reset: bool) {
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
            self.journal.finish(seq, finished);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_cut_on_a_character_boundary() {
        assert_eq!(cut(&"é".repeat(150)).len(), 200);
    }
}
