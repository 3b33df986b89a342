//! The README and the pages of `docs/`: every Rust snippet is one the doctests compile (a
//! ```` ```rust ```` block, plain or `no_run`; `build.rs` makes each page a doctest of this
//! crate's library), every link to a page or a heading of one leads somewhere, the README
//! stays a front page (at most 300 lines), and CI runs the README's test command.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use mrds_tests::workspace_root;

/// The README and every page of `docs/`.
fn pages() -> Vec<PathBuf> {
    let root = workspace_root();
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    pages.insert(0, root.join("README.md"));
    pages
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The info strings of a page's fenced code blocks, with their line numbers.
fn fences(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut open = false;
    for (at, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            if !open {
                out.push((at + 1, info.trim().to_string()));
            }
            open = !open;
        }
    }
    out
}

#[test]
fn every_rust_snippet_is_one_the_doctests_compile() {
    let mut rust = 0;
    for page in pages() {
        for (line, info) in fences(&read(&page)) {
            let words: Vec<&str> = info.split(',').map(str::trim).collect();
            let is_rust = matches!(words.first(), Some(&"rust") | Some(&"rs"));
            if !is_rust {
                continue;
            }
            rust += 1;
            let allowed = matches!(words.as_slice(), ["rust"] | ["rust", "no_run"]);
            assert!(
                allowed,
                "{}:{line}: ```{info}: a Rust snippet is `rust` or `rust,no_run`, so the doctests compile it",
                page.display()
            );
        }
    }
    assert!(rust >= 10, "{rust} Rust snippets");
    // The doctests take every page: build.rs reads the directory.
    let build = read(&workspace_root().join("tests/build.rs"));
    assert!(build.contains("read_dir(root.join(\"docs\"))"), "{build}");
}

/// `#anchor` of a heading, as GitHub makes it.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut open = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            open = !open;
        }
        if !open && let Some(heading) = line.strip_prefix('#') {
            out.insert(anchor(heading.trim_start_matches('#')));
        }
    }
    out
}

#[test]
fn every_link_to_a_page_or_a_heading_leads_somewhere() {
    let root = workspace_root();
    for page in pages() {
        let text = read(&page);
        let dir = page.parent().unwrap();
        for (at, _) in text.match_indices("](") {
            let rest = &text[at + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = &rest[..end];
            if target.starts_with("http") || target.contains(' ') {
                continue;
            }
            let (file, heading) = target.split_once('#').unwrap_or((target, ""));
            let linked = if file.is_empty() {
                page.clone()
            } else {
                dir.join(file)
            };
            assert!(
                linked.exists(),
                "{}: a link to {target}, which does not exist",
                page.display()
            );
            if !heading.is_empty() && linked.extension().is_some_and(|x| x == "md") {
                let headings = anchors(&read(&linked));
                assert!(
                    headings.contains(heading),
                    "{}: a link to {target}, a heading {} does not have",
                    page.strip_prefix(&root).unwrap_or(&page).display(),
                    file
                );
            }
        }
    }
}

#[test]
fn the_readme_is_a_front_page_and_ci_runs_its_test_command() {
    let root = workspace_root();
    let readme = read(&root.join("README.md"));
    let lines = readme.lines().count();
    assert!(lines <= 300, "the README has {lines} lines");
    let fresh = readme
        .split("## On a fresh machine")
        .nth(1)
        .and_then(|s| s.split("```sh\n").nth(1))
        .and_then(|s| s.split("```").next())
        .expect("the README's two commands");
    let commands: Vec<&str> = fresh
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .collect();
    assert_eq!(commands, ["cargo xtask codegen", "cargo test --workspace"]);
    let ci = read(&root.join(".ci/run"));
    assert!(
        ci.lines().any(|l| l.trim() == commands[1]),
        ".ci/run runs the README's test command"
    );
    for page in [
        "docs/maintainers.md",
        "docs/downstream.md",
        "docs/ci.md",
        "docs/spec-format.md",
    ] {
        assert!(readme.contains(page), "the README links {page}");
    }
}
