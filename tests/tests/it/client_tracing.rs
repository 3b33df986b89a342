//! What the client tells `tracing`, seen by a recording subscriber: a `mrds.call` span per
//! call, a `mrds.attempt` span per attempt inside it, no field in two nested spans, a WARN
//! event per retry, one INFO event per finished call (endpoint, status, attempts, request id,
//! elapsed time), and never the API key or the query.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, Once};

use futures_util::TryStreamExt;
use mrds_model::params::PersonCommentaryParams;
use serde_json::json;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

use super::client::{
    KEY, PERSON, Reply, commentary_row, dividend, dividends, failure, http, serve, success,
};

/// A span or an event as recorded: its name (an event's is its message), level, the index of
/// its parent span, and its fields as text.
#[derive(Clone, Debug)]
pub(crate) struct Recorded {
    pub(crate) name: String,
    pub(crate) target: String,
    pub(crate) level: tracing::Level,
    parent: Option<usize>,
    fields: BTreeMap<String, String>,
}

impl Recorded {
    pub(crate) fn field(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(String::as_str)
    }
}

#[derive(Clone, Default)]
pub(crate) struct Recording {
    spans: Arc<Mutex<Vec<Recorded>>>,
    events: Arc<Mutex<Vec<Recorded>>>,
}

impl Recording {
    fn spans(&self, name: &str) -> Vec<(usize, Recorded)> {
        let spans = self.spans.lock().unwrap();
        spans
            .iter()
            .enumerate()
            .filter(|(_, s)| s.name == name)
            .map(|(i, s)| (i, s.clone()))
            .collect()
    }

    pub(crate) fn events(&self) -> Vec<Recorded> {
        self.events.lock().unwrap().clone()
    }

    /// The events with this message.
    fn events_named(&self, name: &str) -> Vec<Recorded> {
        self.events()
            .into_iter()
            .filter(|e| e.name == name)
            .collect()
    }

    /// Fails when a span records a field one of its ancestors records too (a subscriber
    /// printing the span context would show it twice).
    fn assert_no_field_in_two_nested_spans(&self) {
        let spans = self.spans.lock().unwrap();
        for span in spans.iter() {
            let mut parent = span.parent;
            while let Some(p) = parent {
                let shared: Vec<_> = span
                    .fields
                    .keys()
                    .filter(|k| spans[p].fields.contains_key(*k))
                    .collect();
                assert!(
                    shared.is_empty(),
                    "{} and its ancestor {} both record {shared:?}",
                    span.name,
                    spans[p].name
                );
                parent = spans[p].parent;
            }
        }
    }

    /// Every name and value recorded, as one text.
    fn everything(&self) -> String {
        let spans = self.spans.lock().unwrap();
        let events = self.events.lock().unwrap();
        format!("{:?} {:?}", *spans, *events)
    }
}

/// Where a recorded span's record is: its recording and index (span ids are reused once a
/// span closes, so the registry's extensions keep this).
struct Slot(Recording, usize);

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_string(), value.to_string());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0
            .insert(field.name().to_string(), format!("{value:?}"));
    }
}

thread_local! {
    /// The recording of the test running on this thread, if it records.
    static CURRENT: RefCell<Option<Recording>> = const { RefCell::new(None) };
}

/// Sends what happens on a thread to that thread's recording.
struct Router;

impl<S: tracing::Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Router {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let Some(recording) = CURRENT.with(|c| c.borrow().clone()) else {
            return;
        };
        let mut fields = BTreeMap::new();
        attrs.record(&mut Fields(&mut fields));
        let span = ctx.span(id).expect("a new span is registered");
        let parent = span
            .parent()
            .and_then(|p| p.extensions().get::<Slot>().map(|slot| slot.1));
        let index = {
            let mut spans = recording.spans.lock().unwrap();
            spans.push(Recorded {
                name: attrs.metadata().name().to_string(),
                target: attrs.metadata().target().to_string(),
                level: *attrs.metadata().level(),
                parent,
                fields,
            });
            spans.len() - 1
        };
        span.extensions_mut().insert(Slot(recording, index));
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        let extensions = span.extensions();
        let Some(Slot(recording, index)) = extensions.get::<Slot>() else {
            return;
        };
        let mut spans = recording.spans.lock().unwrap();
        values.record(&mut Fields(&mut spans[*index].fields));
    }

    fn on_event(&self, event: &tracing::Event<'_>, ctx: Context<'_, S>) {
        let Some(recording) = CURRENT.with(|c| c.borrow().clone()) else {
            return;
        };
        let mut fields = BTreeMap::new();
        event.record(&mut Fields(&mut fields));
        let parent = ctx
            .event_span(event)
            .and_then(|s| s.extensions().get::<Slot>().map(|slot| slot.1));
        recording.events.lock().unwrap().push(Recorded {
            name: fields.get("message").cloned().unwrap_or_default(),
            target: event.metadata().target().to_string(),
            level: *event.metadata().level(),
            parent,
            fields,
        });
    }
}

