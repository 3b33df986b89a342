//! Project automation. `cargo xtask codegen` regenerates every generated file from `spec/`;
//! `cargo xtask codegen --check` only compares, and fails with a diff when anything is stale.

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
    },
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Codegen { check } => codegen(&workspace_root(), check),
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
