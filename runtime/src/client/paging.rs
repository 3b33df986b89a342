//! Streaming every record of an endpoint that pages with a page size and an offset.
//!
//! The rule (also in [`Transport::stream_all`]):
//!
//! - the first page is requested at the offset of the parameters; the next one at that offset
//!   plus the number of records received, so a service that caps pages below the requested
//!   size loses nothing;
//! - the stream ends after an empty page, or after a page whose envelope's `pagination` object
//!   says there is no more: `has_more: false`, or a `total` the offset reached. A page shorter
//!   than the page size does not end it (a service with a smaller cap answers short pages
//!   before the end);
//! - a non-empty page that repeats the previous page record for record (the same serialized
//!   JSON) means the offset is ignored: the stream fails with [`Error::Paging`] naming both
//!   offsets instead of looping or yielding the records again;
//! - the first error is yielded and ends the stream.

use std::fmt;
use std::hash::Hasher;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_util::{Stream, TryStreamExt};
use tracing::Instrument;

use super::Transport;
use super::error::{Error, PagingError};
use crate::{ErrorBody, JsonValue, Paged, Request};

/// Every record of an offset-paged endpoint, page after page (see
/// [`Transport::stream_all`] for when it ends). `Unpin`, so `.next().await` works on it
/// without pinning; `Send`, so it can move to another task.
pub struct RecordStream<T, E> {
    inner: Pin<Box<dyn Stream<Item = Result<T, Error<E>>> + Send>>,
}

impl<T, E> fmt::Debug for RecordStream<T, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RecordStream").finish_non_exhaustive()
    }
}

impl<T, E> Stream for RecordStream<T, E> {
    type Item = Result<T, Error<E>>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.inner.as_mut().poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl Transport {
    /// Every record of an endpoint that pages with a page size and an offset, page after
    /// page, as an `Unpin` stream (`.next().await` works without pinning).
    ///
    /// The first page is requested at `params.offset`; each next one at the offset advanced
    /// by the number of records received (not by the page size, so a service that caps pages
    /// below `limit` loses nothing). The stream ends after an empty page, or after a page
    /// whose envelope's `pagination` says there is no more (`has_more: false`, or a `total`
    /// the records so far reach). A short page alone does not end it. A page that repeats
    /// the previous one record for record (the service or a proxy ignores the offset) fails
    /// with [`Error::Paging`] naming both offsets, so the stream can neither loop nor yield
    /// duplicates. The first error is yielded and ends the stream; each page is one call,
    /// with its own retries and deadline.
    pub fn stream_all<P, E>(&self, params: P) -> RecordStream<P::Record, E>
    where
        P: Paged,
        P::Record: Send + 'static,
        E: ErrorBody,
    {
        RecordStream::new(self.clone(), params)
    }
}

/// What the stream remembers of the last non-empty page.
struct Seen {
    offset: i64,
    records: usize,
    fingerprint: Option<u64>,
}

struct PagingState<P> {
    transport: Transport,
    params: P,
    previous: Option<Seen>,
}

impl<T: Send + 'static, E: ErrorBody> RecordStream<T, E> {
    fn new<P>(transport: Transport, params: P) -> Self
    where
        P: Paged + Request<Record = T>,
    {
        // No fields: its page calls name the endpoint (in their spans and events).
        let span = tracing::info_span!("mrds.stream");
        let state = PagingState {
            transport,
            params,
            previous: None,
        };
        let pages = futures_util::stream::try_unfold(Some(state), move |state| {
            next_page::<P, E>(state).instrument(span.clone())
        });
        let records = pages
            .map_ok(|records| futures_util::stream::iter(records.into_iter().map(Ok)))
            .try_flatten();
        Self {
            inner: Box::pin(records),
        }
    }
}

