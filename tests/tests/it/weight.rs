//! What a downstream test that uses the sample server in process compiles: `mrds-mock` with
//! its default features pulls no command-line parser, no log output and no compression (clap,
//! tracing-subscriber, tower-http, flate2); its `cli` feature, which its binary requires, pulls
//! them. Read from `cargo tree` (offline), as a team's build resolves the package alone.

use std::process::Command;

use mrds_tests::workspace_root;

/// What only the command line needs.
const BINARY_ONLY: &[&str] = &["clap", "tracing-subscriber", "tower-http", "flate2"];

/// The packages `mrds-mock` depends on with `args`, by name.
fn tree(args: &[&str]) -> Vec<String> {
    let output = Command::new(env!("CARGO"))
        .args([
            "tree",
            "-p",
            "mrds-mock",
            "-e",
            "normal,build",
            "--prefix",
            "none",
        ])
        .args(["--offline", "--format", "{p}"])
        .args(args)
        .current_dir(workspace_root())
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut names: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn a_test_using_the_sample_server_compiles_no_command_line_and_no_compression() {
    let test = tree(&[]);
    assert!(test.iter().any(|p| p == "axum"), "{test:?}");
    for name in BINARY_ONLY {
        assert!(!test.iter().any(|p| p == name), "{name} in {test:?}");
    }
    let binary = tree(&["--features", "cli"]);
    for name in BINARY_ONLY {
        assert!(binary.iter().any(|p| p == name), "{name} not in {binary:?}");
    }
    // The binary says it needs the command line.
    let manifest = std::fs::read_to_string(workspace_root().join("crates/mrds-mock/Cargo.toml"))
        .expect("the manifest");
    assert!(
        manifest.contains(
            "[[bin]]\nname = \"mrds-mock\"\npath = \"src/main.rs\"\nrequired-features = [\"cli\"]"
        ),
        "{manifest}"
    );
}
