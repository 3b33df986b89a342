//! Runtime support shared by every generated parameter type: validation issues, query
//! parsing and the small format checks. This file does not depend on the spec; it is copied
//! into the model crate as `support.rs`.

use std::fmt;

use crate::records::{ErrorDetail, ErrorObject};
use crate::value_sets::ErrorCode;

/// One problem with a request: the parameter at fault, the value received, and the rule broken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationIssue {
    /// Stable id of the rule broken (`stock_dividends.limit.range`).
    pub rule: &'static str,
    /// The parameter at fault (wire name).
    pub field: &'static str,
    /// The value received, as text; empty when the parameter was missing.
    pub got: String,
    /// What the rule requires.
    pub reason: String,
}

impl ValidationIssue {
    /// A new issue.
    pub fn new(
        rule: &'static str,
        field: &'static str,
        got: impl Into<String>,
        reason: impl Into<String>,
    ) -> Self {
        Self {
            rule,
            field,
            got: got.into(),
            reason: reason.into(),
        }
    }

    /// The issue as an ErrorObject `details` entry; the reason names the rule id.
    pub fn to_detail(&self) -> ErrorDetail {
        ErrorDetail {
            field: self.field.to_string(),
            got: self.got.clone(),
            reason: format!("{} [rule {}]", self.reason, self.rule),
        }
    }
}

impl fmt::Display for ValidationIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} (got `{}`) [rule {}]",
            self.field, self.reason, self.got, self.rule
        )
    }
}

/// Every problem found in one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// The problems: those found reading the parameters (missing, repeated, not of their
    /// type) first, then each parameter's own checks in documented order, then the rules
    /// across parameters in the spec's order.
    pub issues: Vec<ValidationIssue>,
}

impl ValidationError {
    /// `Ok` when `issues` is empty.
    pub fn check(issues: Vec<ValidationIssue>) -> Result<(), ValidationError> {
        if issues.is_empty() {
            Ok(())
        } else {
            Err(ValidationError { issues })
        }
    }

    /// True when some issue names the rule `rule`.
    pub fn breaks(&self, rule: &str) -> bool {
        self.issues.iter().any(|i| i.rule == rule)
    }

    /// The error object the service answers with (code `INVALID_PARAMETER`).
    pub fn to_error_object(&self) -> ErrorObject {
        let n = self.issues.len();
        ErrorObject {
            code: ErrorCode::InvalidParameter,
            message: format!("{n} invalid parameter{}", if n == 1 { "" } else { "s" }),
            details: self.issues.iter().map(ValidationIssue::to_detail).collect(),
            docs_url: None,
            examples: Vec::new(),
            hint: None,
            suggestions: Vec::new(),
        }
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid request:")?;
        for issue in &self.issues {
            write!(f, " {issue};")?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationError {}

/// A value that travels as one query or path parameter.
pub trait ParamValue: Sized {
    /// Parses the wire text; the error is the rule suffix (`type`, `values`) and the reason.
    fn parse_param(text: &str) -> Result<Self, (&'static str, String)>;
    /// The wire text.
    fn to_param(&self) -> String;
}

impl ParamValue for String {
    fn parse_param(text: &str) -> Result<Self, (&'static str, String)> {
        Ok(text.to_string())
    }
    fn to_param(&self) -> String {
        self.clone()
    }
}

impl ParamValue for i64 {
    fn parse_param(text: &str) -> Result<Self, (&'static str, String)> {
        text.parse().map_err(|_| {
            (
                "type",
                "must be an integer between -9223372036854775808 and 9223372036854775807"
                    .to_string(),
            )
        })
    }
    fn to_param(&self) -> String {
        self.to_string()
    }
}

impl ParamValue for bool {
    fn parse_param(text: &str) -> Result<Self, (&'static str, String)> {
        match text {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(("type", "must be `true` or `false`".to_string())),
        }
    }
    fn to_param(&self) -> String {
        self.to_string()
    }
}

/// The parameters of one request as received: query pairs (percent-decoded) and path
/// segments. Parameter types read it with `from_raw`; unknown names are ignored.
///
/// All names and values live in one buffer (two allocations per request, whatever the
/// number of parameters).
#[derive(Clone, Default)]
pub struct RawParams {
    text: String,
    query: Vec<(Span, Span)>,
    path: Vec<(Span, Span)>,
}

/// Where a name or value stands in [`RawParams`]'s buffer.
type Span = (usize, usize);

impl RawParams {
    /// Parses a raw query string (without `?`): `&`-separated `name=value` pairs,
    /// `+` as space, percent-decoded (invalid escapes are kept as text).
    pub fn from_query_string(query: &str) -> Self {
        let mut raw = Self {
            text: String::with_capacity(query.len()),
            query: Vec::with_capacity(query.len() / 8 + 1),
            path: Vec::new(),
        };
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let name = raw.push_decoded(name);
            let value = raw.push_decoded(value);
            raw.query.push((name, value));
        }
        raw
    }

    /// Query pairs already decoded.
    pub fn from_pairs<N: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (N, V)>,
    ) -> Self {
        let mut raw = Self::default();
        for (name, value) in pairs {
            let name = raw.push(name.as_ref());
            let value = raw.push(value.as_ref());
            raw.query.push((name, value));
        }
        raw
    }

    /// Adds a path parameter (already percent-decoded).
    pub fn with_path(mut self, name: impl AsRef<str>, value: impl AsRef<str>) -> Self {
        let name = self.push(name.as_ref());
        let value = self.push(value.as_ref());
        self.path.push((name, value));
        self
    }

    /// True when the request carries the parameter (valid or not), in the query or the path.
    pub fn has(&self, name: &str) -> bool {
        self.query
            .iter()
            .chain(&self.path)
            .any(|(n, _)| self.at(*n) == name)
    }

    /// The query pairs, in the order received.
    pub fn query_pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.query.iter().map(|(n, v)| (self.at(*n), self.at(*v)))
    }

    /// The path parameters.
    pub fn path_pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.path.iter().map(|(n, v)| (self.at(*n), self.at(*v)))
    }

