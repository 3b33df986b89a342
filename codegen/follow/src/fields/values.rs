//! Values outside a value set (the error codes included): the values added to the set, or
//! the codes to `error_codes` beside those of their status.

use std::collections::BTreeSet;

use mrds_runtime::drift::MAX_EXAMPLES;

use mrds_diff::ChangeKind;
use mrds_spec::model::ValueType;
use mrds_spec::naming;
use mrds_spec::yaml::Node;

use super::seen_in;
use crate::cx::Cx;
use crate::splice::{items, value};
use crate::{Edit, Group, Item, plural, scalar};

pub(crate) fn unknown_values(
    cx: &Cx<'_>,
    group: &Group,
    record: &str,
    field: &str,
    value_set: &str,
) -> Item {
    let api = cx.api;
    let values: Vec<String> = group
        .examples
        .iter()
        .filter_map(|e| serde_json::from_str::<String>(e).ok())
        .collect();
    let more = if group.examples.len() >= MAX_EXAMPLES {
        format!("\n   (the first {MAX_EXAMPLES} values seen; there may be more)")
    } else {
        String::new()
    };
    if value_set == "ErrorCode" {
        let known: BTreeSet<&str> = api.error_codes.iter().map(|c| c.code.as_str()).collect();
        let new: Vec<&String> = values
            .iter()
            .filter(|v| !known.contains(v.as_str()))
            .collect();
        if new.is_empty() {
            return Item::Note("new error codes: the spec describes them now".into());
        }
        let names: Vec<String> = new.iter().map(|v| format!("`{v}`")).collect();
        let status = group.evidence.status;
        // Beside the codes of its status when the spec has some (after them, in their file:
        // the first declared of a status answers it, and keeps answering it), else in the
        // first file holding error codes.
        let of_status = |codes: &Node| {
            items(codes).iter().any(|c| {
                value(c, "status")
                    .and_then(Node::as_scalar)
                    .is_some_and(|s| Some(s) == status.map(|n| n.to_string()).as_deref())
            })
        };
        let found = (cx.files.iter())
            .filter_map(|f| f.at(&["error_codes"]).map(|n| (f, n)))
            .find(|(_, codes)| of_status(codes))
            .or_else(|| cx.find(&["error_codes"]));
        let Some((file, codes)) = found else {
            return Item::Note(
                "new error codes, but the spec's `error_codes` are not found".into(),
            );
        };
        let mut change = Vec::new();
        let mut splices = Vec::new();
        for code in &new {
            let entries: Vec<(&str, String)> = match status {
                Some(status) => vec![
                    ("code", scalar(code)),
                    ("status", status.to_string()),
                    ("assumed", scalar(&seen_in(group))),
                    (
                        "doc",
                        scalar(&format!(
                            "Not in the interface description: the service answered it with status {status}."
                        )),
                    ),
                ],
                None => vec![("code", scalar(code)), ("status", "TODO".into())],
            };
            let shown: Vec<String> = entries.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            change.push(format!("- {{ {} }}", shown.join(", ")));
            if let Some(status) = status {
                // Ordered by status: after the last code of a status not above it.
                let after = items(codes).iter().rposition(|c| {
                    value(c, "status")
                        .and_then(Node::as_scalar)
                        .and_then(|s| s.parse::<u16>().ok())
                        .is_some_and(|s| s <= status)
                });
                splices.push(file.insert_item(codes, Some(after.unwrap_or(usize::MAX)), &entries));
            }
        }
        if status.is_none() {
            change.push(
                "# the findings do not give the status it came with (written by hand)".into(),
            );
        }
        return Item::Edit(Edit {
            splices,
            subjects: new.iter().map(|c| c.to_string()).collect(),
            ..Edit::new(
                format!(
                    "error code{} {} {} new{more}",
                    plural(new.len()),
                    names.join(", "),
                    if new.len() == 1 { "is" } else { "are" }
                ),
                vec![ChangeKind::ErrorCodeAdded],
                format!(
                    "{}: add to `error_codes` (ordered by status):",
                    cx.line(file, codes)
                ),
                change,
            )
        });
    }
    let Some(set) = api.value_sets.iter().find(|s| s.spec_name == value_set) else {
        return Item::Note(format!(
            "value set `{value_set}` (field `{field}` of `{record}`) gains values, but the spec has no value set `{value_set}`"
        ));
    };
    let new: Vec<&String> = values
        .iter()
        .filter(|v| !set.values.iter().any(|known| &known.wire == *v))
        .collect();
    if new.is_empty() {
        return Item::Note(format!(
            "value set `{value_set}` gains values: the spec describes them now"
        ));
    }
    let Some((file, list)) = cx.find(&["value_sets", value_set, "values"]) else {
        return Item::Note(format!(
            "value set `{value_set}` gains values, but its values are not found in the spec's files"
        ));
    };
    let names: Vec<String> = new.iter().map(|v| format!("`{v}`")).collect();
    let parameters = api.endpoints.iter().any(|e| {
        e.params
            .iter()
            .any(|p| matches!(&p.ty, ValueType::Enum(t) if t.set == set.id))
    });
    let mut taken: BTreeSet<String> = set.values.iter().map(|v| v.ident.clone()).collect();
    let mut change = Vec::new();
    let mut splices = Vec::new();
    for v in &new {
        let mut entries: Vec<(&str, String)> = vec![("value", scalar(v))];
        if naming::variant_name(v, None).is_err() {
            let name = naming::free_variant_name(v, &taken);
            taken.insert(name.clone());
            entries.push(("rust", name));
        }
        let shown: Vec<String> = entries.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        change.push(format!("- {{ {} }}", shown.join(", ")));
        splices.push(file.append_item(list, &entries));
    }
    if parameters {
        change.push(format!(
            "# `{value_set}` is a parameter's type too: old servers refuse the new values in requests \
             (breaking for servers: the history row below names it)"
        ));
    }
    Item::Edit(Edit {
        splices,
        subjects: new.iter().map(|v| format!("{value_set}.{v}")).collect(),
        ..Edit::new(
            format!(
                "value set `{value_set}` gains {} (field `{field}` of `{record}`){more}",
                names.join(", ")
            ),
            vec![ChangeKind::ValueSetValueAdded],
            format!(
                "{}: add to the values of `{value_set}`:",
                cx.line(file, list)
            ),
            change,
        )
    })
}
