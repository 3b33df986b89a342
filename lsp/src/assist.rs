//! Completion of names where names go, and hover with the resolved facts of the model.
//!
//! Completion reads where the cursor is from the text around it (the buffer may be half
//! typed, so no parse is asked for): the key before the cursor, the section and the entry
//! (endpoint, record) the line belongs to, by indentation. The names offered are the index's
//! definitions; the types of parameters and fields come from the last model that checked.

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse, Hover, HoverContents,
    HoverParams, MarkupContent, MarkupKind,
};
use mrds_spec::Api;
use mrds_spec::index::{Role, Symbol};
use mrds_spec::model::{Endpoint, Operand, Provenance, TypeRef, ValueType};

use crate::server::Server;
use crate::text::Lines;

/// Where the cursor stands: the key it is the value of, the section and the entry.
#[derive(Debug, Default, PartialEq, Eq)]
struct Context {
    section: String,
    entry: String,
    key: String,
    /// The line's text before the cursor.
    before: String,
    /// The lines of the entry up to the cursor.
    entry_text: String,
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The key of a `key:` line (after a `- ` or `{ `).
fn key_of(text: &str) -> Option<&str> {
    let t = text.trim_start_matches([' ', '-', '{']).trim_start();
    let (key, _) = t.split_once(':')?;
    key.chars()
        .all(|c| c.is_alphanumeric() || c == '_')
        .then_some(key)
}

fn context(text: &str, line: usize, column_chars: usize) -> Context {
    let lines = Lines::new(text);
    let current = lines.line(line);
    let before: String = current.chars().take(column_chars).collect();
    let mut cx = Context {
        before: before.clone(),
        ..Context::default()
    };
    // The key: the last `key:` before the cursor on the line, else the nearest line above
    // with less indentation that ends in `key:` (a block list's key).
    let mut last_key = None;
    for (i, _) in before.match_indices(':') {
        let head = &before[..i];
        let start = head
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |s| s + 1);
        if start < i {
            last_key = Some(head[start..].to_owned());
        }
    }
    let own = indent(current);
    let mut entry_lines = vec![before.clone()];
    for l in (0..line).rev() {
        let above = lines.line(l);
        if above.trim().is_empty() || above.trim_start().starts_with('#') {
            continue;
        }
        let i = indent(above);
        if last_key.is_none() && i < own && above.trim_end().ends_with(':') {
            last_key = key_of(above).map(str::to_owned);
        }
        if cx.entry.is_empty() {
            entry_lines.push(above.to_owned());
        }
        if i == 2 && cx.entry.is_empty() {
            cx.entry = key_of(above).unwrap_or_default().to_owned();
        }
        if i == 0 {
            cx.section = key_of(above).unwrap_or_default().to_owned();
            break;
        }
    }
    if own == 0 {
        cx.section.clear();
    }
    entry_lines.reverse();
    cx.entry_text = entry_lines.join("\n");
    cx.key = last_key.unwrap_or_default();
    cx
}

/// The value of `key:` in the nearest item around the cursor (the current line, then the
/// lines above in the entry).
fn nearby_value(cx: &Context, key: &str) -> Option<String> {
    let pattern = format!("{key}:");
    cx.entry_text.lines().rev().find_map(|l| {
        let at = l.find(&pattern)?;
        let value = l[at + pattern.len()..].trim_start();
        let end = value
            .find(|c: char| c == ',' || c == '}' || c.is_whitespace())
            .unwrap_or(value.len());
        let v = value[..end].trim_matches(['"', '\'']);
        (!v.is_empty()).then(|| v.to_owned())
    })
}

fn item(label: &str, kind: CompletionItemKind, detail: &str) -> CompletionItem {
    CompletionItem {
        label: label.to_owned(),
        kind: Some(kind),
        detail: Some(detail.to_owned()),
        ..CompletionItem::default()
    }
}

