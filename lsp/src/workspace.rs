//! The spec's files as the editor sees them: the files on disk, with the unsaved buffers laid
//! over them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lsp_types::Uri;

use crate::text;

/// The files of one spec directory, by the name the loader gives them (`spec/records.yaml`).
#[derive(Debug)]
pub struct Workspace {
    /// The spec directory.
    dir: PathBuf,
    /// The first part of every name: the directory's own name (`spec`).
    prefix: String,
    /// The files on disk.
    disk: BTreeMap<String, String>,
    /// The open buffers, with their version.
    open: BTreeMap<String, (i32, String)>,
    /// Bumped on every change: the analysis of a generation is the analysis of its files.
    generation: u64,
}

impl Workspace {
    /// The spec directory `dir`, its files read from disk (a file that cannot be read is
    /// left out: the loader reports what it finds).
    pub fn new(dir: &Path) -> Self {
        let prefix = dir
            .file_name()
            .map_or_else(|| "spec".to_owned(), |n| n.to_string_lossy().into_owned());
        let mut w = Workspace {
            dir: dir.to_path_buf(),
            prefix,
            disk: BTreeMap::new(),
            open: BTreeMap::new(),
            generation: 0,
        };
        w.reload();
        w
    }

    /// A workspace of texts alone, as if they were the files of `dir` (tests, the bench).
    pub fn from_sources(dir: &Path, sources: Vec<(String, String)>) -> Self {
        let mut w = Workspace::new_empty(dir);
        w.disk = sources.into_iter().collect();
        w
    }

    fn new_empty(dir: &Path) -> Self {
        Workspace {
            dir: dir.to_path_buf(),
            prefix: dir
                .file_name()
                .map_or_else(|| "spec".to_owned(), |n| n.to_string_lossy().into_owned()),
            disk: BTreeMap::new(),
            open: BTreeMap::new(),
            generation: 0,
        }
    }

    /// Reads the files on disk again.
    pub fn reload(&mut self) {
        self.disk = mrds_spec::load::read_dir(&self.dir)
            .map(|files| files.into_iter().collect())
            .unwrap_or_default();
        self.generation += 1;
    }

    /// The spec directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The current generation: it changes with every change of a file.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The name of the file at `uri`, when it is a YAML file of the spec directory.
    pub fn name_of(&self, uri: &Uri) -> Option<String> {
        let path = text::path_of(uri)?;
        let rel = path.strip_prefix(&self.dir).ok()?;
        let rel = rel.to_string_lossy().replace('\\', "/");
        let yaml = rel.ends_with(".yaml") || rel.ends_with(".yml");
        let hidden = rel
            .split('/')
            .any(|p| p.starts_with('.') || p == "generated");
        (yaml && !hidden).then(|| format!("{}/{rel}", self.prefix))
    }

    /// The URI of the file named `name`.
    pub fn uri_of(&self, name: &str) -> Option<Uri> {
        let rel = name.strip_prefix(&self.prefix)?.trim_start_matches('/');
        text::uri_of(&self.dir.join(rel))
    }

    /// The path of the file named `name`.
    pub fn path_of(&self, name: &str) -> PathBuf {
        let rel = name.strip_prefix(&self.prefix).unwrap_or(name);
        self.dir.join(rel.trim_start_matches('/'))
    }

    /// Opens or changes a buffer.
    pub fn set_buffer(&mut self, name: String, version: i32, text: String) {
        self.open.insert(name, (version, text));
        self.generation += 1;
    }

    /// Closes a buffer: the file on disk counts again (read again, it may have been saved).
    pub fn close(&mut self, name: &str) {
        self.open.remove(name);
        match std::fs::read_to_string(self.path_of(name)) {
            Ok(text) => {
                self.disk.insert(name.to_owned(), text);
            }
            Err(_) => {
                self.disk.remove(name);
            }
        }
        self.generation += 1;
    }

    /// The version of an open buffer.
    pub fn version(&self, name: &str) -> Option<i32> {
        self.open.get(name).map(|(v, _)| *v)
    }

    /// The text of a file: its buffer when open, else the file on disk.
    pub fn text(&self, name: &str) -> Option<&str> {
        match self.open.get(name) {
            Some((_, text)) => Some(text),
            None => self.disk.get(name).map(String::as_str),
        }
    }

    /// Every file as the loader reads it, by name: buffers over the files on disk.
    pub fn sources(&self) -> Vec<(String, String)> {
        let mut all: BTreeMap<&str, &str> = self
            .disk
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        for (name, (_, text)) in &self.open {
            all.insert(name, text);
        }
        all.into_iter()
            .map(|(n, t)| (n.to_owned(), t.to_owned()))
            .collect()
    }
}
