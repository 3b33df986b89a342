//! `cargo test` fails when the committed generated files are out of date with `spec/`.

use std::path::Path;

#[test]
fn generated_files_are_up_to_date_with_the_spec() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let api = mrds_spec::load_spec(&root.join("spec")).unwrap_or_else(|d| panic!("{d}"));
    let files = mrds_emit::all(&api).unwrap_or_else(|e| panic!("{e}"));
    let plan = files.plan(&root).expect("the tree can be read");
    assert!(
        plan.is_empty(),
        "{plan}\nThe generated files are out of date with spec/. Run `cargo xtask codegen` and commit the result."
    );
}
