//! The items of requests: a rule of the spec stricter than the service (`rule.stricter`) and
//! a refusal the spec does not explain (`rule.looser`). Each edit is complete YAML with the
//! values the traffic shows ([`Evidence`]: the largest value accepted, the smallest refused,
//! the spans of the refused ranges, the service's reason), and brings the endpoint's example
//! request along when the edit would refuse it. What the spec judges as the service does now
//! (its example requests accepted, or refused, by the spec as it is) is a note.

use mrds_runtime::text::percent_decode;

use mrds_diff::ChangeKind;
use mrds_spec::model::{
    Api, Endpoint, Literal, Operand, ParamId, Place, Problem, Requirement, Segment, ValueCheck,
    ValueType,
};

use super::bounds::{
    duration, extent_of, extent_text, span_example, span_unit, time_param, upper_bound,
};
use super::cx::Cx;
use super::new_rule::{new_rule, param_bound};
use super::splice::value;
use super::{Edit, Group, Item, scalar};

/// What a rule id names in the spec.
enum Site<'a> {
    /// One of an endpoint's rules.
    Rule(&'a Endpoint, &'a mrds_spec::model::Rule),
    /// One of an input's own checks (`bars.limit.range`).
    Own {
        endpoint: &'a Endpoint,
        name: String,
        place: Place,
        check: ValueCheck,
    },
}

fn site<'a>(api: &'a Api, rule: &str) -> Option<Site<'a>> {
    for e in &api.endpoints {
        if let Some(r) = e.rules.iter().find(|r| r.id == rule) {
            return Some(Site::Rule(e, r));
        }
        let Some((name, check)) = rule
            .strip_prefix(e.id.as_str())
            .and_then(|r| r.strip_prefix('.'))
            .and_then(|r| r.rsplit_once('.'))
        else {
            continue;
        };
        let Some(check) = ValueCheck::ALL.into_iter().find(|c| c.as_str() == check) else {
            continue;
        };
        let Some(input) = api.inputs(e).named(name) else {
            continue;
        };
        return Some(Site::Own {
            endpoint: e,
            name: name.to_string(),
            place: input.place,
            check,
        });
    }
    None
}

/// The parameters of an example request (`GET /v1/...?a=1`) of `e`: path parameters from
/// its path, query parameters by name, each decoded; `None` when it is not a request of `e`.
fn example_params(e: &Endpoint, example: &str) -> Option<Vec<(ParamId, String)>> {
    let target = example.split_once(' ').map_or(example, |(_, t)| t);
    let target = target.trim_end_matches('…');
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    if segments.len() != e.path.segments.len() {
        return None;
    }
    let mut out = Vec::new();
    for (s, given) in e.path.segments.iter().zip(&segments) {
        match s {
            Segment::Literal(text) if text != given => return None,
            Segment::Literal(_) => {}
            Segment::Param { param, .. } => out.push((*param, percent_decode(given))),
        }
    }
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, v) = pair.split_once('=').unwrap_or((pair, ""));
        if let Some(p) = e.param_named(&percent_decode(name)) {
            out.push((p.id, percent_decode(v)));
        }
    }
    Some(out)
}

/// The spec's judgement of each example request of `e` that is one (`None` for those that
/// are not, or cut): the problems it has.
fn judged(api: &Api, e: &Endpoint, examples: &[String]) -> Vec<Vec<Problem>> {
    let body = e.body.as_ref().map(|b| api.record(b.record));
    examples
        .iter()
        .filter(|x| !x.ends_with('…'))
        .filter_map(|x| example_params(e, x))
        .map(|params| e.problems(body, &params, None))
        .collect()
}

/// The values of parameter `name` in the example requests.
pub(super) fn example_values(examples: &[String], name: &str) -> Vec<String> {
    examples
        .iter()
        .filter_map(|x| x.split_once('?').map(|(_, q)| q))
        .flat_map(|q| q.split('&'))
        .filter_map(|pair| pair.split_once('='))
        .filter(|(n, _)| percent_decode(n) == name)
        .map(|(_, v)| percent_decode(v))
        .collect()
}

