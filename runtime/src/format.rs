//! The formats of values: the text formats a value can be checked against ([`TextFormat`]),
//! and everything known of each; and every `format:` the spec may write ([`Format`]: those,
//! Unix seconds, and the formats that describe the fields of answers), each with its check.
//! The one definition the spec, the generated checks, the generator and the noticing of drift
//! read.

use std::fmt;

use serde::{Deserialize, Deserializer};

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

/// A `format:` of a parameter or a field, as the spec writes it. A text format
/// ([`TextFormat`]: every value is checked against it) or Unix seconds (on integers) fit
/// parameters and the fields of a request body; the others describe the fields of answers.
/// Every one has a check ([`holds_text`](Self::holds_text), [`holds_integer`](Self::holds_integer)):
/// what a client or a proxy reads of an answer is checked against the format of its field,
/// and a value out of it is drift (`field.format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// Integer Unix seconds (UTC).
    UnixSeconds,
    /// A text format the generated code checks.
    Text(TextFormat),
    /// ISO 8601 timestamp.
    Timestamp,
    /// ISO 8601 UTC timestamp with milliseconds and `Z`.
    TimestampMillis,
    /// `YYYY-MM-DD HH:MM:SS`.
    DateTime,
    /// A decimal number carried as text.
    NumericText,
    /// A URL.
    Url,
}

/// The most seconds a Unix-seconds value may name: the end of the year 9999. A larger count
/// is not seconds (milliseconds of today are about 1.8e12).
const MAX_UNIX_SECONDS: i64 = 253_402_300_799;

impl Format {
    /// Every format, in the order a message lists them.
    pub fn all() -> impl Iterator<Item = Format> {
        let documented = [
            Format::Timestamp,
            Format::TimestampMillis,
            Format::DateTime,
            Format::NumericText,
            Format::Url,
        ];
        std::iter::once(Format::UnixSeconds)
            .chain(TextFormat::ALL.map(Format::Text))
            .chain(documented)
    }

