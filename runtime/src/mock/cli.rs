//! The sample-data server's command line: serves the spec's sample data on a local port.

use std::net::SocketAddr;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser};

use crate::server::StaticKeys;

/// What the generated sample-data crate tells the command line.
#[derive(Clone, Copy)]
pub struct App {
    /// The command's name (`mrds-mock`).
    pub name: &'static str,
    /// One line saying what it serves.
    pub about: &'static str,
    /// Base path and key header.
    pub protocol: crate::Protocol,
    /// The key accepted when none is given on the command line.
    pub demo_key: &'static str,
    /// A request the sample data answers (path below the base path, and query).
    pub example_request: &'static str,
    /// The router serving the sample data with `keys`; removed endpoints answer with
    /// their sample data when `serve_removed`, 410 otherwise.
    pub router: fn(serve_removed: bool, keys: StaticKeys) -> axum::Router,
}

/// Serves the sample data of the spec.
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// An API key to accept (repeatable); without one the demo key is accepted.
    #[arg(long = "api-key", value_name = "KEY")]
    api_keys: Vec<String>,
    /// Serve removed endpoints with their sample data instead of 410.
    #[arg(long)]
    serve_removed: bool,
}

/// Runs the command line (`--help`) until interrupted.
pub fn run(app: &App) -> ExitCode {
    let command = Args::command().name(app.name).about(app.about);
    let args = match Args::from_arg_matches(&command.get_matches()) {
        Ok(args) => args,
        Err(e) => e.exit(),
    };
    match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime.block_on(serve(app, args)),
        Err(e) => {
            eprintln!("{}: cannot start the runtime: {e}", app.name);
            ExitCode::FAILURE
        }
    }
}

async fn serve(app: &App, args: Args) -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let name = app.name;
    let keys = if args.api_keys.is_empty() {
        vec![app.demo_key.to_string()]
    } else {
        args.api_keys
    };
    let listener = match tokio::net::TcpListener::bind(args.addr).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("{name}: cannot listen on {}: {e}", args.addr);
            return ExitCode::FAILURE;
        }
    };
    let addr = listener.local_addr().unwrap_or(args.addr);
    let base = app.protocol.base_path;
    println!("{name}: serving sample data at http://{addr}{base}");
    println!("{name}: accepted API key(s): {}", keys.join(", "));
    println!(
        "{name}: try  curl -H '{}: {}' 'http://{addr}{base}{}'",
        app.protocol.auth_header, keys[0], app.example_request
    );
    let router = (app.router)(args.serve_removed, StaticKeys::new(&keys));
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    match axum::serve(listener, router)
        .with_graceful_shutdown(shutdown)
        .await
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: server failed: {e}");
            ExitCode::FAILURE
        }
    }
}
