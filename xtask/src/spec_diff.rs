//! `cargo xtask spec-diff [BASE]`: the breaking-change check of the work tree's `spec/` against
//! a base, with the comparison itself in `mrds_diff`.
//!
//! The base is a git revision (its spec files are read with `git ls-tree` and `git cat-file`,
//! the work tree is not touched), or a directory holding a spec (its `spec/` folder, or the
//! YAML files themselves). Without one, it is the merge base of `HEAD` and `main` (`origin/main`
//! when there is no local `main`; `HEAD` itself when there is neither).
//!
//! The report states the semver step each generated crate needs, and checks the workspace
//! version (`[workspace.package] version` in the root `Cargo.toml`) of the work tree against
//! the base's (its revision's root `Cargo.toml`, or the base directory's): a version that
//! changed must step at least that far; an unchanged one passes (the change is not a release)
//! unless `--release` says the base is the last release.
//!
//! Exit status: 0 when no breaking change is unacknowledged and the version steps far enough
//! (and, with `--changelog`, the history agrees with the changes), 1 when not, 2 when a side
//! cannot be read or loaded.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use mrds_diff::{Gate, render::Labels};
use mrds_spec::{Api, Diagnostics};

/// The arguments of `cargo xtask spec-diff`.
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// A git revision, or a directory holding a spec (its `spec/` or the YAML files
    /// themselves). Default: the merge base of HEAD and `main`.
    pub base: Option<String>,
    /// Output format of the report.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print the change history as a table and check it against what changed.
    #[arg(long, conflicts_with = "format")]
    pub changelog: bool,
    /// Which direction's breaking changes fail the check.
    #[arg(long, value_enum, default_value_t = Direction::Both)]
    pub breaking_for: Direction,
    /// The base is the last release: the workspace version must step at least as far as the
    /// changes need (without it, an unchanged version passes: the change is not a release).
    #[arg(long)]
    pub release: bool,
}

/// Output format.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Readable text.
    Text,
    /// JSON, keys and findings sorted.
    Json,
}

/// The directions the check fails on.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Old clients against new servers.
    Clients,
    /// Old servers answering new clients.
    Servers,
    /// Both.
    Both,
}

/// What a run printed and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// 0: passed; 1: an unacknowledged breaking change (or, with `--changelog`, a history that
    /// disagrees with the changes); 2: a side could not be read or loaded.
    pub code: u8,
    /// The report.
    pub stdout: String,
    /// Errors and notes.
    pub stderr: String,
}

impl Outcome {
    fn error(stderr: String) -> Self {
        Self {
            code: 2,
            stdout: String::new(),
            stderr,
        }
    }
}

/// Where the base spec comes from.
#[derive(Clone, Debug)]
enum Base {
    /// A directory of YAML files, and the workspace manifest beside it when there is one.
    Dir {
        /// The spec.
        spec: PathBuf,
        /// The `Cargo.toml` of the workspace holding it.
        manifest: Option<PathBuf>,
    },
    /// A commit of the repository.
    Rev { commit: String },
}

