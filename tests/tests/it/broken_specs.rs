//! The corpus of broken specs under `tests/broken/`: every case must fail to load, without a
//! panic, and its diagnostics are pinned word for word (one snapshot per case, named after the
//! case). A property test also checks that truncated and mutilated copies of the real spec never
//! make the loader or the checker panic.
//!
//! `tests/broken/_valid_base/` is a small valid spec (it must load cleanly). Each case is an
//! overlay on it, `tests/broken/<case>.yaml`, that states only its deliberate defect (the
//! `many_*` cases hold several, to show all are reported at once):
//!
//! ```yaml
//! # Broken on purpose: `limit` has min 100 above max 10.
//! - edit: api.yaml
//!   find: "min: 1, max: 100, default: 10"
//!   replace: "min: 100, max: 10"
//! ```
//!
//! An overlay starts with comment lines, the first one `# Broken on purpose:` naming the defect,
//! then lists the steps, applied in order, each naming the file it changes:
//!
//! - `edit: FILE` with `find: TEXT` and `replace: TEXT` replaces the one occurrence of `find` in
//!   the file as the earlier steps left it (its header or comment lines aside); a `find` that
//!   occurs nowhere or several times is an error;
//! - `add: FILE` with `text: TEXT` adds a file the base does not have;
//! - `rewrite: FILE` with `text: TEXT` gives a file of the base a new content;
//! - `remove: FILE` leaves a file of the base out.
//!
//! Overlays are read with the generator's own YAML reader (`mrds_spec::yaml`); an unknown key, or a step with keys its kind does not
//! take, is an error that names the case.
//!
//! The case is built in memory and loaded with `load_sources` in a child process whose heap is
//! capped (`mrds_tests::capped`: a case such as `alias_bomb`, were the reader's alias budget to
//! regress, fails the test instead of taking the machine's memory), under the names a
//! directory `tests/broken/<case>/` would give its files (`<case>/api.yaml`, sorted as
//! `load::read_dir` sorts them):
//!
//! - a base file starts with a header comment line saying it is the base; a file the overlay
//!   leaves alone loses that line;
//! - a file the overlay writes (edits, adds or rewrites) starts with the overlay's leading
//!   comment lines instead, so it names its defect, and with a one-line comment an edited file
//!   keeps the line numbers of the base;
//! - every case holds the base's `samples.yaml`: a defect elsewhere must not bring follow-on
//!   diagnostics from the samples (a misspelt name is one error, not a cascade).
//!
//! One case is not an overlay: `empty_spec_dir`, a spec directory without any `.yaml` file, is
//! reported by `load::read_dir` before there is anything to give `load_sources`, so
//! `an_empty_spec_dir_fails_with_pinned_diagnostics` makes such a directory.

use std::any::Any;
use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use mrds_spec::{Diagnostics, load, load_sources, load_spec};
use mrds_tests::capped;
use mrds_tests::overlay::{self, RawStep, Step};

/// The directory of the base, under `tests/broken`.
const BASE: &str = "_valid_base";

/// How an overlay, and so every file it writes, starts.
const CASE_COMMENT: &str = "# Broken on purpose:";

fn broken_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("broken")
}

/// The files of the base, by their name in it (`api.yaml`), with their whole text.
fn base_files() -> BTreeMap<String, String> {
    let prefix = format!("{BASE}/");
    load::read_dir(&broken_root().join(BASE))
        .expect("the base is readable")
        .into_iter()
        .map(|(name, text)| {
            let name = name.strip_prefix(&prefix).expect("named after the base");
            (name.to_owned(), text)
        })
        .collect()
}

/// The cases, by name (the overlay's file name without `.yaml`) with their overlay's text,
/// sorted by name. Besides the overlays, `tests/broken` holds the base only.
fn cases() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(broken_root()).expect("tests/broken is readable") {
        let path = entry.expect("tests/broken entry is readable").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("tests/broken names are UTF-8");
        if name == BASE && path.is_dir() {
            continue;
        }
        let case = name
            .strip_suffix(".yaml")
            .filter(|_| path.is_file())
            .unwrap_or_else(|| {
                panic!("tests/broken holds `{BASE}/` and `<case>.yaml` overlays only, not `{name}`")
            });
        let overlay = std::fs::read_to_string(&path).expect("an overlay is readable");
        out.push((case.to_owned(), overlay));
    }
    out.sort();
    out
}

