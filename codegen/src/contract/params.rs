//! The checks of one parameter's own rules: missing, repeated, empty, not of its type, at
//! and beyond its bounds, each value of its set and one outside, pattern and format violations.

use super::values::candidates;
use super::{Check, Draft, Expect};
use crate::model::*;

/// The checks of parameter `p` of `e`, from the request `base`.
pub(crate) fn checks(e: &Endpoint, p: &Param, base: &Draft) -> Vec<Check> {
    param_probes(e, p, base)
        .into_iter()
        .map(|(probe, draft, expect)| draft.check(e, &format!("{}.{probe}", p.wire), expect))
        .collect()
}

/// A text that is not in `format`.
pub(super) fn format_violation(format: StringFormat) -> &'static str {
    match format {
        StringFormat::Rfc3339 => "2026-07-01 00:00:00",
        StringFormat::Uuid => "not-a-uuid",
        StringFormat::Hex16 => "00ff00ff00ff00fg",
        StringFormat::Date => "2026-02-30",
    }
}

/// The probes of one parameter: (probe name, request, expected answer).
fn param_probes(e: &Endpoint, p: &Param, base: &Draft) -> Vec<(String, Draft, Expect)> {
    let rejected = |check: ParamCheck| Expect::Rejected {
        field: p.wire.clone(),
        rule: e.param_rule(p, check),
    };
    let accepted = || Expect::Accepted {
        param: p.wire.clone(),
    };
    let is_query = p.location == ParamLocation::Query;
    let mut out: Vec<(String, Draft, Expect)> = Vec::new();
    let mut probe = |name: &str, values: &[&str], expect: Expect| {
        out.push((name.to_string(), base.with(&p.wire, values), expect));
    };
    if p.required && is_query {
        probe("missing", &[], rejected(ParamCheck::Required));
    }
    let valid = candidates(p, base.value(&p.wire).as_deref())
        .into_iter()
        .next();
    if let (Some(v), true) = (&valid, is_query) {
        probe("repeated", &[v, v], rejected(ParamCheck::Repeated));
    }
    if is_query {
        let expect = match &p.ty {
            ParamType::Integer(_) | ParamType::Boolean => rejected(ParamCheck::Type),
            ParamType::Enum(_) => rejected(ParamCheck::Values),
            ParamType::String(t) if t.format.is_some() => rejected(ParamCheck::Format),
            ParamType::String(t)
                if t.pattern
                    .as_ref()
                    .is_some_and(|pattern| !pattern.is_match("")) =>
            {
                rejected(ParamCheck::Pattern)
            }
            ParamType::String(_) => accepted(),
        };
        probe("empty", &[""], expect);
    }
    match &p.ty {
        ParamType::Integer(t) => {
            probe("not_an_integer", &["12x"], rejected(ParamCheck::Type));
            probe(
                "past_i64",
                &["9223372036854775808"],
                rejected(ParamCheck::Type),
            );
            if let Some(min) = t.min {
                probe("at_min", &[&min.to_string()], accepted());
                if let Some(below) = min.checked_sub(1) {
                    probe(
                        "below_min",
                        &[&below.to_string()],
                        rejected(ParamCheck::Range),
                    );
                }
            }
            if let Some(max) = t.max {
                probe("at_max", &[&max.to_string()], accepted());
                if let Some(above) = max.checked_add(1) {
                    probe(
                        "above_max",
                        &[&above.to_string()],
                        rejected(ParamCheck::Range),
                    );
                }
            }
        }
        ParamType::Boolean => {
            probe("not_a_boolean", &["yes"], rejected(ParamCheck::Type));
        }
        ParamType::Enum(set) => {
            for v in &set.values {
                probe(&format!("value_{}", probe_name(v)), &[v], accepted());
            }
            probe(
                "not_a_value",
                &["not-a-value"],
                rejected(ParamCheck::Values),
            );
        }
        ParamType::String(t) => {
            if let Some(pattern) = &t.pattern {
                if let Some(v) = &valid {
                    probe("matching", &[v], accepted());
                }
                if let Some(bad) = pattern.counterexample()
                    && (is_query || !bad.is_empty())
                {
                    probe("not_matching", &[bad], rejected(ParamCheck::Pattern));
                }
            }
            if let Some(format) = t.format {
                probe(
                    "bad_format",
                    &[format_violation(format)],
                    rejected(ParamCheck::Format),
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
    fn probe_names_and_violations() {
        assert_eq!(probe_name("MLC 128Gb"), "mlc_128gb");
        for f in [
            StringFormat::Rfc3339,
            StringFormat::Uuid,
            StringFormat::Hex16,
            StringFormat::Date,
        ] {
            assert!(!f.runtime().holds(format_violation(f)), "{f:?}");
        }
    }
}
