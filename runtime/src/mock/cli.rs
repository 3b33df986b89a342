//! The sample-data server's command line: serves the spec's sample data through
//! [`serve`](crate::server::serve), the same serving path an implementation uses, with a flag
//! for each of its limits.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser, ValueEnum};

use super::control::Control;
use super::journal::Journal;
use super::{DEFAULT_JOURNAL_CAPACITY, MAX_PREFER_DELAY};
use crate::app::App;
use crate::server::{RateLimit, ServeConfig, Server, StaticKeys};

/// How log lines are written (to standard error).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// One JSON object per line.
    Json,
    /// Human-readable text; coloured only on a terminal.
    Text,
}

/// Serves the sample data of the spec.
///
/// Logs go to standard error: one line per request (request id, method, endpoint, query with
/// keys redacted, whether a key was sent and accepted, status, the time the answer took, a
/// delay included, and what answered it; a request the client abandoned too; never the key),
/// level from RUST_LOG (default `info`).
///
/// A request may ask for another answer with the `Prefer` header (as Prism does), unless
/// --no-prefer: `Prefer: code=<status>` answers that status (200 to 599) with the spec's error
/// object of its code, or bare (an empty body) when the spec has no code for it, as a proxy
/// answers a 502, 503 or 504 (a 429 says `Retry-After: 1`; `retry-after=<seconds>` sets it);
/// `Prefer: delay=<ms>` waits that long first (at most 10000 ms); `code=200` gives the sample
/// records. A delay over the bound or a malformed value is answered 400 INVALID_PARAMETER;
/// other preferences are ignored. The answer says `Preference-Applied`.
///
/// With --admin it serves an admin API for tests in any language, in WireMock's shape: `GET
/// /__admin/requests` (the journal: every request, its key redacted, with its status, the time
/// its answer took and what answered it), `POST /__admin/scenarios` (a scenario as JSON: any
/// status, a body, a delay, a reset, matched by query parameter, path parameter or body field,
/// with an expectation), `GET` and `DELETE /__admin/scenarios`, `DELETE /__admin/requests` and
/// `POST /__admin/reset`. Only on a loopback --addr unless --admin-remote.
#[cfg_attr(
    feature = "proxy",
    doc = "",
    doc = "With --proxy URL it serves no sample data: it is a checking proxy in front of the \
           service at URL (the base path is appended when missing). It forwards every request \
           (the caller's key passed on unchanged, never logged or written) and returns the \
           service's answer as it came (a bare 502 when none came, 504 past --request-timeout), \
           and checks both against the spec: what the answer holds that the spec does not \
           describe (a field, a value, a null, a type), a request the spec refuses that the \
           service accepts (rule.stricter) and one the spec accepts that the service refuses \
           with 400 INVALID_PARAMETER or 422 (rule.looser). Findings go to --findings as JSON \
           lines, rewritten as they come and when it stops (SIGINT, SIGTERM), and a summary is \
           printed then; `cargo xtask drift FILE` prints the spec edits they call for."
)]
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
    /// Log format.
    #[arg(long, value_enum, env = "MRDS_LOG_FORMAT", default_value = "text")]
    log_format: LogFormat,
    /// Connections served at once; more wait in the listen backlog.
    #[arg(long, value_name = "N", default_value_t = ServeConfig::default().max_connections)]
    max_connections: usize,
    /// Time to receive a request head (`10s`, `500ms`, `2m`; a bare number is seconds).
    #[arg(long, value_name = "DURATION", value_parser = duration, default_value = "10s")]
    header_read_timeout: Duration,
    /// Time a connection may rest between requests; `0` turns keep-alive off.
    #[arg(long, value_name = "DURATION", value_parser = duration, default_value = "75s")]
    keep_alive_timeout: Duration,
    /// Time the service gets to answer one request; `0` waits for ever.
    #[arg(long, value_name = "DURATION", value_parser = duration, default_value = "30s")]
    request_timeout: Duration,
    /// Time a client may read nothing of an answer.
    #[arg(long, value_name = "DURATION", value_parser = duration, default_value = "30s")]
    write_timeout: Duration,
    /// Largest request head (request line and headers), in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = ServeConfig::default().max_head_bytes)]
    max_head_bytes: usize,
    /// Time the requests in flight get to finish after SIGINT or SIGTERM.
    #[arg(long, value_name = "DURATION", value_parser = duration, default_value = "10s")]
    shutdown_timeout: Duration,
    /// Do not gzip large answers.
    #[arg(long)]
    no_compression: bool,
    /// Requests per second per API key (per peer address without a key); off by default.
    #[arg(long, value_name = "PER_SECOND")]
    rate_limit: Option<u32>,
    /// Requests a caller may make at once under --rate-limit (default: the rate).
    #[arg(long, value_name = "N", requires = "rate_limit")]
    rate_burst: Option<u32>,
    /// Adopt a valid incoming x-request-id (behind a proxy that sets it).
    #[arg(long)]
    trust_request_id: bool,
    /// Ignore the Prefer request header (by default `Prefer: code=<status>` and
    /// `delay=<ms>` are followed; see above).
    #[arg(long)]
    no_prefer: bool,
    /// Serve the admin API (`/__admin/...`: the journal, scenarios, reset; see above).
    #[arg(long)]
    admin: bool,
    /// With --admin: serve it on an --addr that is not a loopback address too (anyone who
    /// reaches the port can then read the journal and set the answers).
    #[arg(long, requires = "admin")]
    admin_remote: bool,
    /// With --admin: the requests the journal keeps (the oldest are forgotten beyond).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_JOURNAL_CAPACITY, requires = "admin")]
    journal_capacity: usize,
    /// Be a checking proxy in front of the service at URL instead of serving the sample data
    /// (see above): `https://host` or `https://host/api`.
    #[cfg(feature = "proxy")]
    #[arg(
        long,
        value_name = "URL",
        conflicts_with_all = ["api_keys", "serve_removed", "no_prefer", "admin"]
    )]
    proxy: Option<String>,
    /// With --proxy: the file of findings, one JSON object a line (rewritten as findings come;
    /// the findings it holds at start are kept, and counted on).
    #[cfg(feature = "proxy")]
    #[arg(
        long,
        value_name = "PATH",
        default_value = "drift.jsonl",
        requires = "proxy"
    )]
    findings: std::path::PathBuf,
    /// With --proxy: also record every exchange with the service in this file as HAR 1.2,
    /// credentials redacted (for other tools; `cargo xtask drift` reads it too).
    #[cfg(feature = "proxy")]
    #[arg(long, value_name = "FILE", requires = "proxy")]
    har: Option<std::path::PathBuf>,
    /// With --proxy: the largest answer read from the service, in bytes; a larger one is
    /// answered with a bare 502.
    #[cfg(feature = "proxy")]
    #[arg(
        long,
        value_name = "BYTES",
        default_value_t = crate::proxy::DEFAULT_MAX_ANSWER_BYTES,
        requires = "proxy"
    )]
    max_answer_bytes: usize,
}

