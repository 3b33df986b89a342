//! The server's loop: messages in, the spec checked when nothing newer waits, answers and
//! diagnostics out.
//!
//! One thread owns the workspace and the last analysis. A notification that changes a file
//! only marks the workspace changed; the check runs when no message is waiting, so a burst of
//! `didChange` is checked once, at its newest version, and a check that a newer edit has
//! made stale is never started. A request is answered from the analysis of the files as they
//! are when it is read (checked first when they changed). The check runs under
//! `catch_unwind`: a panic in it (a bug) leaves the last diagnostics in place and the server
//! up.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender, select};
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeActionProviderCapability, CompletionOptions, Diagnostic, ExecuteCommandOptions,
    HoverProviderCapability, InitializeParams, MessageType, OneOf, PublishDiagnosticsParams,
    RenameOptions, ServerCapabilities, ShowMessageParams, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions,
};
use mrds_spec::Api;
use serde_json::Value;

use crate::analysis::{self, Analysis};
use crate::workspace::Workspace;
use crate::{actions, assist, base, nav, text};

/// How long the loop waits for a newer edit before it checks: the protocol's reader hands
/// over one message at a time, so an edit typed right after another may still be on its way
/// when the loop finds nothing waiting.
const DEBOUNCE: std::time::Duration = std::time::Duration::from_millis(8);

/// How the server is set up (the command line's options; the editor's
/// `initializationOptions` may set `base` and `spec` too).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The spec directory; default: `spec/` of the editor's workspace folder.
    pub spec_dir: Option<PathBuf>,
    /// The base of the inline verdict: a git revision; default: the merge base with `main`.
    pub base: Option<String>,
    /// No inline verdict (no base is read).
    pub no_base: bool,
}

/// What a background job reports to the loop.
pub(crate) enum Task {
    /// Show a message.
    Message(MessageType, String),
    /// Send a request to the client (`window/showDocument`).
    Request(Request),
}

/// The server's state, owned by the loop's thread.
pub struct Server<'c> {
    conn: &'c Connection,
    pub(crate) ws: Workspace,
    /// The base of the verdict and its label.
    pub(crate) base: Option<(Api, String)>,
    /// The analysis of the newest generation checked.
    pub(crate) analysis: Analysis,
    /// The model of the newest generation that checked: what completion and hover read while
    /// the spec has an error.
    pub(crate) last_api: Option<Api>,
    /// The diagnostics last published, by file, and the buffer's version they were of.
    published: BTreeMap<String, (Vec<Diagnostic>, Option<i32>)>,
    /// The workspace root (where `cargo xtask` runs).
    pub(crate) root: PathBuf,
    pub(crate) tasks: (Sender<Task>, Receiver<Task>),
    next_request: i32,
    /// Every check's time from the change read to the diagnostics sent, for `$/mrds/stats`.
    pub(crate) timings: Vec<f64>,
}

