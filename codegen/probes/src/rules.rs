//! The checks of one rule: a request that breaks it, one that keeps it, and for a rule with a
//! condition, one that would break it were the condition not false. Rules over parameters
//! and over a body's fields alike: a request is set and read by the inputs a rule names.
//!
//! Values come from the sample request where it has them, else from what each input's own
//! rules accept ([`super::values::candidates`]), so every request differs from a valid one only
//! where the rule looks.

use super::values::{T0, candidates, instant_text};
use super::{Draft, Expect, Probe};
use mrds_spec::model::{
    Condition, Endpoint, Input, Operand, Pattern, Probing, Rule, Side, TimeFormat, ValueType,
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
    wanted: &dyn Fn(&str) -> bool,
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

/// A request probing rule `r`: what [`mrds_spec::model::Requirement::probe`] may do to it.
#[derive(Clone)]
struct Probed<'r, 'm> {
    rule: &'r Rule,
    draft: Draft<'m>,
}

impl Probing for Probed<'_, '_> {
    fn set(&self, op: Operand, value: Option<&str>) -> Option<Self> {
        self.draft.input(op)?;
        let values: Vec<&str> = value.into_iter().collect();
        Some(Probed {
            rule: self.rule,
            draft: self.draft.with(op, &values),
        })
    }

    fn pick(
        &self,
        op: Operand,
        extra: Vec<String>,
        wanted: &dyn Fn(&str) -> bool,
    ) -> Option<String> {
        let input = self.draft.input(op)?;
        value_of(self.rule, &input, &self.draft, extra, wanted)
    }

    fn instant(&self, op: Operand) -> Option<i64> {
        let format = self.draft.input(op)?.time_format()?;
        let given = self.draft.value(op).and_then(|v| match format {
            TimeFormat::UnixSeconds => v.parse().ok(),
            TimeFormat::Rfc3339 => mrds_runtime::text::rfc3339_seconds(&v),
        });
        Some(given.unwrap_or(T0))
    }

    fn at(&self, op: Operand, seconds: i64) -> Option<Self> {
        let format = self.draft.input(op)?.time_format()?;
        self.set(op, Some(&instant_text(seconds, format)))
    }

    fn own_pattern(&self, op: Operand) -> Option<Pattern> {
        match self.draft.input(op)?.ty {
            ValueType::String(t) => t.pattern.clone(),
            _ => None,
        }
    }
}

/// `draft` with the rule's inputs set to break or keep it.
fn assign<'m>(r: &Rule, draft: &Draft<'m>, side: Side) -> Option<Draft<'m>> {
    let probed = Probed {
        rule: r,
        draft: draft.clone(),
    };
    r.requirement.probe(&probed, side).map(|p| p.draft)
}
