//! Where the spec's names are defined and used: the index behind an editor's go to
//! definition, find references, rename, completion and outline (the language server,
//! `mrds-lsp`).
//!
//! The index is built from the files as the loader reads them ([`parse_each`]: the node tree
//! and the AST with a place on every name), not from a second reading of the text: a name's
//! place is the place of its node. It holds no rule of the format: whether a name resolves is
//! the checker's question ([`crate::check`]); the index only records which name a place
//! spells, so it is built from files that do not check (a file that does not parse adds
//! nothing).
//!
//! YAML anchors and aliases are not part of the AST (an alias is its anchor's value); their
//! places come from the same YAML parser the node tree is read with ([`anchors`]).

pub mod anchors;
mod walk;

use std::collections::BTreeMap;

use crate::diag::{Diagnostic, Span};
use crate::load::LoadedFile;

/// A named thing of the spec, by the names the spec writes.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Symbol {
    /// A record (`records:` key).
    Record(String),
    /// A field of a record.
    Field {
        /// The record's name.
        record: String,
        /// The field's wire name.
        field: String,
    },
    /// A value set (`value_sets:` key).
    ValueSet(String),
    /// A value of a value set.
    Value {
        /// The set's name.
        set: String,
        /// The value's wire spelling.
        value: String,
    },
    /// An endpoint (`endpoints:` key, its id).
    Endpoint(String),
    /// A parameter of an endpoint.
    Param {
        /// The endpoint's id.
        endpoint: String,
        /// The parameter's wire name.
        param: String,
    },
    /// A YAML anchor of one file (`&name`), its aliases (`*name`) the references.
    Anchor {
        /// The file's number in the load.
        file: u32,
        /// The anchor's name.
        name: String,
    },
}

impl Symbol {
    /// The name as written at a place that spells it in full (the record's, the field's, ...).
    pub fn name(&self) -> &str {
        match self {
            Symbol::Record(n) | Symbol::ValueSet(n) | Symbol::Endpoint(n) => n,
            Symbol::Field { field, .. } => field,
            Symbol::Value { value, .. } => value,
            Symbol::Param { param, .. } => param,
            Symbol::Anchor { name, .. } => name,
        }
    }

    /// `Record`, `Record.field`, `ValueSet`, `ValueSet.value`, `endpoint`, `endpoint.param`
    /// (spec-diff's subjects), `&anchor`.
    pub fn qualified(&self) -> String {
        match self {
            Symbol::Record(n) | Symbol::ValueSet(n) | Symbol::Endpoint(n) => n.clone(),
            Symbol::Field { record, field } => format!("{record}.{field}"),
            Symbol::Value { set, value } => format!("{set}.{value}"),
            Symbol::Param { endpoint, param } => format!("{endpoint}.{param}"),
            Symbol::Anchor { name, .. } => format!("&{name}"),
        }
    }

    /// What kind of thing it is, in words (`record`, `value set`, ...).
    pub fn kind_word(&self) -> &'static str {
        match self {
            Symbol::Record(_) => "record",
            Symbol::Field { .. } => "field",
            Symbol::ValueSet(_) => "value set",
            Symbol::Value { .. } => "value",
            Symbol::Endpoint(_) => "endpoint",
            Symbol::Param { .. } => "parameter",
            Symbol::Anchor { .. } => "anchor",
        }
    }
}

/// What a place does with a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// The place defines it (a `records:` key, a parameter's `name:`).
    Definition,
    /// The place names it (`returns:`, a rule's parameter): renaming renames it here.
    Reference,
    /// The place stands for it without spelling its name (a history row's path for its
    /// endpoint): found as a reference, left alone by a rename.
    Mention,
}

/// One place where a name stands.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Occurrence {
    /// Where the name's first character is (inside quotes when it is quoted).
    pub span: Span,
    /// How many characters the name takes there.
    pub len: u32,
    /// What is named.
    pub symbol: Symbol,
    /// Definition, reference or mention.
    pub role: Role,
}

impl Occurrence {
    /// True when the place at `line` and `column` (from 1, in characters) falls on the name
    /// (its last character included, and the place just after it).
    pub fn covers(&self, file: u32, line: u32, column: u32) -> bool {
        self.span.file == file
            && self.span.line == line
            && column >= self.span.column
            && column <= self.span.column + self.len
    }
}

/// Every place of every name of the spec, sorted by place.
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// The places, sorted by file, line and column.
    pub occurrences: Vec<Occurrence>,
    /// What each definition is inside (a field's record, a parameter's endpoint), by the
    /// definition's symbol, for outlines.
    pub definitions: BTreeMap<Symbol, Span>,
}

