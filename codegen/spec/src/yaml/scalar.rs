//! What a plain scalar of the spec is: text, an integer (of any size: its type decides the range
//! it must fall in), a float, a boolean or null, as YAML 1.2's core schema reads it.

use super::node::is_null_text;

/// A plain scalar read by the YAML 1.2 core schema.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Resolved {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Text,
}

impl Resolved {
    pub(super) fn of(text: &str) -> Resolved {
        if is_null_text(text) {
            return Resolved::Null;
        }
        match text {
            "true" | "True" | "TRUE" => return Resolved::Bool(true),
            "false" | "False" | "FALSE" => return Resolved::Bool(false),
            _ => {}
        }
        if let Some(n) = parse_int(text) {
            // An integer beyond 64 bits has no value here: untyped, it stays the text written
            // (a typed integer names its range instead).
            return match n.map(|n| (i64::try_from(n), u64::try_from(n))) {
                Some((Ok(n), _)) => Resolved::Int(n),
                Some((_, Ok(n))) => Resolved::Uint(n),
                _ => Resolved::Text,
            };
        }
        match parse_float(text) {
            Some(x) => Resolved::Float(x),
            None => Resolved::Text,
        }
    }
}

/// `[-+]?[0-9]+`, `0x[0-9a-fA-F]+` or `0o[0-7]+`: its value, or `Some(None)` for one beyond
/// an `i128`.
pub(super) fn parse_int(text: &str) -> Option<Option<i128>> {
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (radix, digits) = if let Some(hex) = digits.strip_prefix("0x") {
        (16, hex)
    } else if let Some(oct) = digits.strip_prefix("0o") {
        (8, oct)
    } else {
        (10, digits)
    };
    if digits.is_empty() || !digits.bytes().all(|c| (c as char).is_digit(radix)) {
        return None;
    }
    // The digits are checked: only a value too large fails.
    let n = u128::from_str_radix(digits, radix).ok();
    Some(n.and_then(|n| {
        if negative {
            0i128.checked_sub_unsigned(n)
        } else {
            i128::try_from(n).ok()
        }
    }))
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, `.inf` and `.nan` in their spellings.
pub(super) fn parse_float(text: &str) -> Option<f64> {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    match unsigned {
        ".inf" | ".Inf" | ".INF" => {
            return Some(if text.starts_with('-') {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            });
        }
        ".nan" | ".NaN" | ".NAN" if unsigned.len() == text.len() => return Some(f64::NAN),
        _ => {}
    }
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(i) => (&unsigned[..i], Some(&unsigned[i + 1..])),
        None => (unsigned, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|c| c.is_ascii_digit());
    let mantissa_ok = digits(whole)
        && digits(fraction)
        && (!whole.is_empty() || !fraction.is_empty())
        && (mantissa.contains('.') || exponent.is_some());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    if mantissa_ok && exponent_ok {
        text.parse().ok()
    } else {
        None
    }
}
