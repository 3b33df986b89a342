//! The YAML text as a tree of nodes, each with its place: the one parse of a spec file.
//!
//! The limits of the parse (alias expansion, nesting) are described in the documentation of
//! [`crate::yaml`].

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use saphyr_parser::{Event, Parser, ScalarStyle};

use crate::diag::Span;

/// How many levels mappings and sequences may nest in one file, aliases expanded (the
/// document's top mapping is the first level).
pub const MAX_DEPTH: usize = 128;

/// How much larger than written a file may be with its aliases expanded. The size of a value
/// counts 1 for each node (scalar, sequence or mapping) and 1 for each byte of scalar text, so
/// without aliases a file's size expanded is its size as written; an alias written counts 1,
/// expanded it counts the size of its anchor's value.
pub const ALIAS_BUDGET_FACTOR: u64 = 10;

/// The size a file may always have with its aliases expanded, however small it is as written
/// (see [`ALIAS_BUDGET_FACTOR`]).
pub const ALIAS_BUDGET_MIN: u64 = 10_000;

/// One node of a YAML document.
///
/// Cloning a node is cheap: the nodes below it, and its text, are shared. An alias is a node of
/// its own place holding its anchor's value, shared with the anchor (so the nodes inside it
/// have the places of the anchored value).
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Where the node starts (for a mapping or sequence, its first token; for an anchored
    /// value, its anchor).
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
        text: Rc<str>,
        /// Written plain.
        plain: bool,
    },
    /// A sequence.
    Seq(Rc<[Node]>),
    /// A mapping, its entries in the order written (keys are unique: a repeat is an error).
    Map(Rc<[(Node, Node)]>),
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

/// The name of the anchor or alias written at `at` (`&name` or `*name`), for messages.
fn name_at(text: &str, at: Span) -> String {
    let line = text
        .lines()
        .nth((at.line as usize).saturating_sub(1))
        .unwrap_or("");
    line.chars()
        .skip(at.column as usize)
        .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | '[' | ']' | '{' | '}'))
        .collect()
}

