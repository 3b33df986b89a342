//! The change history: the rows of every file, merged and sorted by date, newest first.
//!
//! Any file may hold `history:` rows, so no row's place in the merged history may depend on the
//! order the files are read in: entries are sorted by date (newest first). The rows of one
//! date, in however many files, are one entry: a release day's rows may be split over files
//! (a new endpoint's file and `service.yaml`, say), and the model holds its versions, changes
//! and breaking names together, in the order of the rows' places (file name, line), the
//! entry placed at the first of them. An endpoint is listed at most once per date, so the
//! newest row of an endpoint (what `spec-diff` compares the spec with) is always one row.

use std::collections::BTreeMap;

use mrds_runtime::text::is_date;

use super::Cx;
use crate::diag::{Diagnostic, Location};
use crate::model::{Change, HistoryEntry, Method};

impl Cx<'_> {
    pub(super) fn history(&mut self) -> Vec<HistoryEntry> {
        let mut out = Vec::new();
        // Every row of an endpoint on a date: (date, method, path) -> where.
        let mut listed: BTreeMap<(String, Method, String), Vec<Location>> = BTreeMap::new();
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
                    listed
                        .entry((h.date.to_string(), *c.method, c.path.to_string()))
                        .or_default()
                        .push(self.loc(c.at()));
                    if !c.path.starts_with("/v1/") {
                        self.err(
                            c.path.at(),
                            format!("history path `{}` does not start with `/v1/`", c.path),
                        );
                    }
                }
                if h.changes.is_empty() && h.breaking.is_empty() {
                    let d = self.err(h.at(), "a history entry lists no change");
                    Self::hint(
                        d,
                        "list the endpoints the release added or removed in `changes`, or the breaking changes it makes knowingly in `breaking`",
                    );
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
                            method: *c.method,
                            path: c.path.to_string(),
                        })
                        .collect(),
                    breaking: h.breaking.iter().map(|b| b.to_string()).collect(),
                });
            }
        }
        for ((date, method, path), mut places) in listed {
            places.sort();
            let first = places[0].clone();
            for again in &places[1..] {
                let d = Diagnostic::at(
                    again.clone(),
                    format!(
                        "`{method} {path}` is listed twice on {date} (also at {first}): the history cannot say which row is its newest"
                    ),
                );
                self.errors.push(d);
                let d = self.errors.last_mut().expect("just pushed");
                Self::hint(
                    d,
                    "list an endpoint once per date, as added or as removed (the entries of one date may be in several files, each endpoint in one of them)",
                );
            }
        }
        merge_dates(out)
    }
}

/// The rows of `rows` merged by date, newest first: the rows of one date (by place) are one
/// entry, at the first row's place, holding every version, change and breaking name once, in
/// the order of the rows.
fn merge_dates(mut rows: Vec<HistoryEntry>) -> Vec<HistoryEntry> {
    rows.sort_by(|a, b| b.date.cmp(&a.date).then_with(|| a.at.cmp(&b.at)));
    let mut out: Vec<HistoryEntry> = Vec::new();
    for row in rows {
        match out.last_mut() {
            Some(entry) if entry.date == row.date => {
                for v in row.versions {
                    if !entry.versions.contains(&v) {
                        entry.versions.push(v);
                    }
                }
                entry.changes.extend(row.changes);
                for b in row.breaking {
                    if !entry.breaking.contains(&b) {
                        entry.breaking.push(b);
                    }
                }
            }
            _ => out.push(row),
        }
    }
    out
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
