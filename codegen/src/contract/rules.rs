//! The checks of one rule: a request that breaks it, one that keeps it, and for a rule with a
//! condition, one that would break it were the condition not false. Rules over parameters
//! and over a body's fields alike: a request is set and read by the inputs a rule names.
//!
//! Values come from the sample request where it has them, else from what each input's own
//! rules accept ([`super::values::candidates`]), so every request differs from a valid one only
//! where the rule looks.

use super::values::{T0, candidates, instant_text};
use super::{Draft, Expect, Probe};
use crate::model::{
    self, Condition, Endpoint, Equal, Inclusion, Input, Operand, Pattern, Rule, TimeFormat,
    ValueType,
};

/// The checks of rule `r` of `e`, from the request `base`. A side that no value can be found
/// for is left out (the derivation test asserts every rule of the real spec has both).
pub(crate) fn checks(e: &Endpoint, r: &Rule, base: &Draft<'_>) -> Vec<Probe> {
    let name = r.name();
    let Some(field) = base.input(r.requirement.field()) else {
        return Vec::new();
    };
    let broken = Expect::Rejected {
        field: field.name(),
        rule: r.id.clone(),
    };
    let kept = Expect::Kept { rule: r.id.clone() };
    let mut out = Vec::new();
    // With the condition true (or without one): one side each.
    if let Some(on) = condition(r, base, true) {
        if let Some(d) = assign(r, &on, Side::Break) {
            out.push(d.check(e, &format!("{name}.broken"), broken));
        }
        if let Some(d) = assign(r, &on, Side::Keep) {
            out.push(d.check(e, &format!("{name}.kept"), kept.clone()));
        }
    }
    // With the condition false, what would break the rule does not.
    if r.when.is_some()
        && let Some(off) = condition(r, base, false)
        && let Some(d) = assign(r, &off, Side::Break)
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
/// `holds`; `None` when no value of the input makes it so).
fn condition<'m>(r: &Rule, base: &Draft<'m>, holds: bool) -> Option<Draft<'m>> {
    let Some(c) = &r.when else {
        return holds.then(|| base.clone());
    };
    let input = base.input(c.operand())?;
    let mut pool = candidates(
        input.ty,
        input.default,
        base.value(input.operand).as_deref(),
    );
    // A condition on a prefix (`^FX_SPOT_`): its texts followed by the tail of a value the
    // input accepts (`FX_SPOT_` + `A_A`).
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
                    .filter(|v| input.ty.accepts(v)),
            );
        }
    }
    let value = pool.into_iter().find(|v| c.holds(v) == holds)?;
    Some(base.with(input.operand, &[&value]))
}

/// A value of `i` its own rules accept (its candidates, and `extra` ones), that keeps
/// `draft`'s condition as it is (when `i` is the condition's input) and satisfies `wanted`.
fn value_of(
    r: &Rule,
    i: &Input<'_>,
    draft: &Draft<'_>,
    extra: Vec<String>,
    wanted: impl Fn(&str) -> bool,
) -> Option<String> {
    let keep_condition = |v: &str| match &r.when {
        Some(c) if c.operand() == i.operand => {
            let now = draft.value(i.operand).is_some_and(|cur| c.holds(&cur));
            c.holds(v) == now
        }
        _ => true,
    };
    let mut pool = candidates(i.ty, i.default, draft.value(i.operand).as_deref());
    pool.extend(extra.into_iter().filter(|v| i.ty.accepts(v)));
    pool.into_iter().find(|v| keep_condition(v) && wanted(v))
}

/// `draft` with the rule's inputs set to break or keep it.
fn assign<'m>(r: &Rule, draft: &Draft<'m>, side: Side) -> Option<Draft<'m>> {
    let input = |op: &Operand| draft.input(*op);
    match &r.requirement {
        model::Requirement::Ordered { before, after, .. }
        | model::Requirement::MaxSpan {
            from: before,
            to: after,
            ..
        } => {
            let (a, b) = (input(before)?, input(after)?);
            let format = a.time_format()?;
            let start = draft
                .value(a.operand)
                .and_then(|v| match format {
                    TimeFormat::UnixSeconds => v.parse().ok(),
                    TimeFormat::Rfc3339 => mrds_runtime::text::rfc3339_seconds(&v),
                })
                .unwrap_or(T0);
            // Each side at the boundary: the last instant the rule keeps, the first it breaks.
            let end = match (&r.requirement, side) {
                (model::Requirement::MaxSpan { seconds, .. }, Side::Break) => {
                    start.checked_add(seconds + 1)?
                }
                (model::Requirement::MaxSpan { seconds, .. }, Side::Keep) => {
                    start.checked_add(*seconds)?
                }
                (model::Requirement::Ordered { equal, .. }, side) => match (equal, side) {
                    (Equal::Refused, Side::Break) | (Equal::Allowed, Side::Keep) => start,
                    (Equal::Refused, Side::Keep) => start.checked_add(1)?,
                    (Equal::Allowed, Side::Break) => start.checked_sub(1)?,
                },
                (_, Side::Break) => start,
                (_, Side::Keep) => start.checked_add(1)?,
            };
            let (x, y) = (instant_text(start, format), instant_text(end, format));
            Some(draft.with(a.operand, &[&x]).with(b.operand, &[&y]))
        }
        model::Requirement::Requires {
            param: dependent,
            needs,
        } => {
            let (a, b) = (input(dependent)?, input(needs)?);
            let va = value_of(r, &a, draft, Vec::new(), |_| true)?;
            let with_a = draft.with(a.operand, &[&va]);
            match side {
                Side::Break => Some(with_a.with(b.operand, &[])),
                Side::Keep => {
                    let vb = value_of(r, &b, &with_a, Vec::new(), |_| true)?;
                    Some(with_a.with(b.operand, &[&vb]))
                }
            }
        }
        model::Requirement::AtLeastOne(ops) => {
            let none = ops.iter().fold(draft.clone(), |d, op| d.with(*op, &[]));
            match side {
                Side::Break => Some(none),
                Side::Keep => {
                    let first = input(&ops[0])?;
                    let v = value_of(r, &first, &none, Vec::new(), |_| true)?;
                    Some(none.with(first.operand, &[&v]))
                }
            }
        }
        model::Requirement::AllowedValues { param, values } => {
            let p = input(param)?;
            let allowed = |v: &str| values.iter().any(|l| l.wire() == v);
            let v = value_of(r, &p, draft, Vec::new(), |v| {
                allowed(v) == (side == Side::Keep)
            })?;
            Some(draft.with(p.operand, &[&v]))
        }
        model::Requirement::Matches { param, pattern } => {
            let p = input(param)?;
            let keep = side == Side::Keep;
            // To break it: a text the input's own pattern takes and the rule's does not.
            let own = match p.ty {
                ValueType::String(t) => t.pattern.as_ref(),
                _ => None,
            };
            let outside = match own.unwrap_or(Pattern::anything()).included_in(pattern) {
                Inclusion::No(text) if !keep => Some(text),
                _ => None,
            };
            let extra = pattern.examples().iter().cloned().chain(outside).collect();
            let v = value_of(r, &p, draft, extra, |v| pattern.is_match(v) == keep)?;
            Some(draft.with(p.operand, &[&v]))
        }
    }
}