/// A case's overlay on the base.
#[derive(Debug)]
struct Overlay {
    /// The leading comment lines, each with its line break; every file the overlay writes
    /// starts with them.
    comment: String,
    steps: Vec<Step>,
}

/// Reads an overlay (the format is in the module documentation).
fn parse_overlay(source: &str) -> Result<Overlay, String> {
    if !source.starts_with(CASE_COMMENT) {
        return Err(format!(
            "line 1: an overlay starts with `{CASE_COMMENT}` and the defect"
        ));
    }
    let comment = source
        .lines()
        .take_while(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let raw: Vec<RawStep> = mrds_spec::yaml::from_str(source)?;
    if raw.is_empty() {
        return Err("the overlay has no step".to_owned());
    }
    let steps = overlay::parse_steps(raw)?;
    Ok(Overlay { comment, steps })
}

/// The sources of case `case`: the base with the overlay applied (the rules are in the module
/// documentation), named and sorted as `load::read_dir` names and sorts a directory `<case>/`.
fn build_case(
    case: &str,
    base: &BTreeMap<String, String>,
    overlay: &Overlay,
) -> Result<Vec<(String, String)>, String> {
    let mut files = BTreeMap::new();
    for (name, text) in base {
        match text.split_once('\n') {
            Some((header, body)) if header.starts_with('#') => {
                files.insert(name.clone(), body.to_owned());
            }
            _ => {
                return Err(format!(
                    "tests/broken/{BASE}/{name} does not start with its header comment line"
                ));
            }
        }
    }
    let written = overlay::apply(&mut files, &overlay.steps)?;
    let mut sources: Vec<(String, String)> = files
        .into_iter()
        .map(|(name, body)| {
            let text = if written.contains(name.as_str()) {
                format!("{}{body}", overlay.comment)
            } else {
                body
            };
            (format!("{case}/{name}"), text)
        })
        .collect();
    sources.sort_by(|(a, _), (b, _)| Path::new(a).cmp(Path::new(b)));
    Ok(sources)
}

/// The sources of case `case` whose overlay is `overlay`. Errors name the overlay's file.
fn case_sources(
    case: &str,
    overlay: &str,
    base: &BTreeMap<String, String>,
) -> Result<Vec<(String, String)>, String> {
    parse_overlay(overlay)
        .and_then(|overlay| build_case(case, base, &overlay))
        .map_err(|e| format!("tests/broken/{case}.yaml: {e}"))
}

/// The text of a panic payload.
fn panic_text(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(non-text panic payload)".to_owned())
}

/// Pins the diagnostics of case `name` (snapshot `broken_specs__<name>.snap`).
fn pin(name: &str, text: String) {
    insta::with_settings!({
        description => format!("diagnostics of tests/broken/{name}"),
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, text);
    });
}

