//! Loading specs in a child process with a capped heap (`mrds-load-capped`, in `src/bin`), so
//! that a spec which makes the loader allocate without bound (an alias bomb, were its budget
//! to regress) fails a test instead of taking the machine's memory, and one which makes it run
//! without end is stopped.
//!
//! The child reads the specs as JSON from its standard input, loads each in turn with
//! `mrds_spec::load_sources` (catching a panic), and writes what each did, with the most
//! heap it held meanwhile, as JSON to its standard output. Its allocator refuses to hold more
//! than [`HEAP_CAP`] at once: an allocation past it aborts the child, and [`load_capped`]
//! names the spec it was loading.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// The most heap the child holds at once. Loading a broken spec of the corpus takes less than
/// 1 MiB, or about 10 MiB for a pattern whose automaton is too large.
pub const HEAP_CAP: usize = 64 << 20;

/// How long the child may take for all the specs it is given before it is stopped. Not a
/// measurement: a guard against a loader that never ends, far above what loading takes.
pub const TIMEOUT: Duration = Duration::from_secs(120);

/// One spec to load: its name, and its files (name and text) as `load_sources` takes them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Spec {
    /// What the spec is called in reports.
    pub name: String,
    /// Its files.
    pub sources: Vec<(String, String)>,
}

/// What loading one spec did.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Loaded {
    /// The spec's name.
    pub name: String,
    /// The outcome.
    pub outcome: Outcome,
    /// The most heap the child held while loading it, in bytes (its input included).
    pub peak_heap: usize,
}

/// The outcome of loading one spec.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// It loaded without error.
    Loaded,
    /// It was refused.
    Refused {
        /// How many diagnostics there are.
        count: usize,
        /// The diagnostics as printed.
        text: String,
    },
    /// Loading panicked: the panic's message.
    Panicked(String),
}

/// Loads `specs` in the child `bin` (`env!("CARGO_BIN_EXE_mrds-load-capped")`), one after the
/// other. An error says why the child failed (it went over [`HEAP_CAP`], over [`TIMEOUT`], or
/// exited otherwise) and which spec it was loading.
pub fn load_capped(bin: &Path, specs: &[Spec]) -> Result<Vec<Loaded>, String> {
    let input = serde_json::to_vec(specs).map_err(|e| format!("the specs as JSON: {e}"))?;
    let mut child = Command::new(bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
    // Input, output and errors move through pipes at once, each on a thread of its own, so
    // that no pipe fills while the child waits on another.
    let mut stdin = child.stdin.take().expect("a piped input");
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let mut stdout = child.stdout.take().expect("a piped output");
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        stdout.read_to_end(&mut out).map(|_| out)
    });
    let mut stderr = child.stderr.take().expect("a piped error output");
    let errors = std::thread::spawn(move || {
        let mut out = String::new();
        stderr.read_to_string(&mut out).map(|_| out)
    });
    let deadline = Instant::now() + TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Err(e) => return Err(format!("waiting for {}: {e}", bin.display())),
        }
    };
    // A child that stopped early leaves its input unread: that write fails, and is no news.
    let _ = writer.join();
    let out = reader.join().expect("the output reader does not panic");
    let errors = errors
        .join()
        .expect("the error reader does not panic")
        .unwrap_or_default();
    // The child names each spec on its error output before it loads it.
    let current = errors
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("loading "))
        .unwrap_or("(none)");
    let why = match status {
        None => format!("took more than {TIMEOUT:?}"),
        Some(status) if status.success() => {
            let out = out.map_err(|e| format!("reading the child's output: {e}"))?;
            return serde_json::from_slice(&out)
                .map_err(|e| format!("the child's output is not its report: {e}"));
        }
        Some(status) => format!("failed ({status})"),
    };
    Err(format!(
        "loading specs with at most {} MiB of heap {why} while loading `{current}`; its error \
         output:\n{errors}",
        HEAP_CAP >> 20
    ))
}
