//! The emitters of the Market and Reference Data Service: from the resolved spec
//! ([`mrds_spec::Api`]) to every generated file.
//!
//! - one module per generated crate ([`model`], [`server`], [`client`], [`mock`]), each
//!   building Rust as token streams with `quote!`, formatted with `syn` and `prettyplease`
//!   ([`all`]);
//! - the OpenAPI 3.1 document ([`openapi`]);
//! - the spec format's JSON Schema for editors ([`schema`]) and its reference page
//!   ([`reference`]);
//! - the Rust snippets of the hand-written docs ([`doc_snippets`]), each filling a generated
//!   region of its page ([`regions`]);
//! - the spec's sample requests as Rust, which every example and snippet calls
//!   ([`sample_request`]);
//! - the generated tree as a whole: written only where it changed, stale files removed, never
//!   half-written, or compared for the drift check ([`files`]).
//!
//! The helpers here are shared by every emitter: identifiers, the one doc helper every
//! generated doc line goes through, and the `Cargo.toml` of a generated crate. Emitters read
//! the model only: nothing here reads YAML, checks the spec or compares two of them.

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::files::{MARKDOWN_HEADER, RUST_HEADER, TOML_HEADER};
use mrds_spec::model::{Api, Provenance};

pub mod client;
pub mod client_examples;
pub mod doc_snippets;
pub mod endpoint_doc;
pub mod files;
pub mod mock;
pub mod model;
pub mod openapi;
pub mod reference;
pub mod regions;
pub mod sample_request;
pub mod schema;
pub mod server;

pub use files::{FileSet, Plan};
pub use sample_request::SampleRequest;

/// The generator produced tokens that do not parse as a Rust file: a bug in an emitter.
#[derive(Debug)]
pub struct EmitError {
    /// The file being generated.
    pub file: String,
    /// What syn reported.
    pub message: String,
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "internal error: the generated `{}` is not valid Rust ({}); please report this with the spec that caused it",
            self.file, self.message
        )
    }
}

impl std::error::Error for EmitError {}

/// Directories the generator owns; stale generated files there are removed.
pub const ROOTS: &[&str] = &["crates"];

/// What the emitters produce, before formatting: Rust files as token streams, other files
/// as text. Paths are relative to the workspace root.
#[derive(Default)]
pub struct Emitted {
    rust: Vec<(String, TokenStream)>,
    text: Vec<(String, String)>,
}

impl Emitted {
    /// Adds a Rust file.
    pub fn rust(&mut self, path: impl Into<String>, tokens: TokenStream) {
        self.rust.push((path.into(), tokens));
    }

    /// Adds Rust files under `dir/src/`, by file name.
    pub fn crate_sources<const N: usize>(&mut self, dir: &str, files: [(&str, TokenStream); N]) {
        for (name, tokens) in files {
            self.rust(format!("{dir}/src/{name}"), tokens);
        }
    }

    /// Adds a file that is already text.
    pub fn text(&mut self, path: impl Into<String>, text: String) {
        self.text.push((path.into(), text));
    }
}

/// The emitters, one per generated crate, heaviest first: the order [`all`]'s threads take
/// them in.
const EMITTERS: [fn(&Api, &mut Emitted); 4] = [model::emit, mock::emit, server::emit, client::emit];

/// Every generated file: [`tokens`], then [`format`], the emitters shared among as many
/// threads as the machine runs at once (each thread formats what it emitted: token streams
/// stay on the thread that made them). The files are the same whatever the number of threads:
/// each emitter's are its own, and the set orders them by path.
pub fn all(api: &Api) -> Result<FileSet, EmitError> {
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(EMITTERS.len());
    let next = AtomicUsize::new(0);
    let work = || -> Vec<Result<Vec<(String, String)>, EmitError>> {
        let mut done = Vec::new();
        while let Some(emit) = EMITTERS.get(next.fetch_add(1, Ordering::Relaxed)) {
            let mut out = Emitted::default();
            emit(api, &mut out);
            done.push(formatted(out));
        }
        done
    };
    let results: Vec<_> = std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
        let mut results = work();
        for helper in helpers {
            results.extend(
                helper
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            );
        }
        results
    });
    let mut set = FileSet::new(ROOTS);
    let mut errors = Vec::new();
    for result in results {
        match result {
            Ok(files) => {
                for (path, text) in files {
                    // Which of two emitters won would depend on the order they ran in.
                    assert!(set.get(&path).is_none(), "`{path}` is generated twice");
                    set.insert(path, text);
                }
            }
            Err(e) => errors.push(e),
        }
    }
    // The same error whichever thread met it first.
    match errors.into_iter().min_by(|a, b| a.file.cmp(&b.file)) {
        Some(e) => Err(e),
        None => Ok(set),
    }
}

