//! Code actions (the checker's "did you mean" fixes, the history row that acknowledges a
//! breaking change), the code lens and the command of the generated code's preview.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeLens, CodeLensParams,
    Command, Diagnostic, ExecuteCommandParams, MessageType, Position, Range, ShowDocumentParams,
    TextEdit, WorkspaceEdit,
};
use mrds_diff::{Finding, Status};
use mrds_spec::Api;
use serde_json::Value;

use crate::analysis::{SPEC, SPEC_DIFF};
use crate::server::{Server, Task};
use crate::text::{self, Lines};

/// The command that shows the diff of the generated crates for the current buffers.
pub const PREVIEW: &str = "mrds.previewGeneratedCode";

/// The fixes offered for the diagnostics of a range.
pub fn code_actions(
    server: &Server<'_>,
    p: CodeActionParams,
) -> Result<Option<Vec<CodeActionOrCommand>>, String> {
    let uri = p.text_document.uri.clone();
    let Some(name) = server.ws.name_of(&uri) else {
        return Ok(None);
    };
    let text = server.ws.text(&name).unwrap_or_default();
    let mut out = Vec::new();
    for d in &p.context.diagnostics {
        match d.source.as_deref() {
            Some(SPEC) => {
                if let Some(fix) = did_you_mean(text, d) {
                    out.push(CodeActionOrCommand::CodeAction(CodeAction {
                        title: format!("Replace with `{}`", fix.new_text),
                        kind: Some(CodeActionKind::QUICKFIX),
                        diagnostics: Some(vec![d.clone()]),
                        edit: Some(edit(&uri, vec![fix])),
                        is_preferred: Some(true),
                        ..CodeAction::default()
                    }));
                }
            }
            Some(SPEC_DIFF) => out.extend(acknowledge(server, d)),
            _ => {}
        }
    }
    Ok(Some(out))
}

fn edit(uri: &lsp_types::Uri, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }
}

/// The checker's "did you mean `x`?" as an edit of the word the diagnostic stands at.
fn did_you_mean(text: &str, d: &Diagnostic) -> Option<TextEdit> {
    let hint = d.data.as_ref()?.get("hint")?.as_str()?;
    let rest = hint.strip_prefix("did you mean `")?;
    let new_text = rest.split('`').next()?.to_owned();
    let lines = Lines::new(text);
    let line = lines.line(d.range.start.line as usize);
    let (_, start) = lines.place(d.range.start);
    let (_, end) = lines.place(d.range.end);
    let word: Vec<char> = line
        .chars()
        .skip(start as usize - 1)
        .take((end - start) as usize)
        .collect();
    let mut first = 0;
    let mut last = word.len();
    if word.first().is_some_and(|c| *c == '"' || *c == '\'') {
        first += 1;
        last = last.saturating_sub(1).max(first);
    }
    while last > first && matches!(word[last - 1], ':' | '"' | '\'') {
        last -= 1;
    }
    let range = lines.range(
        d.range.start.line + 1,
        start + first as u32,
        (last - first) as u32,
    );
    Some(TextEdit::new(range, new_text))
}

/// The actions acknowledging the breaking change a spec-diff diagnostic reports: a row of the
/// history (a new entry, or the newest one when the base does not have it yet).
fn acknowledge(server: &Server<'_>, d: &Diagnostic) -> Vec<CodeActionOrCommand> {
    let (Some(api), Some((base, _))) = (&server.analysis.api, &server.base) else {
        return Vec::new();
    };
    let Some(data) = &d.data else {
        return Vec::new();
    };
    let check = data
        .get("check")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let subject = data
        .get("subject")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let Some((finding, _)) = server.analysis.findings.iter().find(|(f, s)| {
        f.kind.id() == check && f.subject == subject && *s == Status::Unacknowledged
    }) else {
        return Vec::new();
    };
    let rows = mrds_diff::policy::endpoint_rows(finding, base, api);
    let mut acks: Vec<(String, Row)> = Vec::new();
    if rows.is_empty() {
        acks.push((
            format!("Acknowledge `{check}` in the history"),
            Row::Breaking(check.to_owned()),
        ));
        acks.push((
            format!("Acknowledge `{subject}` in the history"),
            Row::Breaking(subject.to_owned()),
        ));
    } else {
        let lines: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    "{{ action: {}, method: {}, path: \"{}\" }}",
                    mrds_diff::policy::action_word(r.action),
                    r.method,
                    r.path
                )
            })
            .collect();
        acks.push((
            format!(
                "Add the history row{} for `{subject}`",
                if lines.len() == 1 { "" } else { "s" }
            ),
            Row::Changes(lines),
        ));
    }
    acks.into_iter()
        .filter_map(|(title, row)| {
            let (uri, edit) = history_edit(server, api, base, finding, &row)?;
            Some(CodeActionOrCommand::CodeAction(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![d.clone()]),
                edit: Some(self::edit(&uri, vec![edit])),
                ..CodeAction::default()
            }))
        })
        .collect()
}

