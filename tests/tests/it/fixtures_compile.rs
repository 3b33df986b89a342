//! The crates generated from the fixture specs (one per rule kind, one per parameter kind,
//! and `hygiene`, whose names collide with everything the generated code names itself) compile
//! without a warning, their docs hold no failing doctest, and their router builds. The
//! snapshots pin the text; this checks it is Rust that builds. Each fixture's crates are written
//! into a scratch workspace (`mrds_tests::check_generated`).
//!
//! An explicit run (about a minute on two cores), which CI makes with the other exhaustive
//! tests (`.ci/exhaustive`):
//!
//! ```sh
//! cargo test -p mrds-tests --test it fixtures_compile -- --ignored
//! ```

use std::path::{Path, PathBuf};

use mrds_tests::{Checks, check_generated};

fn read(path: &Path) -> (String, String) {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    (name, std::fs::read_to_string(path).unwrap())
}

#[test]
#[ignore = "exhaustive: compiles every fixture's crates in a scratch workspace; .ci/exhaustive runs it"]
fn fixture_crates_compile_without_warnings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures = root.join("fixtures");
    let base = read(&fixtures.join("base.yaml"));
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n != "base.yaml"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 8, "one fixture per rule kind, and more");

    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-crates");
    let mut problems = Vec::new();
    for case in &cases {
        let kind = case.file_stem().unwrap().to_string_lossy().into_owned();
        let api = mrds_spec::load_sources(&[base.clone(), read(case)])
            .unwrap_or_else(|d| panic!("{kind}: {d}"));
        let files = mrds_emit::all(&api).unwrap();
        // Every fixture is checked; the slower doctests and router run where they matter.
        let thorough = kind == "hygiene" || kind == "param_kinds";
        let checks = Checks {
            doctests: thorough,
            router: thorough,
        };
        if let Err(e) = check_generated(&scratch, &files, checks) {
            problems.push(format!("fixture `{kind}`: {e}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
