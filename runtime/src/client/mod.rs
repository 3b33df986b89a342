//! The client side (feature `client`): configuring, sending with validation and retries
//! within a deadline, decoding the envelope, paging, tracing, and the errors a call can fail
//! with. The generated client crate wraps [`Transport`] in its `Client` and adds one method
//! per endpoint.

use std::time::Duration;

mod builder;
mod error;
mod paging;
mod raw;
mod response;
mod retry;
pub(crate) mod stack;
mod transport;

pub use builder::ClientBuilder;
pub use error::{
    ApiError, BODY_PREFIX_LIMIT, BuildError, Error, PagingError, StatusError, TransportError,
    TransportKind, UndecodableError,
};
pub use futures_util::Stream;
/// The `http` crate, whose `Uri` the client's URLs are.
pub use http;
pub use paging::{PAGINATION_KEYS, RecordStream};
pub use raw::RawClient;
pub use response::Response;
pub use retry::{RETRY_STATUSES, RetryPolicy};
pub use transport::{Page, Transport};
#[doc(hidden)]
pub use transport::{decode_body, decode_body_with};

/// Time allowed for one attempt (connect, send, read the whole body) unless
/// [`ClientBuilder::timeout`] says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The deadline of a whole call, when [`ClientBuilder::deadline`] is not set, is this many
/// times the per-attempt timeout: 60 s with the default timeout. One attempt may use its
/// whole timeout and still leave time for a retry, and the slowest call is bounded by the one
/// setting most callers change (the timeout) instead of by the retry policy (four attempts of
/// 30 s and three waits of up to 30 s were about 210 s).
pub const DEFAULT_DEADLINE_FACTOR: u32 = 2;

/// The response header the service sends its request id in (also in the envelope); read
/// for errors and traces when the body cannot be decoded.
pub const REQUEST_ID_HEADER: &str = "x-request-id";

/// The `User-Agent` sent unless [`ClientBuilder::user_agent`] says otherwise.
pub const DEFAULT_USER_AGENT: &str = concat!("mrds-client/", env!("CARGO_PKG_VERSION"));

/// Redirects followed within one origin; a redirect to another origin is not followed, so the
/// API key never travels to another host.
pub const MAX_REDIRECTS: usize = 5;
