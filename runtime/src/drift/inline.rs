//! Noticing while decoding: a deserializer that wraps the real one and follows the answer
//! through the [`Shapes`] as the records' own `Deserialize` impls read it, in the same pass.
//!
//! Most of it forwards: a number or a text goes straight to the real deserializer, and a key
//! is only remembered (borrowed from the input). What it looks at:
//!
//! - a value the record's decoding skips (a key its type does not have) is counted, and for
//!   the first few kept as an example;
//! - a field holding a record is read against that record's shape (its key is told from the
//!   other fields by its length first, and then compared with the few such names);
//! - a field holding a value set is read by the set's own decoding, unwrapped, which tells of
//!   a value it does not know ([`unknown_values`](crate::unknown_values)); a counter read before and after
//!   says which field it was;
//! - a field with a format is checked against it, for the first values of an answer
//!   ([`checked`](super::checked)).
//!
//! Nothing it does changes what the wrapped `Deserialize` returns: every value reaches the same
//! visitor. Wrapping is not free (a wrapped value costs the records' decoding more than its
//! few instructions, as it keeps the compiler from folding the path of every field into one);
//! BENCHMARKS.md has the numbers.
//!
//! What makes decoding fail (a required field `null` or missing, a number arriving as a text)
//! is not seen here: the client then walks the answer with [`check_answer`](super::check_answer).

use std::borrow::Cow;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::checked::{CheckedSeed, Place};
use super::ctx::{Ctx, Expect, MapShape};
use super::notes::{Noticed, What};
use crate::JsonValue;
use crate::shapes::{FieldType, Shapes};

/// Decodes `T`, an envelope of `endpoint`'s answers, from `deserializer`, noticing what the
/// answer holds that `shapes` does not describe: fields the envelope or a record does not
/// declare, values outside a field's value set. Returns what `T::deserialize` would (the same
/// value, or the same error), and what was noticed.
///
/// With one exception: the value of a field no one declares is read as an example (the first
/// few of each field), where `T::deserialize` skips it, and serde_json skips more than it
/// reads (text that is not UTF-8, a lone surrogate escape, a number past `f64`'s range,
/// nesting past its depth limit). Such a value fails this decoding where plain decoding goes
/// on: a caller that has the bytes decodes them plainly after a failure (the client does), so
/// that noticing never changes what an answer decodes to.
///
/// An endpoint `shapes` does not know is decoded without noticing anything.
pub fn decode_noticing<'de, T, D>(
    shapes: &'static Shapes,
    endpoint: &str,
    deserializer: D,
) -> (Result<T, D::Error>, Noticed)
where
    T: Deserialize<'de>,
    D: Deserializer<'de>,
{
    let Some(returns) = shapes.returns(endpoint) else {
        return (T::deserialize(deserializer), Noticed::new(shapes));
    };
    let ctx = Ctx::new(shapes, returns);
    let wholes = ctx.listening.whole_numbers();
    let result = T::deserialize(Noticing {
        de: deserializer,
        expect: Expect::Envelope,
        ctx: &ctx,
    });
    let wholes = ctx.listening.whole_numbers().wrapping_sub(wholes);
    let mut noticed = ctx.notes.into_inner();
    noticed.told_whole_numbers(wholes);
    (result, noticed)
}

/// The wrapping deserializer of one value.
struct Noticing<'c, 'k, D> {
    de: D,
    expect: Expect<'k>,
    ctx: &'c Ctx,
}

impl<'k, D> Noticing<'_, 'k, D> {
    /// The fields, when the value is read as an object with a shape.
    fn map_shape(&self) -> Option<MapShape> {
        match self.expect {
            Expect::Envelope => Some(self.ctx.envelope()),
            Expect::Object(shape) => Some(shape),
            other => self.ctx.object(other.single()?.1.ty),
        }
    }

    /// What each element is, when the value is read as an array with a shape.
    fn element(&self) -> Option<Expect<'k>> {
        match self.expect {
            Expect::Field { owner, field } if field.array => {
                Some(match self.ctx.object(field.ty) {
                    Some(shape) => Expect::Object(shape),
                    None => Expect::Element { owner, field },
                })
            }
            _ => None,
        }
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Noticing<'_, '_, D> {
    type Error = D::Error;

    forward_deserialize! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_bytes deserialize_byte_buf deserialize_unit deserialize_identifier
        deserialize_str deserialize_string
        deserialize_unit_struct(name: &'static str)
        deserialize_newtype_struct(name: &'static str)
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
    }

    #[inline(always)]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        if let Expect::Watch { .. } = self.expect {
            return self.de.deserialize_option(visitor);
        }
        self.de.deserialize_option(Optional {
            visitor,
            expect: self.expect,
            ctx: self.ctx,
        })
    }

    #[inline(always)]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.element() {
            Some(element) => self.de.deserialize_seq(Elements {
                visitor,
                element,
                ctx: self.ctx,
            }),
            None => self.de.deserialize_seq(visitor),
        }
    }

    #[inline(always)]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.map_shape() {
            Some(shape) => self.de.deserialize_map(Object {
                visitor,
                shape,
                ctx: self.ctx,
            }),
            None => self.de.deserialize_map(visitor),
        }
    }

    #[inline(always)]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self.map_shape() {
            Some(shape) => self.de.deserialize_struct(
                name,
                fields,
                Object {
                    visitor,
                    shape,
                    ctx: self.ctx,
                },
            ),
            None => self.de.deserialize_struct(name, fields, visitor),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        let Expect::Watch { shape, key } = self.expect else {
            return self.de.deserialize_ignored_any(visitor);
        };
        let key: &str = key;
        if shape.record.field(key).is_some() {
            // A field of the spec the decoded type does without.
            return self.de.deserialize_ignored_any(visitor);
        }
        let entry = self
            .ctx
            .notes
            .borrow_mut()
            .observe(What::Undeclared, shape.owner, key);
        match entry {
            Some(entry) => {
                // Kept as an example: what is skipped is read as a value instead, then the
                // skipping visitor is told of "nothing" (what every ignoring visitor accepts).
                let value = JsonValue::deserialize(self.de)?;
                self.ctx.notes.borrow_mut().example(entry, value);
                visitor.visit_unit()
            }
            None => self.de.deserialize_ignored_any(visitor),
        }
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