/// Stops recording when dropped.
pub(crate) struct RecordingGuard;

impl Drop for RecordingGuard {
    fn drop(&mut self) {
        CURRENT.with(|c| c.borrow_mut().take());
    }
}

/// Records everything traced on this thread (the tests run on a current-thread runtime, so
/// the client, its connections and the canned server all run here) until the guard drops.
///
/// The subscriber is global, installed once, and routes by thread: with a thread-scoped
/// default instead, a callsite first reached on another thread while this test's subscriber
/// is the only one would be cached as uninteresting, and this test would miss its spans.
pub(crate) fn record() -> (Recording, RecordingGuard) {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        tracing::subscriber::set_global_default(tracing_subscriber::registry().with(Router))
            .expect("no other global subscriber in the test binary");
    });
    let recording = Recording::default();
    CURRENT.with(|c| *c.borrow_mut() = Some(recording.clone()));
    (recording, RecordingGuard)
}

#[tokio::test]
async fn a_call_is_a_span_of_attempts_warnings_per_retry_and_one_event_at_the_end() {
    let server = serve(|n, _| match n {
        0 => http(
            503,
            &[("x-request-id", "req-503")],
            &failure("INTERNAL_ERROR", "try later", json!([])),
        ),
        1 => Reply::Reset,
        _ => http(
            200,
            &[("x-request-id", "req-ok-1")],
            &success(json!([dividend()])),
        ),
    })
    .await;
    let (recording, _guard) = record();
    server.client().stock_dividends(&dividends()).await.unwrap();

    let calls = recording.spans("mrds.call");
    assert_eq!(calls.len(), 1, "{calls:?}");
    let (call_index, call) = &calls[0];
    assert_eq!(call.level, tracing::Level::INFO);
    let fields: Vec<_> = call
        .fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        fields,
        [
            ("endpoint", "stock_dividends"),
            ("method", "GET"),
            ("path", "/v1/stocks/dividends")
        ]
    );

    let attempts = recording.spans("mrds.attempt");
    assert_eq!(attempts.len(), 3, "{attempts:?}");
    for (n, (_, attempt)) in attempts.iter().enumerate() {
        assert_eq!(
            attempt.parent,
            Some(*call_index),
            "attempts are inside the call"
        );
        assert_eq!(attempt.level, tracing::Level::DEBUG);
        assert_eq!(attempt.field("attempt"), Some((n + 1).to_string().as_str()));
    }
    let field = |n: usize, name| attempts[n].1.field(name).map(str::to_string);
    assert_eq!(field(0, "status").as_deref(), Some("503"));
    assert_eq!(field(0, "request_id").as_deref(), Some("req-err-1"));
    assert_eq!(field(0, "error").as_deref(), Some("api"));
    assert_eq!(field(1, "status"), None);
    assert_eq!(field(1, "error").as_deref(), Some("reset"));
    assert_eq!(field(2, "status").as_deref(), Some("200"));
    assert_eq!(field(2, "request_id").as_deref(), Some("req-ok-1"));
    recording.assert_no_field_in_two_nested_spans();

    // A warning per retry, in the call's span, saying what failed.
    let retries = recording.events_named("retrying");
    assert_eq!(retries.len(), 2, "{retries:?}");
    assert!(retries.iter().all(|e| e.level == tracing::Level::WARN));
    assert!(retries.iter().all(|e| e.parent == Some(*call_index)));
    assert!(retries.iter().all(|e| e.field("wait_ms").is_some()));
    let retry = |n: usize, name| retries[n].field(name);
    assert_eq!(
        (retry(0, "attempt"), retry(0, "reason"), retry(0, "status")),
        (Some("1"), Some("api"), Some("503"))
    );
    assert_eq!(retry(0, "request_id"), Some("req-err-1"));
    assert_eq!(
        (retry(1, "attempt"), retry(1, "reason"), retry(1, "status")),
        (Some("2"), Some("reset"), None)
    );

    // One event for the whole call, at INFO, outside the call's span.
    let finished = recording.events_named("call finished");
    assert_eq!(finished.len(), 1, "{:?}", recording.events());
    let done = &finished[0];
    assert_eq!(done.level, tracing::Level::INFO);
    assert_eq!(done.parent, None);
    assert_eq!(done.field("endpoint"), Some("stock_dividends"));
    assert_eq!(done.field("status"), Some("200"));
    assert_eq!(done.field("attempts"), Some("3"));
    assert_eq!(done.field("request_id"), Some("req-ok-1"));
    assert!(
        done.field("elapsed_ms")
            .is_some_and(|ms| ms.parse::<u64>().is_ok())
    );
    assert_eq!(done.field("error"), None);
    // Nothing else is said at INFO or above.
    let loud: Vec<_> = recording
        .events()
        .into_iter()
        .filter(|e| e.level <= tracing::Level::INFO && e.name != "retrying")
        .collect();
    assert_eq!(loud.len(), 1, "{loud:?}");

    let everything = recording.everything();
    assert!(!everything.contains(KEY), "the key is never traced");
    assert!(!everything.contains("symbol="), "the query is not traced");
}

