//! The checks of one input's own rules, a parameter or a field of the body alike: missing,
//! repeated, empty, not of its type (parameters; a body's are its shape's), at and beyond its
//! bounds, each value of its set and one outside, a text its pattern matches and one it does
//! not, a format violation.

use super::values::candidates;
use super::{Draft, Expect, Probe};
use crate::model::{Endpoint, Input, Place, ValueCheck, ValueType};

/// The checks of input `i` of `e`, from the request `base`: `<endpoint>.<input>.<probe>`.
pub(crate) fn checks(e: &Endpoint, i: &Input<'_>, base: &Draft<'_>) -> Vec<Probe> {
    let name = i.name();
    probes(e, i, base)
        .into_iter()
        .map(|(probe, draft, expect)| draft.check(e, &format!("{name}.{probe}"), expect))
        .collect()
}

/// The probes of one input: (probe name, request, expected answer).
fn probes<'m>(e: &Endpoint, i: &Input<'_>, base: &Draft<'m>) -> Vec<(String, Draft<'m>, Expect)> {
    let name = i.name();
    let rejected = |check: ValueCheck| Expect::Rejected {
        field: name.clone(),
        rule: e.value_rule(&name, check),
    };
    let accepted = || Expect::Accepted {
        param: name.clone(),
    };
    let is_query = i.place == Place::Query;
    let mut out: Vec<(String, Draft<'m>, Expect)> = Vec::new();
    let mut probe = |probe: &str, values: &[&str], expect: Expect| {
        out.push((probe.to_string(), base.with(i.operand, values), expect));
    };
    let valid = candidates(i.ty, i.default, base.value(i.operand).as_deref())
        .into_iter()
        .next();
    // Presence and spelling: a query parameter's own rules; a body's shape has its own checks.
    if is_query {
        if i.required {
            probe("missing", &[], rejected(ValueCheck::Required));
        }
        if let Some(v) = &valid {
            probe("repeated", &[v, v], rejected(ValueCheck::Repeated));
        }
        let expect = match i.ty {
            ValueType::Integer(_) | ValueType::Boolean => rejected(ValueCheck::Type),
            ValueType::Enum(_) => rejected(ValueCheck::Values),
            ValueType::String(t) if t.format.is_some() => rejected(ValueCheck::Format),
            ValueType::String(t) if t.pattern.as_ref().is_some_and(|p| !p.is_match("")) => {
                rejected(ValueCheck::Pattern)
            }
            ValueType::String(_) => accepted(),
        };
        probe("empty", &[""], expect);
    }
    let typed = i.place != Place::Body;
    match i.ty {
        ValueType::Integer(t) => {
            if typed {
                probe("not_an_integer", &["12x"], rejected(ValueCheck::Type));
                probe(
                    "past_i64",
                    &["9223372036854775808"],
                    rejected(ValueCheck::Type),
                );
            }
            if let Some(min) = t.min {
                probe("at_min", &[&min.to_string()], accepted());
                if let Some(below) = min.checked_sub(1) {
                    probe(
                        "below_min",
                        &[&below.to_string()],
                        rejected(ValueCheck::Range),
                    );
                }
            }
            if let Some(max) = t.max {
                probe("at_max", &[&max.to_string()], accepted());
                if let Some(above) = max.checked_add(1) {
                    probe(
                        "above_max",
                        &[&above.to_string()],
                        rejected(ValueCheck::Range),
                    );
                }
            }
        }
        ValueType::Boolean => {
            if typed {
                probe("not_a_boolean", &["yes"], rejected(ValueCheck::Type));
            }
        }
        ValueType::Enum(set) => {
            for v in &set.values {
                probe(&format!("value_{}", probe_name(v)), &[v], accepted());
            }
            probe(
                "not_a_value",
                &["not-a-value"],
                rejected(ValueCheck::Values),
            );
        }
        ValueType::String(t) => {
            if let Some(pattern) = &t.pattern {
                if let Some(v) = &valid {
                    probe("matching", &[v], accepted());
                }
                // An empty path segment names another route, not a value.
                if let Some(bad) = pattern.counterexample()
                    && (i.place != Place::Path || !bad.is_empty())
                {
                    probe("not_matching", &[&bad], rejected(ValueCheck::Pattern));
                }
            }
            if let Some(format) = t.format {
                probe(
                    "bad_format",
                    &[format.info().counterexample],
                    rejected(ValueCheck::Format),
                );
            }
        }
    }
    out
}

/// A value as part of a probe name: lowercase letters, digits and `_`.
pub(super) fn probe_name(value: &str) -> String {
    value
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_names() {
        assert_eq!(probe_name("MLC 128Gb"), "mlc_128gb");
    }
}
