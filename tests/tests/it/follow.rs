//! Following the provider: every kind of change it makes is a change in `spec/` alone.
//!
//! `mrds_tests::releases` is a release series as a maintainer follows it: additions (GETs
//! with paging and a lookup, nested records, a POST with a body), overlapping templates (a
//! value-set segment, a lookup integer with both bounds, a list parameter), a `PUT` and a
//! `DELETE` on one path, a removal, and a retype with a narrowed bound. The default run checks
//! that each release loads on top of the ones before it and that spec-diff finds it
//! acknowledged by its history row. The explicit run ([`following_the_provider_keeps_the_workspace_green`],
//! several minutes on two cores; CI runs it in `.ci/exhaustive`) replays the releases on a
//! scratch copy of the workspace, each one as a maintainer makes it, touching no other file:
//!
//! ```sh
//! cargo test -p mrds-tests --test it follow -- --ignored --nocapture
//! ```

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mrds_diff::{ChangeKind, Gate};
use mrds_tests::overlay::{self, Step};
use mrds_tests::releases::{self, Release};
use mrds_tests::workspace_root;

/// The real spec's files by name below `spec/`.
fn spec_files() -> BTreeMap<String, String> {
    spec_files_in(&workspace_root())
}

/// The files of the spec of the workspace `root` by name below `spec/`.
fn spec_files_in(root: &Path) -> BTreeMap<String, String> {
    mrds_spec::load::read_dir(&root.join("spec"))
        .expect("the spec is readable")
        .into_iter()
        .map(|(name, text)| {
            let rel = name.strip_prefix("spec/").unwrap_or(&name).to_owned();
            (rel, text)
        })
        .collect()
}

/// The release series on the real spec.
fn series() -> Vec<Release> {
    releases::series(&spec_files()).unwrap_or_else(|e| panic!("the release series: {e}"))
}

/// True in the scratch copy of [`following_the_provider_keeps_the_workspace_green`], whose spec already holds the
/// series.
pub(crate) fn followed() -> bool {
    std::env::var_os(FOLLOWED).is_some()
}

/// The files the series adds, named as a spec directory's files are: (`spec/...`, text).
pub(crate) fn added_files() -> Vec<(String, String)> {
    series()
        .into_iter()
        .flat_map(|r| r.steps)
        .filter_map(|step| match step {
            Step::Add { file, text } => Some((format!("spec/{file}"), text)),
            _ => None,
        })
        .collect()
}

/// Each release loads on top of the ones before it, and spec-diff finds it acknowledged by its
/// history row, reporting the kinds of change it makes. Releases 1 to 3 only add files.
///
/// In the scratch copy of [`following_the_provider_keeps_the_workspace_green`] (which sets `MRDS_FOLLOWED`), the
/// spec already holds the series: there the test checks that it does.
#[test]
#[ignore = "slow: every release of the series loaded, generated and compared; .ci/exhaustive runs it"]
fn each_release_loads_and_is_acknowledged() {
    if followed() {
        let api = mrds_tests::real_spec();
        assert!(
            (api.endpoints.iter()).any(|e| e.id.starts_with(releases::FIXTURE_PREFIX)),
            "the followed spec lacks the series"
        );
        return;
    }
    let mut files = spec_files();
    let mut old = releases::load(&files).unwrap();
    for release in series() {
        if release.name.starts_with(['1', '2', '3']) {
            assert!(
                (release.steps.iter()).all(|s| matches!(s, Step::Add { .. })),
                "{} only adds files",
                release.name
            );
        }
        overlay::apply(&mut files, &release.steps).unwrap();
        let new = releases::load(&files).unwrap_or_else(|e| panic!("{}: {e}", release.name));
        let changes = mrds_diff::compare(&old, &new);
        let assessment = mrds_diff::assess(&changes, &old, &new, Gate::Both);
        let report = mrds_diff::render::text(&changes, &assessment, &labels(&release.name));
        assert!(assessment.passed(), "{report}");
        let kinds: Vec<ChangeKind> = changes.contract.iter().map(|f| f.kind).collect();
        for kind in &release.kinds {
            assert!(
                kinds.contains(kind),
                "{}: no {kind} in {report}",
                release.name
            );
        }
        old = new;
    }
}

