//! The change history.

use mrds_runtime::text::is_date;

use super::Cx;
use crate::model::*;

impl Cx<'_> {
    pub(super) fn history(&mut self) -> Vec<HistoryEntry> {
        let mut out = Vec::new();
        for file in self.files {
            for (i, h) in file.ast.history.iter().enumerate() {
                let path = format!("history[{i}]");
                if !is_date(&h.date) {
                    self.err(
                        file,
                        &format!("{path}.date"),
                        format!("`{}` is not a date of the form YYYY-MM-DD", h.date),
                    );
                }
                if h.versions.is_empty() {
                    self.err(
                        file,
                        &format!("{path}.versions"),
                        "a history entry needs at least one version",
                    );
                }
                for (j, v) in h.versions.iter().enumerate() {
                    if !is_release_tag(v) {
                        let d = self.err(
                            file,
                            &format!("{path}.versions[{j}]"),
                            format!("`{v}` is not a release tag"),
                        );
                        Self::hint(d, "release tags look like `v0.10.43`");
                    }
                }
                for (j, c) in h.changes.iter().enumerate() {
                    if !c.path.starts_with("/v1/") {
                        self.err(
                            file,
                            &format!("{path}.changes[{j}].path"),
                            format!("history path `{}` does not start with `/v1/`", c.path),
                        );
                    }
                    if !c.method.chars().all(|ch| ch.is_ascii_uppercase()) || c.method.is_empty() {
                        self.err(
                            file,
                            &format!("{path}.changes[{j}].method"),
                            format!("`{}` is not an HTTP method in uppercase", c.method),
                        );
                    }
                }
                for (j, item) in h.breaking.iter().enumerate() {
                    let at = format!("{path}.breaking[{j}]");
                    if item.trim().is_empty() || item.trim() != item {
                        let d = self.err(
                            file,
                            &at,
                            format!("`{item}` does not name a change: it is empty or starts or ends with a space"),
                        );
                        Self::hint(
                            d,
                            "name a check id such as `param.added_required` or a subject such as `bars.venue`, as `cargo xtask spec-diff` prints them",
                        );
                    } else if h.breaking[..j].contains(item) {
                        self.err(file, &at, format!("`{item}` is listed twice in this entry"));
                    }
                }
                out.push(HistoryEntry {
                    at: file.at(&path),
                    date: h.date.clone(),
                    versions: h.versions.clone(),
                    changes: h
                        .changes
                        .iter()
                        .map(|c| Change {
                            action: c.action,
                            method: c.method.clone(),
                            path: c.path.clone(),
                        })
                        .collect(),
                    breaking: h.breaking.clone(),
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
