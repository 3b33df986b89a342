//! Random provider releases on the real spec (`mrds_follow::release`): every kind of change a
//! provider makes, its target drawn from the resolved model, written by the machinery of
//! `cargo xtask drift --apply`. The default run applies each kind on its own from fixed seeds, in
//! process: the edited spec loads and generates, spec-diff finds every change acknowledged by
//! the release's one history row and reports what the report predicted, and the same traffic
//! read again asks for nothing. The explicit run ([`a_random_release_keeps_the_workspace_green`])
//! builds and tests a scratch copy of the workspace with a combined release of every kind:
//!
//! ```sh
//! MRDS_RELEASE_SEEDS=20 cargo test -p mrds-tests --test it random_releases -- --ignored --nocapture
//! ```

use std::collections::BTreeSet;

use mrds_diff::{Gate, render::Labels};
use mrds_follow::Options;
use mrds_follow::release::{Kind, Release, release};
use mrds_spec::Api;
use mrds_tests::workspace_root;

/// The real spec's files, as the loader names them (`spec/...`).
pub(crate) fn sources() -> Vec<(String, String)> {
    mrds_spec::load::read_dir(&workspace_root().join("spec")).expect("the real spec is readable")
}

/// The release's date: the day after the newest row of the spec's history (a spec that holds
/// a release already takes the next on a day of its own).
fn options() -> Options {
    options_after(mrds_tests::real_spec())
}

/// The release's date on `api`: the day after the newest row of its history.
pub(crate) fn options_after(api: &Api) -> Options {
    let newest = (api.history.iter())
        .map(|h| h.date.as_str())
        .max()
        .unwrap_or("2026-01-01");
    let day = |i: usize| {
        newest
            .get(i..i + 2)
            .and_then(|t| t.parse::<i64>().ok())
            .unwrap_or(1)
    };
    let year = newest
        .get(..4)
        .and_then(|t| t.parse::<i64>().ok())
        .unwrap_or(2026);
    let days = mrds_runtime::text::days_from_civil(year, day(5), day(8)) + 1;
    let (y, m, d) = mrds_runtime::text::civil_from_days(days);
    Options {
        today: format!("{y:04}-{m:02}-{d:02}"),
    }
}

/// `sources` with `release`'s files written over them.
pub(crate) fn applied(sources: &[(String, String)], release: &Release) -> Vec<(String, String)> {
    release.report.applied_to(sources)
}

/// What is wrong with `release` of `api` (loaded from `sources`), in process: the edited spec
/// loads and generates, spec-diff passes and reports the predicted checks, and the traffic read
/// again against the edited spec asks for nothing.
pub(crate) fn problems(api: &Api, sources: &[(String, String)], release: &Release) -> Vec<String> {
    problems_of(api, sources, release, true)
}

/// [`problems`], the edited spec generated only when `generate` says so: the tests of one kind
/// leave generating to the test of every kind at once, where the same emitters meet every
/// change (it is a third of a test's time).
fn problems_of(
    api: &Api,
    sources: &[(String, String)],
    release: &Release,
    generate: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    let report = &release.report;
    if let Some(p) = &report.problems {
        out.push(format!("the edited spec does not load:\n{p}"));
        return out;
    }
    if report.by_hand > 0 {
        out.push(format!(
            "{} edits are left to be written by hand",
            report.by_hand
        ));
    }
    let edited = applied(sources, release);
    let new = match mrds_spec::load_sources(&edited) {
        Ok(api) => api,
        Err(d) => return vec![format!("the edited spec does not load: {d}")],
    };
    if let Err(e) = generate.then(|| mrds_emit::all(&new)).transpose() {
        out.push(format!("the edited spec does not generate: {e}"));
    }
    let changes = mrds_diff::compare(api, &new);
    let assessment = mrds_diff::assess(&changes, api, &new, Gate::Both);
    let labels = Labels {
        base: "spec/".into(),
        head: format!("spec/ with release {}", release.seed),
    };
    let text = mrds_diff::render::text(&changes, &assessment, &labels);
    if !assessment.passed() {
        out.push(format!("spec-diff does not pass:\n{text}"));
    }
    let reported: BTreeSet<&str> = (changes.contract.iter().chain(&changes.samples))
        .map(|f| f.kind.info().id)
        .collect();
    for id in &report.predicted {
        if !reported.contains(id) {
            out.push(format!(
                "spec-diff does not report `{id}`, which the report predicted:\n{text}"
            ));
        }
    }
    match mrds_follow::har::findings(&new, &release.har) {
        Ok(findings) => {
            let again = mrds_follow::report(&new, &edited, &findings, &options());
            if again.edits > 0 {
                out.push(format!(
                    "the traffic read again asks for more:\n{}",
                    again.text
                ));
            }
        }
        Err(e) => out.push(format!(
            "the traffic does not read against the edited spec: {e}"
        )),
    }
    out
}

