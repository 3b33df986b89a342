//! Diagnostics: what is wrong with the spec, and where.

use std::fmt;

/// A place in a spec file. Lines and columns count from 1.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Location {
    /// The file, as given to the loader (relative to the spec directory's parent when possible).
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// One problem found in the spec.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    /// Where it is; `None` only for problems of the spec directory as a whole.
    pub location: Option<Location>,
    /// What is wrong.
    pub message: String,
    /// What probably fixes it.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// A diagnostic at `location`.
    pub fn at(location: Location, message: impl Into<String>) -> Self {
        Self {
            location: Some(location),
            message: message.into(),
            hint: None,
        }
    }

    /// A diagnostic of the spec as a whole.
    pub fn global(message: impl Into<String>) -> Self {
        Self {
            location: None,
            message: message.into(),
            hint: None,
        }
    }

    /// Adds a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Adds a "did you mean" hint when one of `candidates` is close to `got`.
    pub fn suggest<'a>(self, got: &str, candidates: impl IntoIterator<Item = &'a str>) -> Self {
        match closest(got, candidates) {
            Some(best) => self.with_hint(format!("did you mean `{best}`?")),
            None => self,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(loc) => write!(f, "{loc}: error: {}", self.message)?,
            None => write!(f, "error: {}", self.message)?,
        }
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

/// Every problem found, sorted by place, so the output never depends on the order of checks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Sorts by file, line, column and message, and drops exact repeats.
    pub fn normalize(&mut self) {
        self.0.sort();
        self.0.dedup();
    }

    /// True when nothing was found.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Number of problems.
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}")?;
        }
        let n = self.0.len();
        write!(
            f,
            "{n} error{} in the spec; nothing was generated",
            if n == 1 { "" } else { "s" }
        )
    }
}

impl std::error::Error for Diagnostics {}

/// The candidate closest to `got`, if it is close enough to be a likely typo.
pub fn closest<'a>(got: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let got_lower = got.to_lowercase();
    candidates
        .into_iter()
        .map(|c| {
            (
                strsim::damerau_levenshtein(&got_lower, &c.to_lowercase()),
                c,
            )
        })
        .filter(|(d, c)| *d <= (c.len().max(got.len()) / 3).max(1))
        .min()
        .map(|(_, c)| c)
}