/// Names that may stand where the cursor is.
pub fn completion(
    server: &Server<'_>,
    p: CompletionParams,
) -> Result<Option<CompletionResponse>, String> {
    let at = &p.text_document_position;
    let Some(name) = server.ws.name_of(&at.text_document.uri) else {
        return Ok(None);
    };
    let Some(text) = server.ws.text(&name) else {
        return Ok(None);
    };
    let lines = Lines::new(text);
    let (line, column) = lines.place(at.position);
    let cx = context(text, line as usize - 1, column as usize - 1);
    let index = &server.analysis.index;
    let api = server.analysis.api.as_ref().or(server.last_api.as_ref());
    let defined = |keep: &dyn Fn(&Symbol) -> bool| index.defined(|s| keep(s));
    let mut out = Vec::new();
    let records = |out: &mut Vec<CompletionItem>| {
        for s in defined(&|s| matches!(s, Symbol::Record(_))) {
            out.push(item(s.name(), CompletionItemKind::STRUCT, "record"));
        }
    };
    let sets = |out: &mut Vec<CompletionItem>| {
        for s in defined(&|s| matches!(s, Symbol::ValueSet(_))) {
            out.push(item(s.name(), CompletionItemKind::ENUM, "value set"));
        }
    };
    let params = |out: &mut Vec<CompletionItem>, endpoint: &str| {
        for s in defined(&|s| matches!(s, Symbol::Param { endpoint: e, .. } if e == endpoint)) {
            out.push(item(s.name(), CompletionItemKind::VARIABLE, "parameter"));
        }
    };
    let fields = |out: &mut Vec<CompletionItem>, record: &str| {
        for s in defined(&|s| matches!(s, Symbol::Field { record: r, .. } if r == record)) {
            out.push(item(s.name(), CompletionItemKind::FIELD, "field"));
        }
    };
    let values = |out: &mut Vec<CompletionItem>, set: &str| {
        for s in defined(&|s| matches!(s, Symbol::Value { set: v, .. } if v == set)) {
            out.push(item(s.name(), CompletionItemKind::ENUM_MEMBER, set));
        }
    };
    let returns = |endpoint: &str| {
        api.and_then(|api| api.endpoints.iter().find(|e| e.id == endpoint))
            .and_then(|e| api.map(|api| api.returns(e).spec_name.clone()))
    };
    let in_samples = cx.section == "samples";
    let in_endpoints = cx.section == "endpoints";
    match cx.key.as_str() {
        "returns" | "body" => records(&mut out),
        "type" if in_endpoints => {
            for t in ["string", "integer", "boolean"] {
                out.push(item(t, CompletionItemKind::KEYWORD, "scalar type"));
            }
            sets(&mut out);
        }
        "type" => {
            for t in ["string", "integer", "number", "boolean", "any", "ErrorCode"] {
                out.push(item(t, CompletionItemKind::KEYWORD, "scalar type"));
            }
            sets(&mut out);
            records(&mut out);
        }
        "format" => {
            for f in mrds_spec::ast::Format::all() {
                out.push(item(f.name(), CompletionItemKind::KEYWORD, f.description()));
            }
        }
        "default" if in_endpoints => {
            if let Some(ty) = nearby_value(&cx, "type") {
                values(&mut out, &ty);
            }
        }
        "param" | "needs" | "before" | "after" | "from" | "to" | "limit" | "offset" | "lookup"
        | "direction" | "at_least_one" | "first_of" | "contains" | "latest_without" | "by"
        | "when"
            if in_endpoints || in_samples =>
        {
            params(&mut out, &cx.entry);
        }
        "field" if in_endpoints || in_samples => {
            if let Some(r) = returns(&cx.entry) {
                fields(&mut out, &r);
            }
        }
        "records" | "echo" if in_samples => {
            if let Some(r) = returns(&cx.entry) {
                fields(&mut out, &r);
            }
        }
        key if in_samples => {
            // A value of a sample record's field of a value set.
            let record = returns(&cx.entry);
            let set = api.zip(record).and_then(|(api, record)| {
                let r = api.records.iter().find(|r| r.spec_name == record)?;
                let f = r.fields.iter().find(|f| f.wire == key)?;
                match f.ty {
                    TypeRef::ValueSet(id) => Some(api.value_set(id).spec_name.clone()),
                    _ => None,
                }
            });
            match set {
                Some(set) => values(&mut out, &set),
                None => params(&mut out, &cx.entry),
            }
        }
        _ => {}
    }
    Ok(Some(CompletionResponse::Array(out)))
}

