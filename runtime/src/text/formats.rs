//! The checks of the text formats parameters and records use (dates, RFC 3339 and ISO 8601
//! timestamps, UUIDs, hexadecimal, numeric text, URLs), and instants read from text as Unix
//! seconds.

use super::calendar::{days_from_civil, days_in_month};

/// A UUID in hyphenated form (8-4-4-4-12 hexadecimal digits).
pub fn is_uuid(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// Exactly 16 hexadecimal digits.
pub fn is_hex16(text: &str) -> bool {
    text.len() == 16 && text.bytes().all(|c| c.is_ascii_hexdigit())
}

/// A calendar date `YYYY-MM-DD` with a real month and day.
pub fn is_date(text: &str) -> bool {
    date_days(text).is_some()
}

/// Days since 1970-01-01 of a `YYYY-MM-DD` date, or `None` when the text is not one.
fn date_days(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let (year, month, day) = (
        digits(text, 0, 4)?,
        digits(text, 5, 7)?,
        digits(text, 8, 10)?,
    );
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    Some(days_from_civil(year, month, day))
}

/// The decimal number written with digits only at `text[from..to]`.
fn digits(text: &str, from: usize, to: usize) -> Option<i64> {
    let s = text.get(from..to)?;
    if s.bytes().all(|c| c.is_ascii_digit()) {
        s.parse().ok()
    } else {
        None
    }
}

/// Parses an RFC 3339 timestamp (`2026-07-01T12:00:00Z`, `...T12:00:00.5+02:00`) into Unix
/// seconds, or `None` when the text is not one. The offset is `Z` (or `z`) or `±hh:mm`; the
/// ISO 8601 basic offset `±hhmm` is accepted too, because common generated clients (OpenAPI
/// Generator's Python client among them) format instants with it and the instant it names is
/// just as exact.
pub fn rfc3339_seconds(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() < 20 || !matches!(b[10], b'T' | b't' | b' ') || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let days = date_days(text.get(..10)?)?;
    let (hour, minute, second) = (
        digits(text, 11, 13)?,
        digits(text, 14, 16)?,
        digits(text, 17, 19)?,
    );
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut rest = &text[19..];
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return None;
        }
        rest = &frac[n..];
    }
    let offset = match rest {
        "Z" | "z" => 0,
        _ => {
            let rb = rest.as_bytes();
            if rb.is_empty() || !matches!(rb[0], b'+' | b'-') {
                return None;
            }
            let (oh, om) = match rb.len() {
                6 if rb[3] == b':' => (digits(rest, 1, 3)?, digits(rest, 4, 6)?),
                5 => (digits(rest, 1, 3)?, digits(rest, 3, 5)?),
                _ => return None,
            };
            if oh > 23 || om > 59 {
                return None;
            }
            let sign = if rb[0] == b'-' { -1 } else { 1 };
            sign * (oh * 3600 + om * 60)
        }
    };
    Some(days * 86_400 + hour * 3600 + minute * 60 + second - offset)
}

/// Unix seconds of an instant written as text: an integer, a date (`YYYY-MM-DD`, at
/// midnight UTC), a date and time (`YYYY-MM-DD HH:MM:SS`, UTC) or an RFC 3339 timestamp.
pub fn instant_seconds(text: &str) -> Option<i64> {
    if let Ok(n) = text.parse::<i64>() {
        return Some(n);
    }
    match text.len() {
        10 => date_days(text).map(|d| d * 86_400),
        19 if text.as_bytes()[10] == b' ' => {
            rfc3339_seconds(&format!("{}T{}Z", &text[..10], &text[11..]))
        }
        _ => rfc3339_seconds(text),
    }
}

/// An ISO 8601 timestamp as answers write it: an RFC 3339 timestamp, or one without an
/// offset (`2026-11-16T10:00:00`, a local or implied UTC time).
pub fn is_iso_timestamp(text: &str) -> bool {
    if rfc3339_seconds(text).is_some() {
        return true;
    }
    let b = text.as_bytes();
    b.len() >= 19
        && matches!(b[10], b'T' | b't')
        && !text.ends_with(|c: char| !c.is_ascii_digit())
        && rfc3339_seconds(&format!("{text}Z")).is_some()
}

