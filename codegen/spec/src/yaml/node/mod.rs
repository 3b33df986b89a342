//! The YAML text as a tree of nodes, each with its place: the one parse of a spec file.
//!
//! The limits of the parse (alias expansion, nesting) are described in the documentation of
//! [`crate::yaml`].
//!
//! This module holds the tree and its limits; [`parse`](parse()) builds it, [`text`] finds in
//! the text what a syntax error is about.

use std::rc::Rc;

use crate::diag::Span;

pub use parse::parse;

mod parse;
#[cfg(test)]
mod tests;
mod text;

/// How many levels mappings and sequences may nest in one file, aliases expanded (the
/// document's top mapping is the first level).
pub const MAX_DEPTH: usize = 128;

/// How much larger than written a file may be with its aliases expanded. The size of a value
/// counts 1 for each node (scalar, sequence or mapping) and 1 for each byte of scalar text, so
/// without aliases a file's size expanded is its size as written; an alias written counts 1,
/// expanded it counts the size of its anchor's value.
pub const ALIAS_BUDGET_FACTOR: u64 = 10;

/// The size a file may always have with its aliases expanded, however small it is as written
/// (see [`ALIAS_BUDGET_FACTOR`]).
pub const ALIAS_BUDGET_MIN: u64 = 10_000;

/// One node of a YAML document.
///
/// Cloning a node is cheap: the nodes below it, and its text, are shared. An alias is a node of
/// its own place holding its anchor's value, shared with the anchor (so the nodes inside it
/// have the places of the anchored value).
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Where the node starts (for a mapping or sequence, its first token; for an anchored
    /// value, its anchor).
    pub span: Span,
    /// What it holds.
    pub kind: NodeKind,
}

/// What a node holds.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// A scalar: its text, and whether it was written plain (unquoted, not a block), the only
    /// style in which `12`, `true` or `~` are a number, a boolean or null.
    Scalar {
        /// The text, with escapes and folding applied.
        text: Rc<str>,
        /// Written plain.
        plain: bool,
    },
    /// A sequence.
    Seq(Rc<[Node]>),
    /// A mapping, its entries in the order written (keys are unique: a repeat is an error).
    Map(Rc<[(Node, Node)]>),
}

impl Node {
    /// The text of a scalar.
    pub fn as_scalar(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Scalar { text, .. } => Some(text),
            _ => None,
        }
    }

    /// True for a plain `~`, `null`, `Null`, `NULL` or an empty plain scalar.
    pub fn is_null(&self) -> bool {
        matches!(&self.kind, NodeKind::Scalar { text, plain: true } if is_null_text(text))
    }
}

/// The plain spellings of null (YAML 1.2 core schema).
pub(crate) fn is_null_text(text: &str) -> bool {
    matches!(text, "" | "~" | "null" | "Null" | "NULL")
}

/// A problem of the YAML text itself (syntax, a key given twice, a merge key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where.
    pub span: Span,
    /// What.
    pub message: String,
    /// What probably fixes it.
    pub hint: Option<String>,
}
