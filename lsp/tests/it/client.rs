//! A scripted client: starts the server on a spec written to a scratch directory, sends what
//! an editor sends, and reads what the server publishes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use lsp_types::{Diagnostic, Position, PublishDiagnosticsParams, Uri};
use serde_json::{Value, json};

/// How long a test waits for an answer before it fails (a hang is a failure, not a wait).
const PATIENCE: Duration = Duration::from_secs(20);

/// A scratch directory, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A new empty directory under the target directory's temporary space.
    pub fn new(label: &str) -> Scratch {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "mrds-lsp-test-{}-{}-{label}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        Scratch(dir)
    }

    /// Writes `files` (names relative to the directory).
    pub fn write(&self, files: &BTreeMap<String, String>) {
        for (name, text) in files {
            let path = self.0.join(name);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
            std::fs::write(path, text).expect("written");
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The small valid spec of the broken-spec corpus (`tests/broken/_valid_base/`), by file name.
pub fn valid_base() -> BTreeMap<String, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/broken/_valid_base");
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("the base") {
        let path = entry.expect("an entry").path();
        let name = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        out.insert(name, std::fs::read_to_string(&path).expect("readable"));
    }
    out
}

/// A running server and the client's end of its connection.
pub struct Client {
    conn: Connection,
    server: Option<JoinHandle<Result<(), String>>>,
    next: i32,
    /// The spec directory.
    pub spec: PathBuf,
    /// Every diagnostic published, newest per file, by file name relative to the spec dir.
    pub diagnostics: BTreeMap<String, Vec<Diagnostic>>,
    /// Messages shown (`window/showMessage`).
    pub messages: Vec<String>,
    _scratch: Scratch,
}

impl Client {
    /// Starts a server on `files` (a spec directory's files by relative name), with `base` as
    /// the inline verdict's base (a spec's files, or none), and reads the first diagnostics.
    pub fn start(
        files: &BTreeMap<String, String>,
        base: Option<&BTreeMap<String, String>>,
    ) -> Client {
        let scratch = Scratch::new("ws");
        let spec = scratch.0.join("spec");
        let mut all = BTreeMap::new();
        for (name, text) in files {
            all.insert(format!("spec/{name}"), text.clone());
        }
        if let Some(base) = base {
            for (name, text) in base {
                all.insert(format!("base/{name}"), text.clone());
            }
        }
        scratch.write(&all);
        let options = mrds_lsp::Options {
            spec_dir: Some(spec.clone()),
            base: base.map(|_| scratch.0.join("base").display().to_string()),
            no_base: base.is_none(),
        };
        let (server_end, client_end) = Connection::memory();
        let server = std::thread::spawn(move || mrds_lsp::run(&server_end, options));
        let spec = std::fs::canonicalize(&spec).expect("the spec dir");
        let mut c = Client {
            conn: client_end,
            server: Some(server),
            next: 0,
            spec,
            diagnostics: BTreeMap::new(),
            messages: Vec::new(),
            _scratch: scratch,
        };
        let root = mrds_lsp::text::uri_of(c.spec.parent().expect("a parent")).expect("a URI");
        let _ = c.request(
            "initialize",
            json!({ "capabilities": {}, "rootUri": root.as_str() }),
        );
        c.notify("initialized", json!({}));
        c.settle();
        c
    }

    /// The URI of a spec file.
    pub fn uri(&self, name: &str) -> Uri {
        mrds_lsp::text::uri_of(&self.spec.join(name)).expect("a URI")
    }

    /// Sends a notification.
    pub fn notify(&mut self, method: &str, params: Value) {
        let n = Notification::new(method.to_owned(), params);
        self.conn
            .sender
            .send(Message::Notification(n))
            .expect("the server listens");
    }

    /// Sends a request and waits for its answer (reading what is published meanwhile).
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next += 1;
        let id = RequestId::from(self.next);
        let r = Request::new(id.clone(), method.to_owned(), params);
        self.conn
            .sender
            .send(Message::Request(r))
            .expect("the server listens");
        loop {
            match self.receive() {
                Message::Response(r) if r.id == id => {
                    return r.response_result.map_err(|e| e.message);
                }
                other => self.read(other),
            }
        }
    }

    fn receive(&self) -> Message {
        self.conn
            .receiver
            .recv_timeout(PATIENCE)
            .expect("the server answers in time")
    }

    fn read(&mut self, m: Message) {
        if let Message::Notification(n) = m {
            match n.method.as_str() {
                "textDocument/publishDiagnostics" => {
                    let p: PublishDiagnosticsParams =
                        serde_json::from_value(n.params).expect("diagnostics");
                    let path = mrds_lsp::text::path_of(&p.uri).expect("a file URI");
                    let name = path
                        .strip_prefix(&self.spec)
                        .expect("a spec file")
                        .to_string_lossy()
                        .into_owned();
                    self.diagnostics.insert(name, p.diagnostics);
                }
                "window/showMessage" => {
                    let text = n
                        .params
                        .get("message")
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    self.messages.push(text.to_owned());
                }
                _ => {}
            }
        }
    }

    /// Waits until the server has checked everything sent so far (a request is answered
    /// after the check of the files as they are).
    pub fn settle(&mut self) {
        let _ = self.request("$/mrds/stats", json!({}));
    }

    /// Opens a file with `text` (version 1).
    pub fn open(&mut self, name: &str, text: &str) {
        let uri = self.uri(name);
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri.as_str(), "languageId": "yaml", "version": 1, "text": text } }),
        );
    }

    /// Replaces a buffer's whole text.
    pub fn change(&mut self, name: &str, version: i32, text: &str) {
        let uri = self.uri(name);
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri.as_str(), "version": version }, "contentChanges": [{ "text": text }] }),
        );
    }

    /// The position (line and UTF-16 column from 0) of the `nth` occurrence of `needle` in
    /// `text`, plus `ahead` characters.
    pub fn find(text: &str, needle: &str, nth: usize, ahead: u32) -> Position {
        let at = text
            .match_indices(needle)
            .nth(nth)
            .unwrap_or_else(|| panic!("`{needle}` occurs {nth} times"))
            .0;
        let line = text[..at].matches('\n').count();
        let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let column = text[start..at].encode_utf16().count() as u32 + ahead;
        Position::new(line as u32, column)
    }

    /// Every diagnostic as `file:line:col: [source code] severity: message`, sorted (lines
    /// and columns from 1).
    pub fn diagnostic_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (file, ds) in &self.diagnostics {
            for d in ds {
                let code = match &d.code {
                    Some(lsp_types::NumberOrString::String(c)) => format!(" {c}"),
                    _ => String::new(),
                };
                out.push(format!(
                    "{file}:{}:{}: [{}{code}] {:?}: {}",
                    d.range.start.line + 1,
                    d.range.start.character + 1,
                    d.source.as_deref().unwrap_or(""),
                    d.severity.unwrap_or(lsp_types::DiagnosticSeverity::ERROR),
                    d.message.replace('\n', " | ")
                ));
            }
        }
        out.sort();
        out
    }

    /// Replaces file paths of the scratch directory by `<ws>` in an answer.
    pub fn redact(&self, v: &Value) -> String {
        let root = mrds_lsp::text::uri_of(self.spec.parent().expect("a parent")).expect("a URI");
        serde_json::to_string_pretty(v)
            .expect("JSON")
            .replace(root.as_str(), "<ws>")
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let r = Request::new(RequestId::from(0), "shutdown".to_owned(), Value::Null);
        let _ = self.conn.sender.send(Message::Request(r));
        let n = Notification::new("exit".to_owned(), Value::Null);
        let _ = self.conn.sender.send(Message::Notification(n));
        if let Some(server) = self.server.take() {
            let _ = server.join();
        }
    }
}
