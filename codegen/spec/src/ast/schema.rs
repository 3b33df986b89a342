//! What the JSON Schema of the spec format needs of the types it is derived from: the
//! schemas of types that deserialize themselves ([`Spellings`] of another crate's enum).
//!
//! The schema is derived (`schemars`) from the types the loader reads ([`super::SpecFile`] and
//! everything in it), so it names the same keys and cannot drift from them: a struct that
//! refuses unknown keys has `additionalProperties: false`, a key's description is its doc
//! comment, a type that reads itself is described beside its `Deserialize`
//! ([`super::FormatSpelling`] lists [`super::Format::all`], [`super::Rule`] names one key of
//! [`super::RuleKind::ALL`]), and a value's place ([`super::Spanned`]) is the schema of the
//! value. The document itself (`spec/spec.schema.json`) is the emitters' (`mrds_emit::schema`).

use std::marker::PhantomData;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};

/// The schema of a type of another crate that derives `Deserialize` for a unit enum: its
/// spellings, as serde's derive lists them to the deserializer (for `mrds_runtime::Equal`).
pub struct Spellings<T>(PhantomData<T>);

impl<T: DeserializeOwned> JsonSchema for Spellings<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        let name = std::any::type_name::<T>();
        name.rsplit("::").next().unwrap_or(name).to_owned().into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "enum": variants::<T>() })
    }
}

/// The names a derived `Deserialize` of a unit enum accepts: what it passes to
/// `deserialize_enum`, caught by a deserializer that reads nothing.
fn variants<T: DeserializeOwned>() -> &'static [&'static str] {
    match T::deserialize(Probe) {
        Err(Caught(variants)) => variants,
        Ok(_) => &[],
    }
}

/// A deserializer that only catches the variants an enum asks for.
struct Probe;

/// What [`Probe`] caught (nothing, for a type that is not an enum).
#[derive(Debug)]
struct Caught(&'static [&'static str]);

impl std::fmt::Display for Caught {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "variants {:?}", self.0)
    }
}

impl std::error::Error for Caught {}

impl de::Error for Caught {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        Caught(&[])
    }
}

impl<'de> Deserializer<'de> for Probe {
    type Error = Caught;

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Caught> {
        Err(Caught(variants))
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Caught> {
        Err(Caught(&[]))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_are_the_derived_deserializers() {
        assert_eq!(variants::<mrds_runtime::Equal>(), ["refused", "allowed"]);
        for name in variants::<mrds_runtime::Equal>() {
            let _: mrds_runtime::Equal = crate::yaml::from_str(name).unwrap();
        }
        assert!(variants::<String>().is_empty());
    }
}
