//! The spec's YAML, read once.
//!
//! [`parse`] turns a file's text into a tree of [`Node`]s, each with its place, reporting keys
//! given twice and merge keys on the way; [`from_node`] deserializes typed values from that
//! tree with serde, placing every error at the node it is about. A value that checks need to
//! point at later is read as [`Spanned`], so a diagnostic is located by the node it is about
//! and a wrong place cannot be produced. Untyped values (a default, a sample record) are
//! [`Value`]s, with a place for every nested value too.

mod de;
mod node;
mod spanned;
mod value;

pub use de::{Error, from_node};
pub use node::{Node, NodeKind, SyntaxError, parse};
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
                text: String::new(),
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
