//! Checking the formats of answer fields while decoding: the deserializer of a field with a
//! format (a text format, or Unix seconds) hands every value the record's decoding reads of it
//! (the value, the value inside an option, each element of an array) to the visitor unchanged,
//! and checks it against the format as it passes. A value out of it is noticed
//! (`field.format`), the value kept as an example.
//!
//! The inline pass ([`super::inline`]) reads at most [`FORMAT_CHECKS`](super::ctx::FORMAT_CHECKS) values of such fields
//! this way in one answer, then reads them as any other field: formats drift for a whole
//! answer at once (a provider changes how it writes dates), so the first records tell, and a
//! large answer costs what it cost before.

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::ctx::Ctx;
use super::notes::{Owner, What};
use crate::JsonValue;
use crate::shapes::FieldShape;

/// What a checked value belongs to.
#[derive(Clone, Copy)]
pub(super) struct Place<'c> {
    pub(super) owner: Owner,
    pub(super) field: &'static FieldShape,
    pub(super) ctx: &'c Ctx,
}

impl Place<'_> {
    fn text(self, v: &str) {
        if let Some(format) = self.field.format
            && !format.holds_text(v)
        {
            self.noticed(What::Format(format), || JsonValue::String(v.to_string()));
        }
    }

    fn integer(self, v: i64) {
        if let Some(format) = self.field.format
            && format.of_integers()
            && !format.holds_integer(v)
        {
            let value = || match u64::try_from(v) {
                Ok(n) => JsonValue::Unsigned(n),
                Err(_) => JsonValue::Negative(v),
            };
            self.noticed(What::Format(format), value);
        }
    }

    fn noticed(self, what: What, value: impl FnOnce() -> JsonValue) {
        let mut notes = self.ctx.notes.borrow_mut();
        if let Some(entry) = notes.observe(what, self.owner, self.field.name) {
            notes.example(entry, value());
        }
    }
}

/// A seed whose value is read through [`Checked`].
pub(super) struct CheckedSeed<'c, S> {
    pub(super) seed: S,
    pub(super) place: Place<'c>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for CheckedSeed<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(Checked {
            de: d,
            place: self.place,
        })
    }
}

/// The deserializer of a value of a field with a format.
struct Checked<'c, D> {
    de: D,
    place: Place<'c>,
}

impl<'c, D> Checked<'c, D> {
    fn visitor<V>(self, visitor: V) -> (D, Checking<'c, V>) {
        (
            self.de,
            Checking {
                visitor,
                place: self.place,
            },
        )
    }
}

/// The methods of [`Checked`] that wrap the visitor.
macro_rules! checking {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
                let (de, visitor) = self.visitor(visitor);
                de.$method(visitor)
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Checked<'_, D> {
    type Error = D::Error;

    forward_deserialize! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u128 deserialize_f32
        deserialize_f64 deserialize_char deserialize_bytes deserialize_byte_buf
        deserialize_unit deserialize_identifier deserialize_map deserialize_ignored_any
        deserialize_unit_struct(name: &'static str)
        deserialize_newtype_struct(name: &'static str)
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
    }

    checking! {
        deserialize_any deserialize_str deserialize_string deserialize_i64 deserialize_u64
        deserialize_option deserialize_seq
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

/// The visitor of a value of a field with a format: checks texts and integers, follows an
/// option's value and an array's elements.
struct Checking<'c, V> {
    visitor: V,
    place: Place<'c>,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Checking<'_, V> {
    type Value = V::Value;

    forward_visit! {
        visit_bool(bool) visit_i8(i8) visit_i16(i16) visit_i32(i32) visit_i128(i128)
        visit_u8(u8) visit_u16(u16) visit_u32(u32) visit_u128(u128) visit_f32(f32)
        visit_f64(f64) visit_char(char) visit_bytes(&[u8]) visit_byte_buf(Vec<u8>)
    }

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<V::Value, E> {
        self.place.integer(v);
        self.visitor.visit_i64(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V::Value, E> {
        self.place.integer(i64::try_from(v).unwrap_or(i64::MAX));
        self.visitor.visit_u64(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.place.text(v);
        self.visitor.visit_str(v)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.place.text(v);
        self.visitor.visit_borrowed_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        self.place.text(&v);
        self.visitor.visit_string(v)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<V::Value, E> {
        self.visitor.visit_borrowed_bytes(v)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_unit()
    }

    fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<V::Value, D2::Error> {
        self.visitor.visit_some(Checked {
            de: d,
            place: self.place,
        })
    }

    fn visit_newtype_struct<D2: Deserializer<'de>>(self, d: D2) -> Result<V::Value, D2::Error> {
        self.visitor.visit_newtype_struct(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_seq(CheckedElements {
            seq,
            place: self.place,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_map(map)
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_enum(data)
    }
}

/// The elements of an array of a field with a format, each checked.
struct CheckedElements<'c, A> {
    seq: A,
    place: Place<'c>,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for CheckedElements<'_, A> {
    type Error = A::Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Self::Error> {
        self.seq.next_element_seed(CheckedSeed {
            seed,
            place: self.place,
        })
    }

    fn next_element<T: Deserialize<'de>>(&mut self) -> Result<Option<T>, Self::Error> {
        self.next_element_seed(std::marker::PhantomData)
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}
