//! The Rust snippets of the README and of every page in `docs/`, made into this crate's
//! doctests (`src/lib.rs`, module `snippets`): each page is copied into `OUT_DIR` with its
//! tests' attributes (`#[tokio::test]`, `#[should_panic]`) commented out, so that rustdoc,
//! which compiles a snippet as a program, type-checks a test's body as a plain function's
//! (with the attribute, the body of a test would not be compiled outside `--test`); and
//! `snippets.rs` names each copy. A page added to `docs/` is compiled with no change here.

use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.parent().expect("the workspace root").to_path_buf();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it")).join("docs");
    fs::create_dir_all(&out).expect("OUT_DIR is writable");
    println!(
        "cargo:rerun-if-changed={}",
        root.join("README.md").display()
    );
    println!("cargo:rerun-if-changed={}", root.join("docs").display());
    let mut pages = vec![root.join("README.md")];
    if let Ok(entries) = fs::read_dir(root.join("docs")) {
        let mut docs: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        docs.sort();
        pages.extend(docs);
    }
    let mut items = String::new();
    for page in &pages {
        let text = fs::read_to_string(page).expect("a readable page");
        let name = page_name(&root, page);
        let copy = out.join(format!("{name}.md"));
        fs::write(&copy, compiled_form(&text)).expect("OUT_DIR is writable");
        items.push_str(&format!(
            "#[doc = include_str!({:?})]\npub struct {};\n",
            copy.display().to_string(),
            type_name(&name)
        ));
    }
    fs::write(out.join("snippets.rs"), items).expect("OUT_DIR is writable");
}

/// `README`, `docs_downstream`: the page's path from the root, as a file name.
fn page_name(root: &Path, page: &Path) -> String {
    let relative = page.strip_prefix(root).unwrap_or(page);
    relative
        .with_extension("")
        .to_string_lossy()
        .replace(['/', '\\', '-', '.'], "_")
}

/// `DocsDownstream` for `docs_downstream`.
fn type_name(name: &str) -> String {
    name.split('_')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            match chars.next() {
                Some(first) => {
                    first.to_ascii_uppercase().to_string() + &chars.as_str().to_ascii_lowercase()
                }
                None => String::new(),
            }
        })
        .collect()
}

/// `text` with the attributes that make a function a test commented out.
fn compiled_form(text: &str) -> String {
    text.lines()
        .map(|line| {
            let code = line.trim_start();
            if code == "#[tokio::test]" || code == "#[test]" || code.starts_with("#[should_panic") {
                let indent = &line[..line.len() - code.len()];
                format!("{indent}// {code}\n")
            } else {
                format!("{line}\n")
            }
        })
        .collect()
}
