//! The names of the types of the shipped crates: no two types share a name, so that a name
//! says which room a type is in (the server's `ServerError`, the client's `ApiError`).
//!
//! Read from the sources, line by line: every `struct`, `enum`, `trait`, `union` and type
//! alias the runtime (`runtime/src/`) defines, whatever its visibility, and every public one
//! of the four generated crates (`crates/*/src/`; their private ones are the generator's
//! business). Not counted: associated types, test code (`tests.rs`, `test_object.rs`, a
//! `mod tests` block), an alias that names a type of the same name of the shipped crates (a
//! re-export with its parameters filled in: `pub type Error = mrds_runtime::client::Error<..>`),
//! and definitions of one name in one file (alternatives under `cfg`).
//!
//! `cargo test -p mrds-tests --test it type_names -- --nocapture` also lists every name.

use std::collections::BTreeMap;
use std::path::Path;

use mrds_tests::workspace_root;

/// One definition: where, and how visible.
#[derive(Debug)]
struct Definition {
    file: String,
    line: usize,
    public: bool,
}

/// The type definitions of the `.rs` files under `dir` (paths shown from the workspace
/// root), by name.
fn definitions(root: &Path, dir: &str, out: &mut BTreeMap<String, Vec<Definition>>) {
    let mut files = Vec::new();
    walk(&root.join(dir), &mut files);
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy();
        if name == "tests.rs" || name == "test_object.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let file = path.strip_prefix(root).unwrap().display().to_string();
        // The indentation of the `mod tests {` being skipped, if any.
        let mut skipping: Option<usize> = None;
        for (at, line) in text.lines().enumerate() {
            let indent = line.len() - line.trim_start().len();
            let code = line.trim_start();
            if let Some(depth) = skipping {
                if code == "}" && indent == depth {
                    skipping = None;
                }
                continue;
            }
            if code.starts_with("mod tests {") {
                skipping = Some(indent);
                continue;
            }
            let declared = visibility(code);
            let (public, rest) = declared.unwrap_or((false, code));
            let Some((kind, rest)) = ["struct ", "enum ", "trait ", "union ", "type "]
                .iter()
                .find_map(|k| rest.strip_prefix(k).map(|r| (k.trim(), r)))
            else {
                continue;
            };
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() {
                continue;
            }
            if kind == "type" && indent > 0 && declared.is_none() {
                // An associated type (in an impl or a trait).
                continue;
            }
            if kind == "type" && re_exports(&rest[name.len()..], &name) {
                continue;
            }
            out.entry(name).or_default().push(Definition {
                file: file.clone(),
                line: at + 1,
                public,
            });
        }
    }
}

/// `pub`, `pub(crate)`, `pub(super)`, `pub(in ..)` at the start of `code`: whether it is
/// public, and what follows.
fn visibility(code: &str) -> Option<(bool, &str)> {
    let rest = code.strip_prefix("pub")?;
    if let Some(rest) = rest.strip_prefix(' ') {
        return Some((true, rest));
    }
    let close = rest.strip_prefix('(')?.find(')')?;
    Some((false, rest[close + 2..].trim_start()))
}

/// Whether an alias's text after its name (`<..> = path::Name<..>;`) names a type called
/// `name` of the shipped crates.
fn re_exports(after_name: &str, name: &str) -> bool {
    let Some((_, target)) = after_name.split_once('=') else {
        return false;
    };
    let target = target.trim();
    let path = target.split(['<', ';', ' ']).next().unwrap_or_default();
    let shipped = ["crate::", "super::", "self::", "mrds_"]
        .iter()
        .any(|p| path.starts_with(p));
    shipped && path.rsplit("::").next() == Some(name)
}

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_two_types_of_the_shipped_crates_share_a_name() {
    let root = workspace_root();
    let mut names = BTreeMap::new();
    definitions(&root, "runtime/src", &mut names);
    let mut generated = BTreeMap::new();
    for krate in ["mrds-model", "mrds-server", "mrds-mock", "mrds-client"] {
        definitions(&root, &format!("crates/{krate}/src"), &mut generated);
    }
    for (name, found) in generated {
        let public = found.into_iter().filter(|d| d.public);
        names.entry(name).or_default().extend(public);
    }
    names.retain(|_, found| !found.is_empty());
    let mut shared = Vec::new();
    for (name, found) in &names {
        let places: Vec<String> = found
            .iter()
            .map(|d| {
                let public = if d.public { "pub " } else { "" };
                format!("{public}{}:{}", d.file, d.line)
            })
            .collect();
        println!("{name}: {}", places.join(", "));
        let mut files: Vec<&str> = found.iter().map(|d| d.file.as_str()).collect();
        files.dedup();
        if files.len() > 1 {
            shared.push(format!("{name}: {}", places.join(", ")));
        }
    }
    assert!(
        names.len() > 100,
        "only {} type names read: is the reader broken?",
        names.len()
    );
    assert!(
        shared.is_empty(),
        "rename the types so that each name says its room (a public one by its layer, \
         `ServerError`; a private helper by what it is of, `PagingState`):\n{}",
        shared.join("\n")
    );
}

#[test]
fn the_reader_finds_definitions_and_skips_what_is_not_one() {
    assert_eq!(visibility("pub struct A;"), Some((true, "struct A;")));
    assert_eq!(visibility("pub(crate) enum B {"), Some((false, "enum B {")));
    assert_eq!(
        visibility("pub(in crate::mock) type C = u8;"),
        Some((false, "type C = u8;"))
    );
    assert_eq!(visibility("public_thing()"), None);
    assert!(re_exports(
        " = mrds_runtime::client::Error<mrds_model::records::ErrorObject>;",
        "Error"
    ));
    assert!(re_exports("<T> = super::Error<T>;", "Error"));
    assert!(!re_exports(" = jiff::Error;", "Error"));
    assert!(!re_exports(
        " = mrds_runtime::server::ServerError<E>;",
        "ApiError"
    ));
}