/// An RFC 3339 UTC timestamp with exactly three digits of fraction and `Z`
/// (`2026-11-16T10:00:00.250Z`).
pub fn is_timestamp_millis(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 24
        && b[10] == b'T'
        && b[19] == b'.'
        && b[23] == b'Z'
        && b[20..23].iter().all(u8::is_ascii_digit)
        && rfc3339_seconds(text).is_some()
}

/// A date and time `YYYY-MM-DD HH:MM:SS` (UTC implied).
pub fn is_date_time(text: &str) -> bool {
    text.len() == 19 && text.as_bytes()[10] == b' ' && instant_seconds(text).is_some()
}

/// A decimal number written as text: an optional sign, digits, an optional fraction (a dot
/// and digits) and an optional exponent (`e` or `E`, an optional sign, digits); nothing else.
pub fn is_numeric_text(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let from = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > from
    };
    if !digits(&mut i) {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

/// An absolute `http` or `https` URL: the scheme, `://`, a host (not empty, up to the first
/// `/`, `?` or `#`), and no whitespace or control character anywhere.
pub fn is_url(text: &str) -> bool {
    let rest = match text.split_once("://") {
        Some((scheme, rest))
            if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") =>
        {
            rest
        }
        _ => return false,
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    !host.is_empty() && !text.chars().any(|c| c.is_whitespace() || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339() {
        assert_eq!(rfc3339_seconds("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(rfc3339_seconds("2026-07-29T00:00:00Z"), Some(1_785_283_200));
        assert_eq!(
            rfc3339_seconds("2026-07-29T02:00:00+02:00"),
            Some(1_785_283_200)
        );
        assert_eq!(
            rfc3339_seconds("2026-07-29T00:00:00.250Z"),
            Some(1_785_283_200)
        );
        assert_eq!(rfc3339_seconds("2026-02-30T00:00:00Z"), None);
        assert_eq!(rfc3339_seconds("2026-07-29"), None);
        assert_eq!(rfc3339_seconds("2026-07-29T00:00:00"), None);
        assert_eq!(rfc3339_seconds("2026-07-29T24:00:00Z"), None);
        // The ISO 8601 basic offset names the same instant as its RFC 3339 spelling.
        assert_eq!(
            rfc3339_seconds("2026-07-29T02:00:00.000000+0200"),
            Some(1_785_283_200)
        );
        assert_eq!(
            rfc3339_seconds("2026-07-28T22:00:00-0200"),
            Some(1_785_283_200)
        );
        assert_eq!(rfc3339_seconds("2026-07-29T00:00:00+02"), None);
        assert_eq!(rfc3339_seconds("2026-07-29T00:00:00+020"), None);
        assert_eq!(rfc3339_seconds("2026-07-29T00:00:00+2400"), None);
        assert_eq!(rfc3339_seconds("2026-07-29T00:00:00 0200"), None);
        assert_eq!(rfc3339_seconds("2026-07-29T00:00:00+02:0"), None);
        assert_eq!(rfc3339_seconds("2026-07-29T00:00:00.Z"), None);
    }

    #[test]
    fn dates() {
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2023-02-29"));
        assert!(!is_date("2026-13-01"));
        assert!(!is_date("2026-1-01"));
        assert!(!is_date("2026-01-+1"));
        assert_eq!(instant_seconds("2026-07-29"), Some(1_785_283_200));
        assert_eq!(instant_seconds("2026-07-29 00:00:01"), Some(1_785_283_201));
        assert_eq!(instant_seconds("1785283200"), Some(1_785_283_200));
        assert_eq!(instant_seconds("soon"), None);
    }

    #[test]
    fn shapes() {
        assert!(is_uuid("123e4567-e89b-12d3-a456-426614174000"));
        assert!(!is_uuid("123e4567e89b12d3a456426614174000"));
        assert!(is_hex16("00ff00ff00ff00ff"));
        assert!(!is_hex16("00ff00ff00ff00fg"));
    }
}
