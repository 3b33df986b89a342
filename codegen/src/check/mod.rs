//! Checking and lowering: from the loaded files to the resolved [`Api`], reporting every
//! problem at once with its file, line and column.
//!
//! One module per concern: [`service`] (the service section, error codes, and the shapes the
//! runtime relies on), [`names`] (the Rust names of types), [`types`] (value sets and record
//! fields), [`history`], [`endpoints`] (paths, parameter lists, removal, paging), [`params`]
//! (one parameter and its literals), [`rules`] (rules across parameters) and [`samples`].

use std::collections::{BTreeMap, BTreeSet};

use crate::ast;
use crate::diag::{Diagnostic, Diagnostics};
use crate::load::LoadedFile;
use crate::model::*;
use crate::naming;

mod endpoints;
mod history;
mod names;
mod params;
mod rules;
mod samples;
mod service;
mod types;

/// Checks the loaded files and builds the resolved model.
pub fn check(files: &[LoadedFile]) -> Result<Api, Diagnostics> {
    check_with(files, Purpose::Generate)
}

/// What a resolved model is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Generating crates: everything the generated code needs is required.
    Generate,
    /// Comparing with another spec only (a `spec-diff` base): the error codes the current
    /// runtime answers with are not required, so a base written before the runtime answered
    /// one of them still loads (the comparison reports the code as added).
    Compare,
}

/// [`check`] for `purpose`.
pub fn check_with(files: &[LoadedFile], purpose: Purpose) -> Result<Api, Diagnostics> {
    let mut cx = Cx {
        files,
        errors: Vec::new(),
        purpose,
    };
    let api = cx.run();
    let mut errors = Diagnostics(cx.errors);
    errors.normalize();
    match api {
        Some(api) if errors.is_empty() => Ok(api),
        _ => Err(errors),
    }
}

/// A definition and where it came from.
struct Def<'a, T> {
    file: &'a LoadedFile,
    path: String,
    item: &'a T,
}

/// The checking context: the files, and every problem found so far.
struct Cx<'a> {
    files: &'a [LoadedFile],
    errors: Vec<Diagnostic>,
    purpose: Purpose,
}

/// The names of the records and value sets the spec defines, as written in the spec.
struct TypeNames<'a> {
    records: BTreeSet<&'a str>,
    value_sets: BTreeSet<&'a str>,
}

impl<'a> Cx<'a> {
    /// Reports a problem at the value of `path` in `file`.
    fn err(&mut self, file: &LoadedFile, path: &str, msg: impl Into<String>) -> &mut Diagnostic {
        self.errors.push(Diagnostic::at(file.at(path), msg));
        self.errors.last_mut().expect("just pushed")
    }

    /// Reports a problem at the key naming `path` in `file`.
    fn err_key(
        &mut self,
        file: &LoadedFile,
        path: &str,
        msg: impl Into<String>,
    ) -> &mut Diagnostic {
        self.errors.push(Diagnostic::at(file.key_at(path), msg));
        self.errors.last_mut().expect("just pushed")
    }

    fn hint(d: &mut Diagnostic, hint: impl Into<String>) {
        d.hint = Some(hint.into());
    }

