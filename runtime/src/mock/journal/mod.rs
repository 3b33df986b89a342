//! The journal of a sample server: what it received and how each request was answered (the
//! time it took, a delay included; requests the client abandoned too), for a test's
//! assertions and the admin API, without the API key.
//!
//! The journal itself is here; what it keeps of a request in `request.rs`, the start of a
//! request's body it reads in `body.rs`, and a request on its way through the middleware
//! until its answer (its entry completed and its log line written) in `pending.rs`.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

mod body;
mod pending;
mod request;

pub use body::JOURNAL_BODY_BYTES;
pub(crate) use body::{Start, read_start};
pub(crate) use pending::Pending;
pub use request::{AnsweredBy, KeySent, Outcome, ReceivedRequest};

use crate::Endpoint;
use crate::redact::{REDACT_ELSEWHERE_FROM, REDACTED, redact};
use crate::server::{KeyStore, StaticKeys};

/// How a request ended, to complete its journal entry.
pub(crate) struct Finished {
    pub outcome: Outcome,
    pub duration: Duration,
    pub answered_by: AnsweredBy,
}

/// The received requests, the oldest first: at most `capacity`, the oldest forgotten beyond.
pub(crate) struct Journal {
    capacity: usize,
    /// The keys accepted, to tell [`KeySent`] and to redact where else they occur.
    keys: StaticKeys,
    secrets: Vec<String>,
    /// The key header, in lower case.
    auth_header: String,
    inner: Mutex<Entries>,
}

#[derive(Default)]
struct Entries {
    requests: VecDeque<ReceivedRequest>,
    forgotten: u64,
    /// The number of the next request.
    next: u64,
}

/// A request's head and the start of its body, as the journal takes them.
pub(crate) struct Received<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub query: &'a str,
    pub headers: &'a axum::http::HeaderMap,
    pub body: &'a [u8],
    pub body_truncated: bool,
    pub endpoint: Option<&'static Endpoint>,
}

impl Journal {
    /// A journal of at most `capacity` requests, for a server accepting `keys` in
    /// `auth_header`.
    pub fn new(capacity: usize, keys: &[String], auth_header: &str) -> Self {
        Self {
            capacity,
            keys: StaticKeys::new(keys),
            secrets: keys
                .iter()
                .filter(|k| k.len() >= REDACT_ELSEWHERE_FROM)
                .cloned()
                .collect(),
            auth_header: auth_header.to_ascii_lowercase(),
            inner: Mutex::new(Entries::default()),
        }
    }

    /// Whether it keeps requests (a capacity of 0 keeps none, and only redacts).
    pub fn keeps(&self) -> bool {
        self.capacity > 0
    }

    /// Records a request, credentials redacted; its number, to complete it with
    /// [`finish`](Self::finish) (`None` when the journal keeps nothing).
    pub fn record(&self, request: Received<'_>) -> Option<u64> {
        if self.capacity == 0 {
            return None;
        }
        let mut entry = self.redacted(request);
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let seq = inner.next;
        inner.next += 1;
        entry.seq = seq;
        while inner.requests.len() >= self.capacity {
            inner.requests.pop_front();
            inner.forgotten += 1;
        }
        inner.requests.push_back(entry);
        Some(seq)
    }

