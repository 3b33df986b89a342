//! `client_decode`: an answer's status and body, for one endpoint (the first byte picks it),
//! decoded as the generated client decodes it.
//!
//! Input: the endpoint byte, two bytes of status (taken into 100..=599), the body.
//!
//! Properties (those of `mrds_runtime`'s own test of drift, `decoding while noticing returns
//! what plain decoding returns`, on any bytes):
//!
//! - decoding the envelope of the endpoint's records while noticing drift
//!   (`drift::decode_noticing`) returns what plain decoding (`serde_json`) returns: the same
//!   value, or the same error (but for the exception it documents: an undeclared field's
//!   value read as an example, failing where serde_json's skipping would not);
//! - the client's whole decoding of an answer (`client::decode_body`: records, the error an
//!   error answer means, an undecodable answer described) is the same with and without
//!   noticing;
//! - what is noticed is bounded ([`assert_bounded`]).

use std::fmt::Debug;

use mrds_model::Envelope;
use mrds_model::records::ErrorObject;
use mrds_runtime::client::{Error, Response, decode_body};
use mrds_runtime::drift::{
    Drift, EXAMPLE_LIMIT, Finding, MAX_EXAMPLES, MAX_FINDINGS, NAME_LIMIT, Observed, Source,
    decode_noticing,
};
use mrds_runtime::{Request, drift};

use super::{Input, endpoints};

pub fn client_decode(data: &[u8]) {
    let mut input = Input::new(data);
    let typed = endpoints::pick(input.byte());
    let status = 100 + input.u16() % 500;
    (typed.decode)(status, input.rest());
}

/// The checks of one answer of `P`'s endpoint.
pub(super) fn check<P: Request + Debug>(status: u16, body: &[u8]) {
    let id = P::ENDPOINT.id;
    let shapes = mrds_model::api::PROTOCOL.shapes;

    let plain = serde_json::from_slice::<Envelope<P::Record>>(body);
    let mut de = serde_json::Deserializer::from_slice(body);
    let (noticing, noticed) = decode_noticing::<Envelope<P::Record>, _>(shapes, id, &mut de);
    let noticing = noticing.and_then(|envelope| de.end().map(|()| envelope));
    let findings = noticed.findings(id, Source::Client);
    // The one exception `decode_noticing` documents: the example of an undeclared field, read
    // where plain decoding skips it, may fail where skipping does not.
    let reading_an_example = noticing.is_err()
        && findings.iter().any(|f| {
            matches!(
                f.observed,
                Observed::UndeclaredField { .. } | Observed::UndeclaredEnvelopeField { .. }
            )
        });
    if !reading_an_example {
        assert_eq!(
            envelope_outcome(&plain),
            envelope_outcome(&noticing),
            "{id}: decoding while noticing (right) differs from plain decoding (left)"
        );
    }
    assert_bounded(&findings);

    let drift = Drift::new(Source::Client);
    let plain = decode_body::<P::Record, ErrorObject>(status, body, None);
    let noticing = decode_body::<P::Record, ErrorObject>(status, body, Some((shapes, id, &drift)));
    assert_eq!(
        outcome(&plain),
        outcome(&noticing),
        "{id}: the client's decoding of a {status} answer differs when it notices drift"
    );
    assert_bounded(&drift.findings());
}

/// A decoded envelope as comparable text: its JSON, or the error.
fn envelope_outcome<T: serde::Serialize>(
    result: &Result<Envelope<T>, serde_json::Error>,
) -> String {
    match result {
        Ok(envelope) => format!("Ok({})", json(envelope)),
        Err(e) => format!("Err({e})"),
    }
}

/// The client's decoding as comparable text.
fn outcome<T: serde::Serialize>(result: &Result<Response<T>, Error<ErrorObject>>) -> String {
    match result {
        Ok(response) => format!(
            "Ok({}, {:?}, {:?}, {:?})",
            json(&response.data),
            response.request_id,
            response.metadata,
            response.pagination
        ),
        Err(e) => format!("Err({e:?})"),
    }
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("(not serializable: {e})"))
}

/// The most bytes one finding takes as a JSON line: its examples (at most [`MAX_EXAMPLES`] of
/// at most [`EXAMPLE_LIMIT`] characters, each escaped to at most 6 bytes) and its names, with
/// room to spare. A service's answer decides the examples and the names of what it sends, so
/// without such a bound a client (or a proxy) could be made to keep an answer's worth of
/// memory per finding.
pub const MAX_FINDING_BYTES: usize = 8 * 1024;

/// What was noticed is bounded: at most [`MAX_FINDINGS`] findings, each with at most
/// [`MAX_EXAMPLES`] examples of at most [`EXAMPLE_LIMIT`] characters and a field name of at
/// most [`NAME_LIMIT`] (and the ellipsis of a cut), each at most [`MAX_FINDING_BYTES`] as a
/// line of JSON, read back as itself.
pub fn assert_bounded(findings: &[Finding]) {
    assert!(
        findings.len() <= MAX_FINDINGS,
        "{} findings",
        findings.len()
    );
    for finding in findings {
        assert!(
            finding.examples.len() <= MAX_EXAMPLES,
            "{} examples",
            finding.examples.len()
        );
        for example in &finding.examples {
            assert!(
                example.chars().count() <= EXAMPLE_LIMIT + 1,
                "an example of {} characters",
                example.chars().count()
            );
        }
        if let Some(field) = finding.observed.field() {
            assert!(
                field.chars().count() <= NAME_LIMIT + 1,
                "a field name of {} characters",
                field.chars().count()
            );
        }
        let line = finding.to_json_line();
        assert!(
            line.len() <= MAX_FINDING_BYTES,
            "a finding of {} bytes: {}...",
            line.len(),
            line.chars().take(300).collect::<String>()
        );
        let (read, problems) = drift::parse_json_lines(&line);
        assert!(problems.is_empty(), "{problems:?}: {line}");
        assert_eq!(
            read,
            std::slice::from_ref(finding),
            "a finding read back from its line"
        );
    }
}
