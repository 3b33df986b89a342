//! Validation results, and the checks the generated parameter types run.
//!
//! A generated `check` function calls one [`Issues`] method per rule of the spec; each method
//! records a [`ValidationIssue`] naming the rule id, the parameter, the value received and the
//! reason when the rule is broken, and does nothing when the value is absent (absence is the
//! business of `required` and the presence rules).
//!
//! The results (an issue, the error of a request) and the vocabulary of the checks are here;
//! the checks in `issues.rs`, what each requires in `holds.rs`, the reasons they give in
//! `reasons.rs`.

use std::borrow::Cow;
use std::fmt;

use crate::text;

pub mod holds;
mod issues;
mod reasons;

pub use issues::Issues;
pub use reasons::{COMMA_ITEM_REASON, items_reason, pattern_reason, range_reason};

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
}