/// An optional value: the value inside is read as the same thing.
struct Optional<'c, 'k, V> {
    visitor: V,
    expect: Expect<'k>,
    ctx: &'c Ctx,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Optional<'_, '_, V> {
    type Value = V::Value;

    forward_scalars!();
    forward_texts!();
    forward_nested!(visit_newtype_struct visit_seq visit_map visit_enum);

    #[inline(always)]
    fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<Self::Value, D2::Error> {
        self.visitor.visit_some(Noticing {
            de: d,
            expect: self.expect,
            ctx: self.ctx,
        })
    }
}

/// An array whose elements are read as `element`.
struct Elements<'c, 'k, V> {
    visitor: V,
    element: Expect<'k>,
    ctx: &'c Ctx,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Elements<'_, '_, V> {
    type Value = V::Value;

    forward_scalars!();
    forward_texts!();
    forward_nested!(visit_some visit_newtype_struct visit_map visit_enum);

    #[inline(always)]
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        self.visitor.visit_seq(ElementAccess {
            seq,
            element: self.element,
            ctx: self.ctx,
        })
    }
}

struct ElementAccess<'c, 'k, A> {
    seq: A,
    element: Expect<'k>,
    ctx: &'c Ctx,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for ElementAccess<'_, '_, A> {
    type Error = A::Error;

    #[inline(always)]
    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Self::Error> {
        if let Expect::Object(shape) = &mut self.element
            && shape.formats
            && self.ctx.format_checks.get() == 0
        {
            // Enough values checked: the next records are read as before.
            shape.formats = false;
            shape.lengths = shape.record.lengths(false);
        }
        self.seq.next_element_seed(Seeded {
            seed,
            expect: self.element,
            ctx: self.ctx,
        })
    }

    #[inline(always)]
    fn next_element<T: Deserialize<'de>>(&mut self) -> Result<Option<T>, Self::Error> {
        self.next_element_seed(std::marker::PhantomData)
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

/// A seed whose value is read through [`Noticing`].
struct Seeded<'c, 'k, S> {
    seed: S,
    expect: Expect<'k>,
    ctx: &'c Ctx,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seeded<'_, '_, S> {
    type Value = S::Value;

    #[inline(always)]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(Noticing {
            de: d,
            expect: self.expect,
            ctx: self.ctx,
        })
    }
}

/// An object read against a shape.
struct Object<'c, V> {
    visitor: V,
    shape: MapShape,
    ctx: &'c Ctx,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Object<'_, V> {
    type Value = V::Value;

    forward_scalars!();
    forward_texts!();
    forward_nested!(visit_some visit_newtype_struct visit_seq visit_enum);

    #[inline(always)]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.visitor.visit_map(Members {
            map,
            shape: self.shape,
            ctx: self.ctx,
            key: None,
        })
    }
}

struct Members<'c, 'de, A> {
    map: A,
    shape: MapShape,
    ctx: &'c Ctx,
    /// The key just read.
    key: Option<Cow<'de, str>>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Members<'_, 'de, A> {
    type Error = A::Error;

