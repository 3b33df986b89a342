//! Overlays: the steps that make a test spec from a small base spec by naming only what
//! differs (the broken-spec corpus `tests/broken/` and the spec-diff corpus `tests/diff/`).
//!
//! A step names the file it changes, relative to the base:
//!
//! - `edit: FILE` with `find: TEXT` and `replace: TEXT` replaces the one occurrence of `find` in
//!   the file as the earlier steps left it; a `find` that occurs nowhere or several times
//!   (overlapping occurrences included) is an error;
//! - `add: FILE` with `text: TEXT` adds a file the base does not have;
//! - `rewrite: FILE` with `text: TEXT` gives a file of the base a new content;
//! - `remove: FILE` leaves a file of the base out.
//!
//! Steps are read with serde; an unknown key, or a step with keys its kind does not take, is an
//! error naming the step.

use std::collections::{BTreeMap, BTreeSet};

/// One step as written: exactly one of the kinds, with the keys that kind takes.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStep {
    edit: Option<String>,
    add: Option<String>,
    rewrite: Option<String>,
    remove: Option<String>,
    find: Option<String>,
    replace: Option<String>,
    text: Option<String>,
}

/// One step, checked.
#[derive(Debug)]
pub enum Step {
    /// Replace the one occurrence of `find` by `replace`.
    Edit {
        file: String,
        find: String,
        replace: String,
    },
    /// A file the base does not have.
    Add { file: String, text: String },
    /// A file of the base with a new content.
    Rewrite { file: String, text: String },
    /// A file of the base left out.
    Remove { file: String },
}

impl Step {
    /// Replaces the one occurrence of `find` in `file`.
    pub fn edit(
        file: impl Into<String>,
        find: impl Into<String>,
        replace: impl Into<String>,
    ) -> Self {
        Step::Edit {
            file: file.into(),
            find: find.into(),
            replace: replace.into(),
        }
    }

    /// Adds `file`, holding `text`.
    pub fn add(file: impl Into<String>, text: impl Into<String>) -> Self {
        Step::Add {
            file: file.into(),
            text: text.into(),
        }
    }

    /// The file the step changes.
    pub fn file(&self) -> &str {
        match self {
            Step::Edit { file, .. }
            | Step::Add { file, .. }
            | Step::Rewrite { file, .. }
            | Step::Remove { file } => file,
        }
    }
}

/// The steps `raw`, checked; an error names the step (numbered from 1).
pub fn parse_steps(raw: Vec<RawStep>) -> Result<Vec<Step>, String> {
    raw.into_iter()
        .enumerate()
        .map(|(n, step)| parse_step(n + 1, step))
        .collect()
}

/// The step `raw`, the `n`th of its list.
fn parse_step(n: usize, raw: RawStep) -> Result<Step, String> {
    let RawStep {
        edit,
        add,
        rewrite,
        remove,
        find,
        replace,
        text,
    } = raw;
    let kinds = [&edit, &add, &rewrite, &remove];
    if kinds.iter().filter(|k| k.is_some()).count() != 1 {
        return Err(format!(
            "step {n}: a step has exactly one of the keys `edit`, `add`, `rewrite` or `remove`"
        ));
    }
    let file = kinds
        .into_iter()
        .flatten()
        .next()
        .expect("one kind")
        .clone();
    let valid = file.ends_with(".yaml")
        && file
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != "..");
    if !valid {
        return Err(format!(
            "step {n}: `{file}` is not the relative path of a `.yaml` file"
        ));
    }
    let step = match (edit, add, rewrite, find, replace, text) {
        (Some(_), None, None, Some(find), Some(replace), None) if !find.is_empty() => Step::Edit {
            file,
            find,
            replace,
        },
        (None, Some(_), None, None, None, Some(text)) => Step::Add { file, text },
        (None, None, Some(_), None, None, Some(text)) => Step::Rewrite { file, text },
        (None, None, None, None, None, None) => Step::Remove { file },
        _ => {
            return Err(format!(
                "step {n}: `edit` takes a non-empty `find` and a `replace`, `add` and `rewrite` take `text`, `remove` nothing else"
            ));
        }
    };
    Ok(step)
}

/// How many times `find` occurs in `text`, overlapping occurrences included.
fn occurrences(text: &str, find: &str) -> usize {
    (0..text.len())
        .filter(|&i| text.is_char_boundary(i) && text[i..].starts_with(find))
        .count()
}

/// Applies `steps` to `files` (by name, with their text) in order; returns the names of the
/// files the steps wrote (edited, added or rewritten) and did not remove afterwards.
pub fn apply(
    files: &mut BTreeMap<String, String>,
    steps: &[Step],
) -> Result<BTreeSet<String>, String> {
    let mut written = BTreeSet::new();
    for (n, step) in steps.iter().enumerate() {
        let n = n + 1;
        let file = step.file();
        let missing = || format!("step {n}: the case has no file `{file}`");
        match step {
            Step::Edit { find, replace, .. } => {
                let text = files.get_mut(file).ok_or_else(missing)?;
                let count = occurrences(text, find);
                if count != 1 {
                    return Err(format!(
                        "step {n}: the `find` text occurs {count} times in {file}, not once: {find:?}"
                    ));
                }
                *text = text.replacen(find.as_str(), replace, 1);
            }
            Step::Add { text, .. } => {
                if files.insert(file.to_owned(), text.clone()).is_some() {
                    return Err(format!(
                        "step {n}: `{file}` is a file of the base; `rewrite` it"
                    ));
                }
            }
            Step::Rewrite { text, .. } => *files.get_mut(file).ok_or_else(missing)? = text.clone(),
            Step::Remove { .. } => {
                files.remove(file).ok_or_else(missing)?;
                written.remove(file);
                continue;
            }
        }
        written.insert(file.to_owned());
    }
    Ok(written)
}
