//! The fuzz targets' properties (`mrds_tests::fuzz`, which `fuzz/` runs under libFuzzer),
//! replayed on every input kept: the crash inputs the fuzzers found, each a regression test
//! (`tests/fuzz/regressions/<target>/<name>`), and the committed corpora
//! (`fuzz/corpus/<target>/`: the seeds `fuzz/seed.sh` makes, and inputs kept from runs). One
//! test per target, replaying every regression and an even spread of the corpus (all of it in
//! the explicit run, [`every_corpus_input_is_replayed`]); a failure names the input.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use mrds_tests::fuzz::TARGETS;

/// The directories replayed for `target`.
fn dirs(target: &str) -> [PathBuf; 2] {
    let root = mrds_tests::workspace_root();
    [
        root.join("tests/fuzz/regressions").join(target),
        root.join("fuzz/corpus").join(target),
    ]
}

/// Every file of `dir` (none when it does not exist), sorted.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("a readable entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// The most inputs replayed of one target: the committed corpora stay small (the seeds and a
/// modest set kept from runs, minimized), so that each replay takes well under the second or
/// two a test of the default run may take.
const MAX_INPUTS: usize = 300;

/// The corpus inputs the default run replays of one target, spread evenly over its sorted
/// files; the crash inputs kept as regressions are all replayed, and the explicit run
/// ([`every_corpus_input_is_replayed`]) replays every corpus input.
const DEFAULT_CORPUS: usize = 40;

/// Replays every regression input of `target` and its corpus (`corpus` inputs of it, spread
/// evenly, or all); fails naming each input whose property fails.
fn replay_some(target: &str, corpus: Option<usize>) {
    let (_, property) = TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .expect("a target of mrds_tests::fuzz");
    let [regressions, kept] = dirs(target);
    let kept = inputs(&kept);
    assert!(
        kept.len() <= MAX_INPUTS,
        "{target}: {} inputs; keep the corpus small (cargo fuzz cmin, then a modest set)",
        kept.len()
    );
    let step = corpus.map_or(1, |n| kept.len().div_ceil(n.max(1)).max(1));
    let chosen = inputs(&regressions)
        .into_iter()
        .chain(kept.into_iter().step_by(step));
    let mut failed = Vec::new();
    let mut count = 0;
    for file in chosen {
        let bytes = std::fs::read(&file).expect("a readable input");
        count += 1;
        if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| property(&bytes))) {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failed.push(format!("{}: {message}", file.display()));
        }
    }
    assert!(count > 0, "{target}: no input to replay");
    assert!(failed.is_empty(), "{target}:\n{}", failed.join("\n"));
}

/// [`replay_some`] as the default run replays.
fn replay(target: &str) {
    replay_some(target, Some(DEFAULT_CORPUS));
}

/// Every input of every target's corpus.
#[test]
#[ignore = "slow: replays every corpus input; .ci/exhaustive runs it"]
fn every_corpus_input_is_replayed() {
    for (target, _) in TARGETS {
        replay_some(target, None);
    }
}

#[test]
fn spec_loader() {
    replay("spec_loader");
}

#[test]
fn server() {
    replay("server");
}

#[test]
fn params() {
    replay("params");
}

#[test]
fn client_decode() {
    replay("client_decode");
}

#[test]
fn proxy_check() {
    replay("proxy_check");
}

#[test]
fn mock_body() {
    replay("mock_body");
}

#[test]
fn every_target_is_replayed_and_has_a_fuzz_target() {
    let root = mrds_tests::workspace_root();
    for (target, _) in TARGETS {
        let file = root.join("fuzz/fuzz_targets").join(format!("{target}.rs"));
        assert!(file.is_file(), "{} is missing", file.display());
    }
    for dir in ["tests/fuzz/regressions", "fuzz/corpus"] {
        for entry in std::fs::read_dir(root.join(dir)).into_iter().flatten() {
            let name = entry.expect("a readable entry").file_name();
            let name = name.to_string_lossy();
            assert!(
                TARGETS.iter().any(|(t, _)| *t == name),
                "{dir}/{name} is no target's"
            );
        }
    }
}

/// The packages of a `Cargo.lock`, by name, with their versions.
fn locked(path: &Path) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let text = std::fs::read_to_string(path).expect("a readable lock file");
    let mut out: std::collections::BTreeMap<_, std::collections::BTreeSet<_>> = Default::default();
    let mut name = None;
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = Some(n.trim_matches('"').to_string());
        } else if let (Some(v), Some(n)) = (line.strip_prefix("version = "), name.take()) {
            out.entry(n)
                .or_default()
                .insert(v.trim_matches('"').to_string());
        }
    }
    out
}

/// The fuzz package (outside the workspace, with a lock file of its own) builds the versions
/// the workspace locks: a crate both use is the same crate. After `cargo update` in the
/// workspace: `cp Cargo.lock fuzz/ && cargo metadata --manifest-path fuzz/Cargo.toml >/dev/null`.
#[test]
fn the_fuzz_package_locks_the_workspace_versions() {
    let root = mrds_tests::workspace_root();
    let workspace = locked(&root.join("Cargo.lock"));
    let fuzz = locked(&root.join("fuzz/Cargo.lock"));
    let differ: Vec<String> = fuzz
        .iter()
        .filter_map(|(name, versions)| {
            let theirs = workspace.get(name)?;
            (!versions.is_subset(theirs))
                .then(|| format!("{name}: {versions:?} in fuzz/, {theirs:?}"))
        })
        .collect();
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
