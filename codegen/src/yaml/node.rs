//! The YAML text as a tree of nodes, each with its place: the one parse of a spec file.

use std::collections::BTreeMap;

use saphyr_parser::{Event, Parser, ScalarStyle};

use crate::diag::Span;

/// One node of a YAML document.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Where the node starts (for a mapping or sequence, its first token).
    pub span: Span,
    /// What it holds.
    pub kind: NodeKind,
}

/// What a node holds.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// A scalar: its text, and whether it was written plain (unquoted, not a block), the only
    /// style in which `12`, `true` or `~` are a number, a boolean or null.
    Scalar {
        /// The text, with escapes and folding applied.
        text: String,
        /// Written plain.
        plain: bool,
    },
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping, its entries in the order written (keys are unique: a repeat is an error).
    Map(Vec<(Node, Node)>),
}

impl Node {
    /// The text of a scalar.
    pub fn as_scalar(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Scalar { text, .. } => Some(text),
            _ => None,
        }
    }

    /// True for a plain `~`, `null`, `Null`, `NULL` or an empty plain scalar.
    pub fn is_null(&self) -> bool {
        matches!(&self.kind, NodeKind::Scalar { text, plain: true } if is_null_text(text))
    }
}

/// The plain spellings of null (YAML 1.2 core schema).
pub(crate) fn is_null_text(text: &str) -> bool {
    matches!(text, "" | "~" | "null" | "Null" | "NULL")
}

/// A problem of the YAML text itself (syntax, a key given twice, a merge key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where.
    pub span: Span,
    /// What.
    pub message: String,
    /// What probably fixes it.
    pub hint: Option<String>,
}

