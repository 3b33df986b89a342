//! The text formats a field's values may be told by: the one every text fits (a new field's,
//! a field that arrives out of its format), in the order fields prefer them.

use mrds_runtime::Format;

/// The first format (in the order a field's are preferred) every text fits.
pub(crate) fn fitting_format(texts: &[&str]) -> Option<Format> {
    field_formats().find(|f| texts.iter().all(|t| f.holds_text(t)))
}

/// The text formats of fields, the most telling first (a date before a timestamp, a
/// timestamp before RFC 3339, which fields write as `timestamp`).
pub(crate) fn field_formats() -> impl Iterator<Item = Format> {
    use mrds_runtime::TextFormat as T;
    [
        Format::Text(T::Date),
        Format::TimestampMillis,
        Format::DateTime,
        Format::Timestamp,
        Format::Text(T::Uuid),
        Format::Text(T::Hex16),
        Format::Url,
        Format::NumericText,
    ]
    .into_iter()
}
