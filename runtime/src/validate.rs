//! Validation results, and the checks the generated parameter types run.
//!
//! A generated `check` function calls one [`Issues`] method per rule of the spec; each method
//! records a [`ValidationIssue`] naming the rule id, the parameter, the value received and the
//! reason when the rule is broken, and does nothing when the value is absent (absence is the
//! business of `required` and the presence rules).

use std::fmt;

use crate::text;

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

    /// The reason as the error object's `details` entry carries it: naming the rule id.
    pub fn detail_reason(&self) -> String {
        format!("{} [rule {}]", self.reason, self.rule)
    }

    /// A `details` entry's reason read back: what it says, and the rule id it names when it
    /// ends as [`detail_reason`](Self::detail_reason) ends it (`[rule <id>]`).
    #[cfg_attr(not(feature = "proxy"), allow(dead_code))]
    pub(crate) fn split_detail_reason(reason: &str) -> (&str, Option<&str>) {
        match reason
            .trim_end()
            .strip_suffix(']')
            .and_then(|r| r.rsplit_once(" [rule "))
        {
            Some((said, rule)) => (said, Some(rule.trim())),
            None => (reason, None),
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

    /// The message of the error object the service answers with: `2 invalid parameters`.
    pub fn message(&self) -> String {
        let n = self.issues.len();
        format!("{n} invalid parameter{}", if n == 1 { "" } else { "s" })
    }

    /// The error object the service answers with: code `INVALID_PARAMETER`, one `details`
    /// entry per issue.
    pub fn to_error_object<E: crate::ErrorBody>(&self) -> E {
        let mut object = E::from_kind(crate::ErrorKind::InvalidParameter, self.message());
        for issue in &self.issues {
            object.push_detail(
                issue.field.to_string(),
                issue.got.clone(),
                issue.detail_reason(),
            );
        }
        object
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

/// The issues found so far in one request, with one method per kind of check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Issues(Vec<ValidationIssue>);

impl Issues {
    /// No issue yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records an issue.
    pub fn push(&mut self, issue: ValidationIssue) {
        self.0.push(issue);
    }

    /// True when nothing is wrong so far.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The issues, in the order found.
    pub fn as_slice(&self) -> &[ValidationIssue] {
        &self.0
    }

    /// `Ok` when nothing is wrong.
    pub fn finish(self) -> Result<(), ValidationError> {
        ValidationError::check(self.0)
    }

    /// The error holding every issue (empty when nothing is wrong).
    pub fn into_error(self) -> ValidationError {
        ValidationError { issues: self.0 }
    }

    /// Drops the issues of presence rule `rule` when `given`: a parameter that was sent but
    /// did not parse counts as given, so its own issue is reported and the presence rule's
    /// is not.
    pub fn forgive(&mut self, rule: &str, given: bool) {
        if given {
            self.0.retain(|i| i.rule != rule);
        }
    }

    fn add(&mut self, rule: &'static str, field: &'static str, got: String, reason: String) {
        self.0.push(ValidationIssue {
            rule,
            field,
            got,
            reason,
        });
    }

    /// An integer within `min..=max` (either end may be open).
    pub fn range(
        &mut self,
        rule: &'static str,
        field: &'static str,
        value: Option<i64>,
        min: Option<i64>,
        max: Option<i64>,
    ) {
        if let Some(v) = value
            && !holds::in_range(v, min, max)
        {
            self.add(rule, field, v.to_string(), range_reason(min, max));
        }
    }

    /// A text matching `pattern`; `reason` says what the pattern means.
    #[cfg(feature = "patterns")]
    pub fn pattern(
        &mut self,
        rule: &'static str,
        field: &'static str,
        value: Option<&str>,
        pattern: &crate::Pattern,
        reason: &str,
    ) {
        if let Some(v) = value
            && !pattern.is_match(v)
        {
            self.add(rule, field, v.to_string(), reason.to_string());
        }
    }

    /// A text in `format`.
    pub fn format(
        &mut self,
        rule: &'static str,
        field: &'static str,
        value: Option<&str>,
        format: TextFormat,
    ) {
        if let Some(v) = value
            && !format.holds(v)
        {
            self.add(rule, field, v.to_string(), format.reason().to_string());
        }
    }

    /// A value its value set lists (`expected`): a tolerant set's `Unknown` value is not one.
    pub fn known<V: crate::ParamValue>(
        &mut self,
        rule: &'static str,
        field: &'static str,
        value: Option<&V>,
        expected: &[&str],
    ) {
        if let Some(v) = value
            && !v.is_known()
        {
            self.add(rule, field, v.to_param(), crate::values_reason(expected));
        }
    }

    /// `before` earlier than `after` (or the same instant, when `equal` allows it), when both
    /// are given. The issue names `after`.
    pub fn ordered<T: TimeValue>(
        &mut self,
        rule: &'static str,
        reason: &str,
        before: (&'static str, Option<T>),
        after: (&'static str, Option<T>),
        equal: Equal,
    ) {
        if let (Some(a), Some(b)) = (&before.1, &after.1)
            && let (Some(x), Some(y)) = (a.seconds(), b.seconds())
            && !holds::ordered(x, y, equal)
        {
            self.add(
                rule,
                after.0,
                b.to_string(),
                format!("{reason} ({} is {a})", before.0),
            );
        }
    }

    /// `to - from` at most `seconds`, when both are given. The issue names `to`.
    pub fn max_span<T: TimeValue>(
        &mut self,
        rule: &'static str,
        reason: &str,
        seconds: i64,
        from: (&'static str, Option<T>),
        to: (&'static str, Option<T>),
    ) {
        if let (Some(a), Some(b)) = (&from.1, &to.1)
            && let (Some(x), Some(y)) = (a.seconds(), b.seconds())
            && !holds::within_span(x, y, seconds)
        {
            self.add(
                rule,
                to.0,
                b.to_string(),
                format!("{reason} ({} is {a})", from.0),
            );
        }
    }

    /// When `value` is given, the parameter it needs is given too (`needed_given`).
    pub fn requires<V: fmt::Display>(
        &mut self,
        rule: &'static str,
        field: &'static str,
        reason: &str,
        value: Option<V>,
        needed_given: bool,
    ) {
        if let Some(v) = value
            && !holds::requires(true, needed_given)
        {
            self.add(rule, field, v.to_string(), reason.to_string());
        }
    }

    /// At least one of the parameters is given. The issue names `field`, the first of them.
    pub fn at_least_one(
        &mut self,
        rule: &'static str,
        field: &'static str,
        reason: &str,
        given: &[bool],
    ) {
        if !holds::at_least_one(given) {
            self.add(rule, field, String::new(), reason.to_string());
        }
    }

    /// When `value` is given, `allowed` says it is one of the values still allowed.
    pub fn allowed<V: fmt::Display>(
        &mut self,
        rule: &'static str,
        field: &'static str,
        reason: &str,
        value: Option<V>,
        allowed: impl FnOnce(&V) -> bool,
    ) {
        if let Some(v) = value
            && !allowed(&v)
        {
            self.add(rule, field, v.to_string(), reason.to_string());
        }
    }
}

/// Whether an order rule accepts two equal values: `ordered: { before, after }` does not (the
/// earlier strictly before the later), `ordered: { before, after, equal: allowed }` does (the
/// earlier not after the later).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Equal {
    /// Equal values break the rule.
    #[default]
    Refused,
    /// Equal values keep the rule.
    Allowed,
}

/// What each kind of check requires of values that are given: the one definition of the
/// rules' meaning, which the generated checks (through [`Issues`]) and the generator (judging
/// the spec's example requests before anything is generated) share.
pub mod holds {
    /// `value` within `min..=max` (either end may be open).
    pub fn in_range(value: i64, min: Option<i64>, max: Option<i64>) -> bool {
        min.is_none_or(|min| value >= min) && max.is_none_or(|max| value <= max)
    }

    /// The instant `before` (Unix seconds) earlier than `after`, or the same when `equal`
    /// allows it.
    pub fn ordered(before: i64, after: i64, equal: super::Equal) -> bool {
        match equal {
            super::Equal::Refused => before < after,
            super::Equal::Allowed => before <= after,
        }
    }

    /// From `from` to `to` (Unix seconds) at most `seconds`.
    pub fn within_span(from: i64, to: i64, seconds: i64) -> bool {
        i128::from(to) - i128::from(from) <= i128::from(seconds)
    }

    /// An input that is `given` has the one it needs (`needed_given`).
    pub fn requires(given: bool, needed_given: bool) -> bool {
        !given || needed_given
    }

    /// At least one of the inputs is given.
    pub fn at_least_one(given: &[bool]) -> bool {
        given.iter().any(|g| *g)
    }
}

/// The reason of a broken range: `must be between 1 and 500`.
pub fn range_reason(min: Option<i64>, max: Option<i64>) -> String {
    match (min, max) {
        (Some(a), Some(b)) => format!("must be between {a} and {b}"),
        (Some(a), None) => format!("must be at least {a}"),
        (None, Some(b)) => format!("must be at most {b}"),
        (None, None) => String::new(),
    }
}

/// The reason of a text that does not match a pattern: `must be an uppercase symbol (pattern
/// `^[A-Z]+$`)` when the spec says what the pattern means (`doc`), else `must match the
/// pattern `^[A-Z]+$``.
pub fn pattern_reason(source: &str, doc: Option<&str>) -> String {
    match doc {
        Some(d) => format!("must be {} (pattern `{source}`)", d.trim()),
        None => format!("must match the pattern `{source}`"),
    }
}

/// A point in time as a parameter carries it: Unix seconds (`i64`) or RFC 3339 text (`&str`).
pub trait TimeValue: fmt::Display {
    /// Unix seconds, or `None` when the text is not a time (its format check reports that).
    fn seconds(&self) -> Option<i64>;
}

impl TimeValue for i64 {
    fn seconds(&self) -> Option<i64> {
        Some(*self)
    }
}

impl TimeValue for &str {
    fn seconds(&self) -> Option<i64> {
        text::rfc3339_seconds(self)
    }
}

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
    fn a_detail_reason_reads_back_as_its_reason_and_rule() {
        let issue = ValidationIssue::new("bars.limit.range", "limit", "0", "must be at least 1");
        assert_eq!(
            ValidationIssue::split_detail_reason(&issue.detail_reason()),
            ("must be at least 1", Some("bars.limit.range"))
        );
        // Another server's reason, without the rule id.
        assert_eq!(
            ValidationIssue::split_detail_reason("too small [see docs]"),
            ("too small [see docs]", None)
        );
    }

    fn rules(issues: &Issues) -> Vec<(&str, &str, &str)> {
        issues
            .as_slice()
            .iter()
            .map(|i| (i.rule, i.field, i.got.as_str()))
            .collect()
    }

    #[test]
    fn absent_values_break_nothing() {
        let mut issues = Issues::new();
        issues.range("r", "f", None, Some(1), Some(2));
        issues.format("r", "f", None, TextFormat::Uuid);
        issues.ordered::<i64>("r", "x", ("a", None), ("b", Some(1)), Equal::Refused);
        issues.requires::<i64>("r", "f", "x", None, false);
        issues.allowed::<i64>("r", "f", "x", None, |_| false);
        assert!(issues.is_empty());
    }

    #[test]
    fn each_check_names_rule_field_and_value() {
        let mut issues = Issues::new();
        issues.range("e.limit.range", "limit", Some(0), Some(1), Some(500));
        issues.range("e.limit.range", "limit", Some(1), Some(1), Some(500));
        issues.format("e.id.format", "id", Some("xyz"), TextFormat::Hex16);
        issues.ordered(
            "e.order",
            "start before end",
            ("start", Some(5)),
            ("end", Some(5)),
            Equal::Refused,
        );
        issues.ordered(
            "e.order",
            "start before end",
            ("start", Some(4)),
            ("end", Some(5)),
            Equal::Refused,
        );
        // Not after: the same instant keeps it, a later one breaks it.
        issues.ordered(
            "e.not_after",
            "from not after to",
            ("from", Some(5)),
            ("to", Some(5)),
            Equal::Allowed,
        );
        issues.max_span(
            "e.span",
            "at most 10",
            10,
            ("from", Some("1970-01-01T00:00:00Z")),
            ("to", Some("1970-01-01T00:00:11Z")),
        );
        issues.max_span(
            "e.span",
            "at most 10",
            10,
            ("from", Some(0)),
            ("to", Some(10)),
        );
        issues.requires("e.req", "idx", "idx requires kind", Some(3), false);
        issues.at_least_one("e.one", "a", "a or b", &[false, false]);
        issues.ordered(
            "e.not_after",
            "from not after to",
            ("from", Some(6)),
            ("to", Some(5)),
            Equal::Allowed,
        );
        issues.allowed("e.allowed", "n", "odd only", Some(4), |n| n % 2 == 1);
        assert_eq!(
            rules(&issues),
            vec![
                ("e.limit.range", "limit", "0"),
                ("e.id.format", "id", "xyz"),
                ("e.order", "end", "5"),
                ("e.span", "to", "1970-01-01T00:00:11Z"),
                ("e.req", "idx", "3"),
                ("e.one", "a", ""),
                ("e.not_after", "to", "5"),
                ("e.allowed", "n", "4"),
            ]
        );
        assert_eq!(issues.as_slice()[0].reason, "must be between 1 and 500");
        assert_eq!(issues.as_slice()[2].reason, "start before end (start is 5)");
        let error = issues.into_error();
        assert!(error.breaks("e.span") && !error.breaks("e.limit"));
        assert_eq!(error.message(), "8 invalid parameters");
    }

    #[test]
    fn forgiving_drops_only_the_named_rule() {
        let mut issues = Issues::new();
        issues.at_least_one("e.one", "a", "a or b", &[false, false]);
        issues.range("e.limit.range", "limit", Some(0), Some(1), None);
        issues.forgive("e.one", false);
        assert_eq!(issues.as_slice().len(), 2);
        issues.forgive("e.one", true);
        assert_eq!(rules(&issues), vec![("e.limit.range", "limit", "0")]);
        assert_eq!(issues.as_slice()[0].reason, "must be at least 1");
    }

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
