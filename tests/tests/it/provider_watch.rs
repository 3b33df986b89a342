//! `cargo xtask watch` (the `mrds-watch` package) against fake providers on loopback ports,
//! without the network: the sample server drifted the ways `provider_loop` drifts it, every
//! drift a valid request can show found (exit 1), the provider rate-limiting once (429 with
//! `Retry-After: 0`, then 503 without one: tried again after the backoff), the rate held at the
//! provider's clock, the key in every request and nowhere in what the watch prints or writes,
//! the edits applied in memory loading and generating, and a second watch over the edited spec
//! asking for nothing (exit 0). The plain sample server: exit 0, nothing found, never past the
//! budget. A service that cannot be reached, or refuses the key: exit 2.
//!
//! The explicit run `follow::following_the_provider_keeps_the_workspace_green` applies the
//! edits with `cargo xtask watch --apply`'s library half to a scratch copy of the workspace
//! ([`apply_the_edits_of_a_watch_and_of_the_proxy`]), then the checking proxy's with `cargo
//! xtask drift --apply`'s, and runs `cargo test --workspace` there (CI: `.ci/exhaustive`).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mrds_client::model::api::BASE_PATH;
use mrds_runtime::drift::Observed;
use mrds_server::axum::body::Body;
use mrds_server::axum::extract::Request;
use mrds_server::axum::middleware::Next;
use mrds_server::axum::response::Response;
use mrds_spec::model::Api;
use mrds_watch::{Options, Outcome, Run, Stop};

use super::provider_loop::{Plan, drift, plan};
use super::provider_proxy::{KEY, drifting_provider};

/// What a fake provider saw: when each request came, its path, and whether it held the key.
#[derive(Debug, Default)]
struct Seen {
    at: Vec<Instant>,
    paths: Vec<String>,
    keyed: Vec<bool>,
}

impl Seen {
    /// Asserts that the requests came at most `rate` a second, at the provider's clock: the
    /// rate from the first to the last, and over every 10 requests in a row, within what the
    /// scheduling of a loaded machine moves an arrival by (`slack`: a request noted late, the
    /// next on time). The watch spaces the starts exactly ([`spaced`]); arrivals jitter.
    fn held(&self, rate: f64, slack: Duration) {
        let interval = Duration::from_secs_f64(1.0 / rate);
        let n = self.at.len();
        for k in [1, 10].into_iter().filter(|k| *k < n) {
            for (i, w) in self.at.windows(k + 1).enumerate() {
                let least = (interval * k as u32).saturating_sub(slack);
                assert!(
                    w[k] - w[0] >= least,
                    "requests {i} to {}: {:?} (at most {rate} a second)",
                    i + k,
                    w[k] - w[0]
                );
            }
        }
        let span = (self.at[n - 1] - self.at[0]) + slack;
        let held = (n - 1) as f64 / span.as_secs_f64();
        assert!(held <= rate, "{held} requests a second");
    }
}

/// Asserts that the watch started its requests an interval apart at least.
fn spaced(run: &Run, rate: f64) {
    let interval = Duration::from_secs_f64(1.0 / rate);
    for w in run.sent.windows(2) {
        assert!(w[1] - w[0] >= interval, "{:?} after {:?}", w[1], w[0]);
    }
}

/// A fake provider: the sample server, drifted as `plan` says (not at all without one), that
/// notes every request, and answers the first request of the path `limited` (below the base
/// path) 429 with `Retry-After: 0`, and the next 503 without `Retry-After`.
async fn provider(
    plan: Option<Arc<Plan>>,
    limited: Option<String>,
) -> (SocketAddr, Arc<Mutex<Seen>>) {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let noted = seen.clone();
    // The requests of `limited` so far, over the provider's life.
    let hits = Arc::new(AtomicUsize::new(0));
    let at = drifting_provider(move |request: Request, next: Next| {
        let (plan, seen, limited) = (plan.clone(), noted.clone(), limited.clone());
        let hits = hits.clone();
        async move {
            let path = request.uri().path().to_string();
            let keyed = request
                .headers()
                .get(mrds_mock::AUTH_HEADER)
                .map(|v| v.as_bytes())
                == Some(KEY.as_bytes());
            {
                let mut seen = seen.lock().unwrap();
                seen.at.push(Instant::now());
                seen.keyed.push(keyed);
                seen.paths.push(path.clone());
            }
            let below = path.strip_prefix(BASE_PATH).unwrap_or(&path);
            let times = match limited.as_deref() == Some(below) {
                true => hits.fetch_add(1, Ordering::SeqCst) + 1,
                false => usize::MAX,
            };
            if times <= 2 {
                let mut answer = Response::builder().status(if times == 1 { 429 } else { 503 });
                if times == 1 {
                    answer = answer.header("retry-after", "0");
                }
                return answer.body(Body::empty()).unwrap();
            }
            match plan {
                Some(plan) => drift(&plan, request, next).await,
                None => next.run(request).await,
            }
        }
    })
    .await;
    (at, seen)
}

