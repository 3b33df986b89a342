//! The start of a request's body, as the journal and the scenarios' matchers read it: at most
//! [`JOURNAL_BODY_BYTES`], what came within a short wait, and the request given back whole.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use http_body::{Frame, SizeHint};
use http_body_util::BodyExt;

/// The most of a request's body the journal keeps: 16 KiB (the rest is read by the server,
/// not kept; [`ReceivedRequest::body_truncated`](super::ReceivedRequest::body_truncated) says so).
pub const JOURNAL_BODY_BYTES: usize = 16 * 1024;

/// How long the journal waits for a request's body: a client that announces a body and does
/// not send it holds the request no longer than this before the server sees it.
const JOURNAL_BODY_WAIT: Duration = Duration::from_secs(2);

/// The start of a request's body, as the journal and the matchers read it.
#[derive(Default)]
pub(crate) struct Start {
    /// At most [`JOURNAL_BODY_BYTES`] of it.
    pub(crate) bytes: Vec<u8>,
    /// The body was longer, came too slowly, or failed.
    pub(crate) truncated: bool,
}

/// Reads the start of `request`'s body (up to [`JOURNAL_BODY_BYTES`], as much as came within
/// [`JOURNAL_BODY_WAIT`]), and gives the request back whole: the body read so far, then the
/// rest as it comes.
pub(crate) async fn read_start(request: Request) -> (Request, Start) {
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

#[cfg(test)]
mod tests {
    use std::io;

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
}
