//! A field's kind of value: required fields arriving `null` or missing, values of another
//! type or out of their format, whole numbers written as decimals and integers past 64 bits.

use mrds_runtime::Format;
use mrds_runtime::drift::JsonKind;

use mrds_diff::ChangeKind;
use mrds_spec::model::{Field, TypeRef};
use mrds_spec::yaml::{Node, NodeKind};

use super::{infer, model_fields, of};
use crate::cx::Cx;
use crate::formats::{IntegerTime, fitting_format};
use crate::samples::{self, Convert};
use crate::splice::value;
use crate::{Edit, Group, Item};

pub(crate) fn not_required(cx: &Cx<'_>, record: &str, field: &str, how: &str) -> Item {
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

pub(crate) fn wrong_type(
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
    // Integers spelling the points in time a time format held (`20261120` for `2026-11-20`):
    // each sample value becomes the same point in the service's spelling, so the samples keep
    // their days, their order, and what selects them.
    let numbers: Vec<i64> = (group.examples.iter())
        .map(|e| e.parse::<i64>().ok())
        .collect::<Option<_>>()
        .unwrap_or_default();
    let spelt = (f.format.filter(|ft| ft.is_time()))
        .filter(|_| got == JsonKind::Integer && !f.array)
        .zip(IntegerTime::of(&numbers));
    let mut splices = Vec::new();
    let mut brings = Vec::new();
    let change = if let Some((from, to)) = spelt {
        splices.push(file.set_entry(item, &["name"], "type", "integer"));
        let seconds = to == IntegerTime::Seconds;
        match (value(item, "format"), seconds) {
            (Some(node), true) => splices.push(file.replace(node, Format::UnixSeconds.name())),
            (Some(_), false) => splices.extend(file.remove_entry(item, "format")),
            (None, _) => {}
        }
        let observed: Vec<String> = numbers.iter().map(i64::to_string).collect();
        let convert = Convert::Integer {
            from,
            to,
            values: &observed,
        };
        let how = format!(
            "as the service writes them ({}), the same points in time",
            to.describe()
        );
        splices.extend(samples::field_values(
            cx,
            record,
            field,
            &convert,
            &how,
            &mut brings,
        ));
        vec![match seconds {
            true => "type: integer, format: unix_seconds".to_string(),
            false => format!(
                "type: integer, remove `format: {}` (the service sends {})",
                from.name(),
                to.describe()
            ),
        }]
    } else if numeric_texts {
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

pub(crate) fn wrong_format(
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
            // Instants stay the instants they were, in the new format; other values are
            // replaced by values the service sent.
            let (convert, how) = match now.is_time() && other.is_time() {
                true => (
                    Convert::Instant {
                        from: now,
                        to: other,
                    },
                    "written in the new format, the same instants",
                ),
                false => (
                    Convert::Replace {
                        keeps: &keeps,
                        values: &observed,
                    },
                    "replaced by values the service sent, in the new format",
                ),
            };
            splices.extend(samples::field_values(
                cx,
                record,
                field,
                &convert,
                how,
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
pub(crate) fn whole_numbers(group: &Group, record: &str, field: &str) -> Item {
    Item::Note(format!(
        "field `{field}` of {} arrives as whole numbers written as decimals ({}): the generated \
         client reads them as the integers they name, so `integer` stays right; no edit (a client \
         in another language may refuse them: tell the provider)",
        of(record),
        group.examples.join(", ")
    ))
}

/// Integers past 64 bits in an integer field: no type of the spec holds them.
pub(crate) fn out_of_range(group: &Group, record: &str, field: &str) -> Item {
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
