//! The server side (feature `server`): the request pipeline of the generated axum router,
//! the error an implementation answers with, the key store, and [`serve`], which serves a
//! router with production limits (connection cap, timeouts, graceful shutdown, compression
//! with the `compression` feature, an optional rate limit).

mod compress;
mod conn;
mod dispatch;
mod error;
mod head;
mod keys;
mod pipeline;
mod rate_limit;
mod request_id;
mod serve;

pub use crate::DEFAULT_BODY_LIMIT;
pub use axum;
pub use dispatch::{Answer, dispatch, unknown_endpoint};
pub use error::ServerError;
pub use keys::{KeyStore, StaticKeys};
pub use pipeline::{
    BodyLimit, PathParams, PeerAddr, REQUEST_ID_HEADER, RequestContext, RequestTimeout, Shared,
    json_document,
};
#[cfg(feature = "mock")]
pub(crate) use pipeline::{LoggedOutside, answer_error};
#[cfg(feature = "proxy")]
pub(crate) use pipeline::{Unread, declares_json, read_limited};
pub use rate_limit::{Caller, RateLimit, RateLimiter};
pub use request_id::{RequestId, is_valid_request_id, new_request_id};
pub use serve::{ServeConfig, Server, ShutdownHandle, serve, serve_connection};
