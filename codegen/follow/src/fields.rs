//! The items of what answers hold: fields the spec does not declare, values outside a value
//! set, required fields arriving `null` or missing, values of another type or out of their
//! format, whole numbers written as decimals and integers past 64 bits. Each is an edit of the
//! field (written in place, bringing the samples along) or a note when the spec describes it
//! already, names what the spec does not have, or should not change.

use std::collections::BTreeSet;

use mrds_runtime::Format;
use mrds_runtime::drift::{JsonKind, MAX_EXAMPLES};

use mrds_diff::ChangeKind;
use mrds_spec::model::{Field, TypeRef, ValueType};
use mrds_spec::naming;
use mrds_spec::yaml::{Node, NodeKind};

use super::cx::Cx;
use super::samples::{self, Convert};
use super::splice::{items, value};
use super::{Edit, Group, Item, plural, scalar};

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
        .then(|| fitting_format(&texts).map(Format::name))
        .flatten();
    (ty, false, format)
}

/// The first format (in the order a field's are preferred) every text fits.
pub(super) fn fitting_format(texts: &[&str]) -> Option<Format> {
    field_formats().find(|f| texts.iter().all(|t| f.holds_text(t)))
}

/// The text formats of fields, the most telling first (a date before a timestamp, a
/// timestamp before RFC 3339, which fields write as `timestamp`).
pub(super) fn field_formats() -> impl Iterator<Item = Format> {
    use mrds_runtime::TextFormat as T;
    [
        Format::Text(T::Date),
        Format::TimestampMillis,
        Format::DateTime,
        Format::Timestamp,
        Format::Text(T::Uuid),
        Format::Text(T::Hex16),
        Format::Url,
        Format::NumericText,
    ]
    .into_iter()
}

