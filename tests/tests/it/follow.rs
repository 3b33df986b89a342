//! Following the provider: adding an endpoint is a change in `spec/` alone.
//!
//! `tests/follow/overlay.yaml` is what a maintainer writes when the provider adds endpoints: a
//! new history entry, a value set, a record, a paging GET endpoint with range rules (one "not
//! after") and sample data, a second endpoint with a path parameter, and the catalog's POST
//! (a body record with patterns, a value-set path segment, rules across the path and the body,
//! samples answering what was posted). The default run checks that the overlay
//! loads and that spec-diff calls it additive and acknowledged. The explicit run
//! ([`an_endpoint_added_in_spec_alone`], about five minutes on two cores; CI runs it in
//! `.ci/exhaustive`) applies it to a scratch copy of the workspace and runs what a maintainer
//! runs, touching no other file:
//!
//! ```sh
//! cargo test -p mrds-tests --test it follow -- --ignored --nocapture
//! ```

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mrds_codegen::diff::{self, ChangeKind, Gate, semver::Step};
use mrds_tests::overlay::{self, RawStep};
use mrds_tests::workspace_root;

/// The real spec's files by name below `spec/`.
fn spec_files() -> BTreeMap<String, String> {
    mrds_codegen::load::read_dir(&workspace_root().join("spec"))
        .expect("the real spec is readable")
        .into_iter()
        .map(|(name, text)| {
            let rel = name.strip_prefix("spec/").unwrap_or(&name).to_owned();
            (rel, text)
        })
        .collect()
}

