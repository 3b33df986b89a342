//! Reading the spec files: YAML text into [`crate::ast`] types, with positions.

use std::path::Path;

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
pub fn read_dir(dir: &Path) -> Result<Vec<(String, String)>, Diagnostics> {
    let prefix = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| dir.display().to_string());
    let mut paths = Vec::new();
    collect_yaml(dir, &mut paths).map_err(|e| {
        Diagnostics(vec![Diagnostic::global(format!(
            "cannot read the spec directory `{}`: {e}",
            dir.display()
        ))])
    })?;
    paths.sort();
    if paths.is_empty() {
        return Err(Diagnostics(vec![Diagnostic::global(format!(
            "the spec directory `{}` holds no .yaml file",
            dir.display()
        ))]));
    }
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        let rel = path.strip_prefix(dir).unwrap_or(&path);
        let name = format!("{prefix}/{}", rel.to_string_lossy().replace('\\', "/"));
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

fn collect_yaml(dir: &Path, out: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "generated") {
                collect_yaml(&path, out)?;
            }
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
    Ok(())
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
    let is_blank = text
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'));
    let ast = if is_blank {
        Some(SpecFile::default())
    } else {
        match serde_yaml::from_str::<SpecFile>(text) {
            Ok(ast) => Some(ast),
            Err(e) => {
                errors.push(yaml_error(name, &e));
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
fn yaml_error(name: &str, e: &serde_yaml::Error) -> Diagnostic {
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