/// Runs every emitter: the token streams and texts of every generated file.
pub fn tokens(api: &Api) -> Emitted {
    let mut out = Emitted::default();
    for emit in EMITTERS {
        emit(api, &mut out);
    }
    out
}

/// Formats the Rust files (syn + prettyplease, headed by the generated marker) into the set
/// of files to write.
pub fn format(emitted: Emitted) -> Result<FileSet, EmitError> {
    let mut set = FileSet::new(ROOTS);
    for (path, text) in formatted(emitted)? {
        set.insert(path, text);
    }
    Ok(set)
}

/// Every file of `emitted` as text: the Rust files formatted.
fn formatted(emitted: Emitted) -> Result<Vec<(String, String)>, EmitError> {
    let mut files = Vec::with_capacity(emitted.rust.len() + emitted.text.len());
    for (path, tokens) in emitted.rust {
        let text = rust_file(&path, tokens)?;
        files.push((path, text));
    }
    files.extend(emitted.text);
    Ok(files)
}

/// Formats tokens as a Rust file headed by the generated marker.
pub fn rust_file(path: &str, tokens: TokenStream) -> Result<String, EmitError> {
    let file: syn::File = syn::parse2(tokens).map_err(|e| EmitError {
        file: path.to_string(),
        message: e.to_string(),
    })?;
    Ok(format!("{RUST_HEADER}\n\n{}", prettyplease::unparse(&file)))
}

/// The `Cargo.toml` of a generated crate; `dependencies` are `name = spec` lines.
///
/// Version, edition, license and publish setting come from the workspace (`[workspace.package]`
/// in the root `Cargo.toml`, the one place the version is written), and so do the runtime and
/// the sibling crates (`[workspace.dependencies]`, pinned to that version). The crate's
/// README is generated beside it ([`readme`]); its license files are the workspace's, linked
/// into the crate directory, so `cargo package` puts them into the `.crate`. Every crate that
/// depends on the model crate forwards its `jiff` feature (typed time).
pub fn cargo_toml(name: &str, description: &str, dependencies: &[&str]) -> String {
    cargo_toml_with_features(name, description, dependencies, "")
}

/// [`cargo_toml`] with `features`, lines of the `[features]` table (comments included) before
/// the `jiff` feature.
pub fn cargo_toml_with_features(
    name: &str,
    description: &str,
    dependencies: &[&str],
    features: &str,
) -> String {
    let (keywords, categories) = crate_metadata(name);
    let list = |items: &[&str]| {
        let quoted: Vec<String> = items.iter().map(|i| format!("\"{i}\"")).collect();
        format!("[{}]", quoted.join(", "))
    };
    let mut text = format!(
        "{TOML_HEADER}\n\n[package]\nname = \"{name}\"\nversion.workspace = true\n\
         description = \"{description}\"\n\
         edition.workspace = true\nrust-version.workspace = true\nlicense.workspace = true\npublish.workspace = true\n\
         readme = \"README.md\"\nkeywords = {}\ncategories = {}\n\n\
         [package.metadata.docs.rs]\nall-features = true\n\n\
         # Generated code has no unit tests (the workspace's tests/ test it): `cargo test`\n\
         # builds the library once, and runs the README's examples as doctests.\n\
         [lib]\ntest = false\n\n",
        list(keywords),
        list(categories),
    );
    let forwards = if name == MODEL_CRATE {
        Some("mrds-runtime/jiff")
    } else if dependencies.iter().any(|d| d.starts_with(MODEL_CRATE)) {
        Some("mrds-model/jiff")
    } else {
        None
    };
    if forwards.is_some() || !features.is_empty() {
        text.push_str("[features]\n");
        text.push_str(features);
    }
    if let Some(forward) = forwards {
        text.push_str(&format!(
            "# Typed time: `jiff` types for the time parameters and the date and \
             timestamp fields,\n# beside the plain types (see the README).\n\
             jiff = [\"{forward}\"]\n\n"
        ));
    }
    text.push_str("[dependencies]\n");
    for dependency in dependencies {
        text.push_str(dependency);
        text.push('\n');
    }
    text
}

/// The model crate's name, which the other generated crates depend on.
const MODEL_CRATE: &str = "mrds-model";

