//! `cargo xtask spec-diff` as a command (`xtask::spec_diff::run`): the exit policy, the version
//! step the workspace must take, the changelog and the history it checks, revisions read from
//! git and the errors for a base that does not exist or does not load. The cases are those of
//! the corpus ([`super::spec_diff`]).

use std::path::{Path, PathBuf};
use std::process::Command;

use mrds_diff::Gate;
use mrds_spec::{load_sources, load_spec};
use xtask::spec_diff::{Args, Direction, Format, Outcome};

use super::spec_diff::{Case, case, labels, load_side, workspace_root};

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
        let changes = mrds_diff::compare(&old, &new);
        let assessment = mrds_diff::assess(&changes, &old, &new, Gate::Both);
        let (text, ok) = mrds_diff::changelog::changelog(&changes, &assessment, &new, &labels());
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