/// Each kind on its own, from the first of a few fixed seeds that finds it a target.
fn each(kind: Kind) {
    let sources = sources();
    let api = mrds_spec::load_sources(&sources).unwrap_or_else(|d| panic!("{d}"));
    for seed in [1, 2, 3] {
        let release = release(&api, &sources, &[kind], seed, &options())
            .unwrap_or_else(|e| panic!("{} (seed {seed}): {e}", kind.name()));
        if release
            .changes
            .iter()
            .any(|c| c.ends_with("no target in this spec"))
        {
            continue;
        }
        assert!(
            release.report.edits > 0,
            "{} (seed {seed}) makes no edit: {:?}\n{}",
            kind.name(),
            release.changes,
            release.report.text
        );
        let found = problems_of(&api, &sources, &release, false);
        assert!(
            found.is_empty(),
            "{} (seed {seed}: {:?}):\n{}\n\nthe report:\n{}",
            kind.name(),
            release.changes,
            found.join("\n"),
            release.report.text
        );
        return;
    }
    panic!("{}: no seed found a target in the real spec", kind.name());
}

/// Every kind at once, as a provider's release mixes them: one answer of an endpoint shows every
/// change of its records, and one history row acknowledges them all; then the next release on
/// the spec the first one left.
#[test]
fn every_kind_at_once_applies_in_process() {
    let sources = sources();
    let api = mrds_spec::load_sources(&sources).unwrap_or_else(|d| panic!("{d}"));
    let release = release(&api, &sources, &Kind::ALL, 1, &options()).unwrap();
    let found = problems(&api, &sources, &release);
    assert!(
        found.is_empty(),
        "seed 1: {:?}\n{}\n\n{}",
        release.changes,
        found.join("\n"),
        release.report.text
    );
    // The next release, on the spec this one left: it removes or renames what the first added,
    // and its own edits land beside the first one's history row.
    let sources = applied(&sources, &release);
    let api = mrds_spec::load_sources(&sources).unwrap_or_else(|d| panic!("{d}"));
    let next =
        mrds_follow::release::release(&api, &sources, &Kind::ALL, 1, &options_after(&api)).unwrap();
    let found = problems(&api, &sources, &next);
    assert!(
        found.is_empty(),
        "seed 1 on seed 1: {:?}\n{}\n\n{}",
        next.changes,
        found.join("\n"),
        next.report.text
    );
}

macro_rules! kinds {
    ($($test:ident: $kind:ident,)*) => {
        $(#[test]
        fn $test() {
            each(Kind::$kind);
        })*

        /// Every kind has its test above.
        #[test]
        fn every_kind_has_a_test() {
            let tested = [$(Kind::$kind),*];
            for kind in Kind::ALL {
                assert!(tested.contains(&kind), "no test of {}", kind.name());
            }
        }
    };
}

kinds! {
    a_required_field_made_optional: FieldOptional,
    a_field_added: FieldAdded,
    a_nested_object_added: NestedFieldAdded,
    a_list_field_added: ListFieldAdded,
    a_field_retyped: FieldRetyped,
    a_field_renamed: FieldRenamed,
    a_value_added_to_a_value_set: ValueAdded,
    an_error_code_added_at_a_status_that_has_one: ErrorCodeAdded,
    a_format_changed: FormatChanged,
    a_bound_narrowed: BoundNarrowed,
    a_bound_widened: BoundWidened,
    a_list_parameter_added: ListParam,
    a_list_parameter_with_min_items_added: ListParamMinItems,
    an_endpoint_with_a_path_parameter_added: EndpointWithPath,
    an_endpoint_with_a_body_added: EndpointWithBody,
    an_endpoint_overlapping_a_template_added: EndpointOverlapping,
    an_endpoint_removed: EndpointRemoved,
}

/// The seeds of the explicit run: `MRDS_RELEASE_SEED` (one), `MRDS_RELEASE_SEEDS` (1 to N),
/// else one drawn from the commit (`git rev-parse HEAD`), so that a CI run is reproducible.
pub(crate) fn seeds() -> Vec<u64> {
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    if let Some(seed) = var("MRDS_RELEASE_SEED") {
        return vec![seed];
    }
    if let Some(n) = var("MRDS_RELEASE_SEEDS") {
        return (1..=n).collect();
    }
    let head = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(workspace_root())
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    vec![u64::from_str_radix(head.get(..15).unwrap_or("1"), 16).unwrap_or(1)]
}