    /// Completes the request numbered `seq`, if the journal still holds it.
    pub fn finish(&self, seq: u64, finished: Finished) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let requests = &mut inner.requests;
        // Numbers grow with arrival, and the journal keeps arrival order.
        if let Ok(at) = requests.binary_search_by_key(&seq, |r| r.seq) {
            let entry = &mut requests[at];
            entry.outcome = finished.outcome;
            entry.duration = Some(finished.duration);
            entry.answered_by = Some(finished.answered_by);
        }
    }

    /// Whether the request with `headers` sent a key, and whether it is accepted.
    pub fn key_sent(&self, headers: &axum::http::HeaderMap) -> KeySent {
        let mut sent = headers.get_all(self.auth_header.as_str()).iter();
        match (sent.next(), sent.next()) {
            (None, _) => KeySent::None,
            (Some(key), None) => match key.to_str() {
                Ok(key) if self.keys.accepts(key) => KeySent::Accepted,
                _ => KeySent::Refused,
            },
            (Some(_), Some(_)) => KeySent::Repeated,
        }
    }

    /// `text` of a request with `headers`, every key redacted as in the journal (for the
    /// log line).
    pub fn redact_text(&self, text: &str, headers: &axum::http::HeaderMap) -> String {
        let secrets = self.secrets_of(headers);
        String::from_utf8_lossy(&redact(text.as_bytes(), &secrets)).into_owned()
    }

    /// The texts redacted wherever they occur: the accepted keys and the keys sent, when long
    /// enough.
    fn secrets_of<'a>(&'a self, headers: &'a axum::http::HeaderMap) -> Vec<&'a [u8]> {
        let mut secrets: Vec<&[u8]> = self.secrets.iter().map(|s| s.as_bytes()).collect();
        secrets.extend(
            headers
                .get_all(self.auth_header.as_str())
                .iter()
                .map(|v| v.as_bytes())
                .filter(|k| k.len() >= REDACT_ELSEWHERE_FROM),
        );
        secrets
    }

    fn redacted(&self, request: Received<'_>) -> ReceivedRequest {
        let api_key = self.key_sent(request.headers);
        let secrets = self.secrets_of(request.headers);
        let text = |bytes: &[u8]| String::from_utf8_lossy(&redact(bytes, &secrets)).into_owned();
        let headers = request
            .headers
            .iter()
            .map(|(name, value)| {
                let name = name.as_str();
                let value = if name == self.auth_header || is_credential(name) {
                    REDACTED.to_string()
                } else {
                    text(value.as_bytes())
                };
                (name.to_string(), value)
            })
            .collect();
        ReceivedRequest {
            method: request.method.to_string(),
            path: text(request.path.as_bytes()),
            query: text(request.query.as_bytes()),
            headers,
            body: redact(request.body, &secrets),
            body_truncated: request.body_truncated,
            endpoint: request.endpoint,
            api_key,
            outcome: Outcome::Pending,
            duration: None,
            answered_by: None,
            seq: 0,
        }
    }

    /// The requests kept, the oldest first.
    pub fn requests(&self) -> Vec<ReceivedRequest> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.requests.iter().cloned().collect()
    }

    /// How many requests were forgotten to keep at most `capacity`.
    pub fn forgotten(&self) -> u64 {
        self.inner
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .forgotten
    }

    /// Forgets every request (and the count of forgotten ones); numbers go on.
    pub fn clear(&self) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let next = inner.next;
        *inner = Entries {
            next,
            ..Entries::default()
        };
    }
}

