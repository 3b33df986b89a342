//! The checks of one rule across parameters: a request that breaks it, one that keeps it, and
//! for a rule with a condition, one that would break it were the condition not false.
//!
//! Values come from the sample request where it has them, else from what each parameter's own
//! rules accept ([`super::values::candidates`]), so every request differs from a valid one only
//! where the rule looks.

use super::values::{T0, accepts, candidates, instant_text};
use super::{Check, Draft, Expect};
use crate::model::{self, Condition, Endpoint, Param, ParamId, Rule, TimeFormat};

/// The checks of rule `r` of `e`, from the request `base`. A side that no value can be found
/// for is left out (the derivation test asserts every rule of the real spec has both).
pub(crate) fn checks(e: &Endpoint, r: &Rule, base: &Draft) -> Vec<Check> {
    let name = r.name();
    let broken = Expect::Rejected {
        field: e.param(r.check.field()).wire.clone(),
        rule: r.id.clone(),
    };
    let kept = Expect::Kept { rule: r.id.clone() };
    let mut out = Vec::new();
    // With the condition true (or without one): one side each.
    if let Some(on) = condition(e, r, base, true) {
        if let Some(d) = assign(e, r, &on, Side::Break) {
            out.push(d.check(e, &format!("{name}.broken"), broken));
        }
        if let Some(d) = assign(e, r, &on, Side::Keep) {
            out.push(d.check(e, &format!("{name}.kept"), kept.clone()));
        }
    }
    // With the condition false, what would break the rule does not.
    if r.when.is_some()
        && let Some(off) = condition(e, r, base, false)
        && let Some(d) = assign(e, r, &off, Side::Break)
    {
        out.push(d.check(e, &format!("{name}.condition_off"), kept));
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Break,
    Keep,
}

/// `base` with the rule's condition made `holds` (unchanged when the rule has none and
/// `holds`; `None` when no value of the parameter makes it so).
fn condition(e: &Endpoint, r: &Rule, base: &Draft, holds: bool) -> Option<Draft> {
    let Some(c) = &r.when else {
        return holds.then(|| base.clone());
    };
    let p = e.param(c.param());
    let mut pool = candidates(p, base.value(&p.wire).as_deref());
    // A condition on a prefix (`^FX_SPOT_`): its texts followed by the tail of a value the
    // parameter accepts (`FX_SPOT_` + `A_A`).
    if let Condition::Matches { pattern, .. } = c {
        let tails: Vec<String> = pool
            .iter()
            .flat_map(|v| {
                v.char_indices()
                    .map(|(i, _)| v[i..].to_string())
                    .collect::<Vec<_>>()
            })
            .collect();
        for head in pattern.examples() {
            pool.extend(
                tails
                    .iter()
                    .map(|t| format!("{head}{t}"))
                    .filter(|v| accepts(p, v)),
            );
        }
    }
    let value = pool.into_iter().find(|v| condition_holds(c, v) == holds)?;
    Some(base.with(&p.wire, &[&value]))
}

fn condition_holds(c: &Condition, value: &str) -> bool {
    match c {
        Condition::In { values, .. } => values.iter().any(|l| l.wire() == value),
        Condition::Matches { pattern, .. } => pattern.is_match(value),
    }
}

/// A value of `p` its own rules accept (its candidates, and `extra` ones), that keeps
/// `draft`'s condition as it is (when `p` is the condition's parameter) and satisfies `wanted`.
fn value_of(
    r: &Rule,
    p: &Param,
    draft: &Draft,
    extra: Vec<String>,
    wanted: impl Fn(&str) -> bool,
) -> Option<String> {
    let keep_condition = |v: &str| match &r.when {
        Some(c) if c.param() == p.id => {
            let now = draft
                .value(&p.wire)
                .is_some_and(|cur| condition_holds(c, &cur));
            condition_holds(c, v) == now
        }
        _ => true,
    };
    let mut pool = candidates(p, draft.value(&p.wire).as_deref());
    pool.extend(extra.into_iter().filter(|v| accepts(p, v)));
    pool.into_iter().find(|v| keep_condition(v) && wanted(v))
}

/// `draft` with the rule's parameters set to break or keep it.
fn assign(e: &Endpoint, r: &Rule, draft: &Draft, side: Side) -> Option<Draft> {
    let param = |id: &ParamId| Some(e.param(*id));
    match &r.check {
        model::Check::Ordered { before, after }
        | model::Check::MaxSpan {
            from: before,
            to: after,
            ..
        } => {
            let (a, b) = (param(before)?, param(after)?);
            let format = a.time_format()?;
            let start = draft
                .value(&a.wire)
                .and_then(|v| match format {
                    TimeFormat::UnixSeconds => v.parse().ok(),
                    TimeFormat::Rfc3339 => mrds_runtime::text::rfc3339_seconds(&v),
                })
                .unwrap_or(T0);
            let end = match (&r.check, side) {
                (model::Check::MaxSpan { seconds, .. }, Side::Break) => {
                    start.checked_add(seconds + 1)?
                }
                (model::Check::MaxSpan { seconds, .. }, Side::Keep) => {
                    start.checked_add(*seconds)?
                }
                (_, Side::Break) => start,
                (_, Side::Keep) => start.checked_add(1)?,
            };
            let (x, y) = (instant_text(start, format), instant_text(end, format));
            Some(draft.with(&a.wire, &[&x]).with(&b.wire, &[&y]))
        }
        model::Check::Requires {
            param: dependent,
            needs,
        } => {
            let (a, b) = (param(dependent)?, param(needs)?);
            let va = value_of(r, a, draft, Vec::new(), |_| true)?;
            let with_a = draft.with(&a.wire, &[&va]);
            match side {
                Side::Break => Some(with_a.with(&b.wire, &[])),
                Side::Keep => {
                    let vb = value_of(r, b, &with_a, Vec::new(), |_| true)?;
                    Some(with_a.with(&b.wire, &[&vb]))
                }
            }
        }
        model::Check::AtLeastOne(names) => {
            let none = names
                .iter()
                .fold(draft.clone(), |d, n| d.with(&e.param(*n).wire, &[]));
            match side {
                Side::Break => Some(none),
                Side::Keep => {
                    let first = param(&names[0])?;
                    let v = value_of(r, first, &none, Vec::new(), |_| true)?;
                    Some(none.with(&first.wire, &[&v]))
                }
            }
        }
        model::Check::AllowedValues {
            param: name,
            values,
        } => {
            let p = param(name)?;
            let allowed = |v: &str| values.iter().any(|l| l.wire() == v);
            let v = value_of(r, p, draft, Vec::new(), |v| {
                allowed(v) == (side == Side::Keep)
            })?;
            Some(draft.with(&p.wire, &[&v]))
        }
        model::Check::Matches {
            param: name,
            pattern,
        } => {
            let p = param(name)?;
            let keep = side == Side::Keep;
            let v = value_of(r, p, draft, pattern.examples().to_vec(), |v| {
                pattern.is_match(v) == keep
            })?;
            Some(draft.with(&p.wire, &[&v]))
        }
    }
}
