//! Emitters: one module per generated crate, each from the resolved [`Api`] to files.

use std::fmt;

use proc_macro2::TokenStream;

use crate::files::{FileSet, RUST_HEADER};
use crate::model::Api;

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

/// Every generated file.
pub fn all(api: &Api) -> Result<FileSet, EmitError> {
    let _ = api;
    let set = FileSet::new(ROOTS);
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
