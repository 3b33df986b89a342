//! Reading the spec files: YAML text into [`crate::ast`] types, with positions.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::ast::SpecFile;
use crate::diag::{Diagnostic, Diagnostics, Location, Span};
use crate::yaml;

/// One parsed spec file.
#[derive(Debug)]
pub struct LoadedFile {
    /// Its number in the load: the `file` of every [`Span`] in its content.
    pub id: u32,
    /// The name diagnostics use for it (e.g. `spec/records.yaml`).
    pub name: String,
    /// Its content, every node with its place.
    pub ast: SpecFile,
}

/// Reads every `*.yaml` file below `dir` (sorted by path; a `generated` folder and hidden
/// files and folders, such as an editor's `.#records.yaml` lock, are skipped).
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
        // Hidden entries are an editor's or a tool's, never spec files (an editor's lock file
        // is often a dangling symbolic link).
        paths.retain(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        });
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

/// Parses named YAML texts; file `i` of `sources` is file `i` of every [`Span`] in the result.
/// Reports every file's problems, not only the first file's.
pub fn parse_all(sources: &[(String, String)]) -> Result<Vec<LoadedFile>, Diagnostics> {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for (i, (name, text)) in sources.iter().enumerate() {
        let id = u32::try_from(i).unwrap_or(u32::MAX);
        match parse_one(id, name, text) {
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

pub(crate) fn parse_one(id: u32, name: &str, text: &str) -> Result<LoadedFile, Vec<Diagnostic>> {
    let loc = |span: Span| Location {
        file: name.to_owned(),
        line: span.line as usize,
        column: span.column as usize,
    };
    let root = match yaml::parse(id, text) {
        Ok(root) => root,
        Err(errors) => {
            return Err(errors
                .into_iter()
                .map(|e| {
                    let d = Diagnostic::at(loc(e.span), e.message);
                    match e.hint {
                        Some(h) => d.with_hint(h),
                        None => d,
                    }
                })
                .collect());
        }
    };
    let empty = |n: &yaml::Node| matches!(&n.kind, yaml::NodeKind::Scalar { text, plain: true } if text.is_empty());
    let ast = match root {
        // A file of comments only (or an empty document) holds no section.
        None => SpecFile::default(),
        Some(root) if empty(&root) => SpecFile::default(),
        Some(root) => yaml::from_node::<SpecFile>(&root).map_err(|e| {
            let at = e.span.unwrap_or(root.span);
            let message = e.to_string();
            let d = Diagnostic::at(loc(at), message.clone());
            vec![match unknown_and_expected(&message) {
                Some((got, expected)) => d.suggest(got, expected),
                None => d,
            }]
        })?,
    };
    Ok(LoadedFile {
        id,
        name: name.to_owned(),
        ast,
    })
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
