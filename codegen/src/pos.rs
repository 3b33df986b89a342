//! Where each node of a YAML file stands, so checks on the typed spec can name a line and column.
//!
//! serde_yaml reports positions only for its own errors. This module walks the file's YAML
//! events once (with `saphyr-parser`) and records the position of every key and value under a
//! dotted path such as `endpoints.stock_dividends.params[4].max`. It also reports duplicate keys,
//! which a typed map would otherwise take silently (the last one winning).

use std::collections::BTreeMap;

use saphyr_parser::{Event, Parser, Span};

/// A line (from 1) and column (from 1).
pub type LineCol = (usize, usize);

/// Positions of the nodes of one YAML file, by path.
#[derive(Debug, Default)]
pub struct PosIndex {
    values: BTreeMap<String, LineCol>,
    keys: BTreeMap<String, LineCol>,
}

/// A key that appears twice in one mapping.
#[derive(Debug, PartialEq, Eq)]
pub struct DuplicateKey {
    /// Path of the repeated key.
    pub path: String,
    /// Where it appears again.
    pub at: LineCol,
    /// Where it appeared first.
    pub first: LineCol,
}

enum Frame {
    Map {
        path: String,
        key: Option<String>,
        seen: BTreeMap<String, LineCol>,
    },
    Seq {
        path: String,
        next: usize,
    },
}

fn line_col(span: &Span) -> LineCol {
    (span.start.line(), span.start.col() + 1)
}

fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_owned()
    } else {
        format!("{parent}.{key}")
    }
}

impl PosIndex {
    /// Indexes `text`. A syntax error ends the walk early; the loader reports syntax errors
    /// through serde_yaml, so what was indexed so far is kept.
    pub fn build(text: &str) -> (Self, Vec<DuplicateKey>) {
        let mut index = PosIndex::default();
        let mut dups = Vec::new();
        let mut stack: Vec<Frame> = Vec::new();
        for event in Parser::new_from_str(text) {
            let Ok((event, span)) = event else { break };
            let at = line_col(&span);
            match event {
                Event::Scalar(value, ..) => {
                    if let Some(path) = index.node(&mut stack, at, Some(&value), &mut dups) {
                        index.values.insert(path, at);
                    }
                }
                Event::Alias(_) => {
                    if let Some(path) = index.node(&mut stack, at, None, &mut dups) {
                        index.values.insert(path, at);
                    }
                }
                Event::MappingStart(..) | Event::SequenceStart(..) => {
                    let path = index.node(&mut stack, at, None, &mut dups);
                    let path = path.unwrap_or_default();
                    index.values.insert(path.clone(), at);
                    stack.push(if matches!(event, Event::MappingStart(..)) {
                        Frame::Map {
                            path,
                            key: None,
                            seen: BTreeMap::new(),
                        }
                    } else {
                        Frame::Seq { path, next: 0 }
                    });
                }
                Event::MappingEnd | Event::SequenceEnd => {
                    stack.pop();
                }
                _ => {}
            }
        }
        (index, dups)
    }

    /// Handles the start of a node. Returns its path when it is a value (not a key).
    fn node(
        &mut self,
        stack: &mut [Frame],
        at: LineCol,
        scalar: Option<&str>,
        dups: &mut Vec<DuplicateKey>,
    ) -> Option<String> {
        match stack.last_mut() {
            None => Some(String::new()),
            Some(Frame::Seq { path, next }) => {
                let p = format!("{path}[{next}]");
                *next += 1;
                Some(p)
            }
            Some(Frame::Map { path, key, seen }) => match key.take() {
                Some(k) => Some(join(path, &k)),
                None => {
                    let k = scalar.unwrap_or("?").to_owned();
                    let full = join(path, &k);
                    if let Some(first) = seen.get(&k) {
                        dups.push(DuplicateKey {
                            path: full.clone(),
                            at,
                            first: *first,
                        });
                    } else {
                        seen.insert(k.clone(), at);
                    }
                    self.keys.insert(full, at);
                    *key = Some(k);
                    None
                }
            },
        }
    }

    /// Every key spelled `name`, with its path and position, in path order.
    pub fn keys_named(&self, name: &str) -> Vec<(String, LineCol)> {
        self.keys
            .iter()
            .filter(|(path, _)| path.rsplit('.').next() == Some(name))
            .map(|(path, at)| (path.clone(), *at))
            .collect()
    }

    /// Position of the value at `path`, or of the nearest enclosing node that has one.
    pub fn value(&self, path: &str) -> LineCol {
        self.lookup(&self.values, path)
    }

    /// Position of the key naming `path` (for a name defined twice, say), else of its value.
    pub fn key(&self, path: &str) -> LineCol {
        match self.keys.get(path) {
            Some(at) => *at,
            None => self.value(path),
        }
    }

    fn lookup(&self, map: &BTreeMap<String, LineCol>, path: &str) -> LineCol {
        let mut p = path;
        loop {
            if let Some(at) = map.get(p) {
                return *at;
            }
            match p.rfind(['.', '[']) {
                Some(i) => p = &p[..i],
                None => return map.get("").copied().unwrap_or((1, 1)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_keys_values_and_items() {
        let text = "a:\n  b: 1\n  list:\n    - x\n    - { name: y, type: z }\n";
        let (ix, dups) = PosIndex::build(text);
        assert!(dups.is_empty());
        assert_eq!(ix.value("a.b"), (2, 6));
        assert_eq!(ix.key("a.b"), (2, 3));
        assert_eq!(ix.value("a.list[0]"), (4, 7));
        assert_eq!(ix.value("a.list[1].type"), (5, 24));
        // Unknown paths fall back to the nearest known ancestor.
        assert_eq!(ix.value("a.list[1].nope.deeper"), ix.value("a.list[1]"));
    }

    #[test]
    fn reports_duplicate_keys() {
        let (_, dups) = PosIndex::build("a: 1\nb: 2\na: 3\n");
        assert_eq!(
            dups,
            vec![DuplicateKey {
                path: "a".into(),
                at: (3, 1),
                first: (1, 1)
            }]
        );
    }
}
