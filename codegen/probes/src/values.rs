//! Values for the contract's requests: instants in each time format, and values a parameter's
//! own rules accept.

use mrds_spec::model::{IntegerFormat, Literal, TimeFormat, ValueType};

/// 2026-01-01T00:00:00Z, the instant the requests start from when the sample request has none.
pub const T0: i64 = 1_767_225_600;

/// `seconds` as the parameter carries a time: Unix seconds, or RFC 3339 text in UTC.
pub fn instant_text(seconds: i64, format: TimeFormat) -> String {
    let format = match format {
        TimeFormat::UnixSeconds => mrds_runtime::Format::UnixSeconds,
        TimeFormat::Rfc3339 => mrds_runtime::Format::Text(mrds_runtime::TextFormat::Rfc3339),
    };
    format.write_instant(seconds).unwrap_or_default()
}

/// Values of type `ty` its own rules accept, the sample request's (`base`) first: the
/// `default`, its set's values, its bounds, texts of its pattern and format.
pub fn candidates(ty: &ValueType, default: Option<&Literal>, base: Option<&str>) -> Vec<String> {
    let mut out: Vec<String> = base.into_iter().map(str::to_string).collect();
    out.extend(default.map(Literal::wire));
    match ty {
        ValueType::Integer(t) => {
            out.extend([t.min, t.max].into_iter().flatten().map(|n| n.to_string()));
            out.extend(["0", "1"].map(str::to_string));
            if t.format == Some(IntegerFormat::UnixSeconds) {
                out.push(T0.to_string());
            }
        }
        ValueType::Boolean => out.extend(["true", "false"].map(str::to_string)),
        ValueType::Enum(e) => out.extend(e.values.iter().cloned()),
        ValueType::String(t) => {
            if let Some(pattern) = &t.pattern {
                out.extend(pattern.examples().iter().cloned());
            }
            if let Some(format) = t.format {
                out.push(format.info().examples[0].to_owned());
            }
            out.push("a".into());
        }
    }
    let mut seen = Vec::new();
    out.retain(|v| {
        ty.accepts(v) && !seen.contains(v) && {
            seen.push(v.clone());
            true
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_in_each_format() {
        assert_eq!(
            instant_text(T0, TimeFormat::Rfc3339),
            "2026-01-01T00:00:00Z"
        );
        assert_eq!(
            instant_text(T0 + 86_399, TimeFormat::Rfc3339),
            "2026-01-01T23:59:59Z"
        );
        assert_eq!(
            instant_text(951_782_400, TimeFormat::Rfc3339),
            "2000-02-29T00:00:00Z"
        );
        assert_eq!(instant_text(T0, TimeFormat::UnixSeconds), T0.to_string());
    }
}
