//! The base the inline verdict compares with: the spec at a git revision, by default the merge
//! base of `HEAD` and `main` (`origin/main` when there is no local `main`; `HEAD` when there
//! is neither), as `cargo xtask spec-diff` takes it. Read with git; the work tree is untouched.

use std::path::Path;
use std::process::{Command, Stdio};

use mrds_spec::Api;

/// The base spec, loaded as spec-diff loads a base ([`mrds_spec::load_sources_to_compare`]),
/// and the revision it was read at; or why there is none. As with `cargo xtask spec-diff`, the
/// base may be a directory holding a spec (its `spec/`, or the YAML files themselves).
pub fn load(spec_dir: &Path, rev: Option<&str>) -> Result<(Api, String), String> {
    if let Some(dir) = rev.map(Path::new).filter(|d| d.is_dir()) {
        let spec = if dir.join("spec").is_dir() {
            dir.join("spec")
        } else {
            dir.to_path_buf()
        };
        let sources = mrds_spec::load::read_dir(&spec).map_err(|d| d.to_string())?;
        let api = mrds_spec::load_sources_to_compare(&sources)
            .map_err(|d| format!("the base spec ({}) does not load: {d}", spec.display()))?;
        return Ok((api, spec.display().to_string()));
    }
    let commit = match rev {
        Some(rev) => git(
            spec_dir,
            &["rev-parse", "--verify", &format!("{rev}^{{commit}}")],
        )?,
        None => default_base(spec_dir)?,
    };
    let prefix = spec_dir
        .file_name()
        .map_or_else(|| "spec".to_owned(), |n| n.to_string_lossy().into_owned());
    let listing = git(spec_dir, &["ls-tree", "-r", "--name-only", &commit])?;
    let mut sources = Vec::new();
    for path in listing.lines() {
        let hidden = path
            .split('/')
            .any(|p| p.starts_with('.') || p == "generated");
        if hidden || !(path.ends_with(".yaml") || path.ends_with(".yml")) {
            continue;
        }
        let text = git(spec_dir, &["show", &format!("{commit}:./{path}")])?;
        sources.push((format!("{prefix}/{path}"), text));
    }
    if sources.is_empty() {
        return Err(format!("revision {commit} has no spec files here"));
    }
    let api = mrds_spec::load_sources_to_compare(&sources).map_err(|d| {
        format!(
            "the base spec ({}) does not load: {}",
            short(&commit),
            d.0.first().map(ToString::to_string).unwrap_or_default()
        )
    })?;
    Ok((api, short(&commit).to_owned()))
}

fn short(commit: &str) -> &str {
    commit.get(..12).unwrap_or(commit)
}

/// The merge base of `HEAD` and `main` (or `origin/main`), or `HEAD`.
fn default_base(dir: &Path) -> Result<String, String> {
    let head = git(dir, &["rev-parse", "--verify", "HEAD^{commit}"])?;
    for main in ["main", "origin/main"] {
        if let Ok(main) = git(
            dir,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{main}^{{commit}}"),
            ],
        ) {
            return git(dir, &["merge-base", &head, &main]);
        }
    }
    Ok(head)
}

/// Runs git in `dir`; its trimmed output, or why it failed.
fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        let text = String::from_utf8_lossy(&out.stdout);
        // Content keeps its final line break; names and commits are trimmed.
        Ok(if args.first() == Some(&"show") {
            text.into_owned()
        } else {
            text.trim().to_owned()
        })
    } else {
        Err(format!(
            "`git {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}
