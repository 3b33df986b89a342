//! Percent coding: a query value or a path segment encoded, a query name or value decoded,
//! a path segment decoded strictly.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_decode_strictly() {
        assert_eq!(decode_segment("a%20b+c").as_deref(), Some("a b+c"));
        assert_eq!(decode_segment("%e2%82%AC").as_deref(), Some("€"));
        assert_eq!(decode_segment("100%").as_deref(), Some("100%"));
        assert_eq!(decode_segment("%zz%4").as_deref(), Some("%zz%4"));
        assert_eq!(decode_segment("%ff"), None);
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
}