pub(super) fn stricter(cx: &Cx<'_>, group: &Group, rule: &str, status: u16) -> Item {
    let api = cx.api;
    let Some(site) = site(api, rule) else {
        return Item::Note(format!(
            "rule `{rule}` is stricter than the service (it answered {status} to requests the rule refuses), but the spec has no rule `{rule}` now"
        ));
    };
    let endpoint = match &site {
        Site::Rule(e, _) => *e,
        Site::Own { endpoint, .. } => *endpoint,
    };
    let verdicts = judged(api, endpoint, &group.examples);
    if !verdicts.is_empty() && verdicts.iter().all(|p| p.iter().all(|p| p.rule != rule)) {
        return Item::Note(format!(
            "rule `{rule}` is stricter than the service: the spec accepts the requests the service accepted now"
        ));
    }
    let headline = format!(
        "rule `{rule}` is stricter than the service: the service answered {status} to requests the rule refuses"
    );
    let accepted = |key: &str| group.evidence.accepted.get(key).copied();
    match site {
        Site::Own {
            endpoint: e,
            name,
            place: Place::Query | Place::Path,
            check: ValueCheck::Range,
        } => {
            let Some(p) = e.param_named(&name) else {
                return Item::Note(format!("rule `{rule}`: no parameter `{name}` now"));
            };
            let ValueType::Integer(t) = &p.ty else {
                return Item::Note(format!("rule `{rule}`: `{name}` is not an integer now"));
            };
            let Some(seen) =
                accepted(&name).or_else(|| extent_of(&example_values(&group.examples, &name)))
            else {
                return Item::Note(format!(
                    "{headline}; the findings do not show the values it accepted"
                ));
            };
            if e.paging.as_ref().is_some_and(|pg| pg.limit == p.id)
                && let Some(max) = t.max
                && seen.max > max
            {
                match group.evidence.returned {
                    Some(n) if n > max as u64 => {}
                    Some(n) if n == max as u64 => {
                        return Item::Note(format!(
                            "`{name}` of `{}` is accepted up to {} by the service, which caps it: its answers held at most {n} records, the spec's `max: {max}`; the spec's maximum holds (no edit)",
                            e.id, seen.max
                        ));
                    }
                    returned => {
                        return Item::Note(format!(
                            "`{name}` of `{}` is accepted up to {} by the service, but its answers held {}: whether it honours a `{name}` past the spec's `max: {max}` or caps it is not shown (send a request that would return more than {max} records); no edit",
                            e.id,
                            seen.max,
                            returned
                                .map_or("no records".into(), |n| format!("at most {n} records"))
                        ));
                    }
                }
            }
            let Some((file, item)) = cx.param(&e.id, &name) else {
                return Item::Note(format!(
                    "{headline}; parameter `{name}` is not found in the spec's files"
                ));
            };
            let mut splices = Vec::new();
            let mut change = Vec::new();
            if t.max.is_some_and(|m| seen.max > m) {
                splices.push(file.set_entry(
                    item,
                    &["min", "format", "type"],
                    "max",
                    &seen.max.to_string(),
                ));
                change.push(format!("max: {}", seen.max));
            }
            if t.min.is_some_and(|m| seen.min < m) {
                splices.push(file.set_entry(
                    item,
                    &["format", "type"],
                    "min",
                    &seen.min.to_string(),
                ));
                change.push(format!("min: {}", seen.min));
            }
            if splices.is_empty() {
                return Item::Note(format!(
                    "{headline}; the values it accepted are within the spec's range"
                ));
            }
            Item::Edit(Edit {
                splices,
                subjects: vec![format!("{}.{name}", e.id)],
                ..Edit::new(
                    headline,
                    vec![ChangeKind::ParamRangeWidened],
                    format!(
                        "{}: widen the range of `{name}` to what the service accepted ({}):",
                        cx.line(file, item),
                        extent_text(seen)
                    ),
                    change,
                )
            })
        }
        Site::Own {
            endpoint: e,
            name,
            check: ValueCheck::Type,
            ..
        } if matches!(
            e.param_named(&name).map(|p| &p.ty),
            Some(ValueType::Integer(_))
        ) =>
        {
            let values = example_values(&group.examples, &name);
            let past = !values.is_empty()
                && values.iter().all(|v| {
                    v.trim_start_matches('-')
                        .bytes()
                        .all(|b| b.is_ascii_digit())
                        && v.parse::<i64>().is_err()
                });
            if past {
                Item::Note(format!(
                    "`{name}` of `{}` is accepted past the 64-bit range by the service ({}): no integer type holds such a value; no edit",
                    e.id,
                    values.join(", ")
                ))
            } else {
                Item::Note(format!(
                    "`{name}` of `{}` is accepted by the service with values that are not integers ({}): it reads them leniently or ignores them; no edit (a client never sends them)",
                    e.id,
                    values.join(", ")
                ))
            }
        }
        Site::Rule(e, r) => match &r.requirement {
            Requirement::MaxSpan { from, to, seconds } => {
                let key = span_key(api, e, *from, *to);
                let Some(seen) = accepted(&key).filter(|s| s.max > *seconds) else {
                    return Item::Note(format!(
                        "{headline}; the findings do not show a longer range accepted"
                    ));
                };
                let Some((file, item)) = cx.rule(&e.id, rule) else {
                    return Item::Note(format!(
                        "{headline}; the rule is not found in the spec's files"
                    ));
                };
                let Some(node) = value(item, "max_span").and_then(|m| value(m, "seconds")) else {
                    return Item::Note(format!(
                        "{headline}; its `seconds` are not found in the spec's files"
                    ));
                };
                Item::Edit(Edit {
                    splices: vec![file.replace(node, &seen.max.to_string())],
                    subjects: vec![rule.to_string()],
                    ..Edit::new(
                        headline,
                        vec![ChangeKind::RuleRelaxed],
                        format!(
                            "{}: relax the rule to the longest range the service accepted ({}):",
                            cx.line(file, item),
                            duration(seen.max)
                        ),
                        vec![format!("max_span: {{ ..., seconds: {} }}", seen.max)],
                    )
                })
            }
            Requirement::AllowedValues { param, values } => {
                let Operand::Param(id) = param else {
                    return Item::Note(format!(
                        "{headline}; (a body field's values: relax it by hand)"
                    ));
                };
                let name = &e.param(*id).wire;
                let known: Vec<String> = values.iter().map(literal_text).collect();
                let mut new: Vec<String> = example_values(&group.examples, name)
                    .into_iter()
                    .filter(|v| !known.contains(v))
                    .collect();
                new.dedup();
                let Some((file, item)) = cx.rule(&e.id, rule) else {
                    return Item::Note(format!(
                        "{headline}; the rule is not found in the spec's files"
                    ));
                };
                let Some(list) = value(item, "allowed_values").and_then(|m| value(m, "values"))
                else {
                    return Item::Note(format!(
                        "{headline}; its `values` are not found in the spec's files"
                    ));
                };
                if new.is_empty() {
                    return Item::Note(format!(
                        "{headline}; the findings do not show the values it accepted"
                    ));
                }
                let splices = new
                    .iter()
                    .map(|v| file.append_item(list, &[("", scalar(v))]))
                    .collect();
                Item::Edit(Edit {
                    splices,
                    subjects: vec![rule.to_string()],
                    ..Edit::new(
                        headline,
                        vec![ChangeKind::RuleRelaxed],
                        format!(
                            "{}: add what the service accepted to the rule's values:",
                            cx.line(file, item)
                        ),
                        vec![format!("values: [..., {}]", new.join(", "))],
                    )
                })
            }
            _ => Item::Note(format!(
                "{headline}: the service does not enforce it; keep it as a promise of the spec (mark it `assumed:`), or remove it by hand"
            )),
        },
        Site::Own { .. } => Item::Note(format!(
            "{headline}: the service does not enforce this check of the spec; keep it, or relax it by hand"
        )),
    }
}

