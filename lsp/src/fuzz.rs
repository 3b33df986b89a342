//! The property the `lsp_edits` fuzz target (`fuzz/`) and the default test run check: a
//! sequence of edits, whatever their text, gets diagnostics or nothing, never a panic or a
//! hang; and after it, the next valid edit is answered as a fresh server answers it.
//!
//! The server runs on the small valid spec of the broken-spec corpus
//! (`tests/broken/_valid_base/`), in memory.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};

use crate::server::Server;
use crate::workspace::Workspace;

/// The valid spec's files, by name.
pub const VALID: [(&str, &str); 3] = [
    (
        "spec/api.yaml",
        include_str!("../../tests/broken/_valid_base/api.yaml"),
    ),
    (
        "spec/samples.yaml",
        include_str!("../../tests/broken/_valid_base/samples.yaml"),
    ),
    (
        "spec/service.yaml",
        include_str!("../../tests/broken/_valid_base/service.yaml"),
    ),
];

/// How long one answer may take before the property fails as a hang.
const PATIENCE: Duration = Duration::from_secs(30);

/// Hostile texts an edit may lay in.
fn template(n: u8, valid: &str) -> String {
    match n % 6 {
        // An alias bomb: ten levels of nine aliases.
        0 => {
            let mut t = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
            for i in 1..10 {
                let p = format!("*a{}", i - 1);
                t.push_str(&format!("a{i}: &a{i} [{}]\n", vec![p; 9].join(", ")));
            }
            t
        }
        // Deep nesting.
        1 => format!("records: {}{}\n", "[".repeat(300), "]".repeat(300)),
        // An unterminated quote.
        2 => valid.replacen("doc: ", "doc: \"never closed ", 1),
        // A tab in the indentation.
        3 => valid.replacen("\n  ", "\n\t ", 1),
        // Two documents.
        4 => format!("{valid}---\n{valid}"),
        // A key given twice.
        _ => format!("{valid}{valid}"),
    }
}

/// One edit of the input: a file and its new text.
fn edits(data: &[u8]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for chunk in data.split(|b| *b == 0xFF).take(32) {
        let [head, rest @ ..] = chunk else { continue };
        let file = usize::from(head % 3);
        let valid = VALID[file].1;
        let at = |b: &[u8]| {
            let n = b
                .iter()
                .take(2)
                .fold(0usize, |a, b| a * 256 + usize::from(*b));
            let mut i = n % (valid.len() + 1);
            while !valid.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let text = match (head / 3) % 5 {
            // Any bytes, as text.
            0 => String::from_utf8_lossy(rest).into_owned(),
            // Bytes typed into the valid text.
            1 => {
                let i = at(rest);
                let typed = String::from_utf8_lossy(rest.get(2..).unwrap_or_default());
                format!("{}{typed}{}", &valid[..i], &valid[i..])
            }
            // The valid text cut short (half typed).
            2 => valid[..at(rest)].to_owned(),
            // A stretch deleted.
            3 => {
                let (a, b) = (at(rest), at(rest.get(2..).unwrap_or_default()));
                let (a, b) = (a.min(b), a.max(b));
                format!("{}{}", &valid[..a], &valid[b..])
            }
            _ => template(rest.first().copied().unwrap_or(0), valid),
        };
        out.push((file, text));
    }
    out
}

/// Runs the edits `data` describes, then types the valid texts back: panics (a failure) when
/// the server panics, hangs, or does not clear every diagnostic then.
pub fn edit_sequence(data: &[u8]) {
    edit_texts(&edits(data));
}

/// [`edit_sequence`] with the edits given: file number (of [`VALID`]) and new text.
pub fn edit_texts(edits: &[(usize, String)]) {
    let dir = std::env::temp_dir().join("mrds-lsp-fuzz").join("spec");
    let sources: Vec<(String, String)> = VALID
        .iter()
        .map(|(n, t)| ((*n).to_owned(), (*t).to_owned()))
        .collect();
    let (server_end, client) = Connection::memory();
    let root = dir.parent().map_or_else(PathBuf::new, PathBuf::from);
    let thread = std::thread::spawn(move || {
        let ws = Workspace::from_sources(&dir, sources);
        let mut server = Server::new(&server_end, ws, root);
        server.serve()
    });
    let uri = |file: usize| {
        let name = VALID[file].0.trim_start_matches("spec/");
        let path = std::env::temp_dir()
            .join("mrds-lsp-fuzz")
            .join("spec")
            .join(name);
        crate::text::uri_of(&path)
            .map(|u| u.as_str().to_owned())
            .unwrap_or_default()
    };
    let send = |m: Message| client.sender.send(m).expect("the server listens");
    let notify = |method: &str, params: Value| {
        send(Message::Notification(Notification::new(
            method.to_owned(),
            params,
        )));
    };
    for (file, (_, text)) in VALID.iter().enumerate() {
        notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri(file), "languageId": "yaml", "version": 1, "text": text } }),
        );
    }
    let mut version = 1;
    let mut id = 0;
    // The newest number of diagnostics published for each file.
    let mut published: BTreeMap<String, usize> = BTreeMap::new();
    let mut settle = |method: &str, params: Value| {
        id += 1;
        send(Message::Request(Request::new(
            RequestId::from(id),
            method.to_owned(),
            params,
        )));
        loop {
            match client.receiver.recv_timeout(PATIENCE) {
                Ok(Message::Response(r)) if r.id == RequestId::from(id) => {
                    return published.clone();
                }
                Ok(Message::Notification(n)) if n.method == "textDocument/publishDiagnostics" => {
                    let count = n.params["diagnostics"].as_array().map_or(0, Vec::len);
                    let uri = n.params["uri"].as_str().unwrap_or_default().to_owned();
                    published.insert(uri, count);
                }
                Ok(_) => {}
                Err(e) => panic!("the server did not answer within {PATIENCE:?}: {e}"),
            }
        }
    };
    for (file, text) in edits {
        version += 1;
        notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri(*file), "version": version }, "contentChanges": [{ "text": text }] }),
        );
        // Every few edits, a request at a place of the broken text.
        if version % 3 == 0 {
            let line = text.lines().count() / 2;
            let at = json!({ "textDocument": { "uri": uri(*file) }, "position": { "line": line, "character": 3 } });
            settle("textDocument/hover", at.clone());
            settle("textDocument/completion", at.clone());
            settle("textDocument/definition", at);
        }
    }
    settle("$/mrds/stats", json!({}));
    for (file, (_, text)) in VALID.iter().enumerate() {
        version += 1;
        notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri(file), "version": version }, "contentChanges": [{ "text": text }] }),
        );
    }
    let published = settle("$/mrds/stats", json!({}));
    for (uri, count) in &published {
        assert_eq!(
            *count, 0,
            "{uri}: the valid text typed back has no diagnostic"
        );
    }
    send(Message::Request(Request::new(
        RequestId::from(-1),
        "shutdown".into(),
        Value::Null,
    )));
    notify("exit", Value::Null);
    match thread.join() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => panic!("the server ended with an error: {e}"),
        Err(_) => panic!("the server's thread panicked"),
    }
}
