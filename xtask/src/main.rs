//! Project automation. `cargo xtask codegen` regenerates every generated file from `spec/`;
//! `cargo xtask codegen --check` only compares, and fails with a diff when anything is stale.
//! `cargo xtask contract --base-url URL` runs the contract suite derived from the spec against a
//! server.
//! `cargo xtask synth --scale N --out DIR` writes a synthetic spec N times the real one (for
//! measuring how the generator scales). `cargo xtask spec-diff [BASE]` compares `spec/` with a
//! base revision or directory and reports every change, breaking or not (see
//! `xtask::spec_diff`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "cargo xtask",
    about = "Project automation for the MRDS generator"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ReportFormat {
    /// A line per check; failures with a curl line and what came back.
    Text,
    /// JSON: a summary and every check.
    Json,
    /// JUnit XML, for CI.
    Junit,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate crates/ (and other generated files) from spec/.
    Codegen {
        /// Change nothing; exit non-zero with a diff when the tree is out of date.
        #[arg(long)]
        check: bool,
    },
    /// Run the contract suite derived from spec/ against a server of the API; exits non-zero
    /// when a check fails. The key comes from --api-key or MRDS_API_KEY and is never printed.
    Contract {
        /// The service root, e.g. `http://127.0.0.1:8080/api` (the base path is appended
        /// when missing).
        #[arg(long)]
        base_url: String,
        /// The API key (default: the MRDS_API_KEY environment variable).
        #[arg(long)]
        api_key: Option<String>,
        /// Run only the checks matching this id, id prefix or `*` pattern (repeatable).
        #[arg(long)]
        only: Vec<String>,
        /// Skip the checks matching this id, id prefix or `*` pattern (repeatable).
        #[arg(long)]
        skip: Vec<String>,
        /// At most this many requests per second, to be polite to a production service.
        #[arg(long)]
        rate: Option<f64>,
        /// Seconds allowed for one request.
        #[arg(long, default_value_t = 30)]
        timeout: u64,
        /// The report's format.
        #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
        format: ReportFormat,
        /// Write the report to this file instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// List the selected checks without sending anything.
        #[arg(long)]
        list: bool,
    },
    /// Write a synthetic spec: the real one with every record, value set, endpoint and
    /// samples section copied N times under new names.
    Synth {
        /// How many times the real spec's content is present.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
        scale: u16,
        /// Directory to write the spec into (created; must not hold YAML files yet).
        #[arg(long)]
        out: PathBuf,
    },
    /// Compare spec/ with a base (a git revision or a directory; default: the merge base with
    /// main): every change, classified for old clients and old servers; exits 1 on a breaking
    /// change the spec does not acknowledge.
    SpecDiff(xtask::spec_diff::Args),
}

/// The workspace this command runs in: the nearest directory at or above the current one
/// whose `Cargo.toml` declares a `[workspace]` and which holds `spec/`. Found at run time, so a
/// binary built by another checkout (a shared target directory) still works on this one.
fn workspace_root() -> Result<PathBuf, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    cwd.ancestors()
        .find(|dir| {
            dir.join("spec").is_dir()
                && std::fs::read_to_string(dir.join("Cargo.toml"))
                    .is_ok_and(|toml| toml.lines().any(|l| l.trim() == "[workspace]"))
        })
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            format!(
                "{} is not inside the workspace (no parent directory has a workspace Cargo.toml and spec/)",
                cwd.display()
            )
        })
}

