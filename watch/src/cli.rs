//! The command line of `mrds-watch` (run by `cargo xtask watch`, which passes each option on):
//! its options, and a run of it from parsed options to what it prints and its exit status.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Parser;

use crate::{Options, Outcome, Selection};

/// Send the live service the requests the spec says it answers (each endpoint's example and
/// the contract suite's valid requests; GET only unless --allow-writes), politely, and check
/// the answers as the checking proxy does. Writes the findings (JSON lines) and the traffic
/// (HAR). Exits 0 when the spec describes everything seen, 1 when the findings ask for spec
/// edits, 2 when the service could not be watched. The key is read from the environment and
/// never printed or written.
#[derive(Clone, Debug, Parser)]
#[command(name = "mrds-watch", bin_name = "cargo xtask watch")]
pub struct Cli {
    /// The service's root, e.g. `https://provider.example/api` (the base path is appended when
    /// missing). Never printed.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// The environment variable holding the API key.
    #[arg(long, value_name = "NAME", default_value = "MRDS_API_KEY")]
    pub api_key_env: String,
    /// At most this many requests a second.
    #[arg(long, default_value_t = crate::DEFAULT_RATE, value_parser = positive)]
    pub rate: f64,
    /// At most this many requests in all (tries again after a 429 or 503 included).
    #[arg(long, default_value_t = crate::DEFAULT_BUDGET as u64, value_parser = clap::value_parser!(u64).range(1..))]
    pub budget: u64,
    /// Seconds the run may take at most: it stops before a request that would start later.
    #[arg(long, value_name = "SECONDS", default_value_t = crate::DEFAULT_MAX_TIME.as_secs())]
    pub max_time: u64,
    /// Seconds the service may ask to wait (Retry-After) before the run stops instead.
    #[arg(long, value_name = "SECONDS", default_value_t = crate::DEFAULT_MAX_WAIT.as_secs())]
    pub max_wait: u64,
    /// Seconds allowed for one request.
    #[arg(long, value_name = "SECONDS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
    /// Endpoint ids whose POST, PUT, PATCH or DELETE requests may be sent (comma-separated or
    /// repeated); without it only GET requests are.
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    pub allow_writes: Vec<String>,
    /// Watch only these endpoint ids (comma-separated or repeated).
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    pub only: Vec<String>,
    /// Do not watch these endpoint ids (comma-separated or repeated).
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    pub skip: Vec<String>,
    /// Where the findings go, as JSON lines (replaced; written even when there are none).
    #[arg(
        long,
        value_name = "FILE",
        default_value = "target/watch/findings.jsonl"
    )]
    pub findings: PathBuf,
    /// Where the traffic goes, as HAR 1.2 (replaced), the key redacted.
    #[arg(long, value_name = "FILE", default_value = "target/watch/traffic.har")]
    pub har: PathBuf,
    /// The spec directory.
    #[arg(long, value_name = "DIR", default_value = "spec")]
    pub spec: PathBuf,
    /// List the requests the run would send, and send nothing.
    #[arg(long)]
    pub list: bool,
}

fn positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(rate) if rate.is_finite() && rate >= crate::polite::MIN_RATE => Ok(rate),
        _ => Err(format!(
            "`{text}` is not a number of requests a second of at least {}",
            crate::polite::MIN_RATE
        )),
    }
}

impl Cli {
    /// The endpoints chosen.
    pub fn selection(&self) -> Selection {
        Selection {
            allow_writes: self.allow_writes.clone(),
            only: self.only.clone(),
            skip: self.skip.clone(),
        }
    }

    /// The options of a run with `api_key`.
    pub fn options(&self, api_key: String) -> Options {
        Options {
            rate: self.rate,
            budget: usize::try_from(self.budget).unwrap_or(usize::MAX),
            max_time: Duration::from_secs(self.max_time),
            max_wait: Duration::from_secs(self.max_wait),
            timeout: Duration::from_secs(self.timeout),
            selection: self.selection(),
            har: Some(self.har.clone()),
            ..Options::new(self.base_url.clone().unwrap_or_default(), api_key)
        }
    }
}

/// Runs the command: `key` reads an environment variable. What it prints and its exit status.
pub fn execute(cli: &Cli, key: impl Fn(&str) -> Option<std::ffi::OsString>) -> Outcome {
    let failed = |stderr: String| Outcome {
        code: 2,
        stdout: String::new(),
        stderr,
        edits: 0,
    };
    let sources = match mrds_spec::load::read_dir(&cli.spec) {
        Ok(sources) => sources,
        Err(d) => return failed(format!("watch: the spec cannot be read:\n{d}\n")),
    };
    let api = match mrds_spec::load_sources(&sources) {
        Ok(api) => api,
        Err(d) => return failed(format!("watch: the spec does not load:\n{d}\n")),
    };
    if cli.list {
        return match crate::plan::plan(&api, &cli.selection()) {
            Ok(planned) => Outcome {
                code: 0,
                stdout: planned
                    .iter()
                    .map(|p| format!("{}  {} {}\n", p.id, p.method, p.target))
                    .collect(),
                stderr: String::new(),
                edits: 0,
            },
            Err(e) => failed(format!("watch: {e}\n")),
        };
    }
    let Some(base_url) = &cli.base_url else {
        return failed(
            "watch: --base-url is required (the service's root, e.g. https://provider.example/api), or --list\n"
                .to_string(),
        );
    };
    let name = &cli.api_key_env;
    let api_key = match key(name).map(|k| k.into_string()) {
        Some(Ok(k)) if !k.trim().is_empty() => k,
        Some(Ok(_)) => {
            return failed(format!(
                "watch: the environment variable {name} (--api-key-env) is empty: put the provider's key in it\n"
            ));
        }
        Some(Err(_)) => {
            return failed(format!(
                "watch: the environment variable {name} (--api-key-env) is not valid UTF-8: a key is text\n"
            ));
        }
        None => {
            return failed(format!(
                "watch: the environment variable {name} (--api-key-env) is not set: `export {name}=...` with the provider's key, or name the variable that holds it with --api-key-env (the key is never given on the command line)\n"
            ));
        }
    };
    if let Err(e) = crate::root(base_url, &api.base_path) {
        return failed(format!("watch: {e}\n"));
    }
    let options = cli.options(api_key);
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => return failed(format!("watch: cannot start the runtime: {e}\n")),
    };
    let run = match runtime.block_on(crate::run(&api, &options)) {
        Ok(run) => run,
        Err(e) => return failed(format!("watch: {}\n", crate::scrub(&e, &options.api_key))),
    };
    let mut outcome = crate::outcome(
        &api,
        &sources,
        &run,
        &options,
        &mrds_follow::Options::default(),
    );
    let lines = crate::scrub(&run.to_json_lines(), &options.api_key);
    if let Err(e) = write(&cli.findings, &lines) {
        outcome.stderr.push_str(&format!(
            "watch: cannot write the findings to {}: {e}\n",
            cli.findings.display()
        ));
        outcome.code = 2;
    } else {
        outcome.stdout.push_str(&format!(
            "\nfindings: {} ({} lines); traffic: {}\n",
            cli.findings.display(),
            run.findings.len(),
            cli.har.display()
        ));
    }
    outcome
}

/// Writes `text` to `path`, its directory created.
fn write(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)
}
