//! Rules across parameters, by id: added, removed, renamed, tightened, relaxed or changed.
//!
//! A rule accepts a request when its condition does not hold or its check passes. It is
//! *tightened* when the new rule accepts only requests the old one accepted (its condition
//! covers at least as much, its check is at least as strict): old clients may send what new
//! servers reject. It is *relaxed* the other way round: new clients may send what old servers
//! reject. A rule changed both ways, or in a way that cannot be decided, breaks both.

use super::checks::kind;
use super::lang::Lang;
use super::{Diff, Impact, Places, changed_parts, list};
use mrds_spec::model::{Api, Condition, Endpoint, Literal, Operand, Relation, Requirement, Rule};

/// A rule of one version with its parameters named as they travel: the names are what two
/// versions of the spec share (ids belong to one model).
struct Named<'a> {
    rule: &'a Rule,
    requirement: Requirement<Name>,
    when: Option<Condition<Name>>,
}

/// An input as the spec names it: `limit`, `body.handle`.
type Name = String;

impl<'a> Named<'a> {
    fn of(api: &Api, e: &Endpoint, rule: &'a Rule) -> Self {
        let inputs = api.inputs(e);
        let name = |op: Operand| inputs.get(op).map(|i| i.name()).unwrap_or_default();
        Named {
            rule,
            requirement: rule.requirement.map(name),
            when: rule.when.as_ref().map(|c| c.map(name)),
        }
    }
}

fn describe_when(c: &Option<Condition<Name>>) -> String {
    match c {
        None => "always".to_owned(),
        Some(Condition::In { param, values }) => {
            format!("when `{param}` is {}", list(&wires(values)))
        }
        Some(Condition::Matches { param, pattern }) => {
            format!("when `{param}` matches `{pattern}`")
        }
    }
}

fn describe(r: &Named<'_>) -> String {
    match &r.when {
        None => r.requirement.describe(),
        Some(_) => format!("{}, {}", r.requirement.describe(), describe_when(&r.when)),
    }
}

fn wires(values: &[Literal]) -> Vec<String> {
    values.iter().map(Literal::wire).collect()
}

/// The inputs a request must give for the rule to apply at all (`at_least_one` applies to
/// every request).
fn triggers<'r>(r: &'r Named<'_>) -> Vec<&'r str> {
    let mut out: Vec<&str> = r
        .requirement
        .triggers()
        .into_iter()
        .map(String::as_str)
        .collect();
    if let Some(c) = &r.when {
        out.push(c.operand_ref());
    }
    out
}

/// The condition's values as a language (the parameter name aside).
fn condition_lang(c: &Condition<Name>) -> Lang {
    match c {
        Condition::In { values, .. } => Lang::literals("values", values),
        Condition::Matches { pattern, .. } => Lang::pattern(pattern),
    }
}

/// How the requests the new condition covers relate to the old one's.
fn compare_when(old: &Option<Condition<Name>>, new: &Option<Condition<Name>>) -> Relation {
    match (old, new) {
        (None, None) => Relation::Same,
        (None, Some(_)) => Relation::Fewer,
        (Some(_), None) => Relation::More,
        (Some(a), Some(b)) if a.operand_ref() != b.operand_ref() => Relation::Other,
        (Some(a), Some(b)) => {
            let (la, lb) = (condition_lang(a), condition_lang(b));
            Relation::of(&la.included_in(&lb), &lb.included_in(&la))
        }
    }
}

/// True when the two rules check the same thing under the same condition.
fn same_contract(a: &Named<'_>, b: &Named<'_>) -> bool {
    a.requirement.compare(&b.requirement) == Relation::Same
        && compare_when(&a.when, &b.when) == Relation::Same
}

