//! The documented behaviour of an endpoint: its sample request answered with records in the
//! documented order, the key, `limit` and defaults, the direction of the order, a lookup of
//! nothing, a removed endpoint, unknown parameters.

use mrds_runtime::ErrorKind;

use super::{Draft, Expect, Key, Probe, Sorted};
use mrds_spec::model::{Api, AuthMode, Endpoint, Literal, Operand, Param, ValueType};

/// The behaviour checks of `e`, from the request `base`; only the 410 of a removed endpoint
/// when it is `gone`.
pub(crate) fn checks(api: &Api, e: &Endpoint, base: &Draft<'_>, gone: bool) -> Vec<Probe> {
    let records = |at_most: Option<usize>, draft: &Draft<'_>| Expect::Records {
        record: e.returns,
        at_most,
        order: sorted(api, e, draft),
    };
    let error = |kind: ErrorKind| Expect::error(api, kind);
    let mut out = Vec::new();
    if gone {
        out.push(base.check(e, "removed", error(ErrorKind::EndpointRemoved)));
        return out;
    }
    out.push(base.check(e, "example", records(None, base)));

    // The key.
    let missing = base.keyed(Key::Missing);
    let expect = match e.auth {
        AuthMode::Required => error(ErrorKind::Unauthorized),
        AuthMode::Optional => records(None, &missing),
    };
    out.push(missing.check(e, "auth.missing_key", expect));
    out.push(
        base.keyed(Key::Wrong)
            .check(e, "auth.wrong_key", error(ErrorKind::Unauthorized)),
    );

    // Unknown parameters are ignored.
    let unknown = base.with_param("contract_unknown_parameter", &["1"]);
    out.push(unknown.check(e, "unknown_parameter_ignored", records(None, &unknown)));

    // The page size caps the records; without it, its default does.
    if let Some(paging) = &e.paging {
        let limit = e.param(paging.limit);
        let one = base.with(Operand::Param(paging.limit), &["1"]);
        out.push(one.check(e, "limit.caps", records(Some(1), &one)));
        if let Some(Literal::Integer(n)) = &limit.default {
            let without = base.with(Operand::Param(paging.limit), &[]);
            let cap = usize::try_from(*n).ok();
            out.push(without.check(e, "limit.default_caps", records(cap, &without)));
        }
    }

    // The documented order, in each direction when a parameter chooses it.
    if let Some(order) = &e.order
        && let Some(direction) = order.direction
    {
        for value in ["asc", "desc"] {
            let draft = base.with(Operand::Param(direction), &[value]);
            out.push(draft.check(e, &format!("order.{value}"), records(None, &draft)));
        }
    }

    // A lookup of nothing: a value the lookup's own checks accept that no sample set holds.
    if let Some(lookup) = e.lookup
        && let Some(draft) = nothing(e.param(lookup))
            .map(|v| base.with(Operand::Param(lookup), &[&v]))
            .find(|draft| !draft.answered(e))
    {
        out.push(draft.check(e, "lookup.not_found", error(ErrorKind::ResourceNotFound)));
    }
    out
}

/// The order the records of `draft` must come in, if the spec documents one.
fn sorted(api: &Api, e: &Endpoint, draft: &Draft<'_>) -> Option<Sorted> {
    let order = e.order.as_ref()?;
    // The direction the request asks for, else the direction parameter's default.
    let chosen = order.direction.and_then(|d| {
        draft
            .value(Operand::Param(d))
            .or_else(|| e.param(d).default.as_ref().map(Literal::wire))
    });
    let descending = chosen.map_or(order.descending, |v| v == "desc");
    Some(Sorted {
        field: api.returns(e).field(order.field).wire.clone(),
        descending,
    })
}

/// Well-formed values of `p` unlikely to name anything, best first, each accepted by its own
/// checks: within an integer's range but never one of its bounds (a bound is the contract's
/// `at_min`/`at_max`, which a lookup may answer), a format's example that names nothing, texts
/// of the pattern, values of a set.
fn nothing(p: &Param) -> impl Iterator<Item = String> + '_ {
    let candidates: Vec<String> = match &p.ty {
        ValueType::String(t) => {
            let mut texts: Vec<String> = Vec::new();
            if let Some(format) = t.format {
                texts.extend(format.info().examples.iter().rev().map(|s| s.to_string()));
            }
            if let Some(pattern) = &t.pattern {
                texts.extend(pattern.examples().iter().cloned());
            }
            texts.push("contract-nothing".into());
            texts
        }
        ValueType::Integer(t) => {
            // Inside the range, away from both bounds: from a value unlikely to be an id,
            // nudged into the range, then its neighbours.
            let (low, high) = (t.min.unwrap_or(i64::MIN), t.max.unwrap_or(i64::MAX));
            let start =
                987_654_321i64.clamp(low.saturating_add(1), high.saturating_sub(1).max(low));
            (0..16)
                .flat_map(|step: i64| [start.saturating_add(step), start.saturating_sub(step)])
                .filter(|n| *n > low && *n < high)
                .map(|n| n.to_string())
                .collect()
        }
        ValueType::Enum(set) => set.values.clone(),
        ValueType::Boolean => Vec::new(),
    };
    candidates.into_iter().filter(|v| p.ty.accepts(v))
}
