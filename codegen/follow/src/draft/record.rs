//! The records of a draft, from what the objects of the answers showed: each field's type
//! from its values (an object a record of its own, an array of its elements' type), optional
//! when some record lacks it or holds `null`, a value set when a text field shows a few short,
//! word-like values, a format when every value fits one. Drafts of undocumented endpoints and
//! a field the answers hold that the spec does not declare (an object: a nested record) both
//! write records with it ([`RecordDrafts`]).

use std::collections::{BTreeMap, BTreeSet};

use heck::ToUpperCamelCase;
use mrds_runtime::Format;
use mrds_runtime::drift::{JsonKind, Values};

use mrds_spec::naming;

use super::Taken;
use crate::formats::field_formats;
use crate::scalar;

pub(super) fn param_type(values: &Values) -> (&'static str, Option<&'static str>) {
    let total = values.total();
    let ints = values.count(JsonKind::Integer);
    if total > 0 && ints == total {
        let era = values
            .integers
            .is_some_and(|e| e.min >= 946_684_800 && e.max <= 4_102_444_800);
        return ("integer", era.then_some("unix_seconds"));
    }
    if total > 0 && values.count(JsonKind::Boolean) == total {
        return ("boolean", None);
    }
    let formats = values.formats.clone().unwrap_or_default();
    let format = ["date", "rfc3339", "uuid", "hex16"]
        .into_iter()
        .find(|f| formats.contains(*f));
    ("string", format)
}

/// The values of a value set, when texts show a few (2 to 12) short, word-like values, each
/// seen `times` times on average, not numbered alike (`c-001`, `c-002` are ids).
pub(super) fn value_set(values: &Values, times: u64) -> Option<Vec<String>> {
    let texts = &values.texts;
    let n = texts.len();
    let seen = values.count(JsonKind::String);
    let wordlike = texts.iter().all(|t| {
        !t.is_empty()
            && t.len() <= 32
            && t.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
    });
    let letters = |t: &String| -> String { t.chars().filter(|c| !c.is_ascii_digit()).collect() };
    let numbered = (texts.iter().all(|t| t.bytes().any(|b| b.is_ascii_digit())))
        && texts.iter().map(letters).collect::<BTreeSet<_>>().len() == 1;
    (!values.many && (2..=12).contains(&n) && seen >= times * n as u64 && wordlike && !numbered)
        .then(|| texts.iter().cloned().collect())
}

/// Whether a name says its values name things rather than kinds (`person_id`, `name`,
/// `symbol`): no value set, however few values were seen.
pub(super) fn names_a_thing(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.ends_with("_id") || name == "id" || name.contains("name") || name.contains("symbol")
}

/// Records written from what objects showed, with their nested records and value sets, and
/// the names they take.
pub(crate) struct RecordDrafts<'t> {
    /// Names taken so far.
    pub(crate) taken: &'t mut Taken,
    /// The `assumed:` of every record and field (YAML: `*inferred`, or a quoted reason).
    pub(crate) assumed: String,
    /// Whether a text field of a few word-like values becomes a value set (a draft's many
    /// answers tell one; a few examples of a new field do not).
    pub(crate) infer_sets: bool,
    /// The records written, each `(name, YAML)` at the indentation of a `records:` entry.
    pub(crate) records: Vec<(String, String)>,
    /// The value sets inferred, `(name, values)`.
    pub(crate) sets: Vec<(String, Vec<String>)>,
    /// Fields left out (a name no Rust field takes).
    pub(crate) skipped: BTreeSet<String>,
    /// Facts inferred.
    pub(crate) facts: usize,
}

impl<'t> RecordDrafts<'t> {
    /// Nothing written yet.
    pub(crate) fn new(taken: &'t mut Taken, assumed: String, infer_sets: bool) -> Self {
        Self {
            taken,
            assumed,
            infer_sets,
            records: Vec::new(),
            sets: Vec::new(),
            skipped: BTreeSet::new(),
            facts: 0,
        }
    }