/// What a history row adds.
enum Row {
    /// A name of `breaking:`.
    Breaking(String),
    /// Items of `changes:`, each a flow mapping.
    Changes(Vec<String>),
}

/// The edit adding `row` to the newest history entry when the base lacks it, else a new
/// entry above the newest.
fn history_edit(
    server: &Server<'_>,
    api: &Api,
    base: &Api,
    _finding: &Finding,
    row: &Row,
) -> Option<(lsp_types::Uri, TextEdit)> {
    let newest = api.history.first()?;
    let file = &newest.at.file;
    let uri = server.ws.uri_of(file)?;
    let text = server.analysis.text(file)?;
    let lines = Lines::new(text);
    let key_indent = newest.at.column - 1;
    let pad = " ".repeat(key_indent);
    let start = newest.at.line - 1;
    let is_new = !base
        .history
        .iter()
        .any(|h| h.date == newest.date && h.versions == newest.versions);
    if !is_new {
        let dash = " ".repeat(key_indent.saturating_sub(2));
        let mut entry = format!(
            "{dash}- date: {}\n{pad}versions: [{}] # the provider's release: complete\n",
            today(),
            next_version(newest.versions.first().map(String::as_str))
        );
        match row {
            Row::Breaking(name) => entry.push_str(&format!("{pad}breaking: [{name}]\n")),
            Row::Changes(items) => {
                entry.push_str(&format!("{pad}changes:\n"));
                for i in items {
                    entry.push_str(&format!("{pad}  - {i}\n"));
                }
            }
        }
        let at = Position::new(start as u32, 0);
        return Some((uri, TextEdit::new(Range::new(at, at), entry)));
    }
    // The entry's lines: below its first, indented at least as its keys.
    let mut end = start + 1;
    while end < lines.count() {
        let l = lines.line(end);
        let indent = l.len() - l.trim_start().len();
        if !l.trim().is_empty() && indent < key_indent {
            break;
        }
        end += 1;
    }
    let key = match row {
        Row::Breaking(_) => "breaking:",
        Row::Changes(_) => "changes:",
    };
    let found = (start..end).find(|&i| {
        lines
            .line(i)
            .trim_start()
            .trim_start_matches("- ")
            .starts_with(key)
    });
    let insert = |line: usize, text: String| {
        let at = Position::new(line as u32, 0);
        Some((uri.clone(), TextEdit::new(Range::new(at, at), text)))
    };
    match (row, found) {
        (Row::Breaking(name), Some(i)) if lines.line(i).contains('[') => {
            let l = lines.line(i);
            let close = l.rfind(']')?;
            let empty = l[..close].trim_end().ends_with('[');
            let at = text::Lines::new(text)
                .position(i as u32 + 1, l[..close].chars().count() as u32 + 1);
            let new_text = if empty {
                name.clone()
            } else {
                format!(", {name}")
            };
            Some((uri, TextEdit::new(Range::new(at, at), new_text)))
        }
        (_, Some(i)) => {
            // A block list: after its last item.
            let mut last = i;
            while last + 1 < end && lines.line(last + 1).trim_start().starts_with("- ") {
                last += 1;
            }
            let item = match row {
                Row::Breaking(name) => format!("{pad}  - {name}\n"),
                Row::Changes(items) => items.iter().map(|i| format!("{pad}  - {i}\n")).collect(),
            };
            insert(last + 1, item)
        }
        (Row::Breaking(name), None) => insert(end, format!("{pad}breaking: [{name}]\n")),
        (Row::Changes(items), None) => {
            let mut t = format!("{pad}changes:\n");
            for i in items {
                t.push_str(&format!("{pad}  - {i}\n"));
            }
            insert(end, t)
        }
    }
}

