//! Snapshots of the parameter types generated for one small fixture spec per rule kind
//! (`tests/fixtures/*.yaml`, each on top of `base.yaml`), the code rule kinds shape. The real
//! spec's output is pinned by the drift check (`tests/tests/drift.rs`), not copied here.

use std::path::{Path, PathBuf};

use mrds_emit::{FileSet, all as generate};
use mrds_spec::load_sources;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn generate_from(sources: &[(String, String)]) -> FileSet {
    let api = load_sources(sources).unwrap_or_else(|d| panic!("spec does not load:\n{d}"));
    generate(&api).unwrap_or_else(|e| panic!("{e}"))
}

fn read(path: &Path) -> (String, String) {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (name, text)
}

fn snapshot_name(prefix: &str, path: &str) -> String {
    format!("{prefix}__{}", path.replace(['/', '.'], "_"))
}

#[test]
fn fixture_output_is_pinned_per_rule_kind() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let base = read(&dir.join("base.yaml"));
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n != "base.yaml"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 6, "one fixture per rule kind");
    for case in cases {
        let kind = case.file_stem().unwrap().to_string_lossy().into_owned();
        let files = generate_from(&[base.clone(), read(&case)]);
        let path = "crates/mrds-model/src/params.rs";
        let text = files.get(path).expect("the model crate has params.rs");
        insta::assert_snapshot!(snapshot_name(&kind, path), text);
    }
}

#[test]
fn output_does_not_depend_on_file_order() {
    let mut sources = mrds_spec::load::read_dir(&root().join("spec")).unwrap();
    let first = generate_from(&sources);
    sources.reverse();
    let second = generate_from(&sources);
    assert_eq!(first, second);
}

/// Fails naming the generated files that differ between `a` and `b`, and the first line of each
/// that does.
fn same_output(a: &FileSet, b: &FileSet, what: &str) {
    let paths: std::collections::BTreeSet<&str> =
        a.iter().chain(b.iter()).map(|(path, _)| path).collect();
    let differ: Vec<String> = paths
        .into_iter()
        .filter(|path| a.get(path) != b.get(path))
        .map(|path| {
            let (x, y) = (
                a.get(path).unwrap_or_default(),
                b.get(path).unwrap_or_default(),
            );
            let line = x.lines().zip(y.lines()).find(|(l, r)| l != r);
            format!("{path}: {line:?}")
        })
        .collect();
    assert!(
        differ.is_empty(),
        "{what}: the output differs in\n{}",
        differ.join("\n")
    );
}

/// The real spec with its history split over two files: `service.yaml` keeps every other entry
/// and `spec/endpoints/history_part.yaml` (read before `service.yaml` in directory order) holds
/// the rest, plus `extra` entries. The history must be the last section of `service.yaml`.
fn history_split(sources: &[(String, String)], extra: &str) -> Vec<(String, String)> {
    let mut out = sources.to_vec();
    let service = out
        .iter_mut()
        .find(|(name, _)| name.ends_with("/service.yaml"))
        .expect("the spec has service.yaml");
    let (head, rows) = service
        .1
        .split_once("\nhistory:\n")
        .expect("service.yaml holds the history");
    assert!(
        rows.lines()
            .all(|l| l.is_empty() || l.starts_with(' ') || l.starts_with('#')),
        "the history is the last section of service.yaml"
    );
    let mut entries: Vec<String> = Vec::new();
    for line in rows.lines() {
        if line.starts_with("  - ") || entries.is_empty() {
            entries.push(String::new());
        }
        let entry = entries.last_mut().expect("one entry at least");
        entry.push_str(line);
        entry.push('\n');
    }
    assert!(entries.len() >= 4, "the history has a few entries to split");
    let (mut kept, mut moved) = (String::new(), String::from(extra));
    for (i, entry) in entries.iter().enumerate() {
        if i % 2 == 0 { &mut moved } else { &mut kept }.push_str(entry);
    }
    service.1 = format!("{head}\nhistory:\n{kept}");
    out.push((
        "spec/endpoints/history_part.yaml".to_owned(),
        format!("history:\n{moved}"),
    ));
    out.sort_by(|(a, _), (b, _)| Path::new(a).cmp(Path::new(b)));
    out
}

/// History rows may be written in any file: the rows of every file are merged and sorted by
/// date, newest first (entries of one date by what they say), so which file holds a row and
/// the order the files are read in change nothing.
#[test]
fn history_rows_in_two_files_are_merged_by_date() {
    let sources = mrds_spec::load::read_dir(&root().join("spec")).unwrap();
    let one_file = generate_from(&sources);
    let mut split = history_split(&sources, "");
    same_output(
        &generate_from(&split),
        &one_file,
        "the history split over two files, against the history in one",
    );
    split.reverse();
    same_output(
        &generate_from(&split),
        &one_file,
        "the history split over two files read in reverse order, against the history in one",
    );

    // Rows of one date, one in each file: one entry holding both, the same either way.
    let api = load_sources(&sources).unwrap();
    let newest = &api.history[0].date;
    let extra = format!(
        "  - date: {newest}\n    versions: [v0.99.0]\n    changes:\n      \
         - {{ action: added, method: GET, path: /v1/file-order-probe }}\n"
    );
    let mut split = history_split(&sources, &extra);
    let first = load_sources(&split).unwrap_or_else(|d| panic!("{d}"));
    let forward = generate_from(&split);
    split.reverse();
    let second = load_sources(&split).unwrap();
    same_output(
        &generate_from(&split),
        &forward,
        "two entries of one date in two files, read in both orders",
    );
    let rows = |api: &mrds_spec::Api| -> Vec<(String, Vec<String>)> {
        api.history
            .iter()
            .map(|h| (h.date.clone(), h.versions.clone()))
            .collect()
    };
    assert_eq!(
        format!("{:?}", first.history),
        format!("{:?}", second.history),
        "the same history, places included, in either order"
    );
    assert_eq!(rows(&first).len(), api.history.len());
    assert!(
        first.history.windows(2).all(|w| w[0].date > w[1].date),
        "newest first, one entry a date: {:?}",
        rows(&first)
    );
    let merged = &first.history[0];
    assert_eq!(&merged.date, newest);
    let mut both = api.history[0].versions.clone();
    both.push("v0.99.0".to_string());
    both.sort();
    let mut held = merged.versions.clone();
    held.sort();
    assert_eq!(held, both, "the entry holds both rows' versions");
    assert!(
        (merged.changes.iter()).any(|c| c.path == "/v1/file-order-probe")
            && merged.changes.len() == api.history[0].changes.len() + 1,
        "and both rows' changes"
    );
}

#[test]
fn every_generated_file_is_headed_as_generated() {
    let sources = mrds_spec::load::read_dir(&root().join("spec")).unwrap();
    for (path, text) in generate_from(&sources).iter() {
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.contains("@generated by `cargo xtask codegen`"),
            "{path} starts with {first:?}"
        );
    }
}
