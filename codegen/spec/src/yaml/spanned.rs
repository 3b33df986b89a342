//! A value with its place in the spec: what a diagnostic about the value points at.

use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};

use crate::diag::Span;

/// The struct name by which the deserializer recognizes a [`Spanned`] value.
pub(super) const NAME: &str = "$__mrds_spanned";
/// Its parts, in the order the deserializer gives them.
pub(super) const FIELDS: &[&str] = &["$__span", "$__key", "$__value"];

/// A value read from the spec, with where it stands.
///
/// Only the spec's own deserializer ([`crate::yaml::from_node`]) can give the places; another
/// deserializer is refused.
#[derive(Clone, Debug)]
pub struct Spanned<T> {
    /// Where the value starts.
    pub span: Span,
    /// Where the key naming it starts, when the value is the value of a mapping entry; else
    /// the value's own place.
    pub key: Span,
    /// The value itself.
    pub item: T,
}

impl<T> Spanned<T> {
    /// The value's place.
    pub fn at(&self) -> Span {
        self.span
    }

    /// The place of the key naming the value (the value's own place for an item of a list).
    pub fn key_at(&self) -> Span {
        self.key
    }

    /// The value without its place.
    pub fn into_inner(self) -> T {
        self.item
    }
}

impl<T> Deref for Spanned<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.item
    }
}

impl<T: PartialEq> PartialEq for Spanned<T> {
    /// Compares the values; places do not count.
    fn eq(&self, other: &Self) -> bool {
        self.item == other.item
    }
}

impl<T: Eq> Eq for Spanned<T> {}

impl PartialEq<str> for Spanned<String> {
    fn eq(&self, other: &str) -> bool {
        self.item == other
    }
}

impl PartialEq<String> for Spanned<String> {
    fn eq(&self, other: &String) -> bool {
        self.item == *other
    }
}

impl PartialEq<Spanned<String>> for String {
    fn eq(&self, other: &Spanned<String>) -> bool {
        *self == other.item
    }
}

impl PartialEq<&str> for Spanned<String> {
    fn eq(&self, other: &&str) -> bool {
        self.item == *other
    }
}

/// The schema of the value: its place is the reader's own, not written in the spec.
impl<T: schemars::JsonSchema> schemars::JsonSchema for Spanned<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

impl<T: fmt::Display> fmt::Display for Spanned<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.item.fmt(f)
    }
}

/// A span as one integer, to travel through serde: 16 bits of file, 24 of line, 24 of column.
pub(super) fn encode(span: Span) -> u64 {
    (u64::from(span.file.min(0xffff)) << 48)
        | (u64::from(span.line.min(0xff_ffff)) << 24)
        | u64::from(span.column.min(0xff_ffff))
}

fn decode(n: u64) -> Span {
    Span {
        file: (n >> 48) as u32,
        line: ((n >> 24) & 0xff_ffff) as u32,
        column: (n & 0xff_ffff) as u32,
    }
}

/// One part of a spanned value, as the deserializer names it.
enum Part {
    Span,
    Key,
    Value,
}

impl<'de> Deserialize<'de> for Part {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Name;

        impl Visitor<'_> for Name {
            type Value = Part;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a part of a spanned value")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Part, E> {
                match v {
                    v if v == FIELDS[0] => Ok(Part::Span),
                    v if v == FIELDS[1] => Ok(Part::Key),
                    v if v == FIELDS[2] => Ok(Part::Value),
                    other => Err(de::Error::unknown_field(other, FIELDS)),
                }
            }
        }

        d.deserialize_identifier(Name)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Spanned<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Parts<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for Parts<T> {
            type Value = Spanned<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a value of the spec with its place")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Spanned<T>, A::Error> {
                let mut span = None;
                let mut key = None;
                let mut value = None;
                while let Some(part) = map.next_key::<Part>()? {
                    match part {
                        Part::Span => span = Some(decode(map.next_value()?)),
                        Part::Key => key = Some(decode(map.next_value()?)),
                        Part::Value => value = Some(map.next_value()?),
                    }
                }
                match (span, key, value) {
                    (Some(span), Some(key), Some(value)) => Ok(Spanned {
                        span,
                        key,
                        item: value,
                    }),
                    _ => Err(de::Error::custom(
                        "a spanned value is read by the spec's own YAML reader only",
                    )),
                }
            }
        }

        d.deserialize_struct(NAME, FIELDS, Parts(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_survive_their_encoding() {
        let s = Span {
            file: 3,
            line: 120_000,
            column: 77,
        };
        assert_eq!(decode(encode(s)), s);
    }
}