pub(super) fn unknown_values(
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

pub(super) fn not_required(cx: &Cx<'_>, record: &str, field: &str, how: &str) -> Item {
    let Some(fields) = model_fields(cx, record) else {
        return Item::Note(format!(
            "field `{field}` of `{record}` {how}, but the spec has no record `{record}`"
        ));
    };
    let Some(f) = fields.iter().find(|f| f.wire == field) else {
        return Item::Note(format!(
            "field `{field}` of `{record}` {how}, but the spec has no such field now"
        ));
    };
    if f.optional {
        return Item::Note(format!(
            "field `{field}` of `{record}` {how}: the spec makes it optional now"
        ));
    }
    if record == "envelope" && ["success", "request_id", "data"].contains(&field) {
        return Item::Note(format!(
            "field `{field}` of the envelope {how}: the generated code needs it (tell the provider)"
        ));
    }
    let Some((file, item)) = cx.field(record, field) else {
        return Item::Note(format!(
            "field `{field}` of `{record}` {how}: not found in the spec's files"
        ));
    };
    Item::Edit(Edit {
        splices: vec![file.insert_entry(item, &["array", "type"], "optional", "true")],
        subjects: vec![format!("{record}.{field}")],
        ..Edit::new(
            format!("field `{field}` of {} {how}: make it optional", of(record)),
            vec![ChangeKind::FieldNowOptional],
            format!("{}: add to the field `{field}`:", cx.line(file, item)),
            vec!["optional: true".to_string()],
        )
    })
}

/// Whether the spec's type of `f` takes a value of kind `got`.
fn takes(f: &Field, got: JsonKind) -> bool {
    if got == JsonKind::Array {
        return f.array || f.ty == TypeRef::Any;
    }
    if f.array {
        return false;
    }
    matches!(
        (&f.ty, got),
        (TypeRef::Any, _)
            | (
                TypeRef::String | TypeRef::ValueSet(_) | TypeRef::ErrorCode,
                JsonKind::String
            )
            | (TypeRef::Integer | TypeRef::Number, JsonKind::Integer)
            | (TypeRef::Number, JsonKind::Number)
            | (TypeRef::Boolean, JsonKind::Boolean)
            | (TypeRef::Record(_) | TypeRef::Records, JsonKind::Object)
    )
}

pub(super) fn wrong_type(
    cx: &Cx<'_>,
    group: &Group,
    record: &str,
    field: &str,
    expected: JsonKind,
    got: JsonKind,
) -> Item {
    let Some(fields) = model_fields(cx, record) else {
        return Item::Note(format!(
            "field `{field}` of `{record}` arrives as {got}, but the spec has no record `{record}`"
        ));
    };
    let Some(f) = fields.iter().find(|f| f.wire == field) else {
        return Item::Note(format!(
            "field `{field}` of `{record}` arrives as {got}, but the spec has no such field now"
        ));
    };
    let who = of(record);
    if takes(f, got) {
        return Item::Note(format!(
            "field `{field}` of {who} arrives as {} {got}: the spec's `{}` describes it now",
            article(got),
            spec_type(cx, f)
        ));
    }
    let whole = expected == JsonKind::Integer
        && got == JsonKind::Number
        && !group.examples.is_empty()
        && group.examples.iter().all(|e| {
            e.parse::<f64>()
                .is_ok_and(|v| v.is_finite() && v.fract() == 0.0)
        });
    if whole {
        return whole_numbers(group, record, field);
    }
    let numeric_texts = got == JsonKind::String
        && matches!(expected, JsonKind::Number | JsonKind::Integer)
        && !group.examples.is_empty()
        && group.examples.iter().all(|e| {
            serde_json::from_str::<String>(e)
                .is_ok_and(|s| mrds_runtime::text::is_numeric_text(s.trim()))
        });
    let Some((file, item)) = cx.field(record, field) else {
        return Item::Note(format!(
            "field `{field}` of `{record}` arrives as {got}: not found in the spec's files"
        ));
    };
    let mut splices = Vec::new();
    let mut brings = Vec::new();
    let change = if numeric_texts {
        splices.push(file.set_entry(item, &["name"], "type", "string"));
        splices.push(file.set_entry(item, &["array", "type"], "format", "numeric_text"));
        splices.extend(samples::field_values(
            cx,
            record,
            field,
            &Convert::ToText,
            "written as text",
            &mut brings,
        ));
        vec!["type: string, format: numeric_text".to_string()]
    } else {
        let (ty, array) = match got {
            JsonKind::String => ("string", false),
            JsonKind::Integer => ("integer", false),
            JsonKind::Number => ("number", false),
            JsonKind::Boolean => ("boolean", false),
            JsonKind::Array => {
                let (ty, _, _) = infer(
                    &group
                        .examples
                        .iter()
                        .filter_map(|e| serde_json::from_str::<Vec<serde_json::Value>>(e).ok())
                        .flatten()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>(),
                );
                (ty, true)
            }
            JsonKind::Object | JsonKind::Null => ("any", false),
        };
        splices.push(file.set_entry(item, &["name"], "type", ty));
        if array && !f.array {
            splices.push(file.insert_entry(item, &["type"], "array", "true"));
        }
        if value(item, "format").is_some() {
            splices.extend(file.remove_entry(item, "format"));
        }
        let observed: Vec<String> = group
            .examples
            .iter()
            .filter(|e| serde_json::from_str::<serde_json::Value>(e).is_ok())
            .cloned()
            .collect();
        let keeps = |node: &Node| {
            sample_kind(node)
                .is_some_and(|k| k == got || (got == JsonKind::Number && k == JsonKind::Integer))
        };
        let convert = Convert::Replace {
            keeps: &keeps,
            values: &observed,
        };
        splices.extend(samples::field_values(
            cx,
            record,
            field,
            &convert,
            "replaced by values the service sent",
            &mut brings,
        ));
        vec![format!(
            "type: {ty}{}",
            if array { ", array: true" } else { "" }
        )]
    };
    Item::Edit(Edit {
        splices,
        brings,
        subjects: vec![format!("{record}.{field}")],
        ..Edit::new(
            format!(
                "field `{field}` of {who} is `{}` in the spec but arrives as {} {got}",
                spec_type(cx, f),
                article(got)
            ),
            vec![ChangeKind::FieldTypeChanged],
            format!(
                "{}: change the field `{field}` (or, if the answers are wrong, tell the provider):",
                cx.line(file, item)
            ),
            change,
        )
    })
}

/// The JSON kind of a sample value as YAML writes it.
fn sample_kind(node: &Node) -> Option<JsonKind> {
    match &node.kind {
        NodeKind::Scalar { plain: false, .. } => Some(JsonKind::String),
        NodeKind::Scalar { text, plain: true } => Some(if node.is_null() {
            JsonKind::Null
        } else if text.parse::<i64>().is_ok() {
            JsonKind::Integer
        } else if text.parse::<f64>().is_ok() {
            JsonKind::Number
        } else if matches!(&**text, "true" | "false") {
            JsonKind::Boolean
        } else {
            JsonKind::String
        }),
        NodeKind::Seq(_) => Some(JsonKind::Array),
        NodeKind::Map(_) => Some(JsonKind::Object),
    }
}

pub(super) fn wrong_format(
    cx: &Cx<'_>,
    group: &Group,
    record: &str,
    field: &str,
    format: &str,
) -> Item {
    let Some(fields) = model_fields(cx, record) else {
        return Item::Note(format!(
            "field `{field}` of `{record}` arrives out of its format `{format}`, but the spec has no record `{record}`"
        ));
    };
    let Some(f) = fields.iter().find(|f| f.wire == field) else {
        return Item::Note(format!(
            "field `{field}` of `{record}` arrives out of its format `{format}`, but the spec has no such field now"
        ));
    };
    let texts: Vec<String> = group
        .examples
        .iter()
        .filter_map(|e| serde_json::from_str::<String>(e).ok())
        .collect();
    let numbers: Vec<i64> = group
        .examples
        .iter()
        .filter_map(|e| e.parse().ok())
        .collect();
    let fits = |f: Format| {
        texts.iter().all(|t| f.holds_text(t)) && numbers.iter().all(|n| f.holds_integer(*n))
    };
    let who = of(record);
    let now = match f.format {
        None => {
            return Item::Note(format!(
                "field `{field}` of {who} arrives out of the format `{format}`: the spec gives it no format now"
            ));
        }
        Some(now) if fits(now) => {
            return Item::Note(format!(
                "field `{field}` of {who} arrives out of the format `{format}`: the spec's `{}` describes it now",
                now.name()
            ));
        }
        Some(now) => now,
    };
    let Some((file, item)) = cx.field(record, field) else {
        return Item::Note(format!(
            "field `{field}` of `{record}` arrives out of its format: not found in the spec's files"
        ));
    };
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let other = (numbers.is_empty() && !refs.is_empty())
        .then(|| fitting_format(&refs))
        .flatten()
        .filter(|f| *f != now);
    let mut brings = Vec::new();
    let (splices, change) = match (other, value(item, "format")) {
        (Some(other), Some(node)) => {
            let mut splices = vec![file.replace(node, other.name())];
            let keeps = |node: &Node| node.as_scalar().is_some_and(|t| other.holds_text(t));
            let observed: Vec<String> = group.examples.clone();
            let convert = Convert::Replace {
                keeps: &keeps,
                values: &observed,
            };
            splices.extend(samples::field_values(
                cx,
                record,
                field,
                &convert,
                "replaced by values the service sent, in the new format",
                &mut brings,
            ));
            (splices, vec![format!("format: {}", other.name())])
        }
        (None, Some(_)) => (
            file.remove_entry(item, "format").into_iter().collect(),
            vec![format!(
                "remove `format: {}` (no format fits what arrives)",
                now.name()
            )],
        ),
        _ => (
            Vec::new(),
            vec!["# the field's `format` is not found (written by hand)".into()],
        ),
    };
    Item::Edit(Edit {
        splices,
        brings,
        subjects: vec![format!("{record}.{field}")],
        ..Edit::new(
            format!(
                "field `{field}` of {who} is `format: {}` in the spec but arrives as {}",
                now.name(),
                group
                    .examples
                    .first()
                    .map_or("something else", String::as_str)
            ),
            vec![ChangeKind::FieldFormatChanged],
            format!(
                "{}: change the field `{field}` (or, if the answers are wrong, tell the provider):",
                cx.line(file, item)
            ),
            change,
        )
    })
}

/// Whole numbers written as decimals in an integer field: the spec stays as it is.
pub(super) fn whole_numbers(group: &Group, record: &str, field: &str) -> Item {
    Item::Note(format!(
        "field `{field}` of {} arrives as whole numbers written as decimals ({}): the generated \
         client reads them as the integers they name, so `integer` stays right; no edit (a client \
         in another language may refuse them: tell the provider)",
        of(record),
        group.examples.join(", ")
    ))
}

/// Integers past 64 bits in an integer field: no type of the spec holds them.
pub(super) fn out_of_range(group: &Group, record: &str, field: &str) -> Item {
    Item::Note(format!(
        "field `{field}` of {} arrives as integers past the 64-bit range ({}): no integer type \
         holds them and a number would lose digits; no edit (tell the provider)",
        of(record),
        group.examples.join(", ")
    ))
}

fn article(kind: JsonKind) -> &'static str {
    match kind {
        JsonKind::Integer | JsonKind::Array | JsonKind::Object => "an",
        _ => "a",
    }
}

/// A field's type as the spec writes it (`number`, `Interval`, `string array`).
fn spec_type(cx: &Cx<'_>, f: &Field) -> String {
    let api = cx.api;
    let ty = match &f.ty {
        TypeRef::String => "string".to_string(),
        TypeRef::Integer => "integer".into(),
        TypeRef::Number => "number".into(),
        TypeRef::Boolean => "boolean".into(),
        TypeRef::Any => "any".into(),
        TypeRef::Record(id) => api.record(*id).spec_name.clone(),
        TypeRef::ValueSet(id) => api.value_set(*id).spec_name.clone(),
        TypeRef::ErrorCode => "ErrorCode".into(),
        TypeRef::Records => "records".into(),
    };
    let ty = match f.format {
        Some(format) => format!("{ty}, format: {}", format.name()),
        None => ty,
    };
    if f.array { format!("{ty} array") } else { ty }
}
