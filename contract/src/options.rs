//! How to run the suite ([`Options`]), and the checks the options select.

use std::time::Duration;

use mrds_probes::Probe;
use mrds_spec::model::Api;

/// How to run the suite.
#[derive(Clone, Debug)]
pub struct Options {
    /// The service root (`https://host/api`); the base path is appended when missing.
    pub base_url: String,
    /// The API key; never printed.
    pub api_key: Option<String>,
    /// Run only the checks matching one of these (see [`selects`]); all when empty.
    pub only: Vec<String>,
    /// Skip the checks matching one of these.
    pub skip: Vec<String>,
    /// At most this many requests per second (none: as fast as answers come).
    pub rate: Option<f64>,
    /// Time allowed for one request.
    pub timeout: Duration,
    /// An endpoint the server does not implement fails the run (otherwise it is reported and
    /// the run passes).
    pub require_all: bool,
    /// What the server answers for an endpoint the spec marks removed: 410 (the service's
    /// answer, the only check of such an endpoint), or the endpoint served (a sample server
    /// run with `--serve-removed`), checked as any other.
    pub removed: mrds_probes::Removed,
}

impl Default for Options {
    /// Every check, as fast as answers come, 30 s per request, a key from nowhere, removed
    /// endpoints answering 410; the base URL is for the caller to set.
    fn default() -> Self {
        Options {
            base_url: String::new(),
            api_key: None,
            only: Vec::new(),
            skip: Vec::new(),
            rate: None,
            timeout: Duration::from_secs(30),
            require_all: false,
            removed: mrds_probes::Removed::Gone,
        }
    }
}

/// True when `pattern` selects check `id`: equal, a prefix ending at a `.`
/// (`stock_dividends` selects `stock_dividends.limit.caps`), or a `*` pattern.
pub fn selects(pattern: &str, id: &str) -> bool {
    if let Some((head, tail)) = pattern.split_once('*') {
        return id.starts_with(head)
            && id.len() >= head.len() + tail.len()
            && selects_rest(&id[head.len()..], tail);
    }
    id == pattern
        || id
            .strip_prefix(pattern)
            .is_some_and(|rest| rest.starts_with('.'))
}

fn selects_rest(rest: &str, pattern: &str) -> bool {
    match pattern.split_once('*') {
        None => rest.ends_with(pattern),
        Some((head, tail)) => (0..=rest.len())
            .filter(|i| rest.is_char_boundary(*i))
            .any(|i| rest[i..].starts_with(head) && selects_rest(&rest[i + head.len()..], tail)),
    }
}

/// The checks `options` selects.
pub fn selected(api: &Api, options: &Options) -> Vec<Probe> {
    mrds_probes::derive(api, options.removed)
        .into_iter()
        .filter(|c| options.only.is_empty() || options.only.iter().any(|p| selects(p, &c.id)))
        .filter(|c| !options.skip.iter().any(|p| selects(p, &c.id)))
        .collect()
}