/// Runs `spec-diff` for the workspace at `root` (its `spec/` is the new side).
pub fn run(root: &Path, args: &Args) -> Outcome {
    let mut notes = String::new();
    let (base, label) = match resolve_base(root, args.base.as_deref(), &mut notes) {
        Ok(found) => found,
        Err(e) => return Outcome::error(format!("{notes}spec-diff: {e}\n")),
    };
    let head = "work tree".to_owned();
    // The two sides load on two threads: loading is most of the run.
    let (old, new) = std::thread::scope(|s| {
        let old = s.spawn(|| load_base(root, &base, &label));
        let new = mrds_spec::load_spec(&root.join("spec"))
            .map_err(|d| spec_errors(&head, "the new spec (work tree)", &d));
        (old.join().expect("loading the base does not panic"), new)
    });
    let (old, new) = match (old, new) {
        (Ok(old), Ok(new)) => (old, new),
        (old, new) => {
            let errors: String = [old.err(), new.err()].into_iter().flatten().collect();
            return Outcome::error(format!("{notes}{errors}"));
        }
    };
    let gate = match args.breaking_for {
        Direction::Clients => Gate::Clients,
        Direction::Servers => Gate::Servers,
        Direction::Both => Gate::Both,
    };
    let changes = mrds_diff::compare(&old, &new);
    let mut assessment = mrds_diff::assess(&changes, &old, &new, gate);
    let versions = (
        base_version(root, &base),
        manifest_version(&root.join("Cargo.toml")),
    );
    match versions {
        (Ok(Some(old)), Ok(Some(new))) => {
            assessment = assessment.with_versions(&old, &new, args.release);
        }
        (old, new) => {
            let why = match (old, new) {
                (Err(e), _) | (_, Err(e)) => e,
                (Ok(None), _) => "the base has no `[workspace.package] version`".to_owned(),
                (_, Ok(_)) => "the work tree has no `[workspace.package] version`".to_owned(),
            };
            notes.push_str(&format!(
                "spec-diff: note: {why}; the workspace version step is not checked\n"
            ));
        }
    }
    let labels = Labels { base: label, head };
    let (stdout, passed) = if args.changelog {
        mrds_diff::changelog::changelog(&changes, &assessment, &new, &labels)
    } else {
        let mut text = match args.format {
            Format::Text => mrds_diff::render::text(&changes, &assessment, &labels),
            Format::Json => mrds_diff::render::json(&changes, &assessment, &labels),
        };
        if args.format == Format::Text {
            text.push_str(&touched_text(root, &changes, &old, &new));
        }
        (text, assessment.passed())
    };
    Outcome {
        code: if passed { 0 } else { 1 },
        stdout,
        stderr: notes,
    }
}

/// The lines of the workspace's hand-written code the breaking changes touch (tests, examples,
/// the docs' snippets), each with its file and line: what to mend before the build finds it;
/// nothing when none is touched.
pub fn touched_text(
    root: &Path,
    changes: &mrds_diff::Changes,
    old: &mrds_spec::Api,
    new: &mrds_spec::Api,
) -> String {
    let touched = mrds_diff::touched::touched(root, changes, old, new);
    if touched.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "\n{} line{} of hand-written code use{} what the breaking changes change (mend them, or they fail to build or pass):\n",
        touched.len(),
        if touched.len() == 1 { "" } else { "s" },
        if touched.len() == 1 { "s" } else { "" }
    );
    for t in &touched {
        out.push_str(&format!(
            "  {}:{}: {} ({})\n",
            t.file, t.line, t.text, t.change
        ));
    }
    out
}

/// The base's workspace version: from its revision's root `Cargo.toml`, or the manifest beside
/// its directory; `None` when it has none.
fn base_version(root: &Path, base: &Base) -> Result<Option<String>, String> {
    match base {
        Base::Dir { manifest, .. } => match manifest {
            Some(path) => manifest_version(path),
            None => Ok(None),
        },
        Base::Rev { commit } => {
            let prefix = git(root, &["rev-parse", "--show-prefix"])?;
            match git(root, &["show", &format!("{commit}:{prefix}Cargo.toml")]) {
                Ok(text) => Ok(workspace_version(&text)),
                // The revision has no manifest there.
                Err(_) => Ok(None),
            }
        }
    }
}

/// The workspace version of the manifest at `path`.
fn manifest_version(path: &Path) -> Result<Option<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(workspace_version(&text))
}

/// `version` of the `[workspace.package]` table of a `Cargo.toml` (a `version = "..."` line
/// inside the table, as cargo writes and this workspace keeps it).
pub fn workspace_version(manifest: &str) -> Option<String> {
    let mut in_table = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_table = line == "[workspace.package]";
            continue;
        }
        if !in_table {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        if key.trim() == "version" {
            let value = value.split('#').next().unwrap_or_default().trim();
            return value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .map(str::to_owned);
        }
    }
    None
}