/// The keywords and crates.io categories of a generated crate.
fn crate_metadata(name: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match name {
        "mrds-model" => (
            &["mrds", "market-data", "api", "types"],
            &["api-bindings", "finance", "data-structures"],
        ),
        "mrds-server" => (
            &["mrds", "market-data", "api", "server", "axum"],
            &["web-programming::http-server", "finance"],
        ),
        "mrds-mock" => (
            &["mrds", "market-data", "mock", "server", "testing"],
            &["web-programming::http-server", "development-tools::testing"],
        ),
        "mrds-client" => (
            &["mrds", "market-data", "api", "client", "http"],
            &["api-bindings", "web-programming::http-client", "finance"],
        ),
        _ => (&["mrds", "market-data"], &["api-bindings"]),
    }
}

/// The dependency line of the runtime crate with `features` (the workspace's, by path and
/// the workspace version).
pub fn runtime_dependency(features: &[&str]) -> String {
    if features.is_empty() {
        return "mrds-runtime.workspace = true".to_string();
    }
    let list: Vec<String> = features.iter().map(|f| format!("\"{f}\"")).collect();
    format!(
        "mrds-runtime = {{ workspace = true, features = [{}] }}",
        list.join(", ")
    )
}

/// The dependency line of a sibling generated crate (the workspace's, by path and the
/// workspace version).
pub fn sibling_dependency(name: &str) -> String {
    format!("{name}.workspace = true")
}

/// The README of a generated crate: its first line carries the generated marker (an HTML
/// comment, invisible where the README is shown), then `body`, then how the crate is used as a
/// dependency and its license. The crate root includes it as the first part of its docs, so
/// its Rust examples are doctests.
pub fn readme(name: &str, body: &str, features: &str) -> String {
    // The sample-data server is what a project tests against.
    let table = match name {
        "mrds-mock" => "dev-dependencies",
        _ => "dependencies",
    };
    format!(
        "{MARKDOWN_HEADER}\n\n# {name}\n\n{}\n\n## Using it\n\n\
         The crates are not on crates.io; depend on them by path (or on the version of your \
         own registry, if you publish them there; the repository's `.ci/local-crates` makes \
         the packaged crates usable by version before that):\n\n\
         ```toml\n[{table}]\n{name} = {{ path = \"../mrds/crates/{name}\" }}\n```\n\n{}\
         ## License\n\nLicensed under either of the Apache License, Version 2.0 \
         (`LICENSE-APACHE`) or the MIT license (`LICENSE-MIT`), at your option.\n",
        body.trim(),
        if features.is_empty() {
            String::new()
        } else {
            format!("{}\n\n", features.trim())
        }
    )
}

/// Of the endpoints with a sample request ([`SampleRequest::of`]), the first with the most
/// required parameters (the most telling example), for the READMEs' examples; `None` when no
/// endpoint has one.
pub fn example_request(api: &Api) -> Option<SampleRequest<'_>> {
    sample_request::best(api, |_| true)
}

