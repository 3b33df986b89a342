//! Drafts of endpoints the spec does not have, from the traffic of the paths no endpoint
//! serves (`endpoint.undocumented`): one spec file each, which loads and generates. Every fact
//! is inferred from the answers (`assumed: "inferred from N observed answers"`), for the
//! maintainer to check against the provider:
//!
//! - the path template: identifier-like segments are parameters
//!   ([`template`](mrds_runtime::drift::template)), and a segment that takes several values
//!   across paths otherwise alike is one too (values that look like values: digits, capitals,
//!   `_` or `.`; or three or more whose answers hold records of one shape; or any, where a
//!   parameter stands in the others);
//! - the query parameters of the requests answered 2xx: required when every one had it; its
//!   type as its values spell it (integers, `true`/`false`, else text; a value set as for
//!   fields below, each value seen once being enough); its format when every value fits one
//!   (`unix_seconds` for integers of the Unix-seconds era, `date`, `rfc3339`, `uuid`,
//!   `hex16`);
//! - the returned record: each field's type from its values (an object a record of its own,
//!   an array of its elements' type), optional when some record lacks it or holds `null`, a
//!   value set when a text field shows a few short, word-like values (2 to 12, each seen twice
//!   on average, not numbered alike, the field not named like an id, a name or a symbol), a format
//!   when every value fits one (`numeric_text` only when some value has a fraction);
//! - samples: a few records as they came, and a request that was answered as the example;
//! - no history row of its own: the report's one row of the release lists the endpoint as added.

use std::collections::BTreeSet;

use heck::ToUpperCamelCase;
use mrds_runtime::drift::{JsonKind, Traffic, draft_id, param_name};

use mrds_spec::model::Api;
use mrds_spec::naming;

use super::scalar;

mod record;

pub(crate) use record::RecordDrafts;
use record::{names_a_thing, param_type, strip, value_set};

/// One undocumented endpoint: its method and template, and what its traffic showed.
#[derive(Clone, Debug)]
pub(super) struct Undocumented {
    pub(super) method: String,
    pub(super) template: String,
    pub(super) traffic: Traffic,
    /// How many requests, of every status.
    pub(super) requests: u64,
}