/// Headers that carry credentials of other schemes than the API's key.
fn is_credential(name: &str) -> bool {
    matches!(name, "authorization" | "proxy-authorization" | "cookie")
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::{HeaderMap, HeaderValue};

    const KEY: &str = "secret-key-1234";

    fn journal(capacity: usize) -> Journal {
        Journal::new(capacity, &[KEY.to_string()], "X-API-Key")
    }

    fn received<'a>(headers: &'a HeaderMap, query: &'a str, body: &'a [u8]) -> Received<'a> {
        Received {
            method: "GET",
            path: "/api/v1/x",
            query,
            headers,
            body,
            body_truncated: false,
            endpoint: None,
        }
    }

    #[test]
    fn credentials_never_reach_the_journal() {
        let journal = journal(10);
        let mut headers = HeaderMap::new();
        headers.insert("x-api-key", HeaderValue::from_static(KEY));
        headers.insert("authorization", HeaderValue::from_static("Bearer abc"));
        headers.insert(
            "x-note",
            HeaderValue::from_static("copied secret-key-1234 here"),
        );
        let query = "symbol=A&api_key=secret-key-1234";
        journal.record(received(&headers, query, b"{\"k\":\"secret-key-1234\"}"));
        let entry = &journal.requests()[0];
        assert_eq!(entry.api_key, KeySent::Accepted);
        assert_eq!(entry.header("X-API-Key"), Some(REDACTED));
        assert_eq!(entry.header("authorization"), Some(REDACTED));
        assert_eq!(entry.header("x-note"), Some("copied <redacted> here"));
        assert_eq!(entry.query, "symbol=A&api_key=<redacted>");
        assert_eq!(entry.body_text(), Some("{\"k\":\"<redacted>\"}"));
        assert!(!format!("{entry:?}").contains(KEY));

        // A key the server does not accept is redacted as well, wherever it occurs when long.
        let mut headers = HeaderMap::new();
        let wrong = "wrong-key-5678";
        headers.insert("x-api-key", HeaderValue::from_static(wrong));
        journal.record(received(&headers, "k=wrong-key-5678", b""));
        let entry = &journal.requests()[1];
        assert_eq!(entry.api_key, KeySent::Refused);
        assert_eq!(entry.query, "k=<redacted>");
        assert!(!format!("{entry:?}").contains(wrong));

        // Short keys are redacted in their header only.
        let mut headers = HeaderMap::new();
        headers.append("x-api-key", HeaderValue::from_static("k1"));
        headers.append("x-api-key", HeaderValue::from_static("k2"));
        journal.record(received(&headers, "k1=k2", b""));
        let entry = &journal.requests()[2];
        assert_eq!(entry.api_key, KeySent::Repeated);
        assert_eq!(entry.query, "k1=k2");
        let keys: Vec<_> = entry.headers.iter().map(|(_, v)| v.as_str()).collect();
        assert_eq!(keys, [REDACTED, REDACTED]);
    }

    #[test]
    fn the_journal_keeps_the_newest_up_to_its_capacity() {
        let journal = journal(2);
        let headers = HeaderMap::new();
        for query in ["a=1", "a=2", "a=3"] {
            journal.record(received(&headers, query, b""));
        }
        let queries: Vec<_> = journal.requests().into_iter().map(|r| r.query).collect();
        assert_eq!(queries, ["a=2", "a=3"]);
        assert_eq!(journal.forgotten(), 1);
        assert_eq!(journal.requests()[0].query_param("a").as_deref(), Some("2"));
        assert_eq!(journal.requests()[0].api_key, KeySent::None);
        journal.clear();
        assert!(journal.requests().is_empty() && journal.forgotten() == 0);
        let off = Journal::new(0, &[], "X-API-Key");
        off.record(received(&headers, "a=1", b""));
        assert!(off.requests().is_empty());
    }

    #[test]
    fn an_entry_is_completed_once_answered_while_the_journal_holds_it() {
        let journal = journal(2);
        let headers = HeaderMap::new();
        let first = journal.record(received(&headers, "a=1", b"")).unwrap();
        let second = journal.record(received(&headers, "a=2", b"")).unwrap();
        assert_eq!(journal.requests()[0].outcome, Outcome::Pending);
        journal.finish(
            second,
            Finished {
                outcome: Outcome::Abandoned,
                duration: Duration::from_millis(120),
                answered_by: AnsweredBy::Scenario("slow".into()),
            },
        );
        let third = journal.record(received(&headers, "a=3", b"")).unwrap();
        // The first is forgotten: completing it changes nothing.
        journal.finish(
            first,
            Finished {
                outcome: Outcome::Answered { status: 200 },
                duration: Duration::ZERO,
                answered_by: AnsweredBy::Server,
            },
        );
        let entries = journal.requests();
        assert_eq!(entries[0].outcome, Outcome::Abandoned);
        assert_eq!(entries[0].duration, Some(Duration::from_millis(120)));
        assert_eq!(
            entries[0].line(),
            "GET /api/v1/x?a=2 → abandoned by the client by scenario \"slow\" (120 ms)"
        );
        assert_eq!(
            (entries[1].outcome, entries[1].answered_by.clone()),
            (Outcome::Pending, None)
        );
        assert_eq!(third, 2);
        assert_eq!(
            Journal::new(0, &[], "X-API-Key").record(received(&headers, "", b"")),
            None
        );
    }
}
