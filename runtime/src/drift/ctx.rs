//! What one pass over an answer shares (the shapes, the record `data` holds, what was
//! noticed, the budget of format checks) and what a value is read as: the inline pass
//! (`inline.rs`), its format checks (`checked.rs`) and the walk (`walk.rs`) all read it.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use super::notes::{Noticed, Owner};
use crate::shapes::{FieldShape, FieldType, RecordShape, Shapes};
use crate::unknown_values::Listening;

/// The most values of fields with a format one answer checks while it is decoded (see
/// `checked.rs`).
pub(crate) const FORMAT_CHECKS: u32 = 64;

/// What one pass over an answer shares: the shapes, the record of `data`, what was noticed.
pub(crate) struct Ctx {
    pub(crate) shapes: &'static Shapes,
    /// The record `data` holds.
    pub(crate) returns: usize,
    /// The envelope said `success: false` (before `data`): `data` holds error objects.
    pub(crate) failure: Cell<bool>,
    pub(crate) notes: RefCell<Noticed>,
    /// Listening for the unknown values the value sets' own decoding tells of.
    pub(crate) listening: Listening,
    /// How many more values of fields with a format the inline pass checks.
    pub(crate) format_checks: Cell<u32>,
}

impl Ctx {
    pub(crate) fn new(shapes: &'static Shapes, returns: usize) -> Self {
        Self {
            shapes,
            returns,
            failure: Cell::new(false),
            notes: RefCell::new(Noticed::new(shapes)),
            listening: Listening::start(),
            format_checks: Cell::new(FORMAT_CHECKS),
        }
    }

    /// Whether the inline pass still checks the formats of fields (see [`super::checked`]).
    #[inline(always)]
    pub(crate) fn checking_formats(&self, record: &RecordShape) -> bool {
        self.format_checks.get() > 0 && record.has_formats()
    }

    /// The shape of an object of type `ty`, if it is a record.
    pub(crate) fn object(&self, ty: FieldType) -> Option<MapShape> {
        let index = match ty {
            FieldType::Record(i) => i,
            FieldType::Records if self.failure.get() => self.shapes.error_object,
            FieldType::Records => self.returns,
            _ => return None,
        };
        let record = self.shapes.record(index)?;
        Some(MapShape {
            owner: Owner::Record(u32::try_from(index).ok()?),
            record,
            formats: self.checking_formats(record),
            lengths: record.lengths(self.checking_formats(record)),
        })
    }

    /// The shape of the envelope.
    pub(crate) fn envelope(&self) -> MapShape {
        MapShape {
            owner: Owner::Envelope,
            record: &self.shapes.envelope,
            formats: self.checking_formats(&self.shapes.envelope),
            lengths: (self.shapes.envelope).lengths(self.checking_formats(&self.shapes.envelope)),
        }
    }

    /// Counts `value` when it is not a value of the set `set`.
    pub(crate) fn check_value(&self, set: usize, owner: Owner, field: &str, value: &str) {
        let known = self
            .shapes
            .value_set(set)
            .is_none_or(|s| s.values.contains(&value));
        if !known {
            self.notes
                .borrow_mut()
                .unknown_value(set, owner, field, value);
        }
    }
}

/// The fields an object is read against, and whose they are.
#[derive(Clone, Copy)]
pub(crate) struct MapShape {
    pub(crate) owner: Owner,
    pub(crate) record: &'static RecordShape,
    /// The inline pass checks the formats of its fields.
    pub(crate) formats: bool,
    /// `record.lengths(formats)`: a key of another length is read as it is.
    pub(crate) lengths: u64,
}

impl MapShape {
    /// The index of the field `name`, trying `next` (the field after the last one found)
    /// first: answers come in wire order.
    pub(crate) fn find(&self, name: &str, next: &mut usize) -> Option<usize> {
        let fields = self.record.fields;
        let index = match fields.get(*next) {
            Some(f) if f.name == name => *next,
            _ => fields.iter().position(|f| f.name == name)?,
        };
        *next = index + 1;
        Some(index)
    }
}

/// What a value is read as.
#[derive(Clone, Copy)]
pub(crate) enum Expect<'k> {
    /// The envelope.
    Envelope,
    /// The value of a field: an array of its type when the field is one.
    Field {
        owner: Owner,
        field: &'static FieldShape,
    },
    /// One value of the field's type: the field's value, or an element of its array.
    Element {
        owner: Owner,
        field: &'static FieldShape,
    },
    /// An element of an array of records, read as an object of `shape` (computed once per
    /// array, not once per element).
    Object(MapShape),
    /// The value of the key `key` of an object of `shape`, for a field that holds neither a
    /// record nor a value set, or for a key no field has: watched for being skipped.
    Watch {
        shape: &'k MapShape,
        key: &'k Cow<'k, str>,
    },
}

impl Expect<'_> {
    /// The value itself, when it is one value of the field's type.
    pub(crate) fn single(self) -> Option<(Owner, &'static FieldShape)> {
        match self {
            Expect::Field { owner, field } if !field.array => Some((owner, field)),
            Expect::Element { owner, field } => Some((owner, field)),
            _ => None,
        }
    }
}