    fn at(&self, (from, to): Span) -> &str {
        &self.text[from..to]
    }

    fn push(&mut self, text: &str) -> Span {
        let from = self.text.len();
        self.text.push_str(text);
        (from, self.text.len())
    }

    fn push_decoded(&mut self, text: &str) -> Span {
        // Most names and values carry no escape: copied as they are.
        if !text.bytes().any(|b| b == b'%' || b == b'+') {
            return self.push(text);
        }
        let decoded = percent_decode(text);
        self.push(&decoded)
    }

    fn one(
        &self,
        list: &[(Span, Span)],
        name: &'static str,
        rule: &'static str,
        issues: &mut Vec<ValidationIssue>,
    ) -> Option<&str> {
        let mut found = list
            .iter()
            .filter(|(n, _)| self.at(*n) == name)
            .map(|(_, v)| self.at(*v));
        let first = found.next()?;
        let more = found.count();
        if more > 0 {
            issues.push(ValidationIssue::new(
                rule,
                name,
                first,
                format!("is given {} times; give it once", more + 1),
            ));
            return None;
        }
        Some(first)
    }

    fn read<T: ParamValue>(
        text: Option<&str>,
        name: &'static str,
        rules: &ParamRules,
        issues: &mut Vec<ValidationIssue>,
    ) -> Option<T> {
        match T::parse_param(text?) {
            Ok(v) => Some(v),
            Err((suffix, reason)) => {
                let rule = match suffix {
                    "values" => rules.values,
                    _ => rules.ty,
                };
                issues.push(ValidationIssue::new(rule, name, text.unwrap_or(""), reason));
                None
            }
        }
    }

    /// A query parameter that may be absent. `None` when absent or invalid (then an issue
    /// is recorded).
    pub fn optional<T: ParamValue>(
        &self,
        name: &'static str,
        rules: &ParamRules,
        issues: &mut Vec<ValidationIssue>,
    ) -> Option<T> {
        let text = self.one(&self.query, name, rules.repeated, issues);
        Self::read(text, name, rules, issues)
    }

    /// A query parameter that must be given.
    pub fn required<T: ParamValue>(
        &self,
        name: &'static str,
        rules: &ParamRules,
        issues: &mut Vec<ValidationIssue>,
    ) -> Option<T> {
        self.must(&self.query, name, rules, issues)
    }

    /// A path parameter (always required).
    pub fn path<T: ParamValue>(
        &self,
        name: &'static str,
        rules: &ParamRules,
        issues: &mut Vec<ValidationIssue>,
    ) -> Option<T> {
        self.must(&self.path, name, rules, issues)
    }

    fn must<T: ParamValue>(
        &self,
        list: &[(Span, Span)],
        name: &'static str,
        rules: &ParamRules,
        issues: &mut Vec<ValidationIssue>,
    ) -> Option<T> {
        let before = issues.len();
        let text = self.one(list, name, rules.repeated, issues);
        if text.is_none() && issues.len() == before {
            issues.push(ValidationIssue::new(
                rules.required,
                name,
                "",
                "is required",
            ));
        }
        Self::read(text, name, rules, issues)
    }
}

impl fmt::Debug for RawParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RawParams")
            .field("query", &self.query_pairs().collect::<Vec<_>>())
            .field("path", &self.path_pairs().collect::<Vec<_>>())
            .finish()
    }
}

impl PartialEq for RawParams {
    fn eq(&self, other: &Self) -> bool {
        self.query_pairs().eq(other.query_pairs()) && self.path_pairs().eq(other.path_pairs())
    }
}

impl Eq for RawParams {}