impl Diff<'_> {
    pub(super) fn rules(&mut self, o: &Endpoint, n: &Endpoint) {
        let mut gone: Vec<Named<'_>> = Vec::new();
        for r in &o.rules {
            // A renamed endpoint renames its rules' ids too: match by the part after it.
            match n.rules.iter().find(|s| s.name() == r.name()) {
                Some(s) => self.rule(&Named::of(self.old, o, r), &Named::of(self.new, n, s)),
                None => gone.push(Named::of(self.old, o, r)),
            }
        }
        let mut fresh: Vec<Named<'_>> = n
            .rules
            .iter()
            .filter(|s| !o.rules.iter().any(|r| r.name() == s.name()))
            .map(|s| Named::of(self.new, n, s))
            .collect();
        let (old_inputs, new_inputs) = (self.old.inputs(o), self.new.inputs(n));
        gone.retain(|r| match fresh.iter().position(|s| same_contract(r, s)) {
            Some(i) => {
                let s = fresh.remove(i);
                self.push(kind::RuleRenamed, &s.rule.id, format!(
                        "rule `{}` is now `{}` with the same check ({}): only the id that errors name changes",
                        r.rule.id,
                        s.rule.id,
                        describe(&s)
                    ), Places { old: Some(&r.rule.at), new: Some(&s.rule.at) });
                false
            }
            None => true,
        });
        for r in gone {
            let unsent: Vec<&str> = triggers(&r)
                .into_iter()
                .filter(|p| new_inputs.named(p).is_none())
                .collect();
            let (servers, why) = if unsent.is_empty() {
                (
                    Impact::Breaking,
                    "new clients may send requests it rejects, and old servers reject them"
                        .to_owned(),
                )
            } else {
                (
                    Impact::Compatible,
                    format!(
                        "new clients never send {}, so old servers never apply it to them",
                        list(&unsent)
                    ),
                )
            };
            self.push(
                kind::RuleRemoved.servers(servers),
                &r.rule.id,
                format!(
                    "rule `{}` ({}) is gone: new servers accept everything old clients send; {why}",
                    r.rule.id,
                    describe(&r)
                ),
                Places {
                    old: Some(&r.rule.at),
                    new: Some(&n.at),
                },
            );
        }
        for s in fresh {
            let unsent: Vec<&str> = triggers(&s)
                .into_iter()
                .filter(|p| old_inputs.named(p).is_none())
                .collect();
            let (clients, why) = if unsent.is_empty() {
                (
                    Impact::Breaking,
                    "old clients may send requests it rejects, and new servers reject them"
                        .to_owned(),
                )
            } else {
                (
                    Impact::Compatible,
                    format!(
                        "old clients never send {}, so new servers never apply it to them",
                        list(&unsent)
                    ),
                )
            };
            self.push(kind::RuleAdded.clients(clients), &s.rule.id, format!(
                    "new rule `{}` ({}): {why}; old servers do not check it, and new clients keep to it",
                    s.rule.id,
                    describe(&s)
                ), Places { old: Some(&o.at), new: Some(&s.rule.at) });
        }
    }

    fn rule(&mut self, named_r: &Named<'_>, named_s: &Named<'_>) {
        let (r, s) = (named_r.rule, named_s.rule);
        let at = Places {
            old: Some(&r.at),
            new: Some(&s.at),
        };
        let when = compare_when(&named_r.when, &named_s.when);
        let check = named_r.requirement.compare(&named_s.requirement);
        // The new rule rejects a request when its condition holds and its check fails.
        let tightened = matches!(when, Relation::Same | Relation::More)
            && matches!(check, Relation::Same | Relation::Fewer);
        let relaxed = matches!(when, Relation::Same | Relation::Fewer)
            && matches!(check, Relation::Same | Relation::More);
        let mut what = Vec::new();
        if check != Relation::Same {
            what.push(format!(
                "{} became {}",
                named_r.requirement.describe(),
                named_s.requirement.describe()
            ));
        }
        if when != Relation::Same {
            what.push(format!(
                "{} became {}",
                describe_when(&named_r.when),
                describe_when(&named_s.when)
            ));
        }
        let what = what.join(", ");
        match (tightened, relaxed) {
            (true, true) if describe(named_r) != describe(named_s) => self.push(kind::RuleDocChanged, &s.id, format!(
                    "rule `{}` rewritten ({} became {}): it accepts the same requests",
                    s.id,
                    describe(named_r),
                    describe(named_s)
                ), at),
            (true, true) => {}
            (true, false) => self.push(kind::RuleTightened, &s.id, format!(
                    "rule `{}` tightened ({what}): old clients may send requests new servers reject; old servers accept everything new clients send",
                    s.id
                ), at),
            (false, true) => self.push(kind::RuleRelaxed, &s.id, format!(
                    "rule `{}` relaxed ({what}): new servers accept everything old clients send; new clients may send requests old servers reject",
                    s.id
                ), at),
            (false, false) => self.push(kind::RuleChanged, &s.id, format!(
                    "rule `{}` changed ({what}): neither version accepts everything the other does (or it cannot be decided), so each side may reject what the other sends",
                    s.id
                ), at),
        }
        if r.id != s.id && (tightened && relaxed) {
            self.push(
                kind::RuleRenamed,
                &s.id,
                format!("rule `{}` is now `{}` with the same check", r.id, s.id),
                at,
            );
        }
        if let Some(parts) = changed_parts(&[
            ("doc", r.doc != s.doc),
            ("provenance", r.provenance != s.provenance),
        ]) {
            self.push(
                kind::RuleDocChanged,
                &s.id,
                format!(
                    "the {parts} of rule `{}` changed (the doc is the reason a violation gives)",
                    s.id
                ),
                at,
            );
        }
    }
}
