//! Regular expressions of the spec, compiled on first use.

use std::fmt;
use std::sync::OnceLock;

/// An anchored regular expression from the spec, compiled the first time it is used. Made
/// with a `const fn`, so a generated `static` can hold it next to the check that uses it.
pub struct Pattern {
    source: &'static str,
    compiled: OnceLock<regex::Regex>,
}

impl Pattern {
    /// The pattern `source` (the generator has already compiled it once, so it is valid).
    pub const fn new(source: &'static str) -> Self {
        Self {
            source,
            compiled: OnceLock::new(),
        }
    }

    /// The regular expression as the spec writes it.
    pub fn as_str(&self) -> &'static str {
        self.source
    }

    /// True when `text` matches.
    pub fn is_match(&self, text: &str) -> bool {
        self.compiled
            .get_or_init(|| {
                regex::Regex::new(self.source).expect("the generator compiled this pattern")
            })
            .is_match(text)
    }
}

/// A `&'static` [`Pattern`] for a regular expression literal, held by a `static` scoped to
/// the expression, so no name leaks into the code around it:
/// `issues.pattern(rule, field, value, mrds_runtime::pattern!("^[A-Z]{6}$"), reason)`.
#[macro_export]
macro_rules! pattern {
    ($regex:literal) => {{
        static PATTERN: $crate::Pattern = $crate::Pattern::new($regex);
        &PATTERN
    }};
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Pattern").field(&self.source).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static SIX: Pattern = Pattern::new("^[A-Z]{6}$");

    #[test]
    fn matches_whole_values() {
        assert!(SIX.is_match("EURUSD"));
        assert!(!SIX.is_match("EURUSD1"));
        assert_eq!(SIX.as_str(), "^[A-Z]{6}$");
        assert_eq!(format!("{SIX:?}"), "Pattern(\"^[A-Z]{6}$\")");
        let first: &'static Pattern = crate::pattern!("^a+$");
        assert!(first.is_match("aaa") && !first.is_match("ab"));
    }
}
