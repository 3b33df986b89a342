//! A request as the journal keeps it ([`ReceivedRequest`]): how it was answered
//! ([`Outcome`]), by what ([`AnsweredBy`]), and whether it sent a key ([`KeySent`]).

use std::time::Duration;

use crate::{Endpoint, RawParams};

/// One request an in-process sample server received, as it arrived, with every credential
/// replaced by `<redacted>`: the value of the key header (`X-API-Key`), of `Authorization`,
/// `Proxy-Authorization` and `Cookie`, and, wherever else it occurs (the path, the query,
/// other headers, the body), the text of every key the server accepts and of the key the
/// request sent when it is 8 bytes or longer.
///
/// Requests are recorded as they arrive, and completed when they are answered (the
/// [`outcome`](Self::outcome), the [`duration`](Self::duration), what
/// [`answered_by`](Self::answered_by) it): a request the client abandoned (it timed out
/// during a delay, say) is kept as [`Outcome::Abandoned`], with the time it waited. A request
/// whose head the server refused before routing (malformed, over the size limits) is not
/// recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReceivedRequest {
    /// The method (`GET`).
    pub method: String,
    /// The path, as sent (percent-encoded), the base path included (`/api/v1/...`).
    pub path: String,
    /// The query, as sent, without `?` (empty when there is none).
    pub query: String,
    /// The headers in the order received (names in lower case).
    pub headers: Vec<(String, String)>,
    /// The body (at most [`JOURNAL_BODY_BYTES`](super::JOURNAL_BODY_BYTES) of it, what arrived within 2 s).
    pub body: Vec<u8>,
    /// The body was longer than what [`body`](Self::body) keeps (or came too slowly).
    pub body_truncated: bool,
    /// The endpoint whose method and path the request has, if any.
    pub endpoint: Option<&'static Endpoint>,
    /// Whether the request sent a key, and whether the server accepts it.
    pub api_key: KeySent,
    /// How it was answered, once it was (or why it was not).
    pub outcome: Outcome,
    /// From its arrival to its answer (a scenario's or `Prefer`'s delay included), to the
    /// connection closed by a reset, or to the client going away; `None` while pending.
    pub duration: Option<Duration>,
    /// What answered it; `None` while pending.
    pub answered_by: Option<AnsweredBy>,
    /// Its place in the order of arrival, to complete it once answered.
    pub(super) seq: u64,
}

/// How a received request was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// Not answered yet: waiting for its answer, or for a scenario's delay.
    Pending,
    /// Answered with this status.
    Answered {
        /// The status of the answer.
        status: u16,
    },
    /// The connection was closed with no answer, as a scenario said ([`Scenario::reset`]).
    ///
    /// [`Scenario::reset`]: crate::mock::Scenario::reset
    Reset,
    /// The client went away before the answer (it timed out during a delay, say).
    Abandoned,
}

impl Outcome {
    /// The status answered, if one was.
    pub fn status(&self) -> Option<u16> {
        match self {
            Outcome::Answered { status } => Some(*status),
            _ => None,
        }
    }
}

/// What answered a received request.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnsweredBy {
    /// The sample server itself: the sample records, or its own answer (400 for invalid
    /// parameters, 401, 404, 410 ...).
    Server,
    /// The scenario of this name (see [`Scenario::named`]).
    ///
    /// [`Scenario::named`]: crate::mock::Scenario::named
    Scenario(String),
    /// The request's `Prefer` header.
    Prefer,
}

impl std::fmt::Display for AnsweredBy {
    /// `the server`, `scenario "gateway down"`, `the Prefer header`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnsweredBy::Server => f.write_str("the server"),
            AnsweredBy::Scenario(name) => write!(f, "scenario {name:?}"),
            AnsweredBy::Prefer => f.write_str("the Prefer header"),
        }
    }
}

impl KeySent {
    /// `none`, `accepted`, `refused`, `repeated`: as the log and the admin API say it.
    pub fn as_str(&self) -> &'static str {
        match self {
            KeySent::None => "none",
            KeySent::Accepted => "accepted",
            KeySent::Refused => "refused",
            KeySent::Repeated => "repeated",
        }
    }
}

/// Whether a received request sent an API key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeySent {
    /// No key header.
    None,
    /// One key the server accepts.
    Accepted,
    /// One key the server does not accept.
    Refused,
    /// The key header more than once.
    Repeated,
}

impl ReceivedRequest {
    /// True when the request was one of `endpoint` (by its method and path).
    pub fn is(&self, endpoint: &Endpoint) -> bool {
        self.endpoint.is_some_and(|e| e.id == endpoint.id)
    }

    /// The first value of the header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The query's pairs, percent-decoded, in the order sent.
    pub fn query_pairs(&self) -> Vec<(String, String)> {
        RawParams::from_query_string(&self.query)
            .query_pairs()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    /// The first value of the query parameter `name`, percent-decoded.
    pub fn query_param(&self, name: &str) -> Option<String> {
        self.query_pairs()
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }

    /// The body as text, when it is UTF-8.
    pub fn body_text(&self) -> Option<&str> {
        std::str::from_utf8(&self.body).ok()
    }

    /// `GET /api/v1/x?a=1 → 503 by scenario "down" (2003 ms)`: one line for messages.
    pub(crate) fn line(&self) -> String {
        let mut out = format!("{} {}", self.method, self.path);
        if !self.query.is_empty() {
            out.push('?');
            out.push_str(&self.query);
        }
        match self.outcome {
            Outcome::Pending => out.push_str(" → (pending)"),
            Outcome::Answered { status } => out.push_str(&format!(" → {status}")),
            Outcome::Reset => out.push_str(" → connection reset"),
            Outcome::Abandoned => out.push_str(" → abandoned by the client"),
        }
        if let Some(by) = &self.answered_by {
            out.push_str(&format!(" by {by}"));
        }
        if let Some(duration) = self.duration {
            out.push_str(&format!(" ({} ms)", duration.as_millis()));
        }
        out
    }
}
