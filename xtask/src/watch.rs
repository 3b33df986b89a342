//! `cargo xtask watch --base-url URL --api-key-env NAME [--apply]`: the live service watched
//! for drift from the spec. The probing is the `mrds-watch` package's binary (it needs the
//! client's HTTP stack, which this package never builds: `cargo xtask codegen` stays the
//! generator alone), run through cargo as `cargo xtask contract` runs the suite's, every option
//! passed on ([`Args::child_args`]). It prints a table per endpoint and the report of the
//! findings, writes the findings (JSON lines) and the traffic (HAR), and exits 0 (the spec
//! describes everything seen), 1 (the findings ask for spec edits) or 2 (the service could not
//! be watched).
//!
//! With `--apply`, when it exits 1, the findings are applied here, in process ([`apply`]):
//! the report's edits and drafts written into `spec/` as `cargo xtask drift --apply` writes
//! them ([`crate::drift::write`]), the codegen pipeline run ([`crate::codegen::run`]), and
//! spec-diff's verdict on the edited spec against the spec before the edits printed
//! ([`crate::spec_diff::run`]). The exit status stays the watch's (1: there were findings),
//! or 2 when the edits could not be applied.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::Parser;
use mrds_runtime::drift::parse_json_lines;

use crate::drift::Outcome;

/// The arguments of `cargo xtask watch`: the options of `mrds-watch` (each passed on; the
/// defaults are its own, which a test holds equal) and `--apply`.
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// The service's root, e.g. `https://provider.example/api` (the base path is appended when
    /// missing). Never printed.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// The environment variable holding the API key (the key is never given on the command
    /// line, printed or written).
    #[arg(long, value_name = "NAME", default_value = "MRDS_API_KEY")]
    pub api_key_env: String,
    /// At most this many requests a second.
    #[arg(long, default_value = "2")]
    pub rate: String,
    /// At most this many requests in all (tries again after a 429 or 503 included).
    #[arg(long, default_value = "300")]
    pub budget: String,
    /// Seconds the run may take at most.
    #[arg(long, value_name = "SECONDS", default_value = "900")]
    pub max_time: String,
    /// Seconds the service may ask to wait (Retry-After) before the run stops instead.
    #[arg(long, value_name = "SECONDS", default_value = "60")]
    pub max_wait: String,
    /// Seconds allowed for one request.
    #[arg(long, value_name = "SECONDS", default_value = "30")]
    pub timeout: String,
    /// Endpoint ids whose POST, PUT, PATCH or DELETE requests may be sent (comma-separated or
    /// repeated); without it only GET requests are.
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    pub allow_writes: Vec<String>,
    /// Watch only these endpoint ids.
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    pub only: Vec<String>,
    /// Do not watch these endpoint ids.
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    pub skip: Vec<String>,
    /// Where the findings go, as JSON lines [default: target/watch/findings.jsonl in the
    /// workspace].
    #[arg(long, value_name = "FILE")]
    pub findings: Option<PathBuf>,
    /// Where the traffic goes, as HAR 1.2, the key redacted [default:
    /// target/watch/traffic.har in the workspace].
    #[arg(long, value_name = "FILE")]
    pub har: Option<PathBuf>,
    /// List the requests the run would send, and send nothing.
    #[arg(long)]
    pub list: bool,
    /// When the findings ask for spec edits: write them into spec/ (and drafts into
    /// spec/drafts/), as `cargo xtask drift --apply` does, run `cargo xtask codegen`, and print
    /// spec-diff's verdict on the result.
    #[arg(long)]
    pub apply: bool,
}

#[derive(Parser)]
#[command(name = "cargo xtask watch")]
struct Only {
    #[command(flatten)]
    args: Args,
}

impl Args {
    /// The arguments of a command line (without the program's name), as clap reads them.
    pub fn from_args(args: &[&str]) -> Result<Args, String> {
        let words = std::iter::once("watch").chain(args.iter().copied());
        Only::try_parse_from(words)
            .map(|only| only.args)
            .map_err(|e| e.to_string())
    }

    /// The findings file: as given, or `target/watch/findings.jsonl` below `root`.
    pub fn findings_file(&self, root: &Path) -> PathBuf {
        (self.findings.clone()).unwrap_or_else(|| root.join("target/watch/findings.jsonl"))
    }

    /// The HAR file: as given, or `target/watch/traffic.har` below `root`.
    pub fn har_file(&self, root: &Path) -> PathBuf {
        (self.har.clone()).unwrap_or_else(|| root.join("target/watch/traffic.har"))
    }

    /// The arguments of `mrds-watch` for the workspace at `root`: every option, the spec of
    /// the workspace.
    pub fn child_args(&self, root: &Path) -> Vec<OsString> {
        let mut out: Vec<OsString> = Vec::new();
        let mut pair = |flag: &str, value: OsString| {
            out.push(flag.into());
            out.push(value);
        };
        if let Some(url) = &self.base_url {
            pair("--base-url", url.into());
        }
        pair("--api-key-env", (&self.api_key_env).into());
        pair("--rate", (&self.rate).into());
        pair("--budget", (&self.budget).into());
        pair("--max-time", (&self.max_time).into());
        pair("--max-wait", (&self.max_wait).into());
        pair("--timeout", (&self.timeout).into());
        for (flag, ids) in [
            ("--allow-writes", &self.allow_writes),
            ("--only", &self.only),
            ("--skip", &self.skip),
        ] {
            if !ids.is_empty() {
                pair(flag, ids.join(",").into());
            }
        }
        pair("--findings", self.findings_file(root).into());
        pair("--har", self.har_file(root).into());
        pair("--spec", root.join("spec").into());
        if self.list {
            out.push("--list".into());
        }
        out
    }
}

