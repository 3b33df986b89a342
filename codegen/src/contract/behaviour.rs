//! The documented behaviour of an endpoint: its sample request answered with records in the
//! documented order, the key, `limit` and defaults, the direction of the order, a lookup of
//! nothing, a removed endpoint, unknown parameters.

use super::values::format_nothing;
use super::{Check, Draft, Expect, Key, Sorted};
use crate::model::*;

/// The behaviour checks of `e`, from the request `base`.
pub(crate) fn checks(api: &Api, e: &Endpoint, base: &Draft) -> Vec<Check> {
    let records = |at_most: Option<usize>, draft: &Draft| Expect::Records {
        record: e.returns,
        at_most,
        order: sorted(api, e, draft),
    };
    let error = |code: &str| Expect::error(api, code);
    let mut out = Vec::new();
    if e.removed.is_some() {
        out.push(base.check(e, "removed", error("ENDPOINT_REMOVED")));
        return out;
    }
    out.push(base.check(e, "example", records(None, base)));

    // The key.
    let missing = base.keyed(Key::Missing);
    let expect = match e.auth {
        AuthMode::Required => error("UNAUTHORIZED"),
        AuthMode::Optional => records(None, &missing),
    };
    out.push(missing.check(e, "auth.missing_key", expect));
    out.push(
        base.keyed(Key::Wrong)
            .check(e, "auth.wrong_key", error("UNAUTHORIZED")),
    );

    // Unknown parameters are ignored.
    let unknown = base.with("contract_unknown_parameter", &["1"]);
    out.push(unknown.check(e, "unknown_parameter_ignored", records(None, &unknown)));

    // The page size caps the records; without it, its default does.
    if let Some(paging) = &e.paging {
        let limit = e.param(paging.limit);
        let one = base.with(&limit.wire, &["1"]);
        out.push(one.check(e, "limit.caps", records(Some(1), &one)));
        if let Some(Literal::Integer(n)) = &limit.default {
            let without = base.with(&limit.wire, &[]);
            let cap = usize::try_from(*n).ok();
            out.push(without.check(e, "limit.default_caps", records(cap, &without)));
        }
    }

    // The documented order, in each direction when a parameter chooses it.
    if let Some(order) = &e.order
        && let Some(direction) = order.direction
    {
        for value in ["asc", "desc"] {
            let draft = base.with(&e.param(direction).wire, &[value]);
            out.push(draft.check(e, &format!("order.{value}"), records(None, &draft)));
        }
    }

    // A lookup of nothing.
    if let Some(lookup) = e.lookup
        && let p = e.param(lookup)
        && let Some(nothing) = nothing(p)
    {
        let draft = base.with(&p.wire, &[&nothing]);
        out.push(draft.check(e, "lookup.not_found", error("RESOURCE_NOT_FOUND")));
    }
    out
}

/// The order the records of `draft` must come in, if the spec documents one.
fn sorted(api: &Api, e: &Endpoint, draft: &Draft) -> Option<Sorted> {
    let order = e.order.as_ref()?;
    // The direction the request asks for, else the direction parameter's default.
    let chosen = order.direction.map(|d| e.param(d)).and_then(|d| {
        draft
            .value(&d.wire)
            .or_else(|| d.default.as_ref().map(Literal::wire))
    });
    let descending = chosen.map_or(order.descending, |v| v == "desc");
    Some(Sorted {
        field: api.returns(e).field(order.field).wire.clone(),
        descending,
    })
}

/// A well-formed value of `p` unlikely to name anything.
fn nothing(p: &Param) -> Option<String> {
    match &p.ty {
        ParamType::String(t) => match (t.format, &t.pattern) {
            (Some(format), _) => Some(format_nothing(format)),
            (None, Some(pattern)) => pattern.examples().first().cloned(),
            (None, None) => Some("contract-nothing".into()),
        },
        ParamType::Integer(t) => Some(t.max.unwrap_or(i64::MAX).to_string()),
        ParamType::Boolean | ParamType::Enum(_) => None,
    }
}