/// The resolved facts of the name at the position.
pub fn hover(server: &Server<'_>, p: HoverParams) -> Result<Option<Hover>, String> {
    let Some(o) = crate::nav::occurrence_at(server, &p.text_document_position_params) else {
        return Ok(None);
    };
    let api = server.analysis.api.as_ref().or(server.last_api.as_ref());
    let text = match (api, &o.symbol) {
        (_, Symbol::Anchor { file, name }) => {
            let def = server
                .analysis
                .index
                .places(&o.symbol)
                .find(|d| d.role == Role::Definition);
            let line = def.and_then(|d| {
                let (_, text) = server.analysis.file(*file)?;
                Some(
                    Lines::new(text)
                        .line(d.span.line as usize - 1)
                        .trim()
                        .to_owned(),
                )
            });
            format!(
                "YAML anchor `&{name}`\n\n```yaml\n{}\n```",
                line.unwrap_or_default()
            )
        }
        (None, s) => format!(
            "{} `{}` (the spec does not check yet: no resolved facts)",
            s.kind_word(),
            s.qualified()
        ),
        (Some(api), s) => describe(api, s).unwrap_or_else(|| {
            format!(
                "{} `{}`: not in the last spec that checked",
                s.kind_word(),
                s.qualified()
            )
        }),
    };
    let range = crate::nav::Places::new(server).range(o);
    Ok(Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range,
    }))
}

fn provenance(p: &Provenance) -> String {
    match p {
        Provenance::Documented => "documented by the interface description".to_owned(),
        Provenance::Assumed(why) => format!("**assumed**: {why}"),
    }
}

fn value_type(t: &ValueType) -> String {
    match t {
        ValueType::Integer(i) => {
            let mut s = "integer".to_owned();
            match (i.min, i.max) {
                (Some(a), Some(b)) => s.push_str(&format!(", {a} to {b}")),
                (Some(a), None) => s.push_str(&format!(", at least {a}")),
                (None, Some(b)) => s.push_str(&format!(", at most {b}")),
                (None, None) => {}
            }
            if i.format.is_some() {
                s.push_str(", Unix seconds");
            }
            s
        }
        ValueType::String(st) => {
            let mut s = "string".to_owned();
            if let Some(f) = st.format {
                s.push_str(&format!(", format `{}`", f.name()));
            }
            if let Some(doc) = &st.pattern_doc {
                s.push_str(&format!(", {doc}"));
            } else if st.pattern.is_some() {
                s.push_str(", with a pattern");
            }
            s
        }
        ValueType::Boolean => "boolean".to_owned(),
        ValueType::Enum(e) => format!("value set `{}` ({})", e.name, e.values.join(", ")),
    }
}

fn type_ref(api: &Api, t: &TypeRef) -> String {
    match t {
        TypeRef::String => "string".into(),
        TypeRef::Integer => "integer".into(),
        TypeRef::Number => "number".into(),
        TypeRef::Boolean => "boolean".into(),
        TypeRef::Any => "any".into(),
        TypeRef::Record(id) => format!("record `{}`", api.record(*id).spec_name),
        TypeRef::ValueSet(id) => format!("value set `{}`", api.value_set(*id).spec_name),
        TypeRef::ErrorCode => "ErrorCode".into(),
        TypeRef::Records => "records".into(),
    }
}

fn operand_name(api: &Api, e: &Endpoint, op: &Operand) -> String {
    match op {
        Operand::Param(id) => e.param(*id).wire.clone(),
        Operand::Field(id) => match &e.body {
            Some(b) => format!("body.{}", api.record(b.record).field(*id).wire),
            None => "body.?".into(),
        },
    }
}

