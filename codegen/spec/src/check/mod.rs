//! Checking and lowering: from the loaded files to the resolved [`Api`], reporting every
//! problem at once with its file, line and column.
//!
//! One module per concern: [`service`] (the service section, error codes, and the shapes the
//! runtime relies on), [`names`] (the Rust names of types), [`types`] (value sets and record
//! fields), [`history`], [`endpoints`] (paths, parameter lists, removal, paging), [`params`]
//! (one parameter and its literals), [`rules`] (rules across parameters) and [`samples`].

use std::collections::{BTreeMap, BTreeSet};

use crate::ast::{self, Spanned};
use crate::diag::{Diagnostic, Diagnostics, Location, Span};
use crate::load::LoadedFile;
use crate::model::{
    Api, AuthScheme, Endpoint, Provenance, Record, RecordId, TypeRef, ValueSet, ValueSetId,
};
use crate::naming;

mod constraints;
mod endpoints;
mod examples;
mod history;
mod names;
mod params;
mod rules;
mod sample_rows;
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

/// A definition of a named section entry (a record, an endpoint), with its places.
type Def<'a, T> = &'a Spanned<T>;

/// The checking context: the files, and every problem found so far.
struct Cx<'a> {
    files: &'a [LoadedFile],
    errors: Vec<Diagnostic>,
    purpose: Purpose,
}

/// What the samples of one endpoint are checked against: the endpoint (as far as it checked),
/// the record it returns, its parameters as declared, and its body's record with its fields
/// as declared.
pub(super) struct Target<'t> {
    pub ep: &'t Endpoint,
    pub record: &'t Record,
    pub declared: &'t [Spanned<ast::Param>],
    pub body: Option<&'t Record>,
    pub body_fields: &'t [Spanned<ast::Field>],
}

/// The resolved types: what endpoints and samples are checked against.
struct Types<'t> {
    records: &'t [Record],
    value_sets: &'t [ValueSet],
    names: &'t TypeNames<'t>,
    /// The records as declared.
    record_defs: &'t BTreeMap<&'t str, Def<'t, ast::Record>>,
}

impl Types<'_> {
    /// True when `record` declares a field `name` (which may have failed its checks).
    fn declares_field(&self, record: &Record, name: &str) -> bool {
        self.record_defs
            .get(record.spec_name.as_str())
            .is_some_and(|def| def.fields.iter().any(|f| f.name == name))
    }
}

/// The records and value sets the spec defines, by the names the spec writes, with their ids.
struct TypeNames<'a> {
    records: BTreeMap<&'a str, RecordId>,
    value_sets: BTreeMap<&'a str, ValueSetId>,
    /// The Rust names of the value sets and their values' wire spellings, by id.
    value_set_names: Vec<String>,
    value_set_wires: Vec<Vec<String>>,
    /// The records that are the body of a request, by the endpoints sending them.
    bodies: BTreeMap<&'a str, Vec<&'a str>>,
}

impl<'a> Cx<'a> {
    /// The location of `span`, with its file's name.
    fn loc(&self, span: Span) -> Location {
        Location {
            file: self
                .files
                .get(span.file as usize)
                .map_or_else(String::new, |f| f.name.clone()),
            line: span.line as usize,
            column: span.column as usize,
        }
    }

