//! Diagnostics: what is wrong with the spec, and where.

use std::fmt;

/// A place in one of the loaded spec files: the file's number in the load, and a line and
/// column from 1. Small and `Copy`, so every node of the spec carries one; [`Location`] names
/// the file for a diagnostic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    /// The file's number, in the order the files were loaded.
    pub file: u32,
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub column: u32,
}

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

/// `` `a`, `b` and `c` ``: names for a message, each in backticks (`nothing` for none).
pub fn list<S: AsRef<str>>(items: &[S]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("`{}`", i.as_ref())).collect();
    match quoted.len() {
        0 => "nothing".into(),
        1 => quoted[0].clone(),
        n => format!("{} and {}", quoted[..n - 1].join(", "), quoted[n - 1]),
    }
}

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
