//! A serde deserializer over the node tree: typed values from the one parse, every error
//! placed at the node it is about, and [`Spanned`] values that keep their place.

use super::scalar::{Resolved, parse_int};
use std::fmt;

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess,
    Unexpected, VariantAccess, Visitor,
};

use super::node::{Node, NodeKind};
use super::spanned;
use crate::diag::Span;

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

macro_rules! integers {
    ($($method:ident $t:ty,)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.integer(visitor, |n| <$t>::try_from(n).is_ok(), <$t>::MIN, <$t>::MAX)
        }
    )*};
}

macro_rules! numbers {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.number(visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for De<'_, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let r = match &self.node.kind {
            NodeKind::Scalar { text, plain } => match plain.then(|| Resolved::of(text)) {
                Some(Resolved::Null) => visitor.visit_unit(),
                Some(Resolved::Bool(b)) => visitor.visit_bool(b),
                Some(Resolved::Int(n)) => visitor.visit_i64(n),
                Some(Resolved::Uint(n)) => visitor.visit_u64(n),
                Some(Resolved::Float(x)) => visitor.visit_f64(x),
                Some(Resolved::Text) | None => visitor.visit_str(text),
            },
            NodeKind::Seq(items) => visitor.visit_seq(Items {
                items,
                next: 0,
                path: self.path,
            }),
            NodeKind::Map(entries) => visitor.visit_map(Entries {
                entries,
                next: 0,
                path: self.path,
            }),
        };
        r.map_err(|e| self.place(e))
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.resolved() {
            Some(Resolved::Bool(b)) => visitor.visit_bool(b).map_err(|e| self.place(e)),
            _ => self.invalid(&visitor),
        }
    }

    integers! {
        deserialize_i8 i8, deserialize_i16 i16, deserialize_i32 i32, deserialize_i64 i64,
        deserialize_i128 i128, deserialize_u8 u8, deserialize_u16 u16, deserialize_u32 u32,
        deserialize_u64 u64, deserialize_u128 u128,
    }

    numbers! {
        deserialize_f32 deserialize_f64
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    /// Any scalar reads as text, as written (`name: 12` is the text `12`).
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match &self.node.kind {
            NodeKind::Scalar { text, .. } => visitor.visit_str(text).map_err(|e| self.place(e)),
            _ => self.invalid(&visitor),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.invalid(&visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.invalid(&visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.node.is_null() {
            visitor.visit_none().map_err(|e| self.place(e))
        } else {
            let place = (self.node.span, self.path.to_string());
            visitor.visit_some(self).map_err(|mut e| {
                if e.span.is_none() {
                    (e.span, e.path) = (Some(place.0), place.1);
                }
                e
            })
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.node.is_null() {
            visitor.visit_unit().map_err(|e| self.place(e))
        } else {
            self.invalid(&visitor)
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match &self.node.kind {
            NodeKind::Seq(items) => visitor
                .visit_seq(Items {
                    items,
                    next: 0,
                    path: self.path,
                })
                .map_err(|e| self.place(e)),
            _ => self.invalid(&visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match &self.node.kind {
            NodeKind::Map(entries) => visitor
                .visit_map(Entries {
                    entries,
                    next: 0,
                    path: self.path,
                })
                .map_err(|e| self.place(e)),
            _ => self.invalid(&visitor),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == spanned::NAME {
            let span = self.node.span;
            let key = self.key.map_or(span, |k| k.span);
            return visitor.visit_map(SpannedParts {
                de: Some(self),
                span,
                key,
                next: 0,
            });
        }
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match &self.node.kind {
            NodeKind::Scalar { text, .. } => visitor
                .visit_enum(UnitVariant { text })
                .map_err(|e| self.place(e)),
            _ => self.invalid(&visitor),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }
}

/// The items of a sequence.
struct Items<'n, 'p> {
    items: &'n [Node],
    next: usize,
    path: Path<'p>,
}

impl<'de> SeqAccess<'de> for Items<'_, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some(node) = self.items.get(self.next) else {
            return Ok(None);
        };
        let i = self.next;
        self.next += 1;
        seed.deserialize(De {
            node,
            path: Path::Index(&self.path, i),
            key: None,
        })
        .map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len() - self.next)
    }
}

/// The entries of a mapping.
struct Entries<'n, 'p> {
    entries: &'n [(Node, Node)],
    next: usize,
    path: Path<'p>,
}

impl<'de> MapAccess<'de> for Entries<'_, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((key, _)) = self.entries.get(self.next) else {
            return Ok(None);
        };
        // A key's problem (an unknown field) is placed at the key, and named by the mapping.
        let de = De {
            node: key,
            path: self.path,
            key: None,
        };
        seed.deserialize(de).map(Some).map_err(|mut e| {
            if e.span.is_none() {
                e.span = Some(key.span);
                e.path = self.path.to_string();
            }
            e
        })
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (key, value) = &self.entries[self.next];
        self.next += 1;
        let name = key.as_scalar().unwrap_or("?");
        seed.deserialize(De {
            node: value,
            path: Path::Key(&self.path, name),
            key: Some(key),
        })
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len() - self.next)
    }
}

