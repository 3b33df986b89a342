//! Tests of the runner: selection patterns, roots and escaping, the counting of an
//! unimplemented endpoint, the `curl` line of a request with a body.

use mrds_probes::Key;
use mrds_spec::model::Method;

use super::*;
use crate::report::xml;
use crate::run::root;

#[test]
fn selection_patterns() {
    assert!(selects("stock_dividends", "stock_dividends.limit.caps"));
    assert!(!selects("stock_dividends.limit", "stock_dividends.limit_x"));
    assert!(selects("*.auth.*", "etf_flow.auth.missing_key"));
    assert!(selects("*.broken", "etf_flow.range_order.broken"));
    assert!(!selects("*.broken", "etf_flow.range_order.kept"));
    assert!(selects(
        "etf_flow.symbol.missing",
        "etf_flow.symbol.missing"
    ));
}

#[test]
fn roots_and_escaping() {
    assert_eq!(root("http://h:1/api/", "/api"), "http://h:1/api");
    assert_eq!(root("http://h:1", "/api"), "http://h:1/api");
    assert_eq!(xml("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
}

fn outcome(endpoint: &str, id: &str, verdict: Verdict) -> Outcome {
    Outcome {
        id: format!("{endpoint}.{id}"),
        endpoint: endpoint.into(),
        method: Method::Get,
        url: format!("http://h/api/v1/{endpoint}?a=1&b=it's"),
        key: Key::Valid,
        sent: None,
        status: Some(200),
        body: String::new(),
        verdict,
    }
}

#[test]
fn an_unimplemented_endpoint_counts_once() {
    let outcomes = [
        outcome("a", "example", Verdict::Passed),
        outcome("a", "limit.caps", Verdict::Failed("too many".into())),
        outcome("b", "auth.missing_key", Verdict::Passed),
        outcome("b", "example", Verdict::NotImplemented),
        outcome("c", "example", Verdict::Passed),
    ];
    let t = Totals::of(&outcomes);
    assert_eq!((t.checks, t.passed, t.failed, t.endpoints), (5, 3, 1, 3));
    assert_eq!(
        (t.endpoints_passed, t.endpoints_failed, t.not_implemented),
        (1, 1, 1)
    );
    assert!(!t.passed(false));
    let summary = summary(&outcomes);
    assert!(
        summary.contains("b              2       1       0  NOT IMPLEMENTED"),
        "{summary}"
    );
    assert!(summary.ends_with(
        "5 checks: 3 passed, 1 failed; 3 endpoints: 1 passed, 1 failed, 1 not implemented\n"
    ));
    let only_missing = Totals::of(&outcomes[2..]);
    assert!(only_missing.passed(false));
    assert!(!only_missing.passed(true));
}

#[test]
fn a_post_is_repeated_with_its_method_and_body() {
    let mut o = outcome("orders", "body.window", Verdict::Passed);
    o.method = Method::Post;
    o.sent = Some(mrds_probes::SentBody {
        text: r#"{"note":"it's"}"#.into(),
        content_type: mrds_probes::JSON,
    });
    assert_eq!(
        o.curl("X-API-Key"),
        "curl -sS -X POST -H \"X-API-Key: $MRDS_API_KEY\" 'http://h/api/v1/orders?a=1&b=it'\\''s' \
         -H 'Content-Type: application/json' --data-binary '{\"note\":\"it'\\''s\"}'"
    );
    // A body too long to paste is described, not printed.
    o.sent = Some(mrds_probes::SentBody {
        text: "x".repeat(600),
        content_type: "text/plain",
    });
    assert!(
        o.curl("X-API-Key").ends_with(
            "-H 'Content-Type: text/plain' --data-binary @body.json  # body.json: 600 bytes"
        ),
        "{}",
        o.curl("X-API-Key")
    );
}