impl Args {
    fn serve_config(&self) -> ServeConfig {
        let rate_limit = self.rate_limit.map(|rate| {
            let limit = RateLimit::per_second(rate);
            match self.rate_burst {
                Some(burst) => limit.burst(burst),
                None => limit,
            }
        });
        ServeConfig::default()
            .with_addr(self.addr)
            .with_max_connections(self.max_connections)
            .with_header_read_timeout(self.header_read_timeout)
            .with_keep_alive_timeout(Some(self.keep_alive_timeout).filter(|d| !d.is_zero()))
            .with_request_timeout(Some(self.request_timeout).filter(|d| !d.is_zero()))
            .with_write_timeout(self.write_timeout)
            .with_max_head_bytes(self.max_head_bytes)
            .with_shutdown_timeout(self.shutdown_timeout)
            .with_compression(!self.no_compression)
            .with_rate_limit(rate_limit)
            .with_trust_request_id(self.trust_request_id)
    }
}

/// `10s`, `500ms`, `2m`, or a bare number of seconds.
fn duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = match text.find(|c: char| !(c.is_ascii_digit() || c == '.')) {
        Some(at) => text.split_at(at),
        None => (text, "s"),
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a duration (like 10s, 500ms, 2m)"))?;
    let seconds = match unit {
        "ms" => value / 1000.0,
        "s" => value,
        "m" => value * 60.0,
        _ => return Err(format!("unknown unit `{unit}` (ms, s or m)")),
    };
    Duration::try_from_secs_f64(seconds).map_err(|e| e.to_string())
}

/// Runs the command line (`--help`) until interrupted.
pub fn run(app: &App) -> ExitCode {
    let command = Args::command().name(app.name).about(app.about);
    let args = match Args::from_arg_matches(&command.get_matches()) {
        Ok(args) => args,
        Err(e) => e.exit(),
    };
    init_logging(args.log_format);
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

/// Log lines on standard error: JSON or text (coloured only on a terminal), the level from
/// `RUST_LOG` (`info` when unset or invalid).
fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false);
    match format {
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .init(),
        LogFormat::Text => builder.with_ansi(std::io::stderr().is_terminal()).init(),
    }
}

