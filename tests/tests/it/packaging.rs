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

/// The workspace members that are tools, not shipped: every member but [`SHIPPED`].
fn tools() -> Vec<String> {
    let root = workspace_root();
    let mut dirs = Vec::new();
    for parent in ["", "codegen/"] {
        for entry in std::fs::read_dir(root.join(parent)).unwrap() {
            let path = entry.unwrap().path();
            let dir = format!("{parent}{}", path.file_name().unwrap().to_string_lossy());
            if path.join("Cargo.toml").is_file() && !SHIPPED.contains(&dir.as_str()) {
                dirs.push(dir);
            }
        }
    }
    dirs.sort();
    dirs
}

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
    let tools = tools();
    for dir in ["codegen/spec", "xtask", "tests", "bench", "contract"] {
        assert!(tools.iter().any(|t| t == dir), "{dir} is a tool: {tools:?}");
    }
    for dir in &tools {
        let manifest = read(&root.join(dir).join("Cargo.toml"));
        assert!(
            manifest.lines().any(|l| l.trim() == "publish = false"),
            "{dir}/Cargo.toml must say `publish = false`"
        );
    }
}
