//! The checks of a request body: JSON that is not, another content type, a body over the
//! limit, none; each field missing, of another type, at and beyond its bounds, each value of
//! its set and one outside, pattern and format violations; and each rule naming a field of the
//! body, on both sides (as a rule over parameters, the body's fields named `body.<field>`).

use super::values::candidates;
use super::{Check, Draft, Expect, JSON};
use crate::model::*;

/// The checks of the body of `e`, from the request `base`.
pub(crate) fn checks(api: &Api, e: &Endpoint, body: &Body, base: &Draft) -> Vec<Check> {
    let record = api.record(body.record);
    let shape = || Expect::Rejected {
        field: "body".to_string(),
        rule: format!("{}.body", e.id),
    };
    let error = |code: &str| Expect::error(api, code);
    let example = base
        .body_json()
        .map(|json| serde_json::Value::Object(json.clone()).to_string())
        .unwrap_or_default();
    let mut out = vec![
        base.with_raw_body("{\"not json".into(), JSON)
            .check(e, "body.not_json", shape()),
        base.with_raw_body(String::new(), JSON)
            .check(e, "body.empty", shape()),
        base.with_raw_body(example.clone(), "text/plain").check(
            e,
            "body.wrong_content_type",
            error("UNSUPPORTED_MEDIA_TYPE"),
        ),
        // Past the documented default limit (a server allowing more fails this check).
        base.with_raw_body(oversized(&example), JSON).check(
            e,
            "body.too_large",
            error("PAYLOAD_TOO_LARGE"),
        ),
    ];
    let fields = base.body_json().cloned().unwrap_or_default();
    for f in &record.fields {
        let probe = |name: &str| format!("body.{}.{name}", f.wire);
        if !f.optional {
            let mut without = fields.clone();
            without.remove(&f.wire);
            out.push(
                base.with_body_json(without)
                    .check(e, &probe("missing"), shape()),
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
                .check(e, &probe("wrong_type"), shape()),
        );
    }
    // The fields' own checks and the rules, on the body's fields named as parameters.
    let extended = with_body_params(e, body, record);
    let first = e.params.len();
    for p in &extended.params[first..] {
        out.extend(value_probes(&extended, p, base));
    }
    for r in &extended.rules[e.rules.len()..] {
        out.extend(super::rules::checks(&extended, r, base));
    }
    out
}

/// `e` with the fields of its body that have checks as parameters (`body.<field>`, numbered
/// after its own, so [`Endpoint::param`] finds them) and the rules naming them as rules over
/// parameters, after its own.
fn with_body_params(e: &Endpoint, body: &Body, record: &Record) -> Endpoint {
    let first = e.params.len();
    let mut fields = record.body_params(first);
    // `body_params` numbers a field by its place in the record; only fields with checks are
    // parameters, so they are numbered again by their place among those.
    let mut renumbered = std::collections::BTreeMap::new();
    for (i, p) in fields.iter_mut().enumerate() {
        let id = ParamId::new(first + i);
        renumbered.insert(p.id, id);
        p.id = id;
    }
    let id = |op: Operand| match op {
        Operand::Param(id) => Some(id),
        Operand::Field(field) => renumbered
            .get(&ParamId::new(first + field.index()))
            .copied(),
    };
    let mut extended = e.clone();
    extended.params.extend(fields);
    // A rule reads only fields with checks (the checker refuses others), so every operand
    // maps; a rule that did not would be left out rather than read the wrong field.
    let reads_checked = |r: &Rule<Operand>| {
        let when = r.when.as_ref().map(Condition::param);
        r.check
            .params()
            .into_iter()
            .chain(when)
            .all(|op| id(op).is_some())
    };
    let param = |op: Operand| id(op).unwrap_or(ParamId::new(first));
    extended.rules.extend(
        body.rules
            .iter()
            .filter(|r| reads_checked(r))
            .map(|r| Rule {
                at: r.at.clone(),
                id: r.id.clone(),
                doc: r.doc.clone(),
                provenance: r.provenance.clone(),
                when: r.when.as_ref().map(|c| c.map(param)),
                check: r.check.map(param),
            }),
    );
    extended
}

/// The probes of a field's own checks: at and beyond its bounds, each value of its set and
/// one outside, pattern and format violations (rule ids `<endpoint>.body.<field>.<check>`).
fn value_probes(e: &Endpoint, p: &Param, base: &Draft) -> Vec<Check> {
    let rejected = |check: ParamCheck| Expect::Rejected {
        field: p.wire.clone(),
        rule: e.param_rule(p, check),
    };
    let accepted = || Expect::Accepted {
        param: p.wire.clone(),
    };
    let mut out = Vec::new();
    let mut probe = |name: &str, value: &str, expect: Expect| {
        out.push(
            base.with(&p.wire, &[value])
                .check(e, &format!("{}.{name}", p.wire), expect),
        );
    };
    match &p.ty {
        ParamType::Integer(t) => {
            if let Some(min) = t.min {
                probe("at_min", &min.to_string(), accepted());
                if let Some(below) = min.checked_sub(1) {
                    probe("below_min", &below.to_string(), rejected(ParamCheck::Range));
                }
            }
            if let Some(max) = t.max {
                probe("at_max", &max.to_string(), accepted());
                if let Some(above) = max.checked_add(1) {
                    probe("above_max", &above.to_string(), rejected(ParamCheck::Range));
                }
            }
        }
        ParamType::Enum(set) => {
            for v in &set.values {
                probe(
                    &format!("value_{}", super::params::probe_name(v)),
                    v,
                    accepted(),
                );
            }
            probe("not_a_value", "not-a-value", rejected(ParamCheck::Values));
        }
        ParamType::String(t) => {
            if let Some(pattern) = &t.pattern {
                if let Some(v) = candidates(p, base.value(&p.wire).as_deref())
                    .into_iter()
                    .next()
                {
                    probe("matching", &v, accepted());
                }
                if let Some(bad) = pattern.counterexample() {
                    probe("not_matching", bad, rejected(ParamCheck::Pattern));
                }
            }
            if let Some(format) = t.format {
                probe(
                    "bad_format",
                    super::params::format_violation(format),
                    rejected(ParamCheck::Format),
                );
            }
        }
        ParamType::Boolean => {}
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
