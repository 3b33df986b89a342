//! The table a run prints: per endpoint (by id), the requests sent, the answers by class, the
//! requests without an answer, the findings and the time its requests took; then a line of
//! totals with the rate held, and why the run stopped early, if it did. Never the base URL
//! (it may be a secret of the CI system) nor the key.

use std::fmt::Write as _;
use std::time::Duration;

use crate::{Options, Run, Stop};

/// The table and the totals of `run`.
pub fn summary(run: &Run, options: &Options) -> String {
    let width = (run.endpoints.iter())
        .map(|e| e.endpoint.len())
        .chain([8])
        .max()
        .unwrap_or(8);
    let mut out = format!(
        "{:<width$}  {:>4}  {:>4}  {:>4}  {:>4}  {:>9}  {:>8}  {:>8}\n",
        "endpoint", "sent", "2xx", "4xx", "5xx", "no answer", "findings", "time"
    );
    for e in &run.endpoints {
        let _ = write!(
            out,
            "{:<width$}  {:>4}  {:>4}  {:>4}  {:>4}  {:>9}  {:>8}  {:>8}",
            e.endpoint,
            e.sent,
            e.ok,
            e.client_errors,
            e.server_errors,
            e.failed,
            e.findings,
            seconds(e.time)
        );
        match (&e.given_up, e.sent < e.planned) {
            (Some(why), _) => {
                let _ = write!(
                    out,
                    "  {why}: {} not sent",
                    e.planned - e.sent.min(e.planned)
                );
            }
            (None, true) => {
                let _ = write!(out, "  {} not sent", e.planned - e.sent);
            }
            _ => {}
        }
        out.push('\n');
    }
    let sum = |f: fn(&crate::EndpointStats) -> usize| run.endpoints.iter().map(f).sum::<usize>();
    let time: Duration = run.endpoints.iter().map(|e| e.time).sum();
    let _ = writeln!(
        out,
        "{:<width$}  {:>4}  {:>4}  {:>4}  {:>4}  {:>9}  {:>8}  {:>8}",
        "total",
        run.sent.len(),
        sum(|e| e.ok),
        sum(|e| e.client_errors),
        sum(|e| e.server_errors),
        sum(|e| e.failed),
        run.findings.len(),
        seconds(time)
    );
    let held = run
        .rate_held()
        .map_or(String::new(), |r| format!(", {r:.1} a second held"));
    let tries = run
        .sent
        .len()
        .saturating_sub(sum(|e| e.sent.min(e.planned)));
    let again = match tries {
        0 => String::new(),
        1 => ", 1 tried again".to_string(),
        n => format!(", {n} tried again"),
    };
    let _ = writeln!(
        out,
        "{} requests sent ({} planned{again}) to {} endpoints in {}{held} (at most {} a second, budget {} requests)",
        run.sent.len(),
        run.planned,
        run.endpoints.len(),
        seconds(run.elapsed),
        options.rate,
        options.budget,
    );
    let stopped = match &run.stop {
        None => None,
        Some(Stop::Budget) => Some("stopped at the budget of requests (--budget)".to_string()),
        Some(Stop::TimeBudget) => Some("stopped at the budget of time (--max-time)".to_string()),
        Some(Stop::Unreachable) => Some("stopped: the service cannot be reached".to_string()),
        Some(Stop::KeyRefused(endpoint, status)) => Some(format!(
            "stopped: the service refused the key ({status} on {endpoint})"
        )),
        Some(Stop::WaitTooLong(wait)) => Some(format!(
            "stopped: the service asked to wait {} s (--max-wait {} s)",
            wait.as_secs(),
            options.max_wait.as_secs()
        )),
    };
    if let Some(stopped) = stopped {
        let _ = writeln!(out, "{stopped}");
    }
    out
}

/// `4 ms`, `0.25 s`, `12.3 s`.
fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 0.1 {
        format!("{} ms", d.as_millis())
    } else if s < 10.0 {
        format!("{s:.2} s")
    } else {
        format!("{s:.1} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EndpointStats;

    #[test]
    fn the_table_counts_per_endpoint_and_says_why_it_stopped() {
        let run = Run {
            endpoints: vec![
                EndpointStats {
                    endpoint: "alpha".into(),
                    planned: 3,
                    sent: 3,
                    ok: 2,
                    client_errors: 1,
                    findings: 2,
                    time: Duration::from_millis(120),
                    ..EndpointStats::default()
                },
                EndpointStats {
                    endpoint: "beta_longer_name".into(),
                    planned: 4,
                    sent: 1,
                    failed: 1,
                    given_up: Some("no answer".into()),
                    ..EndpointStats::default()
                },
            ],
            findings: Vec::new(),
            planned: 7,
            sent: [0, 500, 1000, 1500].map(Duration::from_millis).to_vec(),
            elapsed: Duration::from_secs(12),
            stop: Some(Stop::Budget),
            har_error: None,
        };
        let options = Options::new("https://secret.example", "key-0123456789");
        let text = summary(&run, &options);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "endpoint          sent   2xx   4xx   5xx  no answer  findings      time"
        );
        assert_eq!(
            lines[1],
            "alpha                3     2     1     0          0         2    0.12 s"
        );
        assert!(lines[2].ends_with("0 ms  no answer: 3 not sent"), "{text}");
        assert!(
            lines[4].starts_with("4 requests sent (7 planned) to 2 endpoints in 12.0 s, 2.0 a second held (at most 2 a second, budget 300"),
            "{text}"
        );
        assert_eq!(lines[5], "stopped at the budget of requests (--budget)");
        assert!(!text.contains("secret.example") && !text.contains("key-0123"));
    }
}
