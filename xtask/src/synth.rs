//! Synthetic specs for measuring how the generator scales: the real spec, with its records,
//! value sets, endpoints and samples copied `factor` times under new names.
//!
//! Copy `i` (from 1) renames record and value set `Name` to `NameC{i}`, endpoint `id` to
//! `id_c{i}` (its rule ids and samples follow), and puts its path below `/v1/c{i}/`. Copies
//! are live endpoints (a copy of a removed endpoint is not removed, since the change history
//! does not list it). The service section and the history are kept once.

use std::collections::BTreeMap;

use mrds_spec::yaml;
use serde_json::{Map as Mapping, Value};

/// Why a synthetic spec could not be made.
#[derive(Debug)]
pub struct SynthError(pub String);

impl std::fmt::Display for SynthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot make a synthetic spec: {}", self.0)
    }
}

impl std::error::Error for SynthError {}

/// The spec `sources` (name, YAML text) with every record, value set, endpoint and samples
/// section present `factor` times. `factor` 1 returns the sources unchanged.
pub fn scale(
    sources: &[(String, String)],
    factor: usize,
) -> Result<Vec<(String, String)>, SynthError> {
    let mut docs = Vec::new();
    for (name, text) in sources {
        let doc: Value = yaml::from_str(text).map_err(|e| SynthError(format!("{name}: {e}")))?;
        docs.push((name.clone(), doc));
    }
    // Every record and value set defined outside the service file is renamed in copies.
    let mut types = Vec::new();
    for (_, doc) in &docs {
        if doc.get("service").is_some() {
            continue;
        }
        for section in ["records", "value_sets"] {
            if let Some(Value::Object(m)) = doc.get(section) {
                types.extend(m.keys().cloned());
            }
        }
    }
    let mut out: Vec<(String, String)> = sources.to_vec();
    for i in 1..factor {
        let renames: BTreeMap<String, String> = types
            .iter()
            .map(|t| (t.clone(), format!("{t}C{i}")))
            .collect();
        for (name, doc) in &docs {
            if doc.get("service").is_some() {
                continue;
            }
            let copy = copy_doc(doc, i, &renames);
            let text = yaml::to_string(&copy);
            let stem = name.trim_end_matches(".yaml");
            out.push((format!("{stem}.copy{i}.yaml"), text));
        }
    }
    Ok(out)
}

fn copy_doc(doc: &Value, i: usize, renames: &BTreeMap<String, String>) -> Value {
    let mut out = Mapping::new();
    let Value::Object(sections) = doc else {
        return Value::Object(out);
    };
    for (key, value) in sections {
        let section = key.as_str();
        let renamed = match (section, value) {
            ("records" | "value_sets", Value::Object(m)) => Value::Object(
                m.iter()
                    .map(|(k, v)| {
                        (
                            rename_key(k, |n| renames.get(n).cloned()),
                            retype(v, renames),
                        )
                    })
                    .collect(),
            ),
            ("endpoints", Value::Object(m)) => Value::Object(
                m.iter()
                    .map(|(k, v)| (endpoint_key(k, i), endpoint(v, i, renames)))
                    .collect(),
            ),
            ("samples", Value::Object(m)) => Value::Object(
                m.iter()
                    .map(|(k, v)| (endpoint_key(k, i), samples(v, i)))
                    .collect(),
            ),
            _ => continue,
        };
        out.insert(key.clone(), renamed);
    }
    Value::Object(out)
}

fn rename_key(key: &str, f: impl Fn(&str) -> Option<String>) -> String {
    f(key).unwrap_or_else(|| key.to_owned())
}

fn endpoint_key(key: &str, i: usize) -> String {
    rename_key(key, |id| Some(format!("{id}_c{i}")))
}

fn copy_path(path: &str, i: usize) -> String {
    match path.strip_prefix("/v1/") {
        Some(rest) => format!("/v1/c{i}/{rest}"),
        None => format!("/c{i}{path}"),
    }
}

/// `type`, `returns` and `body` values naming a renamed type are renamed, at any depth.
fn retype(value: &Value, renames: &BTreeMap<String, String>) -> Value {
    match value {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| {
                    let is_type = matches!(k.as_str(), "type" | "returns" | "body");
                    let v = match v.as_str().and_then(|s| renames.get(s)) {
                        Some(new) if is_type => Value::String(new.clone()),
                        _ => retype(v, renames),
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| retype(v, renames)).collect()),
        other => other.clone(),
    }
}

fn endpoint(value: &Value, i: usize, renames: &BTreeMap<String, String>) -> Value {
    let mut value = retype(value, renames);
    if let Value::Object(m) = &mut value {
        m.remove("removed");
        if let Some(Value::String(path)) = m.get_mut("path") {
            *path = copy_path(path, i);
        }
        if let Some(Value::Array(rules)) = m.get_mut("rules") {
            for rule in rules {
                if let Some(Value::String(id)) = rule.get_mut("id")
                    && let Some((endpoint, name)) = id.split_once('.')
                {
                    *id = format!("{endpoint}_c{i}.{name}");
                }
            }
        }
    }
    value
}

fn samples(value: &Value, i: usize) -> Value {
    let mut value = value.clone();
    if let Some(Value::String(example)) = value.get_mut("example") {
        *example = copy_path(example, i);
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_load_and_multiply_the_spec() {
        // Relative to the package directory, where cargo runs unit tests: a path compiled in
        // would name another checkout when two share a target directory (cargo reuses the
        // test binary, identical but for that path).
        let root = std::path::Path::new("../spec");
        let sources = mrds_spec::load::read_dir(root).unwrap();
        let one = mrds_spec::load_sources(&sources).unwrap();
        let scaled = scale(&sources, 3).unwrap();
        let three = mrds_spec::load_sources(&scaled).unwrap_or_else(|d| panic!("{d}"));
        assert_eq!(three.endpoints.len(), 3 * one.endpoints.len());
        let in_service = one
            .records
            .iter()
            .filter(|r| r.at.file.ends_with("service.yaml"))
            .count();
        assert!(
            in_service > 0,
            "the error object is defined in service.yaml"
        );
        assert_eq!(
            three.records.len(),
            3 * one.records.len() - 2 * in_service,
            "service records once"
        );
        assert_eq!(three.value_sets.len(), 3 * one.value_sets.len());
        assert!(
            three
                .endpoints
                .iter()
                .any(|e| e.path.to_string() == "/v1/c2/stocks/dividends")
        );
        let removed =
            |api: &mrds_spec::Api| api.endpoints.iter().filter(|e| e.removed.is_some()).count();
        assert_eq!(removed(&three), removed(&one), "copies are live endpoints");
    }
}
