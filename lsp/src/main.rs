//! `mrds-lsp`: the language server of the spec, over stdio.
//!
//! ```text
//! mrds-lsp [--spec DIR] [--base REV | --no-base]
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut options = mrds_lsp::Options::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--spec" => options.spec_dir = args.next().map(PathBuf::from),
            "--base" => options.base = args.next(),
            "--no-base" => options.no_base = true,
            "--stdio" => {}
            "--help" | "-h" => {
                println!(
                    "mrds-lsp: the language server of spec/ (LSP over stdio)\n\n\
                     usage: mrds-lsp [--spec DIR] [--base REV | --no-base]\n\n\
                     --spec DIR   the spec directory (default: spec/ of the editor's workspace folder)\n\
                     --base REV   the base of the inline spec-diff verdict (default: the merge base with main)\n\
                     --no-base    no inline verdict"
                );
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("mrds-lsp: unknown argument `{other}` (see --help)");
                return ExitCode::from(2);
            }
        }
    }
    let (conn, io) = lsp_server::Connection::stdio();
    let result = mrds_lsp::run(&conn, options);
    drop(conn);
    let joined = io.join();
    match (result, joined) {
        (Ok(()), Ok(())) => ExitCode::SUCCESS,
        (Err(e), _) => {
            eprintln!("mrds-lsp: {e}");
            ExitCode::FAILURE
        }
        (_, Err(e)) => {
            eprintln!("mrds-lsp: {e}");
            ExitCode::FAILURE
        }
    }
}
