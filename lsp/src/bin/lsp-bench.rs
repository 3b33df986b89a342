//! `lsp-bench`: the language server's latency as an editor sees it, from `didChange` to
//! `publishDiagnostics`, measured by a scripted client over stdio against the `mrds-lsp`
//! binary built beside this one.
//!
//! ```sh
//! cargo build --release -p mrds-lsp --features bench
//! target/release/lsp-bench                              # the real spec, against the merge base with main
//! cargo xtask synth --scale 7 --out /tmp/synth7
//! target/release/lsp-bench --spec /tmp/synth7 --base /tmp/synth7
//! ```
//!
//! The client opens the spec's largest file of endpoints and types into it, one edit at a
//! time, waiting for the diagnostics of each: a bound narrowed (a spec that checks, with a
//! spec-diff finding), the text restored, a `returns:` naming no record (a spec that does
//! not check). Then it sends bursts of edits without waiting, as fast typing does, and
//! measures until the diagnostics of the last one: the edits a newer one supersedes are
//! never checked.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next: i64,
}

impl Server {
    fn send(&mut self, v: &Value) {
        let text = v.to_string();
        let _ = write!(self.stdin, "Content-Length: {}\r\n\r\n{text}", text.len());
        let _ = self.stdin.flush();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let m = self.receive();
            if m.get("id") == Some(&json!(id)) && m.get("method").is_none() {
                return m;
            }
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    fn receive(&self) -> Value {
        self.messages
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers within a minute")
    }

    /// Waits for the diagnostics of `uri` at `version`.
    fn diagnostics_of(&self, uri: &str, version: i64) -> usize {
        loop {
            let m = self.receive();
            if m.get("method") == Some(&json!("textDocument/publishDiagnostics")) {
                let p = &m["params"];
                if p["uri"] == json!(uri) && p["version"] == json!(version) {
                    return p["diagnostics"].as_array().map_or(0, Vec::len);
                }
            }
        }
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let mut spec = PathBuf::from("spec");
    let mut base: Option<String> = None;
    let mut rounds = 60usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--spec" => spec = args.next().map(PathBuf::from).expect("--spec DIR"),
            "--base" => base = args.next(),
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--rounds N")
            }
            other => {
                panic!("unknown argument `{other}`: --spec DIR, --base REV|DIR|none, --rounds N")
            }
        }
    }
    let spec = std::fs::canonicalize(&spec).expect("the spec directory");
    let server_bin = std::env::current_exe()
        .expect("this binary")
        .with_file_name(format!("mrds-lsp{}", std::env::consts::EXE_SUFFIX));
    let mut command = Command::new(&server_bin);
    command.arg("--spec").arg(&spec);
    match base.as_deref() {
        Some("none") => {
            command.arg("--no-base");
        }
        Some(b) => {
            command.arg("--base").arg(b);
        }
        None => {}
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", server_bin.display()));
    let stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(stdout);
        loop {
            let mut len = 0usize;
            loop {
                let mut line = String::new();
                if r.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length: ") {
                    len = n.parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; len];
            if std::io::Read::read_exact(&mut r, &mut body).is_err() {
                return;
            }
            if let Ok(v) = serde_json::from_slice::<Value>(&body)
                && tx.send(v).is_err()
            {
                return;
            }
        }
    });
    let mut s = Server {
        child,
        stdin,
        messages: rx,
        next: 0,
    };
    let started = Instant::now();
    let root = format!("file://{}", spec.parent().expect("a parent").display());
    s.request("initialize", json!({ "capabilities": {}, "rootUri": root }));
    s.notify("initialized", json!({}));
    s.request("$/mrds/stats", json!({}));
    let ready = started.elapsed();

    // The file edited: the largest holding both `max:` and `returns:`.
    let sources = mrds_spec::load::read_dir(&spec).expect("a spec");
    let (name, text) = sources
        .iter()
        .filter(|(_, t)| t.contains("returns: ") && t.contains("max: "))
        .max_by_key(|(_, t)| t.len())
        .expect("a file of endpoints");
    let rel = name.split_once('/').map_or(name.as_str(), |(_, r)| r);
    let uri = format!("file://{}", spec.join(rel).display());
    let narrowed = {
        let at = text.find("max: ").expect("a bound") + 5;
        let end = at + text[at..].find(|c: char| !c.is_ascii_digit()).unwrap_or(0);
        let n: i64 = text[at..end].parse().unwrap_or(10);
        format!("{}{}{}", &text[..at], (n / 2).max(1), &text[end..])
    };
    let broken = text.replacen("returns: ", "returns: Nothing", 1);
    s.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": text } }),
    );
    s.request("$/mrds/stats", json!({}));

    let mut version = 1i64;
    let mut times = Vec::new();
    let mut published = 0usize;
    for round in 0..rounds {
        let next = match round % 4 {
            0 => &narrowed,
            2 => &broken,
            _ => text,
        };
        version += 1;
        let at = Instant::now();
        s.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": next }] }),
        );
        published += s.diagnostics_of(&uri, version);
        times.push(at.elapsed().as_secs_f64() * 1000.0);
    }
    // Bursts: 20 edits sent at once, each a keystroke more of a comment, then the narrowed
    // bound; timed to the diagnostics of the last.
    let mut bursts = Vec::new();
    for b in 0..5 {
        let at = Instant::now();
        for k in 0..20 {
            version += 1;
            let typed = format!("{text}# {}\n", "x".repeat(k + b));
            s.notify(
                "textDocument/didChange",
                json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": typed }] }),
            );
        }
        version += 1;
        let last = if b % 2 == 0 { &narrowed } else { &broken };
        s.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": last }] }),
        );
        s.diagnostics_of(&uri, version);
        bursts.push(at.elapsed().as_secs_f64() * 1000.0);
        // Back to the original, settled.
        version += 1;
        s.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] }),
        );
        s.diagnostics_of(&uri, version);
    }
    let stats = s.request("$/mrds/stats", json!({}));
    let checks = stats["result"]["checks_ms"].as_array().map_or(0, Vec::len);
    let _ = s.request("shutdown", Value::Null);
    s.notify("exit", Value::Null);
    let _ = s.child.wait();

    times.sort_by(f64::total_cmp);
    bursts.sort_by(f64::total_cmp);
    let files = sources.len();
    let bytes: usize = sources.iter().map(|(_, t)| t.len()).sum();
    println!(
        "lsp-bench: {} ({files} files, {} KiB), edited {name}",
        spec.display(),
        bytes / 1024
    );
    println!(
        "  ready (initialize, base read, first check): {:.0} ms",
        ready.as_secs_f64() * 1000.0
    );
    println!(
        "  didChange -> publishDiagnostics, {} edits one at a time: p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms ({published} diagnostics published)",
        times.len(),
        percentile(&times, 0.5),
        percentile(&times, 0.95),
        times[times.len() - 1]
    );
    println!(
        "  bursts of 21 edits, to the last one's diagnostics: p50 {:.1} ms, max {:.1} ms; {checks} checks run for {} edits",
        percentile(&bursts, 0.5),
        bursts[bursts.len() - 1],
        version - 1
    );
}
