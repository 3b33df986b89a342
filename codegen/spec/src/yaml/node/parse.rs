//! The parse: the parser's events built into a tree of nodes, keys given twice, merge keys,
//! nesting and the alias budget reported on the way.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use saphyr_parser::{Event, Parser, ScalarStyle};

use super::text::{name_at, tab_near, unclosed};
use super::{ALIAS_BUDGET_FACTOR, ALIAS_BUDGET_MIN, MAX_DEPTH, Node, NodeKind, SyntaxError};
use crate::diag::Span;

/// Parses one YAML document of file number `file`. An empty text (or one of comments only) is
/// no document: `Ok(None)`. Every key given twice in a mapping and every merge key (`<<`) is
/// reported; a syntax error, nesting deeper than [`MAX_DEPTH`] or an alias inside its own
/// anchor's value ends the parse. A file over its alias budget (see [`crate::yaml`]) is
/// refused at the alias that goes over it.
pub fn parse(file: u32, text: &str) -> Result<Option<Node>, Vec<SyntaxError>> {
    let mut b = Builder {
        file,
        text,
        stack: Vec::new(),
        anchors: BTreeMap::new(),
        root: None,
        documents: 0,
        errors: Vec::new(),
        written: 0,
        added: 0,
        aliases: Vec::new(),
    };
    for event in Parser::new_from_str(text) {
        let (event, span) = match event {
            Ok(e) => e,
            Err(e) => {
                let m = e.marker();
                let span = b.span(m.line(), m.col());
                b.errors.push(match tab_near(text, span, e.info()) {
                    Some(tab) => SyntaxError {
                        span: tab,
                        message: "a tab character: YAML indents with spaces, never tabs".into(),
                        hint: Some("replace the tab with spaces".into()),
                    },
                    None => SyntaxError {
                        span,
                        message: e.info().to_string(),
                        hint: unclosed(text, span),
                    },
                });
                return Err(b.errors);
            }
        };
        let at = b.span(span.start.line(), span.start.col());
        match event {
            Event::DocumentStart(_) => {
                b.documents += 1;
                if b.documents == 2 {
                    b.errors.push(SyntaxError {
                        span: at,
                        message: "a second YAML document in one file".into(),
                        hint: Some(
                            "a spec file holds one document: remove the `---`, or split the file"
                                .into(),
                        ),
                    });
                }
            }
            Event::Scalar(value, style, anchor, tag) => {
                // `!!str 12` is text however it is written.
                let forced_text = tag.as_ref().is_some_and(|t| {
                    t.suffix == "str" && (t.handle == "!!" || t.handle == "tag:yaml.org,2002:")
                });
                let size = 1 + value.len() as u64;
                b.written = b.written.saturating_add(size);
                let node = Node {
                    span: at,
                    kind: NodeKind::Scalar {
                        text: Rc::from(&*value),
                        plain: style == ScalarStyle::Plain && !forced_text,
                    },
                };
                b.complete(node, anchor, size, 0);
            }
            Event::Alias(anchor) => {
                b.written = b.written.saturating_add(1);
                let (kind, size, height) = match b.anchors.get(&anchor) {
                    Some(a) => (a.node.kind.clone(), a.size, a.height),
                    None => {
                        // The parser knows every anchor written before the alias: this one's
                        // value is still being read.
                        let name = name_at(text, at);
                        b.errors.push(SyntaxError {
                            span: at,
                            message: format!(
                                "the alias `*{name}` is inside the value of its own anchor `&{name}`"
                            ),
                            hint: Some("a value cannot hold itself; alias another anchor".into()),
                        });
                        return Err(b.errors);
                    }
                };
                if b.stack.len() + height as usize > MAX_DEPTH {
                    let name = name_at(text, at);
                    b.errors.push(SyntaxError {
                        span: at,
                        message: format!(
                            "nested deeper than {MAX_DEPTH} levels: the alias `*{name}` puts the \
                             {height} levels of its anchor's value below {} levels",
                            b.stack.len()
                        ),
                        hint: Some(format!(
                            "a spec file nests at most {MAX_DEPTH} levels, aliases expanded"
                        )),
                    });
                    return Err(b.errors);
                }
                b.added = b.added.saturating_add(size - 1);
                b.aliases.push((at, anchor, b.added));
                b.complete(Node { span: at, kind }, 0, size, height);
            }
            Event::MappingStart(anchor, _) | Event::SequenceStart(anchor, _) => {
                b.written = b.written.saturating_add(1);
                if b.stack.len() == MAX_DEPTH {
                    b.errors.push(SyntaxError {
                        span: at,
                        message: format!("nested deeper than {MAX_DEPTH} levels"),
                        hint: Some(format!(
                            "a spec file nests at most {MAX_DEPTH} levels of mappings and lists \
                             (a spec needs a few); is a bracket or an indentation astray?"
                        )),
                    });
                    return Err(b.errors);
                }
                let kind = match event {
                    Event::MappingStart(..) => FrameKind::Map {
                        entries: Vec::new(),
                        key: None,
                        keys: HashMap::new(),
                    },
                    _ => FrameKind::Seq(Vec::new()),
                };
                b.stack.push(Frame {
                    span: at,
                    anchor,
                    kind,
                    size: 1,
                    height: 0,
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                if let Some(frame) = b.stack.pop() {
                    let kind = match frame.kind {
                        FrameKind::Map { entries, .. } => NodeKind::Map(entries.into()),
                        FrameKind::Seq(items) => NodeKind::Seq(items.into()),
                    };
                    b.complete(
                        Node {
                            span: frame.span,
                            kind,
                        },
                        frame.anchor,
                        frame.size,
                        frame.height + 1,
                    );
                }
            }
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => {}
        }
    }
    b.check_alias_budget();
    if b.errors.is_empty() {
        Ok(b.root)
    } else {
        Err(b.errors)
    }
}

/// A mapping or sequence being read.
struct Frame {
    span: Span,
    anchor: usize,
    kind: FrameKind,
    /// Its size so far, aliases expanded (see [`ALIAS_BUDGET_FACTOR`]): 1 for itself and the
    /// sizes of the nodes read into it.
    size: u64,
    /// The most levels of mappings and sequences a node read into it holds (0 for scalars).
    height: u32,
}

enum FrameKind {
    Map {
        entries: Vec<(Node, Node)>,
        /// The key read, waiting for its value.
        key: Option<Node>,
        /// The place of each scalar key read, by its text (a key given twice is found without
        /// reading the others again).
        keys: HashMap<Rc<str>, Span>,
    },
    Seq(Vec<Node>),
}

/// An anchored value, for its aliases.
struct Anchored {
    node: Node,
    /// Its size, aliases expanded.
    size: u64,
    /// The levels of mappings and sequences it holds, itself included.
    height: u32,
}

struct Builder<'t> {
    file: u32,
    text: &'t str,
    stack: Vec<Frame>,
    anchors: BTreeMap<usize, Anchored>,
    root: Option<Node>,
    documents: usize,
    errors: Vec<SyntaxError>,
    /// The file's size as written: every node counted once, an alias as 1.
    written: u64,
    /// What the aliases read so far add to the written size when expanded.
    added: u64,
    /// Every alias read: its place, its anchor's number, and `added` once it is counted.
    aliases: Vec<(Span, usize, u64)>,
}

impl Builder<'_> {
    /// A span from the parser's line (from 1) and column (from 0).
    fn span(&self, line: usize, col: usize) -> Span {
        Span {
            file: self.file,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(col + 1).unwrap_or(u32::MAX),
        }
    }

    /// Once the file is read: when its aliases expand it past its budget, an error at the
    /// alias that goes over it.
    fn check_alias_budget(&mut self) {
        let limit = self
            .written
            .saturating_mul(ALIAS_BUDGET_FACTOR)
            .max(ALIAS_BUDGET_MIN);
        // Written nodes alone never go over (the factor is above 1): aliases do, one by one.
        let allowed = limit - self.written.min(limit);
        let Some(&(at, anchor, _)) = self.aliases.iter().find(|(.., added)| *added > allowed)
        else {
            return;
        };
        let name = name_at(self.text, at);
        let anchor = self.anchors.get(&anchor).map(|a| (a.node.span, a.size));
        self.errors.push(SyntaxError {
            span: at,
            message: format!(
                "the alias `*{name}` goes over the alias budget: with its aliases expanded, this \
                 file would be larger than {limit}, {ALIAS_BUDGET_FACTOR} times its size as \
                 written ({written}; a node and a byte of text count 1 each, and {ALIAS_BUDGET_MIN} \
                 is always allowed)",
                written = self.written,
            ),
            hint: Some(match anchor {
                Some((span, size)) => format!(
                    "the value of `&{name}` (line {}, column {}) has a size of {size} expanded; \
                     an alias repeats a value, it is not for multiplying one: write the value \
                     out, or anchor a smaller part",
                    span.line, span.column
                ),
                None => "an alias repeats a value, it is not for multiplying one".into(),
            }),
        });
    }

    /// A node is read (`size` and `height` as in [`Frame`]): it becomes the pending key or the
    /// value of the mapping being read, an item of the sequence, or the document.
    fn complete(&mut self, node: Node, anchor: usize, size: u64, height: u32) {
        if anchor != 0 {
            let node = node.clone();
            self.anchors.insert(anchor, Anchored { node, size, height });
        }
        let Some(frame) = self.stack.last_mut() else {
            if self.documents <= 1 {
                self.root = Some(node);
            }
            return;
        };
        frame.size = frame.size.saturating_add(size);
        frame.height = frame.height.max(height);
        match &mut frame.kind {
            FrameKind::Seq(items) => items.push(node),
            FrameKind::Map { entries, key, keys } => match key.take() {
                Some(k) => entries.push((k, node)),
                None => {
                    let first = match &node.kind {
                        NodeKind::Scalar { text, .. } => match keys.entry(text.clone()) {
                            Entry::Occupied(first) => Some(*first.get()),
                            Entry::Vacant(new) => {
                                new.insert(node.span);
                                None
                            }
                        },
                        _ => None,
                    };
                    let merge = matches!(&node.kind, NodeKind::Scalar { text, plain: true } if &**text == "<<");
                    let span = node.span;
                    *key = Some(node);
                    if let Some(first) = first {
                        let path = self.path();
                        self.errors.push(SyntaxError {
                            span,
                            message: format!("`{path}` is defined twice in the same mapping"),
                            hint: Some(format!(
                                "the first definition is at line {}, column {}; remove or rename one",
                                first.line, first.column
                            )),
                        });
                    } else if merge {
                        let path = self.path();
                        self.errors.push(SyntaxError {
                            span,
                            message: format!("`{path}`: merge keys (`<<:`) are not supported"),
                            hint: Some("write the keys out; an anchor (`&name`) and alias (`*name`) may still repeat a whole value".into()),
                        });
                    }
                }
            },
        }
    }

    /// The dotted path of the node being read (`endpoints.bars.params[1].type`), for messages.
    fn path(&self) -> String {
        let mut out = String::new();
        for frame in &self.stack {
            match &frame.kind {
                FrameKind::Map { key, .. } => {
                    if let Some(k) = key {
                        if !out.is_empty() {
                            out.push('.');
                        }
                        out.push_str(k.as_scalar().unwrap_or("?"));
                    }
                }
                FrameKind::Seq(items) => out.push_str(&format!("[{}]", items.len())),
            }
        }
        out
    }
}
