//! Reading the spec files: YAML text into [`crate::ast`] types, with positions.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::ast::SpecFile;
use crate::diag::{Diagnostic, Diagnostics, Location};
use crate::pos::PosIndex;

/// One parsed spec file.
#[derive(Debug)]
pub struct LoadedFile {
    /// The name diagnostics use for it (e.g. `spec/records.yaml`).
    pub name: String,
    /// Its content.
    pub ast: SpecFile,
    /// Where each of its nodes stands.
    pub pos: PosIndex,
}

impl LoadedFile {
    /// The location of the value at `path` in this file.
    pub fn at(&self, path: &str) -> Location {
        self.location(self.pos.value(path))
    }

    /// The location of the key naming `path` in this file.
    pub fn key_at(&self, path: &str) -> Location {
        self.location(self.pos.key(path))
    }

    fn location(&self, (line, column): (usize, usize)) -> Location {
        Location {
            file: self.name.clone(),
            line,
            column,
        }
    }
}

/// Reads every `*.yaml` file below `dir` (sorted by path; a `generated` folder is skipped).
/// File names in diagnostics start with the directory's own name (`spec/records.yaml`).
/// Symbolic links are followed, but a directory reached twice (a link loop) is reported once
/// and not read again; every error names the path it concerns.
pub fn read_dir(dir: &Path) -> Result<Vec<(String, String)>, Diagnostics> {
    let prefix = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| dir.display().to_string());
    let name_of = |path: &Path| {
        let rel = path.strip_prefix(dir).unwrap_or(path);
        format!("{prefix}/{}", rel.to_string_lossy().replace('\\', "/"))
    };
    let mut walk = Walk::default();
    walk.dir(dir, &name_of);
    let mut errors = walk.errors;
    let mut paths = walk.files;
    paths.sort();
    if paths.is_empty() && errors.is_empty() {
        return Err(Diagnostics(vec![Diagnostic::global(format!(
            "the spec directory `{}` holds no .yaml file",
            dir.display()
        ))]));
    }
    let mut out = Vec::new();
    for path in paths {
        let name = name_of(&path);
        match std::fs::read_to_string(&path) {
            Ok(text) => out.push((name, text)),
            Err(e) => errors.push(Diagnostic::global(format!("cannot read `{name}`: {e}"))),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(Diagnostics(errors))
    }
}

/// The `.yaml` files below a directory, and what could not be read.
#[derive(Default)]
struct Walk {
    files: Vec<PathBuf>,
    errors: Vec<Diagnostic>,
    /// Directories read so far, by canonical path.
    seen: BTreeSet<PathBuf>,
}

impl Walk {
    fn dir(&mut self, dir: &Path, name_of: &dyn Fn(&Path) -> String) {
        let what = |path: &Path| {
            let name = name_of(path);
            if name.ends_with('/') {
                format!("the spec directory `{}`", dir.display())
            } else {
                format!("`{name}`")
            }
        };
        match std::fs::canonicalize(dir) {
            Ok(real) => {
                if !self.seen.insert(real.clone()) {
                    self.errors.push(
                        Diagnostic::global(format!(
                            "{} leads back to a directory already read (a symbolic link loop); it is not read again",
                            what(dir)
                        ))
                        .with_hint(format!("remove the link, or point it outside `{}`", real.display())),
                    );
                    return;
                }
            }
            Err(e) => {
                self.errors.push(Diagnostic::global(format!(
                    "cannot read {}: {e}",
                    what(dir)
                )));
                return;
            }
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => {
                self.errors.push(Diagnostic::global(format!(
                    "cannot read {}: {e}",
                    what(dir)
                )));
                return;
            }
        };
        let mut paths = Vec::new();
        for entry in entries {
            match entry {
                Ok(entry) => paths.push(entry.path()),
                Err(e) => self.errors.push(Diagnostic::global(format!(
                    "cannot read {}: {e}",
                    what(dir)
                ))),
            }
        }
        paths.sort();
        for path in paths {
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "generated") {
                    self.dir(&path, name_of);
                }
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                self.files.push(path);
            }
        }
    }
}

