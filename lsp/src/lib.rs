//! The language server of the spec (`spec/`): LSP 3.17 over stdio, started by
//! `cargo xtask lsp` (or the installed `mrds-lsp` binary).
//!
//! It stands on the one loader, checker, model and spec-diff: the diagnostics are what
//! [`mrds_spec::load_sources`] reports (each file read once by [`mrds_spec::index::parse_each`],
//! the same reading [`mrds_spec::load::parse_all`] makes, then [`mrds_spec::check::check`]),
//! the names come from the spec crate's index ([`mrds_spec::index`]), and the inline verdict
//! is [`mrds_diff::compare`] and [`mrds_diff::assess`] against the base `cargo xtask spec-diff`
//! uses. Unsaved buffers are laid over the files on disk ([`workspace`]).
//!
//! - [`server`]: the loop (a burst of edits is checked once, at its newest version);
//! - [`analysis`]: one check of the whole spec, as diagnostics by file;
//! - [`nav`]: definition, references, rename, outline, workspace symbols;
//! - [`assist`]: completion and hover;
//! - [`actions`]: code actions, the code lens and the generated code's preview;
//! - [`base`]: the base of the verdict, read with git.
//!
//! # The protocol crate
//!
//! [`lsp_server`] (rust-analyzer's scaffold, also used by ty and others) with [`lsp_types`]:
//! maintained with rust-analyzer, synchronous (crossbeam channels, no async runtime: the
//! check is CPU work on one thread, and an async runtime would add a build and nothing
//! else), and with an in-memory connection ([`lsp_server::Connection::memory`]) the tests
//! drive as an editor does. `tower-lsp` is unmaintained; its fork `tower-lsp-server` needs
//! tokio and tower for what one loop does here.
//!
//! The server never depends on the emitters (`mrds-emit`): the generated code's preview runs
//! `cargo xtask codegen --preview DIR` in a child process, off the loop.

pub mod actions;
pub mod analysis;
pub mod assist;
pub mod base;
pub mod fuzz;
pub mod nav;
pub mod server;
pub mod text;
pub mod workspace;

pub use server::{Options, Server, run};
