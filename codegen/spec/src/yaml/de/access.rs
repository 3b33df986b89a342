//! What the deserializer hands to visitors: the items of a sequence, the entries of a
//! mapping, a unit variant, and the parts of a [`Spanned`] value.
//!
//! [`Spanned`]: crate::yaml::Spanned

use serde::de::{
    self, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};

use super::{De, Error, Path};
use crate::diag::Span;
use crate::yaml::node::Node;
use crate::yaml::spanned;

/// The items of a sequence.
pub(super) struct Items<'n, 'p> {
    pub(super) items: &'n [Node],
    pub(super) next: usize,
    pub(super) path: Path<'p>,
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
pub(super) struct Entries<'n, 'p> {
    pub(super) entries: &'n [(Node, Node)],
    pub(super) next: usize,
    pub(super) path: Path<'p>,
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
pub(super) struct UnitVariant<'n> {
    pub(super) text: &'n str,
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
pub(super) struct SpannedParts<'n, 'p> {
    pub(super) de: Option<De<'n, 'p>>,
    pub(super) span: Span,
    pub(super) key: Span,
    pub(super) next: usize,
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
