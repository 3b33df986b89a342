//! `mrds-contract`: the contract suite derived from `spec/` run against a server of the API.
//! `cargo xtask contract ARGS` runs it (through cargo, so the HTTP stack is built only when
//! the suite runs); the arguments are the same.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

#[derive(Clone, Copy, clap::ValueEnum)]
enum ReportFormat {
    /// A line per check (failures with a curl line and what came back), then a table per
    /// endpoint.
    Text,
    /// JSON: the totals, every endpoint and every check.
    Json,
    /// JUnit XML, for CI.
    Junit,
}

/// Run the contract suite derived from spec/ against a server of the API; exits non-zero when
/// a check fails (or, with --require-all, when an endpoint answers 501 NOT_IMPLEMENTED). The
/// key comes from --api-key or MRDS_API_KEY and is never printed.
#[derive(Parser)]
#[command(name = "mrds-contract", bin_name = "cargo xtask contract")]
struct Cli {
    /// The service root, e.g. `http://127.0.0.1:8080/api` (the base path is appended when
    /// missing).
    #[arg(long)]
    base_url: Option<String>,
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
    /// Fail when an endpoint answers 501 NOT_IMPLEMENTED (by default it is reported, once per
    /// endpoint, and the run passes).
    #[arg(long)]
    require_all: bool,
    /// The server serves the endpoints the spec marks removed (a sample server run with
    /// `--serve-removed`): check them as any other endpoint instead of expecting 410.
    #[arg(long)]
    serves_removed: bool,
    /// The report's format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    format: ReportFormat,
    /// Write the report to this file instead of standard output (the table per endpoint is
    /// printed too).
    #[arg(long)]
    out: Option<PathBuf>,
    /// List the selected checks without sending anything.
    #[arg(long)]
    list: bool,
    /// The spec directory.
    #[arg(long, default_value = "spec")]
    spec: PathBuf,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let api = match mrds_spec::load_spec(&cli.spec) {
        Ok(api) => api,
        Err(d) => {
            eprintln!("{d}");
            return ExitCode::FAILURE;
        }
    };
    let options = mrds_contract::Options {
        base_url: cli.base_url.clone().unwrap_or_default(),
        api_key: cli
            .api_key
            .clone()
            .or_else(|| std::env::var("MRDS_API_KEY").ok()),
        only: cli.only.clone(),
        skip: cli.skip.clone(),
        rate: cli.rate,
        timeout: std::time::Duration::from_secs(cli.timeout),
        require_all: cli.require_all,
        removed: if cli.serves_removed {
            mrds_probes::Removed::Served
        } else {
            mrds_probes::Removed::Gone
        },
    };
    if cli.list {
        for check in mrds_contract::selected(&api, &options) {
            println!(
                "{}  {} {}",
                check.id,
                check.request.method.as_str(),
                check.request.target()
            );
        }
        return ExitCode::SUCCESS;
    }
    if cli.base_url.is_none() {
        eprintln!("contract: --base-url is required (or --list)");
        return ExitCode::from(2);
    }
    if options.api_key.is_none() {
        eprintln!(
            "contract: no API key (--api-key or MRDS_API_KEY): the checks that send one will fail"
        );
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
    let outcomes = match runtime.block_on(mrds_contract::run(&api, &options)) {
        Ok(outcomes) => outcomes,
        Err(e) => {
            eprintln!("contract: {e}");
            return ExitCode::FAILURE;
        }
    };
    let report = match cli.format {
        ReportFormat::Text => mrds_contract::text_report(&api, &outcomes),
        ReportFormat::Json => mrds_contract::json_report(&api, &outcomes),
        ReportFormat::Junit => mrds_contract::junit_report(&api, &outcomes, cli.require_all),
    };
    match &cli.out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &report) {
                eprintln!("contract: cannot write {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
            print!("{}", mrds_contract::summary(&outcomes));
        }
        None => print!("{report}"),
    }
    let totals = mrds_contract::Totals::of(&outcomes);
    if totals.passed(cli.require_all) {
        ExitCode::SUCCESS
    } else {
        if totals.failed == 0 {
            eprintln!(
                "contract: {} endpoint(s) not implemented, and --require-all asks for every one",
                totals.not_implemented
            );
        }
        ExitCode::FAILURE
    }
}
