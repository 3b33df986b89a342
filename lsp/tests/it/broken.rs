//! Every kind of error the checker reports, through the editor: each case of the broken-spec
//! corpus (`tests/broken/*.yaml`, the checker's own list, one overlay per kind of error on
//! `tests/broken/_valid_base/`) is opened in the server, and what it publishes must be what
//! `mrds_spec::load_sources` reports of the same files: every diagnostic at its file, line and
//! column, with its message and hint. Then the case is fixed in the buffer (the base's text
//! typed back), and every diagnostic must clear.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::client::{Client, valid_base};

/// One step of an overlay (see `tests/tests/it/broken_specs.rs`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    edit: Option<String>,
    add: Option<String>,
    rewrite: Option<String>,
    remove: Option<String>,
    find: Option<String>,
    replace: Option<String>,
    text: Option<String>,
}

/// The cases, by name, with their files (the base with the overlay applied).
fn cases() -> Vec<(String, BTreeMap<String, String>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/broken");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpus")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for path in names {
        let name = path
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let overlay = std::fs::read_to_string(&path).expect("readable");
        let steps: Vec<Step> =
            mrds_spec::yaml::from_str(&overlay).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut files = valid_base();
        for s in steps {
            match (s.edit, s.add, s.rewrite, s.remove) {
                (Some(f), None, None, None) => {
                    let (find, replace) = (s.find.expect("find"), s.replace.expect("replace"));
                    let text = files.get_mut(&f).expect("a file of the base");
                    assert_eq!(
                        text.matches(&find).count(),
                        1,
                        "{name}: `{find}` once in {f}"
                    );
                    *text = text.replacen(&find, &replace, 1);
                }
                (None, Some(f), None, None) | (None, None, Some(f), None) => {
                    files.insert(f, s.text.expect("text"));
                }
                (None, None, None, Some(f)) => {
                    files.remove(&f);
                }
                _ => panic!("{name}: a step of one kind"),
            }
        }
        out.push((name, files));
    }
    out
}

/// What the checker reports of `files`, as `file:line:col: message | hint: ...` (lines and
/// columns from 1; the base's texts are ASCII, so a column in characters is one in UTF-16).
fn checker_lines(files: &BTreeMap<String, String>) -> Vec<String> {
    let sources: Vec<(String, String)> = files
        .iter()
        .map(|(n, t)| (format!("spec/{n}"), t.clone()))
        .collect();
    let Err(d) = mrds_spec::load_sources(&sources) else {
        return Vec::new();
    };
    let mut out: Vec<String> =
        d.0.iter()
            .map(|d| {
                let (file, line, column) = match &d.location {
                    Some(l) => (
                        l.file.trim_start_matches("spec/").to_owned(),
                        l.line,
                        l.column,
                    ),
                    None => (sources[0].0.trim_start_matches("spec/").to_owned(), 1, 1),
                };
                let message = match &d.hint {
                    Some(h) => format!("{}\nhint: {h}", d.message),
                    None => d.message.clone(),
                };
                format!("{file}:{line}:{column}: {}", message.replace('\n', " | "))
            })
            .collect();
    out.sort();
    out
}

fn server_lines(c: &Client) -> Vec<String> {
    let mut out = Vec::new();
    for (file, ds) in &c.diagnostics {
        for d in ds {
            out.push(format!(
                "{file}:{}:{}: {}",
                d.range.start.line + 1,
                d.range.start.character + 1,
                d.message.replace('\n', " | ")
            ));
        }
    }
    out.sort();
    out
}

/// Runs the cases whose index is `i` modulo `of` (the corpus split across tests, so each
/// stays short).
fn run_share(i: usize, of: usize) {
    let base = valid_base();
    for (n, (name, files)) in cases().into_iter().enumerate() {
        if n % of != i {
            continue;
        }
        let expected = checker_lines(&files);
        assert!(
            !expected.is_empty(),
            "{name}: the checker refuses every case"
        );
        // The case as files on disk.
        let mut c = Client::start(&files, None);
        assert_eq!(
            server_lines(&c),
            expected,
            "{name}: as the files on disk are"
        );
        // The case as a buffer over the valid base on disk: published as typed, cleared
        // when the base's text is typed back.
        drop(c);
        c = Client::start(&base, None);
        assert_eq!(server_lines(&c), Vec::<String>::new(), "the base is clean");
        let changed: Vec<&String> = files
            .keys()
            .filter(|f| base.get(*f) != files.get(*f))
            .collect();
        for f in &changed {
            c.open(f, &files[*f]);
        }
        c.settle();
        // A file the case removes stays on disk here: compare only the cases that edit.
        if files.keys().all(|f| base.contains_key(f)) && base.keys().all(|f| files.contains_key(f))
        {
            assert_eq!(server_lines(&c), expected, "{name}: as typed in buffers");
        }
        for (v, f) in changed.iter().enumerate() {
            // A file the case adds is emptied: a file of no section.
            let text = base.get(*f).map_or("", String::as_str);
            c.change(f, 2 + v as i32, text);
        }
        c.settle();
        assert_eq!(
            server_lines(&c),
            Vec::<String>::new(),
            "{name}: cleared when fixed"
        );
    }
}

#[test]
fn every_broken_case_is_published_as_the_checker_reports_it_share_0() {
    run_share(0, 6);
}

#[test]
fn every_broken_case_is_published_as_the_checker_reports_it_share_1() {
    run_share(1, 6);
}

#[test]
fn every_broken_case_is_published_as_the_checker_reports_it_share_2() {
    run_share(2, 6);
}

#[test]
fn every_broken_case_is_published_as_the_checker_reports_it_share_3() {
    run_share(3, 6);
}

#[test]
fn every_broken_case_is_published_as_the_checker_reports_it_share_4() {
    run_share(4, 6);
}

#[test]
fn every_broken_case_is_published_as_the_checker_reports_it_share_5() {
    run_share(5, 6);
}
