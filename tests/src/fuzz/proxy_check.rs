//! `proxy_check`: what the checking proxy (`mrds-mock --proxy`) checks of one exchange of an
//! endpoint (the first byte picks it): the service's answer against the spec's shapes
//! (`drift::check_answer` against `mrds_model::api::PROTOCOL.shapes`, as the proxy walks every
//! answer), and the request with the spec's own judgement (the sample-data crate's
//! `APP.requests`, the proxy's `RequestCheck`s).
//!
//! Input: the endpoint byte, two bytes of status (taken into 100..=599), the request's query
//! up to `0xFF`, then the answer's body.
//!
//! Properties:
//!
//! - neither check panics;
//! - the findings of the answer, one at a time and kept in the proxy's record (`Drift`), are
//!   bounded ([`assert_bounded`](super::client_decode::assert_bounded)), and the record
//!   written as JSON lines (the proxy's findings file) reads back as itself;
//! - the judgement of the request is the generated server's: accepted when `from_raw`
//!   accepts it, else refused naming the rules `from_raw`'s issues name, each once, in order.

use mrds_runtime::RawParams;
use mrds_runtime::drift::{Drift, Source, check_answer, parse_json_lines};
use mrds_runtime::judge::Judgement;

use super::client_decode::assert_bounded;
use super::{Input, endpoints};

pub fn proxy_check(data: &[u8]) {
    let mut input = Input::new(data);
    let typed = endpoints::pick(input.byte());
    let id = typed.endpoint.id;
    let status = 100 + input.u16() % 500;
    let query = String::from_utf8_lossy(input.until(0xFF)).into_owned();
    let body = input.rest();

    let noticed = check_answer(mrds_model::api::PROTOCOL.shapes, id, status, body);
    let findings = noticed.findings(id, Source::Proxy);
    assert_bounded(&findings);
    let record = Drift::new(Source::Proxy);
    for finding in findings {
        record.record(finding);
    }
    assert_bounded(&record.findings());
    let absorbed = Drift::new(Source::Proxy);
    absorbed.absorb(id, &noticed);
    assert_bounded(&absorbed.findings());
    let lines = record.to_json_lines();
    let (read, problems) = parse_json_lines(&lines);
    assert!(
        problems.is_empty(),
        "the findings file reads back: {problems:?}"
    );
    assert_eq!(
        read,
        record.findings(),
        "the findings file reads back as itself"
    );

    let checks = (mrds_mock::APP.requests)();
    let Some(check) = checks.iter().find(|c| c.endpoint().id == id) else {
        panic!("the proxy has no check of `{id}`");
    };
    let raw = RawParams::from_query_string(&query);
    let judgement = check.judge(&raw, None);
    if judgement == Judgement::NotJudged && typed.endpoint.method.takes_body() {
        // An endpoint with a body is judged with its body (which this target does not send;
        // `mock_body` does): without one, no rule is at stake.
        return;
    }
    let expected = Judgement::of((typed.from_raw)(&raw));
    assert_eq!(
        judgement, expected,
        "{id}: the proxy judges {raw:?} unlike the server"
    );
}