/// Parses one YAML document of file number `file`. An empty text (or one of comments only) is
/// no document: `Ok(None)`. Every key given twice in a mapping and every merge key (`<<`) is
/// reported; a syntax error ends the parse.
pub fn parse(file: u32, text: &str) -> Result<Option<Node>, Vec<SyntaxError>> {
    let mut b = Builder {
        file,
        stack: Vec::new(),
        anchors: BTreeMap::new(),
        root: None,
        documents: 0,
        errors: Vec::new(),
    };
    for event in Parser::new_from_str(text) {
        let (event, span) = match event {
            Ok(e) => e,
            Err(e) => {
                let m = e.marker();
                let span = b.span(m.line(), m.col());
                let hint = unclosed(text, span);
                b.errors.push(SyntaxError {
                    span,
                    message: e.info().to_string(),
                    hint,
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
                let node = Node {
                    span: at,
                    kind: NodeKind::Scalar {
                        text: value.into_owned(),
                        plain: style == ScalarStyle::Plain && !forced_text,
                    },
                };
                b.complete(node, anchor);
            }
            Event::Alias(anchor) => {
                let node = match b.anchors.get(&anchor) {
                    Some(n) => Node {
                        span: at,
                        kind: n.kind.clone(),
                    },
                    None => Node {
                        span: at,
                        kind: NodeKind::Scalar {
                            text: String::new(),
                            plain: true,
                        },
                    },
                };
                b.complete(node, 0);
            }
            Event::MappingStart(anchor, _) => b.stack.push(Frame {
                span: at,
                anchor,
                kind: FrameKind::Map {
                    entries: Vec::new(),
                    key: None,
                },
            }),
            Event::SequenceStart(anchor, _) => b.stack.push(Frame {
                span: at,
                anchor,
                kind: FrameKind::Seq(Vec::new()),
            }),
            Event::MappingEnd | Event::SequenceEnd => {
                if let Some(frame) = b.stack.pop() {
                    let kind = match frame.kind {
                        FrameKind::Map { entries, .. } => NodeKind::Map(entries),
                        FrameKind::Seq(items) => NodeKind::Seq(items),
                    };
                    b.complete(
                        Node {
                            span: frame.span,
                            kind,
                        },
                        frame.anchor,
                    );
                }
            }
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => {}
        }
    }
    if b.errors.is_empty() {
        Ok(b.root)
    } else {
        Err(b.errors)
    }
}

/// For a syntax error at `at`: a `{` or `[` opened on an earlier line and not closed before
/// the error (the likely cause), named in a hint. The text is scanned for brackets outside
/// comments and quoted scalars (a quote opens a scalar only where a token starts).
fn unclosed(text: &str, at: Span) -> Option<String> {
    let mut open: Vec<(char, u32, u32)> = Vec::new();
    for (i, line) in text.lines().enumerate().take(at.line as usize) {
        let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let mut quote: Option<char> = None;
        let mut prev = ' ';
        for (j, c) in line.chars().enumerate() {
            let column = u32::try_from(j + 1).unwrap_or(u32::MAX);
            if line_no == at.line && column >= at.column {
                break;
            }
            match quote {
                Some(q) => {
                    if c == q {
                        quote = None;
                    }
                }
                None => match c {
                    '#' if prev == ' ' => break,
                    '\'' | '"' if matches!(prev, ' ' | '{' | '[' | ',' | ':') => quote = Some(c),
                    '{' | '[' => open.push((c, line_no, column)),
                    '}' | ']' => {
                        open.pop();
                    }
                    _ => {}
                },
            }
            prev = c;
        }
    }
    let (c, line, column) = open.pop()?;
    (line < at.line).then(|| {
        let what = if c == '{' { "mapping" } else { "list" };
        format!("the `{c}` of the {what} at line {line}, column {column} is never closed")
    })
}

/// A mapping or sequence being read.
struct Frame {
    span: Span,
    anchor: usize,
    kind: FrameKind,
}

enum FrameKind {
    Map {
        entries: Vec<(Node, Node)>,
        /// The key read, waiting for its value.
        key: Option<Node>,
    },
    Seq(Vec<Node>),
}

struct Builder {
    file: u32,
    stack: Vec<Frame>,
    anchors: BTreeMap<usize, Node>,
    root: Option<Node>,
    documents: usize,
    errors: Vec<SyntaxError>,
}

impl Builder {
    /// A span from the parser's line (from 1) and column (from 0).
    fn span(&self, line: usize, col: usize) -> Span {
        Span {
            file: self.file,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(col + 1).unwrap_or(u32::MAX),
        }
    }

    /// A node is read: it becomes the pending key or the value of the mapping being read, an
    /// item of the sequence, or the document.
    fn complete(&mut self, node: Node, anchor: usize) {
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        let Some(frame) = self.stack.last_mut() else {
            if self.documents <= 1 {
                self.root = Some(node);
            }
            return;
        };
        match &mut frame.kind {
            FrameKind::Seq(items) => items.push(node),
            FrameKind::Map { entries, key } => match key.take() {
                Some(k) => entries.push((k, node)),
                None => {
                    let text = node.as_scalar().map(str::to_owned);
                    let first = text.as_deref().and_then(|t| {
                        entries
                            .iter()
                            .find(|(k, _)| k.as_scalar() == Some(t))
                            .map(|(k, _)| k.span)
                    });
                    let merge = matches!(&node.kind, NodeKind::Scalar { text, plain: true } if text == "<<");
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

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(n: &Node) -> &str {
        n.as_scalar().expect("a scalar")
    }

    #[test]
    fn nodes_have_their_places() {
        let text = "a:\n  b: 1\n  list:\n    - x\n    - { name: y, type: z }\n";
        let root = parse(0, text).unwrap().unwrap();
        let NodeKind::Map(top) = &root.kind else {
            panic!()
        };
        assert_eq!((top[0].0.span.line, top[0].0.span.column), (1, 1));
        let NodeKind::Map(a) = &top[0].1.kind else {
            panic!()
        };
        assert_eq!(scalar(&a[0].1), "1");
        assert_eq!((a[0].1.span.line, a[0].1.span.column), (2, 6));
        assert_eq!((a[0].0.span.line, a[0].0.span.column), (2, 3));
        let NodeKind::Seq(list) = &a[1].1.kind else {
            panic!()
        };
        assert_eq!((list[0].span.line, list[0].span.column), (4, 7));
        let NodeKind::Map(item) = &list[1].kind else {
            panic!()
        };
        assert_eq!((item[1].1.span.line, item[1].1.span.column), (5, 24));
    }

    #[test]
    fn duplicate_and_merge_keys_are_reported_with_their_paths() {
        let errors = parse(0, "a: 1\nb:\n  - {x: 1, x: 2}\n").unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(
            errors[0].message,
            "`b[0].x` is defined twice in the same mapping"
        );
        assert_eq!((errors[0].span.line, errors[0].span.column), (3, 12));
        let errors = parse(0, "base: &b {x: 1}\nc:\n  <<: *b\n").unwrap_err();
        assert!(errors[0].message.contains("`c.<<`: merge keys"));
    }

    #[test]
    fn aliases_repeat_their_anchor_at_their_own_place() {
        let root = parse(0, "a: &r text\nb: *r\n").unwrap().unwrap();
        let NodeKind::Map(top) = &root.kind else {
            panic!()
        };
        assert_eq!(scalar(&top[1].1), "text");
        assert_eq!(top[1].1.span.line, 2);
    }

    #[test]
    fn blank_text_is_no_document_and_two_documents_are_an_error() {
        assert_eq!(parse(0, "# only a comment\n").unwrap(), None);
        assert!(parse(0, "a: 1\n---\nb: 2\n").is_err());
        assert!(parse(0, "a: [1,\n").is_err());
        let errors = parse(0, "a:\n  - { x: 1, y: 'a}'\n  - { z: 2 }\nb: 3\n").unwrap_err();
        assert_eq!(
            errors[0].hint.as_deref(),
            Some("the `{` of the mapping at line 2, column 5 is never closed")
        );
    }
}
