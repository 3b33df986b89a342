//! Records and value sets: the shapes of what travels.

use super::{FieldId, Format, Location, Provenance, RecordId, ValueSetId, ValueType};

/// A record.
#[derive(Clone, Debug)]
pub struct Record {
    /// Its id.
    pub id: RecordId,
    /// Where the spec defines it.
    pub at: Location,
    /// Rust type name (`PitDividend`).
    pub name: String,
    /// Name in the spec and the interface description (`PITDividend`).
    pub spec_name: String,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub provenance: Provenance,
    /// Fields in wire order.
    pub fields: Vec<Field>,
}

impl Record {
    /// The field `id`.
    pub fn field(&self, id: FieldId) -> &Field {
        &self.fields[id.index()]
    }

    /// The field whose wire name is `wire`: for tools and tests, never for a reference.
    pub fn field_named(&self, wire: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.wire == wire)
    }

    /// The id of the field whose wire name is `wire`: for tools comparing two models by name.
    pub fn field_id(&self, wire: &str) -> Option<FieldId> {
        (self.fields.iter().position(|f| f.wire == wire)).map(FieldId::new)
    }
}

/// A field of a record or of the envelope.
#[derive(Clone, Debug)]
pub struct Field {
    /// Where the spec defines it.
    pub at: Location,
    /// Wire name.
    pub wire: String,
    /// Rust field name (raw identifier text such as `r#type` where needed).
    pub ident: String,
    /// Element type.
    pub ty: TypeRef,
    /// A JSON array of `ty`.
    pub array: bool,
    /// May be absent.
    pub optional: bool,
    /// A record that contains this field's record again (directly or through others, not
    /// through an array): held in a `Box`, so the types have a size.
    pub boxed: bool,
    /// Text or number format.
    pub format: Option<Format>,
    /// In a request body: the checks of the value (its range, pattern, format or values),
    /// for a single string, integer, boolean or value-set field.
    pub checks: Option<ValueType>,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub provenance: Provenance,
}

/// A resolved field type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeRef {
    /// Text.
    String,
    /// A 64-bit integer.
    Integer,
    /// A floating-point number.
    Number,
    /// `true` or `false`.
    Boolean,
    /// Any JSON value.
    Any,
    /// A record.
    Record(RecordId),
    /// A value set.
    ValueSet(ValueSetId),
    /// The error code set.
    ErrorCode,
    /// The envelope's records (the type parameter).
    Records,
}

/// A value set.
#[derive(Clone, Debug)]
pub struct ValueSet {
    /// Its id.
    pub id: ValueSetId,
    /// Where the spec defines it.
    pub at: Location,
    /// Rust type name.
    pub name: String,
    /// Name in the spec.
    pub spec_name: String,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub provenance: Provenance,
    /// Used by a record field: unknown wire values decode into a catch-all variant.
    pub tolerant: bool,
    /// Values in the spec's order.
    pub values: Vec<Variant>,
}

/// One value of a value set.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Where the spec defines it.
    pub at: Location,
    /// Wire spelling.
    pub wire: String,
    /// Rust variant name.
    pub ident: String,
    /// Explanation.
    pub doc: Option<String>,
    /// Provenance.
    pub provenance: Provenance,
}
