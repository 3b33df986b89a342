//! A release series of the provider, as a maintainer follows it in `spec/` alone: every kind of
//! change, one release after another (`tests/tests/it/follow.rs` replays it).
//!
//! 1. additions: GETs with paging and a lookup, a GET returning nested records, a POST with a
//!    body (`tests/follow/releases/1-additions.yaml`);
//! 2. overlapping templates: a value-set segment, a lookup integer with both bounds, a list
//!    parameter (`2-overlaps.yaml`);
//! 3. a `PUT` with a body and a `DELETE` on one path (`3-methods.yaml`);
//! 4. a removal: an endpoint of the spec marked removed;
//! 5. a retype and a narrowed bound: an integer field of a record of the spec becomes a
//!    number, and the maximum of an integer parameter of the spec is halved.
//!
//! Releases 1 to 3 add files only, with names of their own (`fixture_`, `Fixture`,
//! `/v1/fixture-`), so they apply to whatever `spec/` holds. Releases 4 and 5 change what the
//! spec already has: what they change is chosen from the resolved model (the rules below), and
//! each edit is made at the line the model places it, so they too apply to whatever `spec/`
//! holds, and the tests that restate the spec meet a real change. Each release adds its history
//! row in a file of its own.

use std::collections::BTreeMap;

use mrds_diff::ChangeKind;
use mrds_spec::model::{Api, Endpoint, ParamLocation, TypeRef, ValueType};

use crate::overlay::{self, RawStep, Step};
use crate::workspace_root;

/// What names the series gives what it adds: nothing of the real spec starts so.
pub const FIXTURE_PREFIX: &str = "fixture";

/// One release: its name, the edits to `spec/`, and the kinds of change spec-diff reports of it
/// (each acknowledged by the release's history row).
#[derive(Debug)]
pub struct Release {
    /// `4-removal`.
    pub name: String,
    /// The edits, on files relative to `spec/`.
    pub steps: Vec<Step>,
    /// Kinds spec-diff must report.
    pub kinds: Vec<ChangeKind>,
}

/// The releases' dates and tags: after any row of a real history.
const ROWS: [(&str, &str); 5] = [
    ("2090-01-05", "v9.1.0"),
    ("2090-02-02", "v9.2.0"),
    ("2090-03-02", "v9.3.0"),
    ("2090-04-06", "v9.4.0"),
    ("2090-05-04", "v9.5.0"),
];

/// The release series on top of `files` (the real spec's files, relative to `spec/`): each
/// release is made on the spec the ones before it left, which is loaded to choose what releases
/// 4 and 5 change.
pub fn series(files: &BTreeMap<String, String>) -> Result<Vec<Release>, String> {
    let mut files = files.clone();
    let mut out = Vec::new();
    for (name, kinds) in [
        (
            "1-additions",
            vec![ChangeKind::EndpointAdded, ChangeKind::RecordAdded],
        ),
        ("2-overlaps", vec![ChangeKind::EndpointAdded]),
        ("3-methods", vec![ChangeKind::EndpointAdded]),
    ] {
        let path = workspace_root().join(format!("tests/follow/releases/{name}.yaml"));
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{name}: {e}"))?;
        let raw: Vec<RawStep> =
            mrds_spec::yaml::from_str(&text).map_err(|e| format!("{name}: {e}"))?;
        let steps = overlay::parse_steps(raw).map_err(|e| format!("{name}: {e}"))?;
        let api = load(&files).map_err(|e| format!("before {name}: {e}"))?;
        let steps = merged(&api, steps);
        overlay::apply(&mut files, &steps).map_err(|e| format!("{name}: {e}"))?;
        out.push(Release {
            name: name.to_owned(),
            steps,
            kinds,
        });
    }
    for (name, make) in [
        (
            "4-removal",
            removal as fn(&Api, &BTreeMap<String, String>) -> Result<Vec<Step>, String>,
        ),
        ("5-retype-and-narrow", retype_and_narrow),
    ] {
        let api = load(&files).map_err(|e| format!("before {name}: {e}"))?;
        let steps = make(&api, &files).map_err(|e| format!("{name}: {e}"))?;
        overlay::apply(&mut files, &steps).map_err(|e| format!("{name}: {e}"))?;
        let kinds = match name {
            "4-removal" => vec![ChangeKind::EndpointMarkedRemoved],
            _ => vec![ChangeKind::FieldTypeChanged, ChangeKind::ParamRangeNarrowed],
        };
        out.push(Release {
            name: name.to_owned(),
            steps,
            kinds,
        });
    }
    Ok(out)
}

