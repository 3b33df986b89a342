//! The properties the fuzz targets assert (`fuzz/`, cargo-fuzz), one function per target: each
//! takes the fuzzer's bytes and panics when its property does not hold. They live here, in
//! the tests' library, so that the default test run replays every crash input kept under
//! `tests/fuzz/regressions/<target>/` and the seed corpora through the same code
//! (`tests/tests/it/fuzz_regressions.rs`), on the stable toolchain and without libFuzzer.
//!
//! | target | input | property |
//! |---|---|---|
//! | [`spec_loader`] | a spec file | loading and checking it beside a small valid spec never panics and ends in the model or in diagnostics; an accepted spec generates |
//! | [`server`] | the bytes of one HTTP/1.1 connection | the serving path answers in HTTP, every refusal in the envelope, at most one answer per request, nothing of a body read as a request |
//! | [`params`] | a query and a path, for one endpoint | the server's `from_raw`, the client's `validate` and `to_query`, and the generator's own judgement agree |
//! | [`client_decode`] | an answer, for one endpoint | decoding while noticing drift returns what plain decoding returns; the findings are bounded |
//! | [`proxy_check`] | a request and an answer, for one endpoint | the proxy's checks of the answer and of the request never panic; the findings are bounded |
//! | [`mock_body`] | a request with a body | the sample server in process answers, every refusal in the envelope |
//!
//! Every endpoint is reached through the generated model (`mrds_model::api::visit_requests`),
//! so a target follows the spec without edits. Inputs are read with [`Input`], which never
//! fails: the fuzzer's bytes are taken as far as they go.

mod answers;
mod client_decode;
pub mod endpoints;
pub mod generate;
mod mock_body;
mod params;
mod proxy_check;
mod records;
pub mod seeds;
mod server;
mod spec_loader;

pub use client_decode::client_decode;
pub use mock_body::mock_body;
pub use params::params;
pub use proxy_check::proxy_check;
pub use server::server;
pub use spec_loader::spec_loader;

/// A target's property: panics when it does not hold for the input.
pub type Property = fn(&[u8]);

/// Every target, by the name of its fuzz target (`fuzz/fuzz_targets/<name>.rs`).
pub const TARGETS: &[(&str, Property)] = &[
    ("spec_loader", spec_loader),
    ("server", server),
    ("params", params),
    ("client_decode", client_decode),
    ("proxy_check", proxy_check),
    ("mock_body", mock_body),
];

/// The fuzzer's bytes, read front to back; every read succeeds (past the end, with zeros or
/// nothing).
#[derive(Clone, Debug)]
pub struct Input<'a> {
    rest: &'a [u8],
}

impl<'a> Input<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self { rest: data }
    }

    /// One byte (0 past the end).
    pub fn byte(&mut self) -> u8 {
        match self.rest.split_first() {
            Some((&b, rest)) => {
                self.rest = rest;
                b
            }
            None => 0,
        }
    }

    /// Two bytes, big-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_be_bytes([self.byte(), self.byte()])
    }

    /// The bytes up to `separator` (or the end), the separator read too.
    pub fn until(&mut self, separator: u8) -> &'a [u8] {
        match memchr_pos(self.rest, separator) {
            Some(at) => {
                let taken = &self.rest[..at];
                self.rest = &self.rest[at + 1..];
                taken
            }
            None => self.rest(),
        }
    }

    /// Everything left.
    pub fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.rest)
    }

    pub fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }
}

fn memchr_pos(bytes: &[u8], needle: u8) -> Option<usize> {
    bytes.iter().position(|&b| b == needle)
}

/// A current-thread tokio runtime with its clock paused (timers fire as soon as nothing else
/// can run), one per thread: a target's timeouts pass at once and its runs are repeatable.
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    thread_local! {
        static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .expect("a current-thread runtime");
    }
    RUNTIME.with(|runtime| runtime.block_on(future))
}

/// The rule ids of a refusal, each once, sorted.
pub fn rule_ids(error: &mrds_runtime::ValidationError) -> Vec<&'static str> {
    let mut rules: Vec<&'static str> = error.issues.iter().map(|i| i.rule).collect();
    rules.sort_unstable();
    rules.dedup();
    rules
}
