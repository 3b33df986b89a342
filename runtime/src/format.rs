//! The text formats a value can be checked against ([`TextFormat`]), and everything known of
//! each: the one definition the spec, the generated checks and the generator read.

use crate::text;

/// The text formats a value can be checked against (a parameter's or a request body field's
/// `format:`), each with everything the spec, the generated code and the generator know of it
/// ([`TextFormat::info`]): one place per format, so adding one is a variant, its arm in
/// [`info`](TextFormat::info) and in [`holds`](TextFormat::holds), and its check in `text.rs`.
///
/// Exhaustive on purpose: the generator matches on it, and the compiler names every place a
/// new format must reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TextFormat {
    /// An RFC 3339 timestamp, offset `Z` or `±hh:mm`.
    Rfc3339,
    /// A hyphenated UUID.
    Uuid,
    /// 16 hexadecimal characters.
    Hex16,
    /// A calendar date `YYYY-MM-DD`.
    Date,
}

/// What a point in time a format's text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeKind {
    /// An instant (a timestamp).
    Instant,
    /// A calendar day.
    Date,
}

/// What is known of a [`TextFormat`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatInfo {
    /// Its spelling in the spec (`rfc3339`).
    pub name: &'static str,
    /// What it is, for documentation (`RFC 3339 timestamp`).
    pub description: &'static str,
    /// What a value breaking it is told.
    pub reason: &'static str,
    /// Texts in the format: a typical one, and one unlike any real data (to name nothing).
    pub examples: [&'static str; 2],
    /// A text close to the format that is not in it.
    pub counterexample: &'static str,
    /// The JSON Schema `format` keyword describing it, when there is one.
    pub json_format: Option<&'static str>,
    /// A JSON Schema `pattern` describing it, when no `format` keyword does.
    pub json_pattern: Option<&'static str>,
    /// What the check accepts beyond the format's own definition, for documentation.
    pub leniency: Option<&'static str>,
    /// The point in time its text is, when it is one.
    pub time: Option<TimeKind>,
}

impl TextFormat {
    /// Every format.
    pub const ALL: [TextFormat; 4] = [
        TextFormat::Rfc3339,
        TextFormat::Uuid,
        TextFormat::Hex16,
        TextFormat::Date,
    ];

    /// Everything known of the format.
    pub const fn info(self) -> FormatInfo {
        match self {
            TextFormat::Rfc3339 => FormatInfo {
                name: "rfc3339",
                description: "RFC 3339 timestamp",
                reason: "must be an RFC 3339 timestamp such as 2026-07-01T00:00:00Z",
                examples: ["2026-01-01T00:00:00Z", "1970-01-01T00:00:00Z"],
                counterexample: "2026-07-01 00:00:00",
                json_format: Some("date-time"),
                json_pattern: None,
                leniency: Some("the offset may also be written `+hhmm` (ISO 8601 basic)"),
                time: Some(TimeKind::Instant),
            },
            TextFormat::Uuid => FormatInfo {
                name: "uuid",
                description: "UUID",
                reason: "must be a UUID such as 123e4567-e89b-12d3-a456-426614174000",
                examples: [
                    "123e4567-e89b-12d3-a456-426614174000",
                    "00000000-0000-4000-8000-000000000000",
                ],
                counterexample: "not-a-uuid",
                json_format: Some("uuid"),
                json_pattern: None,
                leniency: None,
                time: None,
            },
            TextFormat::Hex16 => FormatInfo {
                name: "hex16",
                description: "16 hexadecimal characters",
                reason: "must be 16 hexadecimal characters",
                examples: ["00ff00ff00ff00ff", "0000000000000000"],
                counterexample: "00ff00ff00ff00fg",
                json_format: None,
                json_pattern: Some("^[0-9A-Fa-f]{16}$"),
                leniency: None,
                time: None,
            },
            TextFormat::Date => FormatInfo {
                name: "date",
                description: "`YYYY-MM-DD`",
                reason: "must be a date YYYY-MM-DD such as 2026-07-01",
                examples: ["2026-01-01", "1970-01-01"],
                counterexample: "2026-02-30",
                json_format: Some("date"),
                json_pattern: None,
                leniency: None,
                time: Some(TimeKind::Date),
            },
        }
    }

    /// True when `text` is in this format.
    pub fn holds(self, text: &str) -> bool {
        match self {
            TextFormat::Rfc3339 => text::rfc3339_seconds(text).is_some(),
            TextFormat::Uuid => text::is_uuid(text),
            TextFormat::Hex16 => text::is_hex16(text),
            TextFormat::Date => text::is_date(text),
        }
    }

    /// Its spelling in the spec.
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// What a value breaking the format is told.
    pub const fn reason(self) -> &'static str {
        self.info().reason
    }

    /// The format spelt `name` in the spec.
    pub fn named(name: &str) -> Option<TextFormat> {
        TextFormat::ALL.into_iter().find(|f| f.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_keeps_its_examples_and_refuses_its_counterexample() {
        for f in TextFormat::ALL {
            let info = f.info();
            for example in info.examples {
                assert!(f.holds(example), "{}: {example}", info.name);
            }
            assert!(!f.holds(info.counterexample), "{}", info.name);
            assert_eq!(TextFormat::named(info.name), Some(f));
            assert!(info.json_format.is_some() || info.json_pattern.is_some());
        }
    }

    #[test]
    fn formats() {
        assert!(TextFormat::Date.holds("2026-02-28") && !TextFormat::Date.holds("2026-02-30"));
        assert!(TextFormat::Rfc3339.holds("2026-02-28T00:00:00+01:00"));
        assert!(TextFormat::Rfc3339.holds("2026-02-28T00:00:00+0100"));
        assert!(!TextFormat::Rfc3339.holds("2026-02-28T00:00:00+01"));
        assert!(TextFormat::Uuid.holds("123e4567-e89b-12d3-a456-426614174000"));
    }
}