/// `steps` with what they add at the service's level merged with what `api` holds: an error
/// code the spec has already (the catalog's `POST` brings the codes a body needs, so a spec may
/// hold them before the series does) is left out of the files the steps add, so the series
/// applies to a spec that already has them, and never claims the provider's names twice.
fn merged(api: &Api, steps: Vec<Step>) -> Vec<Step> {
    let has = |line: &str| {
        let code = line
            .trim_start()
            .strip_prefix("- { code: ")
            .and_then(|rest| rest.split([',', ' ']).next());
        code.is_some_and(|c| api.error_codes.iter().any(|e| e.code == c))
    };
    steps
        .into_iter()
        .map(|step| match step {
            Step::Add { file, text } => {
                let mut lines: Vec<&str> = text.lines().filter(|l| !has(l)).collect();
                // A section left without items goes too.
                if let Some(i) = lines.iter().position(|l| l.trim() == "error_codes:")
                    && !lines
                        .get(i + 1)
                        .is_some_and(|l| l.trim_start().starts_with("- "))
                {
                    lines.remove(i);
                }
                let mut text = lines.join("\n");
                text.push('\n');
                Step::Add { file, text }
            }
            other => other,
        })
        .collect()
}

/// `files` (relative to `spec/`) loaded as a spec directory's files.
pub fn load(files: &BTreeMap<String, String>) -> Result<Api, String> {
    let named: Vec<(String, String)> = files
        .iter()
        .map(|(name, text)| (format!("spec/{name}"), text.clone()))
        .collect();
    mrds_spec::load_sources(&named).map_err(|d| d.to_string())
}

/// True for a name the series gave.
fn fixture(name: &str) -> bool {
    name.to_ascii_lowercase().starts_with(FIXTURE_PREFIX)
}

/// A history row of release `n` (1 to 5), in a file of its own.
fn history_row(n: usize, changes: &str, breaking: &[String]) -> Step {
    let (date, version) = ROWS[n - 1];
    let mut text = format!(
        "# yaml-language-server: $schema=./spec.schema.json\n# The provider's release {version}.\nhistory:\n  - date: {date}\n    versions: [{version}]\n"
    );
    if !changes.is_empty() {
        text.push_str(&format!("    changes:\n{changes}"));
    }
    if !breaking.is_empty() {
        text.push_str(&format!("    breaking: [{}]\n", breaking.join(", ")));
    }
    Step::add(format!("fixture-release-{n}.yaml"), text)
}

/// The line `location` names (`spec/records.yaml:12:9`), as a file relative to `spec/`, the
/// line's text and its number from 1.
fn line_at<'f>(
    files: &'f BTreeMap<String, String>,
    file: &str,
    line: usize,
) -> Result<(String, &'f str), String> {
    let name = file.strip_prefix("spec/").unwrap_or(file).to_owned();
    let text = files.get(&name).ok_or_else(|| format!("no file {name}"))?;
    let at = text
        .lines()
        .nth(line.saturating_sub(1))
        .ok_or_else(|| format!("{name} has no line {line}"))?;
    Ok((name, at))
}

/// Release 4: the first endpoint of the spec by id (not the series', not removed, without a
/// body) is marked removed, and a history row lists the removal. The first: the one the tests
/// of the sample server's machinery would stand on (`mrds_tests::served_endpoints`), so the
/// series shows they move on.
fn removal(api: &Api, files: &BTreeMap<String, String>) -> Result<Vec<Step>, String> {
    let e = (api.endpoints.iter())
        .find(|e| !fixture(&e.id) && e.removed.is_none() && e.body.is_none())
        .ok_or("no endpoint to remove")?;
    let (file, key) = line_at(files, &e.at.file, e.at.line)?;
    if key.trim() != format!("{}:", e.id) {
        return Err(format!(
            "{file}:{}: `{key}` is not the key of endpoint `{}`",
            e.at.line, e.id
        ));
    }
    let indent = &key[..key.len() - key.trim_start().len()];
    let (date, version) = ROWS[3];
    // The key with the line after it: a file may hold the endpoint's samples under the same
    // key (a draft does).
    let (_, next) = line_at(files, &e.at.file, e.at.line + 1)?;
    let removed = format!("{key}\n{indent}  removed: {{ date: {date}, version: {version} }}");
    let row = format!(
        "      - {{ action: removed, method: {}, path: \"{}\" }}\n",
        e.method, e.path
    );
    Ok(vec![
        Step::edit(
            file,
            format!("{key}\n{next}\n"),
            format!("{removed}\n{next}\n"),
        ),
        history_row(4, &row, &[]),
    ])
}