/// The overlay's steps.
fn steps() -> Vec<overlay::Step> {
    let path = workspace_root().join("tests/follow/overlay.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let raw: Vec<RawStep> = mrds_codegen::yaml::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    overlay::parse_steps(raw).unwrap_or_else(|e| panic!("tests/follow/overlay.yaml: {e}"))
}

/// The files the overlay adds, named as a spec directory's files are: (`spec/...`, text).
pub(crate) fn added_files() -> Vec<(String, String)> {
    steps()
        .into_iter()
        .filter_map(|step| match step {
            overlay::Step::Add { file, text } => Some((format!("spec/{file}"), text)),
            _ => None,
        })
        .collect()
}

/// The real spec with the overlay applied, named as a spec directory's files are.
fn followed() -> Vec<(String, String)> {
    let mut files = spec_files();
    overlay::apply(&mut files, &steps()).unwrap_or_else(|e| panic!("{e}"));
    let mut out: Vec<(String, String)> = files
        .into_iter()
        .map(|(name, text)| (format!("spec/{name}"), text))
        .collect();
    out.sort_by(|(a, _), (b, _)| Path::new(a).cmp(Path::new(b)));
    out
}

/// The overlay loads, adds what it says, and spec-diff finds it additive and acknowledged by
/// its history entry: the crates need a minor step.
///
/// In the scratch copy of [`an_endpoint_added_in_spec_alone`] (which sets `MRDS_FOLLOWED`), the
/// spec already holds the overlay: there the test checks that it does.
#[test]
fn the_overlay_is_an_acknowledged_addition() {
    let old = mrds_codegen::load_spec(&workspace_root().join("spec")).unwrap();
    if std::env::var_os(FOLLOWED).is_some() {
        for id in ["insider_trade", "insider_trades", "social_handles"] {
            assert!(
                old.endpoint_named(id).is_some(),
                "the followed spec lacks {id}"
            );
        }
        return;
    }
    let new = mrds_codegen::load_sources(&followed()).unwrap_or_else(|d| panic!("{d}"));
    let added: Vec<&str> = new
        .endpoints
        .iter()
        .filter(|e| old.endpoint_named(&e.id).is_none())
        .map(|e| e.id.as_str())
        .collect();
    assert_eq!(added, ["insider_trade", "insider_trades", "social_handles"]);
    let changes = diff::compare(&old, &new);
    let assessment = diff::assess(&changes, &old, &new, Gate::Both);
    assert!(
        assessment.passed(),
        "{}",
        diff::render::text(&changes, &assessment, &labels())
    );
    let kinds: Vec<ChangeKind> = changes.contract.iter().map(|f| f.kind).collect();
    for kind in [
        ChangeKind::EndpointAdded,
        ChangeKind::RecordAdded,
        ChangeKind::ValueSetAdded,
        ChangeKind::HistoryEntryAdded,
    ] {
        assert!(kinds.contains(&kind), "no {kind} in {kinds:?}");
    }
    assert_eq!(assessment.step, Step::Minor);
}

fn labels() -> diff::render::Labels {
    diff::render::Labels {
        base: "spec/".into(),
        head: "spec/ with tests/follow/overlay.yaml".into(),
    }
}

/// Set in the scratch copy's `cargo test`: the spec there holds the overlay.
const FOLLOWED: &str = "MRDS_FOLLOWED";

/// Workspace members that depend on the generated crates: in the scratch copy they get a
/// profile of their own (one codegen unit fewer), so their artifacts never take the names of
/// the main workspace's in the shared target directory (cargo names a path crate's artifacts
/// after its path relative to the workspace, the same in a copy). The other members are
/// copied with their times and stay fresh, sharing the main workspace's artifacts.
const OWN_PROFILE: &[&str] = &[
    "mrds-bench",
    "mrds-client",
    "mrds-mock",
    "mrds-model",
    "mrds-server",
    "mrds-tests",
];

/// Copies the workspace's files (tracked, and new ones git does not ignore) into `to`, with
/// their modification times and symbolic links.
fn copy_workspace(to: &Path) {
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

/// Runs `program args` in `dir` with the shared target directory; its output, or a failure
/// naming the command with what it printed.
fn run(dir: &Path, program: &str, args: &[&str]) -> Result<String, String> {
    run_with(dir, program, args, &[])
}

/// [`run`] with `envs` set.
fn run_with(
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
fn step<T>(what: &str, f: impl FnOnce() -> Result<T, String>) -> T {
    let started = Instant::now();
    let out = f().unwrap_or_else(|e| panic!("{what}: {e}"));
    println!("follow: {what}: {:.1} s", started.elapsed().as_secs_f64());
    out
}

/// The sample-data server of the scratch workspace on a free loopback port, stopped when
/// dropped.
struct Mock(std::process::Child);

impl Drop for Mock {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

fn start_mock(ws: &Path, port: u16, key: &str) -> Mock {
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

/// The overlay applied to a scratch copy of the workspace: `cargo xtask codegen`, and with no
/// other file touched, `cargo build --workspace --all-targets`, `cargo test --workspace`,
/// `cargo xtask spec-diff` against the copy before the change (exit 0: additive and
/// acknowledged) and the contract suite against the sample server (every endpoint
/// implemented) all pass.
#[test]
#[ignore = "exhaustive: builds and tests a scratch copy of the workspace; .ci/exhaustive runs it"]
fn an_endpoint_added_in_spec_alone() {
    let scratch: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).join("follow");
    let ws = scratch.join("ws");
    if ws.exists() {
        std::fs::remove_dir_all(&ws).unwrap();
    }
    step("copy the workspace", || {
        copy_workspace(&ws);
        Ok(())
    });
    // Configuration of the scratch copy's cargo, beside it (cargo reads the `.cargo` folders
    // of every directory above the one it runs in), so the copy itself is untouched.
    let config: String = OWN_PROFILE
        .iter()
        .map(|p| format!("[profile.dev.package.{p}]\ncodegen-units = 255\n\n"))
        .collect();
    std::fs::create_dir_all(scratch.join(".cargo")).unwrap();
    std::fs::write(scratch.join(".cargo/config.toml"), config).unwrap();
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

    // The maintainer's change: spec/ only.
    let mut files = BTreeMap::new();
    for (name, text) in spec_files() {
        files.insert(name, text);
    }
    let before = files.clone();
    overlay::apply(&mut files, &steps()).unwrap();
    for (name, text) in &files {
        if before.get(name) != Some(text) {
            let path = ws.join("spec").join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
    }

    let cargo = env!("CARGO");
    step("cargo xtask codegen", || {
        run(&ws, cargo, &["xtask", "codegen"])
    });
    let touched = git(&["status", "--porcelain", "--untracked-files=all"]).unwrap();
    let outside: Vec<&str> = touched
        .lines()
        .map(|l| l[3..].trim())
        .filter(|p| !p.starts_with("spec/") && !p.starts_with("crates/"))
        .collect();
    assert!(
        outside.is_empty(),
        "files outside spec/ and crates/ changed: {outside:?}"
    );
    assert!(
        touched.contains("crates/mrds-server/src/service.rs"),
        "{touched}"
    );

    step("cargo build --workspace --all-targets", || {
        run(&ws, cargo, &["build", "--workspace", "--all-targets"])
    });
    step("cargo test --workspace", || {
        run_with(&ws, cargo, &["test", "--workspace"], &[(FOLLOWED, "1")])
    });
    let report = step("cargo xtask spec-diff HEAD", || {
        run(&ws, cargo, &["xtask", "spec-diff", "HEAD"])
    });
    for line in [
        "acknowledged by history 2026-09-15 (v0.10.110)",
        "semver step needed: mrds-model minor, mrds-server minor, mrds-client minor",
        "workspace version 0.1.0 -> 0.1.0: unchanged (not a release)",
    ] {
        assert!(report.contains(line), "spec-diff lacks {line:?}:\n{report}");
    }
    let changelog = run(&ws, cargo, &["xtask", "spec-diff", "HEAD", "--changelog"]).unwrap();
    assert!(
        changelog.contains("history agrees with the changes"),
        "{changelog}"
    );

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
            || {
                run(
                    &ws,
                    cargo,
                    &[
                        "xtask",
                        "contract",
                        "--base-url",
                        &base_url,
                        "--api-key",
                        key,
                        "--require-all",
                    ],
                )
            },
        );
        for endpoint in ["insider_trade", "insider_trades", "social_handles"] {
            let row = contract
                .lines()
                .find(|l| l.starts_with(&format!("{endpoint} ")))
                .unwrap_or_else(|| panic!("no row of {endpoint}:\n{contract}"));
            assert!(row.ends_with("passed"), "{row}");
        }
    }
    drop(mock);
    // Nothing but spec/ and crates/ changed, after every step.
    let touched = git(&["status", "--porcelain", "--untracked-files=all"]).unwrap();
    assert!(
        touched
            .lines()
            .all(|l| l[3..].starts_with("spec/") || l[3..].starts_with("crates/")),
        "{touched}"
    );
}