/// Runs `mrds-watch` through cargo for the workspace at `root`, and with `--apply`, when it
/// found what asks for spec edits (exit 1), applies them ([`apply`]). The watch prints as it
/// goes; the outcome holds what the application printed, and the exit status.
pub fn run(root: &Path, args: &Args) -> Outcome {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = std::process::Command::new(cargo)
        .arg("run")
        .arg("--quiet")
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .args(["--package", "mrds-watch", "--"])
        .args(args.child_args(root))
        .status();
    let code = match status {
        Ok(status) => status.code().map_or(2, |c| u8::try_from(c).unwrap_or(2)),
        Err(e) => {
            return Outcome {
                code: 2,
                stdout: String::new(),
                stderr: format!("watch: cannot run cargo for the watch: {e}\n"),
            };
        }
    };
    if !args.apply || code != 1 || args.list {
        return Outcome {
            code,
            stdout: String::new(),
            stderr: String::new(),
        };
    }
    let applied = apply(
        root,
        &args.findings_file(root),
        &mrds_follow::Options::default(),
    );
    Outcome {
        code: if applied.code == 0 { code } else { 2 },
        ..applied
    }
}

/// Applies the findings in `findings` to the workspace at `root`: the report's edits and
/// drafts written into `spec/` (when the edited spec loads and generates), the codegen
/// pipeline run, and spec-diff's verdict on the edited spec against the spec before the edits.
/// Code 0 when written and generated, 2 when not (spec-diff's verdict is printed, not counted:
/// the pull request shows it).
pub fn apply(root: &Path, findings: &Path, options: &mrds_follow::Options) -> Outcome {
    let failed = |stdout: String, stderr: String| Outcome {
        code: 2,
        stdout,
        stderr,
    };
    let text = match std::fs::read_to_string(findings) {
        Ok(text) => text,
        Err(e) => {
            let why = format!("watch: cannot read {}: {e}\n", findings.display());
            return failed(String::new(), why);
        }
    };
    let (found, problems) = parse_json_lines(&text);
    if let Some((line, problem)) = problems.first() {
        let why = format!(
            "watch: {}:{line}: not a finding: {problem}\n",
            findings.display()
        );
        return failed(String::new(), why);
    }
    let sources = match mrds_spec::load::read_dir(&root.join("spec")) {
        Ok(sources) => sources,
        Err(d) => {
            return failed(
                String::new(),
                format!("watch: the spec cannot be read:\n{d}\n"),
            );
        }
    };
    let api = match mrds_spec::load_sources(&sources) {
        Ok(api) => api,
        Err(d) => {
            return failed(
                String::new(),
                format!("watch: the spec does not load:\n{d}\n"),
            );
        }
    };
    let report = mrds_follow::report(&api, &sources, &found, options);
    let mut stdout = String::from("\n== the edits\n");
    if report.files.is_empty() {
        stdout.push_str("none could be written: see the report above\n");
        return Outcome {
            code: 0,
            stdout,
            stderr: String::new(),
        };
    }
    stdout.push_str(&report.diff);
    stdout.push_str(&crate::drift::touched(root, &api, &sources, &report));
    let written = crate::drift::write(root, &sources, &report);
    stdout.push_str(&written.stdout);
    if written.code != 0 {
        return failed(stdout, written.stderr);
    }
    match crate::codegen::run(root, crate::codegen::Mode::Write) {
        Ok((files, plan)) => stdout.push_str(&format!(
            "codegen: {} files generated, {} written, {} removed\n",
            files.len(),
            plan.changed.len(),
            plan.stale.len()
        )),
        Err(e) => return failed(stdout, format!("watch: codegen failed:\n{e}\n")),
    }
    stdout.push_str("\n== spec-diff: the spec before the edits against the edited spec\n");
    let verdict = spec_diff_against(root, &sources);
    stdout.push_str(&verdict.stdout);
    stdout.push_str(&match verdict.code {
        0 => "spec-diff: passed (the breaking changes are acknowledged)\n".to_string(),
        1 => "spec-diff: FAILED: a breaking change is not acknowledged (see above)\n".to_string(),
        _ => format!("spec-diff: could not compare:\n{}", verdict.stderr),
    });
    Outcome {
        code: 0,
        stdout,
        stderr: String::new(),
    }
}

/// spec-diff of the workspace's `spec/` against `before` (the spec's files before the edits),
/// written into a directory of its own with the workspace's manifest beside it.
fn spec_diff_against(root: &Path, before: &[(String, String)]) -> crate::spec_diff::Outcome {
    let base = std::env::temp_dir().join(format!("mrds-watch-base-{}", std::process::id()));
    let written = (|| -> std::io::Result<()> {
        for (name, text) in before {
            let path = base.join(name);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(path, text)?;
        }
        std::fs::copy(root.join("Cargo.toml"), base.join("Cargo.toml")).map(drop)
    })();
    let outcome = match written {
        Ok(()) => crate::spec_diff::run(
            root,
            &crate::spec_diff::Args {
                base: Some(base.display().to_string()),
                format: crate::spec_diff::Format::Text,
                changelog: false,
                breaking_for: crate::spec_diff::Direction::Both,
                release: false,
            },
        ),
        Err(e) => crate::spec_diff::Outcome {
            code: 2,
            stdout: String::new(),
            stderr: format!("cannot write the spec before the edits: {e}\n"),
        },
    };
    let _ = std::fs::remove_dir_all(&base);
    outcome
}
