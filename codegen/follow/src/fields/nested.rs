//! A new field whose values are objects (or arrays of objects): a record of its own, with its
//! nested ones, written after the record holding the field, as drafts write records.

use super::{Group, seen_in};
use crate::cx::Cx;
use crate::draft::{RecordDrafts, Taken};
use crate::scalar;
use crate::splice::{Splice, entries};

/// A record of its own for a new field whose examples are objects (or arrays of objects): its
/// name, whether the field is an array of it, the names of the records written (nested ones
/// after it), where, and the splice writing them after the record holding the field.
pub(super) struct Nested {
    pub(super) name: String,
    pub(super) array: bool,
    pub(super) names: Vec<String>,
    pub(super) after: String,
    pub(super) splice: Splice,
}

pub(super) fn record(cx: &Cx<'_>, group: &Group, record: &str, field: &str) -> Option<Nested> {
    let parsed: Vec<serde_json::Value> = (group.examples.iter())
        .map(|e| serde_json::from_str::<serde_json::Value>(e).ok())
        .collect::<Option<_>>()?;
    let array = parsed.iter().any(serde_json::Value::is_array);
    let mut objects = Vec::new();
    for v in parsed.iter().filter(|v| !v.is_null()) {
        match (v, array) {
            (serde_json::Value::Object(_), false) => objects.push(v),
            (serde_json::Value::Array(items), true) => {
                objects.extend(items.iter().filter(|i| !i.is_null()))
            }
            _ => return None,
        }
    }
    if objects.is_empty() || !objects.iter().all(|o| o.is_object()) {
        return None;
    }
    let mut values = mrds_runtime::drift::Values::default();
    for o in &objects {
        values.observe(o);
    }
    if values.fields.is_empty() {
        return None;
    }
    // After the record holding the field (the envelope's: after the first record).
    let (file, after_node, after) = match cx.find(&["records", record]) {
        Some((file, node)) if record != "envelope" => (file, node, record.to_string()),
        _ => {
            let (file, records) = cx.find(&["records"])?;
            let (key, node) = entries(records).first()?;
            (file, node, key.as_scalar()?.to_string())
        }
    };
    let mut taken = Taken::of(cx.api);
    let name = taken.take(&format!(
        "{}{}",
        if record == "envelope" {
            "Envelope"
        } else {
            record
        },
        heck::ToUpperCamelCase::to_upper_camel_case(field)
    ));
    let mut drafts = RecordDrafts::new(&mut taken, scalar(&seen_in(group)), false);
    drafts.record(&name, &values, 0);
    let text: String = drafts.records.iter().map(|(_, t)| t.as_str()).collect();
    let names = drafts.records.iter().map(|(n, _)| n.clone()).collect();
    // At the start of the line after the record's last: apart from the place where the
    // record's fields grow, so new fields and new records never interleave.
    let end = file.end(after_node);
    let (at, insert) = match file.text[end..].find('\n') {
        Some(i) => (end + i + 1, text),
        None => (
            file.text.len(),
            format!("\n{}", text.trim_end_matches('\n')),
        ),
    };
    Some(Nested {
        name,
        array,
        names,
        after,
        splice: Splice {
            file: file.name.clone(),
            at,
            remove: 0,
            insert,
        },
    })
}
