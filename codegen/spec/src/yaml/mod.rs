//! The spec's YAML, read once.
//!
//! [`parse`] turns a file's text into a tree of [`Node`]s, each with its place, reporting keys
//! given twice and merge keys on the way; [`from_node`] deserializes typed values from that
//! tree with serde, placing every error at the node it is about. A value that checks need to
//! point at later is read as [`Spanned`], so a diagnostic is located by the node it is about
//! and a wrong place cannot be produced. Untyped values (a default, a sample record) are
//! [`Value`]s, with a place for every nested value too.
//!
//! # Limits
//!
//! A spec file arrives by pull request, so reading one must take time and memory in proportion
//! to its text, whatever the text. Two things of YAML could break that, and both are bounded
//! while the tree is built by [`parse`], before anything is deserialized from it:
//!
//! - **Aliases.** An alias (`*names`) repeats the value of its anchor (`&names`), and an
//!   anchored value may hold aliases itself: ten lines of aliases of aliases (an "alias bomb")
//!   stand for billions of values. The tree shares a repeated value instead of copying it, so
//!   building it costs what the text costs; deserializing it expands every alias, so a file's
//!   size with its aliases expanded (each node and each byte of text counting 1) may be at most
//!   [`ALIAS_BUDGET_FACTOR`] times its size as written, or [`ALIAS_BUDGET_MIN`] if that is
//!   more. A file over the budget is refused at the alias that goes over it, naming its anchor.
//!   Repeating an `assumed:` reason, or a list of parameters, a few times stays far below it
//!   (the spec's own files stay below twice their written size).
//! - **Nesting.** Deserializing a node, and dropping one, descend the tree by recursion, so a
//!   few kilobytes of `- - - - ...` would overflow the stack. Mappings and sequences may nest
//!   [`MAX_DEPTH`] levels deep, aliases expanded (a spec needs fewer than ten); a node
//!   deeper than that is refused at its place.

mod de;
mod node;
mod scalar;
mod spanned;
mod value;

pub use de::{Error, from_node};
pub use node::{
    ALIAS_BUDGET_FACTOR, ALIAS_BUDGET_MIN, MAX_DEPTH, Node, NodeKind, SyntaxError, parse,
};
pub use spanned::Spanned;
pub use value::{Value, ValueKind, to_string};

/// Reads `T` from YAML text (a tool's input, not a spec file: places name file 0).
pub fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    let place = |line: u32, column: u32| format!(" at line {line} column {column}");
    match parse(0, text) {
        Ok(Some(node)) => from_node(&node).map_err(|e| match e.span {
            Some(s) => format!("{e}{}", place(s.line, s.column)),
            None => e.to_string(),
        }),
        Ok(None) => from_node(&Node {
            span: crate::diag::Span::default(),
            kind: NodeKind::Scalar {
                text: "".into(),
                plain: true,
            },
        })
        .map_err(|e| e.to_string()),
        Err(errors) => Err(errors
            .iter()
            .map(|e| format!("{}{}", e.message, place(e.span.line, e.span.column)))
            .collect::<Vec<_>>()
            .join("; ")),
    }
}