fn describe(api: &Api, s: &Symbol) -> Option<String> {
    Some(match s {
        Symbol::Record(name) => {
            let r = api.records.iter().find(|r| &r.spec_name == name)?;
            let mut t = format!(
                "**record `{name}`** (Rust `mrds_model::records::{}`)\n\n{}\n\n{}\n\n",
                r.name,
                r.doc,
                provenance(&r.provenance)
            );
            for f in &r.fields {
                t.push_str(&format!(
                    "- `{}`: {}{}{}\n",
                    f.wire,
                    type_ref(api, &f.ty),
                    if f.array { ", array" } else { "" },
                    if f.optional { ", optional" } else { "" }
                ));
            }
            t
        }
        Symbol::Field { record, field } => {
            let r = api.records.iter().find(|r| &r.spec_name == record)?;
            let f = r.fields.iter().find(|f| &f.wire == field)?;
            format!(
                "**field `{record}.{field}`**: {}{}{} (Rust `{}`)\n\n{}\n\n{}",
                type_ref(api, &f.ty),
                if f.array { ", array" } else { "" },
                if f.optional { ", optional" } else { "" },
                f.ident,
                f.doc,
                provenance(&f.provenance)
            )
        }
        Symbol::ValueSet(name) => {
            let v = api.value_sets.iter().find(|v| &v.spec_name == name)?;
            let values: Vec<String> = v.values.iter().map(|x| format!("`{}`", x.wire)).collect();
            format!(
                "**value set `{name}`** (Rust `{}`, {})\n\n{}\n\nvalues: {}\n\n{}",
                v.name,
                if v.tolerant {
                    "tolerant: an unknown value decodes into `Unknown`"
                } else {
                    "strict"
                },
                v.doc,
                values.join(", "),
                provenance(&v.provenance)
            )
        }
        Symbol::Value { set, value } => {
            let v = api.value_sets.iter().find(|v| &v.spec_name == set)?;
            let x = v.values.iter().find(|x| &x.wire == value)?;
            format!(
                "**value `{value}`** of `{set}` (Rust `{}::{}`)\n\n{}\n\n{}",
                v.name,
                x.ident,
                x.doc.clone().unwrap_or_default(),
                provenance(&x.provenance)
            )
        }
        Symbol::Endpoint(id) => {
            let e = api.endpoints.iter().find(|e| &e.id == id)?;
            let r = api.returns(e);
            let mut t = format!(
                "**endpoint `{id}`**: `{} {}{}`\n\n{}\n\n{}\n\nGenerated Rust:\n```rust\n// mrds-client\nasync fn {}(&self, params: &mrds_model::params::{}) -> Result<Response<mrds_model::records::{}>, Error>\n// mrds-server: the `Api` trait's `{}`; endpoint table `{}`\n```\n",
                e.method,
                api.base_path,
                e.path,
                e.summary,
                provenance(&e.provenance),
                e.names.method,
                e.names.params_type,
                r.name,
                e.names.method,
                e.names.constant
            );
            if e.paging.as_ref().is_some_and(|p| p.offset.is_some()) {
                t.push_str(&format!("\npaging stream: `{}`\n", e.names.stream));
            }
            if let Some(removed) = &e.removed {
                t.push_str(&format!(
                    "\nremoved on {} ({})\n",
                    removed.date, removed.version
                ));
            }
            t
        }
        Symbol::Param { endpoint, param } => {
            let e = api.endpoints.iter().find(|e| &e.id == endpoint)?;
            let p = e.params.iter().find(|p| &p.wire == param)?;
            let mut t = format!(
                "**parameter `{endpoint}.{param}`** ({}{}): {}{}\n\n",
                match p.location {
                    mrds_spec::ast::ParamLocation::Query => "query",
                    mrds_spec::ast::ParamLocation::Path => "path",
                },
                if p.required { ", required" } else { "" },
                value_type(&p.ty),
                match &p.list {
                    Some(l) => format!(
                        ", a list ({:?}, items {:?} to {:?})",
                        l.style, l.min_items, l.max_items
                    ),
                    None => String::new(),
                }
            );
            if let Some(d) = &p.default {
                t.push_str(&format!("default: `{}`\n\n", d.wire()));
            }
            t.push_str(&format!(
                "{}\n\n{}\n\nRust: `{}.{}`\n",
                p.doc,
                provenance(&p.provenance),
                e.names.params_type,
                p.ident
            ));
            let rules: Vec<String> = e
                .rules
                .iter()
                .filter(|r| r.operands().contains(&Operand::Param(p.id)))
                .map(|r| {
                    let named = r.requirement.map(|op| operand_name(api, e, &op));
                    format!("- `{}`: {}", r.id, named.describe())
                })
                .collect();
            if !rules.is_empty() {
                t.push_str(&format!("\nrules:\n{}\n", rules.join("\n")));
            }
            t
        }
        Symbol::Anchor { .. } => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_context_is_the_key_the_section_and_the_entry() {
        let text = "endpoints:\n  bars:\n    params:\n      - { name: x, type: Si";
        let cx = context(text, 3, 40);
        assert_eq!(
            (cx.section.as_str(), cx.entry.as_str(), cx.key.as_str()),
            ("endpoints", "bars", "type")
        );
        let text = "samples:\n  bars:\n    first_of:\n      - ";
        let cx = context(text, 3, 8);
        assert_eq!(
            (cx.section.as_str(), cx.entry.as_str(), cx.key.as_str()),
            ("samples", "bars", "first_of")
        );
    }
}