/// Draws the combined release of every kind of `seed` on the spec of the workspace copy `ws`,
/// checks it in process ([`problems`]), writes it there as `cargo xtask drift --apply` writes
/// it, runs `cargo xtask codegen`, and checks that nothing but `spec/`, `crates/` and the docs'
/// generated regions changed. Returns what the release changed, for the messages of what
/// follows (it is printed too).
pub(crate) fn write_release(ws: &std::path::Path, seed: u64) -> String {
    let sources = mrds_spec::load::read_dir(&ws.join("spec")).expect("the copy's spec is readable");
    let api = mrds_spec::load_sources(&sources).unwrap_or_else(|d| panic!("{d}"));
    println!("random release: seed {seed} (MRDS_RELEASE_SEED={seed} replays it)");
    let release = release(&api, &sources, &Kind::ALL, seed, &options_after(&api))
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    let what = format!("seed {seed}, changes:\n  {}", release.changes.join("\n  "));
    println!("{what}");
    let found = problems(&api, &sources, &release);
    assert!(
        found.is_empty(),
        "{what}\n{}\n\n{}",
        found.join("\n"),
        release.report.text
    );
    for (name, text) in &release.report.files {
        let path = ws.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    super::follow::codegen_in(ws, &format!("seed {seed}"), &what);
    what
}

/// A combined release of every kind, drawn from each seed of [`seeds`], applied to a scratch
/// copy of the workspace as `cargo xtask drift --apply` writes it ([`write_release`]), leaves
/// the workspace green: `cargo build --workspace --all-targets`, `cargo test --workspace` (its doctests included), `cargo xtask
/// spec-diff` against the spec before (every change acknowledged by the release's one row),
/// and the contract suite against the sample server for every endpoint. A failure names its
/// seed (`MRDS_RELEASE_SEED=<seed>` replays it) and what the release changed.
///
/// CI draws the release of its commit on the release series' copy instead
/// (`follow::following_the_provider_keeps_the_workspace_green`), where one build and one test run check both;
/// this test is the explicit run of many seeds, each on the real spec.
#[test]
#[ignore = "exhaustive: builds and tests a scratch copy of the workspace per seed; run it with MRDS_RELEASE_SEEDS"]
fn a_random_release_keeps_the_workspace_green() {
    use super::follow::{
        ScratchCopy, copy_workspace, free_port, own_profile, own_profile_for_all, run, start_mock,
        step,
    };
    let scratch = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("random-release");
    let ws = scratch.join("ws");
    if ws.exists() {
        std::fs::remove_dir_all(&ws).unwrap();
    }
    step("copy the workspace", || {
        copy_workspace(&ws);
        Ok(())
    });
    // Where nothing edits the workspace while the test runs (CI sets MRDS_SCRATCH_SHARED), the
    // copy shares the artifacts of the members the generated crates do not reach, as the
    // release series' copy does; else every member gets a profile of its own, so that a
    // generator edited meanwhile is never built from the copy's sources.
    if std::env::var_os("MRDS_SCRATCH_SHARED").is_some() {
        own_profile(&scratch, ScratchCopy::Release);
    } else {
        own_profile_for_all(&scratch, ScratchCopy::Release);
    }
    let git = |args: &[&str]| {
        let mut all = vec![
            "-c",
            "user.name=release",
            "-c",
            "user.email=release@localhost",
        ];
        all.extend_from_slice(args);
        run(&ws, "git", &all)
    };
    step("commit the copy as the base", || {
        git(&["init", "-q", "-b", "main"])?;
        git(&["add", "-A"])?;
        git(&["commit", "-q", "-m", "base"])
    });
    let cargo = env!("CARGO");
    for seed in seeds() {
        step(&format!("seed {seed}: back to the base"), || {
            git(&["checkout", "-q", "--", "."])?;
            git(&["clean", "-q", "-fd", "spec", "crates"])
        });
        let what = write_release(&ws, seed);
        let fail = |e: String| format!("{what}\n{e}");
        step(
            &format!("seed {seed}: cargo build --workspace --all-targets"),
            || run(&ws, cargo, &["build", "--workspace", "--all-targets"]).map_err(fail),
        );
        // Every failing test binary, not only the first: a release that breaks two things says so.
        step(&format!("seed {seed}: cargo test --workspace"), || {
            run(&ws, cargo, &["test", "--workspace", "--no-fail-fast"]).map_err(fail)
        });
        let report = step(&format!("seed {seed}: cargo xtask spec-diff HEAD"), || {
            run(&ws, cargo, &["xtask", "spec-diff", "HEAD"]).map_err(fail)
        });
        assert!(report.contains("PASS"), "{what}\n{report}");
        step(&format!("seed {seed}: build the sample server"), || {
            run(
                &ws,
                cargo,
                &["build", "-p", "mrds-mock", "--features", "cli"],
            )
            .map_err(fail)
        });
        let port = free_port();
        let key = "release-key";
        let mock = start_mock(&ws, port, key);
        let base_url = format!("http://127.0.0.1:{port}/api");
        step(
            &format!("seed {seed}: cargo xtask contract --require-all"),
            || super::follow::contract(&ws, &base_url, key).map_err(fail),
        );
        drop(mock);
    }
}