/// Today's date, `YYYY-MM-DD` (UTC).
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The release after `v1.2.3`: `v1.2.4` (a placeholder for the provider's tag).
fn next_version(v: Option<&str>) -> String {
    let parts: Option<Vec<u64>> = v
        .and_then(|v| v.strip_prefix('v'))
        .map(|v| {
            v.split('.')
                .map(|p| p.parse().ok())
                .collect::<Option<Vec<u64>>>()
        })
        .unwrap_or(None);
    match parts.as_deref() {
        Some([a, b, c]) => format!("v{a}.{b}.{}", c + 1),
        _ => "v0.0.1".to_owned(),
    }
}

/// A lens at the top of every spec file: the generated code's preview.
pub fn code_lenses(
    server: &Server<'_>,
    p: CodeLensParams,
) -> Result<Option<Vec<CodeLens>>, String> {
    if server.ws.name_of(&p.text_document.uri).is_none() {
        return Ok(None);
    }
    Ok(Some(vec![CodeLens {
        range: Range::default(),
        command: Some(Command {
            title: "Preview the generated code (diff)".into(),
            command: PREVIEW.into(),
            arguments: None,
        }),
        data: None,
    }]))
}

/// Runs a command.
pub fn execute(server: &Server<'_>, p: ExecuteCommandParams) -> Result<Value, String> {
    match p.command.as_str() {
        PREVIEW => preview(server),
        other => Err(format!("mrds-lsp has no command `{other}`")),
    }
}

/// The diff of the generated crates for the current buffers, without writing them: the
/// buffers are written to a scratch spec directory under `target/mrds-lsp/`, and
/// `cargo xtask codegen --preview DIR` (the emitters, in xtask) compares what it generates
/// with the tree. Runs in the background; the diff opens when ready
/// (`target/mrds-lsp/generated.diff`).
fn preview(server: &Server<'_>) -> Result<Value, String> {
    let root = server.root.clone();
    let work = root.join("target").join("mrds-lsp");
    let dir = work.join("preview").join("spec");
    let _ = std::fs::remove_dir_all(&dir);
    for (name, text) in &server.analysis.sources {
        let rel = name.split_once('/').map_or(name.as_str(), |(_, r)| r);
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::write(&path, text).map_err(|e| e.to_string())?;
    }
    let out_path = work.join("generated.diff");
    let tasks = server.tasks.0.clone();
    let shown = out_path.display().to_string();
    std::thread::spawn(move || {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let run = std::process::Command::new(cargo)
            .current_dir(&root)
            .args(["xtask", "codegen", "--preview"])
            .arg(&dir)
            .stdin(std::process::Stdio::null())
            .output();
        let (text, summary) = match run {
            Ok(out) => {
                let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
                let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
                let summary = stdout
                    .lines()
                    .last()
                    .unwrap_or("codegen --preview ended")
                    .to_owned();
                (format!("{stdout}{stderr}"), summary)
            }
            Err(e) => (String::new(), format!("cannot run cargo xtask: {e}")),
        };
        let _ = std::fs::write(&out_path, &text);
        let _ = tasks.send(Task::Message(
            MessageType::INFO,
            format!("mrds-lsp: {summary}"),
        ));
        if let Some(uri) = text::uri_of(&out_path) {
            let params = ShowDocumentParams {
                uri,
                external: Some(false),
                take_focus: Some(true),
                selection: None,
            };
            let request = lsp_server::Request::new(
                0.into(),
                <lsp_types::request::ShowDocument as lsp_types::request::Request>::METHOD
                    .to_owned(),
                params,
            );
            let _ = tasks.send(Task::Request(request));
        }
    });
    Ok(Value::String(format!(
        "the generated code's diff is being made with `cargo xtask codegen --preview`; it opens when ready ({})",
        shown
    )))
}
