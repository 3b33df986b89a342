//! A serde deserializer over the node tree: typed values from the one parse, every error
//! placed at the node it is about, and [`Spanned`] values that keep their place.
//!
//! This module holds the error, the entry point and the deserializer of one node with its
//! helpers; [`deserializer`] is serde's `Deserializer` over it, [`access`] the sequences,
//! mappings, variants and [`Spanned`] parts it hands to visitors.
//!
//! [`Spanned`]: crate::yaml::Spanned

use std::fmt;

use serde::de::{self, DeserializeOwned, Unexpected, Visitor};

use crate::diag::Span;
use crate::yaml::node::{Node, NodeKind};
use crate::yaml::scalar::{Resolved, parse_int};

mod access;
mod deserializer;
#[cfg(test)]
mod tests;

/// Why a node does not deserialize into the type asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The node the problem is about (unset only while the error travels up to it).
    pub span: Option<Span>,
    /// The dotted path of that node (`endpoints.bars.params[1]`), empty at the top.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error {
            span: None,
            path: String::new(),
            message: msg.to_string(),
        }
    }
}

/// Deserializes `T` from `node`.
pub fn from_node<T: DeserializeOwned>(node: &Node) -> Result<T, Error> {
    T::deserialize(De {
        node,
        path: Path::Root,
        key: None,
    })
}

/// Where a node sits, for messages; written out only when an error needs it.
#[derive(Clone, Copy)]
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Key(Path::Root, key) => f.write_str(key),
            Path::Key(parent, key) => write!(f, "{parent}.{key}"),
            Path::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

/// The deserializer of one node.
struct De<'n, 'p> {
    node: &'n Node,
    path: Path<'p>,
    /// The key naming this node, when it is the value of a mapping entry.
    key: Option<&'n Node>,
}

impl De<'_, '_> {
    /// Places an error that has no place yet at this node.
    fn place(&self, mut e: Error) -> Error {
        if e.span.is_none() {
            e.span = Some(self.node.span);
            e.path = self.path.to_string();
        }
        e
    }

    fn unexpected(&self) -> Unexpected<'_> {
        match &self.node.kind {
            NodeKind::Scalar { text, plain: true } => match Resolved::of(text) {
                Resolved::Null => Unexpected::Unit,
                Resolved::Bool(b) => Unexpected::Bool(b),
                Resolved::Int(n) => Unexpected::Signed(n),
                Resolved::Uint(n) => Unexpected::Unsigned(n),
                Resolved::Float(x) => Unexpected::Float(x),
                Resolved::Text => Unexpected::Str(text),
            },
            NodeKind::Scalar { text, .. } => Unexpected::Str(text),
            NodeKind::Seq(_) => Unexpected::Seq,
            NodeKind::Map(_) => Unexpected::Map,
        }
    }

    fn invalid<T>(&self, expected: &dyn de::Expected) -> Result<T, Error> {
        Err(self.place(de::Error::invalid_type(self.unexpected(), expected)))
    }

    /// The plain scalar's resolved value, if the node is one.
    fn resolved(&self) -> Option<Resolved> {
        match &self.node.kind {
            NodeKind::Scalar { text, plain: true } => Some(Resolved::of(text)),
            _ => None,
        }
    }

    /// A floating-point number (an integer is one too).
    fn number<'de, V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let r = match self.resolved() {
            Some(Resolved::Int(n)) => visitor.visit_i64(n),
            Some(Resolved::Uint(n)) => visitor.visit_u64(n),
            Some(Resolved::Float(x)) => visitor.visit_f64(x),
            _ => return self.invalid(&visitor),
        };
        r.map_err(|e| self.place(e))
    }

    /// An integer of a type whose values are `min..=max` (`fits` says whether one is): a value
    /// outside, however large, a number with a fraction or an exponent, or anything else is an
    /// error naming the range.
    fn integer<'de, V: Visitor<'de>>(
        self,
        visitor: V,
        fits: fn(i128) -> bool,
        min: impl fmt::Display,
        max: impl fmt::Display,
    ) -> Result<V::Value, Error> {
        let range = || format!("{min}..={max}");
        let text = match &self.node.kind {
            NodeKind::Scalar { text, plain: true } => &**text,
            _ => return self.invalid(&IntegerIn(&range())),
        };
        let r = match parse_int(text) {
            Some(Some(n)) if fits(n) => match (i64::try_from(n), u64::try_from(n)) {
                (Ok(n), _) => visitor.visit_i64(n),
                (_, Ok(n)) => visitor.visit_u64(n),
                _ => visitor.visit_i128(n),
            },
            Some(_) => Err(de::Error::custom(format!(
                "integer {text} is out of range: expected {}",
                range()
            ))),
            None => match Resolved::of(text) {
                Resolved::Float(_) => Err(de::Error::custom(format!(
                    "{text} is not an integer: expected an integer in {}",
                    range()
                ))),
                _ => return self.invalid(&IntegerIn(&range())),
            },
        };
        r.map_err(|e| self.place(e))
    }
}

/// What an integer of a range expects, for messages (`an integer in 0..=65535`).
struct IntegerIn<'a>(&'a str);

impl de::Expected for IntegerIn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an integer in {}", self.0)
    }
}
