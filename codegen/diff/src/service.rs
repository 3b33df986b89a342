//! The service as a whole: version, base path, the key header, the envelope's documentation,
//! error codes and the change history.

use super::checks::kind;
use super::{Diff, Places, Sides, changed_parts, list};
use std::collections::BTreeSet;

use mrds_spec::model::{Api, HistoryEntry};

/// The major part of a version (`2` of `2.1`), when it has one.
pub fn major(version: &str) -> Option<u64> {
    version.trim().split('.').next()?.parse().ok()
}

impl Diff<'_> {
    pub(super) fn service(&mut self) {
        let (old, new) = (self.old, self.new);
        let at = Places {
            old: Some(&old.at),
            new: Some(&new.at),
        };
        if old.api_version != new.api_version {
            let step = match (major(&old.api_version), major(&new.api_version)) {
                (Some(a), Some(b)) if b > a => "a major step",
                (Some(a), Some(b)) if b == a => "not a major step",
                (Some(_), Some(_)) => "a lower major version",
                _ => "no major version to compare",
            };
            self.push(
                kind::ServiceVersionChanged,
                "service",
                format!(
                    "api_version `{}` became `{}` ({step})",
                    old.api_version, new.api_version
                ),
                at,
            );
        }
        if old.base_path != new.base_path {
            self.push(kind::ServiceBasePathChanged, "service", format!(
                    "base path `{}` became `{}`: every request of an old client and every request to an old server misses",
                    old.base_path, new.base_path
                ), at);
        }
        if let Some(parts) = changed_parts(&[
            ("title", old.title != new.title),
            ("doc", old.doc != new.doc),
        ]) {
            self.push(
                kind::ServiceDocChanged,
                "service",
                format!("the service's {parts} changed"),
                at,
            );
        }
        if old.envelope.doc != new.envelope.doc {
            self.push(
                kind::EnvelopeDocChanged,
                "envelope",
                "the envelope's doc changed",
                at,
            );
        }
        let (oa, na) = (&old.auth, &new.auth);
        let auth_at = Places {
            old: Some(&oa.at),
            new: Some(&na.at),
        };
        if oa.header != na.header {
            self.push(kind::AuthHeaderChanged, "auth", format!(
                    "the key travels in `{}` instead of `{}`: old clients send it where new servers do not look, new clients where old servers do not",
                    na.header, oa.header
                ), auth_at);
        }
        if let Some(parts) = changed_parts(&[
            ("doc", oa.doc != na.doc),
            ("provenance", oa.provenance != na.provenance),
        ]) {
            self.push(
                kind::AuthDocChanged,
                "auth",
                format!("the key header's {parts} changed"),
                auth_at,
            );
        }
        self.fields(
            "envelope",
            Sides {
                old: &old.envelope.fields,
                new: &new.envelope.fields,
            },
            at,
        );
    }

    pub(super) fn error_codes(&mut self) {
        let (old, new) = (self.old, self.new);
        for o in &old.error_codes {
            let subject = format!("ErrorCode.{}", o.code);
            let Some(n) = new.error_codes.iter().find(|n| n.code == o.code) else {
                self.push(kind::ErrorCodeRemoved, subject, format!(
                        "error code `{}` is gone: new servers never answer it; new clients decode it from old servers as an unknown code",
                        o.code
                    ), Places { old: Some(&o.at), new: None });
                continue;
            };
            let at = Places {
                old: Some(&o.at),
                new: Some(&n.at),
            };
            if o.status != n.status {
                self.push(kind::ErrorCodeStatusChanged, subject.clone(), format!(
                        "`{}` is answered with HTTP {} instead of {}: each side sees a status the other did not promise",
                        o.code, n.status, o.status
                    ), at);
            }
            if let Some(parts) = changed_parts(&[
                ("doc", o.doc != n.doc),
                ("provenance", o.provenance != n.provenance),
            ]) {
                self.push(
                    kind::ErrorCodeDocChanged,
                    &subject,
                    format!("the {parts} of error code `{}` changed", o.code),
                    at,
                );
            }
            self.rust_renamed(
                &subject,
                Sides {
                    old: &o.variant,
                    new: &n.variant,
                },
                at,
            );
        }
        // The code answering each status both sides have.
        for n in new.error_codes.iter().filter(|c| c.answers_status) {
            let Some(o) =
                (old.error_codes.iter()).find(|o| o.answers_status && o.status == n.status)
            else {
                continue;
            };
            if o.code != n.code {
                self.push(kind::ErrorCodeAnswerChanged, format!("ErrorCode.{}", o.code), format!(
                        "HTTP {} is answered with `{}` instead of `{}` (a `Prefer: code={}`, a scenario of the status): a client matching `{}` meets the other; mark `{}` `default: true` to keep it",
                        n.status, n.code, o.code, n.status, o.code, o.code
                    ), Places { old: Some(&o.at), new: Some(&n.at) });
            }
        }
        for n in &new.error_codes {
            if !old.error_codes.iter().any(|o| o.code == n.code) {
                self.push(kind::ErrorCodeAdded, format!("ErrorCode.{}", n.code), format!(
                        "new error code `{}` (HTTP {}): old clients decode it as an unknown code; old servers never answer it",
                        n.code, n.status
                    ), Places { old: None, new: Some(&n.at) });
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
                    kind::HistoryEntryChanged,
                    &subject,
                    format!("the history row of {date} changed: {}", describe(n)),
                    Places {
                        old: Some(&o.at),
                        new: Some(&n.at),
                    },
                );
            }
            for o in &olds[paired..] {
                self.push(
                    kind::HistoryEntryRemoved,
                    &subject,
                    format!(
                        "the history row of {date} ({}) is gone",
                        o.versions.join(", ")
                    ),
                    Places {
                        old: Some(&o.at),
                        new: None,
                    },
                );
            }
            for n in &news[paired..] {
                self.push(
                    kind::HistoryEntryAdded,
                    &subject,
                    format!("new history row: {}", describe(n)),
                    Places {
                        old: None,
                        new: Some(&n.at),
                    },
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
            mrds_spec::model::ChangeAction::Added => "added",
            mrds_spec::model::ChangeAction::Removed => "removed",
        };
        parts.push(format!("{action} `{} {}`", c.method, c.path));
    }
    if !h.breaking.is_empty() {
        parts.push(format!("breaking {}", list(&h.breaking)));
    }
    parts.join("; ")
}
