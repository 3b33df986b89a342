//! The checks of one input's own rules, a parameter or a field of the body alike: missing,
//! repeated, empty, not of its type (parameters; a body's are its shape's), at and beyond its
//! bounds, each value of its set and one outside, a text its pattern matches and one it does
//! not, a format violation.

use super::values::candidates;
use super::{Draft, Expect, Probe};
use mrds_spec::model::{Endpoint, Input, ListForm, ListStyle, Place, ValueCheck, ValueType};

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
    if let Some(form) = i.list {
        return list_probes(e, i, form, base);
    }
    value_probes(e, i, base, &i.name(), &|v: &str| vec![v.to_owned()])
}

/// The probes of a list parameter: missing, no item, too few and too many items, the most
/// items it takes, a bad item among good ones (named by its index); then each probe of its
/// item type as a list of one item.
fn list_probes<'m>(
    e: &Endpoint,
    i: &Input<'_>,
    form: &ListForm,
    base: &Draft<'m>,
) -> Vec<(String, Draft<'m>, Expect)> {
    let name = i.name();
    let rejected = |field: String, check: ValueCheck| Expect::Rejected {
        field,
        rule: e.value_rule(&name, check),
    };
    let accepted = || Expect::Accepted {
        param: name.clone(),
    };
    // The values a request gives the list for these items: one text, or one per item.
    let sent = |items: &[&str]| -> Vec<String> {
        match form.style {
            ListStyle::Comma if items.is_empty() => Vec::new(),
            ListStyle::Comma => vec![items.join(",")],
            ListStyle::Repeated => items.iter().map(|s| s.to_string()).collect(),
        }
    };
    let mut out: Vec<(String, Draft<'m>, Expect)> = Vec::new();
    let mut probe = |probe: &str, values: Vec<String>, expect: Expect| {
        let values: Vec<&str> = values.iter().map(String::as_str).collect();
        out.push((probe.to_string(), base.with(i.operand, &values), expect));
    };
    let none = || match i.required {
        true => rejected(name.clone(), ValueCheck::Required),
        false => accepted(),
    };
    probe("missing", Vec::new(), none());
    if form.style == ListStyle::Comma {
        probe("no_item", vec![String::new()], none());
    }
    let Some(valid) = candidates(i.ty, None, None).into_iter().next() else {
        return out;
    };
    let items = |n: i64| vec![valid.as_str(); usize::try_from(n).unwrap_or(0)];
    // Counts worth sending (a URL of a few thousand items is a probe of the server's limits).
    const MOST: i64 = 200;
    let within = |n: i64| mrds_runtime::holds::in_range(n, form.min_items, form.max_items);
    if form.style == ListStyle::Comma {
        probe(
            "repeated",
            vec![valid.clone(), valid.clone()],
            rejected(name.clone(), ValueCheck::Repeated),
        );
    }
    let two = sent(&items(2));
    probe(
        "two_items",
        two,
        if within(2) {
            accepted()
        } else {
            rejected(name.clone(), ValueCheck::Items)
        },
    );
    if let Some(min) = form.min_items.filter(|n| *n >= 2 && *n <= MOST) {
        probe("at_min_items", sent(&items(min)), accepted());
        probe(
            "too_few_items",
            sent(&items(min - 1)),
            rejected(name.clone(), ValueCheck::Items),
        );
    }
    if let Some(max) = form.max_items.filter(|n| *n < MOST) {
        probe("at_max_items", sent(&items(max)), accepted());
        probe(
            "too_many_items",
            sent(&items(max + 1)),
            rejected(name.clone(), ValueCheck::Items),
        );
    }
    if let Some((bad, check)) = bad_item(i.ty) {
        let field = format!("{name}[1]");
        probe(
            "bad_item",
            sent(&[valid.as_str(), bad.as_str()]),
            rejected(field, check),
        );
    }
    if form.style == ListStyle::Comma && matches!(i.ty, ValueType::String(_)) {
        let field = format!("{name}[1]");
        let with_empty = vec![format!("{valid},,{valid}")];
        probe("empty_item", with_empty, rejected(field, ValueCheck::Type));
    }
    // Each probe of the item type as the first item of a list of the fewest items it takes,
    // the others valid.
    let fewest = usize::try_from(form.min_items.unwrap_or(1).clamp(1, MOST)).unwrap_or(1);
    let one = |v: &str| {
        let mut items = vec![v];
        items.resize(fewest, valid.as_str());
        sent(&items)
    };
    out.extend(value_probes(e, i, base, &format!("{name}[0]"), &one));
    out
}

/// A value of type `ty` its own checks refuse, and the check that refuses it.
fn bad_item(ty: &ValueType) -> Option<(String, ValueCheck)> {
    match ty {
        ValueType::Integer(_) => Some(("12x".into(), ValueCheck::Type)),
        ValueType::Boolean => Some(("yes".into(), ValueCheck::Type)),
        ValueType::Enum(_) => Some(("not-a-value".into(), ValueCheck::Values)),
        ValueType::String(t) => match (&t.pattern, t.format) {
            (Some(p), _) => p
                .counterexample_where(mrds_runtime::holds::comma_item)
                .map(|bad| (bad, ValueCheck::Pattern)),
            (None, Some(f)) => Some((f.info().counterexample.to_owned(), ValueCheck::Format)),
            (None, None) => None,
        },
    }
}

/// The probes of one value of input `i`'s type (the input itself, or an item of a list):
/// issues name `field`, and `sent` makes the values a request gives the input for one value.
fn value_probes<'m>(
    e: &Endpoint,
    i: &Input<'_>,
    base: &Draft<'m>,
    field: &str,
    sent: &dyn Fn(&str) -> Vec<String>,
) -> Vec<(String, Draft<'m>, Expect)> {
    let name = i.name();
    let rejected = |check: ValueCheck| Expect::Rejected {
        field: field.to_owned(),
        rule: e.value_rule(&name, check),
    };
    let accepted = || Expect::Accepted {
        param: name.clone(),
    };
    let is_query = i.place == Place::Query && i.list.is_none();
    let mut out: Vec<(String, Draft<'m>, Expect)> = Vec::new();
    let mut probe = |probe: &str, values: &[&str], expect: Expect| {
        let values: Vec<String> = values.iter().flat_map(|v| sent(v)).collect();
        let values: Vec<&str> = values.iter().map(String::as_str).collect();
        out.push((probe.to_string(), base.with(i.operand, &values), expect));
    };
    // The sample request's value first (of a single value; a list's is several).
    let given = base.value(i.operand).filter(|_| i.list.is_none());
    let valid = candidates(i.ty, i.default, given.as_deref())
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
                probe(
                    &format!("value_{}", mrds_runtime::text::name_part(v)),
                    &[v],
                    accepted(),
                );
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
                // An empty path segment names another route, not a value; an empty item of
                // a comma list is no item (`empty_item` probes it), and one holding a comma
                // two items.
                let comma = i.list.is_some_and(|f| f.style == ListStyle::Comma);
                let bad = match (i.place, comma) {
                    (_, true) => pattern.counterexample_where(mrds_runtime::holds::comma_item),
                    (Place::Path, _) => pattern.counterexample_where(|t| !t.is_empty()),
                    _ => pattern.counterexample(),
                };
                if let Some(bad) = bad {
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
            // Text the input takes as it comes: a value with characters a path escapes.
            if t.pattern.is_none() && t.format.is_none() && i.place == Place::Path {
                probe("any_text", &["contract value-1.2"], accepted());
            }
        }
    }
    out
}
