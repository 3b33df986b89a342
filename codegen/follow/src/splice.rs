//! Editing the spec's YAML in place. The one parse ([`mrds_spec::yaml`]) puts a place on every
//! node; this module finds the text around those places (where a node ends, how its lines are
//! indented, whether a collection is written `{ ... }` or as indented lines) and makes
//! [`Splice`]s that insert or replace text there, written in the style of their neighbours, so
//! comments, key order and layout stay as they are.

use mrds_spec::yaml::{Node, NodeKind, parse};

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

    /// The indentation of the line holding byte `at` (spaces before its first character).
    fn indent_of_line(&self, at: usize) -> usize {
        let start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        self.text[start..]
            .bytes()
            .take_while(|b| *b == b' ')
            .count()
    }

    /// The column (from 0) of byte `at` on its line.
    fn column(&self, at: usize) -> usize {
        let start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        self.text[start..at].chars().count()
    }

    /// Whether the node is written in flow style (`{ ... }`, `[ ... ]`).
    pub fn is_flow(&self, node: &Node) -> bool {
        matches!(
            self.text[self.start(node)..].chars().next(),
            Some('{' | '[')
        )
    }

    /// The byte offset just past a node's text (its last line's content, before a comment,
    /// for a node written as indented lines).
    pub fn end(&self, node: &Node) -> usize {
        let start = self.start(node);
        match &node.kind {
            NodeKind::Scalar { .. } => self.scalar_end(start),
            _ if self.is_flow(node) => self.bracket_end(start),
            NodeKind::Seq(_) | NodeKind::Map(_) => self.block_end(start),
        }
    }

    /// The end of the scalar starting at `start`: its closing quote, or for a plain scalar the
    /// end of its line before a comment (before `,`, `}` or `]` inside a flow collection).
    fn scalar_end(&self, start: usize) -> usize {
        let rest = &self.text[start..];
        let line_end = rest.find('\n').unwrap_or(rest.len());
        let line = &rest[..line_end];
        match line.chars().next() {
            Some(q @ ('"' | '\'')) => {
                let mut escaped = false;
                for (i, c) in line.char_indices().skip(1) {
                    if q == '"' && c == '\\' && !escaped {
                        escaped = true;
                        continue;
                    }
                    if c == q && !escaped {
                        if q == '\'' && line[i + 1..].starts_with('\'') {
                            continue;
                        }
                        return start + i + 1;
                    }
                    escaped = false;
                }
                start + line_end
            }
            Some('>' | '|') => self.block_end(start),
            _ => {
                let flow = self.in_flow(start);
                let mut end = line.len();
                for (i, c) in line.char_indices() {
                    if flow && matches!(c, ',' | '}' | ']') {
                        end = i;
                        break;
                    }
                    // A key ends at its `: ` (a plain scalar holds no colon before a space).
                    let after = line[i + 1..].chars().next();
                    if c == ':'
                        && after.is_none_or(|a| a == ' ' || (flow && matches!(a, ',' | '}' | ']')))
                    {
                        end = i;
                        break;
                    }
                    if c == '#' && i > 0 && line[..i].ends_with(' ') {
                        end = i;
                        break;
                    }
                }
                start + line[..end].trim_end().len()
            }
        }
    }

    /// Whether `at` is inside a flow collection opened earlier on its line.
    fn in_flow(&self, at: usize) -> bool {
        let start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        let mut depth = 0i32;
        let mut quote: Option<char> = None;
        for c in self.text[start..at].chars() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None => match c {
                    '"' | '\'' => quote = Some(c),
                    '{' | '[' => depth += 1,
                    '}' | ']' => depth -= 1,
                    _ => {}
                },
            }
        }
        depth > 0
    }

    /// The end of the flow collection opening at `start`: past its closing bracket.
    fn bracket_end(&self, start: usize) -> usize {
        let mut depth = 0i32;
        let mut quote: Option<char> = None;
        for (i, c) in self.text[start..].char_indices() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None => match c {
                    '"' | '\'' => quote = Some(c),
                    '{' | '[' => depth += 1,
                    '}' | ']' => {
                        depth -= 1;
                        if depth == 0 {
                            return start + i + 1;
                        }
                    }
                    _ => {}
                },
            }
        }
        self.text.len()
    }

    /// The end of a node written as indented lines, starting at `start` (its first key, its
    /// first `-`, or a block scalar's first line): the end of its last line of content, the
    /// lines it spans being those indented more than its column, and at its column those of a
    /// mapping's keys or a sequence's items.
    fn block_end(&self, start: usize) -> usize {
        let column = self.column(start);
        let sequence = self.text[start..].starts_with('-');
        let mut end = self.line_content_end(start);
        let mut at = self.text[start..].find('\n').map(|i| start + i + 1);
        while let Some(line_start) = at.filter(|a| *a < self.text.len()) {
            let line_end = self.text[line_start..]
                .find('\n')
                .map_or(self.text.len(), |i| line_start + i);
            let line = &self.text[line_start..line_end];
            let content = line.trim_start_matches(' ');
            let indent = line.len() - content.len();
            if !(content.is_empty() || content.starts_with('#')) {
                let inside =
                    indent > column || (indent == column && sequence == content.starts_with('-'));
                if !inside {
                    break;
                }
                end = self.line_content_end(line_start);
            }
            at = Some(line_end + 1);
        }
        end
    }

    /// The end of the content of the line holding `at`, before a trailing comment.
    fn line_content_end(&self, at: usize) -> usize {
        let start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i);
        let line = &self.text[start..end];
        let mut quote: Option<char> = None;
        let mut cut = line.len();
        for (i, c) in line.char_indices() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if c == '"' || c == '\'' => quote = Some(c),
                None if c == '#' && (i == 0 || line[..i].ends_with(' ')) => {
                    cut = i;
                    break;
                }
                None => {}
            }
        }
        start + line[..cut].trim_end().len()
    }

    /// Replaces a node's text with `text`.
    pub fn replace(&self, node: &Node, text: &str) -> Splice {
        let at = self.start(node);
        Splice {
            file: self.name.clone(),
            at,
            remove: self.end(node) - at,
            insert: text.to_string(),
        }
    }

    /// Adds an item after the last one of the sequence `seq`, written as its last item is
    /// (`- { key: value, ... }` on one line, or `- key: value` and the keys below it; in a
    /// flow sequence, `, value`). `entries` are the item's keys and values (YAML text); an
    /// item with no key is the value alone.
    pub fn append_item(&self, seq: &Node, entries: &[(&str, String)]) -> Splice {
        self.insert_item(seq, None, entries)
    }

    /// Adds an item to the sequence `seq` after its item `after` (`None`: after the last;
    /// `Some(usize::MAX)`: before the first), written as its items are (see
    /// [`append_item`](Self::append_item)).
    pub fn insert_item(
        &self,
        seq: &Node,
        after: Option<usize>,
        entries: &[(&str, String)],
    ) -> Splice {
        let items = match &seq.kind {
            NodeKind::Seq(items) => &items[..],
            _ => &[],
        };
        if after == Some(usize::MAX)
            && let Some(first) = items.first()
            && !self.is_flow(seq)
        {
            let start = self.start(first);
            let line_start = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
            let dash = self.indent_of_line(start);
            let flow = self.is_flow(first) || !matches!(first.kind, NodeKind::Map(_));
            return Splice {
                file: self.name.clone(),
                at: line_start,
                remove: 0,
                insert: format!("{}\n", item_text(dash, entries, flow)),
            };
        }
        let items = match after {
            Some(i) if i < items.len() => &items[..=i],
            _ => items,
        };
        if self.is_flow(seq) {
            let close = self.end(seq) - 1;
            let text = flow_value(entries);
            let insert = if items.is_empty() {
                text
            } else {
                format!(", {text}")
            };
            return Splice {
                file: self.name.clone(),
                at: close,
                remove: 0,
                insert,
            };
        }
        let Some(last) = items.last() else {
            return Splice {
                file: self.name.clone(),
                at: self.end(seq),
                remove: 0,
                insert: String::new(),
            };
        };
        let dash = self.indent_of_line(self.start(last));
        let flow = self.is_flow(last) || !matches!(last.kind, NodeKind::Map(_));
        Splice {
            file: self.name.clone(),
            at: self.end(last),
            remove: 0,
            insert: format!("\n{}", item_text(dash, entries, flow)),
        }
    }

    /// Adds `key: value` to the mapping `map`, after the entry of `after` (the first of these
    /// keys it has, else after its last entry), written as the mapping is.
    pub fn insert_entry(&self, map: &Node, after: &[&str], key: &str, value: &str) -> Splice {
        let entries = match &map.kind {
            NodeKind::Map(entries) => &entries[..],
            _ => &[],
        };
        let previous = after
            .iter()
            .find_map(|k| entries.iter().find(|(kn, _)| kn.as_scalar() == Some(k)))
            .or(entries.last());
        let Some((key_node, value_node)) = previous else {
            return Splice {
                file: self.name.clone(),
                at: self.end(map),
                remove: 0,
                insert: String::new(),
            };
        };
        let at = self.end(value_node);
        let insert = if self.is_flow(map) {
            format!(", {key}: {value}")
        } else {
            let indent = self.column(self.start(key_node));
            format!("\n{}{key}: {value}", " ".repeat(indent))
        };
        Splice {
            file: self.name.clone(),
            at,
            remove: 0,
            insert,
        }
    }

    /// Sets `key` of the mapping `map` to `value`: replaces its value, or adds the entry
    /// after the first of `after` the mapping has.
    pub fn set_entry(&self, map: &Node, after: &[&str], key: &str, value: &str) -> Splice {
        match value_of(map, key) {
            Some(old) => self.replace(old, value),
            None => self.insert_entry(map, after, key, value),
        }
    }

    /// Removes the entry `key` of the mapping `map` (with the `, ` before it in a flow
    /// mapping, or its whole lines).
    pub fn remove_entry(&self, map: &Node, key: &str) -> Option<Splice> {
        let NodeKind::Map(entries) = &map.kind else {
            return None;
        };
        let i = entries
            .iter()
            .position(|(k, _)| k.as_scalar() == Some(key))?;
        let (k, v) = &entries[i];
        let end = self.end(v);
        let (at, end) = if self.is_flow(map) {
            if i > 0 {
                (self.end(&entries[i - 1].1), end)
            } else {
                let next = entries.get(1).map_or(end, |(k, _)| self.start(k));
                (self.start(k), next)
            }
        } else {
            let start = self.text[..self.start(k)].rfind('\n').map_or(0, |i| i + 1);
            let end = self.text[end..]
                .find('\n')
                .map_or(self.text.len(), |i| end + i + 1);
            (start, end)
        };
        Some(Splice {
            file: self.name.clone(),
            at,
            remove: end - at,
            insert: String::new(),
        })
    }

    /// Removes an item of a sequence written as indented lines: its lines, from its `-` to
    /// its last line.
    pub fn remove_item(&self, item: &Node) -> Splice {
        let start = self.start(item);
        let line_start = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let end = self.end(item);
        let end = self.text[end..]
            .find('\n')
            .map_or(self.text.len(), |i| end + i + 1);
        Splice {
            file: self.name.clone(),
            at: line_start,
            remove: end - line_start,
            insert: String::new(),
        }
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

/// `{ a: 1, b: 2 }`, or the value alone for an item with no key.
fn flow_value(entries: &[(&str, String)]) -> String {
    match entries {
        [("", value)] => value.clone(),
        _ => {
            let inner: Vec<String> = entries.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            format!("{{ {} }}", inner.join(", "))
        }
    }
}

/// An item of a sequence whose `-` is at column `dash`: `- { ... }` in flow style, else its
/// first key after the `-` and the others below it.
fn item_text(dash: usize, entries: &[(&str, String)], flow: bool) -> String {
    let pad = " ".repeat(dash);
    if flow || entries.len() == 1 && entries[0].0.is_empty() {
        return format!("{pad}- {}", flow_value(entries));
    }
    let mut out = String::new();
    for (i, (k, v)) in entries.iter().enumerate() {
        if i == 0 {
            out.push_str(&format!("{pad}- {k}: {v}"));
        } else {
            out.push_str(&format!("\n{pad}  {k}: {v}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# a comment
records:
  Quote:
    doc: A quote. # trailing
    fields:
      - { name: ask, type: number, doc: \"Ask, as sent.\" }
      - name: bid
        type: number
        # a comment inside
        doc: >-
          Bid, folded
          over lines.

      # a comment after
  Other:
    fields: []
values: [1d, \"2 d\"]
";

    fn edited(splices: &[Splice]) -> String {
        apply(&[("f".into(), TEXT.into())], splices)[0].1.clone()
    }

    #[test]
    fn items_are_appended_in_the_style_of_the_last_one() {
        let file = File::new("f", TEXT);
        let fields = file.at(&["records", "Quote", "fields"]).unwrap();
        let splice = file.append_item(
            fields,
            &[("name", "venue".into()), ("type", "string".into())],
        );
        let text = edited(&[splice]);
        assert!(
            text.contains("          over lines.\n      - name: venue\n        type: string\n\n      # a comment after"),
            "{text}"
        );
        let values = file.at(&["values"]).unwrap();
        let text = edited(&[file.append_item(values, &[("", "1w".into())])]);
        assert!(text.contains("values: [1d, \"2 d\", 1w]"), "{text}");
        let empty = file.at(&["records", "Other", "fields"]).unwrap();
        let text = edited(&[file.append_item(empty, &[("name", "x".into())])]);
        assert!(text.contains("fields: [{ name: x }]"), "{text}");
    }

    #[test]
    fn splices_at_one_place_read_in_the_order_given_after_a_removal() {
        let s = |at, remove, insert: &str| Splice {
            file: "f".into(),
            at,
            remove,
            insert: insert.into(),
        };
        let files = [("f".to_string(), "abcdef".to_string())];
        let out = apply(
            &files,
            &[s(2, 0, "1"), s(2, 2, ""), s(2, 0, "2"), s(5, 1, "X")],
        );
        assert_eq!(out[0].1, "ab12eX");
        assert!(overlap(&s(2, 2, ""), &s(3, 0, "x")));
        assert!(!overlap(&s(2, 2, ""), &s(2, 0, "x")));
        assert!(!overlap(&s(2, 2, ""), &s(4, 0, "x")));
        assert!(overlap(&s(2, 2, "y"), &s(2, 1, "x")));
    }

    #[test]
    fn entries_are_set_replaced_and_removed_in_place() {
        let file = File::new("f", TEXT);
        let fields = file.at(&["records", "Quote", "fields"]).unwrap();
        let ask = item_with(fields, "name", "ask").unwrap();
        let bid = item_with(fields, "name", "bid").unwrap();
        let splices = [
            file.insert_entry(ask, &["array", "type"], "optional", "true"),
            file.set_entry(ask, &["type"], "type", "string"),
            file.insert_entry(bid, &["type"], "format", "numeric_text"),
            file.replace(
                file.at(&["records", "Quote", "doc"]).unwrap(),
                "\"A quote, now.\"",
            ),
        ];
        let text = edited(&splices);
        assert!(
            text.contains("- { name: ask, type: string, optional: true, doc: \"Ask, as sent.\" }"),
            "{text}"
        );
        assert!(
            text.contains(
                "        type: number\n        format: numeric_text\n        # a comment inside"
            ),
            "{text}"
        );
        assert!(text.contains("doc: \"A quote, now.\" # trailing"), "{text}");
        let text = edited(&[file.remove_entry(ask, "type").unwrap()]);
        assert!(
            text.contains("- { name: ask, doc: \"Ask, as sent.\" }"),
            "{text}"
        );
        let text = edited(&[file.remove_entry(bid, "type").unwrap()]);
        assert!(
            text.contains("      - name: bid\n        # a comment inside"),
            "{text}"
        );
        let text = edited(&[file.remove_item(bid)]);
        assert!(
            text.contains("doc: \"Ask, as sent.\" }\n\n      # a comment after"),
            "{text}"
        );
        assert_eq!(
            file.end(file.at(&["records", "Quote", "fields"]).unwrap()),
            TEXT.find("over lines.").unwrap() + 11
        );
    }
}