/// The sample server's plain root, for choosing the drifts.
async fn sample() -> String {
    let keys = mrds_server::StaticKeys::new([KEY]);
    format!(
        "http://{}",
        super::contract::serve(mrds_mock::router(keys)).await
    )
}

/// The spec's files as the loader names them.
fn sources() -> Vec<(String, String)> {
    mrds_spec::load::read_dir(&mrds_tests::workspace_root().join("spec")).unwrap()
}

fn follow() -> mrds_follow::Options {
    mrds_follow::Options {
        today: "2026-12-01".into(),
    }
}

/// A run against `at` with `options` changed by `edit`, and its outcome over `api`.
async fn watch(
    api: &Api,
    sources: &[(String, String)],
    at: SocketAddr,
    edit: impl FnOnce(&mut Options),
) -> (Run, Outcome) {
    let mut options = Options::new(format!("http://{at}"), KEY);
    options.rate = 500.0;
    edit(&mut options);
    let run = mrds_watch::run(api, &options).await.unwrap();
    let outcome = mrds_watch::outcome(api, sources, &run, &options, &follow());
    (run, outcome)
}

/// The drifts a valid request shows: all of `provider_loop`'s but the capped limit (shown by
/// a limit past the maximum) and the error code (shown by a request without a key).
fn visible(plan: &Plan) -> Vec<(String, Observed)> {
    (plan.expected.iter())
        .filter(|(_, o)| match o {
            Observed::RuleStricter { .. } => false,
            Observed::UnknownValue { value_set, .. } => value_set != "ErrorCode",
            _ => true,
        })
        .cloned()
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow: a whole watch of the spec, its edits applied and read again; .ci/exhaustive runs it"]
async fn a_drifting_provider_is_watched_politely_and_the_applied_edits_ask_for_nothing() {
    let api = mrds_tests::real_spec();
    let sources = sources();
    let plan = Arc::new(plan(&sample().await).await);
    // The first endpoint of the watch's plan is rate-limited once, then unavailable once.
    let planned = mrds_watch::plan::plan(api, &Default::default()).unwrap();
    let first = planned[0].path().to_string();
    let (at, seen) = provider(Some(plan.clone()), Some(first.clone())).await;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("provider_watch");
    std::fs::create_dir_all(&dir).unwrap();
    let har = dir.join(format!("watch-{}.har", std::process::id()));
    let (run, outcome) = watch(api, &sources, at, |o| {
        o.backoff = Duration::from_millis(40);
        o.har = Some(har.clone());
    })
    .await;
    assert_eq!(outcome.code, 1, "{}\n{}", outcome.stdout, outcome.stderr);
    assert_eq!(run.stop, None, "{}", outcome.stdout);

    // Every drift a valid request shows is found, and nothing else (but the envelope's field,
    // on every endpoint).
    let found: Vec<(String, Observed)> = (run.findings.iter())
        .map(|f| (f.endpoint.clone(), f.observed.clone()))
        .collect();
    for expected in visible(&plan) {
        assert!(found.contains(&expected), "{expected:?} not in {found:#?}");
    }
    for (endpoint, observed) in &found {
        let envelope = matches!(observed, Observed::UndeclaredEnvelopeField { field } if *field == plan.envelope);
        let expected = visible(&plan).contains(&(endpoint.clone(), observed.clone()));
        assert!(envelope || expected, "not caused: {endpoint} {observed:?}");
    }

    // Polite: every request with the key, one at a time at the rate; the 429 and the 503 tried
    // again, the second after the backoff; every request in the HAR file.
    let seen = std::mem::take(&mut *seen.lock().unwrap());
    assert_eq!(seen.at.len(), planned.len() + 2);
    assert_eq!(seen.at.len(), run.sent.len());
    assert!(seen.keyed.iter().all(|k| *k), "a request without the key");
    spaced(&run, 500.0);
    seen.held(500.0, Duration::from_millis(2));
    let tries: Vec<usize> = (seen.paths.iter().enumerate())
        .filter(|(_, p)| p.ends_with(&first))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(&tries[..3], [0, 1, 2]);
    assert!(
        seen.at[2] - seen.at[1] >= Duration::from_millis(80),
        "the backoff"
    );
    let har_text = std::fs::read_to_string(&har).unwrap();
    let entries = serde_json::from_str::<serde_json::Value>(&har_text).unwrap()["log"]["entries"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(entries, seen.at.len());

    // The key is nowhere: the output, the findings, the HAR file.
    for (what, text) in [
        ("stdout", &outcome.stdout),
        ("stderr", &outcome.stderr),
        ("findings", &run.to_json_lines()),
        ("HAR", &har_text),
    ] {
        assert!(!text.contains(KEY), "the key is in the {what}");
    }
    assert!(har_text.contains("<redacted>"));

    // The table: a line per endpoint, by id, and the totals.
    let lines: Vec<&str> = outcome.stdout.lines().collect();
    assert!(lines[0].starts_with("endpoint"), "{}", outcome.stdout);
    let ids: Vec<&str> = (lines[1..=run.endpoints.len()].iter())
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(ids, sorted);

    // The edits, applied in memory: the spec loads and generates; spec-diff as predicted.
    let report = mrds_follow::report(api, &sources, &run.findings, &follow());
    assert_eq!(report.problems, None, "{}", report.text);
    assert_eq!(report.by_hand, 0, "{}", report.text);
    assert_eq!(report.edits, outcome.edits);
    let edited = report.applied_to(&sources);
    let again = mrds_spec::load_sources(&edited).unwrap_or_else(|d| panic!("{d}"));
    mrds_emit::all(&again).expect("the edited spec generates");
    super::provider_drift::spec_diff_as_predicted(api, &again, &report.predicted);

    // A second watch, of the edited spec: nothing asks for an edit.
    let (_, second) = watch(&again, &edited, at, |_| {}).await;
    assert_eq!(second.code, 0, "{}\n{}", second.stdout, second.stderr);
    assert_eq!(second.edits, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sample_server_is_described_by_the_spec_and_the_budget_and_rate_hold() {
    let api = mrds_tests::real_spec();
    let sources = sources();
    let (at, seen) = provider(None, None).await;
    let (run, outcome) = watch(api, &sources, at, |_| {}).await;
    assert_eq!(outcome.code, 0, "{}\n{}", outcome.stdout, outcome.stderr);
    assert!(run.findings.is_empty(), "{:#?}", run.findings);
    assert_eq!(run.stop, None);
    assert_eq!(seen.lock().unwrap().at.len(), run.planned);
    assert!(run.planned <= mrds_watch::DEFAULT_BUDGET);
    assert!(
        outcome.stdout.contains("0 findings: 0 spec edits"),
        "{}",
        outcome.stdout
    );

    // A short run at a low rate: the budget, and the rate at the provider's clock.
    let (at, seen) = provider(None, None).await;
    let (run, outcome) = watch(api, &sources, at, |o| {
        o.rate = 40.0;
        o.budget = 8;
    })
    .await;
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    assert_eq!(run.stop, Some(Stop::Budget));
    let seen = seen.lock().unwrap();
    assert_eq!(seen.at.len(), 8);
    spaced(&run, 40.0);
    seen.held(40.0, Duration::from_millis(10));
    assert!(
        outcome.stdout.contains("stopped at the budget of requests"),
        "{}",
        outcome.stdout
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_service_out_of_reach_or_refusing_the_key_exits_2() {
    let api = mrds_tests::real_spec();
    let sources = sources();
    // Nothing listens on the port once the listener is gone.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap();
    drop(closed);
    let (run, outcome) = watch(api, &sources, port, |_| {}).await;
    assert_eq!(outcome.code, 2);
    assert_eq!(run.stop, Some(Stop::Unreachable));
    assert_eq!(run.sent.len(), 3, "one request of three endpoints");
    assert!(
        outcome.stderr.contains("cannot be reached"),
        "{}",
        outcome.stderr
    );

    let (at, seen) = provider(None, None).await;
    let mut options = Options::new(format!("http://{at}"), "a-wrong-key-0000");
    options.rate = 500.0;
    let run = mrds_watch::run(api, &options).await.unwrap();
    let outcome = mrds_watch::outcome(api, &sources, &run, &options, &follow());
    assert_eq!(outcome.code, 2);
    assert!(matches!(run.stop, Some(Stop::KeyRefused(_, 401))));
    assert_eq!(
        seen.lock().unwrap().at.len(),
        1,
        "stopped at the first refusal"
    );
    assert!(
        outcome.stderr.contains("refused the key"),
        "{}",
        outcome.stderr
    );
    assert!(!format!("{outcome:?}{options:?}").contains("a-wrong-key-0000"));
}

#[test]
fn the_command_line_says_what_is_wrong_and_exits_2() {
    use clap::Parser;
    let spec = mrds_tests::workspace_root().join("spec");
    let cli = |args: &[&str]| {
        let spec = spec.display().to_string();
        let words = ["mrds-watch", "--spec", &spec]
            .into_iter()
            .chain(args.iter().copied());
        mrds_watch::cli::Cli::try_parse_from(words).unwrap()
    };
    let unset = mrds_watch::cli::execute(
        &cli(&[
            "--base-url",
            "http://127.0.0.1:9",
            "--api-key-env",
            "PROVIDER_KEY",
        ]),
        |_| None,
    );
    assert_eq!(unset.code, 2);
    assert!(
        unset
            .stderr
            .contains("PROVIDER_KEY (--api-key-env) is not set: `export PROVIDER_KEY=...`"),
        "{}",
        unset.stderr
    );
    let bad = mrds_watch::cli::execute(&cli(&["--base-url", "provider.example"]), |_| {
        Some("k-0123456789".into())
    });
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.starts_with(
            "watch: --base-url `provider.example` is not an absolute http or https URL"
        ),
        "{}",
        bad.stderr
    );
    let unknown =
        mrds_watch::cli::execute(&cli(&["--list", "--allow-writes", "no_such"]), |_| None);
    assert_eq!(unknown.code, 2);
    assert!(
        unknown
            .stderr
            .contains("--allow-writes: the spec has no endpoint `no_such`")
    );
    assert!(mrds_watch::cli::Cli::try_parse_from(["mrds-watch", "--rate", "0"]).is_err());
}

#[test]
fn xtask_passes_every_option_on_with_the_watchs_defaults() {
    use clap::Parser;
    let root = mrds_tests::workspace_root();
    let given = xtask::watch::Args::from_args(&["--base-url", "http://h/api", "--apply"]).unwrap();
    let words = given.child_args(&root);
    let child =
        mrds_watch::cli::Cli::try_parse_from(std::iter::once("mrds-watch".into()).chain(words))
            .unwrap();
    let own =
        mrds_watch::cli::Cli::try_parse_from(["mrds-watch", "--base-url", "http://h/api"]).unwrap();
    let key = |c: &mrds_watch::cli::Cli| {
        format!(
            "{:?}",
            (
                &c.base_url,
                &c.api_key_env,
                c.rate,
                c.budget,
                c.max_time,
                c.max_wait,
                c.timeout
            )
        )
    };
    assert_eq!(key(&child), key(&own));
    assert_eq!(child.spec, root.join("spec"));
    assert_eq!(child.findings, root.join("target/watch/findings.jsonl"));
    let chosen = xtask::watch::Args::from_args(&["--skip", "a,b", "--allow-writes", "c"]).unwrap();
    let words = chosen.child_args(&root);
    let child =
        mrds_watch::cli::Cli::try_parse_from(std::iter::once("mrds-watch".into()).chain(words))
            .unwrap();
    assert_eq!(
        (child.skip, child.allow_writes),
        (vec!["a".into(), "b".into()], vec!["c".into()])
    );
}

/// The two ways of following a drifting provider, applied to the scratch copy of the workspace
/// `ws` (built and tested by `follow::following_the_provider_keeps_the_workspace_green`): the
/// edits of a watch, as `cargo xtask watch --apply` applies them (`xtask::watch::apply`:
/// written, generated, spec-diff's verdict), then on top the edits of the contract suite's
/// traffic through the checking proxy (`provider_loop`), as `cargo xtask drift --apply`
/// applies them (what a watch cannot see, the capped limit, and nothing it applied already).
/// Then a second `cargo xtask drift` over the proxy's findings prints no edit, and a second
/// watch of the copy's spec exits 0. The findings are written beside `ws`.
pub(crate) fn apply_the_edits_of_a_watch_and_of_the_proxy(ws: &std::path::Path) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let api = mrds_tests::real_spec();
        let plan = Arc::new(plan(&sample().await).await);
        let (at, _) = provider(Some(plan), None).await;
        let (run, outcome) = watch(api, &sources(), at, |_| {}).await;
        assert_eq!(outcome.code, 1, "{}", outcome.stderr);
        let (_, proxied, _) =
            super::provider_loop::run_through_proxy("provider_loop_scratch").await;
        let beside = ws.parent().expect("the copy's folder");
        let file = beside.join("watch.jsonl");
        std::fs::write(&file, run.to_json_lines()).unwrap();
        // Dated today, as `cargo xtask watch --apply` dates its history row (the releases that
        // follow in the copy are dated later).
        let applied = xtask::watch::apply(ws, &file, &mrds_follow::Options::default());
        assert_eq!(applied.code, 0, "{}\n{}", applied.stdout, applied.stderr);
        assert!(
            applied.stdout.contains("spec-diff: passed"),
            "{}",
            applied.stdout
        );
        let drift_file = beside.join("drift.jsonl");
        let lines: String = proxied.iter().map(|f| f.to_json_line() + "\n").collect();
        std::fs::write(&drift_file, lines).unwrap();
        let args = |apply| xtask::drift::Args {
            files: vec![drift_file.clone()],
            apply,
        };
        let drifted = xtask::drift::run(ws, &args(true));
        assert_eq!(drifted.code, 0, "{}\n{}", drifted.stdout, drifted.stderr);
        let again = xtask::drift::run(ws, &args(false));
        assert_eq!(again.code, 0, "{}", again.stdout);
        assert!(again.stdout.contains(": 0 spec edits"), "{}", again.stdout);
        let sources = mrds_spec::load::read_dir(&ws.join("spec")).unwrap();
        let edited = mrds_spec::load_sources(&sources).unwrap_or_else(|d| panic!("{d}"));
        let (_, second) = watch(&edited, &sources, at, |_| {}).await;
        assert_eq!(second.code, 0, "{}", second.stdout);
    });
}

/// The scheduled workflow (`.github/workflows/watch.yml`): read as YAML, it runs weekly and
/// on demand, runs `cargo xtask watch` with the secrets' URL and key, applies, tests, and
/// proposes the edits as a pull request from a branch of its own; it never pushes to main.
#[test]
fn the_watch_workflow_runs_weekly_and_proposes_a_pull_request() {
    let path = mrds_tests::workspace_root().join(".github/workflows/watch.yml");
    let text = std::fs::read_to_string(&path).unwrap();
    let doc: serde_json::Value = mrds_spec::yaml::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    let on = &doc["on"];
    let cron = on["schedule"][0]["cron"].as_str().expect("a schedule");
    let fields: Vec<&str> = cron.split_whitespace().collect();
    assert_eq!(fields.len(), 5, "{cron}");
    assert!(fields[4] != "*" && fields[2] == "*", "weekly: {cron}");
    assert!(on.get("workflow_dispatch").is_some(), "run on demand");
    assert!(on.get("push").is_none() && on.get("pull_request").is_none());
    let steps = doc["jobs"]["watch"]["steps"].as_array().expect("the steps");
    let runs: String = (steps.iter())
        .filter_map(|s| s["run"].as_str())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        runs.contains(
            "cargo xtask watch --base-url \"$MRDS_BASE_URL\" --api-key-env MRDS_API_KEY --apply"
        ),
        "{runs}"
    );
    assert!(runs.contains("cargo test --workspace"));
    assert!(
        !runs.contains("git push") && !runs.contains("git commit"),
        "{runs}"
    );
    let watch = (steps.iter())
        .find(|s| {
            s["run"]
                .as_str()
                .is_some_and(|r| r.contains("cargo xtask watch"))
        })
        .unwrap();
    assert_eq!(watch["env"]["MRDS_API_KEY"], "${{ secrets.MRDS_API_KEY }}");
    assert_eq!(
        watch["env"]["MRDS_BASE_URL"],
        "${{ secrets.MRDS_BASE_URL }}"
    );
    let uses = |prefix: &str| {
        (steps.iter())
            .find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with(prefix)))
            .unwrap_or_else(|| panic!("no step uses {prefix}"))
    };
    let pr = &uses("peter-evans/create-pull-request@")["with"];
    assert_eq!(pr["branch"], "watch/provider-drift");
    assert_eq!(pr["base"], "main");
    let har = uses("actions/upload-artifact@")["with"]["path"]
        .as_str()
        .unwrap();
    assert!(har.contains("watch.har"), "{har}");
    assert_eq!(doc["permissions"]["contents"], "write");
}
