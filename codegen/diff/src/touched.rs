//! The hand-written code a change touches: for each breaking change (and each Rust name that
//! changes), the Rust names the generated crates gave what changed (a record's field, an
//! endpoint's method and parameter type, a value's variant), and every line of the workspace's
//! hand-written code (tests, examples, the docs' snippets, the downstream crate, benches, fuzz
//! targets) that uses one of them, with its file and line: what a maintainer mends before the
//! build finds it.
//!
//! A use is a line naming the item the way Rust code does (`.year30`, `with_limit(`,
//! `TreasuryRate {`, `ErrorCode::RateLimited`, `StockDividendsParams::new(`), in a file that
//! names the type holding it, so a common field name (`date`) is looked for only where its
//! record is used.

use std::path::{Path, PathBuf};

use mrds_spec::model::Api;

use crate::{ChangeKind, Changes, Finding};

/// A line of hand-written code a change touches.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Touch {
    /// The file, relative to the workspace root.
    pub file: String,
    /// The line, from 1.
    pub line: usize,
    /// The line's text, trimmed.
    pub text: String,
    /// The change's subject and check id (`TreasuryRate.year30 field.now_optional`).
    pub change: String,
}

/// What to look for: lines naming one of `uses`, in files naming `context` (or any file when
/// `context` is empty).
struct Needle {
    context: String,
    uses: Vec<String>,
}

/// Where hand-written code that uses the generated crates lives, relative to the workspace
/// root.
const PLACES: &[&str] = &[
    "tests",
    "bench",
    "fuzz/fuzz_targets",
    ".ci/downstream",
    "crates/mrds-client/examples",
    "docs",
    "README.md",
];

/// The lines of hand-written code below `root` that the breaking changes and Rust renames of
/// `changes` (from `old` to `new`) touch, sorted by file and line.
pub fn touched(root: &Path, changes: &Changes, old: &Api, new: &Api) -> Vec<Touch> {
    let needles: Vec<(&Finding, Needle)> = (changes.contract.iter())
        .filter(|f| f.is_breaking() || f.kind == ChangeKind::RustRenamed)
        .filter_map(|f| needle(f, old, new).map(|n| (f, n)))
        .collect();
    if needles.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for file in files(root) {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        // Generated files are mended by `cargo xtask codegen`.
        if text
            .lines()
            .next()
            .is_some_and(|l| l.contains("@generated"))
        {
            continue;
        }
        let name = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .to_string_lossy()
            .replace('\\', "/");
        for (finding, n) in &needles {
            if !n.context.is_empty() && !has_word(&text, &n.context) {
                continue;
            }
            for (i, line) in text.lines().enumerate() {
                if n.uses.iter().any(|u| uses(line, u)) {
                    out.push(Touch {
                        file: name.clone(),
                        line: i + 1,
                        text: line.trim().to_string(),
                        change: format!("{} {}", finding.subject, finding.kind.id()),
                    });
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The Rust names a finding's subject stands for, in the old model (what hand-written code
/// written against the old crates uses).
fn needle(f: &Finding, old: &Api, new: &Api) -> Option<Needle> {
    let (head, tail) = f.subject.split_once('.').unwrap_or((&f.subject, ""));
    // A record's field: `Record.field`.
    if let Some(r) = old.records.iter().find(|r| r.spec_name == head) {
        if tail.is_empty() {
            return Some(Needle {
                context: String::new(),
                uses: vec![r.name.clone()],
            });
        }
        let field = r.field_named(tail)?;
        let ident = field.ident.trim_start_matches("r#");
        return Some(Needle {
            context: r.name.clone(),
            uses: vec![
                format!(".{ident}"),
                format!("{ident}:"),
                format!("with_{ident}("),
            ],
        });
    }
    // An endpoint, or one of its parameters: `endpoint`, `endpoint.param`.
    if let Some(e) = old.endpoints.iter().find(|e| e.id == head) {
        let params = e.names.params_type.clone();
        if tail.is_empty() {
            return Some(Needle {
                context: String::new(),
                uses: vec![
                    format!(".{}(", e.names.method),
                    e.names.constant.clone(),
                    params,
                ],
            });
        }
        let p = e.param_named(tail)?;
        let ident = p.ident.trim_start_matches("r#");
        let mut uses = vec![format!(".{ident}"), format!("with_{ident}(")];
        // A parameter that is (or becomes) required changes what `new` takes.
        let required = |api: &Api| {
            (api.endpoint_named(head).and_then(|e| e.param_named(tail))).is_some_and(|p| p.required)
        };
        if required(old) || required(new) {
            uses.push(format!("{params}::new("));
        }
        return Some(Needle {
            context: params,
            uses,
        });
    }
    // A value of a value set, or an error code: `Set.VALUE`, `ErrorCode.CODE`.
    if head == "ErrorCode" {
        let c = old.error_codes.iter().find(|c| c.code == tail)?;
        return Some(Needle {
            context: String::new(),
            uses: vec![format!("ErrorCode::{}", c.variant)],
        });
    }
    let set = old.value_sets.iter().find(|s| s.spec_name == head)?;
    let uses = match set.values.iter().find(|v| v.wire == tail) {
        Some(v) => vec![format!("{}::{}", set.name, v.ident)],
        None if tail.is_empty() => vec![set.name.clone()],
        None => return None,
    };
    Some(Needle {
        context: String::new(),
        uses,
    })
}

/// Whether `line` uses `name`: it holds it, not as part of a longer identifier.
fn uses(line: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(at) = line[from..].find(name) {
        let start = from + at;
        let end = start + name.len();
        let before = line[..start].chars().next_back();
        let after = line[end..].chars().next();
        // A leading `.`, `::` or a trailing `(`, `:` ends the name itself.
        let open_start = name.starts_with(['.', ':']) || !before.is_some_and(ident);
        let open_end = name.ends_with(['(', ':', '.']) || !after.is_some_and(ident);
        if open_start && open_end {
            return true;
        }
        from = end;
    }
    false
}

fn has_word(text: &str, word: &str) -> bool {
    text.lines().any(|l| uses(l, word))
}

/// The files of [`PLACES`] below `root` holding Rust (`.rs`, and Markdown for its snippets).
fn files(root: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            if path.is_dir() {
                if !matches!(name.as_deref(), Some("target" | "snapshots" | "corpus")) {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs" || e == "md") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    for place in PLACES {
        let path = root.join(place);
        if path.is_file() {
            out.push(path);
        } else {
            walk(&path, &mut out);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::uses;

    #[test]
    fn a_use_is_the_name_not_part_of_another() {
        assert!(uses("    println!(\"{}\", r.year30);", ".year30"));
        assert!(!uses("    r.year300", ".year30"));
        assert!(uses("    year30: 4.6,", "year30:"));
        assert!(!uses("    my_year30: 4.6,", "year30:"));
        assert!(uses("x.with_limit(5)", "with_limit("));
        assert!(uses(
            "let e = ErrorCode::RateLimited;",
            "ErrorCode::RateLimited"
        ));
        assert!(!uses("ErrorCode::RateLimitedX", "ErrorCode::RateLimited"));
        assert!(uses("use mrds_model::TreasuryRate;", "TreasuryRate"));
        assert!(!uses("TreasuryRateInit", "TreasuryRate"));
    }
}
