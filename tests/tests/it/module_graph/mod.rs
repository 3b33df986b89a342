//! The rooms of the hand-written library crates ([`LIBRARIES`]: the runtime, the generator's
//! crates, the contract runner, the watch): no source file is over [`MAX_LINES`] lines, and
//! no module imports a module that imports it back: among a crate's top-level modules (`api`,
//! `validate`, `server`, ...), and in the runtime also among the submodules of any one module
//! (`server`'s `conn`, `pipeline`, ...).
//!
//! A module imports another when one of its files names an item of the other through a path:
//! in a `use` declaration, in code (`crate::text::one_of(..)`, `super::Equal`, a macro's
//! `$crate::...`), or in an attribute's string (`deserialize_with = "crate::..."`). A path
//! through a re-export (`crate::ErrorKind`, `super::ApiError`) counts as naming the module that
//! defines the item, whatever re-exports it on the way. Test modules count like any other code.
//! `graph.rs` resolves the paths and finds the cycles; `finder.rs` tries it on made-up crates.
//!
//! The sources are read with a small lexer (`lex.rs`) rather than with `syn`: a failure names
//! the line of each import, and `syn` has no line numbers without proc-macro2's
//! `span-locations`, which would be turned on for the generator too (one proc-macro2 for the
//! build of the tests) and keep every text it parses in memory.

mod finder;
mod graph;
mod lex;

use std::collections::BTreeMap;
use std::path::Path;

use graph::{Crate, ModPath};

/// The most lines a source file of a library crate has.
const MAX_LINES: usize = 600;

/// The hand-written library crates: name, source directory, and whether the submodules of
/// each module are held to having no cycle too (the generator's are not: `yaml/`'s modules
/// import each other).
const LIBRARIES: &[(&str, &str, bool)] = &[
    ("mrds-runtime", "runtime/src", true),
    ("mrds-spec", "codegen/spec/src", false),
    ("mrds-emit", "codegen/emit/src", false),
    ("mrds-diff", "codegen/diff/src", false),
    ("mrds-probes", "codegen/probes/src", false),
    ("mrds-follow", "codegen/follow/src", false),
    ("mrds-contract", "contract/src", false),
    ("mrds-watch", "watch/src", false),
];

#[test]
fn every_library_crate_is_held_to_its_rooms() {
    let root = mrds_tests::workspace_root();
    let mut dirs: Vec<String> = ["runtime/src", "contract/src", "watch/src"]
        .map(String::from)
        .to_vec();
    for entry in std::fs::read_dir(root.join("codegen")).unwrap() {
        let path = entry.unwrap().path();
        if path.join("src/lib.rs").is_file() {
            dirs.push(format!(
                "codegen/{}/src",
                path.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    dirs.sort();
    let mut held: Vec<String> = LIBRARIES
        .iter()
        .map(|(_, dir, _)| dir.to_string())
        .collect();
    held.sort();
    assert_eq!(
        held, dirs,
        "every crate of the generator is listed in LIBRARIES"
    );
}

#[test]
fn no_source_file_is_over_600_lines() {
    let root = mrds_tests::workspace_root();
    let mut long = Vec::new();
    for (_, dir, _) in LIBRARIES {
        for (path, text) in read_tree(&root.join(dir)) {
            let lines = text.lines().count();
            if lines > MAX_LINES {
                long.push(format!("{dir}/{path}: {lines} lines (at most {MAX_LINES})"));
            }
        }
    }
    assert!(
        long.is_empty(),
        "split these files by concern into a directory of modules:\n{}",
        long.join("\n")
    );
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let root = mrds_tests::workspace_root();
    let mut cycles = Vec::new();
    for &(name, dir, nested) in LIBRARIES {
        let tree = read_tree(&root.join(dir));
        let graph = Crate::read(&tree).unwrap_or_else(|e| panic!("{name}: {e}"));
        let levels: Vec<&ModPath> = match nested {
            true => graph.children.keys().collect(),
            false => graph.children.keys().filter(|m| m.is_empty()).collect(),
        };
        for level in levels {
            let found = graph.cycles(level);
            cycles.extend(found.into_iter().map(|c| format!("{name}: {c}")));
        }
    }
    assert!(
        cycles.is_empty(),
        "move the item to where it belongs, or into a module both sides use:\n{}",
        cycles.join("\n")
    );
}

/// Every `.rs` file under `dir`, by its path below `dir` (with `/`), sorted.
fn read_tree(dir: &Path) -> BTreeMap<String, String> {
    fn walk(dir: &Path, prefix: &str, out: &mut BTreeMap<String, String>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            if path.is_dir() {
                walk(&path, &format!("{prefix}{name}/"), out);
            } else if name.ends_with(".rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                out.insert(format!("{prefix}{name}"), text);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, "", &mut out);
    out
}
