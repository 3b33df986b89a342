//! The breaking-change check (`mrds_diff`, `cargo xtask spec-diff`) over a corpus of
//! spec pairs under `tests/diff/`, each report pinned word for word (one snapshot per case,
//! `spec_diff__<case>.snap`); the exit policy; the JSON report; the change history as a table
//! against the real spec; and the command's errors for a base that does not exist or does not
//! load.
//!
//! `tests/diff/_base/` is a small valid spec with sample data. Each case `tests/diff/<case>.yaml`
//! makes the two sides of one comparison from it:
//!
//! ```yaml
//! # A new required parameter: old clients do not send it.
//! expect:
//!   - "param.added_required bars.venue: breaking/compatible"
//! new:
//!   - edit: api.yaml
//!     find: "      - { name: limit, in: query, ..."
//!     replace: "..."
//! ```
//!
//! - a comment line first, saying what changes;
//! - `old` and `new`: the steps that make each side from the base (none: the base itself), each
//!   `edit: FILE` with `find` (occurring exactly once) and `replace`, `add: FILE` with `text`,
//!   `rewrite: FILE` with `text`, or `remove: FILE`;
//! - `expect`: findings the report must hold, `<check id> <subject>: <clients>/<servers>`;
//! - `passes`: the verdict of the exit policy (both directions gated), when the case is about it.
//!
//! The files of both sides are named `spec/<file>` (as the command names the files of a
//! revision), so a location reads the same as in the command's report.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mrds_diff::render::Labels;
use mrds_diff::{ChangeKind, Gate};
use mrds_spec::{Api, load, load_sources_to_compare, load_spec};
use mrds_tests::overlay::{self, RawStep};

const BASE: &str = "_base";

fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("diff")
}

pub(super) fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

/// The base's files by name (`api.yaml`), without their header comment line.
fn base_files() -> BTreeMap<String, String> {
    let prefix = format!("{BASE}/");
    load::read_dir(&corpus_root().join(BASE))
        .expect("the base is readable")
        .into_iter()
        .map(|(name, text)| {
            let name = name.strip_prefix(&prefix).expect("named after the base");
            let body = text.split_once('\n').map_or("", |(_, body)| body);
            (name.to_owned(), body.to_owned())
        })
        .collect()
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    #[serde(default)]
    expect: Vec<String>,
    #[serde(default)]
    passes: Option<bool>,
    #[serde(default)]
    old: Vec<RawStep>,
    #[serde(default)]
    new: Vec<RawStep>,
}

/// One case: its two sides as named sources, and what it expects.
pub(crate) struct Case {
    pub(crate) name: String,
    pub(crate) old: Vec<(String, String)>,
    pub(crate) new: Vec<(String, String)>,
    expect: Vec<String>,
    passes: Option<bool>,
}

/// The base with `steps` applied, named `spec/<file>` and sorted as a directory is read.
fn apply(
    base: &BTreeMap<String, String>,
    steps: Vec<RawStep>,
) -> Result<Vec<(String, String)>, String> {
    let mut files = base.clone();
    overlay::apply(&mut files, &overlay::parse_steps(steps)?)?;
    let mut out: Vec<(String, String)> = files
        .into_iter()
        .map(|(name, text)| (format!("spec/{name}"), text))
        .collect();
    out.sort_by(|(a, _), (b, _)| Path::new(a).cmp(Path::new(b)));
    Ok(out)
}

fn parse_case(name: &str, text: &str, base: &BTreeMap<String, String>) -> Result<Case, String> {
    if !text.starts_with("# ") {
        return Err("line 1: a case starts with a comment line saying what changes".into());
    }
    let raw: RawCase = mrds_spec::yaml::from_str(text)?;
    if raw.old.is_empty() && raw.new.is_empty() && name != "no_change" {
        return Err("the case changes nothing (only `no_change` may)".into());
    }
    Ok(Case {
        name: name.to_owned(),
        old: apply(base, raw.old).map_err(|e| format!("old: {e}"))?,
        new: apply(base, raw.new).map_err(|e| format!("new: {e}"))?,
        expect: raw.expect,
        passes: raw.passes,
    })
}

