//! A refusal the spec does not explain (`rule.looser` naming no rule of the spec) becomes a
//! rule inferred from the evidence: a range of two time parameters longer than the service
//! takes is a `max_span` (or tightens the one the spec has), a parameter's values past what the
//! service takes its `max` or `min`; the endpoint's example request is brought along.

use mrds_runtime::drift::Evidence;

use mrds_diff::ChangeKind;
use mrds_spec::model::{Endpoint, Operand, Requirement, ValueType};

use super::bounds::{
    duration, extent_text, span_example, span_unit, time_param, upper_bound, with_param,
};
use super::cx::Cx;
use super::splice::{Splice, value};
use super::{Edit, Group, Item, plural, scalar};

/// A refusal the spec does not explain: a rule inferred from the evidence (a range of two
/// time parameters longer than the service takes: `max_span`; a parameter's values past what
/// it takes: its `max` or `min`), or a note when the evidence shows none.
pub(super) fn new_rule(
    cx: &Cx<'_>,
    e: &Endpoint,
    group: &Group,
    named: Option<&str>,
    status: u16,
    reason: Option<&str>,
) -> Item {
    let evidence = &group.evidence;
    let because = reason.map(|r| format!(": {r}")).unwrap_or_default();
    let headline = format!(
        "the service refused requests the spec accepts ({status}{because}): a rule the spec does not have{}",
        named
            .map(|r| format!(" (the service names `{r}`)"))
            .unwrap_or_default()
    );
    // A span of two time parameters longer in every refused request than in any accepted one.
    let span = evidence.refused.iter().find_map(|(key, refused)| {
        let (from, to) = key.split_once("..")?;
        let (from_id, from_date) = time_param(e, from)?;
        let (to_id, to_date) = time_param(e, to)?;
        let accepted = evidence.accepted.get(key).copied();
        (refused.min > 0 && accepted.is_none_or(|a| a.max < refused.min)).then_some((
            key.clone(),
            from_id,
            to_id,
            from_date && to_date,
            *refused,
            accepted,
        ))
    });
    if let Some((key, from, to, date, refused, accepted)) = span {
        let unit = span_unit(date, refused);
        let seconds = upper_bound(accepted, refused, reason, unit, true);
        // A rule bounding that span already: tightened rather than doubled.
        let existing = e.rules.iter().find(|r| {
            matches!(r.requirement, Requirement::MaxSpan { from: f, to: t, .. }
                if f == Operand::Param(from) && t == Operand::Param(to))
        });
        if let Some(r) = existing {
            let Some((file, item)) = cx.rule(&e.id, &r.id) else {
                return Item::Note(format!(
                    "{headline}; rule `{}` is not found in the spec's files",
                    r.id
                ));
            };
            let Some(node) = value(item, "max_span").and_then(|m| value(m, "seconds")) else {
                return Item::Note(format!(
                    "{headline}; the `seconds` of `{}` are not found",
                    r.id
                ));
            };
            let mut splices = vec![file.replace(node, &seconds.to_string())];
            let mut brings = Vec::new();
            span_example(cx, e, &key, seconds, &mut splices, &mut brings);
            return Item::Edit(Edit {
                splices,
                brings,
                subjects: vec![r.id.clone()],
                ..Edit::new(
                    headline,
                    vec![ChangeKind::RuleTightened],
                    format!(
                        "{}: tighten rule `{}` to the ranges the service accepts ({}; it refused {}):",
                        cx.line(file, item),
                        r.id,
                        duration(seconds),
                        duration(refused.min)
                    ),
                    vec![format!("max_span: {{ ..., seconds: {seconds} }}")],
                )
            });
        }
        let id = rule_id(e, named, "max_span");
        let (from, to) = (&e.param(from).wire, &e.param(to).wire);
        let doc = match reason {
            Some(r) => {
                let r = r.trim_end_matches('.');
                let mut c = r.chars();
                let first = c.next().map(|f| f.to_uppercase().collect::<String>());
                format!("{}{}.", first.unwrap_or_default(), c.as_str())
            }
            None => format!(
                "The range from {from} to {to} spans at most {}.",
                duration(seconds)
            ),
        };
        let assumed = format!(
            "Not in the interface description: inferred from {} refused request{} (the shortest range refused: {}){}.",
            group.count,
            plural(group.count as usize),
            duration(refused.min),
            accepted.map_or(String::new(), |a| format!(
                " and the accepted ones (the longest: {})",
                duration(a.max)
            ))
        );
        let entries: Vec<(&str, String)> = vec![
            ("id", id.clone()),
            ("assumed", scalar(&assumed)),
            ("doc", scalar(&doc)),
            (
                "max_span",
                format!("{{ from: {from}, to: {to}, seconds: {seconds} }}"),
            ),
        ];
        let Some((file, endpoint)) = cx.endpoint(&e.id) else {
            return Item::Note(format!(
                "{headline}; the endpoint is not found in the spec's files"
            ));
        };
        let mut splices = vec![add_rule(file, endpoint, &entries)];
        let mut brings = Vec::new();
        span_example(cx, e, &key, seconds, &mut splices, &mut brings);
        let change = entries
            .iter()
            .enumerate()
            .map(|(i, (k, v))| format!("{}{k}: {v}", if i == 0 { "- " } else { "  " }))
            .collect();
        return Item::Edit(Edit {
            splices,
            brings,
            subjects: vec![id.clone()],
            ..Edit::new(
                headline,
                vec![ChangeKind::RuleAdded],
                format!(
                    "{}: add a rule to the endpoint's `rules`:",
                    cx.line(file, endpoint)
                ),
                change,
            )
        });
    }
    // A parameter whose refused values all lie past the accepted ones.
    let params: Vec<String> = evidence
        .refused
        .keys()
        .filter(|k| !k.contains(".."))
        .cloned()
        .collect();
    for name in params {
        if let Some(item) = param_bound(cx, e, &name, evidence, reason, &headline) {
            return item;
        }
    }
    Item::Note(format!(
        "{headline}; the findings show no range or value it refuses, so no rule is inferred: \
         add one by hand if the requests below share what the service refused"
    ))
}

