//! The text around a node's place: where its text ends (a scalar, a flow collection, a node
//! written as indented lines), its line's indentation and its column, whether it is written
//! in flow style.

use mrds_spec::yaml::{Node, NodeKind};

use super::File;

impl File {
    /// The indentation of the line holding byte `at` (spaces before its first character).
    pub(super) fn indent_of_line(&self, at: usize) -> usize {
        let start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        self.text[start..]
            .bytes()
            .take_while(|b| *b == b' ')
            .count()
    }

    /// The column (from 0) of byte `at` on its line.
    pub(super) fn column(&self, at: usize) -> usize {
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
}
