//! Values for the contract's requests: texts a regular expression matches, instants in each
//! time format, and values a parameter's own rules accept.

use regex_syntax::hir::{Class, Hir, HirKind};

use crate::model::*;

/// 2026-01-01T00:00:00Z, the instant the requests start from when the sample request has none.
pub const T0: i64 = 1_767_225_600;

/// Up to a few texts that `pattern` matches: one per branch of its alternations (all taking
/// the same branch), each character class giving one character (a letter or digit when it
/// has one), each repetition its fewest characters (one for `+`).
pub fn regex_examples(pattern: &str) -> Vec<String> {
    let Ok(hir) = regex_syntax::parse(pattern) else {
        return Vec::new();
    };
    let branches = max_branches(&hir).max(1);
    let re = regex::Regex::new(pattern).ok();
    let mut out: Vec<String> = Vec::new();
    for branch in 0..branches.min(8) {
        let mut text = String::new();
        build(&hir, branch, &mut text);
        if re.as_ref().is_some_and(|re| re.is_match(&text)) && !out.contains(&text) {
            out.push(text);
        }
    }
    out
}

fn max_branches(hir: &Hir) -> usize {
    match hir.kind() {
        HirKind::Alternation(alts) => alts
            .len()
            .max(alts.iter().map(max_branches).max().unwrap_or(0)),
        HirKind::Concat(parts) => parts.iter().map(max_branches).max().unwrap_or(0),
        HirKind::Capture(c) => max_branches(&c.sub),
        HirKind::Repetition(r) => max_branches(&r.sub),
        _ => 0,
    }
}

fn build(hir: &Hir, branch: usize, out: &mut String) {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(lit) => out.push_str(&String::from_utf8_lossy(&lit.0)),
        HirKind::Class(class) => {
            if let Some(c) = class_char(class) {
                out.push(c);
            }
        }
        HirKind::Repetition(r) => {
            for _ in 0..r.min {
                build(&r.sub, branch, out);
            }
        }
        HirKind::Capture(c) => build(&c.sub, branch, out),
        HirKind::Concat(parts) => parts.iter().for_each(|p| build(p, branch, out)),
        HirKind::Alternation(alts) => build(&alts[branch.min(alts.len() - 1)], branch, out),
    }
}

/// A character of `class`: `A`, `a` or `0` when it holds one, else its first one.
fn class_char(class: &Class) -> Option<char> {
    match class {
        Class::Unicode(u) => {
            let ranges: Vec<(char, char)> = u.iter().map(|r| (r.start(), r.end())).collect();
            ['A', 'a', '0']
                .into_iter()
                .find(|c| ranges.iter().any(|(a, b)| a <= c && c <= b))
                .or_else(|| ranges.first().map(|(a, _)| *a))
        }
        Class::Bytes(b) => b.iter().next().map(|r| char::from(r.start())),
    }
}

/// `seconds` as the parameter carries a time: Unix seconds, or RFC 3339 text in UTC.
pub fn instant_text(seconds: i64, format: TimeFormat) -> String {
    match format {
        TimeFormat::UnixSeconds => seconds.to_string(),
        TimeFormat::Rfc3339 => {
            let days = seconds.div_euclid(86_400);
            let secs = seconds.rem_euclid(86_400);
            let (y, m, d) = civil_from_days(days);
            format!(
                "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
                secs / 3600,
                secs % 3600 / 60,
                secs % 60
            )
        }
    }
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A text in `format`.
pub fn format_example(format: StringFormat) -> String {
    match format {
        StringFormat::Rfc3339 => instant_text(T0, TimeFormat::Rfc3339),
        StringFormat::Uuid => "123e4567-e89b-12d3-a456-426614174000".into(),
        StringFormat::Hex16 => "00ff00ff00ff00ff".into(),
        StringFormat::Date => "2026-01-01".into(),
    }
}

/// A text in `format` unlike any the spec's samples use, to name nothing.
pub fn format_nothing(format: StringFormat) -> String {
    match format {
        StringFormat::Rfc3339 => instant_text(0, TimeFormat::Rfc3339),
        StringFormat::Uuid => "00000000-0000-4000-8000-000000000000".into(),
        StringFormat::Hex16 => "0000000000000000".into(),
        StringFormat::Date => "1970-01-01".into(),
    }
}

/// True when `p`'s own rules accept `value` (its type, bounds, values, pattern and format).
pub fn accepts(p: &Param, value: &str) -> bool {
    match &p.ty {
        ParamType::Integer(t) => value
            .parse::<i64>()
            .is_ok_and(|n| t.min.is_none_or(|min| n >= min) && t.max.is_none_or(|max| n <= max)),
        ParamType::Boolean => value == "true" || value == "false",
        ParamType::Enum(e) => e.values.iter().any(|v| v == value),
        ParamType::String(t) => {
            t.pattern.as_ref().is_none_or(|pattern| {
                regex::Regex::new(&pattern.regex).is_ok_and(|re| re.is_match(value))
            }) && t.format.is_none_or(|f| f.runtime().holds(value))
        }
    }
}

/// Values `p`'s own rules accept, the sample request's first: its default, its set's values,
/// its bounds, texts of its pattern and format.
pub fn candidates(p: &Param, base: Option<&str>) -> Vec<String> {
    let mut out: Vec<String> = base.into_iter().map(str::to_string).collect();
    if let Some(d) = &p.default {
        out.push(d.wire());
    }
    match &p.ty {
        ParamType::Integer(t) => {
            out.extend([t.min, t.max].into_iter().flatten().map(|n| n.to_string()));
            out.extend(["0", "1"].map(str::to_string));
            if t.format == Some(IntegerFormat::UnixSeconds) {
                out.push(T0.to_string());
            }
        }
        ParamType::Boolean => out.extend(["true", "false"].map(str::to_string)),
        ParamType::Enum(e) => out.extend(e.values.iter().cloned()),
        ParamType::String(t) => {
            if let Some(pattern) = &t.pattern {
                out.extend(regex_examples(&pattern.regex));
            }
            if let Some(format) = t.format {
                out.push(format_example(format));
            }
            out.push("a".into());
        }
    }
    let mut seen = Vec::new();
    out.retain(|v| {
        accepts(p, v) && !seen.contains(v) && {
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
    fn examples_match_their_patterns() {
        let pair = "^[A-Z0-9]+_(SPOT|PERP|OPTION|FUTURE)_[A-Z0-9]+_[A-Z0-9]+$";
        assert_eq!(
            regex_examples(pair),
            vec!["A_SPOT_A_A", "A_PERP_A_A", "A_OPTION_A_A", "A_FUTURE_A_A"]
        );
        assert_eq!(regex_examples("^[A-Z]{6}$"), vec!["AAAAAA"]);
        assert_eq!(regex_examples("^\\^?[A-Za-z0-9.]{1,15}$"), vec!["A"]);
        assert_eq!(regex_examples("^.*\\S.*$"), vec!["A"]);
        let option = "^[A-Z0-9]+_OPTION_[A-Z]{1,6}[0-9]{6}[CP][0-9]{8}_[A-Z0-9]+$";
        assert_eq!(regex_examples(option), vec!["A_OPTION_A000000C00000000_A"]);
    }

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
        for f in [
            StringFormat::Rfc3339,
            StringFormat::Uuid,
            StringFormat::Hex16,
            StringFormat::Date,
        ] {
            assert!(f.runtime().holds(&format_example(f)));
            assert!(f.runtime().holds(&format_nothing(f)));
        }
    }
}