/// The place of the tab a syntax error (at `at`, saying `message`) is about: the character at
/// the error, or the first tab of its line when the parser says the problem is a tab.
fn tab_near(text: &str, at: Span, message: &str) -> Option<Span> {
    let line = text.lines().nth((at.line as usize).checked_sub(1)?)?;
    let at_error = line.chars().nth((at.column as usize).checked_sub(1)?) == Some('\t');
    let column = if at_error {
        at.column
    } else if message.contains("tab") {
        u32::try_from(line.chars().position(|c| c == '\t')? + 1).ok()?
    } else {
        return None;
    };
    Some(Span { column, ..at })
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
        let text = "a: &r text\nb: *r\nc: &m { x: [1, 2] }\nd: [*m, *r]\n";
        let root = parse(0, text).unwrap().unwrap();
        let NodeKind::Map(top) = &root.kind else {
            panic!()
        };
        assert_eq!(scalar(&top[1].1), "text");
        assert_eq!(top[1].1.span.line, 2);
        let NodeKind::Seq(d) = &top[3].1.kind else {
            panic!()
        };
        // The alias is at its own place; what it repeats keeps the anchored value's places.
        assert_eq!(d[0].kind, top[2].1.kind);
        assert_eq!((d[0].span.line, d[0].span.column), (4, 5));
        assert_eq!((top[2].1.span.line, top[2].1.span.column), (3, 4));
        let NodeKind::Map(m) = &d[0].kind else {
            panic!()
        };
        assert_eq!((m[0].1.span.line, m[0].1.span.column), (3, 12));
        assert_eq!(scalar(&d[1]), "text");
        assert_eq!((d[1].span.line, d[1].span.column), (4, 9));
    }

    /// Levels of aliases of aliases, each a list of nine aliases of the level before.
    fn alias_bomb(levels: usize) -> String {
        let mut text = format!("a: &a [{}]\n", ["lol"; 9].join(", "));
        let names: Vec<char> = ('a'..='z').take(levels).collect();
        for pair in names.windows(2) {
            let (from, to) = (pair[0], pair[1]);
            let items = vec![format!("*{from}"); 9].join(", ");
            text.push_str(&format!("{to}: &{to} [{items}]\n"));
        }
        text
    }

    #[test]
    fn an_alias_bomb_is_refused_at_the_alias_that_goes_over_the_budget() {
        // Six levels would expand to 9^6 scalars. As written the file has a size of 100 (a
        // mapping, six keys of 2, the first list of 37, five lists of ten): its budget is the
        // least one, 10 000, of which aliases may add 9 900. The lists of `b` add 9 * 36, those
        // of `c` 9 * 333, and each alias of `d` 3 006: the third goes over.
        let errors = parse(0, &alias_bomb(6)).unwrap_err();
        assert_eq!(errors.len(), 1, "{errors:?}");
        let e = &errors[0];
        assert_eq!((e.span.line, e.span.column), (4, 16));
        assert_eq!(
            e.message,
            "the alias `*c` goes over the alias budget: with its aliases expanded, this file \
             would be larger than 10000, 10 times its size as written (100; a node and a byte of \
             text count 1 each, and 10000 is always allowed)"
        );
        assert_eq!(
            e.hint.as_deref(),
            Some(
                "the value of `&c` (line 3, column 4) has a size of 3007 expanded; an alias \
                 repeats a value, it is not for multiplying one: write the value out, or anchor \
                 a smaller part"
            )
        );
        // Two levels stay within it, however the file grows around them.
        assert!(parse(0, &alias_bomb(3)).is_ok());
    }

    #[test]
    fn the_alias_budget_grows_with_the_file() {
        // A value of size 1 001 repeated by 20 aliases adds 20 000 to a file of size 1 027: the
        // tenth alias goes over its budget of 10 270. With 2 003 more written (a key and a
        // value), the budget of 30 300 holds all twenty.
        let value = "x".repeat(1000);
        let aliases = "*v, ".repeat(20);
        let small = format!("a: &v {value}\nb: [{aliases}]\n");
        let errors = parse(0, &small).unwrap_err();
        assert!(
            errors[0].message.starts_with("the alias `*v` goes over"),
            "{errors:?}"
        );
        assert_eq!((errors[0].span.line, errors[0].span.column), (2, 41));
        let large = format!("{small}c: {}\n", "y".repeat(2000));
        assert!(parse(0, &large).is_ok());
    }

    #[test]
    fn an_alias_inside_its_own_anchor_is_an_error() {
        let errors = parse(0, "a: &x [1, *x]\n").unwrap_err();
        assert_eq!(
            errors[0].message,
            "the alias `*x` is inside the value of its own anchor `&x`"
        );
        assert_eq!((errors[0].span.line, errors[0].span.column), (1, 11));
    }

    #[test]
    fn nesting_is_limited_to_max_depth() {
        let flow = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        let deepest = parse(0, &flow(MAX_DEPTH)).unwrap().unwrap();
        // The deepest tree allowed deserializes (by recursion) on a test thread's stack.
        let value: crate::yaml::Value = crate::yaml::from_node(&deepest).unwrap();
        drop(value);

        let errors = parse(0, &flow(MAX_DEPTH + 1)).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].message, "nested deeper than 128 levels");
        assert_eq!((errors[0].span.line, errors[0].span.column), (1, 129));

        // Block lists nest as deep (and are refused at the same level) on one line.
        let block = format!("{}x\n", "- ".repeat(MAX_DEPTH + 1));
        let errors = parse(0, &block).unwrap_err();
        assert_eq!(errors[0].message, "nested deeper than 128 levels");
        assert_eq!((errors[0].span.line, errors[0].span.column), (1, 257));
        assert!(parse(0, &format!("{}x\n", "- ".repeat(MAX_DEPTH))).is_ok());

        // An alias counts the levels of its anchor's value where it stands.
        let anchored = format!("a: &deep {}\n", flow(MAX_DEPTH - 1));
        assert!(parse(0, &format!("{anchored}b: *deep\n")).is_ok());
        let errors = parse(0, &format!("{anchored}b: [*deep]\n")).unwrap_err();
        assert_eq!(
            errors[0].message,
            "nested deeper than 128 levels: the alias `*deep` puts the 127 levels of its \
             anchor's value below 2 levels"
        );
        assert_eq!((errors[0].span.line, errors[0].span.column), (2, 5));
    }

    #[test]
    fn a_tab_in_the_indentation_is_named_at_its_place() {
        let errors = parse(0, "a:\n  b:\n\tc: 2\n").unwrap_err();
        assert_eq!(
            errors[0].message,
            "a tab character: YAML indents with spaces, never tabs"
        );
        assert_eq!((errors[0].span.line, errors[0].span.column), (3, 1));
        // A key given twice is not about tabs, whatever its name and its line hold.
        let errors = parse(0, "table: 1\ntable: '\t'\n").unwrap_err();
        assert_eq!(
            errors[0].message,
            "`table` is defined twice in the same mapping"
        );
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
