//! The `mrds-mock` command line: serves the spec's sample data on a local port.

use std::net::SocketAddr;
use std::process::ExitCode;

use clap::Parser;

/// Serves the Market and Reference Data Service with the sample data of its spec.
#[derive(Debug, Parser)]
#[command(name = "mrds-mock", version)]
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

/// Runs the command line (`mrds-mock --help`) until interrupted.
pub fn run() -> ExitCode {
    let args = Args::parse();
    match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime.block_on(serve(args)),
        Err(e) => {
            eprintln!("mrds-mock: cannot start the runtime: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(args: Args) -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let keys = if args.api_keys.is_empty() {
        vec![crate::DEMO_KEY.to_string()]
    } else {
        args.api_keys
    };
    let listener = match tokio::net::TcpListener::bind(args.addr).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("mrds-mock: cannot listen on {}: {e}", args.addr);
            return ExitCode::FAILURE;
        }
    };
    let addr = listener.local_addr().unwrap_or(args.addr);
    println!(
        "mrds-mock: serving sample data at http://{addr}{}",
        crate::BASE_PATH
    );
    println!("mrds-mock: accepted API key(s): {}", keys.join(", "));
    println!(
        "mrds-mock: try  curl -H '{}: {}' 'http://{addr}{}{}'",
        crate::AUTH_HEADER,
        keys[0],
        crate::BASE_PATH,
        crate::EXAMPLE_REQUEST
    );
    let mock = if args.serve_removed {
        crate::Mock::serving_removed()
    } else {
        crate::Mock::new()
    };
    let app = mrds_server::router(mock, mrds_server::StaticKeys::new(&keys));
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    match mrds_server::axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mrds-mock: server failed: {e}");
            ExitCode::FAILURE
        }
    }
}