    /// Writes record `name` whose objects showed `values`, then its nested records.
    pub(crate) fn record(&mut self, name: &str, values: &Values, depth: usize) {
        let assumed = self.assumed.clone();
        let objects = values.count(JsonKind::Object);
        let mut text = format!(
            "  {name}:\n    doc: {}\n    assumed: {assumed}\n    fields:\n",
            scalar(&format!(
                "Drafted from {objects} observed records; not in the interface description."
            ))
        );
        let mut nested: Vec<(String, Values)> = Vec::new();
        let mut any_field = false;
        for (field, v) in &values.fields {
            if naming::field_name(field).is_err() {
                self.skipped.insert(field.clone());
                continue;
            }
            any_field = true;
            let optional = v.total() < objects || v.count(JsonKind::Null) > 0;
            let (mut ty, mut array, mut format) = field_type(v);
            let mut inner = v;
            if array && let Some(items) = &v.items {
                inner = items;
                (ty, _, format) = field_type(items);
            }
            let mut ty = ty.to_string();
            if ty == "object" {
                if depth < 3 && !inner.fields.is_empty() {
                    let nested_name =
                        (self.taken).take(&format!("{name}{}", field.to_upper_camel_case()));
                    nested.push((nested_name.clone(), inner.clone()));
                    ty = nested_name;
                } else {
                    ty = "any".into();
                    array = array && ty != "any";
                }
            } else if ty == "string"
                && self.infer_sets
                && format.is_none()
                && !names_a_thing(field)
                && let Some(set) = value_set(inner, 2)
            {
                let set_name = (self.taken).take(&format!("{name}{}", field.to_upper_camel_case()));
                self.sets.push((set_name.clone(), set));
                ty = set_name;
            }
            if ty == "any" {
                format = None;
            }
            let mut line = format!("      - {{ name: {}, type: {ty}", scalar(field));
            if array {
                line.push_str(", array: true");
            }
            if let Some(format) = format {
                line.push_str(&format!(", format: {}", format.name()));
            }
            if optional {
                line.push_str(", optional: true");
            }
            line.push_str(&format!(
                ", assumed: {assumed}, doc: {} }}\n",
                scalar(&format!(
                    "Seen in {} of {objects} observed records.",
                    v.total() - v.count(JsonKind::Null)
                ))
            ));
            self.facts += 1;
            text.push_str(&line);
        }
        if !any_field {
            text.push_str(&format!(
                "      - {{ name: value, type: any, optional: true, assumed: {assumed}, doc: {} }}\n",
                scalar("The records showed no field.")
            ));
        }
        self.records.push((name.to_string(), text));
        for (n, v) in nested {
            self.record(&n, &v, depth + 1);
        }
    }
}

/// A field's type (`object` for a record of its own), whether it is an array, and its format.
fn field_type(v: &Values) -> (&'static str, bool, Option<Format>) {
    let kinds: BTreeMap<JsonKind, u64> = v
        .kinds
        .iter()
        .filter(|(k, _)| **k != JsonKind::Null)
        .map(|(k, n)| (*k, *n))
        .collect();
    let only = |k: JsonKind| kinds.len() == 1 && kinds.contains_key(&k);
    if only(JsonKind::Array) {
        return ("any", true, None);
    }
    if only(JsonKind::Object) {
        return ("object", false, None);
    }
    if only(JsonKind::Boolean) {
        return ("boolean", false, None);
    }
    if only(JsonKind::Integer) {
        let era = v
            .integers
            .is_some_and(|e| e.min >= 946_684_800 && e.max <= 4_102_444_800);
        return ("integer", false, era.then_some(Format::UnixSeconds));
    }
    if kinds
        .keys()
        .all(|k| matches!(k, JsonKind::Integer | JsonKind::Number))
        && !kinds.is_empty()
    {
        return ("number", false, None);
    }
    if only(JsonKind::String) {
        let formats = v.formats.clone().unwrap_or_default();
        // Digits alone (`0000320193`, a zip code) are codes: numbers as text have a fraction.
        let fraction = v.texts.iter().any(|t| t.contains(['.', 'e', 'E']));
        let format = field_formats()
            .filter(|f| *f != Format::NumericText || fraction)
            .find(|f| formats.contains(f.name()));
        return ("string", false, format);
    }
    ("any", false, None)
}

/// The record `value` without the fields a draft leaves out.
pub(super) fn strip(value: &mut serde_json::Value, skipped: &BTreeSet<String>) {
    match value {
        serde_json::Value::Object(members) => {
            members.retain(|k, _| !skipped.contains(k));
            for v in members.values_mut() {
                strip(v, skipped);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(|v| strip(v, skipped)),
        _ => {}
    }
}