/// Every diagnostic of a side that does not load, each line naming the side.
fn spec_errors(side: &str, what: &str, d: &Diagnostics) -> String {
    let mut out = String::new();
    for diag in &d.0 {
        out.push_str(&format!("{side}: {diag}\n"));
    }
    out.push_str(&format!(
        "spec-diff: {what} does not load: {} error{}; nothing was compared\n",
        d.len(),
        if d.len() == 1 { "" } else { "s" }
    ));
    out
}

/// The base and its label (`base (rev main, 1a2b3c4)`).
fn resolve_base(
    root: &Path,
    base: Option<&str>,
    notes: &mut String,
) -> Result<(Base, String), String> {
    if let Some(text) = base {
        let path = Path::new(text);
        let rev = git(
            root,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{text}^{{commit}}"),
            ],
        );
        if path.is_dir() && rev.is_ok() {
            return Err(format!(
                "`{text}` is both a directory and a revision: write `./{text}` for the directory, or `{text}^0` for the revision"
            ));
        }
        if path.is_dir() {
            let (dir, manifest) = if path.join("spec").is_dir() {
                (path.join("spec"), path.join("Cargo.toml"))
            } else {
                (path.to_path_buf(), path.join("../Cargo.toml"))
            };
            let label = format!("base (directory {})", dir.display());
            let manifest = manifest.is_file().then_some(manifest);
            return Ok((
                Base::Dir {
                    spec: dir,
                    manifest,
                },
                label,
            ));
        }
        let commit = rev.map_err(|e| {
                format!(
                    "base (rev {text}): `{text}` is neither a directory nor a revision of the repository at {}: {e}",
                    root.display()
                )
            })?;
        let label = format!("base (rev {text}, {})", short(&commit));
        return Ok((Base::Rev { commit }, label));
    }
    let head = git(root, &["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]).map_err(|e| {
        format!(
            "no BASE given, and {} has no git HEAD to find a default base from ({e}); give a revision or a directory",
            root.display()
        )
    })?;
    let main = ["main", "origin/main"].into_iter().find_map(|name| {
        git(
            root,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{name}^{{commit}}"),
            ],
        )
        .ok()
        .map(|commit| (name, commit))
    });
    let Some((name, main)) = main else {
        notes.push_str("spec-diff: note: no `main` branch; comparing with HEAD\n");
        let label = format!("base (rev HEAD, {})", short(&head));
        return Ok((Base::Rev { commit: head }, label));
    };
    let commit = git(root, &["merge-base", &head, &main])
        .map_err(|e| format!("base (merge base of HEAD and {name}): {e}"))?;
    let label = format!("base (merge base of HEAD and {name}, {})", short(&commit));
    Ok((Base::Rev { commit }, label))
}

fn short(commit: &str) -> &str {
    &commit[..commit.len().min(7)]
}

/// Loads the base spec; errors name the base.
fn load_base(root: &Path, base: &Base, label: &str) -> Result<Api, String> {
    let sources = match base {
        Base::Dir { spec: dir, .. } => {
            mrds_spec::load::read_dir(dir).map_err(|d| spec_errors(label, "the base spec", &d))?
        }
        Base::Rev { commit } => read_rev(root, commit).map_err(|e| format!("{label}: {e}\n"))?,
    };
    mrds_spec::load_sources_to_compare(&sources)
        .map_err(|d| spec_errors(label, "the base spec", &d))
}

