//! The items of what answers hold: fields the spec does not declare, values outside a value
//! set, required fields arriving `null` or missing, values of another type or out of their
//! format, whole numbers written as decimals and integers past 64 bits. Each is an edit of the
//! field (written in place, bringing the samples along) or a note when the spec describes it
//! already, names what the spec does not have, or should not change.

use std::collections::BTreeSet;

use mrds_runtime::drift::JsonKind;

use mrds_diff::ChangeKind;
use mrds_spec::model::Field;
use mrds_spec::naming;

use super::cx::Cx;
use super::formats::fitting_format;
use super::{Edit, Group, Item, plural, scalar};

mod nested;
mod types;
mod values;

pub(crate) use types::{not_required, out_of_range, whole_numbers, wrong_format, wrong_type};
pub(crate) use values::unknown_values;

/// The fields of `record` (`envelope` for the envelope) in the model.
fn model_fields<'a>(cx: &'a Cx<'_>, record: &str) -> Option<&'a [Field]> {
    if record == "envelope" {
        return Some(&cx.api.envelope.fields);
    }
    Some(
        &cx.api
            .records
            .iter()
            .find(|r| r.spec_name == record)?
            .fields,
    )
}

fn whose(record: &str) -> String {
    if record == "envelope" {
        "the envelope".into()
    } else {
        format!("record `{record}`")
    }
}

/// `` `PITDividend` ``, or `the envelope`, after "field `x` of".
fn of(record: &str) -> String {
    if record == "envelope" {
        "the envelope".into()
    } else {
        format!("`{record}`")
    }
}

/// `seen in 41 answers`: the `assumed:` reason of what the edits take from the answers.
fn seen_in(group: &Group) -> String {
    format!(
        "seen {} time{} in the service's answers; not in the interface description",
        group.count,
        plural(group.count as usize)
    )
}

pub(super) fn undeclared(cx: &Cx<'_>, group: &Group, record: &str, field: &str) -> Item {
    let Some(fields) = model_fields(cx, record) else {
        return Item::Note(format!(
            "{} gains field `{field}`, but the spec has no record `{record}` (findings of another version of the spec?)",
            whose(record)
        ));
    };
    if fields.iter().any(|f| f.wire == field) {
        return Item::Note(format!(
            "{} gains field `{field}`: the spec describes it now",
            whose(record)
        ));
    }
    let (ty, array, format) = infer(&group.examples);
    // Objects (or arrays of them): a record of its own, with its nested ones.
    let nested = (ty == "any")
        .then(|| nested::record(cx, group, record, field))
        .flatten();
    let (ty, array) = match &nested {
        Some(n) => (n.name.as_str(), n.array),
        None => (ty, array),
    };
    let mut entries: Vec<(&str, String)> = vec![("name", scalar(field)), ("type", ty.into())];
    if array {
        entries.push(("array", "true".into()));
    }
    if let Some(format) = format {
        entries.push(("format", format.into()));
    }
    entries.push(("optional", "true".into()));
    entries.push(("assumed", scalar(&seen_in(group))));
    entries.push((
        "doc",
        scalar("Not in the interface description: seen in the service's answers."),
    ));
    let shown: Vec<String> = entries.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    let mut change = vec![format!("- {{ {} }}", shown.join(", "))];
    let Some((file, list)) = cx.record_fields(record) else {
        return Item::Note(format!(
            "{} gains field `{field}`: its fields are not found in the spec's files",
            whose(record)
        ));
    };
    let mut splices = vec![file.append_item(list, &entries)];
    if let Some(n) = &nested {
        change.push(format!(
            "# and the record{} it holds, after `{}`: {}",
            plural(n.names.len()),
            n.after,
            n.names.join(", ")
        ));
        splices.push(n.splice.clone());
    }
    if let Err(problem) = naming::field_name(field) {
        change.push(format!(
            "# {problem}: rename it in Rust with the generator's rules (written by hand)"
        ));
        splices.clear();
    }
    if ty == "any" && !group.examples.is_empty() {
        change.push(
            "# the examples do not say one type: `any`, or a record of its own if it is an object"
                .into(),
        );
    }
    Item::Edit(Edit {
        splices,
        subjects: vec![format!("{record}.{field}")],
        ..Edit::new(
            format!("{} gains optional field `{field}`", whose(record)),
            vec![ChangeKind::FieldAddedOptional],
            format!("{}: add to the fields of `{record}`:", cx.line(file, list)),
            change,
        )
    })
}

/// The type, array flag and format a new field's examples suggest.
pub(super) fn infer(examples: &[String]) -> (&'static str, bool, Option<&'static str>) {
    let values: Vec<Option<serde_json::Value>> = examples
        .iter()
        .map(|e| serde_json::from_str(e).ok())
        .collect();
    // A cut example (it ends in `…`) still shows its start.
    let kind = |text: &str, v: &Option<serde_json::Value>| -> Option<JsonKind> {
        Some(match v {
            Some(serde_json::Value::Null) => JsonKind::Null,
            Some(serde_json::Value::Bool(_)) => JsonKind::Boolean,
            Some(serde_json::Value::Number(n)) if n.is_i64() || n.is_u64() => JsonKind::Integer,
            Some(serde_json::Value::Number(_)) => JsonKind::Number,
            Some(serde_json::Value::String(_)) => JsonKind::String,
            Some(serde_json::Value::Array(_)) => JsonKind::Array,
            Some(serde_json::Value::Object(_)) => JsonKind::Object,
            None if text.starts_with('"') => JsonKind::String,
            None if text.starts_with('[') => JsonKind::Array,
            None if text.starts_with('{') => JsonKind::Object,
            None => return None,
        })
    };
    let kinds: BTreeSet<JsonKind> = examples
        .iter()
        .zip(&values)
        .filter_map(|(t, v)| kind(t, v))
        .filter(|k| *k != JsonKind::Null)
        .collect();
    let one = |kinds: &BTreeSet<JsonKind>| -> &'static str {
        match kinds.iter().copied().collect::<Vec<_>>().as_slice() {
            [JsonKind::String] => "string",
            [JsonKind::Integer] => "integer",
            [JsonKind::Integer, JsonKind::Number] | [JsonKind::Number] => "number",
            [JsonKind::Boolean] => "boolean",
            _ => "any",
        }
    };
    if kinds.len() == 1 && kinds.contains(&JsonKind::Array) {
        let elements: BTreeSet<JsonKind> = values
            .iter()
            .flatten()
            .filter_map(|v| v.as_array())
            .flatten()
            .filter_map(|e| kind("", &Some(e.clone())))
            .collect();
        return (one(&elements), true, None);
    }
    let ty = one(&kinds);
    let texts: Vec<&str> = values.iter().flatten().filter_map(|v| v.as_str()).collect();
    let format = (ty == "string" && !texts.is_empty() && texts.len() == examples.len())
        .then(|| fitting_format(&texts).map(mrds_runtime::Format::name))
        .flatten();
    (ty, false, format)
}
