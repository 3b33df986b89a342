//! serde's `Deserializer` over one node: scalars resolved by the core schema, integers held
//! to their type's range, [`Spanned`](crate::yaml::Spanned) values given their places.

use serde::de::{self, Visitor};

use super::access::{Entries, Items, SpannedParts, UnitVariant};
use super::{De, Error};
use crate::yaml::node::NodeKind;
use crate::yaml::scalar::Resolved;
use crate::yaml::spanned;

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
