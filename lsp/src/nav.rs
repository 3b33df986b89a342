//! Go to definition, find references, rename, the outline and workspace symbols: read from
//! the spec crate's index of names ([`mrds_spec::index`]).

use std::collections::{BTreeMap, HashMap};

use lsp_types::{
    AnnotatedTextEdit, ChangeAnnotation, DocumentChanges, DocumentSymbol, DocumentSymbolParams,
    DocumentSymbolResponse, GotoDefinitionParams, GotoDefinitionResponse, Location, OneOf,
    OptionalVersionedTextDocumentIdentifier, Position, PrepareRenameResponse, Range,
    ReferenceParams, RenameParams, SymbolKind, TextDocumentEdit, TextDocumentPositionParams,
    TextEdit, Uri, WorkspaceEdit, WorkspaceSymbol, WorkspaceSymbolParams, WorkspaceSymbolResponse,
};
use mrds_spec::index::{Occurrence, Role, Symbol};

use crate::analysis::{Analysis, verdict, verdict_words};
use crate::server::Server;
use crate::text::Lines;

/// The protocol's places of spec places, each file's lines found once.
pub(crate) struct Places<'a> {
    a: &'a Analysis,
    server: &'a Server<'a>,
    lines: HashMap<u32, Lines<'a>>,
}

impl<'a> Places<'a> {
    pub(crate) fn new(server: &'a Server<'a>) -> Self {
        Places {
            a: &server.analysis,
            server,
            lines: HashMap::new(),
        }
    }

    fn lines(&mut self, file: u32) -> Option<&Lines<'a>> {
        if !self.lines.contains_key(&file) {
            let (_, text) = self.a.file(file)?;
            self.lines.insert(file, Lines::new(text));
        }
        self.lines.get(&file)
    }

    /// The range of an occurrence.
    pub(crate) fn range(&mut self, o: &Occurrence) -> Option<Range> {
        let l = self.lines(o.span.file)?;
        Some(l.range(o.span.line, o.span.column, o.len))
    }

    /// The location of an occurrence.
    pub(crate) fn location(&mut self, o: &Occurrence) -> Option<Location> {
        let range = self.range(o)?;
        let (name, _) = self.a.file(o.span.file)?;
        Some(Location::new(self.server.ws.uri_of(name)?, range))
    }
}

/// The file number and spec place (line and column from 1, in characters) of a position.
pub(crate) fn place(server: &Server<'_>, uri: &Uri, p: Position) -> Option<(u32, u32, u32)> {
    let name = server.ws.name_of(uri)?;
    let file = server.analysis.file_id(&name)?;
    let (_, text) = server.analysis.file(file)?;
    let (line, column) = Lines::new(text).place(p);
    Some((file, line, column))
}

/// The name at a position.
pub(crate) fn occurrence_at<'s>(
    server: &'s Server<'_>,
    at: &TextDocumentPositionParams,
) -> Option<&'s Occurrence> {
    let (file, line, column) = place(server, &at.text_document.uri, at.position)?;
    server.analysis.index.at(file, line, column)
}