    #[inline(always)]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        // (`next_value_seed` takes the key, so none is left from the last field.)
        self.map.next_key_seed(KeySeed {
            seed,
            key: &mut self.key,
        })
    }

    #[inline(always)]
    fn next_value_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, Self::Error> {
        let Some(key) = self.key.take() else {
            return self.map.next_value_seed(seed);
        };
        // Most keys are told from the fields followed (and checked) by their length alone.
        if self.shape.lengths & (1 << key.len().min(63)) != 0 {
            return self.special(seed, key);
        }
        self.map.next_value_seed(Seeded {
            seed,
            expect: Expect::Watch {
                shape: &self.shape,
                key: &key,
            },
            ctx: self.ctx,
        })
    }

    // The provided methods, forced inline: the records' decoding calls them for every field.
    #[inline(always)]
    fn next_key<K: Deserialize<'de>>(&mut self) -> Result<Option<K>, Self::Error> {
        self.next_key_seed(std::marker::PhantomData)
    }

    #[inline(always)]
    fn next_value<V: Deserialize<'de>>(&mut self) -> Result<V, Self::Error> {
        self.next_value_seed(std::marker::PhantomData)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> Members<'_, 'de, A> {
    /// The value of a key of the length of a field followed or checked: that field's, or
    /// read as any other (kept out of line: most keys never come here).
    #[inline(never)]
    fn special<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
        key: Cow<'de, str>,
    ) -> Result<S::Value, A::Error> {
        if let Some(i) = self.shape.record.nested_field(&key) {
            return self.followed(seed, i);
        }
        if self.shape.formats
            && let Some(i) = self.shape.record.formatted_field(&key)
        {
            return self.checked(seed, i);
        }
        self.map.next_value_seed(Seeded {
            seed,
            expect: Expect::Watch {
                shape: &self.shape,
                key: &key,
            },
            ctx: self.ctx,
        })
    }

    /// The value of field `i`, which has a format: checked against it, while the budget of
    /// checks of the answer lasts.
    fn checked<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
        i: usize,
    ) -> Result<S::Value, A::Error> {
        let left = self.ctx.format_checks.get();
        let Some(field) = self.shape.record.fields.get(i).filter(|_| left > 0) else {
            return self.map.next_value_seed(seed);
        };
        self.ctx.format_checks.set(left - 1);
        self.map.next_value_seed(CheckedSeed {
            seed,
            place: Place {
                owner: self.shape.owner,
                field,
                ctx: self.ctx,
            },
        })
    }

    /// The value of field `i`, which holds a record or a value set. A record is read against
    /// its shape; a value set through its own, unwrapped decoding, which tells of the values
    /// it does not know (counted by `Listening`).
    #[inline(always)]
    fn followed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
        i: usize,
    ) -> Result<S::Value, A::Error> {
        let owner = self.shape.owner;
        let Some(field) = self.shape.record.fields.get(i) else {
            return self.map.next_value_seed(seed);
        };
        if let FieldType::ValueSet(set) = field.ty {
            let before = self.ctx.listening.count();
            let result = self.map.next_value_seed(seed);
            let told = self.ctx.listening.count().wrapping_sub(before);
            if told > 0 {
                let values = self.ctx.listening.take_values();
                self.ctx
                    .notes
                    .borrow_mut()
                    .unknown_values(set, owner, field.name, told, values);
            }
            return result;
        }
        self.map.next_value_seed(Seeded {
            seed,
            expect: Expect::Field { owner, field },
            ctx: self.ctx,
        })
    }
}

/// A key of an object with a shape: remembered as it is read.
struct KeySeed<'a, 'de, K> {
    seed: K,
    key: &'a mut Option<Cow<'de, str>>,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for KeySeed<'_, 'de, K> {
    type Value = K::Value;

    #[inline(always)]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<K::Value, D::Error> {
        self.seed.deserialize(KeyDeserializer {
            de: d,
            key: self.key,
        })
    }
}

struct KeyDeserializer<'a, 'de, D> {
    de: D,
    key: &'a mut Option<Cow<'de, str>>,
}

impl<'a, 'de, D> KeyDeserializer<'a, 'de, D> {
    #[inline(always)]
    fn visitor<V>(self, visitor: V) -> (D, InlineKeyVisitor<'a, 'de, V>) {
        (
            self.de,
            InlineKeyVisitor {
                visitor,
                key: self.key,
            },
        )
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for KeyDeserializer<'_, 'de, D> {
    type Error = D::Error;

    forward_deserialize! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_bytes deserialize_byte_buf deserialize_unit deserialize_option
        deserialize_seq deserialize_map deserialize_ignored_any
        deserialize_unit_struct(name: &'static str)
        deserialize_newtype_struct(name: &'static str)
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
    }

    #[inline(always)]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (de, visitor) = self.visitor(visitor);
        de.deserialize_identifier(visitor)
    }

    #[inline(always)]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (de, visitor) = self.visitor(visitor);
        de.deserialize_str(visitor)
    }

    #[inline(always)]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (de, visitor) = self.visitor(visitor);
        de.deserialize_string(visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

struct InlineKeyVisitor<'a, 'de, V> {
    visitor: V,
    key: &'a mut Option<Cow<'de, str>>,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for InlineKeyVisitor<'_, 'de, V> {
    type Value = V::Value;

    forward_scalars!();
    forward_nested!(visit_some visit_newtype_struct visit_seq visit_map visit_enum);

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        *self.key = Some(Cow::Owned(v.to_string()));
        self.visitor.visit_str(v)
    }

    #[inline(always)]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        *self.key = Some(Cow::Borrowed(v));
        self.visitor.visit_borrowed_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        *self.key = Some(Cow::Owned(v.clone()));
        self.visitor.visit_string(v)
    }
}
