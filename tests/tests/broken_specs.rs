//! The corpus of broken specs under `tests/broken/`: every case must fail to load, without a
//! panic, and its diagnostics are pinned word for word (one snapshot per case, named after the
//! case directory). A property test also checks that truncated and mutilated copies of the real
//! spec never make the loader or the checker panic.
//!
//! Each case directory is a complete spec derived from `tests/broken/_valid_base/` with one
//! deliberate defect (the `many_*` cases hold several, to show all are reported at once); its
//! files start with a `# Broken on purpose:` comment naming the defect. Directories whose name
//! starts with `_` are not cases.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use mrds_codegen::{Diagnostics, load, load_sources, load_spec};

fn broken_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("broken")
}

/// The case directories, sorted by name.
fn cases() -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(broken_root())
        .expect("tests/broken is readable")
        .map(|entry| entry.expect("tests/broken entry is readable").path())
        .filter(|path| path.is_dir())
        .map(|path| {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .expect("case directory names are UTF-8")
                .to_owned();
            (name, path)
        })
        .filter(|(name, _)| !name.starts_with('_'))
        .collect();
    out.sort();
    out
}

/// The text of a panic payload.
fn panic_text(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(non-text panic payload)".to_owned())
}

/// The diagnostics as printed, with the machine-specific location of the corpus replaced, so
/// a message naming the spec directory itself (an empty directory) is the same everywhere.
fn stable_text(diags: &Diagnostics, name: &str, dir: &Path) -> String {
    diags
        .to_string()
        .replace(&dir.display().to_string(), &format!("tests/broken/{name}"))
}

#[test]
fn every_broken_spec_fails_with_pinned_diagnostics() {
    let cases = cases();
    assert!(
        cases.len() >= 30,
        "expected at least 30 cases under tests/broken, found {}",
        cases.len()
    );

    // First every case, so that one report names every case that panics or loads.
    let mut problems = Vec::new();
    let mut texts = Vec::new();
    for (name, dir) in &cases {
        match panic::catch_unwind(|| load_spec(dir)) {
            Err(payload) => problems.push(format!(
                "{name}: loading panicked: {}",
                panic_text(payload.as_ref())
            )),
            Ok(Ok(_)) => problems.push(format!(
                "{name}: loaded without error, but the case is broken on purpose"
            )),
            Ok(Err(diags)) => {
                if diags.is_empty() {
                    problems.push(format!("{name}: failed with an empty list of diagnostics"));
                }
                texts.push((name.clone(), stable_text(&diags, name, dir)));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "broken-spec cases misbehaved:\n{}",
        problems.join("\n")
    );

    for (name, text) in texts {
        insta::with_settings!({
            description => format!("diagnostics of tests/broken/{name}"),
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name.as_str(), text);
        });
    }
}

/// The base every case is derived from is valid, so each case fails for its own defect only.
#[test]
fn the_valid_base_loads() {
    let dir = broken_root().join("_valid_base");
    if let Err(diags) = load_spec(&dir) {
        panic!("tests/broken/_valid_base must load cleanly:\n{diags}");
    }
}

/// Blank files (empty, comments only, or a bare `---`) are accepted as contributing nothing.
#[test]
fn blank_files_contribute_nothing() {
    let base = load::read_dir(&broken_root().join("_valid_base")).expect("base is readable");
    let reference = load_sources(&base).expect("the base loads");
    for blank in ["", "\n\n", "# only a comment\n", "---\n"] {
        let mut sources = base.clone();
        sources.push(("_valid_base/blank.yaml".to_owned(), blank.to_owned()));
        match load_sources(&sources) {
            Ok(api) => {
                let ids = |a: &mrds_codegen::Api| {
                    a.endpoints.iter().map(|e| e.id.clone()).collect::<Vec<_>>()
                };
                assert_eq!(ids(&api), ids(&reference), "blank file {blank:?}");
                assert_eq!(api.records.len(), reference.records.len());
                assert_eq!(api.value_sets.len(), reference.value_sets.len());
            }
            Err(diags) => panic!("a blank file {blank:?} made the spec fail:\n{diags}"),
        }
    }
}

/// Loads `sources`, turning a panic into a description of the input that caused it.
fn load_without_panic(what: &str, sources: &[(String, String)]) -> Result<(), String> {
    let result = panic::catch_unwind(AssertUnwindSafe(|| load_sources(sources)));
    let diags = match result {
        Err(payload) => {
            return Err(format!(
                "{what}: load_sources panicked: {}",
                panic_text(payload.as_ref())
            ));
        }
        Ok(Ok(_)) => return Ok(()),
        Ok(Err(diags)) => diags,
    };
    // A failure names real places: a file that was given, a line within it, a column from 1.
    if diags.is_empty() {
        return Err(format!("{what}: failed without a diagnostic"));
    }
    for d in &diags.0 {
        if let Some(loc) = &d.location {
            let Some((_, text)) = sources.iter().find(|(name, _)| *name == loc.file) else {
                return Err(format!("{what}: diagnostic names unknown file: {d}"));
            };
            let lines = text.lines().count() + 1;
            if loc.line == 0 || loc.line > lines || loc.column == 0 {
                return Err(format!(
                    "{what}: diagnostic points outside its file ({lines} lines): {d}"
                ));
            }
        }
    }
    Ok(())
}

/// The largest char boundary at or below `i`.
fn char_floor(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[test]
fn mutilated_real_spec_never_panics() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let sources = load::read_dir(&spec).expect("the real spec is readable");
    assert!(sources.len() >= 2, "the real spec has several files");
    load_without_panic("the real spec", &sources).expect("the real spec is fine");
    assert!(load_sources(&sources).is_ok(), "the real spec loads");

    let mut problems = Vec::new();
    let mut runs = 0;

    // Every file truncated every 97 bytes (on a char boundary), the others left whole.
    for (i, (name, text)) in sources.iter().enumerate() {
        let mut cuts: Vec<usize> = (0..text.len())
            .step_by(97)
            .map(|at| char_floor(text, at))
            .collect();
        cuts.push(char_floor(text, text.len() - 1));
        cuts.dedup();
        for cut in cuts {
            let mut mutated = sources.clone();
            mutated[i].1.truncate(cut);
            runs += 1;
            if let Err(p) = load_without_panic(&format!("{name} truncated at byte {cut}"), &mutated)
            {
                problems.push(p);
            }
        }
    }

    // Each single line of the biggest file deleted in turn.
    let (big, (big_name, big_text)) = sources
        .iter()
        .enumerate()
        .max_by_key(|(_, (_, text))| text.len())
        .expect("at least one file");
    let lines: Vec<&str> = big_text.split_inclusive('\n').collect();
    for skip in 0..lines.len() {
        let text: String = lines
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != skip)
            .map(|(_, line)| *line)
            .collect();
        let mut mutated = sources.clone();
        mutated[big].1 = text;
        runs += 1;
        if let Err(p) =
            load_without_panic(&format!("{big_name} without line {}", skip + 1), &mutated)
        {
            problems.push(p);
        }
    }

    assert!(runs > 400, "only {runs} mutations were tried");
    assert!(
        problems.is_empty(),
        "{} of {runs} mutations misbehaved:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