    /// Reports a problem at `at`.
    fn err(&mut self, at: Span, msg: impl Into<String>) -> &mut Diagnostic {
        let d = Diagnostic::at(self.loc(at), msg);
        self.errors.push(d);
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

    /// Merges one named section of every file, reporting names defined in two files; `what`
    /// names an entry (`record`).
    fn merge<T>(
        &mut self,
        what: &str,
        get: impl Fn(&'a ast::SpecFile) -> &'a BTreeMap<String, Spanned<T>>,
    ) -> BTreeMap<&'a str, Def<'a, T>> {
        let mut out: BTreeMap<&'a str, Def<'a, T>> = BTreeMap::new();
        for file in self.files {
            for (name, item) in get(&file.ast) {
                if let Some(first) = out.get(name.as_str()) {
                    let first_at = self.loc(first.key_at());
                    let d = self.err(item.key_at(), format!("{what} `{name}` is defined twice"));
                    Self::hint(d, format!("the first definition is at {first_at}"));
                } else {
                    out.insert(name, item);
                }
            }
        }
        out
    }

    fn run(&mut self) -> Option<Api> {
        let service = self.service_section();
        let records = self.merge("record", |f| &f.records);
        let value_sets = self.merge("value set", |f| &f.value_sets);
        let endpoints = self.merge("endpoint", |f| &f.endpoints);

        let error_codes = self.error_codes();
        self.type_names(&records, &value_sets, &endpoints);

        // Which value sets a record field uses: those are tolerant.
        let mut tolerant = BTreeSet::new();
        for def in records.values() {
            for f in def.fields.iter() {
                if value_sets.contains_key(f.ty.as_str()) {
                    tolerant.insert(f.ty.as_str());
                }
            }
        }
        let value_sets_ir: Vec<ValueSet> = value_sets
            .iter()
            .enumerate()
            .map(|(i, (name, def))| {
                self.value_set(ValueSetId::new(i), name, def, tolerant.contains(name))
            })
            .collect();
        let type_names = TypeNames {
            records: (records.keys().enumerate())
                .map(|(i, name)| (*name, RecordId::new(i)))
                .collect(),
            value_sets: (value_sets.keys().enumerate())
                .map(|(i, name)| (*name, ValueSetId::new(i)))
                .collect(),
            value_set_names: value_sets_ir.iter().map(|v| v.name.clone()).collect(),
            value_set_wires: (value_sets_ir.iter())
                .map(|v| v.values.iter().map(|x| x.wire.clone()).collect())
                .collect(),
            bodies: endpoints
                .iter()
                .filter_map(|(id, e)| Some((e.body.as_ref()?.as_str(), *id)))
                .fold(BTreeMap::new(), |mut all, (record, id)| {
                    all.entry(record).or_insert_with(Vec::new).push(id);
                    all
                }),
        };
        let records_ir: Vec<Record> = records
            .iter()
            .enumerate()
            .map(|(i, (name, def))| Record {
                id: RecordId::new(i),
                at: self.loc(def.key_at()),
                name: naming::type_name(name).unwrap_or_else(|_| name.to_string()),
                spec_name: name.to_string(),
                doc: def.doc.clone(),
                provenance: Provenance::from_reason(def.assumed.as_ref()),
                fields: self.fields(
                    &def.fields,
                    &type_names,
                    types::Owner::Record {
                        name,
                        body: type_names.bodies.contains_key(name),
                    },
                ),
            })
            .collect();
        let mut records_ir = records_ir;
        box_recursive_fields(&mut records_ir);
        let envelope = service.map(|s| self.envelope(s, &type_names));
        let errors = envelope
            .as_ref()
            .and_then(|e| self.protocol_shapes(&records, &records_ir, e));

        let history = self.history();
        let types = Types {
            records: &records_ir,
            value_sets: &value_sets_ir,
            names: &type_names,
            record_defs: &records,
        };
        let mut endpoints_ir = self.endpoints(&endpoints, &types, &history);
        self.samples(&mut endpoints_ir, &endpoints, &types);

        let s = service?;
        let service_ok = self.service_ok(s);
        let envelope = envelope?;
        if !service_ok {
            return None;
        }
        let errors = errors?;
        Some(Api {
            at: self.loc(s.key_at()),
            title: s.title.clone(),
            doc: s.doc.clone(),
            api_version: s.api_version.to_string(),
            base_path: s.base_path.to_string(),
            auth: AuthScheme {
                at: self.loc(s.auth.at()),
                header: s.auth.header.to_string(),
                doc: s.auth.doc.clone(),
                provenance: Provenance::from_reason(s.auth.assumed.as_ref()),
            },
            envelope,
            error_codes,
            records: records_ir,
            value_sets: value_sets_ir,
            endpoints: endpoints_ir,
            history,
            errors,
        })
    }
}

/// Marks the fields that make a record contain itself (directly, or through other records,
/// never through an array): they are boxed.
fn box_recursive_fields(records: &mut [Record]) {
    // Edges: record -> records its non-array fields hold.
    let edges: Vec<Vec<RecordId>> = records
        .iter()
        .map(|r| {
            r.fields
                .iter()
                .filter(|f| !f.array)
                .filter_map(|f| match f.ty {
                    TypeRef::Record(id) => Some(id),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let reaches = |from: RecordId, to: RecordId| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from];
        while let Some(next) = stack.pop() {
            if next == to {
                return true;
            }
            if seen.insert(next) {
                stack.extend(edges.get(next.index()).into_iter().flatten().copied());
            }
        }
        false
    };
    for r in records.iter_mut() {
        for f in r.fields.iter_mut().filter(|f| !f.array) {
            if let TypeRef::Record(id) = f.ty {
                f.boxed = reaches(id, r.id);
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
