//! The texts a parameter (or a rule's condition) accepts, and whether one such language
//! includes another.
//!
//! Patterns are compared exactly, by their automata ([`Pattern::included_in`]), so a
//! difference comes with the shortest text that shows it. Integer ranges, booleans and value
//! sets are compared by their values; a format (`uuid`, `date`, ...) is compared by name, and a
//! question that comes down to what a format and a pattern have in common is answered "cannot
//! be decided" rather than guessed.

use mrds_spec::model::{Inclusion, Literal, Pattern, TextFormat, ValueType};

/// The texts a parameter of some type accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lang {
    /// What it is, for explanations (`integer 1..=100`).
    pub what: String,
    /// Text: every value matches this pattern (a match anywhere, as the runtime checks).
    pattern: Option<Pattern>,
    /// Integers: the value parses as an `i64` within these bounds.
    ints: Option<(i64, i64)>,
    /// Strings: the value is in this format.
    format: Option<TextFormat>,
    /// A finite language: exactly these values.
    finite: Option<Vec<String>>,
}

/// The regular expression of the texts `i64::from_str` reads.
const INTEGER_TEXT: &str = "^[+-]?[0-9]+$";

impl Lang {
    /// The texts a parameter of type `ty` accepts.
    pub fn of_param(ty: &ValueType) -> Lang {
        match ty {
            ValueType::Integer(t) => Lang {
                what: match (t.min, t.max) {
                    (None, None) => "integer".into(),
                    (min, max) => format!(
                        "integer {}..={}",
                        min.map_or(String::new(), |m| m.to_string()),
                        max.map_or(String::new(), |m| m.to_string())
                    ),
                },
                pattern: None,
                ints: Some((t.min.unwrap_or(i64::MIN), t.max.unwrap_or(i64::MAX))),
                format: None,
                finite: None,
            },
            ValueType::String(t) => Lang {
                what: match (&t.pattern, t.format) {
                    (None, None) => "string".into(),
                    (Some(p), None) => format!("string matching `{p}`"),
                    (None, Some(f)) => format!("string in format {}", f.name()),
                    (Some(p), Some(f)) => {
                        format!("string in format {} matching `{p}`", f.name())
                    }
                },
                pattern: t.pattern.clone(),
                ints: None,
                format: t.format,
                finite: None,
            },
            ValueType::Boolean => Lang::values("boolean", ["true", "false"]),
            ValueType::Enum(e) => Lang::values(&format!("value set {}", e.name), &e.values),
        }
    }

    /// Exactly `values`.
    pub fn values<S: AsRef<str>>(what: &str, values: impl IntoIterator<Item = S>) -> Lang {
        Lang {
            what: what.to_owned(),
            pattern: None,
            ints: None,
            format: None,
            finite: Some(values.into_iter().map(|v| v.as_ref().to_owned()).collect()),
        }
    }

    /// Exactly the wire spellings of `literals`.
    pub fn literals(what: &str, literals: &[Literal]) -> Lang {
        Lang::values(what, literals.iter().map(Literal::wire))
    }

    /// The texts matching `pattern`.
    pub fn pattern(pattern: &Pattern) -> Lang {
        Lang {
            what: format!("`{pattern}`"),
            pattern: Some(pattern.clone()),
            ints: None,
            format: None,
            finite: None,
        }
    }

    /// True when `text` is in the language.
    pub fn accepts(&self, text: &str) -> bool {
        if let Some(values) = &self.finite {
            return values.iter().any(|v| v == text);
        }
        let shaped = self.pattern.as_ref().is_none_or(|p| p.is_match(text));
        let in_range = self
            .ints
            .is_none_or(|(lo, hi)| text.parse::<i64>().is_ok_and(|n| lo <= n && n <= hi));
        let formatted = self.format.is_none_or(|f| f.holds(text));
        shaped && in_range && formatted
    }

    /// The pattern every text of the language matches, as far as the texts' shape goes
    /// (integers: their digits; a finite language: exactly its values); `None` for any text.
    fn shape(&self) -> Result<Option<Pattern>, Inclusion> {
        let compiled = |p: Result<Pattern, mrds_spec::model::PatternError>| {
            p.map(Some).map_err(|e| {
                Inclusion::Unknown(format!(
                    "{} cannot be compared as an automaton ({e})",
                    self.what
                ))
            })
        };
        match (&self.finite, self.ints) {
            (Some(values), _) => compiled(Pattern::exactly(values)),
            (None, Some(_)) => compiled(Pattern::compile(INTEGER_TEXT)),
            (None, None) => Ok(self.pattern.clone()),
        }
    }

