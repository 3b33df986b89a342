//! Emitters: one module per generated crate, each from the resolved [`Api`] to files.

use std::fmt;

use proc_macro2::TokenStream;

use crate::files::{FileSet, RUST_HEADER, TOML_HEADER};
use crate::model::Api;

pub mod client;
pub mod mock;
pub mod model;
pub mod openapi;
pub mod server;

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
pub const ROOTS: &[&str] = &["crates", "spec/generated"];

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

/// Every generated file: [`tokens`], then [`format`].
pub fn all(api: &Api) -> Result<FileSet, EmitError> {
    format(tokens(api))
}

/// Runs every emitter: the token streams and texts of every generated file.
pub fn tokens(api: &Api) -> Emitted {
    let mut out = Emitted::default();
    model::emit(api, &mut out);
    server::emit(api, &mut out);
    mock::emit(api, &mut out);
    client::emit(api, &mut out);
    openapi::emit(api, &mut out);
    out
}

/// Formats the Rust files (syn + prettyplease, headed by the generated marker) into the set
/// of files to write.
pub fn format(emitted: Emitted) -> Result<FileSet, EmitError> {
    let mut set = FileSet::new(ROOTS);
    for (path, tokens) in emitted.rust {
        let text = rust_file(&path, tokens)?;
        set.insert(path, text);
    }
    for (path, text) in emitted.text {
        set.insert(path, text);
    }
    Ok(set)
}

/// Formats tokens as a Rust file headed by the generated marker.
pub fn rust_file(path: &str, tokens: TokenStream) -> Result<String, EmitError> {
    let file: syn::File = syn::parse2(tokens).map_err(|e| EmitError {
        file: path.to_string(),
        message: e.to_string(),
    })?;
    Ok(format!("{RUST_HEADER}\n\n{}", prettyplease::unparse(&file)))
}

/// A static Rust source file the generator ships verbatim (runtime support code that does not
/// depend on the spec), headed by the generated marker. It is not re-formatted: it is written
/// as it stands in `codegen/src/emit/`, comments included, and compiled by the tests.
pub fn static_rust(source: &str) -> String {
    format!("{RUST_HEADER}\n\n{source}")
}

/// The `Cargo.toml` of a generated crate; `dependencies` are `name = spec` lines.
pub fn cargo_toml(name: &str, description: &str, dependencies: &[&str]) -> String {
    let mut text = format!(
        "{TOML_HEADER}\n\n[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n\
         description = \"{description}\"\n\
         edition.workspace = true\nrust-version.workspace = true\nlicense.workspace = true\npublish.workspace = true\n\n\
         [dependencies]\n"
    );
    for dependency in dependencies {
        text.push_str(dependency);
        text.push('\n');
    }
    text
}

/// An identifier token for a name decided by [`crate::naming`] (`r#type` becomes a raw one).
pub fn ident(name: &str) -> proc_macro2::Ident {
    match name.strip_prefix("r#") {
        Some(raw) => proc_macro2::Ident::new_raw(raw, proc_macro2::Span::call_site()),
        None => proc_macro2::Ident::new(name, proc_macro2::Span::call_site()),
    }
}

/// `#[doc]` attributes for `text` (one per line), noting when the fact is assumed.
pub fn doc_attrs(text: &str, source: crate::model::Source) -> TokenStream {
    let mut text = text.trim().to_string();
    if source == crate::model::Source::Assumed {
        text.push_str(
            "\n\n*Assumed*: not stated by the interface description; decided in `DECISIONS.md`.",
        );
    }
    let lines = text.lines().map(|l| {
        let l = if l.is_empty() {
            String::new()
        } else {
            format!(" {l}")
        };
        quote::quote!(#[doc = #l])
    });
    quote::quote!(#(#lines)*)
}