/// Release 5: the first integer field (without a format) of the first record of the spec that
/// has one becomes a number; the maximum of the first integer query parameter of an endpoint
/// of the spec (not removed) with a minimum and a maximum is halved, down to the largest of its
/// minimum, its default and the value its sample request gives. A history row acknowledges
/// both as breaking.
fn retype_and_narrow(api: &Api, files: &BTreeMap<String, String>) -> Result<Vec<Step>, String> {
    let (record, field) = (api.records.iter())
        .filter(|r| {
            !fixture(&r.spec_name) && r.id != api.errors.object && r.id != api.errors.detail
        })
        .find_map(|r| {
            let f = r
                .fields
                .iter()
                .find(|f| f.ty == TypeRef::Integer && f.format.is_none())?;
            Some((r, f))
        })
        .ok_or("no integer field to retype")?;
    let (file, line) = line_at(files, &field.at.file, field.at.line)?;
    if !line.contains("type: integer") {
        return Err(format!(
            "{file}:{}: `{line}` does not say `type: integer`",
            field.at.line
        ));
    }
    let mut steps = vec![Step::edit(
        file,
        line.to_owned(),
        line.replacen("type: integer", "type: number", 1),
    )];

    // Every parameter defined at the same place (an alias of one anchor) narrows with it.
    let params = || {
        (api.endpoints.iter())
            .filter(|e| !fixture(&e.id) && e.removed.is_none())
            .flat_map(|e| e.params.iter().map(move |p| (e, p)))
    };
    let (p, max, narrowed, sharing) = params()
        .find_map(|(_, p)| {
            let ValueType::Integer(t) = &p.ty else {
                return None;
            };
            let (min, max) = (t.min?, t.max?);
            if p.location != ParamLocation::Query || p.list.is_some() {
                return None;
            }
            let sharing: Vec<_> = params().filter(|(_, q)| q.at == p.at).collect();
            let floor = (sharing.iter())
                .flat_map(|(e, q)| [Some(min), default_of(q), example_of(e, q)])
                .flatten()
                .max()?;
            let narrowed = (max / 2).max(floor);
            (narrowed < max).then_some((p, max, narrowed, sharing))
        })
        .ok_or("no integer parameter to narrow")?;
    let (file, line) = line_at(files, &p.at.file, p.at.line)?;
    let bound = format!("max: {max}");
    if !line.contains(&bound) {
        return Err(format!(
            "{file}:{}: `{line}` does not say `{bound}`",
            p.at.line
        ));
    }
    steps.push(Step::edit(
        file,
        line.to_owned(),
        line.replacen(&bound, &format!("max: {narrowed}"), 1),
    ));
    let breaking: Vec<String> = std::iter::once(format!("{}.{}", record.spec_name, field.wire))
        .chain(sharing.iter().map(|(e, q)| format!("{}.{}", e.id, q.wire)))
        .collect();
    steps.push(history_row(5, "", &breaking));
    Ok(steps)
}

/// The default of an integer parameter.
fn default_of(p: &mrds_spec::model::Param) -> Option<i64> {
    match &p.default {
        Some(mrds_spec::model::Literal::Integer(n)) => Some(*n),
        _ => None,
    }
}

/// The value the sample request of `e` gives the integer parameter `p`.
fn example_of(e: &Endpoint, p: &mrds_spec::model::Param) -> Option<i64> {
    (e.samples.iter())
        .flat_map(|s| &s.example_values)
        .filter(|(id, _)| *id == p.id)
        .filter_map(|(_, v)| v.parse().ok())
        .max()
}
