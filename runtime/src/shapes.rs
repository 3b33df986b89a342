//! The spec's description of the answers, as data ([`Shapes`]): each record's fields with
//! their JSON type, whether they are required, their value set and format; the envelope's
//! fields; the values of the value sets; the record each endpoint answers with.
//!
//! Always compiled: the generated model crate defines one (`mrds_model::shapes::SHAPES`) and
//! its `PROTOCOL` carries it, so a client or a proxy of the spec has it. What reads it to
//! notice what answers hold beyond it is [`drift`](crate::drift) (feature `drift`).

use std::fmt;

use crate::Format;

/// The spec's description of what answers hold, as data: the envelope's fields, every
/// record's fields, the value sets' wire values, and the record each endpoint answers with.
///
/// Generated into the model crate (`mrds_model::shapes::SHAPES`) from the same spec as the
/// records, so it says exactly what their decoding expects. `Debug` shows its size only.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shapes {
    /// The fields of the response envelope, in wire order (named `envelope`).
    pub envelope: RecordShape,
    /// The records, indexed by [`FieldType::Record`] and [`EndpointShape::returns`].
    pub records: &'static [RecordShape],
    /// The value sets of record fields, indexed by [`FieldType::ValueSet`] (the error codes
    /// among them, as the set `ErrorCode`).
    pub value_sets: &'static [ValueSetShape],
    /// Each endpoint and the record its answers hold.
    pub endpoints: &'static [EndpointShape],
    /// The record of the error object: what `data` holds in a failure envelope.
    pub error_object: usize,
}

impl Shapes {
    /// A description of nothing: no endpoint is known, so nothing is noticed.
    pub const NONE: Shapes = Shapes {
        envelope: RecordShape::new("envelope", &[]),
        records: &[],
        value_sets: &[],
        endpoints: &[],
        error_object: usize::MAX,
    };

    /// The record an endpoint answers with, by endpoint id.
    pub fn returns(&self, endpoint: &str) -> Option<usize> {
        self.endpoints
            .iter()
            .find(|e| e.id == endpoint)
            .map(|e| e.returns)
            .filter(|&r| r < self.records.len())
    }

    /// The record at `index`, if there is one.
    pub fn record(&self, index: usize) -> Option<&'static RecordShape> {
        self.records.get(index)
    }

    /// The value set at `index`, if there is one.
    pub fn value_set(&self, index: usize) -> Option<&'static ValueSetShape> {
        self.value_sets.get(index)
    }
}

impl fmt::Debug for Shapes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shapes")
            .field("envelope_fields", &self.envelope.fields.len())
            .field("records", &self.records.len())
            .field("value_sets", &self.value_sets.len())
            .field("endpoints", &self.endpoints.len())
            .finish()
    }
}

/// One record (or the envelope): its name in the spec and its fields. Made with
/// [`RecordShape::new`], which notes (at compile time, for a `static`) which fields hold a
/// record or a value set: the only ones whose values are followed while decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RecordShape {
    /// The record's name in the spec (`PITDividend`).
    pub name: &'static str,
    /// Its fields, in wire order.
    pub fields: &'static [FieldShape],
    /// Bit `i` set: field `i` holds a record or a value set; bit 63: the record has 64 fields
    /// or more.
    nested: u64,
    /// Bit `n` set: a field holding a record or a value set has a name of `n` bytes (bit 63:
    /// of 63 or more), so most keys are told apart from them by their length alone.
    nested_lengths: u64,
    /// As `nested`, of the fields with a format.
    formatted: u64,
    /// As `nested_lengths`, of the fields with a format.
    formatted_lengths: u64,
}

impl RecordShape {
    /// The record `name` with `fields`.
    pub const fn new(name: &'static str, fields: &'static [FieldShape]) -> Self {
        let mut nested = 0u64;
        let mut nested_lengths = 0u64;
        let mut formatted = 0u64;
        let mut formatted_lengths = 0u64;
        let mut i = 0;
        while i < fields.len() {
            let len = fields[i].name.len();
            let length_bit = 1 << if len < 63 { len } else { 63 };
            let index_bit = 1 << if i < 63 { i } else { 63 };
            if fields[i].ty.followed() {
                nested_lengths |= length_bit;
                nested |= index_bit;
            } else if fields[i].format.is_some() {
                formatted_lengths |= length_bit;
                formatted |= index_bit;
            }
            if i >= 63 {
                nested |= 1 << 63;
                formatted |= 1 << 63;
            }
            i += 1;
        }
        Self {
            name,
            fields,
            nested,
            nested_lengths,
            formatted,
            formatted_lengths,
        }
    }