/// The series merges what it adds at the service's level with what the spec holds: on a spec
/// that already has the error codes a body needs (as it has once the catalog's `POST` is in
/// `spec/`), every release still loads (the codes are not listed twice).
#[test]
#[ignore = "slow: the series applied again to a spec with a body; .ci/exhaustive runs it"]
fn the_series_applies_to_a_spec_that_has_the_codes_of_a_body() {
    if followed() {
        return;
    }
    let mut files = spec_files();
    let api = releases::load(&files).unwrap();
    let codes: String = [
        ("PAYLOAD_TOO_LARGE", 413, "The body is too large."),
        ("UNSUPPORTED_MEDIA_TYPE", 415, "The body is not JSON."),
    ]
    .into_iter()
    .filter(|(code, ..)| !api.error_codes.iter().any(|c| c.code == *code))
    .map(|(code, status, doc)| format!("  - {{ code: {code}, status: {status}, doc: {doc} }}\n"))
    .collect();
    if !codes.is_empty() {
        files.insert(
            "endpoints/body-codes.yaml".into(),
            format!("error_codes:\n{codes}"),
        );
    }
    releases::load(&files).unwrap_or_else(|e| panic!("the spec with the codes: {e}"));
    let series = releases::series(&files).unwrap_or_else(|e| panic!("the series: {e}"));
    for release in &series {
        overlay::apply(&mut files, &release.steps).unwrap();
        releases::load(&files).unwrap_or_else(|e| panic!("{}: {e}", release.name));
    }
}

fn labels(release: &str) -> mrds_diff::render::Labels {
    mrds_diff::render::Labels {
        base: "spec/ before".into(),
        head: format!("spec/ with release {release}"),
    }
}

/// Set in the scratch copy's `cargo test`: the spec there holds the release series.
const FOLLOWED: &str = "MRDS_FOLLOWED";

/// Workspace members that depend on the generated crates: in the scratch copy they get a
/// profile of their own (a codegen unit or two fewer, no debug info: they are compiled again for
/// every release), so their artifacts never take the names of the main workspace's in the
/// shared target directory (cargo names a path crate's artifacts after its path relative to
/// the workspace, the same in a copy). The other members are copied with their times and stay
/// fresh, sharing the main workspace's artifacts.
const OWN_PROFILE: &[&str] = &[
    "mrds-bench",
    "mrds-client",
    "mrds-mock",
    "mrds-model",
    "mrds-server",
    "mrds-tests",
];

/// The scratch copies of the workspace that the exhaustive tests build, each with a profile of
/// its own (see [`own_profile`]). One number per variant, so no two copies can take the same:
/// the random release once shared the watch's, and built the client of its release against
/// the model the watch's copy had compiled under the same name.
#[derive(Clone, Copy)]
pub(crate) enum ScratchCopy {
    /// [`following_the_provider_keeps_the_workspace_green`].
    Follow,
    /// A random release (`random_releases`).
    Release,
}

impl ScratchCopy {
    /// The copy's `codegen-units`, which tells its profile apart: 255 down, one per variant.
    fn codegen_units(self) -> u32 {
        255 - self as u32
    }
}

/// Writes the configuration of the cargo of a scratch copy below `scratch`, beside it (cargo
/// reads the `.cargo` folders of every directory above the one it runs in), so the copy itself
/// is untouched: the members of [`OWN_PROFILE`] get a profile of their own, told apart by
/// `codegen_units`. Each scratch copy takes its own number ([`ScratchCopy`]): two copies with one profile would
/// share artifacts too (their paths relative to their workspaces are the same), and a copy's
/// files, copied with their times, would look older than the other copy's artifacts.
pub(crate) fn own_profile(scratch: &Path, copy: ScratchCopy) {
    let owned: Vec<String> = OWN_PROFILE.iter().map(|p| p.to_string()).collect();
    write_profiles(scratch, copy.codegen_units(), &owned);
}

/// [`own_profile`] for every member of the workspace: a scratch copy whose generator differs
/// from the main workspace's while one is being changed (a random release's, run while the
/// generator is edited) shares none of its artifacts, so neither builds from the other's
/// sources.
pub(crate) fn own_profile_for_all(scratch: &Path, copy: ScratchCopy) {
    let metadata = Command::new(env!("CARGO"))
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .current_dir(workspace_root())
        .output()
        .expect("cargo metadata runs");
    let json: serde_json::Value =
        serde_json::from_slice(&metadata.stdout).expect("cargo metadata is JSON");
    let members: Vec<String> = (json["packages"].as_array().into_iter().flatten())
        .filter_map(|p| p["name"].as_str().map(str::to_string))
        .collect();
    assert!(members.iter().any(|m| m == "mrds-spec"), "{members:?}");
    write_profiles(scratch, copy.codegen_units(), &members);
}