/// The id of a new rule of `e`: the service's when it is one of `e`'s, else
/// `<endpoint>.<name>` (numbered when taken).
pub(super) fn rule_id(e: &Endpoint, named: Option<&str>, name: &str) -> String {
    if let Some(id) = named.filter(|id| {
        id.strip_prefix(e.id.as_str())
            .and_then(|r| r.strip_prefix('.'))
            .is_some_and(|r| {
                !r.is_empty()
                    && r.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            })
    }) {
        return id.to_string();
    }
    let mut id = format!("{}.{name}", e.id);
    let mut n = 2;
    while e.rules.iter().any(|r| r.id == id) {
        id = format!("{}.{name}_{n}", e.id);
        n += 1;
    }
    id
}

/// Adds a rule (its entries) to the endpoint's `rules`, or the key with it.
pub(super) fn add_rule(
    file: &super::splice::File,
    endpoint: &mrds_spec::yaml::Node,
    entries: &[(&str, String)],
) -> Splice {
    match value(endpoint, "rules") {
        Some(rules) if !super::splice::items(rules).is_empty() => file.append_item(rules, entries),
        _ => {
            let indent = endpoint.span.column as usize - 1;
            let mut text = String::new();
            for (i, (k, v)) in entries.iter().enumerate() {
                let lead = if i == 0 { "- " } else { "  " };
                text.push_str(&format!("\n{}{lead}{k}: {v}", " ".repeat(indent + 2)));
            }
            match value(endpoint, "rules") {
                Some(empty) => file.replace(empty, text.trim_start_matches('\n')),
                None => file.insert_entry(endpoint, &["params", "returns"], "rules", &text),
            }
        }
    }
}

/// A bound of parameter `name` of `e` from what the service refused and accepted: its `max`
/// (or `min`) set, the example request brought along.
pub(super) fn param_bound(
    cx: &Cx<'_>,
    e: &Endpoint,
    name: &str,
    evidence: &Evidence,
    reason: Option<&str>,
    headline: &str,
) -> Option<Item> {
    let p = e.param_named(name)?;
    let ValueType::Integer(t) = &p.ty else {
        return None;
    };
    let refused = *evidence.refused.get(name)?;
    let accepted = evidence.accepted.get(name).copied();
    let above = accepted.is_none_or(|a| a.max < refused.min);
    let below = accepted.is_some_and(|a| refused.max < a.min);
    let (key, bound) = if above {
        let b = upper_bound(accepted, refused, reason, 1, false);
        (t.max.is_none_or(|m| b < m).then_some("max")?, b)
    } else if below {
        let b = refused.max + 1;
        (t.min.is_none_or(|m| b > m).then_some("min")?, b)
    } else {
        return None;
    };
    let (file, item) = cx.param(&e.id, name)?;
    let mut splices =
        vec![file.set_entry(item, &["min", "format", "type"], key, &bound.to_string())];
    let mut brings = Vec::new();
    if let Some((sfile, samples)) = cx.samples(&e.id)
        && let Some(example) = value(samples, "example")
        && let Some(text) = example.as_scalar()
    {
        let fixed = with_param(text, name, |v| {
            let v: i64 = v.parse().ok()?;
            let past = if key == "max" { v > bound } else { v < bound };
            past.then(|| bound.to_string())
        });
        if let Some(fixed) = fixed {
            splices.push(sfile.replace(example, &scalar(&fixed)));
            brings.push(format!(
                "the example request of `{}`, its `{name}` within the new bound",
                e.id
            ));
        }
    }
    Some(Item::Edit(Edit {
        splices,
        brings,
        subjects: vec![format!("{}.{name}", e.id)],
        ..Edit::new(
            headline.to_string(),
            vec![ChangeKind::ParamRangeNarrowed],
            format!(
                "{}: bound `{name}` as the service does (it refused {}{}):",
                cx.line(file, item),
                extent_text(refused),
                accepted.map_or(String::new(), |a| format!(", accepted {}", extent_text(a)))
            ),
            vec![format!("{key}: {bound}")],
        )
    }))
}
