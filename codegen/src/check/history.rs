//! The change history.

use mrds_runtime::text::is_date;

use super::Cx;
use crate::model::*;

impl Cx<'_> {
    pub(super) fn history(&mut self) -> Vec<HistoryEntry> {
        let mut out = Vec::new();
        for file in self.files {
            for h in &file.ast.history {
                if !is_date(&h.date) {
                    self.err(
                        h.date.at(),
                        format!("`{}` is not a date of the form YYYY-MM-DD", h.date),
                    );
                }
                if h.versions.is_empty() {
                    self.err(
                        h.versions.at(),
                        "a history entry needs at least one version",
                    );
                }
                for v in h.versions.iter() {
                    if !is_release_tag(v) {
                        let d = self.err(v.at(), format!("`{v}` is not a release tag"));
                        Self::hint(d, "release tags look like `v0.10.43`");
                    }
                }
                for c in &h.changes {
                    if !c.path.starts_with("/v1/") {
                        self.err(
                            c.path.at(),
                            format!("history path `{}` does not start with `/v1/`", c.path),
                        );
                    }
                    if !c.method.chars().all(|ch| ch.is_ascii_uppercase()) || c.method.is_empty() {
                        self.err(
                            c.method.at(),
                            format!("`{}` is not an HTTP method in uppercase", c.method),
                        );
                    }
                }
                for (j, item) in h.breaking.iter().enumerate() {
                    if item.trim().is_empty() || item.trim() != item.as_str() {
                        let d = self.err(
                            item.at(),
                            format!("`{item}` does not name a change: it is empty or starts or ends with a space"),
                        );
                        Self::hint(
                            d,
                            "name a check id such as `param.added_required` or a subject such as `bars.venue`, as `cargo xtask spec-diff` prints them",
                        );
                    } else if h.breaking[..j].contains(item) {
                        self.err(item.at(), format!("`{item}` is listed twice in this entry"));
                    }
                }
                out.push(HistoryEntry {
                    at: self.loc(h.at()),
                    date: h.date.to_string(),
                    versions: h.versions.iter().map(|v| v.to_string()).collect(),
                    changes: h
                        .changes
                        .iter()
                        .map(|c| Change {
                            action: c.action,
                            method: c.method.to_string(),
                            path: c.path.to_string(),
                        })
                        .collect(),
                    breaking: h.breaking.iter().map(|b| b.to_string()).collect(),
                });
            }
        }
        out
    }
}

/// `vMAJOR.MINOR.PATCH`.
fn is_release_tag(s: &str) -> bool {
    s.strip_prefix('v').is_some_and(|rest| {
        let parts: Vec<_> = rest.split('.').collect();
        parts.len() == 3
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn release_tags() {
        assert!(is_release_tag("v0.10.43"));
        assert!(!is_release_tag("0.10.43"));
        assert!(!is_release_tag("v0.10"));
    }
}