/// Serves one client over `conn` until it exits.
pub fn run(conn: &Connection, options: Options) -> Result<(), String> {
    let (id, params) = conn.initialize_start().map_err(|e| e.to_string())?;
    let init: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let init_options = init.initialization_options.clone().unwrap_or(Value::Null);
    #[allow(deprecated)]
    let folder = init
        .workspace_folders
        .as_ref()
        .and_then(|f| f.first())
        .map(|f| f.uri.clone())
        .or(init.root_uri.clone())
        .and_then(|u| text::path_of(&u));
    let spec_dir = options
        .spec_dir
        .clone()
        .or_else(|| {
            init_options
                .get("spec")
                .and_then(Value::as_str)
                .map(PathBuf::from)
        })
        .or_else(|| folder.as_ref().map(|f| f.join("spec")))
        .unwrap_or_else(|| PathBuf::from("spec"));
    let spec_dir = std::fs::canonicalize(&spec_dir).unwrap_or(spec_dir);
    let root = spec_dir
        .parent()
        .map_or_else(|| PathBuf::from("."), PathBuf::from);
    let result = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": { "name": "mrds-lsp", "version": env!("CARGO_PKG_VERSION") },
    });
    conn.initialize_finish(id, result)
        .map_err(|e| e.to_string())?;

    let ws = Workspace::new(&spec_dir);
    let mut server = Server::new(conn, ws, root);
    let base_rev = options.base.clone().or_else(|| {
        init_options
            .get("base")
            .and_then(Value::as_str)
            .map(str::to_owned)
    });
    if !options.no_base && base_rev.as_deref() != Some("none") {
        match base::load(&spec_dir, base_rev.as_deref()) {
            Ok(base) => server.base = Some(base),
            Err(e) => server.notify_message(
                MessageType::WARNING,
                format!("mrds-lsp: no inline spec-diff verdict: {e}"),
            ),
        }
    }
    // The files on disk checked before any buffer: completion and hover have a model from
    // the start, even when the first buffer opened does not check.
    server.refresh();
    server.serve()
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![":".into(), " ".into(), "[".into(), ",".into()]),
            ..CompletionOptions::default()
        }),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        code_lens_provider: Some(lsp_types::CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![actions::PREVIEW.to_owned()],
            ..ExecuteCommandOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

impl<'c> Server<'c> {
    /// A server over `conn` for the workspace `ws` (no base: no verdict until one is set).
    pub fn new(conn: &'c Connection, ws: Workspace, root: PathBuf) -> Self {
        let analysis = analysis::analyze(u64::MAX, Vec::new(), None);
        Server {
            conn,
            ws,
            base: None,
            analysis,
            last_api: None,
            published: BTreeMap::new(),
            root,
            tasks: crossbeam_channel::unbounded(),
            next_request: 0,
            timings: Vec::new(),
        }
    }

    /// Sets the base the verdict compares with.
    pub fn set_base(&mut self, base: Option<(Api, String)>) {
        self.base = base;
        self.analysis.generation = u64::MAX;
    }

    /// The loop: until the client's `exit`.
    pub fn serve(&mut self) -> Result<(), String> {
        let mut changed_at: Option<Instant> = Some(Instant::now());
        loop {
            let stale = self.analysis.generation != self.ws.generation();
            let next = if stale {
                select! {
                    recv(self.conn.receiver) -> m => Some(m.map_err(|_| ())),
                    recv(self.tasks.1) -> t => { if let Ok(t) = t { self.task(t) } continue }
                    default(DEBOUNCE) => None,
                }
            } else {
                select! {
                    recv(self.conn.receiver) -> m => Some(m.map_err(|_| ())),
                    recv(self.tasks.1) -> t => { if let Ok(t) = t { self.task(t) } continue }
                }
            };
            match next {
                // Nothing waits: check the newest files.
                None => {
                    self.refresh();
                    if let Some(at) = changed_at.take() {
                        self.timings.push(at.elapsed().as_secs_f64() * 1000.0);
                    }
                }
                Some(Err(())) => return Ok(()),
                Some(Ok(Message::Request(r))) => {
                    if self.conn.handle_shutdown(&r).map_err(|e| e.to_string())? {
                        return Ok(());
                    }
                    self.request(r);
                }
                Some(Ok(Message::Notification(n))) => {
                    if n.method == note::Exit::METHOD {
                        return Ok(());
                    }
                    let before = self.ws.generation();
                    self.notification(n);
                    if self.ws.generation() != before && changed_at.is_none() {
                        changed_at = Some(Instant::now());
                    }
                }
                Some(Ok(Message::Response(_))) => {}
            }
        }
    }

    /// Checks the files when they changed since the last check, and publishes what changed.
    pub(crate) fn refresh(&mut self) {
        let generation = self.ws.generation();
        if self.analysis.generation == generation {
            return;
        }
        let sources = self.ws.sources();
        let base = self.base.as_ref().map(|(api, _)| api);
        match catch_unwind(AssertUnwindSafe(|| {
            analysis::analyze(generation, sources, base)
        })) {
            Ok(a) => self.analysis = a,
            Err(_) => {
                // A bug of the checker: keep what was known, say so once per generation.
                self.analysis.generation = generation;
                self.notify_message(
                    MessageType::ERROR,
                    "mrds-lsp: the spec's check panicked on this text (a bug); the diagnostics shown are of the last text checked".into(),
                );
                return;
            }
        }
        if let Some(api) = &self.analysis.api {
            self.last_api = Some(api.clone());
        }
        self.publish();
    }

    fn publish(&mut self) {
        let mut next = std::mem::take(&mut self.analysis.diagnostics);
        // A file gone since the last check: its diagnostics are cleared.
        for name in self.published.keys() {
            next.entry(name.clone()).or_default();
        }
        let mut sent = BTreeMap::new();
        for (name, diagnostics) in &next {
            let version = self.ws.version(name);
            // Published when they changed, or when the buffer did (an editor sees which
            // version its diagnostics are of).
            let same = self
                .published
                .get(name)
                .is_some_and(|(d, v)| d == diagnostics && *v == version);
            sent.insert(name.clone(), (diagnostics.clone(), version));
            if same {
                continue;
            }
            let Some(uri) = self.ws.uri_of(name) else {
                continue;
            };
            let params = PublishDiagnosticsParams {
                uri,
                diagnostics: diagnostics.clone(),
                version,
            };
            self.send(Message::Notification(Notification::new(
                note::PublishDiagnostics::METHOD.to_owned(),
                params,
            )));
        }
        next.retain(|name, _| self.analysis.file_id(name).is_some());
        sent.retain(|name, _| self.analysis.file_id(name).is_some());
        self.analysis.diagnostics = next;
        self.published = sent;
    }

    fn send(&self, m: Message) {
        // A client gone: the loop ends at the next receive.
        let _ = self.conn.sender.send(m);
    }

    pub(crate) fn notify_message(&self, typ: MessageType, message: String) {
        self.send(Message::Notification(Notification::new(
            note::ShowMessage::METHOD.to_owned(),
            ShowMessageParams { typ, message },
        )));
    }

    fn task(&mut self, t: Task) {
        match t {
            Task::Message(typ, text) => self.notify_message(typ, text),
            Task::Request(mut r) => {
                self.next_request += 1;
                r.id = RequestId::from(format!("mrds-{}", self.next_request));
                self.send(Message::Request(r));
            }
        }
    }

    fn notification(&mut self, n: Notification) {
        use lsp_types::{
            DidChangeTextDocumentParams as Change, DidCloseTextDocumentParams as Close,
            DidOpenTextDocumentParams as Open,
        };
        match n.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                if let Ok(p) = n.extract::<Open>(note::DidOpenTextDocument::METHOD)
                    && let Some(name) = self.ws.name_of(&p.text_document.uri)
                {
                    let d = p.text_document;
                    self.ws.set_buffer(name, d.version, d.text);
                }
            }
            note::DidChangeTextDocument::METHOD => {
                if let Ok(p) = n.extract::<Change>(note::DidChangeTextDocument::METHOD)
                    && let Some(name) = self.ws.name_of(&p.text_document.uri)
                {
                    let mut text = self.ws.text(&name).unwrap_or_default().to_owned();
                    for change in p.content_changes {
                        match change.range {
                            None => text = change.text,
                            Some(range) => {
                                let lines = text::Lines::new(&text);
                                let (a, b) = (lines.offset(range.start), lines.offset(range.end));
                                text.replace_range(a.min(b)..b.max(a), &change.text);
                            }
                        }
                    }
                    self.ws.set_buffer(name, p.text_document.version, text);
                }
            }
            note::DidCloseTextDocument::METHOD => {
                if let Ok(p) = n.extract::<Close>(note::DidCloseTextDocument::METHOD)
                    && let Some(name) = self.ws.name_of(&p.text_document.uri)
                {
                    self.ws.close(&name);
                }
            }
            note::DidChangeWatchedFiles::METHOD => self.ws.reload(),
            _ => {}
        }
    }

    fn request(&mut self, r: Request) {
        // Answers read the files as they are now.
        self.refresh();
        let id = r.id.clone();
        let method = r.method.clone();
        let answer = catch_unwind(AssertUnwindSafe(|| self.answer(r)))
            .unwrap_or_else(|_| Err(format!("mrds-lsp: `{method}` panicked (a bug)")));
        let response = match answer {
            Ok(value) => Response::new_ok(id, value),
            Err(message) => {
                Response::new_err(id, lsp_server::ErrorCode::RequestFailed as i32, message)
            }
        };
        self.send(Message::Response(response));
    }

    fn answer(&mut self, r: Request) -> Result<Value, String> {
        fn params<P: serde::de::DeserializeOwned>(r: Request) -> Result<P, String> {
            serde_json::from_value(r.params).map_err(|e| format!("invalid params: {e}"))
        }
        fn json<T: serde::Serialize>(v: Result<T, String>) -> Result<Value, String> {
            v.map(|v| serde_json::to_value(v).unwrap_or(Value::Null))
        }
        match r.method.as_str() {
            req::GotoDefinition::METHOD => json(nav::definition(self, params(r)?)),
            req::References::METHOD => json(nav::references(self, params(r)?)),
            req::PrepareRenameRequest::METHOD => json(nav::prepare_rename(self, params(r)?)),
            req::Rename::METHOD => json(nav::rename(self, params(r)?)),
            req::DocumentSymbolRequest::METHOD => json(nav::document_symbols(self, params(r)?)),
            req::WorkspaceSymbolRequest::METHOD => json(nav::workspace_symbols(self, params(r)?)),
            req::Completion::METHOD => json(assist::completion(self, params(r)?)),
            req::HoverRequest::METHOD => json(assist::hover(self, params(r)?)),
            req::CodeActionRequest::METHOD => json(actions::code_actions(self, params(r)?)),
            req::CodeLensRequest::METHOD => json(actions::code_lenses(self, params(r)?)),
            req::ExecuteCommand::METHOD => actions::execute(self, params(r)?),
            "$/mrds/stats" => Ok(serde_json::json!({ "checks_ms": self.timings })),
            other => Err(format!("mrds-lsp does not answer `{other}`")),
        }
    }
}
