//! Emitters: one module per generated crate, each from the resolved [`Api`] to files.
//!
//! The helpers here are shared by every emitter: identifiers, the one doc helper every
//! generated doc line goes through, and the `Cargo.toml` of a generated crate.

use std::fmt;

use proc_macro2::TokenStream;
use quote::quote;

use crate::files::{FileSet, RUST_HEADER, TOML_HEADER};
use crate::model::{Api, Provenance};

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
pub const ROOTS: &[&str] = &["crates"];

/// The version of every generated crate, and of the runtime crate they depend on.
pub const CRATE_VERSION: &str = "0.1.0";

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

/// The `Cargo.toml` of a generated crate; `dependencies` are `name = spec` lines.
pub fn cargo_toml(name: &str, description: &str, dependencies: &[&str]) -> String {
    let mut text = format!(
        "{TOML_HEADER}\n\n[package]\nname = \"{name}\"\nversion = \"{CRATE_VERSION}\"\n\
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

/// The dependency line of the runtime crate with `features`, by path and version.
pub fn runtime_dependency(features: &[&str]) -> String {
    let features = if features.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = features.iter().map(|f| format!("\"{f}\"")).collect();
        format!(", features = [{}]", list.join(", "))
    };
    format!(
        "mrds-runtime = {{ version = \"{CRATE_VERSION}\", path = \"../../runtime\"{features} }}"
    )
}

/// The dependency line of a sibling generated crate, by path and version.
pub fn sibling_dependency(name: &str) -> String {
    format!("{name} = {{ version = \"{CRATE_VERSION}\", path = \"../{name}\" }}")
}

/// An identifier token for a name decided by [`crate::naming`] (`r#type` becomes a raw one).
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
    let lines = text.trim().lines().map(|l| {
        let l = if l.is_empty() {
            String::new()
        } else {
            format!(" {l}")
        };
        quote!(#[doc = #l])
    });
    quote!(#(#lines)*)
}

/// Inner `#![doc]` attributes (a module's or crate's documentation), one per line.
pub fn inner_docs(text: &str) -> TokenStream {
    let lines = text.trim().lines().map(|l| {
        let l = if l.is_empty() {
            String::new()
        } else {
            format!(" {l}")
        };
        quote!(#![doc = #l])
    });
    quote!(#(#lines)*)
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
/// using the item needs; both empty when the endpoint is not removed.
pub fn deprecation(removed: Option<&crate::model::Removal>) -> (TokenStream, TokenStream) {
    match removed {
        Some(r) => {
            let since = r.version.trim_start_matches('v');
            let note = format!(
                "the endpoint was removed from the service on {} ({})",
                r.date, r.version
            );
            (
                quote!(#[deprecated(since = #since, note = #note)]),
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
