//! The service as a whole: version, base path, the key header, the envelope's documentation,
//! error codes and the change history.

use super::ChangeKind;
use super::impact::*;
use super::{Diff, changed_parts, list};
use std::collections::BTreeSet;

use crate::model::{Api, HistoryEntry};

/// The major part of a version (`2` of `2.1`), when it has one.
pub fn major(version: &str) -> Option<u64> {
    version.trim().split('.').next()?.parse().ok()
}

impl Diff<'_> {
    pub(super) fn service(&mut self) {
        let (old, new) = (self.old, self.new);
        let (o, n) = (Some(&old.at), Some(&new.at));
        if old.api_version != new.api_version {
            let step = match (major(&old.api_version), major(&new.api_version)) {
                (Some(a), Some(b)) if b > a => "a major step",
                (Some(a), Some(b)) if b == a => "not a major step",
                (Some(_), Some(_)) => "a lower major version",
                _ => "no major version to compare",
            };
            self.push(
                ChangeKind::ServiceVersionChanged,
                "service",
                DOCS,
                format!(
                    "api_version `{}` became `{}` ({step})",
                    old.api_version, new.api_version
                ),
                (o, n),
            );
        }
        if old.base_path != new.base_path {
            self.push(ChangeKind::ServiceBasePathChanged, "service", BOTH_BREAK, format!(
                    "base path `{}` became `{}`: every request of an old client and every request to an old server misses",
                    old.base_path, new.base_path
                ), (o, n));
        }
        if let Some(parts) = changed_parts(&[
            ("title", old.title != new.title),
            ("doc", old.doc != new.doc),
        ]) {
            self.push(
                ChangeKind::ServiceDocChanged,
                "service",
                DOCS,
                format!("the service's {parts} changed"),
                (o, n),
            );
        }
        if old.envelope.doc != new.envelope.doc {
            self.push(
                ChangeKind::EnvelopeDocChanged,
                "envelope",
                DOCS,
                "the envelope's doc changed",
                (o, n),
            );
        }
        let (oa, na) = (&old.auth, &new.auth);
        if oa.header != na.header {
            self.push(ChangeKind::AuthHeaderChanged, "auth", BOTH_BREAK, format!(
                    "the key travels in `{}` instead of `{}`: old clients send it where new servers do not look, new clients where old servers do not",
                    na.header, oa.header
                ), (Some(&oa.at), Some(&na.at)));
        }
        if let Some(parts) = changed_parts(&[
            ("doc", oa.doc != na.doc),
            ("provenance", oa.provenance != na.provenance),
        ]) {
            self.push(
                ChangeKind::AuthDocChanged,
                "auth",
                DOCS,
                format!("the key header's {parts} changed"),
                (Some(&oa.at), Some(&na.at)),
            );
        }
        self.fields(
            "envelope",
            &old.envelope.fields,
            &new.envelope.fields,
            Some(&old.at),
            Some(&new.at),
        );
    }

    pub(super) fn error_codes(&mut self) {
        let (old, new) = (self.old, self.new);
        for o in &old.error_codes {
            let subject = format!("ErrorCode.{}", o.code);
            let Some(n) = new.error_codes.iter().find(|n| n.code == o.code) else {
                self.push(ChangeKind::ErrorCodeRemoved, subject, COMPATIBLE, format!(
                        "error code `{}` is gone: new servers never answer it; new clients decode it from old servers as an unknown code",
                        o.code
                    ), (Some(&o.at), None));
                continue;
            };
            if o.status != n.status {
                self.push(ChangeKind::ErrorCodeStatusChanged, subject.clone(), BOTH_BREAK, format!(
                        "`{}` is answered with HTTP {} instead of {}: each side sees a status the other did not promise",
                        o.code, n.status, o.status
                    ), (Some(&o.at), Some(&n.at)));
            }
            if let Some(parts) = changed_parts(&[
                ("doc", o.doc != n.doc),
                ("provenance", o.provenance != n.provenance),
            ]) {
                self.push(
                    ChangeKind::ErrorCodeDocChanged,
                    &subject,
                    DOCS,
                    format!("the {parts} of error code `{}` changed", o.code),
                    (Some(&o.at), Some(&n.at)),
                );
            }
            self.rust_renamed(
                &subject,
                (&o.variant, &n.variant),
                (Some(&o.at), Some(&n.at)),
            );
        }
        for n in &new.error_codes {
            if !old.error_codes.iter().any(|o| o.code == n.code) {
                self.push(ChangeKind::ErrorCodeAdded, format!("ErrorCode.{}", n.code), COMPATIBLE, format!(
                        "new error code `{}` (HTTP {}): old clients decode it as an unknown code; old servers never answer it",
                        n.code, n.status
                    ), (None, Some(&n.at)));
            }
        }
    }

    /// The history compared date by date: the entries of one date (there may be several, in
    /// several files) that say the same on both sides are unchanged; the others are paired in
    /// the order of the model (by what they say) as changed, and the rest are gone or new.
    pub(super) fn history(&mut self) {
        let (old, new) = (self.old, self.new);
        let dates: BTreeSet<&str> = (old.history.iter().chain(&new.history))
            .map(|h| h.date.as_str())
            .collect();
        for date in dates {
            let (mut olds, mut news) = (entries_of(old, date), entries_of(new, date));
            olds.retain(|o| match news.iter().position(|n| same_entry(o, n)) {
                Some(i) => {
                    news.remove(i);
                    false
                }
                None => true,
            });
            let subject = format!("history.{date}");
            let paired = olds.len().min(news.len());
            for (o, n) in olds.iter().zip(&news) {
                self.push(
                    ChangeKind::HistoryEntryChanged,
                    &subject,
                    DOCS,
                    format!("the history row of {date} changed: {}", describe(n)),
                    (Some(&o.at), Some(&n.at)),
                );
            }
            for o in &olds[paired..] {
                self.push(
                    ChangeKind::HistoryEntryRemoved,
                    &subject,
                    DOCS,
                    format!(
                        "the history row of {date} ({}) is gone",
                        o.versions.join(", ")
                    ),
                    (Some(&o.at), None),
                );
            }
            for n in &news[paired..] {
                self.push(
                    ChangeKind::HistoryEntryAdded,
                    &subject,
                    DOCS,
                    format!("new history row: {}", describe(n)),
                    (None, Some(&n.at)),
                );
            }
        }
    }
}

/// The entries of `date`, in the model's order.
fn entries_of<'a>(api: &'a Api, date: &str) -> Vec<&'a HistoryEntry> {
    api.history.iter().filter(|h| h.date == date).collect()
}

fn same_entry(a: &HistoryEntry, b: &HistoryEntry) -> bool {
    a.content() == b.content()
}

/// `2026-09-10 v0.11.0: added GET /v1/x; breaking: bars.venue`.
fn describe(h: &HistoryEntry) -> String {
    let mut parts = vec![format!("{} {}", h.date, h.versions.join(", "))];
    for c in &h.changes {
        let action = match c.action {
            crate::model::ChangeAction::Added => "added",
            crate::model::ChangeAction::Removed => "removed",
        };
        parts.push(format!("{action} `{} {}`", c.method, c.path));
    }
    if !h.breaking.is_empty() {
        parts.push(format!("breaking {}", list(&h.breaking)));
    }
    parts.join("; ")
}