#[test]
fn every_broken_spec_fails_with_pinned_diagnostics() {
    let base = base_files();
    let cases = cases();
    assert!(
        cases.len() >= 30,
        "expected at least 30 cases under tests/broken, found {}",
        cases.len()
    );

    // First every case, so that one report names every case that panics or loads. The cases
    // are loaded in a child process with a capped heap: a case that makes the loader allocate
    // without bound (`alias_bomb`, were the alias budget to regress) fails the test instead of
    // taking the machine's memory.
    let mut problems = Vec::new();
    let mut specs = Vec::new();
    for (name, overlay) in &cases {
        match case_sources(name, overlay, &base) {
            Ok(sources) => specs.push(capped::Spec {
                name: name.clone(),
                sources,
            }),
            Err(e) => problems.push(e),
        }
    }
    let loaded = capped::load_capped(Path::new(env!("CARGO_BIN_EXE_mrds-load-capped")), &specs)
        .unwrap_or_else(|e| panic!("the broken specs could not be loaded: {e}"));
    let mut texts = Vec::new();
    for capped::Loaded { name, outcome, .. } in loaded {
        match outcome {
            capped::Outcome::Panicked(message) => {
                problems.push(format!("{name}: loading panicked: {message}"))
            }
            capped::Outcome::Loaded => problems.push(format!(
                "{name}: loaded without error, but the case is broken on purpose"
            )),
            capped::Outcome::Refused { count, text } => {
                if count == 0 {
                    problems.push(format!("{name}: failed with an empty list of diagnostics"));
                }
                texts.push((name, text));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "broken-spec cases misbehaved:\n{}",
        problems.join("\n")
    );

    for (name, text) in texts {
        pin(&name, text);
    }
}

/// The alias bomb (ten levels of nine aliases, 9^10 values expanded) is refused at the alias
/// that goes over the file's budget, naming the budget and the anchor, with the heap it takes to
/// read the case's few files: the aliases are never expanded. Loaded in the capped child, so a
/// regressed budget fails here instead of taking the machine's memory.
#[test]
fn an_alias_bomb_is_refused_without_expanding_it() {
    let name = "alias_bomb";
    let overlay = std::fs::read_to_string(broken_root().join(format!("{name}.yaml")))
        .expect("the case is readable");
    let spec = capped::Spec {
        name: name.to_owned(),
        sources: case_sources(name, &overlay, &base_files()).expect("the overlay applies"),
    };
    let loaded = capped::load_capped(Path::new(env!("CARGO_BIN_EXE_mrds-load-capped")), &[spec])
        .unwrap_or_else(|e| panic!("the alias bomb could not be loaded: {e}"));
    let capped::Outcome::Refused { count: 1, text } = &loaded[0].outcome else {
        panic!(
            "the alias bomb was not refused with one error: {:?}",
            loaded[0].outcome
        );
    };
    assert!(
        text.starts_with(
            "alias_bomb/api.yaml:38:226: error: the alias `*c` goes over the alias budget: \
             with its aliases expanded, this file would be larger than 16850, 10 times its size"
        ),
        "{text}"
    );
    assert!(
        text.contains("hint: the value of `&c` (line 38, column 169)"),
        "{text}"
    );
    // The case's files, the report and the loader's own tables: far below one expansion.
    let peak = loaded[0].peak_heap;
    assert!(
        peak < 4 << 20,
        "the alias bomb took {peak} bytes of heap to refuse"
    );
}

/// The diagnostics as printed, with the machine-specific location of the spec directory
/// replaced, so a message naming the directory itself is the same everywhere.
fn stable_text(diags: &Diagnostics, name: &str, dir: &Path) -> String {
    diags
        .to_string()
        .replace(&dir.display().to_string(), &format!("tests/broken/{name}"))
}

/// The one case that is not an overlay: a spec directory without any `.yaml` file, which
/// `load::read_dir` reports before there is anything to give `load_sources`. The directory is
/// made under Cargo's scratch directory for tests; the pinned message names it
/// `tests/broken/empty_spec_dir`, as when the case was a directory of the corpus.
#[test]
fn an_empty_spec_dir_fails_with_pinned_diagnostics() {
    let name = "empty_spec_dir";
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("broken_specs")
        .join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("the old scratch directory can be removed");
    }
    std::fs::create_dir_all(&dir).expect("the scratch directory can be made");
    match load_spec(&dir) {
        Ok(_) => panic!("an empty directory loaded as a spec"),
        Err(diags) => pin(name, stable_text(&diags, name, &dir)),
    }
}

/// A spec directory with a symbolic link that leads back into it, and a link to nothing: the
/// loop is named once (not followed until the path is too long) and the unreadable file by its
/// name.
#[test]
fn links_in_the_spec_dir_fail_with_pinned_diagnostics() {
    let name = "links_in_spec_dir";
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("broken_specs")
        .join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("the old scratch directory can be removed");
    }
    for (file, text) in base_files() {
        let path = dir.join(&file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    std::fs::create_dir_all(dir.join("more")).unwrap();
    std::os::unix::fs::symlink("..", dir.join("more/again")).unwrap();
    std::os::unix::fs::symlink("nowhere.yaml", dir.join("dangling.yaml")).unwrap();
    match load_spec(&dir) {
        Ok(_) => panic!("a spec directory with a link loop loaded"),
        Err(diags) => {
            let text = stable_text(&diags, name, &dir);
            assert_eq!(text.matches("symbolic link loop").count(), 1, "{text}");
            pin(name, text);
        }
    }
}

/// Every overlay reads and applies; an error names the case.
#[test]
fn every_overlay_parses_and_applies() {
    let base = base_files();
    let problems: Vec<String> = cases()
        .iter()
        .filter_map(|(name, overlay)| case_sources(name, overlay, &base).err())
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A mistake in an overlay fails, naming the case and what is wrong.
#[test]
fn overlay_mistakes_fail_naming_the_case() {
    let base = base_files();
    let fails = |overlay: &str, expected: &str| {
        let err = case_sources("a_case", overlay, &base)
            .expect_err(&format!("this overlay must fail:\n{overlay}"));
        assert!(
            err.starts_with("tests/broken/a_case.yaml: ") && err.contains(expected),
            "expected {expected:?} in the error: {err}"
        );
    };
    let edit = |find: &str| {
        format!(
            "# Broken on purpose: test.\n- edit: api.yaml\n  find: \"{find}\"\n  replace: \"x\"\n"
        )
    };
    fails(
        &edit("no such text"),
        "the `find` text occurs 0 times in api.yaml",
    );
    fails(&edit("doc: "), "times in api.yaml, not once");
    fails(
        "# Broken on purpose: test.\n- edit: api.yaml\n  fnd: \"Bar\"\n  replace: \"x\"\n",
        "unknown field `fnd`",
    );
    fails(
        "# Broken on purpose: test.\n- edit: api.yaml\n  find: \"Bar\"\n",
        "`edit` takes a non-empty `find` and a `replace`",
    );
    fails(
        "# Broken on purpose: test.\n- chmod: api.yaml\n",
        "unknown field `chmod`",
    );
    fails(
        "- remove: api.yaml\n",
        "line 1: an overlay starts with `# Broken on purpose:`",
    );
    fails(
        "# Broken on purpose: test.\n- remove: nope.yaml\n",
        "no file `nope.yaml`",
    );
    fails(
        "# Broken on purpose: test.\n- add: api.yaml\n  text: \"x\"\n",
        "`api.yaml` is a file of the base",
    );
    fails(
        "# Broken on purpose: test.\n- edit: api.yaml\n  find: min: 1\n  replace: \"x\"\n",
        "line 3",
    );
    fails(
        "# Broken on purpose: test.\n- edit: api.yaml\n  remove: api.yaml\n",
        "a step has exactly one of the keys",
    );
}

/// The file set of a case follows the rules of the module documentation.
#[test]
fn a_case_is_the_base_with_its_overlay() {
    let base = base_files();
    let overlay = "# Broken on purpose: test.\n# A second comment line.\n\
                   - edit: service.yaml\n  find: |-\n    base_path: /api\n  replace: 'base_path: \"\"'\n\
                   - add: more/extra.yaml\n  text: |\n    ~\n";
    let sources = case_sources("a_case", overlay, &base).expect("the overlay applies");
    let names: Vec<&str> = sources.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        [
            "a_case/api.yaml",
            "a_case/more/extra.yaml",
            "a_case/samples.yaml",
            "a_case/service.yaml"
        ]
    );
    let without_header = |text: &str| text.split_once('\n').expect("a header line").1.to_owned();
    assert_eq!(sources[0].1, without_header(&base["api.yaml"]));
    let comment = "# Broken on purpose: test.\n# A second comment line.\n";
    assert_eq!(sources[1].1, format!("{comment}~\n"));
    let service =
        without_header(&base["service.yaml"]).replace("base_path: /api", "base_path: \"\"");
    assert_eq!(sources[3].1, format!("{comment}{service}"));
}

/// The base every case is derived from is valid, so each case fails for its own defect only.
#[test]
fn the_valid_base_loads() {
    let dir = broken_root().join(BASE);
    if let Err(diags) = load_spec(&dir) {
        panic!("tests/broken/{BASE} must load cleanly:\n{diags}");
    }
}

/// Blank files (empty, comments only, or a bare `---`) are accepted as contributing nothing.
#[test]
fn blank_files_contribute_nothing() {
    let base = load::read_dir(&broken_root().join(BASE)).expect("base is readable");
    let reference = load_sources(&base).expect("the base loads");
    for blank in ["", "\n\n", "# only a comment\n", "---\n"] {
        let mut sources = base.clone();
        sources.push((format!("{BASE}/blank.yaml"), blank.to_owned()));
        match load_sources(&sources) {
            Ok(api) => {
                let ids = |a: &mrds_spec::Api| {
                    a.endpoints.iter().map(|e| e.id.clone()).collect::<Vec<_>>()
                };
                assert_eq!(ids(&api), ids(&reference), "blank file {blank:?}");
                assert_eq!(api.records.len(), reference.records.len());
                assert_eq!(api.value_sets.len(), reference.value_sets.len());
            }
            Err(diags) => panic!("a blank file {blank:?} made the spec fail:\n{diags}"),
        }
    }
}

/// Loads `sources`, turning a panic into a description of the input that caused it.
fn load_without_panic(what: &str, sources: &[(String, String)]) -> Result<(), String> {
    let result = panic::catch_unwind(AssertUnwindSafe(|| load_sources(sources)));
    let diags = match result {
        Err(payload) => {
            return Err(format!(
                "{what}: load_sources panicked: {}",
                panic_text(payload.as_ref())
            ));
        }
        Ok(Ok(_)) => return Ok(()),
        Ok(Err(diags)) => diags,
    };
    // A failure names real places: a file that was given, a line within it, a column from 1.
    if diags.is_empty() {
        return Err(format!("{what}: failed without a diagnostic"));
    }
    for d in &diags.0 {
        if let Some(loc) = &d.location {
            let Some((_, text)) = sources.iter().find(|(name, _)| *name == loc.file) else {
                return Err(format!("{what}: diagnostic names unknown file: {d}"));
            };
            let lines = text.lines().count() + 1;
            if loc.line == 0 || loc.line > lines || loc.column == 0 {
                return Err(format!(
                    "{what}: diagnostic points outside its file ({lines} lines): {d}"
                ));
            }
        }
    }
    Ok(())
}

/// The largest char boundary at or below `i`.
fn char_floor(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The mutations of the real spec: every file truncated every 97 bytes (on a char boundary,
/// the others left whole), and each single line of the biggest file deleted in turn; with a
/// `budget`, that many of them, spread evenly over the whole list.
fn mutations(
    sources: &[(String, String)],
    budget: Option<usize>,
) -> Vec<(String, Vec<(String, String)>)> {
    // What each mutation does, made only for those picked (the list itself is cheap).
    enum Cut {
        Truncate { file: usize, at: usize },
        DeleteLine { file: usize, line: usize },
    }
    let mut all = Vec::new();
    for (i, (_, text)) in sources.iter().enumerate() {
        let mut cuts: Vec<usize> = (0..text.len())
            .step_by(97)
            .map(|at| char_floor(text, at))
            .collect();
        cuts.push(char_floor(text, text.len() - 1));
        cuts.dedup();
        all.extend(cuts.into_iter().map(|at| Cut::Truncate { file: i, at }));
    }
    let (big, (_, big_text)) = sources
        .iter()
        .enumerate()
        .max_by_key(|(_, (_, text))| text.len())
        .expect("at least one file");
    let lines: Vec<&str> = big_text.split_inclusive('\n').collect();
    all.extend((0..lines.len()).map(|line| Cut::DeleteLine { file: big, line }));
    let picked: Vec<&Cut> = match budget {
        Some(n) if n < all.len() => (0..n).map(|k| &all[k * all.len() / n]).collect(),
        _ => all.iter().collect(),
    };
    picked
        .into_iter()
        .map(|cut| {
            let mut mutated = sources.to_vec();
            let what = match *cut {
                Cut::Truncate { file, at } => {
                    mutated[file].1.truncate(at);
                    format!("{} truncated at byte {at}", sources[file].0)
                }
                Cut::DeleteLine { file, line } => {
                    mutated[file].1 = lines
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != line)
                        .map(|(_, l)| *l)
                        .collect();
                    format!("{} without line {}", sources[file].0, line + 1)
                }
            };
            (what, mutated)
        })
        .collect()
}

/// Loads every mutation of the real spec (see [`mutations`]); none may panic or point outside
/// its file.
fn mutilate(budget: Option<usize>) {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let sources = load::read_dir(&spec).expect("the real spec is readable");
    assert!(sources.len() >= 2, "the real spec has several files");
    load_without_panic("the real spec", &sources).expect("the real spec is fine");
    assert!(load_sources(&sources).is_ok(), "the real spec loads");

    let mutations = mutations(&sources, budget);
    let runs = mutations.len();
    let problems: Vec<String> = mutations
        .iter()
        .filter_map(|(what, mutated)| load_without_panic(what, mutated).err())
        .collect();
    assert!(
        runs >= budget.unwrap_or(400).min(400),
        "only {runs} mutations were tried"
    );
    assert!(
        problems.is_empty(),
        "{} of {runs} mutations misbehaved:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// A fixed number of mutations spread over the real spec, so the test's cost grows with the
/// spec's size (each load), not with its square.
#[test]
fn mutilated_real_spec_never_panics() {
    mutilate(Some(MUTATIONS));
}

/// Mutations the default run tries.
const MUTATIONS: usize = 20;

/// Every mutation (their number grows with the spec, and each loads the whole spec): an
/// explicit run, made by CI (`.ci/exhaustive`).
#[test]
#[ignore = "exhaustive: every mutation of the real spec; .ci/exhaustive runs it"]
fn mutilated_real_spec_never_panics_exhaustive() {
    mutilate(None);
}

/// One rule judges the constraints of a parameter and of a field of a request body: the same
/// keys, wrong alike, are refused with the same words (but for the owner's name) on both.
#[test]
fn a_body_field_and_a_parameter_break_a_constraint_alike() {
    let fixtures = mrds_tests::workspace_root().join("tests/fixtures");
    let read = |name: &str| {
        let text = std::fs::read_to_string(fixtures.join(name)).unwrap();
        (name.to_string(), text)
    };
    let (base, body) = (read("base.yaml"), read("body.yaml"));
    let field_at = "      - { name: contact,";
    let param_at = "      - { name: dry_run,";
    assert!(body.1.contains(field_at) && body.1.contains(param_at));
    let messages = |line_at: &str, line: String| {
        let edited = body.1.replacen(line_at, &format!("{line}\n{line_at}"), 1);
        let sources = vec![base.clone(), (body.0.clone(), edited)];
        match mrds_spec::load_sources(&sources) {
            Ok(_) => Vec::new(),
            Err(d) => (d.0.iter())
                .map(|d| {
                    (d.message.replace("field `probe`", "`probe`"))
                        .replace("parameter `probe`", "`probe`")
                })
                .collect::<Vec<_>>(),
        }
    };
    let cases = [
        ("string", "min: 1"),
        ("boolean", "max: 3"),
        ("integer", "min: 5, max: 1"),
        ("integer", "pattern: '^[0-9]$'"),
        ("string", "pattern: '[a-z]'"),
        ("string", "pattern_doc: a letter"),
    ];
    for (ty, keys) in cases {
        let field = messages(
            field_at,
            format!("      - {{ name: probe, type: {ty}, optional: true, {keys}, doc: Probe. }}"),
        );
        let param = messages(
            param_at,
            format!("      - {{ name: probe, in: query, type: {ty}, {keys}, doc: Probe. }}"),
        );
        assert!(!field.is_empty(), "{ty} with {keys} is refused");
        assert_eq!(field, param, "{ty} with {keys}");
    }
}