/// Parses named YAML texts. Reports every file's problems, not only the first file's.
pub fn parse_all(sources: &[(String, String)]) -> Result<Vec<LoadedFile>, Diagnostics> {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for (name, text) in sources {
        match parse_one(name, text) {
            Ok(file) => files.push(file),
            Err(mut e) => errors.append(&mut e),
        }
    }
    if errors.is_empty() {
        Ok(files)
    } else {
        let mut d = Diagnostics(errors);
        d.normalize();
        Err(d)
    }
}

fn parse_one(name: &str, text: &str) -> Result<LoadedFile, Vec<Diagnostic>> {
    let loc = |line, column| Location {
        file: name.to_owned(),
        line,
        column,
    };
    let (pos, dups) = PosIndex::build(text);
    let mut errors: Vec<Diagnostic> = dups
        .into_iter()
        .map(|d| {
            Diagnostic::at(
                loc(d.at.0, d.at.1),
                format!("`{}` is defined twice in the same mapping", d.path),
            )
            .with_hint(format!(
                "the first definition is at line {}, column {}; remove or rename one",
                d.first.0, d.first.1
            ))
        })
        .collect();
    // serde_yaml does not apply merge keys: `<<` would be read as an ordinary (unknown) key.
    for (path, (line, column)) in pos.keys_named("<<") {
        errors.push(
            Diagnostic::at(
                loc(line, column),
                format!("`{path}`: merge keys (`<<:`) are not supported"),
            )
            .with_hint("write the keys out; an anchor (`&name`) and alias (`*name`) may still repeat a whole value"),
        );
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let is_blank = text
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'));
    let ast = if is_blank {
        Some(SpecFile::default())
    } else {
        match serde_yaml::from_str::<SpecFile>(text) {
            Ok(ast) => Some(ast),
            Err(e) => {
                errors.push(yaml_error(name, text, &e));
                None
            }
        }
    };
    match ast {
        Some(ast) if errors.is_empty() => Ok(LoadedFile {
            name: name.to_owned(),
            ast,
            pos,
        }),
        _ => Err(errors),
    }
}

/// Turns a serde_yaml error into a diagnostic: position split from the message, and a
/// "did you mean" hint for an unknown key or value.
fn yaml_error(name: &str, text: &str, e: &serde_yaml::Error) -> Diagnostic {
    let full = e.to_string();
    let (message, location) = match e.location() {
        Some(l) => {
            let suffix = format!(" at line {} column {}", l.line(), l.column());
            let msg = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
            (
                msg,
                Location {
                    file: name.to_owned(),
                    line: l.line(),
                    column: l.column(),
                },
            )
        }
        None => (
            full,
            Location {
                file: name.to_owned(),
                line: 1,
                column: 1,
            },
        ),
    };
    // A tab where YAML expects indentation or a token.
    let line_text = text
        .lines()
        .nth(location.line.saturating_sub(1))
        .unwrap_or_default();
    if line_text.chars().nth(location.column.saturating_sub(1)) == Some('\t') {
        return Diagnostic::at(
            location,
            "a tab character: YAML indents with spaces, never tabs",
        )
        .with_hint("replace the tab with spaces");
    }
    // serde_yaml puts the position in the middle of some messages too.
    let message = match message.split_once(&format!(
        " at line {} column {}",
        location.line, location.column
    )) {
        Some((head, tail)) => format!("{head}{tail}"),
        None => message,
    };
    let d = Diagnostic::at(location, message.clone());
    match unknown_and_expected(&message) {
        Some((got, expected)) => d.suggest(got, expected),
        None => d,
    }
}

/// From "unknown field `tpye`, expected one of `name`, `type`" takes `tpye` and the list.
fn unknown_and_expected(message: &str) -> Option<(&str, Vec<&str>)> {
    let start = message
        .find("unknown field `")
        .or_else(|| message.find("unknown variant `"))?;
    let rest = &message[start..];
    let got = rest.split('`').nth(1)?;
    let expected_at = rest.find("expected")?;
    let expected = rest[expected_at..]
        .split('`')
        .skip(1)
        .step_by(2)
        .collect::<Vec<_>>();
    Some((got, expected))
}