async fn serve(app: &App, args: Args) -> ExitCode {
    let name = app.name;
    #[cfg(feature = "proxy")]
    let proxy = match &args.proxy {
        Some(provider) => {
            let mut builder = crate::proxy::Proxy::builder(app, provider.as_str());
            if let Some(har) = &args.har {
                builder = builder.har_file(har);
            }
            let built = builder
                .findings_file(&args.findings)
                .max_answer_bytes(args.max_answer_bytes)
                .timeout(Some(args.request_timeout).filter(|d| !d.is_zero()))
                .build();
            match built {
                Ok(proxy) => Some(proxy),
                Err(e) => {
                    eprintln!("{name}: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        None => None,
    };
    if args.admin && !args.admin_remote && !args.addr.ip().is_loopback() {
        eprintln!(
            "{name}: the admin API is served on a loopback --addr only ({} is not one); add \
             --admin-remote to serve it to other machines",
            args.addr
        );
        return ExitCode::FAILURE;
    }
    let config = args.serve_config();
    let server = match Server::bind(config).await {
        Ok(server) => server,
        Err(e) => {
            eprintln!("{name}: cannot listen on {}: {e}", args.addr);
            return ExitCode::FAILURE;
        }
    };
    let addr = server.local_addr().unwrap_or(args.addr);
    let base = app.protocol.base_path;
    let header = app.protocol.auth_header;
    #[cfg(feature = "proxy")]
    if let Some(proxy) = proxy {
        return serve_proxy(app, proxy, server, addr).await;
    }
    // Keys are never printed: the count, and the demo key only when it is the built-in one.
    let (keys, shown_key) = if args.api_keys.is_empty() {
        println!("{name}: accepting the demo API key {}", app.demo_key);
        (vec![app.demo_key.to_string()], app.demo_key)
    } else {
        let n = args.api_keys.len();
        println!(
            "{name}: accepting {n} API key{} given with --api-key",
            if n == 1 { "" } else { "s" }
        );
        (args.api_keys, "$KEY")
    };
    if !args.no_prefer {
        println!(
            "{name}: following the Prefer header (code=<status>, delay=<ms> up to {} ms; --no-prefer to ignore it)",
            MAX_PREFER_DELAY.as_millis()
        );
    }
    if args.admin {
        println!(
            "{name}: admin API at http://{addr}/__admin/ (requests, scenarios, reset; a journal of {} requests)",
            args.journal_capacity
        );
    }
    println!("{name}: serving sample data at http://{addr}{base}");
    println!(
        "{name}: try  {}",
        app.example
            .curl(&format!("http://{addr}{base}"), header, Some(shown_key))
    );
    let router = (app.router)(args.serve_removed, StaticKeys::new(&keys));
    // The journal keeps requests for the admin API only; without it, it redacts the log line.
    let capacity = if args.admin { args.journal_capacity } else { 0 };
    let journal = Journal::new(capacity, &keys, app.protocol.auth_header);
    drop(keys);
    let settings = (!args.no_prefer, args.admin);
    let control = Control::new(app.endpoints, app.protocol, app.errors, settings, journal);
    let router = std::sync::Arc::new(control).around(router);
    match server.serve(router).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: server failed: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Serves the checking proxy until a signal, then prints what it saw.
#[cfg(feature = "proxy")]
async fn serve_proxy(
    app: &App,
    proxy: std::sync::Arc<crate::proxy::Proxy>,
    server: Server,
    addr: SocketAddr,
) -> ExitCode {
    let name = app.name;
    let base = app.protocol.base_path;
    println!(
        "{name}: forwarding every request to {}, checking requests and answers against the spec",
        proxy.provider()
    );
    let known = proxy.findings().len();
    if let Some(file) = proxy.findings_file() {
        let kept = match known {
            0 => String::new(),
            n => format!(" (the {n} it holds are kept)"),
        };
        println!(
            "{name}: findings go to {} as they come{kept}; `cargo xtask drift {}` prints the spec edits they call for",
            file.display(),
            file.display()
        );
    }
    println!("{name}: checking proxy at http://{addr}{base}");
    println!(
        "{name}: try  {}",
        app.example.curl(
            &format!("http://{addr}{base}"),
            app.protocol.auth_header,
            Some("$KEY")
        )
    );
    let served = proxy.clone().serve(server).await;
    println!("{name}: {}", proxy.summary());
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: proxy failed: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(duration("10s"), Ok(Duration::from_secs(10)));
        assert_eq!(duration("10"), Ok(Duration::from_secs(10)));
        assert_eq!(duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(duration("0"), Ok(Duration::ZERO));
        assert!(duration("ten").is_err() && duration("5h").is_err() && duration("-1s").is_err());
    }

    #[test]
    fn flags_reach_the_config() {
        let args = Args::try_parse_from([
            "mock",
            "--max-connections",
            "7",
            "--keep-alive-timeout",
            "0",
            "--rate-limit",
            "5",
            "--rate-burst",
            "9",
            "--no-compression",
            "--request-timeout",
            "0",
        ])
        .unwrap();
        let config = args.serve_config();
        assert_eq!(config.max_connections, 7);
        assert_eq!(config.keep_alive_timeout, None);
        assert_eq!(config.request_timeout, None);
        assert_eq!(config.rate_limit, Some(RateLimit::per_second(5).burst(9)));
        assert!(!config.compression);
        let defaults = Args::try_parse_from(["mock"]).unwrap().serve_config();
        let expected = ServeConfig::default();
        assert_eq!(defaults.header_read_timeout, expected.header_read_timeout);
        assert_eq!(defaults.keep_alive_timeout, expected.keep_alive_timeout);
        assert_eq!(defaults.write_timeout, expected.write_timeout);
        assert_eq!(defaults.request_timeout, expected.request_timeout);
        assert_eq!(defaults.shutdown_timeout, expected.shutdown_timeout);
        assert_eq!(defaults.max_head_bytes, expected.max_head_bytes);
        assert!(defaults.compression && defaults.rate_limit.is_none());
    }

    #[cfg(feature = "proxy")]
    #[test]
    fn the_proxy_flags_are_documented_and_go_together() {
        let help = Args::command().render_long_help().to_string();
        for expected in [
            "--proxy <URL>",
            "--findings <PATH>",
            "[default: drift.jsonl]",
            "--har <FILE>",
            "--max-answer-bytes <BYTES>",
            "checking proxy",
            "rule.stricter",
            "rule.looser",
            "cargo xtask drift",
        ] {
            assert!(help.contains(expected), "{expected:?} not in:\n{help}");
        }
        let args = Args::try_parse_from(["mock", "--proxy", "https://svc.example"]).unwrap();
        assert_eq!(args.proxy.as_deref(), Some("https://svc.example"));
        assert_eq!(args.findings, std::path::Path::new("drift.jsonl"));
        assert_eq!(
            args.max_answer_bytes,
            crate::proxy::DEFAULT_MAX_ANSWER_BYTES
        );
        // The proxy's flags need it; the sample data's flags do not go with it.
        assert!(Args::try_parse_from(["mock", "--findings", "x.jsonl"]).is_err());
        assert!(Args::try_parse_from(["mock", "--max-answer-bytes", "9"]).is_err());
        assert!(Args::try_parse_from(["mock", "--har", "x.har"]).is_err());
        for other in [
            &["--api-key", "k"][..],
            &["--serve-removed"],
            &["--no-prefer"],
            &["--admin"],
        ] {
            let mut line = vec!["mock", "--proxy", "http://svc"];
            line.extend_from_slice(other);
            assert!(Args::try_parse_from(line).is_err(), "{other:?}");
        }
        assert!(Args::try_parse_from(["mock"]).unwrap().proxy.is_none());
    }

    #[test]
    fn the_admin_api_is_asked_for_and_its_flags_go_with_it() {
        let args = Args::try_parse_from(["mock", "--admin"]).unwrap();
        assert!(args.admin && !args.admin_remote);
        assert_eq!(args.journal_capacity, DEFAULT_JOURNAL_CAPACITY);
        let args = Args::try_parse_from([
            "mock",
            "--admin",
            "--admin-remote",
            "--journal-capacity",
            "5",
        ])
        .unwrap();
        assert!(args.admin_remote);
        assert_eq!(args.journal_capacity, 5);
        assert!(!Args::try_parse_from(["mock"]).unwrap().admin);
        assert!(Args::try_parse_from(["mock", "--admin-remote"]).is_err());
        assert!(Args::try_parse_from(["mock", "--journal-capacity", "5"]).is_err());
        let help = Args::command().render_long_help().to_string();
        for expected in [
            "/__admin/requests",
            "/__admin/scenarios",
            "/__admin/reset",
            "--admin-remote",
        ] {
            assert!(help.contains(expected), "{expected:?} not in:\n{help}");
        }
    }

    #[test]
    fn prefer_is_followed_unless_turned_off() {
        // The help states the bound the server applies.
        let help = Args::command().render_long_help().to_string();
        let bound = format!("at most {} ms", MAX_PREFER_DELAY.as_millis());
        assert!(help.contains(&bound), "{help}");
        assert!(!Args::try_parse_from(["mock"]).unwrap().no_prefer);
        assert!(
            Args::try_parse_from(["mock", "--no-prefer"])
                .unwrap()
                .no_prefer
        );
    }
}