impl Index {
    /// The index of the files read (a file missing from `files`, such as one that does not
    /// parse, adds nothing). `texts` are all the sources, file `i` of the load being
    /// `texts[i]`: the text tells where a quoted name starts, and holds the anchors.
    pub fn build(files: &[LoadedFile], texts: &[(String, String)]) -> Index {
        let lines: Vec<Vec<&str>> = texts.iter().map(|(_, t)| t.lines().collect()).collect();
        let mut occurrences: Vec<Occurrence> = walk::walk(files)
            .into_iter()
            .map(|raw| {
                let mut o = raw.occurrence;
                if let Some(lines) = lines.get(o.span.file as usize) {
                    o.span = inside_quotes(lines, o.span);
                }
                o.span.column += raw.offset;
                o
            })
            .collect();
        for (file, (_, text)) in texts.iter().enumerate() {
            let file = u32::try_from(file).unwrap_or(u32::MAX);
            occurrences.extend(anchors::occurrences(file, text));
        }
        occurrences.sort();
        occurrences.dedup();
        let definitions = occurrences
            .iter()
            .filter(|o| o.role == Role::Definition)
            .map(|o| (o.symbol.clone(), o.span))
            .collect();
        Index {
            occurrences,
            definitions,
        }
    }

    /// The name at a place (line and column from 1, in characters), if one stands there.
    pub fn at(&self, file: u32, line: u32, column: u32) -> Option<&Occurrence> {
        let start = self
            .occurrences
            .partition_point(|o| (o.span.file, o.span.line) < (file, line));
        self.occurrences[start..]
            .iter()
            .take_while(|o| o.span.file == file && o.span.line == line)
            .filter(|o| o.covers(file, line, column))
            // The innermost: the one starting last (`endpoint` of a rule id covers less).
            .max_by_key(|o| o.span.column)
    }

    /// Every place of `symbol`, definitions first.
    pub fn places<'a>(&'a self, symbol: &'a Symbol) -> impl Iterator<Item = &'a Occurrence> {
        let defs = self
            .occurrences
            .iter()
            .filter(move |o| &o.symbol == symbol && o.role == Role::Definition);
        let refs = self
            .occurrences
            .iter()
            .filter(move |o| &o.symbol == symbol && o.role != Role::Definition);
        defs.chain(refs)
    }

    /// The symbols a rename of `symbol` renames with it: those defined at the same place (a
    /// parameter list or a field shared through a YAML alias defines a parameter of every
    /// endpoint that repeats it), `symbol` first.
    pub fn rename_group(&self, symbol: &Symbol) -> Vec<Symbol> {
        let places: Vec<Span> = self
            .places(symbol)
            .filter(|o| o.role == Role::Definition)
            .map(|o| o.span)
            .collect();
        let mut group = vec![symbol.clone()];
        for o in &self.occurrences {
            if o.role == Role::Definition && places.contains(&o.span) && !group.contains(&o.symbol)
            {
                group.push(o.symbol.clone());
            }
        }
        group
    }

    /// Every place a rename of `symbol` changes: the names (not the mentions) of it and of
    /// the symbols defined at its place ([`Index::rename_group`]), each place once.
    pub fn rename_places(&self, symbol: &Symbol) -> Vec<&Occurrence> {
        let group = self.rename_group(symbol);
        let mut out: Vec<&Occurrence> = self
            .occurrences
            .iter()
            .filter(|o| o.role != Role::Mention && group.contains(&o.symbol))
            .collect();
        out.sort_by_key(|o| (o.span, o.len));
        out.dedup_by_key(|o| (o.span, o.len));
        out
    }

    /// Every symbol defined, of the kind `keep` selects, in order of name.
    pub fn defined(&self, keep: impl Fn(&Symbol) -> bool) -> Vec<&Symbol> {
        self.definitions.keys().filter(|s| keep(s)).collect()
    }
}

/// Parses each file by itself ([`crate::load`]'s reading of one file): what the index of a
/// spec that does not load yet is built from. Item `i` is file `i` of `sources`.
pub fn parse_each(sources: &[(String, String)]) -> Vec<Result<LoadedFile, Vec<Diagnostic>>> {
    sources
        .iter()
        .enumerate()
        .map(|(i, (name, text))| {
            crate::load::parse_one(u32::try_from(i).unwrap_or(u32::MAX), name, text)
        })
        .collect()
}

/// The place of a name whose node starts at `span`: one character further when the node is
/// quoted.
fn inside_quotes(lines: &[&str], span: Span) -> Span {
    let Some(line) = lines.get((span.line as usize).saturating_sub(1)) else {
        return span;
    };
    match line.chars().nth((span.column as usize).saturating_sub(1)) {
        Some('"' | '\'') => Span {
            column: span.column + 1,
            ..span
        },
        _ => span,
    }
}

#[cfg(test)]
mod tests;
