//! Editing the spec's YAML in place. The one parse ([`mrds_spec::yaml`]) puts a place on every
//! node; this module finds the text around those places (where a node ends, how its lines are
//! indented, whether a collection is written `{ ... }` or as indented lines) and makes
//! [`Splice`]s that insert or replace text there, written in the style of their neighbours, so
//! comments, key order and layout stay as they are.
//!
//! This module holds the splices and the parsed file with its places; [`text`] finds where a
//! node's text ends and how its lines are indented, [`edit`] makes the splices of an edit.

use mrds_spec::yaml::{Node, NodeKind, parse};

mod edit;
#[cfg(test)]
mod tests;
mod text;

/// Text to put at a place of a file: `remove` bytes from `at` replaced by `insert`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Splice {
    /// The file, as the loader names it (`spec/records.yaml`).
    pub file: String,
    /// Byte offset.
    pub at: usize,
    /// Bytes replaced.
    pub remove: usize,
    /// Text put there.
    pub insert: String,
}

/// The texts of `files` with `splices` made (insertions at one place in the order given, after
/// what a splice there removes; none may overlap another's removal).
pub fn apply(files: &[(String, String)], splices: &[Splice]) -> Vec<(String, String)> {
    let mut out = files.to_vec();
    for (name, text) in &mut out {
        let mut mine: Vec<(usize, &Splice)> = splices
            .iter()
            .enumerate()
            .filter(|(_, s)| s.file == *name)
            .collect();
        // From the end, so earlier offsets stay right. Of one place: what removes text first,
        // then the insertions, the last given first (so they read in the order given).
        mine.sort_by(|(i, a), (j, b)| (b.at, a.remove == 0, *j).cmp(&(a.at, b.remove == 0, *i)));
        for (_, s) in mine {
            let end = (s.at + s.remove).min(text.len());
            if s.at <= end && text.is_char_boundary(s.at) && text.is_char_boundary(end) {
                text.replace_range(s.at..end, &s.insert);
            }
        }
    }
    out
}

/// Whether two splices of one file touch the same text: their removals intersect, or one
/// inserts strictly inside what the other removes.
pub fn overlap(a: &Splice, b: &Splice) -> bool {
    if a.file != b.file {
        return false;
    }
    let inside = |x: &Splice, y: &Splice| y.at > x.at && y.at < x.at + x.remove;
    let both = a.remove > 0 && b.remove > 0 && a.at < b.at + b.remove && b.at < a.at + a.remove;
    both || inside(a, b) || inside(b, a)
}

/// One spec file, parsed once: its text, its tree and where its lines start.
#[derive(Debug)]
pub struct File {
    /// The name the loader gives it.
    pub name: String,
    /// Its text.
    pub text: String,
    /// Its document, when it parses and holds one.
    pub root: Option<Node>,
    lines: Vec<usize>,
}

impl File {
    /// Parses `text`.
    pub fn new(name: &str, text: &str) -> Self {
        let mut lines = vec![0];
        lines.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Self {
            name: name.to_string(),
            text: text.to_string(),
            root: parse(0, text).ok().flatten(),
            lines,
        }
    }

    /// The node at `path` of mapping keys from the root (`["records", "Quote", "fields"]`).
    pub fn at(&self, path: &[&str]) -> Option<&Node> {
        let mut node = self.root.as_ref()?;
        for key in path {
            node = value(node, key)?;
        }
        Some(node)
    }

    /// The byte offset of a node's start.
    pub fn start(&self, node: &Node) -> usize {
        self.offset(node.span.line as usize, node.span.column as usize)
    }

    /// The byte offset of line `line`, column `column` (both from 1; columns count
    /// characters).
    pub fn offset(&self, line: usize, column: usize) -> usize {
        let Some(&from) = self.lines.get(line.saturating_sub(1)) else {
            return self.text.len();
        };
        let rest = &self.text[from..];
        let within =
            (rest.char_indices().nth(column.saturating_sub(1))).map_or(rest.len(), |(i, _)| i);
        from + within
    }
}

/// The value of `key` in the mapping `map`.
pub fn value<'n>(map: &'n Node, key: &str) -> Option<&'n Node> {
    value_of(map, key)
}

fn value_of<'n>(map: &'n Node, key: &str) -> Option<&'n Node> {
    match &map.kind {
        NodeKind::Map(entries) => entries
            .iter()
            .find(|(k, _)| k.as_scalar() == Some(key))
            .map(|(_, v)| v),
        _ => None,
    }
}

/// The items of a sequence (none of another node).
pub fn items(seq: &Node) -> &[Node] {
    match &seq.kind {
        NodeKind::Seq(items) => items,
        _ => &[],
    }
}

/// The entries of a mapping (none of another node).
pub fn entries(map: &Node) -> &[(Node, Node)] {
    match &map.kind {
        NodeKind::Map(entries) => entries,
        _ => &[],
    }
}

/// The item of `seq` whose `key` is `text`.
pub fn item_with<'n>(seq: &'n Node, key: &str, text: &str) -> Option<&'n Node> {
    items(seq)
        .iter()
        .find(|item| value_of(item, key).and_then(Node::as_scalar) == Some(text))
}