fn main() -> ExitCode {
    let command = Cli::parse().command;
    let root = match workspace_root() {
        Ok(root) => root,
        Err(e) => {
            eprintln!("xtask: {e}");
            return ExitCode::FAILURE;
        }
    };
    match command {
        Command::Codegen { check } => codegen(&root, check),
        Command::Synth { scale, out } => synth(&root, usize::from(scale), &out),
        Command::Contract {
            base_url,
            api_key,
            only,
            skip,
            rate,
            timeout,
            format,
            out,
            list,
        } => {
            let options = xtask::contract::Options {
                base_url,
                api_key: api_key.or_else(|| std::env::var("MRDS_API_KEY").ok()),
                only,
                skip,
                rate,
                timeout: std::time::Duration::from_secs(timeout),
            };
            contract(&root, &options, format, out.as_deref(), list)
        }
        Command::SpecDiff(args) => {
            let outcome = xtask::spec_diff::run(&root, &args);
            print!("{}", outcome.stdout);
            eprint!("{}", outcome.stderr);
            ExitCode::from(outcome.code)
        }
    }
}

fn contract(
    root: &Path,
    options: &xtask::contract::Options,
    format: ReportFormat,
    out: Option<&Path>,
    list: bool,
) -> ExitCode {
    let api = match mrds_codegen::load_spec(&root.join("spec")) {
        Ok(api) => api,
        Err(d) => {
            eprintln!("{d}");
            return ExitCode::FAILURE;
        }
    };
    if options.api_key.is_none() {
        eprintln!(
            "contract: no API key (--api-key or MRDS_API_KEY): the checks that send one will fail"
        );
    }
    if list {
        for check in xtask::contract::selected(&api, options) {
            println!("{}  GET {}", check.id, check.request.target());
        }
        return ExitCode::SUCCESS;
    }
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("contract: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let outcomes = match runtime.block_on(xtask::contract::run(&api, options)) {
        Ok(outcomes) => outcomes,
        Err(e) => {
            eprintln!("contract: {e}");
            return ExitCode::FAILURE;
        }
    };
    let report = match format {
        ReportFormat::Text => xtask::contract::text_report(&api, &outcomes),
        ReportFormat::Json => xtask::contract::json_report(&api, &outcomes),
        ReportFormat::Junit => xtask::contract::junit_report(&api, &outcomes),
    };
    match out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &report) {
                eprintln!("contract: cannot write {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
            // The summary on the terminal too.
            print!("{}", xtask::contract::summary(&outcomes));
        }
        None => print!("{report}"),
    }
    if outcomes.iter().any(|o| o.failure.is_some()) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn synth(root: &Path, scale: usize, out: &Path) -> ExitCode {
    let result = (|| -> Result<usize, Box<dyn std::error::Error>> {
        let sources = mrds_codegen::load::read_dir(&root.join("spec"))?;
        let scaled = xtask::synth::scale(&sources, scale)?;
        if out.exists() && std::fs::read_dir(out)?.next().is_some() {
            return Err(format!("{} is not empty", out.display()).into());
        }
        for (name, text) in &scaled {
            // Names are `spec/...`; the copy keeps the layout below the spec directory.
            let rel = name.strip_prefix("spec/").unwrap_or(name);
            let path = out.join(rel);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(&path, text)?;
        }
        Ok(scaled.len())
    })();
    match result {
        Ok(files) => {
            println!(
                "synth: {files} spec files, {scale}x the real spec, in {}",
                out.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("synth: {e}");
            ExitCode::FAILURE
        }
    }
}

fn codegen(root: &Path, check: bool) -> ExitCode {
    let mode = if check {
        mrds_codegen::Mode::Check
    } else {
        mrds_codegen::Mode::Write
    };
    match mrds_codegen::run(root, mode) {
        Ok((files, _)) if check => {
            println!(
                "codegen: {} generated files are up to date with spec/",
                files.len()
            );
            ExitCode::SUCCESS
        }
        Ok((files, plan)) => {
            for (rel, old, _) in &plan.changed {
                println!(
                    "{} {rel}",
                    if old.is_some() { "updated" } else { "created" }
                );
            }
            for rel in &plan.stale {
                println!("removed {rel}");
            }
            println!(
                "codegen: {} files generated, {} written, {} removed",
                files.len(),
                plan.changed.len(),
                plan.stale.len()
            );
            ExitCode::SUCCESS
        }
        Err(failure) => {
            eprintln!("{failure}");
            ExitCode::FAILURE
        }
    }
}
