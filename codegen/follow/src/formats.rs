//! The text formats a field's values may be told by: the one every text fits (a new field's,
//! a field that arrives out of its format), in the order fields prefer them; and the spellings of
//! points in time as integers ([`IntegerTime`]).

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

/// How integers a service sends for a point in time spell it: a day `YYYYMMDD`, a date and
/// time `YYYYMMDDhhmmss` (UTC), Unix seconds or Unix milliseconds (of the years 2001 to 2286,
/// so that a count of something else is not taken for one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IntegerTime {
    /// `20261120`.
    Day,
    /// `20261120143000`.
    DayTime,
    /// `1795132800`.
    Seconds,
    /// `1795132800000`.
    Millis,
}

impl IntegerTime {
    /// The spelling every one of `values` is in (the first of day, date and time, seconds,
    /// milliseconds that fits all); `None` when there are none or none fits.
    pub(crate) fn of(values: &[i64]) -> Option<IntegerTime> {
        use IntegerTime::*;
        let fits = |s: IntegerTime| values.iter().all(|n| s.instant(*n).is_some());
        (!values.is_empty())
            .then(|| {
                [Day, DayTime, Seconds, Millis]
                    .into_iter()
                    .find(|s| fits(*s))
            })
            .flatten()
    }

    /// The Unix seconds the integer `n` names in this spelling; `None` when it is not one.
    pub(crate) fn instant(self, n: i64) -> Option<i64> {
        let day = |ymd: i64| {
            let (y, m, d) = (ymd / 10_000, ymd / 100 % 100, ymd % 100);
            let date = format!("{y:04}-{m:02}-{d:02}");
            ((1000..=9999).contains(&y) && mrds_runtime::text::is_date(&date))
                .then(|| mrds_runtime::text::instant_seconds(&date))
                .flatten()
        };
        match self {
            IntegerTime::Day => day(n),
            IntegerTime::DayTime => {
                let (hh, mm, ss) = (n / 10_000 % 100, n / 100 % 100, n % 100);
                (hh < 24 && mm < 60 && ss < 60)
                    .then(|| day(n / 1_000_000))
                    .flatten()
                    .map(|d| d + hh * 3600 + mm * 60 + ss)
            }
            IntegerTime::Seconds => (1_000_000_000..10_000_000_000).contains(&n).then_some(n),
            IntegerTime::Millis => (1_000_000_000_000..10_000_000_000_000)
                .contains(&n)
                .then_some(n / 1000),
        }
    }

    /// The instant `seconds` in this spelling (a day: its day in UTC).
    pub(crate) fn write(self, seconds: i64) -> i64 {
        let days = seconds.div_euclid(86_400);
        let (y, m, d) = mrds_runtime::text::civil_from_days(days);
        let ymd = y * 10_000 + m * 100 + d;
        let s = seconds.rem_euclid(86_400);
        match self {
            IntegerTime::Day => ymd,
            IntegerTime::DayTime => ymd
                .saturating_mul(1_000_000)
                .saturating_add(s / 3600 * 10_000 + s / 60 % 60 * 100 + s % 60),
            IntegerTime::Seconds => seconds,
            IntegerTime::Millis => seconds.saturating_mul(1000),
        }
    }

    /// What it is, for the report (`days written YYYYMMDD`).
    pub(crate) fn describe(self) -> &'static str {
        match self {
            IntegerTime::Day => "days written `YYYYMMDD`",
            IntegerTime::DayTime => "dates and times written `YYYYMMDDhhmmss`",
            IntegerTime::Seconds => "Unix seconds",
            IntegerTime::Millis => "Unix milliseconds",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::IntegerTime;

    #[test]
    fn integers_read_as_the_points_in_time_they_spell() {
        assert_eq!(
            IntegerTime::of(&[20261120, 20261116]),
            Some(IntegerTime::Day)
        );
        assert_eq!(IntegerTime::of(&[20261131]), None);
        assert_eq!(
            IntegerTime::of(&[20261120143000]),
            Some(IntegerTime::DayTime)
        );
        assert_eq!(IntegerTime::of(&[1795132800]), Some(IntegerTime::Seconds));
        assert_eq!(IntegerTime::of(&[1795132800000]), Some(IntegerTime::Millis));
        assert_eq!(IntegerTime::of(&[12, 20261120]), None);
        assert_eq!(IntegerTime::of(&[]), None);
        let day = IntegerTime::Day.instant(20261120).unwrap();
        assert_eq!(day, 1_795_132_800);
        assert_eq!(IntegerTime::Day.write(day + 3600), 20261120);
        assert_eq!(IntegerTime::DayTime.write(day + 52_200), 20261120143000);
        assert_eq!(
            IntegerTime::DayTime.instant(20261120143000),
            Some(day + 52_200)
        );
        assert_eq!(IntegerTime::Millis.write(day), 1_795_132_800_000);
    }
}
