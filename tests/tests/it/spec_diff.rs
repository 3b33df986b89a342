//! The breaking-change check (`mrds_codegen::diff`, `cargo xtask spec-diff`) over a corpus of
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
use std::process::Command;

use mrds_codegen::diff::render::Labels;
use mrds_codegen::diff::{self, ChangeKind, Gate};
use mrds_codegen::{Api, load, load_sources, load_sources_to_compare, load_spec};
use mrds_tests::overlay::{self, RawStep};
use xtask::spec_diff::{Args, Direction, Format, Outcome};

const BASE: &str = "_base";

fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("diff")
}

fn workspace_root() -> PathBuf {
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
    let raw: RawCase = mrds_codegen::yaml::from_str(text)?;
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
/// side).
fn try_load(case: &Case, side: &str) -> Result<Api, String> {
    type Loaded = BTreeMap<Vec<(String, String)>, Result<Api, String>>;
    static LOADED: std::sync::Mutex<Loaded> = std::sync::Mutex::new(BTreeMap::new());
    let sources = if side == "old" { &case.old } else { &case.new };
    let known = LOADED.lock().unwrap().get(sources).cloned();
    let loaded = known.unwrap_or_else(|| {
        let loaded = load_sources_to_compare(sources).map_err(|d| d.to_string());
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

pub(crate) fn load_side(case: &Case, side: &str) -> Api {
    try_load(case, side).unwrap_or_else(|e| panic!("{e}"))
}

fn labels() -> Labels {
    Labels {
        base: "old".into(),
        head: "new".into(),
    }
}

/// `check subject: clients/servers` of every finding.
fn summaries(changes: &diff::Changes) -> BTreeSet<String> {
    changes
        .contract
        .iter()
        .chain(&changes.samples)
        .map(|f| format!("{} {}: {}/{}", f.kind, f.subject, f.clients, f.servers))
        .collect()
}

#[test]
fn every_case_is_reported_as_expected_and_pinned() {
    let cases = cases();
    assert!(
        cases.len() >= 40,
        "only {} cases under tests/diff",
        cases.len()
    );
    let mut problems = Vec::new();
    for case in &cases {
        let (old, new) = match (try_load(case, "old"), try_load(case, "new")) {
            (Ok(old), Ok(new)) => (old, new),
            (old, new) => {
                problems.extend(old.err());
                problems.extend(new.err());
                continue;
            }
        };
        let changes = diff::compare(&old, &new);
        let assessment = diff::assess(&changes, &old, &new, Gate::Both);
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
        let text = diff::render::text(&changes, &assessment, &labels());
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
const UNREACHABLE: &[(&str, &str)] = &[(
    "endpoint.method_changed",
    "the service is read-only: the loader accepts GET only",
)];

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
    let mut decided: BTreeMap<(ChangeKind, &str), BTreeSet<diff::Impact>> = BTreeMap::new();
    let mut problems = Vec::new();
    for case in cases() {
        let (old, new) = (load_side(&case, "old"), load_side(&case, "new"));
        for changes in [diff::compare(&old, &new), diff::compare(&new, &old)] {
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
    let changes = diff::compare(&base, &base);
    assert!(changes.is_empty(), "{changes:?}");
}

/// The real spec against itself: nothing changed.
#[test]
fn the_real_spec_equals_itself() {
    let spec = load_spec(&workspace_root().join("spec")).unwrap();
    let changes = diff::compare(&spec, &spec);
    assert!(changes.is_empty(), "{changes:?}");
}

/// Reversing a case swaps the directions: what broke clients breaks servers.
#[test]
fn reversed_cases_swap_the_directions() {
    for case in cases() {
        let (old, new) = (load_side(&case, "old"), load_side(&case, "new"));
        let forward = diff::compare(&old, &new);
        let backward = diff::compare(&new, &old);
        let breaks = |c: &diff::Changes, clients: bool| {
            c.contract.iter().any(|f| {
                let impact = if clients { f.clients } else { f.servers };
                impact == diff::Impact::Breaking
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

fn case(name: &str) -> Case {
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
    let changes = diff::compare(&old, &new);
    let assessment = diff::assess(&changes, &old, &new, Gate::Both);
    let json = diff::render::json(&changes, &assessment, &labels());
    assert_eq!(
        json,
        diff::render::json(&diff::compare(&old, &new), &assessment, &labels()),
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

/// The exit policy end to end through the command: breaking and unacknowledged is 1, the same
/// change acknowledged or with a major step is 0, no change is 0, `--breaking-for` narrows the
/// gate.
#[test]
fn the_command_exits_by_the_policy() {
    let scratch = scratch("exit_policy");
    let run_case = |name: &str, breaking_for: Direction| -> Outcome {
        run_case_in(
            &scratch.join(name),
            name,
            None,
            args(false, breaking_for, false),
        )
    };
    let code = |name: &str, d: Direction| run_case(name, d).code;
    assert_eq!(code("param_added_required", Direction::Both), 1);
    assert_eq!(code("param_added_required", Direction::Clients), 1);
    assert_eq!(code("param_added_required", Direction::Servers), 0);
    assert_eq!(code("policy_acknowledged_by_subject", Direction::Both), 0);
    assert_eq!(code("policy_acknowledged_by_check_id", Direction::Both), 0);
    assert_eq!(code("policy_major_version_step", Direction::Both), 0);
    assert_eq!(
        code("policy_old_acknowledgment_does_not_count", Direction::Both),
        1
    );
    assert_eq!(code("endpoint_added", Direction::Both), 1);
    assert_eq!(code("policy_endpoint_added_in_history", Direction::Both), 0);
    assert_eq!(code("no_change", Direction::Both), 0);
    let out = run_case("param_added_required", Direction::Both);
    assert!(out.stdout.contains("NOT ACKNOWLEDGED"), "{}", out.stdout);
    assert!(
        out.stdout.ends_with("1 not acknowledged\n"),
        "{}",
        out.stdout
    );
}

/// The arguments of a run (its base is set by [`run_case_in`]).
fn args(changelog: bool, breaking_for: Direction, release: bool) -> Args {
    Args {
        base: None,
        format: Format::Text,
        changelog,
        breaking_for,
        release,
    }
}

/// Runs `spec-diff` on case `name` written under `root`: its old side in `base/`, its new side
/// in `head/`, each with a root manifest, with the workspace versions `versions` (old, new)
/// when given.
fn run_case_in(root: &Path, name: &str, versions: Option<(&str, &str)>, args: Args) -> Outcome {
    let c = case(name);
    let manifest = |version: Option<&str>| match version {
        Some(v) => format!("[workspace]\nmembers = []\n\n[workspace.package]\nversion = \"{v}\"\n"),
        None => "[workspace]\n".to_owned(),
    };
    for (side, sources, version) in [
        ("base", &c.old, versions.map(|v| v.0)),
        ("head", &c.new, versions.map(|v| v.1)),
    ] {
        write_sources(&root.join(side), sources);
        std::fs::write(root.join(side).join("Cargo.toml"), manifest(version)).unwrap();
    }
    let base = Some(root.join("base").display().to_string());
    xtask::spec_diff::run(&root.join("head"), &Args { base, ..args })
}

/// The semver step of the changes against the workspace versions of both sides: a version
/// that changed must step at least as far as the changes need; an unchanged one passes (the
/// change is not a release) unless `--release` says the base is the last release.
#[test]
fn the_workspace_version_must_step_as_far_as_the_changes_need() {
    let scratch = scratch("versions");
    let run_case = |name: &str, old: &str, new: &str, release: bool| -> Outcome {
        let root = scratch.join(format!("{name}-{old}-{new}-{release}"));
        run_case_in(
            &root,
            name,
            Some((old, new)),
            args(false, Direction::Both, release),
        )
    };
    // An acknowledged addition: every crate needs a minor step.
    let added = "policy_endpoint_added_in_history";
    let out = run_case(added, "0.1.0", "0.1.0", false);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains(
            "semver step needed: mrds-model minor, mrds-server minor, mrds-client minor\n\
             workspace version 0.1.0 -> 0.1.0: unchanged (not a release); the next release needs 0.1.1 or later\n"
        ),
        "{}",
        out.stdout
    );
    assert_eq!(out.stderr, "");
    assert_eq!(run_case(added, "0.1.0", "0.1.0", true).code, 1);
    assert_eq!(run_case(added, "0.1.0", "0.1.1", true).code, 0);
    assert_eq!(run_case(added, "0.1.0", "0.2.0", false).code, 0);
    assert_eq!(
        run_case(added, "1.4.2", "1.4.3", false).code,
        1,
        "1.x: a patch is not a minor step"
    );
    assert_eq!(run_case(added, "1.4.2", "1.5.0", false).code, 0);
    let lower = run_case(added, "0.2.0", "0.1.9", false);
    assert_eq!(lower.code, 1);
    assert!(
        lower.stdout.contains("the version went DOWN"),
        "{}",
        lower.stdout
    );
    // A breaking change acknowledged in the history still needs a major step.
    let major = "policy_acknowledged_by_subject";
    let out = run_case(major, "0.1.0", "0.1.1", false);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains(
            "workspace version 0.1.0 -> 0.1.1: NOT ENOUGH: a minor step; the changes need 0.2.0 or later"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .ends_with("; the workspace version does not step far enough\n")
    );
    assert_eq!(run_case(major, "0.1.0", "0.2.0", false).code, 0);
    // Documentation only: a patch step.
    let docs = run_case("param_doc_changed", "1.0.0", "1.0.1", true);
    assert_eq!(docs.code, 0, "{}", docs.stdout);
    assert_eq!(run_case("no_change", "1.0.0", "1.0.0", true).code, 0);
}

/// The history agrees with a spec catching up with it: `--changelog` exits 0 for an endpoint
/// an existing entry already lists, and 1 for one no row lists.
#[test]
fn the_changelog_accepts_the_spec_catching_up() {
    let scratch = scratch("catching_up");
    for (name, code) in [
        ("policy_endpoint_added_catches_up_with_history", 0),
        ("policy_catching_up_needs_the_newest_row", 1),
        ("endpoint_added", 1),
    ] {
        let versions = Some(("0.1.0", "0.1.0"));
        let out = run_case_in(
            &scratch.join(name),
            name,
            versions,
            args(true, Direction::Both, false),
        );
        assert_eq!(out.code, code, "{name}:\n{}", out.stdout);
        if code == 0 {
            assert!(
                out.stdout.contains(
                    "- added `GET /v1/trades` (endpoint.added `trades`): listed by history 2026-09-10 (v0.11.0)"
                ),
                "{}",
                out.stdout
            );
            assert!(out.stdout.contains("history agrees with the changes"));
        }
    }
}

/// The report's verdict and `--changelog` decide whether an endpoint change is acknowledged by
/// one decision (the assessment's rows), so with both directions gated their exit statuses
/// agree: an endpoint the history lists (by a new row, by its newest row, by a row in a file of
/// its own), one it does not, one whose newest row is its removal (added live, or marked removed
/// as that row says), one named in `breaking` instead of `changes`.
#[test]
fn the_changelog_agrees_with_the_verdict() {
    let scratch = scratch("changelog_agrees");
    for (name, code) in [
        ("endpoint_added", 1),
        ("policy_endpoint_added_in_history", 0),
        ("policy_endpoint_added_catches_up_with_history", 0),
        ("history_entries_of_one_date_in_two_files", 0),
        ("policy_catching_up_needs_the_newest_row", 1),
        ("policy_newest_row_is_by_date_across_files", 1),
        (
            "policy_endpoint_added_marked_removed_as_the_history_says",
            0,
        ),
        ("policy_endpoint_named_in_breaking", 1),
    ] {
        for changelog in [false, true] {
            let out = run_case_in(
                &scratch.join(format!("{name}-{changelog}")),
                name,
                Some(("0.1.0", "0.1.0")),
                args(changelog, Direction::Both, false),
            );
            assert_eq!(
                out.code, code,
                "{name}, --changelog {changelog}:\n{}{}",
                out.stdout, out.stderr
            );
        }
    }
}

/// `--changelog` on the real spec against itself: the history as a table, and a history that
/// agrees with (no) changes.
#[test]
fn the_changelog_of_the_real_spec() {
    let root = workspace_root();
    let out = xtask::spec_diff::run(
        &root,
        &Args {
            base: Some(root.join("spec").display().to_string()),
            format: Format::Text,
            changelog: true,
            breaking_for: Direction::Both,
            release: false,
        },
    );
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    // One row per entry, in the history's order (the rows' format is pinned by the corpus's
    // changelog snapshots; the real history is not restated here).
    let history = load_spec(&root.join("spec")).unwrap().history;
    let rows: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("| 20"))
        .collect();
    assert_eq!(rows.len(), history.len());
    for (row, h) in rows.iter().zip(&history) {
        let head = format!("| {} | {} | ", h.date, h.versions.join(", "));
        assert!(row.starts_with(&head), "{row}");
        for c in &h.changes {
            assert!(row.contains(&format!("`{} {}`", c.method, c.path)), "{row}");
        }
    }
    assert!(
        out.stdout
            .contains("- no endpoint added or removed, no breaking change\n"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("history agrees with the changes"));
}

/// `--changelog` finds an endpoint change the history does not list, and a history row that
/// matches no change.
#[test]
fn the_changelog_checks_the_history() {
    for (name, agrees) in [
        ("endpoint_added", false),
        ("policy_endpoint_added_in_history", true),
        ("policy_history_row_without_change", false),
        ("policy_catching_up_needs_the_newest_row", false),
        (
            "policy_endpoint_added_marked_removed_as_the_history_says",
            true,
        ),
    ] {
        let c = case(name);
        let (old, new) = (load_side(&c, "old"), load_side(&c, "new"));
        let changes = diff::compare(&old, &new);
        let assessment = diff::assess(&changes, &old, &new, Gate::Both);
        let (text, ok) = diff::changelog::changelog(&changes, &assessment, &new, &labels());
        assert_eq!(ok, agrees, "{name}:\n{text}");
        insta::assert_snapshot!(format!("changelog_{name}"), text);
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("spec_diff")
        .join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes sources named `spec/<file>` below `root`.
fn write_sources(root: &Path, sources: &[(String, String)]) {
    for (name, text) in sources {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

fn run(root: &Path, base: Option<&str>) -> Outcome {
    xtask::spec_diff::run(
        root,
        &Args {
            base: base.map(str::to_owned),
            format: Format::Text,
            changelog: false,
            breaking_for: Direction::Both,
            release: false,
        },
    )
}

/// Replaces the machine-specific `dir` in `text`.
fn stable(text: &str, dir: &Path, with: &str) -> String {
    text.replace(&dir.display().to_string(), with)
}

#[test]
fn a_revision_that_does_not_exist_is_named() {
    let root = workspace_root();
    let out = run(&root, Some("no-such-revision-0f3c"));
    assert_eq!(out.code, 2);
    assert!(out.stdout.is_empty());
    insta::assert_snapshot!(
        "error_bad_revision",
        stable(&out.stderr, &root, "<workspace>")
    );
}

#[test]
fn a_base_directory_that_does_not_load_is_named() {
    let dir = scratch("broken_base_dir");
    let c = case("param_added_required");
    write_sources(&dir, &c.old);
    let api = dir.join("spec/api.yaml");
    let text = std::fs::read_to_string(&api).unwrap();
    std::fs::write(&api, text.replacen("required: true", "reqired: true", 1)).unwrap();
    let out = run(&workspace_root(), Some(&dir.display().to_string()));
    assert_eq!(out.code, 2);
    insta::assert_snapshot!(
        "error_base_dir_does_not_load",
        stable(&out.stderr, &dir, "<dir>")
    );
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A repository with two commits on `main` (the base spec, then a broken one) and a branch
/// `topic` whose work tree holds `c`'s new side.
fn repository(name: &str, c: &Case) -> PathBuf {
    let dir = scratch(name);
    git(&dir, &["init", "-q", "-b", "main"]);
    std::fs::write(dir.join("Cargo.toml"), "[workspace]\n").unwrap();
    write_sources(&dir, &c.old);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "base"]);
    git(&dir, &["tag", "rev-good"]);
    let api = dir.join("spec/api.yaml");
    let text = std::fs::read_to_string(&api).unwrap();
    std::fs::write(&api, text.replacen("required: true", "required: maybe", 1)).unwrap();
    git(&dir, &["commit", "-q", "-a", "-m", "broken"]);
    git(&dir, &["tag", "rev-broken"]);
    git(&dir, &["checkout", "-q", "-b", "topic", "rev-good"]);
    std::fs::remove_dir_all(dir.join("spec")).unwrap();
    write_sources(&dir, &c.new);
    dir
}

/// Revisions are read from git without touching the work tree; the default base is the merge
/// base with `main`; a revision whose spec does not load is named with the file, line and
/// column of each problem.
#[test]
fn revisions_are_read_from_git() {
    let c = case("param_added_required");
    let dir = repository("git_revisions", &c);
    let by_rev = run(&dir, Some("rev-good"));
    assert_eq!(by_rev.code, 1, "{}", by_rev.stderr);
    assert!(
        by_rev.stdout.contains("param.added_required bars.venue"),
        "{}",
        by_rev.stdout
    );
    let default = run(&dir, None);
    assert_eq!(default.code, 1, "{}", default.stderr);
    assert!(
        default
            .stdout
            .starts_with("spec-diff: base (merge base of HEAD and main, ")
    );
    assert_eq!(
        default.stdout.split_once('\n').unwrap().1,
        by_rev.stdout.split_once('\n').unwrap().1
    );
    let broken = run(&dir, Some("rev-broken"));
    assert_eq!(broken.code, 2);
    let commit = |rev: &str| {
        let out = Command::new("git")
            .arg("-C")
            .arg(&dir)
            .args(["rev-parse", "--short=7", rev])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    insta::assert_snapshot!(
        "error_base_rev_does_not_load",
        broken.stderr.replace(&commit("rev-broken"), "<commit>")
    );
    // A name that is both a directory (here, beside the test's working directory) and a
    // revision is refused.
    git(&dir, &["tag", "diff"]);
    let ambiguous = run(&dir, Some("diff"));
    assert_eq!(ambiguous.code, 2);
    assert_eq!(
        ambiguous.stderr,
        "spec-diff: `diff` is both a directory and a revision: write `./diff` for the directory, or `diff^0` for the revision\n"
    );
    // The work tree was not touched.
    assert!(
        std::fs::read_to_string(dir.join("spec/api.yaml"))
            .unwrap()
            .contains("venue")
    );
}

/// On a clone where HEAD is the merge base (or there is no `main`), the default base is HEAD
/// itself: an unchanged work tree reports no change and passes.
#[test]
fn the_default_base_of_an_unchanged_clone_passes() {
    let c = case("no_change");
    let dir = scratch("clean_clone");
    git(&dir, &["init", "-q", "-b", "main"]);
    std::fs::write(
        dir.join("Cargo.toml"),
        "[workspace]\n\n[workspace.package]\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    write_sources(&dir, &c.new);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "base"]);
    let out = run(&dir, None);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("no contract change"), "{}", out.stdout);
    git(&dir, &["branch", "-q", "-m", "main", "trunk"]);
    let out = run(&dir, None);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert_eq!(
        out.stderr,
        "spec-diff: note: no `main` branch; comparing with HEAD\n"
    );
}

/// The names of a history entry's `breaking` list are checked when the spec loads.
#[test]
fn history_acknowledgments_are_checked() {
    let c = case("policy_acknowledged_by_subject");
    let mut sources = c.new.clone();
    let service = sources
        .iter_mut()
        .find(|(name, _)| name == "spec/service.yaml")
        .unwrap();
    service.1 = service.1.replace(
        "breaking: [bars.venue]",
        "breaking: [bars.venue, \" bars\", bars.venue]",
    );
    let diags = load_sources(&sources).expect_err("the names are wrong");
    insta::assert_snapshot!("history_breaking_names", diags.to_string());
}
