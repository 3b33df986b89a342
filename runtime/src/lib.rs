#![doc = include_str!("../README.md")]
//!
//! ## Reference
//!
//! What does not depend on the spec lives here, compiled, documented and tested once;
//! the generated crates hold only what the spec decides and call into it:
//!
//! - always: reading the raw parameters of a request ([`RawParams`]), the checks the
//!   generated parameter types run ([`Issues`]), validation errors, percent coding and the
//!   text formats ([`text`]), and the shapes of the endpoint table, the change history and
//!   the error object ([`Endpoint`], [`HistoryEntry`], [`ErrorBody`]), and any JSON value
//!   for what the spec leaves open ([`JsonValue`]);
//! - feature `patterns`: [`Pattern`], the spec's regular expressions, run from the automata
//!   the generator built (no regex engine);
//! - feature `server`: the request pipeline of the generated axum router ([`server`]);
//!   feature `compression`: gzip of large answers (tower-http, flate2);
//! - feature `client`: the HTTP side of the generated client ([`client`]);
//! - feature `samples` (on with `mock`): the sample data's selection engine, without a
//!   server ([`samples`]);
//! - feature `mock`: the sample server in process for tests,
//!   with scenarios, the `Prefer` header, a journal and the admin API ([`mock`]); feature
//!   `cli`: its command line (`mock::run`: clap, the log output, compression), which only the
//!   binary needs; what the generated sample-data crate tells both of its spec ([`app`]) and
//!   the spec's judgement of a request ([`judge`]);
//! - feature `proxy`: the checking proxy, in front of the real service ([`proxy`]), which the
//!   sample server's command line starts with `--proxy`;
//! - always: the spec's description of answers as data ([`shapes`]); feature `drift` (on
//!   with `client`): noticing what answers hold that the spec does not describe ([`drift`]);
//! - feature `jiff`: typed time, the conversions behind the generated `_jiff` methods
//!   ([`time`]).
//!
//! Each generated crate enables only the features it needs, so the model crate pulls
//! nothing but serde and memchr.

#![warn(missing_docs)]

mod api;
#[cfg(feature = "mock")]
pub mod app;
#[cfg(feature = "drift")]
pub mod drift;
mod error;
mod format;
mod json;
#[cfg(feature = "mock")]
pub mod judge;
mod param_value;
#[cfg(feature = "patterns")]
mod pattern;
mod raw;
#[cfg(feature = "mock")]
mod redact;
pub mod route;
#[cfg(feature = "samples")]
pub mod samples;
pub mod shapes;
#[cfg(test)]
mod test_object;
pub mod text;
mod unknown_values;
mod validate;
mod values;

#[cfg(feature = "client")]
pub mod client;
#[cfg(feature = "mock")]
pub mod mock;
#[cfg(feature = "proxy")]
pub mod proxy;
#[cfg(feature = "server")]
pub mod server;
#[cfg(feature = "jiff")]
pub mod time;

pub use api::{
    Auth, BodyRecord, Change, ChangeAction, DEFAULT_BODY_LIMIT, Endpoint, HistoryEntry, Method,
    Paged, Protocol, Removal, Request, WithBody,
};
pub use error::{ErrorBody, ErrorKind};
pub use format::{Format, FormatInfo, TextFormat, TimeKind};
pub use json::{
    JsonValue, null_as_default, whole_number, whole_number_option, whole_numbers,
    whole_numbers_or_empty,
};
pub use param_value::{ListStyle, ParamValue};
#[cfg(feature = "patterns")]
pub use pattern::{Automaton, Pattern};
pub use raw::{ParamRules, RawParams};
pub use validate::{
    COMMA_ITEM_REASON, Equal, Issues, TimeValue, ValidationError, ValidationIssue, holds,
    items_reason, pattern_reason, range_reason,
};
pub use values::{UnknownValue, values_reason};

/// What the macros of this crate expand to; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use crate::unknown_values::unknown_value;
    pub use serde;
    pub use std::borrow::Cow;
}
