//! `mrds-watch`: the live service sent the requests the spec says it answers, politely, and
//! its answers checked as the checking proxy checks them (see the library). `cargo xtask watch
//! ARGS` runs it through cargo (so the HTTP stack is built only when the watch runs), and
//! with `--apply` applies what it found to `spec/`.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = mrds_watch::cli::Cli::parse();
    let outcome = mrds_watch::cli::execute(&cli, |name| std::env::var_os(name));
    print!("{}", outcome.stdout);
    eprint!("{}", outcome.stderr);
    ExitCode::from(outcome.code)
}
