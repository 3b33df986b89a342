//! Text on the wire: percent coding, and the formats parameters and records use.

/// Percent-encodes text for a query value or a path segment: every byte but the unreserved
/// characters (`A-Z a-z 0-9 - . _ ~`) becomes `%XX`.
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(char::from(b"0123456789ABCDEF"[usize::from(b >> 4)]));
            out.push(char::from(b"0123456789ABCDEF"[usize::from(b & 15)]));
        }
    }
    out
}

/// Decodes a query name or value: `+` is a space, `%XX` a byte; an invalid escape is kept as
/// text, and bytes that are not UTF-8 are replaced.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                match (hex_value(bytes[i + 1]), hex_value(bytes[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push(h * 16 + l);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A path segment decoded: `%XX` escapes become bytes (`+` stays `+`: only a query writes a
/// space so); `None` when the bytes are not UTF-8.
pub fn decode_segment(segment: &str) -> Option<String> {
    if !segment.contains('%') {
        return Some(segment.to_owned());
    }
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |at: usize| bytes.get(at).and_then(|b| (*b as char).to_digit(16));
        match (bytes[i], hex(i + 1), hex(i + 2)) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

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

fn days_in_month(year: i64, month: i64) -> i64 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
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

/// `text` as a part of a name (a probe's, a drafted endpoint's id): ASCII letters and digits
/// lowercased, anything else `_` (`MLC 128Gb`: `mlc_128gb`).
pub fn name_part(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
pub fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date (year, month, day) of a count of days since 1970-01-01: the
/// inverse of [`days_from_civil`].
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
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

/// `` `a`, `b` or `c` ``: a list of values for a message.
pub fn one_of(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_parts_are_lowercase_letters_digits_and_underscores() {
        assert_eq!(name_part("MLC 128Gb"), "mlc_128gb");
        assert_eq!(name_part("equity-offering"), "equity_offering");
        assert_eq!(name_part("é"), "_");
    }

    #[test]
    fn civil_dates_and_day_counts_are_inverses() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_773), (2026, 11, 16));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        for days in (-800_000..800_000).step_by(997) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
        }
    }

    #[test]
    fn segments_decode_strictly() {
        assert_eq!(decode_segment("a%20b+c").as_deref(), Some("a b+c"));
        assert_eq!(decode_segment("%e2%82%AC").as_deref(), Some("€"));
        assert_eq!(decode_segment("100%").as_deref(), Some("100%"));
        assert_eq!(decode_segment("%zz%4").as_deref(), Some("%zz%4"));
        assert_eq!(decode_segment("%ff"), None);
    }

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

    #[test]
    fn percent_coding() {
        assert_eq!(percent_encode("a b/ü"), "a%20b%2F%C3%BC");
        assert_eq!(percent_decode("a+b%2Fc%zz"), "a b/c%zz");
        assert_eq!(percent_decode("%41%4"), "A%4");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(
            percent_decode(&percent_encode("2026-07-01T00:00:00+02:00")),
            "2026-07-01T00:00:00+02:00"
        );
    }

    #[test]
    fn lists() {
        assert_eq!(one_of(&["a", "b", "c"]), "`a`, `b` or `c`");
        assert_eq!(one_of(&["a"]), "`a`");
        assert_eq!(one_of(&[]), "");
    }
}
