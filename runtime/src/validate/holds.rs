//! What each kind of check requires of values that are given: the one definition of the
//! rules' meaning, which the generated checks (through [`Issues`](crate::Issues)) and the
//! generator (judging the spec's example requests before anything is generated) share.

use super::Equal;

/// `value` within `min..=max` (either end may be open).
pub fn in_range(value: i64, min: Option<i64>, max: Option<i64>) -> bool {
    min.is_none_or(|min| value >= min) && max.is_none_or(|max| value <= max)
}

/// The instant `before` (Unix seconds) earlier than `after`, or the same when `equal`
/// allows it.
pub fn ordered(before: i64, after: i64, equal: Equal) -> bool {
    match equal {
        Equal::Refused => before < after,
        Equal::Allowed => before <= after,
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
