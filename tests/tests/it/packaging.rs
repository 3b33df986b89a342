//! What `cargo package` needs of the shipped crates (the runtime and the four generated ones),
//! beside what CI checks by packaging them (`.ci/run`): each crate directory links the
//! workspace's license files (links, not copies: cargo puts their content into the `.crate`),
//! has a README that its crate docs include, and takes its version, license and publish
//! setting from the workspace; the tools are never published.

use std::path::Path;

use mrds_tests::workspace_root;

/// The shipped crates' directories.
const SHIPPED: &[&str] = &[
    "runtime",
    "crates/mrds-model",
    "crates/mrds-server",
    "crates/mrds-mock",
    "crates/mrds-client",
];

/// The workspace members that are tools, not shipped.
const TOOLS: &[&str] = &["codegen", "xtask", "tests", "bench"];

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_shipped_crate_links_the_license_files_and_includes_its_readme() {
    let root = workspace_root();
    for dir in SHIPPED {
        let dir = root.join(dir);
        for license in ["LICENSE-MIT", "LICENSE-APACHE"] {
            let path = dir.join(license);
            let meta = std::fs::symlink_metadata(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(
                meta.file_type().is_symlink(),
                "{} must link the workspace's {license}, not copy it",
                path.display()
            );
            assert_eq!(read(&path), read(&root.join(license)), "{}", path.display());
        }
        let readme = read(&dir.join("README.md"));
        assert!(readme.contains("## License"), "{}", dir.display());
        let lib = read(&dir.join("src/lib.rs"));
        assert!(
            lib.contains("#![doc = include_str!(\"../README.md\")]"),
            "{}: the crate docs include the README",
            dir.display()
        );
        let manifest = read(&dir.join("Cargo.toml"));
        for key in [
            "version.workspace = true",
            "license.workspace = true",
            "publish.workspace = true",
            "readme = \"README.md\"",
            "keywords = [",
            "categories = [",
            "description = \"",
        ] {
            assert!(manifest.contains(key), "{}: lacks `{key}`", dir.display());
        }
    }
}

#[test]
fn the_tools_are_never_published() {
    let root = workspace_root();
    for dir in TOOLS {
        let manifest = read(&root.join(dir).join("Cargo.toml"));
        assert!(
            manifest.lines().any(|l| l.trim() == "publish = false"),
            "{dir}/Cargo.toml must say `publish = false`"
        );
    }
}
