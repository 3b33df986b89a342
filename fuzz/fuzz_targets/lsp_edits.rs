//! The `lsp_edits` target: its input and property are documented at `mrds_lsp::fuzz::edit_sequence`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mrds_lsp::fuzz::edit_sequence(data));