/// Every case, sorted by name. Errors name the case's file.
pub(crate) fn cases() -> Vec<Case> {
    let base = base_files();
    let mut names = Vec::new();
    for entry in std::fs::read_dir(corpus_root()).expect("tests/diff is readable") {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if file == BASE && path.is_dir() {
            continue;
        }
        let name = file
            .strip_suffix(".yaml")
            .filter(|_| path.is_file())
            .unwrap_or_else(|| {
                panic!("tests/diff holds `{BASE}/` and `<case>.yaml` only, not `{file}`")
            })
            .to_owned();
        names.push(name);
    }
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let text = std::fs::read_to_string(corpus_root().join(format!("{name}.yaml"))).unwrap();
            parse_case(&name, &text, &base)
                .unwrap_or_else(|e| panic!("tests/diff/{name}.yaml: {e}"))
        })
        .collect()
}

/// One side of a case, loaded; the error names the case and the side. Each distinct set of
/// sources is loaded once for all the tests of the corpus (most cases share the base as one
/// side), and shared, not copied.
fn try_load(case: &Case, side: &str) -> Result<Arc<Api>, String> {
    type Loaded = BTreeMap<Vec<(String, String)>, Result<Arc<Api>, String>>;
    static LOADED: std::sync::Mutex<Loaded> = std::sync::Mutex::new(BTreeMap::new());
    let sources = if side == "old" { &case.old } else { &case.new };
    let known = LOADED.lock().unwrap().get(sources).cloned();
    let loaded = known.unwrap_or_else(|| {
        let loaded = load_sources_to_compare(sources)
            .map(Arc::new)
            .map_err(|d| d.to_string());
        LOADED
            .lock()
            .unwrap()
            .insert(sources.clone(), loaded.clone());
        loaded
    });
    loaded.map_err(|d| {
        format!(
            "tests/diff/{}.yaml: the {side} side does not load:\n{d}",
            case.name
        )
    })
}

pub(crate) fn load_side(case: &Case, side: &str) -> Arc<Api> {
    try_load(case, side).unwrap_or_else(|e| panic!("{e}"))
}

pub(super) fn labels() -> Labels {
    Labels {
        base: "old".into(),
        head: "new".into(),
    }
}

/// `check subject: clients/servers` of every finding.
fn summaries(changes: &mrds_diff::Changes) -> BTreeSet<String> {
    changes
        .contract
        .iter()
        .chain(&changes.samples)
        .map(|f| format!("{} {}: {}/{}", f.kind, f.subject, f.clients, f.servers))
        .collect()
}

/// The first half of the corpus (`tests/diff`, by name): each case reports what it expects,
/// passes or fails as it says, and its report is pinned. In two halves, each under a second.
#[test]
fn every_case_is_reported_as_expected_and_pinned_first_half() {
    reported_as_expected_and_pinned(0);
}

/// The second half of the corpus, as [`every_case_is_reported_as_expected_and_pinned_first_half`].
#[test]
fn every_case_is_reported_as_expected_and_pinned_second_half() {
    reported_as_expected_and_pinned(1);
}