/// One step: the page at the current offset, and the state for the next one (`None` when
/// this page was the last).
#[allow(clippy::type_complexity)]
async fn next_page<P: Paged, E: ErrorBody>(
    state: Option<PagingState<P>>,
) -> Result<Option<(Vec<P::Record>, Option<PagingState<P>>)>, Error<E>> {
    let Some(mut state) = state else {
        return Ok(None);
    };
    let offset = state.params.offset();
    let (page, attempts) = state.transport.call::<P, E>(&state.params).await?;
    let records = page.data.len();
    if records > 0 {
        let fingerprint = fingerprint(&page.data);
        if let Some(previous) = &state.previous
            && previous.records == records
            && previous.fingerprint.is_some()
            && previous.fingerprint == fingerprint
        {
            let error = PagingError {
                endpoint: P::ENDPOINT.id,
                offset: previous.offset,
                repeated_at: offset,
                records,
                request_id: page.request_id,
                attempts,
            };
            tracing::warn!(%error, "paging stopped");
            return Err(Error::Paging(error));
        }
        state.previous = Some(Seen {
            offset,
            records,
            fingerprint,
        });
    }
    // Records left out because they did not decode still took their place in the page.
    let held = records.saturating_add(page.skipped);
    let next_offset = offset.saturating_add(i64::try_from(held).unwrap_or(i64::MAX));
    let last = held == 0 || pagination_says_last(page.pagination.as_ref(), next_offset);
    tracing::debug!(offset, records, last, "page");
    let next = if last {
        None
    } else {
        state.params.set_offset(next_offset);
        Some(state)
    };
    Ok(Some((page.data, next)))
}

/// The keys of the envelope's `pagination` object the paging streams read: `has_more` (a
/// boolean) and `total` (an integer). The interface description does not show the object's
/// content, so these are the project's assumption; the spec's doc of the field names them.
pub const PAGINATION_KEYS: [&str; 2] = ["has_more", "total"];

/// Whether the envelope's `pagination` says the page just received was the last:
/// `has_more: false`, or a `total` that `next_offset` reaches ([`PAGINATION_KEYS`]). The spec
/// does not show the object's content, so anything else says nothing.
pub(crate) fn pagination_says_last(pagination: Option<&JsonValue>, next_offset: i64) -> bool {
    let Some(pagination) = pagination else {
        return false;
    };
    if let Some(more) = pagination
        .get(PAGINATION_KEYS[0])
        .and_then(JsonValue::as_bool)
    {
        return !more;
    }
    pagination
        .get(PAGINATION_KEYS[1])
        .and_then(JsonValue::as_i64)
        .is_some_and(|total| next_offset >= total)
}

/// A hash of the records' JSON (the serialization of what was decoded, so two pages with
/// the same records hash alike whatever the spacing of the bodies); `None` if they do not
/// serialize, which makes the page unlike any other.
fn fingerprint<T: serde::Serialize>(records: &[T]) -> Option<u64> {
    struct HashWriter(std::collections::hash_map::DefaultHasher);
    impl std::io::Write for HashWriter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.write(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut writer = HashWriter(Default::default());
    serde_json::to_writer(&mut writer, records).ok()?;
    Some(writer.0.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pagination_metadata_ends_only_when_it_says_so() {
        let last = |p: serde_json::Value, next| {
            let p: JsonValue = serde_json::from_value(p).unwrap();
            pagination_says_last(Some(&p), next)
        };
        assert!(last(json!({"has_more": false, "total": 100}), 10));
        assert!(!last(json!({"has_more": true, "total": 5}), 10));
        assert!(last(json!({"total": 10}), 10));
        assert!(!last(json!({"total": 11}), 10));
        assert!(!last(json!({"limit": 2, "offset": 0}), 10));
        assert!(!last(json!({"has_more": "no"}), 10));
        assert!(!last(json!(null), 10));
        assert!(!pagination_says_last(None, 10));
    }

    #[test]
    fn fingerprints_follow_the_records() {
        let a = fingerprint(&[json!({"a": 1}), json!({"b": [1, 2]})]);
        assert!(a.is_some());
        assert_eq!(a, fingerprint(&[json!({"a": 1}), json!({"b": [1, 2]})]));
        assert_ne!(a, fingerprint(&[json!({"a": 1}), json!({"b": [2, 1]})]));
        assert_ne!(a, fingerprint(&[json!({"b": [1, 2]}), json!({"a": 1})]));
    }
}