/// The spec files of `commit` (every `.yaml` below `spec/`, a `generated` folder aside), named
/// as in the work tree (`spec/records.yaml`), sorted as `load::read_dir` sorts a directory.
fn read_rev(root: &Path, commit: &str) -> Result<Vec<(String, String)>, String> {
    let prefix = git(root, &["rev-parse", "--show-prefix"])?;
    let listing = git(
        root,
        &["ls-tree", "-r", "-z", "--full-name", commit, "--", "spec"],
    )?;
    let mut blobs: Vec<(String, String)> = Vec::new();
    for entry in listing.split('\0').filter(|e| !e.is_empty()) {
        let Some((meta, path)) = entry.split_once('\t') else {
            continue;
        };
        let mut meta = meta.split(' ');
        let (Some(_mode), Some(kind), Some(sha)) = (meta.next(), meta.next(), meta.next()) else {
            continue;
        };
        let rel = path.strip_prefix(prefix.as_str()).unwrap_or(path);
        let in_generated = rel.split('/').rev().skip(1).any(|dir| dir == "generated");
        if kind == "blob" && (rel.ends_with(".yaml") || rel.ends_with(".yml")) && !in_generated {
            blobs.push((rel.to_owned(), sha.to_owned()));
        }
    }
    if blobs.is_empty() {
        return Err("the revision has no `spec/` directory with .yaml files".into());
    }
    blobs.sort_by(|(a, _), (b, _)| Path::new(a).cmp(Path::new(b)));
    let input: String = blobs.iter().map(|(_, sha)| format!("{sha}\n")).collect();
    let raw = git_bytes(root, &["cat-file", "--batch"], Some(input.as_bytes()))?;
    let mut out = Vec::new();
    let mut rest = raw.as_slice();
    for (name, sha) in blobs {
        let line_end = rest
            .iter()
            .position(|&b| b == b'\n')
            .ok_or("git cat-file ended early")?;
        let header = String::from_utf8_lossy(&rest[..line_end]).into_owned();
        let size: usize = header
            .rsplit(' ')
            .next()
            .and_then(|s| s.parse().ok())
            .filter(|_| header.starts_with(&sha))
            .ok_or_else(|| format!("git cat-file answered `{header}` for {name}"))?;
        let body = rest
            .get(line_end + 1..line_end + 1 + size)
            .ok_or("git cat-file ended early")?;
        let text =
            String::from_utf8(body.to_vec()).map_err(|_| format!("{name} is not UTF-8 text"))?;
        out.push((name, text));
        rest = rest.get(line_end + 2 + size..).unwrap_or_default();
    }
    Ok(out)
}

/// Runs git in `root`; its trimmed output, or its error message.
fn git(root: &Path, args: &[&str]) -> Result<String, String> {
    let out = git_bytes(root, args, None)?;
    Ok(String::from_utf8_lossy(&out)
        .trim_end_matches('\n')
        .to_owned())
}

fn git_bytes(root: &Path, args: &[&str], input: Option<&[u8]>) -> Result<Vec<u8>, String> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if let Some(input) = input {
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let input = input.to_vec();
        // Written from a thread so a large answer cannot block the writer.
        std::thread::spawn(move || stdin.write_all(&input));
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        let err = String::from_utf8_lossy(&out.stderr).trim().to_owned();
        Err(if err.is_empty() {
            format!("`git {}` failed", args.join(" "))
        } else {
            format!("`git {}` failed: {err}", args.join(" "))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_version_is_read_from_its_table() {
        let manifest = "[workspace]\nmembers = []\n\n[package]\nversion = \"9.9.9\"\n\n\
                        [workspace.package]\nedition = \"2024\"\nversion = \"0.3.1\" # bump\n\n\
                        [workspace.dependencies]\nx = { version = \"=0.3.1\" }\n";
        assert_eq!(workspace_version(manifest).as_deref(), Some("0.3.1"));
        assert_eq!(workspace_version("[workspace]\n"), None);
        let own = std::fs::read_to_string("../Cargo.toml").unwrap();
        assert!(
            workspace_version(&own).is_some(),
            "this workspace has a version"
        );
    }
}
