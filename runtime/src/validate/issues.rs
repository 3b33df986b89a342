//! The issues found so far in one request ([`Issues`]), with one method per kind of check:
//! the rule's meaning from [`holds`](super::holds), its reason from `reasons.rs`.

use std::borrow::Cow;
use std::fmt;

use super::holds;
use super::reasons::{COMMA_ITEM_REASON, items_reason, range_reason};
use super::{Equal, TimeValue, ValidationError, ValidationIssue};
use crate::format::TextFormat;

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
