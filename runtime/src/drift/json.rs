//! The kinds of JSON values findings name, and the bounds of their examples: what the
//! findings, the noticing passes, the recorder and the sketches of traffic all read.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The most examples a finding keeps (distinct values, the first seen first).
pub const MAX_EXAMPLES: usize = 8;

/// The most characters of an example's JSON text; a longer one is cut and ends in `…`.
pub const EXAMPLE_LIMIT: usize = 80;

/// The most characters of the name of a field a finding keeps: the name of a field no one
/// declares is the service's, so a longer one is cut and ends in `…` (two names that agree
/// to there are one finding). Names of the spec are far shorter.
pub const NAME_LIMIT: usize = 100;

/// The most characters of an example that is a request (of the rule kinds: method, path and
/// query), which must keep the parameters at stake to be repeated; a longer one is cut and
/// ends in `…`.
pub const REQUEST_EXAMPLE_LIMIT: usize = 400;

/// The kind of a JSON value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JsonKind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A whole number.
    Integer,
    /// A number with a fraction or an exponent.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonKind {
    /// The kind's name as the findings spell it (`string`).
    pub fn as_str(self) -> &'static str {
        match self {
            JsonKind::Null => "null",
            JsonKind::Boolean => "boolean",
            JsonKind::Integer => "integer",
            JsonKind::Number => "number",
            JsonKind::String => "string",
            JsonKind::Array => "array",
            JsonKind::Object => "object",
        }
    }
}

impl fmt::Display for JsonKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `text` cut to `limit` characters (on a character boundary), ending in `…` when cut: an
/// example to [`EXAMPLE_LIMIT`], and what the proxy keeps of a request or a reason.
pub(crate) fn cut(mut text: String, limit: usize) -> String {
    if let Some((at, _)) = text.char_indices().nth(limit) {
        text.truncate(at);
        text.push('…');
    }
    text
}
