//! The client side (feature `client`): configuring, sending with validation and retries,
//! decoding the envelope, paging, and the errors a call can fail with. The generated client
//! crate wraps [`Transport`] in its `Client` and adds one method per endpoint.

use std::time::Duration;

mod builder;
mod error;
mod retry;
mod transport;

pub use builder::{BuildError, ClientBuilder};
pub use error::{
    ApiError, BODY_PREFIX_LIMIT, Error, Response, TransportError, TransportKind, UndecodableError,
};
pub use futures_util::Stream;
pub use reqwest;
pub use retry::{RETRY_STATUSES, RetryPolicy};
pub use transport::Transport;

/// Time allowed for one attempt (connect, send, read the whole body) unless
/// [`ClientBuilder::timeout`] says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The `User-Agent` sent unless [`ClientBuilder::user_agent`] says otherwise.
pub const DEFAULT_USER_AGENT: &str = concat!("mrds-client/", env!("CARGO_PKG_VERSION"));

/// Redirects followed within one origin by the client built here; a redirect to another
/// origin is not followed (see [`ClientBuilder::http_client`]).
pub const MAX_REDIRECTS: usize = 5;
