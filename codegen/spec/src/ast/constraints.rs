//! The constraints one value carries (`format`, `min`, `max`, `pattern`, `pattern_doc`),
//! written once for the fields of records and the request parameters: [`constrained!`] adds
//! them to both structs, [`Constraints`] reads them together, and one check
//! (`check::constraints`) judges them for both.

use super::{Format, Spanned};

/// The constraint keys of a field or a parameter, read together ([`super::Field::constraints`],
/// [`super::Param::constraints`]).
#[derive(Clone, Copy, Debug)]
pub struct Constraints<'a> {
    /// `format`.
    pub format: Option<&'a Spanned<Format>>,
    /// `min`.
    pub min: Option<&'a Spanned<i64>>,
    /// `max`.
    pub max: Option<&'a Spanned<i64>>,
    /// `pattern`.
    pub pattern: Option<&'a Spanned<String>>,
    /// `pattern_doc`.
    pub pattern_doc: Option<&'a Spanned<String>>,
}

impl Constraints<'_> {
    /// The bounds, as numbers.
    pub fn bounds(&self) -> (Option<i64>, Option<i64>) {
        (self.min.map(|m| **m), self.max.map(|m| **m))
    }

    /// Where the first of the checked constraints stands (a bound, a pattern or its
    /// explanation; `format` also documents values, so it is not one), if any is given.
    pub fn first_checked(&self) -> Option<crate::diag::Span> {
        let bounds = [self.min, self.max].map(|b| b.map(Spanned::at));
        let texts = [self.pattern, self.pattern_doc].map(|t| t.map(Spanned::at));
        bounds.into_iter().chain(texts).flatten().next()
    }
}

/// A struct of the spec whose value carries constraints: its own keys, then the keys of
/// [`Constraints`] with their docs (the JSON Schema's descriptions), and `constraints()`.
macro_rules! constrained {
    ($(#[$attr:meta])* pub struct $name:ident { $($own:tt)* }) => {
        $(#[$attr])*
        pub struct $name {
            $($own)*
            /// Format of the value (of each item, for a list): checked on a parameter and on
            /// a field of a request body (`unix_seconds` on an integer, a text format on a
            /// string); on a field of an answer it says what the value holds.
            #[serde(default)]
            #[schemars(with = "Option<FormatSpelling>")]
            pub format: Option<Spanned<Format>>,
            /// Smallest allowed integer: of an integer parameter, or of an integer field of a
            /// request body (on the records of answers an error: they are read as they come).
            #[serde(default)]
            pub min: Option<Spanned<i64>>,
            /// Largest allowed integer: of an integer parameter, or of an integer field of a
            /// request body.
            #[serde(default)]
            pub max: Option<Spanned<i64>>,
            /// Regular expression the text must match, anchored (`^...$`) to match the whole
            /// text: of a string parameter, or of a string field of a request body. It is
            /// compiled to an automaton when the crates are generated: one that has none within
            /// 64 KiB (a Unicode word boundary `\b`; a large counted repetition, especially of a
            /// Unicode class such as `\w{1,50}`) is an error at its line.
            #[serde(default)]
            pub pattern: Option<Spanned<String>>,
            /// What the pattern means, for error messages (`a six-letter currency pair`).
            #[serde(default)]
            pub pattern_doc: Option<Spanned<String>>,
        }

        impl $name {
            /// Its constraint keys, read together.
            pub fn constraints(&self) -> $crate::ast::Constraints<'_> {
                $crate::ast::Constraints {
                    format: self.format.as_ref(),
                    min: self.min.as_ref(),
                    max: self.max.as_ref(),
                    pattern: self.pattern.as_ref(),
                    pattern_doc: self.pattern_doc.as_ref(),
                }
            }
        }
    };
}

pub(crate) use constrained;
