//! The checks of a request body's shape: JSON that is not, another content type, a body over
//! the limit, none; each field missing and of another type. (Its fields' own checks are
//! [`super::inputs`]'s, the rules naming them [`super::rules`]'s.)

use mrds_runtime::ErrorKind;

use super::{Draft, Expect, JSON, Probe};
use mrds_spec::model::{Api, BODY, Endpoint, Record, TypeRef, body_field_name};

/// The checks of the shape of `e`'s body (a `record`), from the request `base`.
pub(crate) fn checks(api: &Api, e: &Endpoint, record: &Record, base: &Draft<'_>) -> Vec<Probe> {
    let shape = || Expect::Rejected {
        field: BODY.to_string(),
        rule: e.body_rule(),
    };
    let error = |kind: ErrorKind| Expect::error(api, kind);
    // The body's own probes go by the body's name, as its fields' do (`body.empty`).
    let probe = |what: &str| format!("{BODY}.{what}");
    let example = base
        .body_json()
        .map(|json| serde_json::Value::Object(json.clone()).to_string())
        .unwrap_or_default();
    let mut out = vec![
        base.with_raw_body("{\"not json".into(), JSON)
            .check(e, &probe("not_json"), shape()),
        base.with_raw_body(String::new(), JSON)
            .check(e, &probe("empty"), shape()),
        base.with_raw_body(example.clone(), "text/plain").check(
            e,
            &probe("wrong_content_type"),
            error(ErrorKind::UnsupportedMediaType),
        ),
        // Past the documented default limit (a server allowing more fails this check).
        base.with_raw_body(oversized(&example), JSON).check(
            e,
            &probe("too_large"),
            error(ErrorKind::PayloadTooLarge),
        ),
    ];
    let fields = base.body_json().cloned().unwrap_or_default();
    for f in &record.fields {
        let field_probe = |name: &str| format!("{}.{name}", body_field_name(&f.wire));
        if !f.optional {
            let mut without = fields.clone();
            without.remove(&f.wire);
            out.push(
                base.with_body_json(without)
                    .check(e, &field_probe("missing"), shape()),
            );
        }
        let wrong = match f.ty {
            TypeRef::Integer | TypeRef::Number | TypeRef::Boolean => serde_json::json!("x"),
            _ => serde_json::json!(12),
        };
        let mut mistyped = fields.clone();
        mistyped.insert(
            f.wire.clone(),
            if f.array {
                serde_json::json!({})
            } else {
                wrong
            },
        );
        out.push(
            base.with_body_json(mistyped)
                .check(e, &field_probe("wrong_type"), shape()),
        );
    }
    out
}

/// A JSON body longer than the default limit of a server's body (1 MiB): `example` with a
/// field that is one long text.
fn oversized(example: &str) -> String {
    let filler = "x".repeat(mrds_runtime::DEFAULT_BODY_LIMIT + 1);
    match example.strip_suffix('}') {
        Some(head) if head.len() > 1 => format!("{head},\"contract_filler\":\"{filler}\"}}"),
        _ => format!("{{\"contract_filler\":\"{filler}\"}}"),
    }
}