/// The drafts' endpoints after merging templates that differ only in value-like segments.
pub(super) fn merge(found: Vec<Undocumented>) -> Vec<Undocumented> {
    let mut list = found;
    loop {
        let mut changed = false;
        let n = list.len();
        'outer: for i in 0..n {
            let a: Vec<&str> = list[i].template.split('/').collect();
            for pos in 2..a.len() {
                // The templates alike but at `pos`, of one method.
                let alike: Vec<usize> = (0..n)
                    .filter(|&j| list[j].method == list[i].method)
                    .filter(|&j| {
                        let b: Vec<&str> = list[j].template.split('/').collect();
                        b.len() == a.len() && (0..a.len()).all(|k| k == pos || a[k] == b[k])
                    })
                    .collect();
                let segment = |j: usize| {
                    list[j]
                        .template
                        .split('/')
                        .nth(pos)
                        .unwrap_or("")
                        .to_string()
                };
                let values: BTreeSet<String> = (alike.iter())
                    .map(|&j| segment(j))
                    .filter(|s| !s.starts_with('{'))
                    .collect();
                let param = alike.iter().any(|&j| segment(j).starts_with('{'));
                let value_like = |s: &String| {
                    s.contains(['_', '.'])
                        || s.bytes()
                            .any(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
                };
                // Paths of one endpoint answer records of one shape (paths of several answer
                // several).
                let fields = |j: usize| -> BTreeSet<&String> {
                    list[j].traffic.records.fields.keys().collect()
                };
                let one_shape = alike.iter().all(|&j| fields(j) == fields(alike[0]));
                // A parameter there already takes the literals as its values; else several
                // value-like literals, or three or more answering records of one shape, make
                // one.
                let merge = alike.len() >= 2
                    && !values.is_empty()
                    && (param
                        || (values.len() >= 2 && values.iter().all(value_like))
                        || (values.len() >= 3 && one_shape));
                if !merge {
                    continue;
                }
                let taken: Vec<(String, String)> = a
                    .iter()
                    .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
                    .map(|s| (s.to_string(), String::new()))
                    .collect();
                let existing = (alike.iter()).map(|&j| segment(j)).find_map(|s| {
                    s.strip_prefix('{')
                        .and_then(|s| s.strip_suffix('}'))
                        .map(str::to_string)
                });
                let name = existing.unwrap_or_else(|| param_name(a[pos - 1], &taken));
                let mut merged = Undocumented {
                    method: list[i].method.clone(),
                    template: a
                        .iter()
                        .enumerate()
                        .map(|(k, s)| {
                            if k == pos {
                                format!("{{{name}}}")
                            } else {
                                s.to_string()
                            }
                        })
                        .collect::<Vec<_>>()
                        .join("/"),
                    traffic: Traffic::default(),
                    requests: 0,
                };
                for &j in &alike {
                    let u = &list[j];
                    merged.traffic.merge(&u.traffic);
                    merged.requests += u.requests;
                    let segment = u.template.split('/').nth(pos).unwrap_or("");
                    if !segment.starts_with('{') {
                        let values = merged.traffic.path.entry(name.clone()).or_default();
                        for _ in 0..u.traffic.answers.max(1) {
                            values.observe_text(segment);
                        }
                    }
                }
                let mut rest: Vec<Undocumented> = (0..n)
                    .filter(|j| !alike.contains(j))
                    .map(|j| list[j].clone())
                    .collect();
                rest.push(merged);
                list = rest;
                changed = true;
                break 'outer;
            }
        }
        if !changed {
            break;
        }
    }
    // Templates made alike by merging: one endpoint.
    let mut out: Vec<Undocumented> = Vec::new();
    for u in list {
        match out
            .iter_mut()
            .find(|o| o.method == u.method && o.template == u.template)
        {
            Some(o) => {
                o.traffic.merge(&u.traffic);
                o.requests += u.requests;
            }
            None => out.push(u),
        }
    }
    out.sort_by(|a, b| (&a.template, &a.method).cmp(&(&b.template, &b.method)));
    out
}

/// A draft: its file, its endpoint id, and what the report says of it.
pub(super) struct Draft {
    pub(super) file: String,
    pub(super) text: String,
    pub(super) id: String,
    pub(super) facts: usize,
}

/// Names given so far (endpoint ids; records and value sets, by spec name and Rust name), so
/// that drafts do not collide with the spec or each other.
pub(crate) struct Taken {
    ids: BTreeSet<String>,
    types: BTreeSet<String>,
}

impl Taken {
    pub(crate) fn of(api: &Api) -> Self {
        let ids = api.endpoints.iter().map(|e| e.id.clone()).collect();
        let mut types = BTreeSet::new();
        types.extend(api.endpoints.iter().map(|e| e.names.params_type.clone()));
        types.extend(
            api.records
                .iter()
                .flat_map(|r| [r.spec_name.clone(), r.name.clone()]),
        );
        types.extend(
            api.value_sets
                .iter()
                .flat_map(|v| [v.spec_name.clone(), v.name.clone()]),
        );
        types.insert("ErrorCode".into());
        Self { ids, types }
    }

    /// `base`, or `base_2`, `base_3`...: an endpoint id neither the spec nor a draft has.
    fn id(&mut self, base: &str) -> String {
        let mut id = base.to_string();
        let mut n = 2;
        while self.ids.contains(&id) || naming::reserved_method(&id) {
            id = format!("{base}_{n}");
            n += 1;
        }
        self.ids.insert(id.clone());
        id
    }

    /// `base`, or `base2`, `base3`...: a type name neither the spec nor a draft has, as a
    /// spec name or as the Rust name it becomes.
    pub(crate) fn take(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut n = 2;
        let rust = |name: &str| naming::type_name(name).unwrap_or_else(|_| name.to_string());
        while self.types.contains(&name)
            || self.types.contains(&rust(&name))
            || naming::reserved_type(&rust(&name))
        {
            name = format!("{base}{n}");
            n += 1;
        }
        self.types.insert(rust(&name));
        self.types.insert(name.clone());
        name
    }
}