    fn suggest<'b>(d: &mut Diagnostic, got: &str, candidates: impl IntoIterator<Item = &'b str>) {
        if let Some(best) = crate::diag::closest(got, candidates) {
            d.hint = Some(format!("did you mean `{best}`?"));
        }
    }

    /// Merges one named section of every file, reporting names defined in two files.
    fn merge<T>(
        &mut self,
        section: &str,
        get: impl Fn(&'a ast::SpecFile) -> &'a BTreeMap<String, T>,
    ) -> BTreeMap<&'a str, Def<'a, T>> {
        let mut out: BTreeMap<&'a str, Def<'a, T>> = BTreeMap::new();
        for file in self.files {
            for (name, item) in get(&file.ast) {
                let path = format!("{section}.{name}");
                if let Some(first) = out.get(name.as_str()) {
                    let first_at = first.file.key_at(&first.path);
                    let what = match section {
                        "records" => "record",
                        "value_sets" => "value set",
                        "samples" => "sample section",
                        _ => "endpoint",
                    };
                    let d = self.err_key(file, &path, format!("{what} `{name}` is defined twice"));
                    Self::hint(d, format!("the first definition is at {first_at}"));
                } else {
                    out.insert(name, Def { file, path, item });
                }
            }
        }
        out
    }

    fn run(&mut self) -> Option<Api> {
        let service = self.service_section();
        let records = self.merge("records", |f| &f.records);
        let value_sets = self.merge("value_sets", |f| &f.value_sets);
        let endpoints = self.merge("endpoints", |f| &f.endpoints);

        let error_codes = self.error_codes();
        self.type_names(&records, &value_sets, &endpoints);

        // Which value sets a record field uses: those are tolerant.
        let mut tolerant = BTreeSet::new();
        for def in records.values() {
            for f in &def.item.fields {
                if value_sets.contains_key(f.ty.as_str()) {
                    tolerant.insert(f.ty.as_str());
                }
            }
        }
        let value_sets_ir: Vec<ValueSet> = value_sets
            .iter()
            .map(|(name, def)| self.value_set(name, def, tolerant.contains(name)))
            .collect();
        let type_names = TypeNames {
            records: records.keys().copied().collect(),
            value_sets: value_sets.keys().copied().collect(),
        };
        let records_ir: Vec<Record> = records
            .iter()
            .map(|(name, def)| Record {
                at: def.file.key_at(&def.path),
                name: naming::type_name(name).unwrap_or_else(|_| name.to_string()),
                spec_name: name.to_string(),
                doc: def.item.doc.clone(),
                provenance: Provenance::from_reason(def.item.assumed.as_ref()),
                fields: self.fields(
                    def.file,
                    &format!("{}.fields", def.path),
                    &def.item.fields,
                    &type_names,
                    false,
                ),
            })
            .collect();
        let mut records_ir = records_ir;
        box_recursive_fields(&mut records_ir);
        let envelope = service.map(|(file, s)| self.envelope(file, s, &type_names));
        self.protocol_shapes(&records, &records_ir);

        let history = self.history();
        let mut endpoints_ir = self.endpoints(&endpoints, &records, &value_sets_ir, &history);
        self.samples(
            &mut endpoints_ir,
            &endpoints,
            &samples::Types {
                records: &records_ir,
                value_sets: &value_sets_ir,
            },
        );

        let (file, s) = service?;
        let service_ok = self.service_ok(s, file);
        let envelope = envelope?;
        if !service_ok {
            return None;
        }
        Some(Api {
            at: file.key_at("service"),
            title: s.title.clone(),
            doc: s.doc.clone(),
            api_version: s.api_version.clone(),
            base_path: s.base_path.clone(),
            auth: AuthScheme {
                at: file.at("service.auth"),
                header: s.auth.header.clone(),
                doc: s.auth.doc.clone(),
                provenance: Provenance::from_reason(s.auth.assumed.as_ref()),
            },
            envelope,
            error_codes,
            records: records_ir,
            value_sets: value_sets_ir,
            endpoints: endpoints_ir,
            history,
        })
    }
}

/// Marks the fields that make a record contain itself (directly, or through other records,
/// never through an array): they are boxed.
fn box_recursive_fields(records: &mut [Record]) {
    // Edges: record -> records its non-array fields hold.
    let edges: BTreeMap<String, Vec<String>> = records
        .iter()
        .map(|r| {
            let held = r
                .fields
                .iter()
                .filter(|f| !f.array)
                .filter_map(|f| match &f.ty {
                    TypeRef::Record(name) => Some(name.clone()),
                    _ => None,
                })
                .collect();
            (r.name.clone(), held)
        })
        .collect();
    let reaches = |from: &str, to: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(next) = stack.pop() {
            if next == to {
                return true;
            }
            if seen.insert(next.clone()) {
                stack.extend(edges.get(&next).into_iter().flatten().cloned());
            }
        }
        false
    };
    for r in records.iter_mut() {
        for f in r.fields.iter_mut().filter(|f| !f.array) {
            if let TypeRef::Record(name) = &f.ty {
                f.boxed = reaches(name, &r.name);
            }
        }
    }
}

/// `` `a`, `b` ``: names for a message.
fn quoted<S: AsRef<str>>(names: &[S]) -> String {
    names
        .iter()
        .map(|n| format!("`{}`", n.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The message of a regex error: its last line, without the `error: ` prefix.
fn regex_problem(e: &regex::Error) -> String {
    let text = e.to_string();
    let last = text.lines().last().unwrap_or("invalid").trim();
    last.strip_prefix("error: ").unwrap_or(last).to_string()
}