    /// Whether a field of the record has a format.
    #[cfg(feature = "drift")]
    pub(crate) fn has_formats(&self) -> bool {
        self.formatted_lengths != 0
    }

    /// Bit `n` set: a field holding a record or a value set (and with `formats`, a field with
    /// a format) has a name of `n` bytes (bit 63: of 63 or more); a key of another length is
    /// none of them.
    #[cfg(feature = "drift")]
    pub(crate) const fn lengths(&self, formats: bool) -> u64 {
        if formats {
            self.nested_lengths | self.formatted_lengths
        } else {
            self.nested_lengths
        }
    }

    /// The field whose wire name is `name`, by its index.
    pub fn field(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }

    /// The field named `name` among those holding a record or a value set, by its index (the
    /// caller told the key apart by its length first: [`lengths`](Self::lengths)).
    #[cfg(feature = "drift")]
    #[inline(always)]
    pub(crate) fn nested_field(&self, name: &str) -> Option<usize> {
        if self.nested_lengths & (1 << name.len().min(63)) == 0 {
            return None;
        }
        self.field_among(self.nested, name, |f| f.ty.followed())
    }

    /// The field named `name` among those with a format (and holding no record or value
    /// set), by its index.
    #[cfg(feature = "drift")]
    pub(crate) fn formatted_field(&self, name: &str) -> Option<usize> {
        if self.formatted_lengths & (1 << name.len().min(63)) == 0 {
            return None;
        }
        self.field_among(self.formatted, name, |f| {
            f.format.is_some() && !f.ty.followed()
        })
    }

    /// The field named `name` among the fields whose bits `among` sets (bit 63: look through
    /// every field that is `kind`).
    #[cfg(feature = "drift")]
    fn field_among(
        &self,
        among: u64,
        name: &str,
        kind: impl Fn(&FieldShape) -> bool,
    ) -> Option<usize> {
        if among & (1 << 63) != 0 {
            // 64 fields or more: look through all of them.
            return self.fields.iter().position(|f| f.name == name && kind(f));
        }
        let mut bits = among;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            if self.fields.get(i).is_some_and(|f| f.name == name) {
                return Some(i);
            }
            bits &= bits - 1;
        }
        None
    }
}

/// One field of a record or of the envelope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FieldShape {
    /// Wire name.
    pub name: &'static str,
    /// The type of the value (of each element, for an array).
    pub ty: FieldType,
    /// A JSON array of `ty`.
    pub array: bool,
    /// May be absent or `null`.
    pub optional: bool,
    /// The format of its values (of each element, for an array), when the spec gives one:
    /// a value out of it is noticed (`field.format`).
    pub format: Option<Format>,
}

impl FieldShape {
    /// A required field holding one value of `ty`.
    pub const fn new(name: &'static str, ty: FieldType) -> Self {
        Self {
            name,
            ty,
            array: false,
            optional: false,
            format: None,
        }
    }

    /// The same field, its values in `format`.
    pub const fn format(self, format: Format) -> Self {
        Self {
            format: Some(format),
            ..self
        }
    }

    /// The same field, optional.
    pub const fn optional(self) -> Self {
        Self {
            optional: true,
            ..self
        }
    }

    /// The same field, holding an array of `ty`.
    pub const fn array(self) -> Self {
        Self {
            array: true,
            ..self
        }
    }
}

/// The type of a field's value, as the spec declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldType {
    /// A JSON string.
    String,
    /// A whole number.
    Integer,
    /// Any number.
    Number,
    /// `true` or `false`.
    Boolean,
    /// Any JSON value, `null` included.
    Any,
    /// The record at this index of [`Shapes::records`].
    Record(usize),
    /// A string of the value set at this index of [`Shapes::value_sets`].
    ValueSet(usize),
    /// The envelope's `data`: the records of the endpoint (the error object in a failure
    /// envelope).
    Records,
}

impl FieldType {
    /// Whether a value of this type is followed while decoding: a record (its fields) or a
    /// value set (its values).
    const fn followed(self) -> bool {
        matches!(
            self,
            FieldType::Record(_) | FieldType::ValueSet(_) | FieldType::Records
        )
    }
}

/// The values of a value set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ValueSetShape {
    /// The set's name in the spec (`Interval`; `ErrorCode` for the error codes).
    pub name: &'static str,
    /// Wire spellings, in the spec's order.
    pub values: &'static [&'static str],
}

/// An endpoint and the record its answers hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EndpointShape {
    /// The endpoint id (`stock_dividends`).
    pub id: &'static str,
    /// The index of its record in [`Shapes::records`].
    pub returns: usize,
}
