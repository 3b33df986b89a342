//! `spec_loader`: a spec file, loaded and checked by the generator's loader
//! (`mrds_spec::load_sources`, what `cargo xtask codegen` runs on `spec/`) beside the small
//! valid spec of the broken-spec corpus (`tests/broken/_valid_base/`).
//!
//! Input: a byte choosing what the text is (one of the base's three files, replaced; or a file
//! added to them), then the text (UTF-8, anything else replaced).
//!
//! Properties: loading never panics and ends in the resolved model or in diagnostics, each
//! with its place (file, line and column) unless it is about the whole spec; the crates of a
//! spec that loads generate (`mrds_emit::all`: an emitter
//! that fails on an accepted spec is a generator bug). Time and memory are the fuzzer's to
//! bound (`-timeout`, `-rss_limit_mb`): the loader's alias budget and nesting limit bound
//! them, whatever the text.

use super::Input;

/// The base: the broken-spec corpus's valid spec, by the name a directory would give its
/// files.
const BASE: [(&str, &str); 3] = [
    (
        "base/api.yaml",
        include_str!("../../broken/_valid_base/api.yaml"),
    ),
    (
        "base/samples.yaml",
        include_str!("../../broken/_valid_base/samples.yaml"),
    ),
    (
        "base/service.yaml",
        include_str!("../../broken/_valid_base/service.yaml"),
    ),
];

pub fn spec_loader(data: &[u8]) {
    let mut input = Input::new(data);
    let which = usize::from(input.byte() % 4);
    let text = String::from_utf8_lossy(input.rest()).into_owned();
    let mut sources: Vec<(String, String)> = BASE
        .iter()
        .map(|(name, text)| (name.to_string(), text.to_string()))
        .collect();
    match sources.get_mut(which) {
        Some(file) => file.1 = text,
        None => sources.push(("base/zz_added.yaml".to_string(), text)),
    }
    match mrds_spec::load_sources(&sources) {
        Ok(api) => {
            if let Err(e) = mrds_emit::all(&api) {
                panic!("a spec that loads does not generate: {e}");
            }
        }
        Err(diagnostics) => {
            assert!(
                !diagnostics.0.is_empty(),
                "a spec refused without a diagnostic"
            );
            // A problem of the whole spec (no `service` section in any file) has no place;
            // every other names its file, line and column.
            for d in &diagnostics.0 {
                if let Some(at) = &d.location {
                    assert!(at.line > 0 && at.column > 0, "a diagnostic at no line: {d}");
                }
            }
        }
    }
}
