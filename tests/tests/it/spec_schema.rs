//! The JSON Schema of the spec format (`spec/spec.schema.json`, from `mrds_spec::ast`): what
//! `cargo xtask codegen` writes, and named by every spec file for editors. A full validator
//! checks it against draft-07 and every spec file against it in an explicit run
//! (`.ci/schema-check`, outside the workspace, so its validator and URL tables are not what a
//! newcomer's `cargo test` compiles).

use std::path::Path;

use mrds_emit::schema;
use serde_json::Value;

fn spec_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec")
}

/// The spec's files as the loader reads them: (`spec/...` name, text).
fn spec_files() -> Vec<(String, String)> {
    mrds_spec::load::read_dir(&spec_dir()).unwrap_or_else(|d| panic!("{d}"))
}

#[test]
fn the_schema_is_what_the_generator_writes() {
    let written = std::fs::read_to_string(spec_dir().join("spec.schema.json"))
        .expect("spec/spec.schema.json exists: run `cargo xtask codegen`");
    assert!(
        written == schema::text(),
        "spec/spec.schema.json is out of date: run `cargo xtask codegen`"
    );
    assert_eq!(schema::PATH, "spec/spec.schema.json");
    let document: Value = serde_json::from_str(&written).unwrap();
    assert_eq!(
        document["$schema"],
        "http://json-schema.org/draft-07/schema#"
    );
}

/// yaml-language-server (VS Code's YAML extension, and the editors that run it) reads the
/// schema a file names on its first line.
#[test]
fn every_spec_file_names_the_schema_on_its_first_line() {
    for (name, text) in spec_files() {
        names_the_schema(&name, &text);
    }
}

/// A file a maintainer adds names the schema too: the release series' files are what a
/// maintainer writes, and its scratch copy runs the test above over them.
#[test]
fn files_the_release_series_adds_name_the_schema() {
    // In the scratch copy of the release series, its files are the spec's, checked above.
    if crate::follow::followed() {
        return;
    }
    let added = crate::follow::added_files();
    assert!(!added.is_empty(), "the release series adds files");
    for (name, text) in added {
        names_the_schema(&name, &text);
    }
}

/// Panics unless the first line of `text` (the file `spec/...` `name`) names
/// `spec/spec.schema.json` by its path from the file.
fn names_the_schema(name: &str, text: &str) {
    let root = spec_dir();
    let first = text.lines().next().unwrap_or_default();
    let target = first
        .strip_prefix("# yaml-language-server: $schema=")
        .unwrap_or_else(|| {
            panic!(
                "{name}: the first line is `# yaml-language-server: $schema=<path>`, not `{first}`"
            )
        });
    let rel = name.strip_prefix("spec/").unwrap();
    let dir = root.join(rel).parent().unwrap().to_path_buf();
    let named = std::fs::canonicalize(dir.join(target))
        .unwrap_or_else(|e| panic!("{name}: `{target}`: {e}"));
    assert_eq!(
        named,
        std::fs::canonicalize(root.join("spec.schema.json")).unwrap(),
        "{name}: the schema is named by its path from the file"
    );
}