/// The rule ids of one parameter's own checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamRules {
    /// Missing although required.
    pub required: &'static str,
    /// Given more than once.
    pub repeated: &'static str,
    /// Not of its type (a letter in an integer, an integer past i64).
    pub ty: &'static str,
    /// Not one of its value set.
    pub values: &'static str,
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex_value(bytes[i + 1]), hex_value(bytes[i + 2]))
            {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Percent-encodes text for a query value or a path segment (everything but unreserved
/// characters).
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

/// Parses an RFC 3339 timestamp (`2026-07-01T12:00:00Z`, `...T12:00:00.5+02:00`) into Unix
/// seconds, or `None` when the text is not one.
pub fn rfc3339_seconds(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() < 20 {
        return None;
    }
    let num = |from: usize, to: usize| -> Option<i64> {
        let s = text.get(from..to)?;
        if s.bytes().all(|c| c.is_ascii_digit()) {
            s.parse().ok()
        } else {
            None
        }
    };
    if b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (year, month, day) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (hour, minute, second) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days_in_month = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month[(month - 1) as usize]
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let mut rest = &text[19..];
    if let Some(frac) = rest.strip_prefix('.') {
        let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        rest = &frac[digits..];
    }
    let offset = match rest {
        "Z" | "z" => 0,
        _ => {
            let rb = rest.as_bytes();
            if rb.len() != 6 || !matches!(rb[0], b'+' | b'-') || rb[3] != b':' {
                return None;
            }
            let oh: i64 = rest[1..3].parse().ok()?;
            let om: i64 = rest[4..6].parse().ok()?;
            if oh > 23
                || om > 59
                || !rest[1..3]
                    .bytes()
                    .chain(rest[4..6].bytes())
                    .all(|c| c.is_ascii_digit())
            {
                return None;
            }
            let sign = if rb[0] == b'-' { -1 } else { 1 };
            sign * (oh * 3600 + om * 60)
        }
    };
    Some(days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset)
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Deserializes `null` as the type's default (an empty list), for tolerant decoding.
pub fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de> + Default,
{
    let value: Option<T> = serde::Deserialize::deserialize(deserializer)?;
    Ok(value.unwrap_or_default())
}

/// One generated parameter type: the validated query of one endpoint.
pub trait Request: Sized {
    /// The record `data` holds.
    type Record: serde::de::DeserializeOwned + serde::Serialize;
    /// The endpoint in the endpoint table.
    const ENDPOINT: &'static crate::api::Endpoint;
    /// Checks every parameter rule and every rule across parameters; reports all problems.
    fn validate(&self) -> Result<(), ValidationError>;
    /// The query pairs, in documented order (path parameters excluded).
    fn to_query(&self) -> Vec<(&'static str, String)>;
    /// The path below the base path, path parameters filled in and percent-encoded.
    fn path(&self) -> String;
    /// Parses and validates the parameters of a received request.
    fn from_raw(raw: &RawParams) -> Result<Self, ValidationError>;
}

/// A value of a strict value set that the spec does not list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownValue {
    /// The value set.
    pub set: &'static str,
    /// The text received.
    pub got: String,
    /// The values the set allows.
    pub expected: &'static [&'static str],
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a value of {}; expected one of {}",
            self.got,
            self.set,
            one_of(self.expected)
        )
    }
}

impl std::error::Error for UnknownValue {}

/// `` `a`, `b` or `c` ``.
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
    }

    #[test]
    fn shapes() {
        assert!(is_uuid("123e4567-e89b-12d3-a456-426614174000"));
        assert!(!is_uuid("123e4567e89b12d3a456426614174000"));
        assert!(is_hex16("00ff00ff00ff00ff"));
        assert!(!is_hex16("00ff00ff00ff00fg"));
        assert_eq!(percent_encode("a b/ü"), "a%20b%2F%C3%BC");
        assert_eq!(percent_decode("a+b%2Fc%zz"), "a b/c%zz");
    }

    #[test]
    fn repeated_and_missing() {
        let rules = ParamRules {
            required: "e.p.required",
            repeated: "e.p.repeated",
            ty: "e.p.type",
            values: "e.p.values",
        };
        let raw = RawParams::from_query_string("p=1&p=2&q=x");
        let mut issues = Vec::new();
        assert_eq!(raw.required::<i64>("p", &rules, &mut issues), None);
        assert_eq!(issues[0].rule, "e.p.repeated");
        let mut issues = Vec::new();
        assert_eq!(raw.required::<i64>("z", &rules, &mut issues), None);
        assert_eq!(issues[0].rule, "e.p.required");
        let raw = RawParams::from_query_string("p=99999999999999999999");
        let mut issues = Vec::new();
        assert_eq!(raw.optional::<i64>("p", &rules, &mut issues), None);
        assert_eq!(issues[0].rule, "e.p.type");
    }
}