fn write_profiles(scratch: &Path, codegen_units: u32, packages: &[String]) {
    let config: String = packages
        .iter()
        .map(|p| {
            format!("[profile.dev.package.{p}]\ncodegen-units = {codegen_units}\ndebug = 0\n\n")
        })
        .collect();
    std::fs::create_dir_all(scratch.join(".cargo")).unwrap();
    std::fs::write(scratch.join(".cargo/config.toml"), config).unwrap();
}

/// Copies the workspace's files (tracked, and new ones git does not ignore) into `to`, with
/// their modification times and symbolic links.
pub(crate) fn copy_workspace(to: &Path) {
    let root = workspace_root();
    let listed = Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(&root)
        .output()
        .expect("git runs");
    assert!(listed.status.success(), "git ls-files failed");
    let mut names = Vec::new();
    for name in listed.stdout.split(|b| *b == 0).filter(|n| !n.is_empty()) {
        let name = String::from_utf8_lossy(name).into_owned();
        // Listed but deleted in the work tree.
        if root.join(&name).symlink_metadata().is_ok() {
            names.push(name);
        }
    }
    std::fs::create_dir_all(to).unwrap();
    let mut pack = Command::new("tar")
        .args(["--null", "-T", "-", "-cf", "-"])
        .current_dir(&root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("tar runs");
    let mut input = pack.stdin.take().unwrap();
    let list: Vec<u8> = names
        .iter()
        .flat_map(|n| [n.as_bytes(), b"\0"].concat())
        .collect();
    let writer = std::thread::spawn(move || std::io::Write::write_all(&mut input, &list));
    let unpacked = Command::new("tar")
        .args(["-xpf", "-"])
        .current_dir(to)
        .stdin(pack.stdout.take().unwrap())
        .status()
        .expect("tar runs");
    writer.join().unwrap().unwrap();
    assert!(
        pack.wait().unwrap().success() && unpacked.success(),
        "copying the workspace failed"
    );
}

/// Of the paths `git status --porcelain` lists in `ws` (`touched`), those changed outside what
/// `cargo xtask codegen` writes from `spec/`: anything but `spec/`, `crates/` and the generated
/// regions of the hand-written pages (a page whose text outside its regions is as committed
/// is not listed).
pub(crate) fn changed_by_hand(ws: &Path, touched: &str) -> Vec<String> {
    let committed = |path: &str| {
        Command::new("git")
            .args(["show", &format!("HEAD:{path}")])
            .current_dir(ws)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
    };
    (touched.lines())
        .map(|l| l[3..].trim())
        .filter(|p| !p.starts_with("spec/") && !p.starts_with("crates/"))
        .filter(|p| {
            let now = std::fs::read_to_string(ws.join(p)).ok();
            match (committed(p), now) {
                (Some(before), Some(now)) => {
                    mrds_emit::regions::outside(&before) != mrds_emit::regions::outside(&now)
                }
                _ => true,
            }
        })
        .map(str::to_string)
        .collect()
}

/// Runs `program args` in `dir` with the shared target directory; its output, or a failure
/// naming the command with what it printed.
pub(crate) fn run(dir: &Path, program: &str, args: &[&str]) -> Result<String, String> {
    run_with(dir, program, args, &[])
}

/// [`run`] with `envs` set.
pub(crate) fn run_with(
    dir: &Path,
    program: &str,
    args: &[&str],
    envs: &[(&str, &str)],
) -> Result<String, String> {
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", workspace_root().join("target"))
        .env_remove("RUSTFLAGS")
        .envs(envs.iter().copied())
        .output()
        .map_err(|e| format!("{program} does not run: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    if output.status.success() {
        Ok(stdout)
    } else {
        Err(format!(
            "`{program} {}` in {} failed ({}):\n{stdout}\n{stderr}",
            args.join(" "),
            dir.display(),
            output.status
        ))
    }
}

/// Runs a step, printing how long it took.
pub(crate) fn step<T>(what: &str, f: impl FnOnce() -> Result<T, String>) -> T {
    let started = Instant::now();
    let out = f().unwrap_or_else(|e| panic!("{what}: {e}"));
    println!("follow: {what}: {:.1} s", started.elapsed().as_secs_f64());
    out
}

/// The sample-data server of the scratch workspace on a free loopback port, stopped when
/// dropped.
pub(crate) struct Mock(std::process::Child);

impl Drop for Mock {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub(crate) fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

pub(crate) fn start_mock(ws: &Path, port: u16, key: &str) -> Mock {
    let binary = workspace_root().join("target/debug/mrds-mock");
    let child = Command::new(binary)
        .args(["--addr", &format!("127.0.0.1:{port}"), "--api-key", key])
        .current_dir(ws)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the sample server starts");
    let mock = Mock(child);
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "the sample server did not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    mock
}

/// `cargo xtask codegen` in the copy `ws` after the edits of `name`, which must leave every
/// file but `spec/`, `crates/` and the docs' generated regions as it was: what `git status`
/// lists. A failure names `name` and says `context` (what the edits were).
pub(crate) fn codegen_in(ws: &Path, name: &str, context: &str) -> String {
    step(&format!("{name}: cargo xtask codegen"), || {
        run(ws, env!("CARGO"), &["xtask", "codegen"]).map_err(|e| format!("{context}\n{e}"))
    });
    let touched = run(
        ws,
        "git",
        &["status", "--porcelain", "--untracked-files=all"],
    )
    .unwrap();
    let outside = changed_by_hand(ws, &touched);
    assert!(
        outside.is_empty(),
        "{name}: {context}\nfiles outside spec/, crates/ and the docs' generated regions changed: {outside:?}"
    );
    touched
}

/// `cargo xtask contract --require-all` in the copy `ws` against the sample server at
/// `base_url` that takes `key`: its report, or the failure.
pub(crate) fn contract(ws: &Path, base_url: &str, key: &str) -> Result<String, String> {
    let args = [
        "xtask",
        "contract",
        "--base-url",
        base_url,
        "--api-key",
        key,
        "--require-all",
    ];
    run(ws, env!("CARGO"), &args)
}

/// One scratch copy of the workspace follows the provider three ways, each as a maintainer
/// would, in `spec/` alone, with no file outside `spec/`, `crates/` and the docs' generated
/// regions touched:
///
/// 1. The provider drifts ten ways: the edits of a watch and of the checking proxy's findings
///    applied as `cargo xtask watch --apply` and `cargo xtask drift --apply` apply them
///    ([`super::provider_watch::apply_the_edits_of_a_watch_and_of_the_proxy`]), then `cargo
///    xtask codegen`.
/// 2. The release series, each release its edits to `spec/`, then `cargo xtask codegen`, `cargo
///    clippy --workspace --all-targets -- -D warnings` (every target checked, the benches too)
///    and `cargo xtask spec-diff` against the release before (exit 0: every change
///    acknowledged by the release's history row).
/// 3. On that spec, the random release of this commit (see `random_releases`), checked the same
///    way.
///
/// Then `cargo test --workspace` (which builds every target it runs: the libraries, binaries,
/// examples and tests, doctests included) passes, and the contract suite against the sample
/// server passes for every endpoint, those of the series and the release included, three times
/// in a row.
///
/// Each step is checked by the compiler and by clippy, but only the last state is tested: a
/// test run costs a minute of CI (the copy's test binaries built again; the drift edits, the
/// series and the random release each had a copy and a test run of their own), and what tests
/// find in one kind of change the random releases find on their own, release by release, in the
/// explicit run of [`super::random_releases`]. The series' endpoints do not change once added
/// and the releases that change the real spec's come last, so the one contract run covers every
/// endpoint's final form.
#[test]
#[ignore = "exhaustive: builds and tests a scratch copy of the workspace; .ci/exhaustive runs it"]
fn following_the_provider_keeps_the_workspace_green() {
    let scratch: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).join("follow");
    let ws = scratch.join("ws");
    if ws.exists() {
        std::fs::remove_dir_all(&ws).unwrap();
    }
    step("copy the workspace", || {
        copy_workspace(&ws);
        Ok(())
    });
    own_profile(&scratch, ScratchCopy::Follow);
    let git = |args: &[&str]| {
        let mut all = vec![
            "-c",
            "user.name=follow",
            "-c",
            "user.email=follow@localhost",
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
    // The provider's drift first: the watch's and the proxy's findings are of the spec as it
    // stands.
    step("the drift edits of a watch and of the proxy", || {
        super::provider_watch::apply_the_edits_of_a_watch_and_of_the_proxy(&ws);
        Ok(())
    });
    codegen_in(&ws, "the drift edits", "");
    step("the drift edits: commit", || {
        git(&["add", "-A"])?;
        git(&["commit", "-q", "-m", "drift"])
    });

    let clippy = |name: &str| {
        step(
            &format!("{name}: cargo clippy --workspace --all-targets"),
            || {
                run(
                    &ws,
                    cargo,
                    &[
                        "clippy",
                        "--workspace",
                        "--all-targets",
                        "--",
                        "-D",
                        "warnings",
                    ],
                )
            },
        )
    };
    let commit = |name: &str| {
        step(&format!("{name}: commit the release"), || {
            git(&["add", "-A"])?;
            git(&["commit", "-q", "-m", name])
        })
    };
    // The series on the spec the drift edits left (its last releases are computed from it).
    let mut files = spec_files_in(&ws);
    let series = releases::series(&files).unwrap_or_else(|e| panic!("the release series: {e}"));
    for release in &series {
        let name = &release.name;
        // The maintainer's change: spec/ only.
        let before = files.clone();
        overlay::apply(&mut files, &release.steps).unwrap();
        for (file, text) in &files {
            if before.get(file) != Some(text) {
                let path = ws.join("spec").join(file);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            }
        }
        let touched = codegen_in(&ws, name, "");
        assert!(touched.contains("crates/mrds-model/"), "{name}: {touched}");
        clippy(name);
        let report = step(&format!("{name}: cargo xtask spec-diff HEAD"), || {
            run(&ws, cargo, &["xtask", "spec-diff", "HEAD"])
        });
        for kind in &release.kinds {
            assert!(
                report.contains(kind.info().id),
                "{name}: spec-diff lacks {kind}:\n{report}"
            );
        }
        assert!(
            report.contains("acknowledged by history"),
            "{name}:\n{report}"
        );
        let changelog = run(&ws, cargo, &["xtask", "spec-diff", "HEAD", "--changelog"]).unwrap();
        assert!(
            changelog.contains("history agrees with the changes"),
            "{name}: {changelog}"
        );
        commit(name);
    }

    // On the series' spec, the random release of this commit (as
    // `random_releases::a_random_release_keeps_the_workspace_green` draws it, which CI leaves to
    // this copy: one build and one test run check both).
    let seed = super::random_releases::seeds()[0];
    let name = format!("random release {seed}");
    let what = super::random_releases::write_release(&ws, seed);
    clippy(&name);
    let report = step(&format!("{name}: cargo xtask spec-diff HEAD"), || {
        run(&ws, cargo, &["xtask", "spec-diff", "HEAD"])
    });
    assert!(report.contains("PASS"), "{what}\n{report}");
    commit(&name);

    step("the series and the release: cargo test --workspace", || {
        run_with(&ws, cargo, &["test", "--workspace"], &[(FOLLOWED, "1")])
    });
    // The sample server alone: a package selected alone resolves its own features, as
    // `cargo xtask contract` builds the runner alone.
    step("build the sample server", || {
        run(
            &ws,
            cargo,
            &["build", "-p", "mrds-mock", "--features", "cli"],
        )
    });
    let port = free_port();
    let key = "follow-key";
    let mock = start_mock(&ws, port, key);
    let base_url = format!("http://127.0.0.1:{port}/api");
    // Three runs in a row: a check that passes only sometimes (a connection reused after an
    // answer that left a body unread, say) fails one of them.
    for run_number in 1..=3 {
        let contract = step(
            &format!("cargo xtask contract --require-all (run {run_number})"),
            || contract(&ws, &base_url, key).map_err(|e| format!("{what}\n{e}")),
        );
        let added = (contract.lines())
            .filter(|l| l.starts_with(releases::FIXTURE_PREFIX))
            .collect::<Vec<_>>();
        assert!(
            !added.is_empty(),
            "no row of the series' endpoints:\n{contract}"
        );
        for row in added {
            assert!(row.ends_with("passed") || row.ends_with("removed"), "{row}");
        }
    }
    drop(mock);
}