/// `start_time..end_time`: the key of the spans between two inputs in [`Evidence`].
pub(super) fn span_key(api: &Api, e: &Endpoint, from: Operand, to: Operand) -> String {
    let inputs = api.inputs(e);
    let name = |op: Operand| inputs.get(op).map(|i| i.name()).unwrap_or_default();
    format!("{}..{}", name(from), name(to))
}

fn literal_text(l: &Literal) -> String {
    l.wire()
}

pub(super) fn looser(
    cx: &Cx<'_>,
    group: &Group,
    rule: Option<&str>,
    status: u16,
    reason: Option<&str>,
) -> Item {
    let api = cx.api;
    let because = reason.map(|r| format!(": {r}")).unwrap_or_default();
    let named = rule.and_then(|r| site(api, r).map(|s| (r, s)));
    let endpoint = match &named {
        Some((_, Site::Rule(e, _))) => Some(*e),
        Some((_, Site::Own { endpoint, .. })) => Some(*endpoint),
        None => api
            .endpoints
            .iter()
            .find(|e| group.endpoints.contains_key(&e.id)),
    };
    let Some(e) = endpoint else {
        return Item::Note(format!(
            "the service refused requests ({status}{because}), of an endpoint the spec does not have now"
        ));
    };
    let verdicts = judged(api, e, &group.examples);
    let refused_now = !verdicts.is_empty()
        && verdicts
            .iter()
            .all(|p| match rule.filter(|_| named.is_some()) {
                Some(rule) => p.iter().any(|p| p.rule == rule),
                None => !p.is_empty(),
            });
    if refused_now {
        return Item::Note(format!(
            "the service refused requests the spec accepted ({status}{because}): the spec refuses them now"
        ));
    }
    let evidence = &group.evidence;
    match named {
        Some((rule, Site::Rule(e, r))) => {
            let headline = format!(
                "rule `{rule}` is looser than the service: it refused requests the rule accepts ({status}{because})"
            );
            let Requirement::MaxSpan { from, to, .. } = &r.requirement else {
                return Item::Note(format!(
                    "{headline}; tighten it by hand, so that it refuses the requests below"
                ));
            };
            let key = span_key(api, e, *from, *to);
            let Some(refused) = evidence.refused.get(&key).copied() else {
                return Item::Note(format!(
                    "{headline}; the findings do not show the ranges it refused"
                ));
            };
            let date = key
                .split("..")
                .all(|n| time_param(e, n).is_some_and(|(_, d)| d));
            let unit = span_unit(date, refused);
            let seconds = upper_bound(
                evidence.accepted.get(&key).copied(),
                refused,
                reason,
                unit,
                true,
            );
            let Some((file, item)) = cx.rule(&e.id, rule) else {
                return Item::Note(format!(
                    "{headline}; the rule is not found in the spec's files"
                ));
            };
            let Some(node) = value(item, "max_span").and_then(|m| value(m, "seconds")) else {
                return Item::Note(format!("{headline}; its `seconds` are not found"));
            };
            let (names, _) = key.split_once("..").unwrap_or((&key, ""));
            let _ = names;
            let mut splices = vec![file.replace(node, &seconds.to_string())];
            let mut brings = Vec::new();
            span_example(cx, e, &key, seconds, &mut splices, &mut brings);
            Item::Edit(Edit {
                splices,
                brings,
                subjects: vec![rule.to_string()],
                ..Edit::new(
                    headline,
                    vec![ChangeKind::RuleTightened],
                    format!(
                        "{}: tighten the rule to the ranges the service accepts ({}; it refused {}):",
                        cx.line(file, item),
                        duration(seconds),
                        duration(refused.min)
                    ),
                    vec![format!("max_span: {{ ..., seconds: {seconds} }}")],
                )
            })
        }
        Some((
            rule,
            Site::Own {
                endpoint: e,
                name,
                check: ValueCheck::Range,
                place: Place::Query | Place::Path,
            },
        )) => {
            let headline = format!(
                "rule `{rule}` is looser than the service: it refused requests the rule accepts ({status}{because})"
            );
            match param_bound(cx, e, &name, evidence, reason, &headline) {
                Some(item) => item,
                None => Item::Note(format!(
                    "{headline}; the findings do not show the values it refused"
                )),
            }
        }
        Some((rule, _)) => Item::Note(format!(
            "rule `{rule}` is looser than the service: it refused requests the rule accepts ({status}{because}); tighten it by hand"
        )),
        None => new_rule(cx, e, group, rule, status, reason),
    }
}
