//! Typed time (feature `jiff`): the conversions behind the `_jiff` methods of the generated
//! model crate.
//!
//! On the wire, points in time are plain values: Unix seconds (integers), RFC 3339 and ISO 8601
//! text, `YYYY-MM-DD` dates and `YYYY-MM-DD HH:MM:SS` date-times. The generated types keep
//! those plain types whether or not the feature is on; with it, every time parameter gets a
//! constructor and setters taking a [`Timestamp`] (or a [`Date`]), and every time field of a
//! record an accessor returning the parsed value. This module does the converting, once.
//!
//! `jiff` is re-exported, so the types here are the ones a downstream crate names as
//! `jiff::Timestamp` when it depends on the same `jiff` release.

pub use jiff;
pub use jiff::Timestamp;
pub use jiff::civil::{Date, DateTime};

/// Why a field's text or number is not the point in time its format promises.
pub type TimeError = jiff::Error;

/// An instant as Unix seconds, as integer time parameters carry it (a fraction of a second is
/// dropped).
pub fn unix_seconds(at: Timestamp) -> i64 {
    at.as_second()
}

/// An instant as RFC 3339 text in UTC (`2026-07-01T12:00:00Z`, with a fraction only when the
/// instant has one), as text time parameters carry it.
pub fn rfc3339(at: Timestamp) -> String {
    at.to_string()
}

/// A calendar day as `YYYY-MM-DD`, as date parameters carry it.
pub fn date_text(day: Date) -> String {
    day.to_string()
}

/// The instant of a Unix-seconds field.
pub fn from_unix_seconds(seconds: i64) -> Result<Timestamp, TimeError> {
    Timestamp::from_second(seconds)
}

/// The instant of a timestamp field: RFC 3339 or ISO 8601 text with an offset (`Z`, `+02:00`
/// or `+0200`), with or without a fraction of a second.
pub fn parse_timestamp(text: &str) -> Result<Timestamp, TimeError> {
    text.parse()
}

/// The day of a `YYYY-MM-DD` field.
pub fn parse_date(text: &str) -> Result<Date, TimeError> {
    text.parse()
}

/// The civil date and time of a `YYYY-MM-DD HH:MM:SS` field (no offset: the wire does not say
/// which zone it is in).
pub fn parse_date_time(text: &str) -> Result<DateTime, TimeError> {
    text.parse()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_become_the_wire_forms_parameters_use() {
        let at = Timestamp::from_second(1_785_283_200).unwrap();
        assert_eq!(unix_seconds(at), 1_785_283_200);
        assert_eq!(rfc3339(at), "2026-07-29T00:00:00Z");
        assert_eq!(
            crate::text::rfc3339_seconds(&rfc3339(at)),
            Some(1_785_283_200)
        );
        let day = Date::new(2026, 7, 29).unwrap();
        assert_eq!(date_text(day), "2026-07-29");
        assert!(crate::text::is_date(&date_text(day)));
    }

    #[test]
    fn fields_parse_into_typed_values() {
        assert_eq!(
            from_unix_seconds(1_785_283_200).unwrap(),
            parse_timestamp("2026-07-29T00:00:00Z").unwrap()
        );
        assert_eq!(
            parse_timestamp("2026-11-18T21:04:11.000Z").unwrap(),
            parse_timestamp("2026-11-18T23:04:11+02:00").unwrap()
        );
        assert_eq!(
            parse_date("2026-02-28").unwrap(),
            Date::new(2026, 2, 28).unwrap()
        );
        assert_eq!(
            parse_date_time("2026-11-18 16:04:11").unwrap(),
            Date::new(2026, 11, 18).unwrap().at(16, 4, 11, 0)
        );
        assert!(parse_date("2026-02-30").is_err());
        assert!(parse_timestamp("2026-07-29T00:00:00").is_err(), "no offset");
        assert!(parse_timestamp("yesterday").is_err());
    }
}