/// The cases of `half` (0: the first half by name, 1: the second) report what they expect and
/// pass or fail as expected, and their reports are pinned.
fn reported_as_expected_and_pinned(half: usize) {
    let cases = cases();
    assert!(
        cases.len() >= 40,
        "only {} cases under tests/diff",
        cases.len()
    );
    let middle = cases.len() / 2;
    let cases = if half == 0 {
        &cases[..middle]
    } else {
        &cases[middle..]
    };
    let mut problems = Vec::new();
    for case in cases {
        let (old, new) = match (try_load(case, "old"), try_load(case, "new")) {
            (Ok(old), Ok(new)) => (old, new),
            (old, new) => {
                problems.extend(old.err());
                problems.extend(new.err());
                continue;
            }
        };
        let changes = mrds_diff::compare(&old, &new);
        let assessment = mrds_diff::assess(&changes, &old, &new, Gate::Both);
        let found = summaries(&changes);
        for e in &case.expect {
            if !found.contains(e) {
                problems.push(format!(
                    "{}: expected `{e}`; the report has:\n    {}",
                    case.name,
                    found.iter().cloned().collect::<Vec<_>>().join("\n    ")
                ));
            }
        }
        if let Some(passes) = case.passes
            && passes != assessment.passed()
        {
            problems.push(format!(
                "{}: expected the check to {}, it did not",
                case.name,
                if passes { "pass" } else { "fail" }
            ));
        }
        if case.name != "no_change" && changes.is_empty() {
            problems.push(format!("{}: the report is empty", case.name));
        }
        let text = mrds_diff::render::text(&changes, &assessment, &labels());
        insta::with_settings!({
            description => format!("spec-diff report of tests/diff/{}.yaml", case.name),
            omit_expression => true,
        }, {
            insta::assert_snapshot!(case.name.as_str(), text);
        });
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Checks no spec the loader accepts can produce, with the reason.
const UNREACHABLE: &[(&str, &str)] = &[];

/// Every check id the differ reports is expected by some case (the reverse direction of each
/// kind is a case of its own, or the reverse check, as `param_added_required` and
/// `param_removed_required`; `reversed_cases_swap_the_directions` checks every case backwards).
#[test]
fn the_corpus_covers_every_kind_of_change() {
    let expected: BTreeSet<String> = cases()
        .iter()
        .flat_map(|c| c.expect.iter())
        .filter_map(|e| e.split(' ').next().map(str::to_owned))
        .collect();
    let missing: Vec<&str> = ChangeKind::ALL
        .iter()
        .map(|c| c.id())
        .filter(|id| !expected.contains(*id) && !UNREACHABLE.iter().any(|(u, _)| u == id))
        .collect();
    assert!(
        missing.is_empty(),
        "no case expects: {}",
        missing.join(", ")
    );
    let unknown: Vec<&String> = expected
        .iter()
        .filter(|e| ChangeKind::from_id(e).is_none())
        .collect();
    assert!(
        unknown.is_empty(),
        "cases expect unknown checks: {unknown:?}"
    );
}

/// What the README's table says of each kind is what its findings say: a direction the kind
/// fixes has that impact in every finding of the corpus (both sides of every case, and
/// reversed), and a direction the kind leaves to each finding takes more than one impact
/// across the corpus (or the kind could fix it).
#[test]
fn findings_take_the_impacts_their_kind_fixes() {
    let mut decided: BTreeMap<(ChangeKind, &str), BTreeSet<mrds_diff::Impact>> = BTreeMap::new();
    let mut problems = Vec::new();
    for case in cases() {
        let (old, new) = (load_side(&case, "old"), load_side(&case, "new"));
        for changes in [
            mrds_diff::compare(&old, &new),
            mrds_diff::compare(&new, &old),
        ] {
            for f in changes.contract.iter().chain(&changes.samples) {
                let info = f.kind.info();
                for (direction, declared, impact) in [
                    ("clients", info.clients, f.clients),
                    ("servers", info.servers, f.servers),
                ] {
                    match declared.fixed() {
                        Some(fixed) if fixed != impact => problems.push(format!(
                            "{}: {} {} is {impact} for {direction}, its kind fixes {fixed}",
                            case.name, f.kind, f.subject
                        )),
                        Some(_) => {}
                        None => {
                            decided
                                .entry((f.kind, direction))
                                .or_default()
                                .insert(impact);
                        }
                    }
                }
            }
        }
    }
    for kind in ChangeKind::ALL {
        let info = kind.info();
        for (direction, declared) in [("clients", info.clients), ("servers", info.servers)] {
            let seen = decided.get(&(*kind, direction)).map_or(0, BTreeSet::len);
            if declared.fixed().is_none()
                && seen < 2
                && !UNREACHABLE.iter().any(|(u, _)| u == &kind.id())
            {
                problems.push(format!(
                    "{kind} leaves {direction} to each finding, but the corpus shows {seen} impact(s)"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_base_loads_and_compares_equal_to_itself() {
    let base = load_spec(&corpus_root().join(BASE)).unwrap_or_else(|d| panic!("{d}"));
    let changes = mrds_diff::compare(&base, &base);
    assert!(changes.is_empty(), "{changes:?}");
}

/// The real spec against itself: nothing changed.
#[test]
fn the_real_spec_equals_itself() {
    let spec = load_spec(&workspace_root().join("spec")).unwrap();
    let changes = mrds_diff::compare(&spec, &spec);
    assert!(changes.is_empty(), "{changes:?}");
}

/// Reversing a case swaps the directions: what broke clients breaks servers.
#[test]
fn reversed_cases_swap_the_directions() {
    for case in cases() {
        let (old, new) = (load_side(&case, "old"), load_side(&case, "new"));
        let forward = mrds_diff::compare(&old, &new);
        let backward = mrds_diff::compare(&new, &old);
        let breaks = |c: &mrds_diff::Changes, clients: bool| {
            c.contract.iter().any(|f| {
                let impact = if clients { f.clients } else { f.servers };
                impact == mrds_diff::Impact::Breaking
            })
        };
        // Undecidable comparisons break both ways in both orders; everything else swaps.
        if forward
            .contract
            .iter()
            .any(|f| f.explanation.contains("cannot be decided"))
        {
            continue;
        }
        assert_eq!(
            breaks(&forward, true),
            breaks(&backward, false),
            "{}: breaking for clients forward, for servers backward",
            case.name
        );
        assert_eq!(
            breaks(&forward, false),
            breaks(&backward, true),
            "{}: breaking for servers forward, for clients backward",
            case.name
        );
    }
}

pub(super) fn case(name: &str) -> Case {
    cases()
        .into_iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no case {name}"))
}

/// The JSON report: the same findings as the text, in the same order, keys sorted, stable.
#[test]
fn the_json_report_is_stable() {
    let c = case("param_added_required");
    let (old, new) = (load_side(&c, "old"), load_side(&c, "new"));
    let changes = mrds_diff::compare(&old, &new);
    let assessment = mrds_diff::assess(&changes, &old, &new, Gate::Both);
    let json = mrds_diff::render::json(&changes, &assessment, &labels());
    assert_eq!(
        json,
        mrds_diff::render::json(&mrds_diff::compare(&old, &new), &assessment, &labels()),
        "the same comparison prints the same JSON"
    );
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let checks: Vec<&str> = value["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["check"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = changes.contract.iter().map(|f| f.kind.id()).collect();
    assert_eq!(checks, expected);
    assert_eq!(value["summary"]["passed"], serde_json::Value::Bool(false));
    insta::assert_snapshot!("json_report", json);
}

/// A breaking change names the lines of hand-written code that use what it changes, with file
/// and line, before the build finds them: a required field made optional, in a workspace whose
/// tests read it (and one that reads a field of that name of another record, which is not
/// touched).
#[test]
fn a_breaking_change_names_the_hand_written_lines_it_touches() {
    let sources = mrds_spec::load::read_dir(&mrds_tests::workspace_root().join("spec")).unwrap();
    let old = load_sources_to_compare(&sources).unwrap();
    let (record, field) = (old.records.iter())
        .filter(|r| r.id != old.errors.object && r.id != old.errors.detail)
        .find_map(|r| {
            let f = r
                .fields
                .iter()
                .find(|f| !f.optional && !f.ident.starts_with("r#"))?;
            Some((r, f))
        })
        .expect("a record with a required field");
    let mut edited = sources.clone();
    let (file, line) = (&field.at.file, field.at.line);
    let text = &mut edited.iter_mut().find(|(n, _)| n == file).unwrap().1;
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let at = &mut lines[line - 1];
    assert!(at.contains(&format!("name: {}", field.wire)), "{at}");
    *at = at.replacen(
        &format!("name: {},", field.wire),
        &format!("name: {}, optional: true,", field.wire),
        1,
    );
    *text = lines.join("\n") + "\n";
    let new = load_sources_to_compare(&edited).unwrap_or_else(|d| panic!("{d}"));
    let changes = mrds_diff::compare(&old, &new);

    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("touched");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("tests")).unwrap();
    let (name, ident) = (&record.name, &field.ident);
    std::fs::write(
        root.join("tests/reads.rs"),
        format!("use mrds_model::{name};\n\nfn f(r: &{name}) {{\n    println!(\"{{}}\", r.{ident});\n}}\n"),
    )
    .unwrap();
    std::fs::write(
        root.join("tests/other.rs"),
        format!("fn g(x: &Unrelated) {{\n    let _ = x.{ident};\n}}\n"),
    )
    .unwrap();
    let touched = mrds_diff::touched::touched(&root, &changes, &old, &new);
    assert_eq!(
        touched
            .iter()
            .map(|t| (t.file.as_str(), t.line))
            .collect::<Vec<_>>(),
        [("tests/reads.rs", 4)],
        "{touched:#?}"
    );
    assert!(
        touched[0]
            .change
            .contains(&format!("{}.{}", record.spec_name, field.wire))
    );
}
