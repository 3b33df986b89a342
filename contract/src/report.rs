//! The reports of a run: readable text, JSON, and JUnit XML.

use std::fmt::Write as _;

use mrds_spec::model::Api;

use crate::outcome::{Outcome, Verdict};
use crate::summary::{Totals, endpoints, summary};

/// The readable report: a line per check (for a failure, the request as a `curl` line and
/// what came back), then [`summary`].
pub fn text_report(api: &Api, outcomes: &[Outcome]) -> String {
    let mut out = String::new();
    for o in outcomes {
        match &o.verdict {
            Verdict::Passed => {
                let _ = writeln!(out, "PASS {} ({})", o.id, o.method);
            }
            Verdict::NotImplemented => {
                let _ = writeln!(
                    out,
                    "NOT IMPLEMENTED {}: answered 501 NOT_IMPLEMENTED to {}; its other checks were not sent",
                    o.endpoint, o.id
                );
                let _ = writeln!(out, "     {}", o.curl(&api.auth.header));
            }
            Verdict::Failed(why) => {
                let _ = writeln!(out, "FAIL {}: {why}", o.id);
                let _ = writeln!(out, "     {}", o.curl(&api.auth.header));
                match o.status {
                    Some(status) => {
                        let _ = writeln!(out, "     got {status}: {}", o.body.replace('\n', " "));
                    }
                    None => {
                        let _ = writeln!(out, "     got no answer");
                    }
                }
            }
        }
    }
    out.push('\n');
    out.push_str(&summary(outcomes));
    out
}

/// The report as JSON: the totals, every endpoint and every check (the key never appears).
pub fn json_report(api: &Api, outcomes: &[Outcome]) -> String {
    let t = Totals::of(outcomes);
    let checks: Vec<serde_json::Value> = outcomes
        .iter()
        .map(|o| {
            let result = match o.verdict {
                Verdict::Passed => "pass",
                Verdict::Failed(_) => "fail",
                Verdict::NotImplemented => "not_implemented",
            };
            serde_json::json!({
                "id": o.id,
                "endpoint": o.endpoint,
                "result": result,
                "reason": o.failure(),
                "request": { "method": o.method, "url": o.url, "curl": o.curl(&api.auth.header) },
                "response": { "status": o.status, "body_prefix": o.body },
            })
        })
        .collect();
    let endpoints: Vec<serde_json::Value> = endpoints(outcomes)
        .iter()
        .map(|e| {
            serde_json::json!({
                "endpoint": e.endpoint,
                "checks": e.checks,
                "passed": e.passed,
                "failed": e.failed,
                "result": e.result().replace(' ', "_"),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "summary": {
            "checks": t.checks,
            "passed": t.passed,
            "failed": t.failed,
            "endpoints": t.endpoints,
            "endpoints_passed": t.endpoints_passed,
            "endpoints_failed": t.endpoints_failed,
            "not_implemented": t.not_implemented,
        },
        "endpoints": endpoints,
        "checks": checks,
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

/// The report as JUnit XML: one test case per check, grouped by endpoint. A check answered
/// 501 `NOT_IMPLEMENTED` is a skipped case, or with `require_all` a failed one.
pub fn junit_report(api: &Api, outcomes: &[Outcome], require_all: bool) -> String {
    let t = Totals::of(outcomes);
    let (failures, skipped) = if require_all {
        (t.failed + t.not_implemented, 0)
    } else {
        (t.failed, t.not_implemented)
    };
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites><testsuite name=\"contract\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\">",
        outcomes.len()
    );
    for o in outcomes {
        let _ = write!(
            out,
            "<testcase classname=\"{}\" name=\"{}\"",
            xml(&o.endpoint),
            xml(&o.id)
        );
        let detail = || {
            format!(
                "{}\ngot {}: {}",
                o.curl(&api.auth.header),
                o.status.map_or("no answer".to_string(), |s| s.to_string()),
                o.body
            )
        };
        match &o.verdict {
            Verdict::Passed => out.push_str("/>\n"),
            Verdict::NotImplemented => {
                let message = format!(
                    "the server does not implement `{}` (501 NOT_IMPLEMENTED)",
                    o.endpoint
                );
                let tag = if require_all { "failure" } else { "skipped" };
                let _ = writeln!(
                    out,
                    "><{tag} message=\"{}\">{}</{tag}></testcase>",
                    xml(&message),
                    xml(&detail())
                );
            }
            Verdict::Failed(why) => {
                let _ = writeln!(
                    out,
                    "><failure message=\"{}\">{}</failure></testcase>",
                    xml(why),
                    xml(&detail())
                );
            }
        }
    }
    out.push_str("</testsuite></testsuites>\n");
    out
}

pub(crate) fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
