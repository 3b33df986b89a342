//! The values of a request: each input's type and the constraints its kind can carry, its
//! own checks, and the literals the spec compares values with.

use super::{ListStyle, Pattern, TextFormat, ValueSetId, VariantId};

impl ValueType {
    /// The time format, when a value of this type is a point in time (Unix seconds or
    /// RFC 3339 text).
    pub fn time_format(&self) -> Option<TimeFormat> {
        match self {
            ValueType::Integer(IntegerType {
                format: Some(IntegerFormat::UnixSeconds),
                ..
            }) => Some(TimeFormat::UnixSeconds),
            ValueType::String(StringType {
                format: Some(TextFormat::Rfc3339),
                ..
            }) => Some(TimeFormat::Rfc3339),
            _ => None,
        }
    }
}

/// How a point in time travels in a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeFormat {
    /// Integer Unix seconds.
    UnixSeconds,
    /// RFC 3339 text.
    Rfc3339,
}

/// A parameter's value type, with the constraints each kind can carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueType {
    /// A 64-bit integer.
    Integer(IntegerType),
    /// Text.
    String(StringType),
    /// `true` or `false`.
    Boolean,
    /// A value of a value set.
    Enum(EnumType),
}

/// An integer parameter's constraints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IntegerType {
    /// Smallest allowed value.
    pub min: Option<i64>,
    /// Largest allowed value.
    pub max: Option<i64>,
    /// What the integer means.
    pub format: Option<IntegerFormat>,
}

/// Formats of integer parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntegerFormat {
    /// Unix seconds (UTC).
    UnixSeconds,
}

/// A text parameter's constraints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StringType {
    /// An anchored regular expression for the whole value.
    pub pattern: Option<Pattern>,
    /// What the pattern means, for messages (`a six-letter currency pair`).
    pub pattern_doc: Option<String>,
    /// A format every value is checked against.
    pub format: Option<TextFormat>,
}

/// A parameter of a value set. Two are equal when they mean the same (the set's name, its
/// values, its tolerance), whatever their models number the set: so types of two versions of
/// the spec compare.
#[derive(Clone, Debug, Eq)]
pub struct EnumType {
    /// The value set.
    pub set: ValueSetId,
    /// Its Rust name (a copy, for printing).
    pub name: String,
    /// The set keeps unknown values (it is used by a record field).
    pub tolerant: bool,
    /// Wire spellings of its values, in the spec's order.
    pub values: Vec<String>,
}

impl PartialEq for EnumType {
    fn eq(&self, other: &Self) -> bool {
        (&self.name, self.tolerant, &self.values) == (&other.name, other.tolerant, &other.values)
    }
}

impl PartialEq for ValueRef {
    fn eq(&self, other: &Self) -> bool {
        (&self.set_name, &self.wire) == (&other.set_name, &other.wire)
    }
}

/// A list parameter (`array: true`): how it travels and how many items it takes when given
/// (no item is the parameter not given). Its item type is the parameter's [`ValueType`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListForm {
    /// How it travels in the query.
    pub style: ListStyle,
    /// Fewest items when given.
    pub min_items: Option<i64>,
    /// Most items.
    pub max_items: Option<i64>,
}

/// A parameter's own checks, each with a rule id `<endpoint>.<param>.<check>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ValueCheck {
    /// Missing although required.
    Required,
    /// Given more than once.
    Repeated,
    /// Not of its type.
    Type,
    /// Not a value of its value set.
    Values,
    /// Outside its integer range.
    Range,
    /// Not matching its pattern.
    Pattern,
    /// Not in its format.
    Format,
    /// A list with a number of items outside its bounds.
    Items,
}

impl ValueCheck {
    /// Every check, in order: for tools reading a rule id back (`cargo xtask drift`).
    pub const ALL: [ValueCheck; 8] = [
        ValueCheck::Required,
        ValueCheck::Repeated,
        ValueCheck::Type,
        ValueCheck::Values,
        ValueCheck::Range,
        ValueCheck::Pattern,
        ValueCheck::Format,
        ValueCheck::Items,
    ];

    /// The last part of the rule id.
    pub fn as_str(self) -> &'static str {
        match self {
            ValueCheck::Required => "required",
            ValueCheck::Repeated => "repeated",
            ValueCheck::Type => "type",
            ValueCheck::Values => "values",
            ValueCheck::Range => "range",
            ValueCheck::Pattern => "pattern",
            ValueCheck::Format => "format",
            ValueCheck::Items => "items",
        }
    }
}

/// A literal value from the spec (a default, a value of a rule).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    /// Text.
    String(String),
    /// An integer.
    Integer(i64),
    /// A boolean.
    Boolean(bool),
    /// A value of a value set.
    Variant(ValueRef),
}

impl Literal {
    /// The value as it travels.
    pub fn wire(&self) -> String {
        match self {
            Literal::String(s) => s.clone(),
            Literal::Integer(n) => n.to_string(),
            Literal::Boolean(b) => b.to_string(),
            Literal::Variant(v) => v.wire.clone(),
        }
    }
}

/// A value of a value set, resolved. Two are equal when they name the same value of the same
/// set by name, whatever their models number them: so literals of two versions compare.
#[derive(Clone, Debug, Eq)]
pub struct ValueRef {
    /// The value set.
    pub set: ValueSetId,
    /// The value in it.
    pub variant: VariantId,
    /// The set's Rust name (a copy, for printing).
    pub set_name: String,
    /// The value's Rust variant name (a copy, for printing).
    pub ident: String,
    /// Its wire spelling (the literal's text).
    pub wire: String,
}
