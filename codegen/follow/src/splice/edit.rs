//! The edits: a node's text replaced, an item added to or removed from a sequence, an entry
//! added to, set in or removed from a mapping, each written in the style of its neighbours.

use mrds_spec::yaml::{Node, NodeKind};

use super::{File, Splice, value_of};

impl File {
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

    /// Renames the mapping key `key` to `new`, quoted as the key was (`"as_of":` in a
    /// JSON-style row stays quoted: a plain key there would take the colon after it).
    pub fn rename_key(&self, key: &Node, new: &str) -> Splice {
        let text = match self.text[self.start(key)..].chars().next() {
            Some('"') => serde_json::to_string(new).unwrap_or_else(|_| crate::scalar(new)),
            Some('\'') => format!("'{}'", new.replace('\'', "''")),
            _ => crate::scalar(new),
        };
        self.replace(key, &text)
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