    /// The spec spelling.
    pub const fn name(self) -> &'static str {
        match self {
            Format::UnixSeconds => "unix_seconds",
            Format::Text(f) => f.name(),
            Format::Timestamp => "timestamp",
            Format::TimestampMillis => "timestamp_millis",
            Format::DateTime => "date_time",
            Format::NumericText => "numeric_text",
            Format::Url => "url",
        }
    }

    /// The format spelt `name` in the spec.
    pub fn named(name: &str) -> Option<Format> {
        Format::all().find(|f| f.name() == name)
    }

    /// What it is, for documentation (`RFC 3339 timestamp`).
    pub const fn description(self) -> &'static str {
        match self {
            Format::UnixSeconds => "Unix seconds (UTC)",
            Format::Text(f) => f.info().description,
            Format::Timestamp => "ISO 8601 timestamp",
            Format::TimestampMillis => "ISO 8601 UTC timestamp with milliseconds and `Z`",
            Format::DateTime => "`YYYY-MM-DD HH:MM:SS`",
            Format::NumericText => "a decimal number carried as text",
            Format::Url => "URL",
        }
    }

    /// The JSON Schema `format` keyword describing it, when there is one.
    pub const fn json_format(self) -> Option<&'static str> {
        match self {
            Format::Text(f) => f.info().json_format,
            Format::TimestampMillis => Some("date-time"),
            Format::Url => Some("uri"),
            Format::UnixSeconds | Format::Timestamp | Format::DateTime | Format::NumericText => {
                None
            }
        }
    }

    /// Whether a value of the format is an integer (Unix seconds) rather than a text.
    pub const fn of_integers(self) -> bool {
        matches!(self, Format::UnixSeconds)
    }

    /// True when `text` is in this format; false for a format of integers.
    ///
    /// The formats of answers are read as leniently as their description allows: a
    /// `timestamp` is an RFC 3339 timestamp or one without an offset; a `timestamp_millis`
    /// one with exactly three digits of fraction and `Z`; a `url` an absolute `http` or
    /// `https` URL with a host and no space; a `numeric_text` a decimal number (sign,
    /// digits, fraction and exponent optional, no spaces).
    pub fn holds_text(self, value: &str) -> bool {
        match self {
            Format::UnixSeconds => false,
            Format::Text(f) => f.holds(value),
            Format::Timestamp => text::is_iso_timestamp(value),
            Format::TimestampMillis => text::is_timestamp_millis(value),
            Format::DateTime => text::is_date_time(value),
            Format::NumericText => text::is_numeric_text(value),
            Format::Url => text::is_url(value),
        }
    }

    /// Whether its values are points in time (a date, a timestamp, Unix seconds): what
    /// [`instant`](Self::instant) reads and [`write_instant`](Self::write_instant) writes.
    pub fn is_time(self) -> bool {
        match self {
            Format::UnixSeconds
            | Format::Timestamp
            | Format::TimestampMillis
            | Format::DateTime => true,
            Format::Text(f) => f.info().time.is_some(),
            Format::NumericText | Format::Url => false,
        }
    }

    /// The Unix seconds a value of a time format names (a date: its midnight UTC; a timestamp
    /// without an offset: UTC), as the sample server compares instants; `None` for a value not
    /// in the format or a format of no time.
    pub fn instant(self, value: &str) -> Option<i64> {
        let fits = match self {
            Format::UnixSeconds => value.parse::<i64>().is_ok_and(|n| self.holds_integer(n)),
            _ => self.is_time() && self.holds_text(value),
        };
        if !fits {
            return None;
        }
        match self {
            Format::Timestamp if text::rfc3339_seconds(value).is_none() => {
                text::rfc3339_seconds(&format!("{value}Z"))
            }
            _ => text::instant_seconds(value),
        }
    }

    /// The instant `seconds` written in this format (a date: its day in UTC), as
    /// [`instant`](Self::instant) reads it back (to the day for a date); `None` for a format of
    /// no time.
    pub fn write_instant(self, seconds: i64) -> Option<String> {
        let days = seconds.div_euclid(86_400);
        let secs = seconds.rem_euclid(86_400);
        let (y, m, d) = text::civil_from_days(days);
        let (hh, mm, ss) = (secs / 3600, secs % 3600 / 60, secs % 60);
        Some(match self {
            Format::UnixSeconds => seconds.to_string(),
            Format::Text(TextFormat::Date) => format!("{y:04}-{m:02}-{d:02}"),
            Format::Text(TextFormat::Rfc3339) | Format::Timestamp => {
                format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}Z")
            }
            Format::TimestampMillis => format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}.000Z"),
            Format::DateTime => format!("{y:04}-{m:02}-{d:02} {hh:02}:{mm:02}:{ss:02}"),
            Format::Text(TextFormat::Uuid | TextFormat::Hex16)
            | Format::NumericText
            | Format::Url => return None,
        })
    }

    /// True when the integer `value` is in this format: Unix seconds from the year 1 to the
    /// end of 9999 (a count of milliseconds is past it); false for a format of texts.
    pub fn holds_integer(self, value: i64) -> bool {
        match self {
            Format::UnixSeconds => (-62_135_596_800..=MAX_UNIX_SECONDS).contains(&value),
            _ => false,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Format {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Format::named(&name).ok_or_else(|| {
            let all: Vec<String> = Format::all().map(|f| format!("`{}`", f.name())).collect();
            serde::de::Error::custom(format!(
                "unknown variant `{name}`, expected one of {}",
                all.join(", ")
            ))
        })
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
    fn every_time_format_writes_the_instants_it_reads() {
        let noon = 1_795_608_000;
        for f in Format::all() {
            match f.write_instant(noon) {
                Some(text) => {
                    assert!(f.is_time(), "{f}");
                    let back = f.instant(&text).unwrap_or_else(|| panic!("{f}: {text}"));
                    let expected = if f == Format::Text(TextFormat::Date) {
                        noon - noon.rem_euclid(86_400)
                    } else {
                        noon
                    };
                    assert_eq!(back, expected, "{f}: {text}");
                }
                None => assert!(!f.is_time(), "{f}"),
            }
        }
        assert_eq!(
            Format::Timestamp.instant("2026-11-20T08:00:00"),
            Format::Timestamp.instant("2026-11-20T08:00:00Z"),
            "a timestamp without an offset is UTC"
        );
        assert_eq!(Format::Text(TextFormat::Date).instant("2026/11/20"), None);
    }

    #[test]
    fn every_format_has_a_check() {
        let holds = |f: Format, text: &str| f.holds_text(text);
        assert!(holds(Format::Timestamp, "2026-11-16T10:00:00Z"));
        assert!(holds(Format::Timestamp, "2026-11-16T10:00:00.250+01:00"));
        assert!(holds(Format::Timestamp, "2026-11-16T10:00:00"));
        assert!(!holds(Format::Timestamp, "2026/11/16 10:00"));
        assert!(holds(Format::TimestampMillis, "2026-11-16T10:00:00.250Z"));
        assert!(!holds(Format::TimestampMillis, "2026-11-16T10:00:00Z"));
        assert!(holds(Format::DateTime, "2026-11-16 10:00:00"));
        assert!(!holds(Format::DateTime, "2026-11-16T10:00:00"));
        for n in ["12", "-0.5", "1e3", "12.50", "+3", "2.5E-4"] {
            assert!(holds(Format::NumericText, n), "{n}");
        }
        for n in ["", "1.", ".5", "1,5", "abc", " 1", "1e", "NaN"] {
            assert!(!holds(Format::NumericText, n), "{n}");
        }
        assert!(holds(Format::Url, "https://example.org/a?b=c#d"));
        assert!(holds(Format::Url, "http://127.0.0.1:8080"));
        assert!(!holds(Format::Url, "example.org/a"));
        assert!(!holds(Format::Url, "https:// example.org"));
        assert!(!holds(Format::Url, "https://"));
        assert!(holds(Format::Text(TextFormat::Date), "2026-11-16"));
        assert!(!holds(Format::Text(TextFormat::Date), "2026/11/16"));
        assert!(!holds(Format::UnixSeconds, "1700000000"));
        assert!(Format::UnixSeconds.holds_integer(1_700_000_000));
        assert!(!Format::UnixSeconds.holds_integer(1_700_000_000_000));
        assert!(!Format::Url.holds_integer(1));
        for f in Format::all() {
            assert_eq!(Format::named(f.name()), Some(f));
            assert_eq!(f.of_integers(), f == Format::UnixSeconds);
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
