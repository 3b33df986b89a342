//! The bodies that tell the connection how far a request is: the answer's ([`Tracked`]: the
//! request is answered once hyper is done with it) and the request's ([`RequestBody`]: read to
//! its end or not).

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll, ready};

use axum::body::Bytes;
use http_body::{Body, Frame, SizeHint};

use super::ConnState;

/// A response body that tells the connection when hyper is done with it (it is dropped
/// once written out, or when the connection goes away).
pub(crate) struct Tracked<B> {
    body: B,
    state: Arc<ConnState>,
}

impl<B> Tracked<B> {
    pub(crate) fn new(body: B, state: Arc<ConnState>) -> Self {
        Self { body, state }
    }
}

impl<B> Drop for Tracked<B> {
    fn drop(&mut self) {
        self.state.request_answered();
    }
}

impl<B: Body<Data = Bytes> + Unpin> Body for Tracked<B> {
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        let frame = ready!(Pin::new(&mut self.get_mut().body).poll_frame(cx));
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// A request body that tells the connection once it has been read to its end: an answer
/// given before then leaves the rest unread, and closes the connection
/// ([`ConnState::answer_leaves_body_unread`]).
pub(crate) struct RequestBody<B> {
    body: B,
    state: Arc<ConnState>,
}

impl<B> RequestBody<B> {
    /// `body`, whose reading `state` follows (from [`ConnState::body_started`]).
    pub(crate) fn new(body: B, state: Arc<ConnState>) -> Self {
        state.body_started();
        Self { body, state }
    }
}

impl<B: Body<Data = Bytes> + Unpin> Body for RequestBody<B> {
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        let this = self.get_mut();
        let frame = ready!(Pin::new(&mut this.body).poll_frame(cx));
        let ended = match &frame {
            None => true,
            Some(Ok(_)) => this.body.is_end_stream(),
            Some(Err(_)) => false,
        };
        if ended {
            this.state.body_unread.store(false, Ordering::Relaxed);
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
