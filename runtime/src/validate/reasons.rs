//! The reasons a broken rule gives, the same for the generated checks and the generator.

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