/// The next release tag after the newest of the spec's history (`v0.10.102`: `v0.10.103`).
pub(super) fn next_version(api: &Api) -> String {
    let newest = (api.history.iter())
        .flat_map(|h| &h.versions)
        .filter_map(|v| {
            let parts: Vec<u64> = v
                .strip_prefix('v')?
                .split('.')
                .map(|p| p.parse().ok())
                .collect::<Option<_>>()?;
            (parts.len() == 3).then(|| (parts[0], parts[1], parts[2]))
        })
        .max();
    match newest {
        Some((a, b, c)) => format!("v{a}.{b}.{}", c + 1),
        None => "v0.1.0".into(),
    }
}

/// The draft of one undocumented endpoint, or why there is none.
pub(super) fn draft(u: &Undocumented, taken: &mut Taken, dir: &str) -> Result<Draft, String> {
    let t = &u.traffic;
    if t.answers == 0 {
        return Err(format!(
            "no request of it was answered with records ({} request{}), so nothing is inferred",
            u.requests,
            if u.requests == 1 { "" } else { "s" }
        ));
    }
    let Some(example) = t.requests.first() else {
        return Err("no request of it was kept".into());
    };
    let id = taken.id(&draft_id(&u.method, &u.template));
    let record = taken.take(&id.to_upper_camel_case());
    let inferred = format!(
        "inferred from {} observed answer{}",
        t.answers,
        if t.answers == 1 { "" } else { "s" }
    );
    let mut facts = 0;
    let mut out = String::new();
    out.push_str("# yaml-language-server: $schema=../spec.schema.json\n");
    out.push_str(&format!(
        "# A draft of `{} {}`, which the interface description does not show: every fact below is\n\
         # {inferred} (`assumed:`). Check each against the provider, give the docs,\n\
         # complete the release's history row (it lists this endpoint as added), then\n\
         # `cargo xtask codegen` and `cargo xtask spec-diff`.\n\n",
        u.method, u.template
    ));
    out.push_str("endpoints:\n");
    out.push_str(&format!("  {id}:\n"));
    out.push_str(&format!("    method: {}\n", u.method));
    out.push_str(&format!("    path: {}\n", scalar(&u.template)));
    out.push_str(&format!(
        "    summary: {}\n",
        scalar("Drafted from observed traffic; not in the interface description.")
    ));
    let auth = if t.keyless > 0 {
        "optional"
    } else {
        "required"
    };
    out.push_str(&format!("    auth: {auth}\n"));
    out.push_str(&format!(
        "    auth_assumed: &inferred {}\n",
        scalar(&inferred)
    ));
    out.push_str("    assumed: *inferred\n");
    out.push_str(&format!("    returns: {record}\n"));
    let mut sets: Vec<(String, Vec<String>)> = Vec::new();
    let mut params = Vec::new();
    for segment in u.template.split('/') {
        let Some(name) = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) else {
            continue;
        };
        let ty = match t.path.get(name) {
            Some(v)
                if v.count(JsonKind::Integer) > 0 && v.count(JsonKind::Integer) == v.total() =>
            {
                "integer"
            }
            _ => "string",
        };
        facts += 1;
        params.push(format!(
            "      - {{ name: {name}, in: path, type: {ty}, required: true, assumed: *inferred, doc: {} }}",
            scalar("A path segment that takes several values in the observed requests.")
        ));
    }
    for (name, values) in &t.query {
        if naming::field_name(name).is_err() || u.template.contains(&format!("{{{name}}}")) {
            continue;
        }
        let mut line = format!("      - {{ name: {}, in: query", scalar(name));
        let (ty, format) = param_type(values);
        let set = (ty == "string" && format.is_none() && !names_a_thing(name))
            .then(|| value_set(values, 1))
            .flatten();
        match set {
            Some(values) => {
                let set_name = taken.take(&format!("{record}{}", name.to_upper_camel_case()));
                line.push_str(&format!(", type: {set_name}"));
                sets.push((set_name, values));
            }
            None => line.push_str(&format!(", type: {ty}")),
        }
        if let Some(format) = format {
            line.push_str(&format!(", format: {format}"));
        }
        if values.total() >= t.answers {
            line.push_str(", required: true");
        }
        line.push_str(&format!(
            ", assumed: *inferred, doc: {} }}",
            scalar(&format!(
                "Seen in {} of the observed requests.",
                values.total()
            ))
        ));
        facts += 1;
        params.push(line);
    }
    if params.is_empty() {
        out.push_str("    params: []\n");
    } else {
        out.push_str("    params:\n");
        for p in &params {
            out.push_str(p);
            out.push('\n');
        }
    }
    // The records, nested ones after the returned one.
    let mut drafts = RecordDrafts::new(taken, "*inferred".into(), true);
    drafts.sets = sets;
    drafts.facts = facts;
    drafts.record(&record, &t.records, 0);
    let RecordDrafts {
        records,
        sets,
        skipped,
        facts,
        ..
    } = drafts;
    out.push_str("\nrecords:\n");
    for (_, text) in &records {
        out.push_str(text);
    }
    if !sets.is_empty() {
        out.push_str("\nvalue_sets:\n");
        for (name, values) in &sets {
            out.push_str(&format!("  {name}:\n"));
            out.push_str(&format!(
                "    doc: {}\n",
                scalar("The values seen in the observed answers; there may be more.")
            ));
            out.push_str("    assumed: *inferred\n");
            out.push_str("    values:\n");
            let mut names = BTreeSet::new();
            for v in values {
                let mut line = format!("      - {{ value: {}", scalar(v));
                if naming::variant_name(v, None).is_err() {
                    let name = naming::free_variant_name(v, &names);
                    names.insert(name.clone());
                    line.push_str(&format!(", rust: {name}"));
                }
                line.push_str(" }\n");
                out.push_str(&line);
            }
        }
    }
    out.push_str("\nsamples:\n");
    out.push_str(&format!("  {id}:\n"));
    out.push_str(&format!("    example: {}\n", scalar(example)));
    out.push_str("    sets:\n      - records:\n");
    let mut samples = 0;
    for text in t.samples.iter().take(3) {
        let Ok(mut value) = serde_json::from_str::<serde_json::Value>(text) else {
            continue;
        };
        strip(&mut value, &skipped);
        out.push_str(&format!("          - {value}\n"));
        samples += 1;
    }
    if samples == 0 {
        return Err("no record of its answers was kept as a sample".into());
    }
    Ok(Draft {
        file: format!("{dir}/drafts/{id}.yaml"),
        text: out,
        id,
        facts,
    })
}

/// A parameter's type and format from its values.
/// The template a concrete path makes, for tests of merging.
#[cfg(test)]
fn undocumented(method: &str, path: &str, answers: u64) -> Undocumented {
    let (template, _) = mrds_runtime::drift::template(path);
    Undocumented {
        method: method.into(),
        template,
        traffic: Traffic {
            answers,
            ..Traffic::default()
        },
        requests: answers,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_like_segments_across_paths_make_a_parameter() {
        let merged = merge(vec![
            undocumented("GET", "/v1/persons/elon_musk", 2),
            undocumented("GET", "/v1/persons/jane_doe", 1),
            undocumented("GET", "/v1/stocks/dividends", 1),
            undocumented("GET", "/v1/stocks/profile", 1),
        ]);
        let templates: Vec<&str> = merged.iter().map(|u| u.template.as_str()).collect();
        assert_eq!(
            templates,
            [
                "/v1/persons/{person_id}",
                "/v1/stocks/dividends",
                "/v1/stocks/profile"
            ]
        );
        assert_eq!(merged[0].traffic.answers, 3);
        assert_eq!(merged[0].traffic.path["person_id"].texts.len(), 2);
    }
}