/// The expression the generated code checks a text with: `mrds_runtime::pattern!(SOURCE,
/// TABLE)`, a `&'static mrds_runtime::Pattern` holding the automaton the checker compiled.
pub fn pattern(p: &mrds_spec::model::Pattern) -> TokenStream {
    let (source, table) = (p.source(), proc_macro2::Literal::byte_string(p.table()));
    quote!(mrds_runtime::pattern!(#source, #table))
}

/// The expression naming an HTTP method in generated code: `mrds_runtime::Method::Get`.
pub fn method(m: mrds_spec::model::Method) -> TokenStream {
    let variant = format_ident!("{m:?}");
    quote!(mrds_runtime::Method::#variant)
}

/// An identifier token for a name decided by [`mrds_spec::naming`] (`r#type` becomes a raw one).
pub fn ident(name: &str) -> proc_macro2::Ident {
    match name.strip_prefix("r#") {
        Some(raw) => proc_macro2::Ident::new_raw(raw, proc_macro2::Span::call_site()),
        None => proc_macro2::Ident::new(name, proc_macro2::Span::call_site()),
    }
}

/// Spec prose made safe for rustdoc: outside code spans, characters markdown or rustdoc
/// would read as markup (`<`, `>`, `[`, `]`, `*`, `_` at word edges are left alone; HTML
/// tags and links are not) are escaped; no line starts with indentation (which would make an
/// indented code block, hence a doctest) or with a code fence.
pub fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.trim().lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let line = line.trim_start();
        if line.starts_with("```") || line.starts_with("~~~") {
            out.push('\\');
        }
        let mut in_code = false;
        for c in line.chars() {
            match c {
                '`' => in_code = !in_code,
                '<' | '>' | '[' | ']' | '\\' if !in_code => out.push('\\'),
                _ => {}
            }
            out.push(c);
        }
    }
    out
}

/// The sentence a generated doc adds for an assumed fact.
pub fn assumed_note(provenance: &Provenance) -> Option<String> {
    provenance.reason().map(|reason| {
        format!(
            "*Assumed* (not stated by the interface description): {}",
            prose(reason)
        )
    })
}

/// `#[doc]` attributes, one per line of `text` (markdown written by the generator, spec prose
/// already passed through [`prose`]), each line after a space as `///` comments would be.
pub fn docs(text: &str) -> TokenStream {
    let lines = doc_lines(text);
    quote!(#(#[doc = #lines])*)
}

/// Inner `#![doc]` attributes (a module's or crate's documentation), one per line.
pub fn inner_docs(text: &str) -> TokenStream {
    let lines = doc_lines(text);
    quote!(#(#![doc = #lines])*)
}

/// The lines of a doc text as the literals of `#[doc]` attributes, each after a space.
///
/// Raw string literals where they can be (a line without a carriage return): the formatter
/// reads back every doc literal to print it as a comment, and a raw one is read back as it
/// stands, where an escaped one is unescaped character by character.
fn doc_lines(text: &str) -> Vec<Literal> {
    text.trim()
        .lines()
        .map(|line| {
            let line = if line.is_empty() {
                String::new()
            } else {
                format!(" {line}")
            };
            raw_literal(&line).unwrap_or_else(|| Literal::string(&line))
        })
        .collect()
}

/// `text` as a raw string literal, with as many `#` as it needs; `None` when it cannot be one
/// (a carriage return).
fn raw_literal(text: &str) -> Option<Literal> {
    if text.contains('\r') {
        return None;
    }
    // One `#` more than the longest run of them after a quote in the text.
    let mut hashes = 0;
    for (i, _) in text.match_indices('"') {
        let run = text[i + 1..].bytes().take_while(|&b| b == b'#').count();
        hashes = hashes.max(run + 1);
    }
    let fence = "#".repeat(hashes);
    format!("r{fence}\"{text}\"{fence}").parse().ok()
}

/// `#[doc]` attributes for spec prose, with the note of an assumed fact.
pub fn spec_docs(text: &str, provenance: &Provenance) -> TokenStream {
    docs(&with_provenance(prose(text), provenance))
}

/// `text`, followed by the note of an assumed fact when there is one.
pub fn with_provenance(mut text: String, provenance: &Provenance) -> String {
    if let Some(note) = assumed_note(provenance) {
        text.push_str("\n\n");
        text.push_str(&note);
    }
    text
}

/// `#[deprecated]` naming a removal, and the `#[allow(deprecated)]` the generated code
/// using the item needs; both empty when the endpoint is not removed. The note names the
/// service's release that removed the endpoint and says so: it is the provider's release tag,
/// not a version of the generated crates (rustdoc would read a `since` as the crate's).
pub fn deprecation(removed: Option<&mrds_spec::model::Removal>) -> (TokenStream, TokenStream) {
    match removed {
        Some(r) => {
            let note = format!(
                "the endpoint was removed from the service on {} in the service's release {} (the provider's version, not this crate's)",
                r.date, r.version
            );
            (
                quote!(#[deprecated(note = #note)]),
                quote!(#[allow(deprecated)]),
            )
        }
        None => (TokenStream::new(), TokenStream::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_lines_are_raw_literals_that_read_back_as_written() {
        let text = "plain\n\nquoted \"x\" and \"# and \"## here\nback\\slash\ncr\rinside";
        let lines = doc_lines(text);
        let read: Vec<String> = lines
            .iter()
            .map(|l| syn::parse2::<syn::LitStr>(quote!(#l)).unwrap().value())
            .collect();
        assert_eq!(
            read,
            [
                " plain",
                "",
                " quoted \"x\" and \"# and \"## here",
                " back\\slash",
                " cr\rinside"
            ]
        );
        let spelled: Vec<String> = lines.iter().map(ToString::to_string).collect();
        assert_eq!(spelled[0], "r\" plain\"");
        assert_eq!(spelled[2], "r###\" quoted \"x\" and \"# and \"## here\"###");
        // A carriage return cannot stand in a raw literal: escaped instead.
        assert_eq!(spelled[4], "\" cr\\rinside\"");
    }

    #[test]
    fn prose_never_becomes_markup_or_a_doctest() {
        assert_eq!(prose("a <b> [c]"), "a \\<b\\> \\[c\\]");
        assert_eq!(prose("keep `<x>` in code"), "keep `<x>` in code");
        assert_eq!(
            prose("one\n    indented\n```rust\nx\n```"),
            "one\nindented\n\\```rust\nx\n\\```"
        );
        assert_eq!(prose("  padded  "), "padded");
    }
}
