//! The model crates generated from the fixture specs (one per rule kind) compile: the
//! snapshots pin their text, this checks it is Rust that builds. Each fixture's crate is
//! written into a small workspace under cargo's test scratch directory and checked offline,
//! with the versions of this workspace's `Cargo.lock`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn read(path: &Path) -> (String, String) {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    (name, std::fs::read_to_string(path).unwrap())
}

/// Writes `text` to `path` unless it already holds it (so cargo sees unchanged files).
fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return;
    }
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const WORKSPACE: &str = r#"[workspace]
resolver = "3"
members = ["crates/mrds-model", "runtime"]

[workspace.package]
edition = "2024"
rust-version = "1.88"
license = "MIT OR Apache-2.0"
publish = false
"#;

#[test]
fn fixture_model_crates_compile() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures = root.join("fixtures");
    let base = read(&fixtures.join("base.yaml"));
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n != "base.yaml"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 6);

    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-crates");
    let lock = std::fs::read_to_string(root.join("../Cargo.lock")).unwrap();
    for case in &cases {
        let kind = case.file_stem().unwrap().to_string_lossy().into_owned();
        let api = mrds_codegen::load_sources(&[base.clone(), read(case)])
            .unwrap_or_else(|d| panic!("{kind}: {d}"));
        let files = mrds_codegen::generate(&api).unwrap();
        let dir = scratch.join(&kind);
        write_if_changed(&dir.join("Cargo.toml"), WORKSPACE);
        write_if_changed(&dir.join("Cargo.lock"), &lock);
        // The generated crates depend on the runtime crate by path (`../../runtime`).
        let runtime = dir.join("runtime");
        if !runtime.exists() {
            std::os::unix::fs::symlink(root.join("../runtime").canonicalize().unwrap(), &runtime)
                .unwrap();
        }
        let mut written = 0;
        for (path, text) in files.iter() {
            if let Some(rel) = path.strip_prefix("crates/mrds-model/") {
                write_if_changed(&dir.join("crates/mrds-model").join(rel), text);
                written += 1;
            }
        }
        assert!(written >= 7, "{kind}: the model crate's files");

        let output = Command::new(env!("CARGO"))
            .args(["check", "--offline", "--quiet", "--all-targets"])
            .current_dir(&dir)
            .env("CARGO_TARGET_DIR", scratch.join("target"))
            .output()
            .expect("cargo runs");
        assert!(
            output.status.success(),
            "the model crate of fixture `{kind}` does not compile:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
