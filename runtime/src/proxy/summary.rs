//! What the proxy did and saw, as the command line prints it when it stops.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

/// What the proxy did and saw: [`Proxy::summary`](super::Proxy::summary). Its `Display` is what the command line
/// prints when it stops.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Summary {
    /// Requests forwarded to the service.
    pub forwarded: u64,
    /// Of them, those that got no answer the proxy could pass on (answered 502 or 504).
    pub failed: u64,
    /// Answers passed on unchecked: coded (gzip, say) although the proxy asked for none.
    pub unchecked: u64,
    /// Findings by kind (`field.undeclared`): how many, and how many times they were seen.
    pub kinds: BTreeMap<&'static str, KindCount>,
    /// New findings not kept because the most were kept already.
    pub dropped: u64,
    /// The findings file, if there is one.
    pub file: Option<PathBuf>,
}

/// The findings of one kind in a [`Summary`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KindCount {
    /// Findings (things seen, each once per endpoint).
    pub findings: usize,
    /// Times they were seen (values, records or requests).
    pub seen: u64,
}

impl Summary {
    /// Every finding of every kind.
    pub fn findings(&self) -> usize {
        self.kinds.values().map(|k| k.findings).sum()
    }
}

impl fmt::Display for Summary {
    /// `12 requests forwarded (1 without an answer); 2 findings:`, a line per kind
    /// (`  field.undeclared: 1, seen 3 times`), and where they are written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |n: u64| if n == 1 { "" } else { "s" };
        write!(
            f,
            "{} request{} forwarded",
            self.forwarded,
            plural(self.forwarded)
        )?;
        if self.failed > 0 {
            write!(f, " ({} without an answer)", self.failed)?;
        }
        if self.unchecked > 0 {
            write!(
                f,
                ", {} answer{} coded and not checked",
                self.unchecked,
                plural(self.unchecked)
            )?;
        }
        let findings = self.findings() as u64;
        write!(f, "; {findings} finding{}", plural(findings))?;
        if findings == 0 {
            f.write_str(": the service behaved as the spec says")?;
        } else {
            f.write_str(":")?;
        }
        for (kind, count) in &self.kinds {
            write!(
                f,
                "\n  {kind}: {}, seen {} time{}",
                count.findings,
                count.seen,
                plural(count.seen)
            )?;
        }
        if self.dropped > 0 {
            write!(
                f,
                "\n  ({} more not kept: the most findings were kept already)",
                self.dropped
            )?;
        }
        if let Some(file) = &self.file {
            write!(f, "\nwritten to {}", file.display())?;
            if findings > 0 {
                write!(
                    f,
                    "; `cargo xtask drift {}` prints the spec edits they call for",
                    file.display()
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_counts_findings_by_kind() {
        let mut kinds = BTreeMap::new();
        kinds.insert(
            "field.undeclared",
            KindCount {
                findings: 2,
                seen: 40,
            },
        );
        kinds.insert(
            "rule.stricter",
            KindCount {
                findings: 1,
                seen: 1,
            },
        );
        let summary = Summary {
            forwarded: 12,
            failed: 1,
            unchecked: 0,
            kinds,
            dropped: 0,
            file: Some("drift.jsonl".into()),
        };
        assert_eq!(
            summary.to_string(),
            "12 requests forwarded (1 without an answer); 3 findings:\n  \
             field.undeclared: 2, seen 40 times\n  rule.stricter: 1, seen 1 time\n\
             written to drift.jsonl; `cargo xtask drift drift.jsonl` prints the spec edits they call for"
        );
        let none = Summary {
            forwarded: 1,
            failed: 0,
            unchecked: 0,
            kinds: BTreeMap::new(),
            dropped: 0,
            file: None,
        };
        assert_eq!(
            none.to_string(),
            "1 request forwarded; 0 findings: the service behaved as the spec says"
        );
    }
}