/// Where the name at the position is defined.
pub fn definition(
    server: &Server<'_>,
    p: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>, String> {
    let Some(o) = occurrence_at(server, &p.text_document_position_params) else {
        return Ok(None);
    };
    let mut places = Places::new(server);
    let found: Vec<Location> = server
        .analysis
        .index
        .places(&o.symbol)
        .filter(|d| d.role == Role::Definition)
        .filter_map(|d| places.location(d))
        .collect();
    Ok(Some(GotoDefinitionResponse::Array(found)))
}

/// Every place of the name at the position.
pub fn references(
    server: &Server<'_>,
    p: ReferenceParams,
) -> Result<Option<Vec<Location>>, String> {
    let Some(o) = occurrence_at(server, &p.text_document_position) else {
        return Ok(None);
    };
    let with_definition = p.context.include_declaration;
    let mut places = Places::new(server);
    let found = server
        .analysis
        .index
        .places(&o.symbol)
        .filter(|r| with_definition || r.role != Role::Definition)
        .filter_map(|r| places.location(r))
        .collect();
    Ok(Some(found))
}

/// The name a rename at the position would change.
pub fn prepare_rename(
    server: &Server<'_>,
    p: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>, String> {
    let Some(o) = occurrence_at(server, &p) else {
        return Ok(None);
    };
    if o.role == Role::Mention {
        return Err(format!(
            "this place stands for {} `{}` without naming it; rename it where it is named",
            o.symbol.kind_word(),
            o.symbol.qualified()
        ));
    }
    let range = Places::new(server).range(o).ok_or("no such place")?;
    Ok(Some(PrepareRenameResponse::RangeWithPlaceholder {
        range,
        placeholder: o.symbol.name().to_owned(),
    }))
}

/// A rename of the name at the position, in every file, as one edit; refused when the
/// renamed spec would not load. The edit says what the rename does to the wire and the
/// generated Rust (spec-diff of the spec before and after it).
pub fn rename(server: &Server<'_>, p: RenameParams) -> Result<Option<WorkspaceEdit>, String> {
    let Some(o) = occurrence_at(server, &p.text_document_position) else {
        return Ok(None);
    };
    let new_name = p.new_name.trim();
    if new_name.is_empty()
        || new_name
            .chars()
            .any(|c| c.is_whitespace() || "\"'`:#{}[],&*!|>%@".contains(c))
    {
        return Err(format!("`{new_name}` cannot be a name in the spec"));
    }
    let symbol = o.symbol.clone();
    let a = &server.analysis;
    let mut places = Places::new(server);
    // Edits by file, and the renamed texts to check.
    let mut by_file: BTreeMap<u32, Vec<(Range, &Occurrence)>> = BTreeMap::new();
    for r in a.index.rename_places(&symbol) {
        if let Some(range) = places.range(r) {
            by_file.entry(r.span.file).or_default().push((range, r));
        }
    }
    let mut sources = a.sources.clone();
    for (file, edits) in &by_file {
        let Some((_, text)) = sources.get_mut(*file as usize) else {
            continue;
        };
        let lines = Lines::new(text);
        let mut spans: Vec<(usize, usize)> = edits
            .iter()
            .map(|(range, _)| (lines.offset(range.start), lines.offset(range.end)))
            .collect();
        spans.sort();
        let mut out = text.clone();
        for (start, end) in spans.into_iter().rev() {
            out.replace_range(start..end, new_name);
        }
        *text = out;
    }
    let what = format!("{} `{}`", symbol.kind_word(), symbol.qualified());
    let note = match (&a.api, mrds_spec::load_sources(&sources)) {
        (_, Err(d)) => {
            return Err(format!(
                "renaming {what} to `{new_name}` leaves a spec that does not load: {}",
                d.0.first().map(ToString::to_string).unwrap_or_default()
            ));
        }
        (Some(before), Ok(after)) => {
            let findings = verdict(before, &after);
            if findings.is_empty() {
                "nothing on the wire or in the generated Rust changes".to_owned()
            } else {
                let words: Vec<String> = findings
                    .iter()
                    .map(|(f, s)| {
                        format!("{} `{}`: {}", f.kind.id(), f.subject, verdict_words(f, s))
                    })
                    .collect();
                words.join("; ")
            }
        }
        (None, Ok(_)) => "the spec did not load before the rename; it does after".to_owned(),
    };
    let breaking = note.contains("breaking");
    let label = format!("rename {what} to `{new_name}`");
    let mut changes = Vec::new();
    for (file, edits) in by_file {
        let Some((name, _)) = a.file(file) else {
            continue;
        };
        let Some(uri) = server.ws.uri_of(name) else {
            continue;
        };
        changes.push(TextDocumentEdit {
            text_document: OptionalVersionedTextDocumentIdentifier {
                uri,
                version: server.ws.version(name),
            },
            edits: edits
                .into_iter()
                .map(|(range, _)| {
                    OneOf::Right(AnnotatedTextEdit {
                        text_edit: TextEdit::new(range, new_name.to_owned()),
                        annotation_id: "rename".into(),
                    })
                })
                .collect(),
        });
    }
    let annotation = ChangeAnnotation {
        label,
        needs_confirmation: Some(breaking),
        description: Some(note.clone()),
    };
    server.notify_message(
        if breaking {
            lsp_types::MessageType::WARNING
        } else {
            lsp_types::MessageType::INFO
        },
        format!("rename {what} to `{new_name}`: {note}"),
    );
    Ok(Some(WorkspaceEdit {
        changes: None,
        document_changes: Some(DocumentChanges::Edits(changes)),
        change_annotations: Some([("rename".to_owned(), annotation)].into_iter().collect()),
    }))
}

fn kind(symbol: &Symbol) -> SymbolKind {
    match symbol {
        Symbol::Record(_) => SymbolKind::STRUCT,
        Symbol::Field { .. } => SymbolKind::FIELD,
        Symbol::ValueSet(_) => SymbolKind::ENUM,
        Symbol::Value { .. } => SymbolKind::ENUM_MEMBER,
        Symbol::Endpoint(_) => SymbolKind::FUNCTION,
        Symbol::Param { .. } => SymbolKind::VARIABLE,
        Symbol::Anchor { .. } => SymbolKind::CONSTANT,
    }
}

/// The parent of a symbol in an outline.
fn parent(symbol: &Symbol) -> Option<Symbol> {
    match symbol {
        Symbol::Field { record, .. } => Some(Symbol::Record(record.clone())),
        Symbol::Value { set, .. } => Some(Symbol::ValueSet(set.clone())),
        Symbol::Param { endpoint, .. } => Some(Symbol::Endpoint(endpoint.clone())),
        _ => None,
    }
}

/// The outline of a file: its endpoints, records and value sets, with their parameters,
/// fields and values.
pub fn document_symbols(
    server: &Server<'_>,
    p: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>, String> {
    let Some(name) = server.ws.name_of(&p.text_document.uri) else {
        return Ok(None);
    };
    let Some(file) = server.analysis.file_id(&name) else {
        return Ok(None);
    };
    let mut places = Places::new(server);
    let defs: Vec<&Occurrence> = server
        .analysis
        .index
        .occurrences
        .iter()
        .filter(|o| o.span.file == file && o.role == Role::Definition)
        .filter(|o| !matches!(o.symbol, Symbol::Anchor { .. }))
        .collect();
    let mut top: Vec<(Symbol, DocumentSymbol)> = Vec::new();
    let mut children: BTreeMap<Symbol, Vec<DocumentSymbol>> = BTreeMap::new();
    for o in defs {
        let Some(range) = places.range(o) else {
            continue;
        };
        #[allow(deprecated)]
        let symbol = DocumentSymbol {
            name: o.symbol.name().to_owned(),
            detail: Some(o.symbol.kind_word().to_owned()),
            kind: kind(&o.symbol),
            tags: None,
            deprecated: None,
            range,
            selection_range: range,
            children: None,
        };
        match parent(&o.symbol) {
            Some(p) => children.entry(p).or_default().push(symbol),
            None => top.push((o.symbol.clone(), symbol)),
        }
    }
    let out = top
        .into_iter()
        .map(|(s, mut d)| {
            if let Some(c) = children.remove(&s) {
                // The symbol's range covers its children.
                if let Some(last) = c.last() {
                    d.range.end = last.range.end;
                }
                d.children = Some(c);
            }
            d
        })
        .collect();
    Ok(Some(DocumentSymbolResponse::Nested(out)))
}

/// The endpoints, records and value sets whose name holds the query (any case).
pub fn workspace_symbols(
    server: &Server<'_>,
    p: WorkspaceSymbolParams,
) -> Result<Option<WorkspaceSymbolResponse>, String> {
    let query = p.query.to_lowercase();
    let mut places = Places::new(server);
    let found = server
        .analysis
        .index
        .occurrences
        .iter()
        .filter(|o| o.role == Role::Definition)
        .filter(|o| {
            matches!(
                o.symbol,
                Symbol::Record(_) | Symbol::ValueSet(_) | Symbol::Endpoint(_)
            )
        })
        .filter(|o| o.symbol.name().to_lowercase().contains(&query))
        .filter_map(|o| {
            Some(WorkspaceSymbol {
                name: o.symbol.name().to_owned(),
                kind: kind(&o.symbol),
                tags: None,
                container_name: Some(o.symbol.kind_word().to_owned()),
                location: OneOf::Left(places.location(o)?),
                data: None,
            })
        })
        .collect();
    Ok(Some(WorkspaceSymbolResponse::Nested(found)))
}
