//! Following the provider (feature `drift`): what the service's answers hold that the spec
//! does not describe.
//!
//! A generated client tolerates what it does not know (a field a record does not declare is
//! ignored, an unknown value of a value set decodes into `Unknown`), so a provider's change
//! would pass unseen. This module notices it, against the spec's description of the answers
//! ([`Shapes`], always compiled, which the generated model crate defines and its `PROTOCOL`
//! carries):
//!
//! - the [`Finding`]s: what was seen, where, an example and a count; written and read as JSON
//!   lines;
//! - [`Drift`], the record of them a client keeps, and [`Recorder`], the one recorder turning
//!   an exchange into findings (the proxy's, and `cargo xtask drift`'s of HAR files);
//! - the two ways of noticing: [`decode_noticing`], the client's decoding of an answer with the
//!   shapes beside it in the same pass (it returns what plain decoding returns, or fails where
//!   a value read as an example cannot be read), and [`check_answer`], a walk over the bytes
//!   of any answer (the client's failed answers; a proxy's).
//!
//! The findings name the spec's own names (`PITDividend`, the wire name of a field), so
//! `cargo xtask drift` can say which spec edit would describe what was seen.
//!
//! [`Shapes`]: crate::shapes::Shapes

// The forwarding macros, first: the deserializers below use them.
#[macro_use]
mod forward;
mod checked;
mod ctx;
mod evidence;
mod exchange;
mod finding;
mod inline;
mod json;
mod notes;
mod refusal;
#[cfg(test)]
mod tests;
mod traffic;
mod walk;

#[doc(hidden)]
pub use crate::unknown_values::unknown_value;
pub use evidence::{Evidence, Extent, query_values};
pub use exchange::{Exchange, Judged, Recorder, looser};
pub use finding::{Finding, Observed, Source, parse_json_lines};
pub use inline::decode_noticing;
#[cfg(feature = "client")]
pub(crate) use json::cut;
pub use json::{EXAMPLE_LIMIT, JsonKind, MAX_EXAMPLES, NAME_LIMIT, REQUEST_EXAMPLE_LIMIT};
pub use notes::{Drift, MAX_FINDINGS, Noticed};
pub use refusal::{MAX_REASON, Refusal};
pub use traffic::{Traffic, Values, draft_id, identifier_like, param_name, template};
pub use walk::check_answer;