    /// Whether every text of `self` is a text of `sup`.
    pub fn included_in(&self, sup: &Lang) -> Inclusion {
        if (&self.pattern, self.ints, self.format, &self.finite)
            == (&sup.pattern, sup.ints, sup.format, &sup.finite)
        {
            return Inclusion::Yes;
        }
        // A finite language: value by value.
        if let Some(values) = &self.finite {
            return match values.iter().find(|v| !sup.accepts(v)) {
                Some(v) => Inclusion::No(v.clone()),
                None => Inclusion::Yes,
            };
        }
        // Integers: by their bounds, or against a finite or textual language by candidates.
        if let Some((lo, hi)) = self.ints {
            if let Some((lo2, hi2)) = sup.ints {
                return if lo < lo2 {
                    Inclusion::No(lo2.saturating_sub(1).min(hi).to_string())
                } else if hi > hi2 {
                    Inclusion::No(hi2.saturating_add(1).max(lo).to_string())
                } else {
                    Inclusion::Yes
                };
            }
            if let Some(w) = int_candidates(lo, hi, sup).find(|w| !sup.accepts(w)) {
                return Inclusion::No(w);
            }
            if sup.ints.is_none() && sup.format.is_none() {
                let (digits, shape) = match (self.shape(), sup.shape()) {
                    (_, Ok(None)) => return Inclusion::Yes,
                    (Ok(Some(digits)), Ok(Some(shape))) => (digits, shape),
                    (Err(unknown), _) | (_, Err(unknown)) => return unknown,
                    (Ok(None), _) => unreachable!("integers have a shape"),
                };
                return match digits.included_in(&shape) {
                    Inclusion::Yes => Inclusion::Yes,
                    _ => Inclusion::Unknown(format!(
                        "whether every integer matches `{shape}` cannot be decided"
                    )),
                };
            }
            return Inclusion::Unknown(format!(
                "whether every {} is a {} cannot be decided",
                self.what, sup.what
            ));
        }
        // Text: the patterns decide, the formats must agree.
        let patterns = match (&self.pattern, sup.shape()) {
            (_, Err(unknown)) => unknown,
            (_, Ok(None)) => Inclusion::Yes,
            (Some(a), Ok(Some(b))) => a.included_in(&b),
            (None, Ok(Some(b))) => match Pattern::compile("") {
                Ok(any) => any.included_in(&b),
                Err(e) => Inclusion::Unknown(e.to_string()),
            },
        };
        match patterns {
            Inclusion::No(w) => {
                if self.accepts(&w) {
                    Inclusion::No(w)
                } else if let Some(v) = text_candidates(self).find(|v| !sup.accepts(v)) {
                    Inclusion::No(v)
                } else {
                    Inclusion::Unknown(format!(
                        "whether every {} is a {} cannot be decided: the shortest text that tells the patterns apart, {w:?}, is not a valid {}",
                        self.what,
                        sup.what,
                        self.format.map_or("value", TextFormat::name)
                    ))
                }
            }
            Inclusion::Unknown(why) => Inclusion::Unknown(why),
            Inclusion::Yes => {
                let formats_agree = sup.format.is_none() || sup.format == self.format;
                if formats_agree && sup.ints.is_none() && sup.finite.is_none() {
                    Inclusion::Yes
                } else if let Some(w) = text_candidates(self).find(|w| !sup.accepts(w)) {
                    Inclusion::No(w)
                } else {
                    Inclusion::Unknown(format!(
                        "whether every {} is a {} cannot be decided",
                        self.what, sup.what
                    ))
                }
            }
        }
    }
}

/// Integers of `lo..=hi` worth trying against `sup`: the bounds, small numbers, and enough
/// consecutive values to get past a finite language.
fn int_candidates(lo: i64, hi: i64, sup: &Lang) -> impl Iterator<Item = String> {
    let extra = sup.finite.as_ref().map_or(0, Vec::len) as i64 + 1;
    let mut out: Vec<i64> = vec![lo, hi, 0, 1, -1, 10, 100];
    out.extend((0..extra).map(|i| lo.saturating_add(i)));
    out.retain(|n| lo <= *n && *n <= hi);
    out.dedup();
    out.into_iter().map(|n| n.to_string())
}

/// Texts of `lang` worth trying: a letter, a digit, and the examples of every format.
fn text_candidates(lang: &Lang) -> impl Iterator<Item = String> + '_ {
    let examples = TextFormat::ALL.into_iter().flat_map(|f| f.info().examples);
    ["a", "0"]
        .into_iter()
        .chain(examples)
        .map(str::to_owned)
        .filter(|w| lang.accepts(w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mrds_spec::model::{IntegerType, StringType};

    fn text(pattern: Option<&str>, format: Option<TextFormat>) -> Lang {
        Lang::of_param(&ValueType::String(StringType {
            pattern: pattern.map(|p| Pattern::compile(p).unwrap()),
            pattern_doc: None,
            format,
        }))
    }

    fn int(min: Option<i64>, max: Option<i64>) -> Lang {
        Lang::of_param(&ValueType::Integer(IntegerType {
            min,
            max,
            format: None,
        }))
    }

    #[test]
    fn types_compare_by_their_values() {
        assert_eq!(
            int(Some(1), Some(100)).included_in(&int(Some(1), Some(10))),
            Inclusion::No("11".into())
        );
        assert_eq!(
            int(Some(1), Some(10)).included_in(&int(Some(0), None)),
            Inclusion::Yes
        );
        assert_eq!(
            int(None, None).included_in(&text(None, None)),
            Inclusion::Yes
        );
        assert!(matches!(
            text(None, None).included_in(&int(None, None)),
            Inclusion::No(_)
        ));
        let set = Lang::values("value set", ["a", "b"]);
        assert_eq!(
            set.included_in(&text(Some("^[a-z]$"), None)),
            Inclusion::Yes
        );
        assert_eq!(
            text(Some("^[a-c]$"), None).included_in(&set),
            Inclusion::No("c".into())
        );
        assert_eq!(
            text(None, Some(TextFormat::Date)).included_in(&text(None, None)),
            Inclusion::Yes
        );
        assert!(matches!(
            text(None, None).included_in(&text(None, Some(TextFormat::Uuid))),
            Inclusion::No(_)
        ));
        assert!(matches!(
            text(None, Some(TextFormat::Uuid)).included_in(&text(None, Some(TextFormat::Hex16))),
            Inclusion::No(_)
        ));
    }
}
