//! The constraints one value carries (`ast::Constraints`: a range, a pattern and its
//! explanation), judged alike for a parameter and a field of a request body, and the patterns
//! compiled to the automata the generated code runs.

use super::Cx;
use crate::ast::Constraints;
use crate::diag::Span;
use crate::model::{Pattern, PatternError, ValueType};

impl Cx<'_> {
    /// The compiled pattern `re` (at `at`), anchored at both ends.
    pub(super) fn regex(&mut self, at: Span, re: &str) -> Option<Pattern> {
        let compiled = Pattern::compile(re);
        if let Err(PatternError::Syntax(problem)) = &compiled {
            self.err(at, format!("invalid regular expression `{re}`: {problem}"));
            return None;
        }
        if !re.starts_with('^') || !re.ends_with('$') {
            let d = self.err(at, format!("pattern `{re}` is not anchored"));
            Self::hint(
                d,
                "start it with `^` and end it with `$`, so it describes the whole value everywhere (Rust and OpenAPI alike)",
            );
            return None;
        }
        self.compiled(at, re, compiled)
    }

    /// The pattern `compiled` from `re` (at `at`), or the reason it has no automaton the
    /// generated code can run, reported at its spec line rather than when the crates are
    /// generated.
    pub(super) fn compiled(
        &mut self,
        at: Span,
        re: &str,
        compiled: Result<Pattern, PatternError>,
    ) -> Option<Pattern> {
        match compiled {
            Ok(p) => Some(p),
            Err(PatternError::Syntax(problem)) => {
                self.err(at, format!("invalid regular expression `{re}`: {problem}"));
                None
            }
            Err(PatternError::Unmatchable { reason, hint }) => {
                let d = self.err(
                    at,
                    format!("pattern `{re}` cannot be compiled to an automaton: {reason}"),
                );
                Self::hint(d, hint);
                None
            }
        }
    }

    /// The bounds and the pattern of `owner` (``parameter `x` ``, ``field `x` ``), `c`, put into
    /// the type they constrain, `ty` (`None`: the owner carries no checks; `kind` says what it is
    /// instead, ``is of type `boolean` ``), or reported where they stand: a range on anything
    /// but an integer, a min above its max, a pattern on anything but text, the explanation of
    /// no pattern.
    pub(super) fn constraints(
        &mut self,
        owner: &str,
        c: Constraints<'_>,
        mut ty: Option<&mut ValueType>,
        kind: &str,
    ) {
        let (min, max) = c.bounds();
        match ty.as_deref_mut() {
            Some(ValueType::Integer(t)) => (t.min, t.max) = (min, max),
            _ => {
                if let Some(bound) = c.min.or(c.max) {
                    self.err(
                        bound.at(),
                        format!("{owner} has a range but {kind}; ranges apply to integers"),
                    );
                }
            }
        }
        if let (Some(low), Some(min), Some(max)) = (c.min, min, max)
            && min > max
        {
            let d = self.err(
                low.at(),
                format!("{owner} has min {min} above its max {max}"),
            );
            Self::hint(d, "swap them, or correct one");
        }
        if let Some(re) = c.pattern {
            match ty {
                Some(ValueType::String(t)) => {
                    if let Some(pattern) = self.regex(re.at(), re) {
                        t.pattern = Some(pattern);
                        t.pattern_doc = c.pattern_doc.map(|d| d.to_string());
                    }
                }
                _ => {
                    self.err(
                        re.at(),
                        format!("{owner} has a pattern but {kind}; patterns apply to text"),
                    );
                }
            }
        }
        if let Some(doc) = c.pattern_doc
            && c.pattern.is_none()
        {
            self.err(
                doc.at(),
                format!("{owner} explains a pattern it does not have"),
            );
        }
    }
}
