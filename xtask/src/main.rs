//! Project automation. `cargo xtask codegen` regenerates every generated file from `spec/`;
//! `cargo xtask codegen --check` only compares, and fails with a diff when anything is stale.
//! `cargo xtask contract --base-url URL` runs the contract suite derived from the spec against a
//! server (the `mrds-contract` package, run through cargo: its HTTP stack is not part of this
//! package's build).
//! `cargo xtask synth --scale N --out DIR` writes a synthetic spec N times the real one (for
//! measuring how the generator scales). `cargo xtask spec-diff [BASE]` compares `spec/` with a
//! base revision or directory and reports every change, breaking or not (see
//! `xtask::spec_diff`). `cargo xtask drift FILE...` reads what a client or a proxy saw of the
//! service that the spec does not describe, and prints the spec edits that would describe it
//! (see `xtask::drift`). `cargo xtask watch --base-url URL --api-key-env NAME [--apply]`
//! sends the live service the spec's safe requests, politely, through the `mrds-watch`
//! package (its HTTP stack is not part of this package's build either), and with `--apply`
//! writes the spec edits its findings ask for (see `xtask::watch`).

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

#[derive(Subcommand)]
enum Command {
    /// Regenerate crates/ (and other generated files) from spec/.
    Codegen {
        /// Change nothing; exit non-zero with a diff when the tree is out of date.
        #[arg(long)]
        check: bool,
        /// Change nothing; print the diff of what the spec in DIR (a scratch copy of spec/,
        /// such as the language server's buffers) would generate against the tree.
        #[arg(long, value_name = "DIR", conflicts_with = "check")]
        preview: Option<PathBuf>,
    },
    /// Run the language server of spec/ over stdio (`mrds-lsp`, for editors; `cargo xtask lsp
    /// --help` lists its options); builds and runs the `mrds-lsp` package.
    #[command(disable_help_flag = true)]
    Lsp {
        /// The server's arguments (`--base REV`, `--no-base`, `--spec DIR`).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Run the contract suite derived from spec/ against a server of the API (`cargo xtask
    /// contract --help` lists its options); builds and runs the `mrds-contract` package.
    #[command(disable_help_flag = true)]
    Contract {
        /// The suite's arguments (`--base-url URL`, `--require-all`, ...).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
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
    /// Read findings (JSON lines a client or proxy wrote of what the service's answers held
    /// that the spec does not describe, or HAR files of recorded traffic) and print the spec
    /// edits that would describe them, as a unified diff; exits 1 when an edit is suggested.
    /// With --apply, write them into spec/.
    Drift(xtask::drift::Args),
    /// Watch the live service: send it each endpoint's example and the contract suite's valid
    /// requests (GET only unless --allow-writes), politely (--rate, --budget, Retry-After),
    /// check the answers as the checking proxy does, write the findings and a HAR file; exits
    /// 0 when the spec describes everything seen, 1 when the findings ask for spec edits, 2
    /// when the service could not be watched. With --apply, write the edits, run codegen and
    /// print spec-diff's verdict. Builds and runs the `mrds-watch` package.
    Watch(Box<xtask::watch::Args>),
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

/// The allocator of every command: generation allocates a node per token (syn, proc-macro2,
/// prettyplease), and mimalloc does that in a fraction of the system allocator's instructions.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
        Command::Codegen {
            preview: Some(spec),
            ..
        } => preview(&root, &spec),
        Command::Codegen { check, .. } => codegen(&root, check),
        Command::Lsp { args } => lsp(&root, &args),
        Command::Synth { scale, out } => synth(&root, usize::from(scale), &out),
        Command::Contract { args } => contract(&root, &args),
        Command::SpecDiff(args) => {
            let outcome = xtask::spec_diff::run(&root, &args);
            print!("{}", outcome.stdout);
            eprint!("{}", outcome.stderr);
            ExitCode::from(outcome.code)
        }
        Command::Watch(args) => {
            let outcome = xtask::watch::run(&root, &args);
            print!("{}", outcome.stdout);
            eprint!("{}", outcome.stderr);
            ExitCode::from(outcome.code)
        }
        Command::Drift(args) => {
            let outcome = xtask::drift::run(&root, &args);
            print!("{}", outcome.stdout);
            eprint!("{}", outcome.stderr);
            ExitCode::from(outcome.code)
        }
    }
}

/// Runs the contract suite's binary through cargo with `args` (the spec of this workspace
/// unless `--spec` is given), and exits as it does.
fn contract(root: &Path, args: &[String]) -> ExitCode {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = std::process::Command::new(cargo);
    command
        .arg("run")
        .arg("--quiet")
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .args(["--package", "mrds-contract", "--"]);
    if !args
        .iter()
        .any(|a| a == "--spec" || a.starts_with("--spec="))
    {
        command.arg("--spec").arg(root.join("spec"));
    }
    match command.args(args).status() {
        Ok(status) => match status.code() {
            Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
            None => ExitCode::FAILURE,
        },
        Err(e) => {
            eprintln!("xtask: cannot run cargo for the contract suite: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the language server's binary through cargo (release: the check runs on every
/// keystroke), its standard input and output the editor's; exits as it does.
fn lsp(root: &Path, args: &[String]) -> ExitCode {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = std::process::Command::new(cargo);
    command
        .arg("run")
        .arg("--quiet")
        .arg("--release")
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .args(["--package", "mrds-lsp", "--bin", "mrds-lsp", "--"]);
    if !args
        .iter()
        .any(|a| a == "--spec" || a.starts_with("--spec="))
    {
        command.arg("--spec").arg(root.join("spec"));
    }
    match command.args(args).status() {
        Ok(status) => match status.code() {
            Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
            None => ExitCode::FAILURE,
        },
        Err(e) => {
            eprintln!("xtask: cannot run cargo for the language server: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `codegen --preview DIR`: the diff of what DIR's spec generates against the tree.
fn preview(root: &Path, spec: &Path) -> ExitCode {
    match xtask::codegen::preview(root, spec) {
        Ok(plan) if plan.is_empty() => {
            println!("codegen --preview: the generated code does not change");
            ExitCode::SUCCESS
        }
        Ok(plan) => {
            print!("{plan}");
            println!(
                "codegen --preview: {} generated files would change, {} would be removed (nothing written)",
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

fn synth(root: &Path, scale: usize, out: &Path) -> ExitCode {
    let result = (|| -> Result<usize, Box<dyn std::error::Error>> {
        let sources = mrds_spec::load::read_dir(&root.join("spec"))?;
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
        xtask::codegen::Mode::Check
    } else {
        xtask::codegen::Mode::Write
    };
    match xtask::codegen::run(root, mode) {
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
