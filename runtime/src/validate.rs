//! Validation results, and the checks the generated parameter types run.
//!
//! A generated `check` function calls one [`Issues`] method per rule of the spec; each method
//! records a [`ValidationIssue`] naming the rule id, the parameter, the value received and the
//! reason when the rule is broken, and does nothing when the value is absent (absence is the
//! business of `required` and the presence rules).

use std::borrow::Cow;
use std::fmt;

use crate::format::TextFormat;
use crate::text;

/// One problem with a request: the parameter at fault, the value received, and the rule broken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationIssue {
    /// Stable id of the rule broken (`stock_dividends.limit.range`).
    pub rule: &'static str,
    /// The parameter at fault (wire name), with the item's index for an item of a list
    /// (`fields[2]`).
    pub field: Cow<'static, str>,
    /// The value received, as text; empty when the parameter was missing.
    pub got: String,
    /// What the rule requires.
    pub reason: String,
}

impl ValidationIssue {
    /// A new issue.
    pub fn new(
        rule: &'static str,
        field: impl Into<Cow<'static, str>>,
        got: impl Into<String>,
        reason: impl Into<String>,
    ) -> Self {
        Self {
            rule,
            field: field.into(),
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
        self.0.push(ValidationIssue::new(rule, field, got, reason));
    }

    /// The number of items of a list parameter: at least one when the list is required
    /// (`required`, its `required` rule), and within `min..=max` when it has some (`rule`, its
    /// `items` rule). No item is the list not given.
    pub fn items(
        &mut self,
        (required, rule): (Option<&'static str>, &'static str),
        field: &'static str,
        count: usize,
        min: Option<i64>,
        max: Option<i64>,
    ) {
        match required {
            Some(required) if count == 0 => {
                self.add(
                    required,
                    field,
                    String::new(),
                    "is required: give at least one item".to_string(),
                );
            }
            _ if count > 0 && !holds::in_range(count as i64, min, max) => {
                self.add(
                    rule,
                    field,
                    format!("{count} items"),
                    items_reason(min, max),
                );
            }
            _ => {}
        }
    }

    /// Runs `check` on every item of a list parameter `field`, each issue it records naming the
    /// item by its index (`fields[2]`).
    pub fn each<T>(
        &mut self,
        field: &'static str,
        items: &[T],
        mut check: impl FnMut(&mut Issues, &T),
    ) {
        for (i, item) in items.iter().enumerate() {
            let before = self.0.len();
            check(self, item);
            for issue in &mut self.0[before..] {
                issue.field = Cow::Owned(format!("{field}[{i}]"));
            }
        }
    }

    /// An item of a list that travels comma-separated (`fields=a,b`): not empty, and without a
    /// comma, which would separate it into two items (`rule` is the list's `type` rule). False
    /// when it is no item (an issue recorded): its own checks are not run on it, so an empty
    /// item is one problem, as the server reads it.
    pub fn comma_item(
        &mut self,
        rule: &'static str,
        field: &'static str,
        value: Option<&str>,
    ) -> bool {
        match value {
            Some(v) if !holds::comma_item(v) => {
                self.add(rule, field, v.to_string(), COMMA_ITEM_REASON.to_string());
                false
            }
            _ => true,
        }
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

    /// An item of a comma-separated list: not empty, and without a comma.
    pub fn comma_item(item: &str) -> bool {
        !item.is_empty() && !item.contains(',')
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

/// Why an item of a comma-separated list is refused.
pub const COMMA_ITEM_REASON: &str =
    "must not be empty or hold `,`: the items of this list are separated by commas";

/// The reason of a list with a number of items outside `min..=max`: `must have between 1 and 5
/// items`.
pub fn items_reason(min: Option<i64>, max: Option<i64>) -> String {
    match (min, max) {
        (Some(a), Some(b)) => format!("must have between {a} and {b} items"),
        (Some(a), None) => format!("must have at least {a} items"),
        (None, Some(b)) => format!("must have at most {b} items"),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_count_their_items_and_name_each_one() {
        let mut issues = Issues::new();
        issues.items(
            (Some("e.n.required"), "e.n.items"),
            "n",
            0,
            Some(2),
            Some(3),
        );
        issues.items((None, "e.n.items"), "n", 0, Some(2), Some(3));
        issues.items((None, "e.n.items"), "n", 4, Some(2), Some(3));
        issues.items((None, "e.n.items"), "n", 2, Some(2), Some(3));
        let found: Vec<(&str, &str, &str)> = (issues.as_slice().iter())
            .map(|i| (i.rule, i.got.as_str(), i.reason.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                ("e.n.required", "", "is required: give at least one item"),
                ("e.n.items", "4 items", "must have between 2 and 3 items"),
            ]
        );
        let mut issues = Issues::new();
        issues.each("n", &[5i64, 50, 7, 70], |issues, item| {
            issues.range("e.n.range", "n", Some(*item), None, Some(10));
        });
        // An empty item (or one holding a comma) is one issue: its own checks do not run.
        issues.each("s", &["a", "", "b,c"], |issues, item| {
            if issues.comma_item("e.s.type", "s", Some(item)) && *item != "a" {
                issues.add(
                    "e.s.pattern",
                    "s",
                    item.to_string(),
                    "must be `a`".to_string(),
                );
            }
        });
        let named: Vec<(&str, &str)> = (issues.as_slice().iter())
            .map(|i| (&*i.field, i.got.as_str()))
            .collect();
        assert_eq!(
            named,
            [
                ("n[1]", "50"),
                ("n[3]", "70"),
                ("s[1]", ""),
                ("s[2]", "b,c")
            ]
        );
    }

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
            .map(|i| (i.rule, &*i.field, i.got.as_str()))
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
}