#[tokio::test]
async fn a_failed_call_ends_with_one_event_naming_the_error() {
    let server =
        serve(|_, _| http(503, &[], &failure("INTERNAL_ERROR", "try later", json!([])))).await;
    let (recording, _guard) = record();
    let err = server
        .client()
        .stock_dividends(&dividends())
        .await
        .unwrap_err();
    assert_eq!(err.attempts(), 4);
    let failed = recording.events_named("call failed");
    assert_eq!(failed.len(), 1, "{:?}", recording.events());
    let done = &failed[0];
    assert_eq!(done.level, tracing::Level::INFO);
    assert_eq!(done.field("endpoint"), Some("stock_dividends"));
    assert_eq!(done.field("attempts"), Some("4"));
    assert_eq!(done.field("status"), Some("503"));
    assert_eq!(done.field("error"), Some("api"));
    assert_eq!(done.field("request_id"), Some("req-err-1"));
    assert_eq!(recording.spans("mrds.attempt").len(), 4);
    assert_eq!(recording.events_named("retrying").len(), 3);
    recording.assert_no_field_in_two_nested_spans();

    // Invalid input: a call span with no attempt, and its event says so.
    let params = dividends().with_limit(0);
    let err = server.client().stock_dividends(&params).await.unwrap_err();
    assert_eq!(err.attempts(), 0);
    assert_eq!(recording.spans("mrds.call").len(), 2);
    let failed = recording.events_named("call failed");
    assert_eq!(failed.len(), 2);
    assert_eq!(failed[1].field("attempts"), Some("0"));
    assert_eq!(failed[1].field("error"), Some("invalid_input"));
    assert_eq!(failed[1].field("status"), None);
    assert_eq!(recording.spans("mrds.attempt").len(), 4);
    assert!(!recording.everything().contains(KEY));
}

#[tokio::test]
async fn a_stream_is_a_span_holding_one_call_per_page() {
    let server = serve(|n, _| {
        let rows = if n == 0 {
            json!([commentary_row(0), commentary_row(1)])
        } else {
            json!([])
        };
        http(
            200,
            &[],
            &json!({"success": true, "request_id": format!("page-{n}"), "data": rows}).to_string(),
        )
    })
    .await;
    let (recording, _guard) = record();
    let params = PersonCommentaryParams::new(PERSON, 1_700_000_000, 1_710_000_000).with_limit(2);
    let rows: Vec<_> = server
        .client()
        .person_commentary_stream(&params)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(rows.len(), 2);
    let streams = recording.spans("mrds.stream");
    assert_eq!(streams.len(), 1);
    assert!(streams[0].1.fields.is_empty(), "{streams:?}");
    let calls = recording.spans("mrds.call");
    assert_eq!(calls.len(), 2);
    assert!(calls.iter().all(|(_, c)| c.parent == Some(streams[0].0)));
    assert!(
        calls
            .iter()
            .all(|(_, c)| c.field("endpoint") == Some("person_commentary"))
    );
    let finished = recording.events_named("call finished");
    assert!(finished.iter().all(|e| e.parent == Some(streams[0].0)));
    let ids: Vec<_> = finished.iter().map(|e| e.field("request_id")).collect();
    assert_eq!(ids, [Some("page-0"), Some("page-1")]);
    recording.assert_no_field_in_two_nested_spans();
}
