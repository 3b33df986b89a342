//! The server side (feature `server`): the request pipeline of the generated axum router,
//! the error an implementation answers with, and the key store.

mod error;
mod keys;
mod pipeline;

pub use axum;
pub use error::ApiError;
pub use keys::{KeyStore, StaticKeys};
pub use pipeline::{
    PathRule, REQUEST_ID_HEADER, RequestContext, Shared, json_document, new_request_id,
    unknown_path,
};