/// A unit variant written as a scalar.
struct UnitVariant<'n> {
    text: &'n str,
}

impl<'de> EnumAccess<'de> for UnitVariant<'_> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self), Error> {
        let value = seed.deserialize(self.text.into_deserializer())?;
        Ok((value, self))
    }
}

impl<'de> VariantAccess<'de> for UnitVariant<'_> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value, Error> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"a variant with a value",
        ))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value, Error> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"a tuple variant",
        ))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Error> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"a struct variant",
        ))
    }
}

/// The parts of a [`Spanned`] value: its span, its key's span, then the value itself.
struct SpannedParts<'n, 'p> {
    de: Option<De<'n, 'p>>,
    span: Span,
    key: Span,
    next: usize,
}

impl<'de> MapAccess<'de> for SpannedParts<'_, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match spanned::FIELDS.get(self.next) {
            Some(field) => seed.deserialize(field.into_deserializer()).map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let i = self.next;
        self.next += 1;
        match i {
            0 => seed.deserialize(spanned::encode(self.span).into_deserializer()),
            1 => seed.deserialize(spanned::encode(self.key).into_deserializer()),
            _ => match self.de.take() {
                Some(de) => seed.deserialize(de),
                None => Err(de::Error::custom("a spanned value is read once")),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;

    use super::*;
    use crate::yaml::{Spanned, parse};

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Item {
        name: Spanned<String>,
        #[serde(default)]
        count: Option<i64>,
        #[serde(default)]
        flag: bool,
        #[serde(default)]
        kind: Option<Kind>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Query,
        Path,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Top {
        items: BTreeMap<String, Spanned<Item>>,
        #[serde(default)]
        list: Vec<Spanned<u16>>,
    }

    fn read<T: DeserializeOwned>(text: &str) -> Result<T, Error> {
        from_node(&parse(0, text).unwrap().unwrap())
    }

    #[test]
    fn values_keep_their_places_and_keys() {
        let top: Top = read("items:\n  a:\n    name: x\n    count: 0x10\n    flag: true\n    kind: path\nlist: [1, 2]\n").unwrap();
        let a = &top.items["a"];
        assert_eq!((a.key.line, a.key.column), (2, 3));
        assert_eq!((a.span.line, a.span.column), (3, 5));
        assert_eq!((a.name.span.line, a.name.span.column), (3, 11));
        assert_eq!(a.count, Some(16));
        assert!(a.flag);
        assert_eq!(a.kind, Some(Kind::Path));
        assert_eq!(*top.list[1], 2);
        assert_eq!(top.list[1].span.column, 11);
    }

    #[test]
    fn errors_name_the_node_and_its_path() {
        let e = read::<Top>("items:\n  a: { name: x, cuont: 1 }\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "items.a: unknown field `cuont`, expected one of `name`, `count`, `flag`, `kind`"
        );
        assert_eq!(e.span.map(|s| (s.line, s.column)), Some((2, 17)));

        let e = read::<Top>("items:\n  a:\n    name: x\n    count: ten\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "items.a.count: invalid type: string \"ten\", expected an integer in \
             -9223372036854775808..=9223372036854775807"
        );
        assert_eq!(e.span.map(|s| (s.line, s.column)), Some((4, 12)));

        let e = read::<Top>("items:\n  a:\n    count: 1\n").unwrap_err();
        assert_eq!(e.to_string(), "items.a: missing field `name`");
        assert_eq!(e.span.map(|s| (s.line, s.column)), Some((3, 5)));

        let e = read::<Top>("items:\n  a: { name: x, kind: querry }\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "items.a.kind: unknown variant `querry`, expected `query` or `path`"
        );

        let e = read::<Top>("items: {}\nlist: [1, 70000]\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "list[1]: integer 70000 is out of range: expected 0..=65535"
        );
        assert_eq!(e.span.map(|s| (s.line, s.column)), Some((2, 11)));
    }

    #[test]
    fn integers_out_of_range_name_the_range() {
        let error = |text: &str| {
            let e = read::<Top>(text).unwrap_err();
            (e.to_string(), e.span.map(|s| (s.line, s.column)))
        };
        let i64_range = "-9223372036854775808..=9223372036854775807";
        // Beyond 64 bits, and beyond 128.
        assert_eq!(
            error("items:\n  a: { name: x, count: 99999999999999999999 }\n"),
            (
                format!(
                    "items.a.count: integer 99999999999999999999 is out of range: expected {i64_range}"
                ),
                Some((2, 24))
            )
        );
        let huge = "9".repeat(50);
        assert_eq!(
            error(&format!("items: {{}}\nlist: [{huge}]\n")).0,
            format!("list[0]: integer {huge} is out of range: expected 0..=65535")
        );
        assert_eq!(
            error("items: {}\nlist: [-1]\n").0,
            "list[0]: integer -1 is out of range: expected 0..=65535"
        );
        assert_eq!(
            error("items: {}\nlist: [0x10000]\n").0,
            "list[0]: integer 0x10000 is out of range: expected 0..=65535"
        );
        // A number with a fraction or an exponent is not an integer, whatever its value.
        assert_eq!(
            error("items:\n  a: { name: x, count: 1e30 }\n").0,
            format!("items.a.count: 1e30 is not an integer: expected an integer in {i64_range}")
        );
        assert_eq!(
            error("items: {}\nlist: [2.0]\n").0,
            "list[0]: 2.0 is not an integer: expected an integer in 0..=65535"
        );
        // The ends of a range are in it.
        let top: Top = read("items: {}\nlist: [0, 65535, 0xffff]\n").unwrap();
        assert_eq!(
            top.list.iter().map(|n| **n).collect::<Vec<_>>(),
            [0, 65535, 65535]
        );
        assert_eq!(read::<i64>("-9223372036854775808").unwrap(), i64::MIN);
        assert_eq!(read::<u64>("18446744073709551615").unwrap(), u64::MAX);
        assert_eq!(read::<i8>("-0x80").unwrap(), i8::MIN);
        assert_eq!(
            read::<i128>("-170141183460469231731687303715884105728").unwrap(),
            i128::MIN
        );
        assert_eq!(
            read::<i8>("'12'").unwrap_err().to_string(),
            "invalid type: string \"12\", expected an integer in -128..=127"
        );
    }

    #[test]
    fn scalars_resolve_by_the_core_schema() {
        for (text, want) in [
            ("~", Resolved::Null),
            ("", Resolved::Null),
            ("True", Resolved::Bool(true)),
            ("-12", Resolved::Int(-12)),
            ("0o17", Resolved::Int(15)),
            ("18446744073709551615", Resolved::Uint(u64::MAX)),
            ("1.5e3", Resolved::Float(1500.0)),
            (".5", Resolved::Float(0.5)),
            ("1e", Resolved::Text),
            ("1.2.3", Resolved::Text),
            ("0x", Resolved::Text),
            ("12abc", Resolved::Text),
            ("yes", Resolved::Text),
        ] {
            assert_eq!(Resolved::of(text), want, "{text}");
        }
        let s: String = read("'12'").unwrap();
        assert_eq!(s, "12");
        let s: String = read("12").unwrap();
        assert_eq!(s, "12");
        assert!(read::<i64>("'12'").is_err());
    }
}
