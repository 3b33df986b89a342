//! Checking and lowering: from the loaded files to the resolved [`Api`], reporting every
//! problem at once with its file, line and column.

use std::collections::{BTreeMap, BTreeSet};

use crate::ast::{self, Format, ParamLocation};
use crate::diag::{Diagnostic, Diagnostics};
use crate::load::LoadedFile;
use crate::model::*;
use crate::naming;

mod samples;

/// Primitive field types.
const FIELD_PRIMITIVES: &[&str] = &["string", "integer", "number", "boolean", "any"];
/// Primitive parameter types.
const PARAM_PRIMITIVES: &[&str] = &["string", "integer", "boolean"];
/// Type names the generated model crate defines itself.
const RESERVED_TYPES: &[&str] = &[
    // Defined by the generated model crate itself.
    "Auth",
    "Change",
    "ChangeAction",
    "Endpoint",
    "Envelope",
    "ErrorCode",
    "HistoryEntry",
    "ParamRules",
    "ParamValue",
    "RawParams",
    "Removal",
    "Request",
    "UnknownValue",
    "ValidationError",
    "ValidationIssue",
    // Names the generated code uses unqualified.
    "Box",
    "Option",
    "Result",
    "Some",
    "None",
    "Ok",
    "Err",
    "String",
    "Vec",
];

/// Error codes the generated crates answer with (validation, keys, lookups, removed
/// endpoints, rate limits, failures), so every spec must define them.
const NEEDED_ERROR_CODES: &[&str] = &[
    "INVALID_PARAMETER",
    "UNAUTHORIZED",
    "RESOURCE_NOT_FOUND",
    "ENDPOINT_REMOVED",
    "RATE_LIMITED",
    "INTERNAL_ERROR",
];

/// Checks the loaded files and builds the resolved model.
pub fn check(files: &[LoadedFile]) -> Result<Api, Diagnostics> {
    let mut cx = Cx {
        files,
        errors: Vec::new(),
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

struct Cx<'a> {
    files: &'a [LoadedFile],
    errors: Vec<Diagnostic>,
}

impl<'a> Cx<'a> {
    fn err(&mut self, file: &LoadedFile, path: &str, msg: impl Into<String>) -> &mut Diagnostic {
        self.errors.push(Diagnostic::at(file.at(path), msg));
        self.errors.last_mut().expect("just pushed")
    }

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
        // The service section: exactly one.
        let mut services = self
            .files
            .iter()
            .filter_map(|f| f.ast.service.as_ref().map(|s| (f, s)));
        let service = services.next();
        for (file, _) in services {
            let first = service.map(|(f, _)| f.key_at("service"));
            let d = self.err_key(file, "service", "the `service` section is given twice");
            if let Some(first) = first {
                Self::hint(d, format!("the first one is at {first}"));
            }
        }
        if service.is_none() {
            self.errors.push(
                Diagnostic::global("no spec file has a `service` section").with_hint(
                    "add `service:` with title, doc, api_version, base_path, auth and envelope",
                ),
            );
        }

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
                name: naming::type_name(name).unwrap_or_else(|_| name.to_string()),
                spec_name: name.to_string(),
                doc: def.item.doc.clone(),
                source: def.item.source,
                fields: self.fields(
                    def.file,
                    &format!("{}.fields", def.path),
                    &def.item.fields,
                    &type_names,
                    false,
                ),
            })
            .collect();

        let envelope = service.map(|(file, s)| {
            let fields = self.fields(file, "service.envelope.fields", &s.envelope.fields, &type_names, true);
            let n = fields.iter().filter(|f| f.ty == TypeRef::Records).count();
            if n != 1 {
                self.err(
                    file,
                    "service.envelope.fields",
                    format!("the envelope needs exactly one field of type `records` (the endpoint's records); it has {n}"),
                );
            }
            Envelope {
                doc: s.envelope.doc.clone(),
                fields,
            }
        });

        let history = self.history();
        let mut seen_rules: BTreeMap<String, String> = BTreeMap::new();
        let mut seen_routes: BTreeMap<(ast::Method, String), String> = BTreeMap::new();
        let mut endpoints_ir: Vec<Endpoint> = endpoints
            .iter()
            .filter_map(|(id, def)| {
                let ep = self.endpoint(id, def, &records, &value_sets_ir, &history);
                let route = (def.item.method, normalize_route(&def.item.path));
                if let Some(other) = seen_routes.get(&route) {
                    let d = self.err(
                        def.file,
                        &format!("{}.path", def.path),
                        format!("endpoints `{other}` and `{id}` have the same method and path"),
                    );
                    Self::hint(d, "each method and path may be defined once");
                } else {
                    seen_routes.insert(route, id.to_string());
                }
                for (i, rule) in def.item.rules.iter().enumerate() {
                    let path = format!("{}.rules[{i}].id", def.path);
                    if let Some(other) = seen_rules.get(&rule.id) {
                        let d = self.err(
                            def.file,
                            &path,
                            format!("rule id `{}` is used twice", rule.id),
                        );
                        Self::hint(
                            d,
                            format!(
                                "it is also a rule of endpoint `{other}`; rule ids must be unique"
                            ),
                        );
                    } else {
                        seen_rules.insert(rule.id.clone(), id.to_string());
                    }
                }
                ep
            })
            .collect();

        self.samples(
            &mut endpoints_ir,
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
            title: s.title.clone(),
            doc: s.doc.clone(),
            api_version: s.api_version.clone(),
            base_path: s.base_path.clone(),
            auth: AuthScheme {
                header: s.auth.header.clone(),
                doc: s.auth.doc.clone(),
                source: s.auth.source,
            },
            envelope,
            error_codes,
            records: records_ir,
            value_sets: value_sets_ir,
            endpoints: endpoints_ir,
            history,
        })
    }

    fn service_ok(&mut self, s: &ast::Service, file: &LoadedFile) -> bool {
        let before = self.errors.len();
        if !s.base_path.starts_with('/')
            || s.base_path.ends_with('/')
            || s.base_path.contains(['?', '#', '{'])
        {
            let d = self.err(file, "service.base_path", format!("base path `{}` must start with `/`, not end with `/`, and hold no `?`, `#` or `{{`", s.base_path));
            Self::hint(d, "for example `/api`");
        }
        if !is_header_name(&s.auth.header) {
            self.err(
                file,
                "service.auth.header",
                format!("`{}` is not a valid HTTP header name", s.auth.header),
            );
        }
        self.errors.len() == before
    }

    fn error_codes(&mut self) -> Vec<ErrorCode> {
        let mut out: Vec<ErrorCode> = Vec::new();
        let mut seen: BTreeMap<String, String> = BTreeMap::new();
        for file in self.files {
            for (i, e) in file.ast.error_codes.iter().enumerate() {
                let path = format!("error_codes[{i}]");
                if !(400..=599).contains(&e.status) {
                    let d = self.err(
                        file,
                        &format!("{path}.status"),
                        format!(
                            "error code `{}` has HTTP status {}, outside 400..=599",
                            e.code, e.status
                        ),
                    );
                    Self::hint(
                        d,
                        "error codes answer with a client (4xx) or server (5xx) status",
                    );
                }
                let variant = match naming::variant_name(&e.code, None) {
                    Ok(v) => v,
                    Err(msg) => {
                        self.err(file, &format!("{path}.code"), msg);
                        continue;
                    }
                };
                if variant == naming::CATCH_ALL {
                    self.err(file, &format!("{path}.code"), format!("error code `{}` takes the name `{}`, reserved for codes the spec does not know", e.code, naming::CATCH_ALL));
                    continue;
                }
                if let Some(other) = seen.get(&variant) {
                    let msg = if *other == e.code {
                        format!("error code `{}` is listed twice", e.code)
                    } else {
                        format!(
                            "error codes `{other}` and `{}` both become the Rust name `{variant}`",
                            e.code
                        )
                    };
                    self.err(file, &format!("{path}.code"), msg);
                    continue;
                }
                seen.insert(variant.clone(), e.code.clone());
                out.push(ErrorCode {
                    code: e.code.clone(),
                    variant,
                    status: e.status,
                    doc: e.doc.clone(),
                    source: e.source,
                });
            }
        }
        if self.files.iter().any(|f| f.ast.service.is_some()) {
            let missing: Vec<&str> = NEEDED_ERROR_CODES
                .iter()
                .copied()
                .filter(|code| !out.iter().any(|e| e.code == *code))
                .collect();
            if !missing.is_empty() {
                let list = missing.join(", ");
                let at = self
                    .files
                    .iter()
                    .find(|f| !f.ast.error_codes.is_empty())
                    .map(|f| f.key_at("error_codes"));
                let message =
                    format!("the error codes lack {list}, which the generated server answers with");
                let d = match at {
                    Some(at) => Diagnostic::at(at, message),
                    None => Diagnostic::global(message),
                };
                self.errors.push(d.with_hint(format!(
                    "add `error_codes:` entries for {list} with their HTTP status"
                )));
            }
        }
        out
    }

    /// Every generated type name must be valid and unique.
    fn type_names(
        &mut self,
        records: &BTreeMap<&'a str, Def<'a, ast::Record>>,
        value_sets: &BTreeMap<&'a str, Def<'a, ast::ValueSet>>,
        endpoints: &BTreeMap<&'a str, Def<'a, ast::Endpoint>>,
    ) {
        let mut taken: BTreeMap<String, String> = RESERVED_TYPES
            .iter()
            .map(|n| {
                (
                    n.to_string(),
                    "a type the generator defines itself".to_string(),
                )
            })
            .collect();
        let mut claim =
            |cx: &mut Self, rust: String, what: String, file: &LoadedFile, path: &str| {
                if let Some(other) = taken.get(&rust) {
                    let d = cx.err_key(
                        file,
                        path,
                        format!("{what} becomes the Rust type `{rust}`, which is already {other}"),
                    );
                    Self::hint(d, "rename one of them");
                } else {
                    taken.insert(rust, what);
                }
            };
        for (name, def) in records {
            match naming::type_name(name) {
                Ok(rust) => claim(self, rust, format!("record `{name}`"), def.file, &def.path),
                Err(msg) => {
                    self.err_key(def.file, &def.path, msg);
                }
            }
        }
        for (name, def) in value_sets {
            match naming::type_name(name) {
                Ok(rust) => claim(
                    self,
                    rust,
                    format!("value set `{name}`"),
                    def.file,
                    &def.path,
                ),
                Err(msg) => {
                    self.err_key(def.file, &def.path, msg);
                }
            }
        }
        for (id, def) in endpoints {
            if naming::is_operation_id(id) {
                claim(
                    self,
                    naming::params_type(id),
                    format!("the parameter type of endpoint `{id}`"),
                    def.file,
                    &def.path,
                );
            } else {
                let d = self.err_key(
                    def.file,
                    &def.path,
                    format!("endpoint id `{id}` is not a snake_case Rust identifier"),
                );
                Self::hint(
                    d,
                    "use lowercase words joined by `_`, e.g. `stock_dividends`",
                );
            }
        }
    }

    fn value_set(&mut self, name: &str, def: &Def<'a, ast::ValueSet>, tolerant: bool) -> ValueSet {
        let mut values = Vec::new();
        let mut wires: BTreeSet<&str> = BTreeSet::new();
        let mut idents: BTreeMap<String, &str> = BTreeMap::new();
        if def.item.values.is_empty() {
            self.err(
                def.file,
                &format!("{}.values", def.path),
                format!("value set `{name}` has no values"),
            );
        }
        for (i, v) in def.item.values.iter().enumerate() {
            let path = format!("{}.values[{i}]", def.path);
            if v.value.is_empty() {
                self.err(
                    def.file,
                    &format!("{path}.value"),
                    format!("value set `{name}` has an empty value"),
                );
                continue;
            }
            if !wires.insert(&v.value) {
                self.err(
                    def.file,
                    &format!("{path}.value"),
                    format!("value `{}` is listed twice in value set `{name}`", v.value),
                );
                continue;
            }
            let ident = match naming::variant_name(&v.value, v.rust.as_deref()) {
                Ok(ident) => ident,
                Err(msg) => {
                    let at = if v.rust.is_some() {
                        format!("{path}.rust")
                    } else {
                        format!("{path}.value")
                    };
                    let d = self.err(def.file, &at, format!("{msg} in value set `{name}`"));
                    Self::hint(d, "give the variant a name with `rust: SomeName`");
                    continue;
                }
            };
            if tolerant && ident == naming::CATCH_ALL {
                let d = self.err(def.file, &format!("{path}.value"), format!("value `{}` of `{name}` takes the variant name `{}`, reserved for values the spec does not know", v.value, naming::CATCH_ALL));
                Self::hint(d, "give the variant another name with `rust: SomeName`");
                continue;
            }
            if let Some(other) = idents.get(&ident) {
                let d = self.err(def.file, &format!("{path}.value"), format!("values `{other}` and `{}` of `{name}` both become the Rust variant `{ident}`", v.value));
                Self::hint(d, "give one of them another name with `rust: SomeName`");
                continue;
            }
            idents.insert(ident.clone(), &v.value);
            values.push(Variant {
                wire: v.value.clone(),
                ident,
                doc: v.doc.clone(),
                source: v.source,
            });
        }
        ValueSet {
            name: naming::type_name(name).unwrap_or_else(|_| name.to_string()),
            spec_name: name.to_string(),
            doc: def.item.doc.clone(),
            source: def.item.source,
            tolerant,
            values,
        }
    }

    fn fields(
        &mut self,
        file: &LoadedFile,
        base: &str,
        fields: &[ast::Field],
        types: &TypeNames<'_>,
        envelope: bool,
    ) -> Vec<Field> {
        let mut out = Vec::new();
        let mut wires = BTreeSet::new();
        let mut idents: BTreeMap<String, &str> = BTreeMap::new();
        for (i, f) in fields.iter().enumerate() {
            let path = format!("{base}[{i}]");
            if !wires.insert(f.name.as_str()) {
                self.err(
                    file,
                    &format!("{path}.name"),
                    format!("field `{}` is listed twice", f.name),
                );
                continue;
            }
            let ident = match naming::field_name(&f.name) {
                Ok(ident) => ident,
                Err(msg) => {
                    self.err(file, &format!("{path}.name"), msg);
                    continue;
                }
            };
            if let Some(other) = idents.get(&ident) {
                let d = self.err(
                    file,
                    &format!("{path}.name"),
                    format!(
                        "fields `{other}` and `{}` both become the Rust field `{ident}`",
                        f.name
                    ),
                );
                Self::hint(
                    d,
                    "wire names must stay distinct once turned into snake_case",
                );
                continue;
            }
            idents.insert(ident.clone(), &f.name);
            let ty = match f.ty.as_str() {
                "string" => TypeRef::String,
                "integer" => TypeRef::Integer,
                "number" => TypeRef::Number,
                "boolean" => TypeRef::Boolean,
                "any" => TypeRef::Any,
                "records" if envelope => TypeRef::Records,
                "ErrorCode" => TypeRef::ErrorCode,
                other if types.records.contains(other) => {
                    TypeRef::Record(naming::type_name(other).unwrap_or_default())
                }
                other if types.value_sets.contains(other) => {
                    TypeRef::ValueSet(naming::type_name(other).unwrap_or_default())
                }
                other => {
                    let d = self.err(
                        file,
                        &format!("{path}.type"),
                        format!("unknown type `{other}` for field `{}`", f.name),
                    );
                    let mut candidates: Vec<&str> = FIELD_PRIMITIVES.to_vec();
                    candidates.extend(types.records.iter().copied());
                    candidates.extend(types.value_sets.iter().copied());
                    candidates.push("ErrorCode");
                    Self::suggest(d, other, candidates);
                    if d.hint.is_none() {
                        Self::hint(
                            d,
                            "a field type is string, integer, number, boolean, any, ErrorCode, a record or a value set",
                        );
                    }
                    continue;
                }
            };
            if let Some(format) = f.format {
                let ok = match format {
                    Format::UnixSeconds => ty == TypeRef::Integer,
                    _ => ty == TypeRef::String,
                };
                if !ok {
                    self.err(
                        file,
                        &format!("{path}.format"),
                        format!(
                            "format `{}` does not fit field `{}` of type `{}`",
                            format_name(format),
                            f.name,
                            f.ty
                        ),
                    );
                }
            }
            out.push(Field {
                wire: f.name.clone(),
                ident,
                ty,
                array: f.array,
                optional: f.optional,
                format: f.format,
                doc: f.doc.clone(),
                source: f.source,
            });
        }
        out
    }

    fn history(&mut self) -> Vec<HistoryEntry> {
        let mut out = Vec::new();
        for file in self.files {
            for (i, h) in file.ast.history.iter().enumerate() {
                let path = format!("history[{i}]");
                if !is_date(&h.date) {
                    self.err(
                        file,
                        &format!("{path}.date"),
                        format!("`{}` is not a date of the form YYYY-MM-DD", h.date),
                    );
                }
                if h.versions.is_empty() {
                    self.err(
                        file,
                        &format!("{path}.versions"),
                        "a history entry needs at least one version",
                    );
                }
                for (j, v) in h.versions.iter().enumerate() {
                    if !is_release_tag(v) {
                        let d = self.err(
                            file,
                            &format!("{path}.versions[{j}]"),
                            format!("`{v}` is not a release tag"),
                        );
                        Self::hint(d, "release tags look like `v0.10.43`");
                    }
                }
                for (j, c) in h.changes.iter().enumerate() {
                    if !c.path.starts_with("/v1/") {
                        self.err(
                            file,
                            &format!("{path}.changes[{j}].path"),
                            format!("history path `{}` does not start with `/v1/`", c.path),
                        );
                    }
                    if !c.method.chars().all(|ch| ch.is_ascii_uppercase()) || c.method.is_empty() {
                        self.err(
                            file,
                            &format!("{path}.changes[{j}].method"),
                            format!("`{}` is not an HTTP method in uppercase", c.method),
                        );
                    }
                }
                out.push(HistoryEntry {
                    date: h.date.clone(),
                    versions: h.versions.clone(),
                    changes: h
                        .changes
                        .iter()
                        .map(|c| Change {
                            action: c.action,
                            method: c.method.clone(),
                            path: c.path.clone(),
                        })
                        .collect(),
                });
            }
        }
        out
    }

    fn endpoint(
        &mut self,
        id: &str,
        def: &Def<'a, ast::Endpoint>,
        records: &BTreeMap<&'a str, Def<'a, ast::Record>>,
        value_sets: &[ValueSet],
        history: &[HistoryEntry],
    ) -> Option<Endpoint> {
        let before = self.errors.len();
        let (file, base, ep) = (def.file, def.path.as_str(), def.item);

        // Path and its placeholders.
        let placeholders = match path_placeholders(&ep.path) {
            Ok(p) => p,
            Err(msg) => {
                let d = self.err(
                    file,
                    &format!("{base}.path"),
                    format!("path `{}` of endpoint `{id}` {msg}", ep.path),
                );
                Self::hint(
                    d,
                    "paths look like `/v1/stocks/dividends` or `/v1/persons/{person_id}/commentary`",
                );
                Vec::new()
            }
        };

        if !records.contains_key(ep.returns.as_str()) {
            let d = self.err(
                file,
                &format!("{base}.returns"),
                format!("endpoint `{id}` returns unknown record `{}`", ep.returns),
            );
            Self::suggest(d, &ep.returns, records.keys().copied());
        }

        // Parameters.
        let mut params = Vec::new();
        let mut wires = BTreeSet::new();
        let mut idents: BTreeMap<String, &str> = BTreeMap::new();
        for (i, p) in ep.params.iter().enumerate() {
            let path = format!("{base}.params[{i}]");
            if !wires.insert(p.name.as_str()) {
                self.err(
                    file,
                    &format!("{path}.name"),
                    format!("parameter `{}` of endpoint `{id}` is listed twice", p.name),
                );
                continue;
            }
            match naming::field_name(&p.name) {
                Ok(ident) => {
                    if let Some(other) = idents.get(&ident) {
                        self.err(file, &format!("{path}.name"), format!("parameters `{other}` and `{}` of endpoint `{id}` both become the Rust field `{ident}`", p.name));
                        continue;
                    }
                    idents.insert(ident.clone(), &p.name);
                    if let Some(param) = self.param(file, &path, p, ident, value_sets) {
                        params.push(param);
                    }
                }
                Err(msg) => {
                    self.err(file, &format!("{path}.name"), msg);
                }
            }
        }
        for ph in &placeholders {
            match ep.params.iter().find(|p| &p.name == ph) {
                None => {
                    let d = self.err(
                        file,
                        &format!("{base}.path"),
                        format!("path placeholder `{{{ph}}}` of endpoint `{id}` has no parameter"),
                    );
                    Self::hint(
                        d,
                        format!("add a parameter `{ph}` with `in: path` and `required: true`"),
                    );
                }
                Some(p) if p.location != ParamLocation::Path => {
                    let i = ep
                        .params
                        .iter()
                        .position(|q| q.name == *ph)
                        .unwrap_or_default();
                    let d = self.err(file, &format!("{base}.params[{i}].in"), format!("parameter `{ph}` of endpoint `{id}` fills a path placeholder but is declared `in: query`"));
                    Self::hint(d, "declare it `in: path`");
                }
                Some(_) => {}
            }
        }
        for (i, p) in ep.params.iter().enumerate() {
            if p.location == ParamLocation::Path {
                if !placeholders.contains(&p.name) {
                    let d = self.err(file, &format!("{base}.params[{i}].name"), format!("path parameter `{}` of endpoint `{id}` does not appear in the path `{}`", p.name, ep.path));
                    Self::hint(
                        d,
                        format!(
                            "add `{{{}}}` to the path or declare the parameter `in: query`",
                            p.name
                        ),
                    );
                }
                if !p.required {
                    self.err(
                        file,
                        &format!("{base}.params[{i}].required"),
                        format!(
                            "path parameter `{}` of endpoint `{id}` must be `required: true`",
                            p.name
                        ),
                    );
                }
            }
        }

        // Removal: must agree with the change history.
        let removed = ep.removed.as_ref().map(|r| {
            let path = format!("{base}.removed");
            if !is_date(&r.date) {
                self.err(file, &format!("{path}.date"), format!("`{}` is not a date of the form YYYY-MM-DD", r.date));
            }
            let listed = history.iter().any(|h| {
                h.date == r.date
                    && h.versions.contains(&r.version)
                    && h.changes.iter().any(|c| {
                        c.action == ChangeAction::Removed && c.path == ep.path && c.method == "GET"
                    })
            });
            if !listed {
                let d = self.err(file, &path, format!("endpoint `{id}` is marked removed on {} in {}, but the change history has no such removal of GET {}", r.date, r.version, ep.path));
                Self::hint(d, "add the removal to `history`, or correct the date and version");
            }
            Removal {
                date: r.date.clone(),
                version: r.version.clone(),
            }
        });

        // Rules.
        let mut rules = Vec::new();
        for (i, r) in ep.rules.iter().enumerate() {
            if let Some(rule) = self.rule(
                id,
                file,
                &format!("{base}.rules[{i}]"),
                r,
                ep,
                &params,
                value_sets,
            ) {
                rules.push(rule);
            }
        }

        if self.errors.len() != before {
            return None;
        }
        Some(Endpoint {
            id: id.to_string(),
            params_type: naming::params_type(id),
            const_name: naming::const_name(id),
            method: ep.method,
            path: ep.path.clone(),
            summary: ep.summary.clone(),
            doc: ep.doc.clone(),
            ordering: ep.ordering.clone(),
            auth: ep.auth,
            auth_source: ep.auth_source,
            returns: naming::type_name(&ep.returns).unwrap_or_default(),
            source: ep.source,
            params,
            rules,
            removed,
            samples: None,
        })
    }

    fn param(
        &mut self,
        file: &LoadedFile,
        path: &str,
        p: &ast::Param,
        ident: String,
        value_sets: &[ValueSet],
    ) -> Option<Param> {
        let before = self.errors.len();
        let name = &p.name;
        let kind = match p.ty.as_str() {
            "string" => ParamKind::String,
            "integer" => ParamKind::Integer,
            "boolean" => ParamKind::Boolean,
            other => match value_sets.iter().find(|v| v.spec_name == other) {
                Some(vs) => ParamKind::Enum(vs.name.clone()),
                None => {
                    let d = self.err(
                        file,
                        &format!("{path}.type"),
                        format!("unknown type `{other}` for parameter `{name}`"),
                    );
                    let mut candidates: Vec<&str> = PARAM_PRIMITIVES.to_vec();
                    candidates.extend(value_sets.iter().map(|v| v.name.as_str()));
                    Self::suggest(d, other, candidates);
                    if d.hint.is_none() {
                        Self::hint(
                            d,
                            "a parameter type is string, integer, boolean or a value set",
                        );
                    }
                    return None;
                }
            },
        };
        let type_text = p.ty.as_str();
        if let Some(format) = p.format {
            let ok = match format {
                Format::UnixSeconds => kind == ParamKind::Integer,
                Format::Rfc3339 | Format::Uuid | Format::Hex16 | Format::Date => {
                    kind == ParamKind::String
                }
                _ => false,
            };
            if !ok {
                let d = self.err(
                    file,
                    &format!("{path}.format"),
                    format!(
                        "format `{}` does not fit parameter `{name}` of type `{type_text}`",
                        format_name(format)
                    ),
                );
                Self::hint(
                    d,
                    "parameters take unix_seconds on integers, and rfc3339, uuid, hex16 or date on strings",
                );
            }
        }
        if p.location == ParamLocation::Path && matches!(kind, ParamKind::Boolean) {
            self.err(
                file,
                &format!("{path}.type"),
                format!("path parameter `{name}` cannot be a boolean"),
            );
        }
        if (p.min.is_some() || p.max.is_some()) && kind != ParamKind::Integer {
            let key = if p.min.is_some() { "min" } else { "max" };
            self.err(file, &format!("{path}.{key}"), format!("parameter `{name}` has a range but is of type `{type_text}`; ranges apply to integers"));
        }
        if let (Some(min), Some(max)) = (p.min, p.max)
            && min > max
        {
            let d = self.err(
                file,
                &format!("{path}.min"),
                format!("parameter `{name}` has min {min} above its max {max}"),
            );
            Self::hint(d, "swap them, or correct one");
        }
        let pattern = p.pattern.as_ref().and_then(|re| {
            if kind != ParamKind::String {
                self.err(file, &format!("{path}.pattern"), format!("parameter `{name}` has a pattern but is of type `{type_text}`; patterns apply to strings"));
                return None;
            }
            self.regex(file, &format!("{path}.pattern"), re).map(|_| re.clone())
        });
        if p.pattern_doc.is_some() && p.pattern.is_none() {
            self.err(
                file,
                &format!("{path}.pattern_doc"),
                format!("parameter `{name}` explains a pattern it does not have"),
            );
        }
        if p.required && p.default.is_some() {
            let d = self.err(
                file,
                &format!("{path}.default"),
                format!("required parameter `{name}` has a default, which would never apply"),
            );
            Self::hint(d, "drop the default, or make the parameter optional");
        }
        let default = p.default.as_ref().and_then(|v| {
            let lit = self.literal(file, &format!("{path}.default"), v, &kind, value_sets, &format!("the default of `{name}`"))?;
            if let Literal::Integer(n) = lit
                && (p.min.is_some_and(|min| n < min) || p.max.is_some_and(|max| n > max))
            {
                let range = range_text(p.min, p.max);
                self.err(
                    file,
                    &format!("{path}.default"),
                    format!("the default {n} of parameter `{name}` is outside its own range {range}"),
                );
                return None;
            }
            if let (Literal::String(s), Some(re)) = (&lit, &pattern)
                && regex::Regex::new(re).is_ok_and(|re| !re.is_match(s))
            {
                self.err(file, &format!("{path}.default"), format!("the default `{s}` of parameter `{name}` does not match its own pattern `{re}`"));
                return None;
            }
            Some(lit)
        });
        if self.errors.len() != before {
            return None;
        }
        Some(Param {
            wire: p.name.clone(),
            ident,
            location: p.location,
            kind,
            format: p.format,
            required: p.required,
            default,
            min: p.min,
            max: p.max,
            pattern,
            pattern_doc: p.pattern_doc.clone(),
            doc: p.doc.clone(),
            source: p.source,
        })
    }

    /// A YAML scalar read as a value of `kind`.
    fn literal(
        &mut self,
        file: &LoadedFile,
        path: &str,
        v: &serde_yaml::Value,
        kind: &ParamKind,
        value_sets: &[ValueSet],
        what: &str,
    ) -> Option<Literal> {
        use serde_yaml::Value;
        let text = match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => {
                self.err(file, path, format!("{what} must be a single value"));
                return None;
            }
        };
        match kind {
            ParamKind::Integer => match v.as_i64() {
                Some(n) => Some(Literal::Integer(n)),
                None => {
                    self.err(file, path, format!("{what} is `{text}`, not an integer"));
                    None
                }
            },
            ParamKind::Boolean => match v.as_bool() {
                Some(b) => Some(Literal::Boolean(b)),
                None => {
                    self.err(
                        file,
                        path,
                        format!("{what} is `{text}`, not `true` or `false`"),
                    );
                    None
                }
            },
            ParamKind::String => Some(Literal::String(text)),
            ParamKind::Enum(set) => {
                let vs = value_sets.iter().find(|v| &v.name == set)?;
                match vs.values.iter().find(|x| x.wire == text) {
                    Some(x) => Some(Literal::Variant(ValueRef {
                        set: set.clone(),
                        ident: x.ident.clone(),
                        wire: x.wire.clone(),
                    })),
                    None => {
                        let d = self.err(
                            file,
                            path,
                            format!("{what} is `{text}`, which is not a value of `{set}`"),
                        );
                        Self::suggest(d, &text, vs.values.iter().map(|x| x.wire.as_str()));
                        if d.hint.is_none() {
                            let all: Vec<_> =
                                vs.values.iter().map(|x| format!("`{}`", x.wire)).collect();
                            Self::hint(d, format!("the values are {}", all.join(", ")));
                        }
                        None
                    }
                }
            }
        }
    }

    fn regex(&mut self, file: &LoadedFile, path: &str, re: &str) -> Option<regex::Regex> {
        match regex::Regex::new(re) {
            Ok(compiled) => {
                if !re.starts_with('^') || !re.ends_with('$') {
                    let d = self.err(file, path, format!("pattern `{re}` is not anchored"));
                    Self::hint(
                        d,
                        "start it with `^` and end it with `$`, so it describes the whole value everywhere (Rust and OpenAPI alike)",
                    );
                    None
                } else {
                    Some(compiled)
                }
            }
            Err(e) => {
                let detail = e.to_string();
                let last = detail.lines().last().unwrap_or("invalid").trim();
                let last = last.strip_prefix("error: ").unwrap_or(last).to_string();
                self.err(
                    file,
                    path,
                    format!("invalid regular expression `{re}`: {last}"),
                );
                None
            }
        }
    }

    /// A rule's parameter reference; reports an unknown one.
    #[allow(clippy::too_many_arguments)]
    fn param_ref<'p>(
        &mut self,
        file: &LoadedFile,
        path: &str,
        endpoint: &str,
        rule: &str,
        name: &str,
        declared: &'p [ast::Param],
        params: &'p [Param],
    ) -> Option<&'p Param> {
        if let Some(p) = params.iter().find(|p| p.wire == name) {
            return Some(p);
        }
        if declared.iter().any(|p| p.name == name) {
            return None; // declared but broken: already reported
        }
        let d = self.err(
            file,
            path,
            format!(
                "rule `{rule}` names parameter `{name}`, which endpoint `{endpoint}` does not have"
            ),
        );
        Self::suggest(d, name, declared.iter().map(|p| p.name.as_str()));
        if d.hint.is_none() {
            let all: Vec<_> = declared.iter().map(|p| format!("`{}`", p.name)).collect();
            Self::hint(
                d,
                format!(
                    "its parameters are {}",
                    if all.is_empty() {
                        "none".to_string()
                    } else {
                        all.join(", ")
                    }
                ),
            );
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    fn rule(
        &mut self,
        endpoint: &str,
        file: &LoadedFile,
        path: &str,
        r: &ast::Rule,
        ep: &ast::Endpoint,
        params: &[Param],
        value_sets: &[ValueSet],
    ) -> Option<Rule> {
        let before = self.errors.len();
        let id = r.id.as_str();
        let prefix = format!("{endpoint}.");
        if !id.starts_with(&prefix)
            || id.len() == prefix.len()
            || !id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.')
        {
            let d = self.err(file, &format!("{path}.id"), format!("rule id `{id}` must be `{endpoint}.<name>` in lowercase letters, digits and `_`"));
            Self::hint(d, format!("for example `{endpoint}.range_order`"));
        } else if id.matches('.').count() != 1 {
            let d = self.err(file, &format!("{path}.id"), format!("rule id `{id}` has more than one dot; ids of that shape belong to the generated per-parameter rules"));
            Self::hint(d, format!("for example `{endpoint}.range_order`"));
        }
        let checks = r.checks();
        let (kind, check) = match checks.as_slice() {
            [(kind, check)] => (*kind, check),
            [] => {
                let d = self.err(file, path, format!("rule `{id}` names no check"));
                Self::hint(
                    d,
                    format!(
                        "give exactly one of {}",
                        ast::CHECK_KINDS
                            .iter()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                return None;
            }
            [_, (second, _), ..] => {
                let d = self.err(
                    file,
                    &format!("{path}.{second}"),
                    format!("rule `{id}` names more than one check"),
                );
                Self::hint(d, "split it into one rule per check, each with its own id");
                return None;
            }
        };
        let cpath = format!("{path}.{kind}");
        let pref = |cx: &mut Self, sub: &str, name: &str| {
            let at = if sub.is_empty() {
                cpath.clone()
            } else {
                format!("{cpath}.{sub}")
            };
            cx.param_ref(file, &at, endpoint, id, name, &ep.params, params)
                .cloned()
        };
        let check = match check {
            ast::Check::Ordered(ast::Ordered {
                before: a_name,
                after: b_name,
            })
            | ast::Check::MaxSpan(ast::MaxSpan {
                from: a_name,
                to: b_name,
                ..
            }) => {
                let (k1, k2) = if kind == "ordered" {
                    ("before", "after")
                } else {
                    ("from", "to")
                };
                let a = pref(self, k1, a_name);
                let b = pref(self, k2, b_name);
                if let (Some(a), Some(b)) = (&a, &b) {
                    if a.wire == b.wire {
                        self.err(
                            file,
                            &cpath,
                            format!("rule `{id}` compares parameter `{}` with itself", a.wire),
                        );
                    } else if !is_instant(a) || !is_instant(b) || a.format != b.format {
                        let d = self.err(file, &cpath, format!("rule `{id}` compares `{}` and `{}`, which are not both Unix seconds or both RFC 3339 times", a.wire, b.wire));
                        Self::hint(
                            d,
                            "ordered and max_span compare two time parameters of the same format",
                        );
                    }
                }
                match check {
                    ast::Check::MaxSpan(m) => {
                        if m.seconds <= 0 {
                            self.err(
                                file,
                                &format!("{cpath}.seconds"),
                                format!(
                                    "rule `{id}` allows a span of {} seconds; it must be positive",
                                    m.seconds
                                ),
                            );
                        }
                        Check::MaxSpan {
                            from: a_name.clone(),
                            to: b_name.clone(),
                            seconds: m.seconds,
                        }
                    }
                    _ => Check::Ordered {
                        before: a_name.clone(),
                        after: b_name.clone(),
                    },
                }
            }
            ast::Check::Requires(ast::Requires { param, needs }) => {
                let a = pref(self, "param", param);
                let b = pref(self, "needs", needs);
                if let (Some(a), Some(b)) = (&a, &b) {
                    if a.wire == b.wire {
                        self.err(
                            file,
                            &cpath,
                            format!("rule `{id}` makes `{}` require itself", a.wire),
                        );
                    } else if a.required || b.required {
                        let which = if b.required { &b.wire } else { &a.wire };
                        let d = self.err(
                            file,
                            &cpath,
                            format!("rule `{id}` can never fail: `{which}` is required anyway"),
                        );
                        Self::hint(d, "`requires` relates two optional parameters");
                    }
                }
                Check::Requires {
                    param: param.clone(),
                    needs: needs.clone(),
                }
            }
            ast::Check::AtLeastOne(names) => {
                if names.len() < 2 {
                    self.err(
                        file,
                        &cpath,
                        format!("rule `{id}` needs at least two parameters"),
                    );
                }
                let mut seen = BTreeSet::new();
                for (i, n) in names.iter().enumerate() {
                    if !seen.insert(n) {
                        self.err(
                            file,
                            &format!("{cpath}[{i}]"),
                            format!("rule `{id}` names `{n}` twice"),
                        );
                    } else if let Some(p) = pref(self, "", n)
                        && p.required
                    {
                        let d = self.err(
                            file,
                            &format!("{cpath}[{i}]"),
                            format!("rule `{id}` can never fail: `{n}` is required anyway"),
                        );
                        Self::hint(d, "`at_least_one` names optional parameters");
                    }
                }
                Check::AtLeastOne(names.to_vec())
            }
            ast::Check::AllowedValues(ast::AllowedValues { param, values }) => {
                let lits = pref(self, "param", param).and_then(|p| {
                    if !matches!(p.kind, ParamKind::Enum(_)) {
                        self.err(file, &format!("{cpath}.param"), format!("rule `{id}` restricts the values of `{}`, which is not of a value set", p.wire));
                        return None;
                    }
                    if values.is_empty() {
                        self.err(file, &format!("{cpath}.values"), format!("rule `{id}` allows no value at all"));
                    }
                    let mut out = Vec::new();
                    for (i, v) in values.iter().enumerate() {
                        let y = serde_yaml::Value::String(v.clone());
                        out.push(self.literal(file, &format!("{cpath}.values[{i}]"), &y, &p.kind, value_sets, &format!("value `{v}` of rule `{id}`"))?);
                    }
                    Some(out)
                });
                Check::AllowedValues {
                    param: param.clone(),
                    values: lits.unwrap_or_default(),
                }
            }
            ast::Check::Matches(ast::Matches { param, pattern }) => {
                if let Some(p) = pref(self, "param", param)
                    && p.kind != ParamKind::String
                {
                    self.err(
                        file,
                        &format!("{cpath}.param"),
                        format!(
                            "rule `{id}` matches a pattern against `{}`, which is not a string",
                            p.wire
                        ),
                    );
                }
                self.regex(file, &format!("{cpath}.pattern"), pattern);
                Check::Matches {
                    param: param.clone(),
                    pattern: pattern.clone(),
                }
            }
        };
        let when = r.when.as_ref().and_then(|c| {
            let wpath = format!("{path}.when");
            let p = self.param_ref(file, &format!("{wpath}.param"), endpoint, id, &c.param, &ep.params, params)?.clone();
            match (&c.one_of, &c.matches) {
                (Some(values), None) => {
                    if values.is_empty() {
                        self.err(file, &format!("{wpath}.in"), format!("the condition of rule `{id}` lists no value"));
                    }
                    let mut out = Vec::new();
                    for (i, v) in values.iter().enumerate() {
                        let y = serde_yaml::Value::String(v.clone());
                        out.push(self.literal(file, &format!("{wpath}.in[{i}]"), &y, &p.kind, value_sets, &format!("value `{v}` in the condition of rule `{id}`"))?);
                    }
                    Some(Condition::In { param: c.param.clone(), values: out })
                }
                (None, Some(re)) => {
                    if p.kind != ParamKind::String {
                        self.err(file, &format!("{wpath}.param"), format!("the condition of rule `{id}` matches a pattern against `{}`, which is not a string", p.wire));
                        return None;
                    }
                    if !re.starts_with('^') {
                        let d = self.err(file, &format!("{wpath}.matches"), format!("condition pattern `{re}` does not start with `^`"));
                        Self::hint(d, "conditions match a prefix or the whole value; anchor them at the start");
                        return None;
                    }
                    regex::Regex::new(re).map_err(|e| {
                        let text = e.to_string();
                        let last = text.lines().last().unwrap_or("invalid").trim();
                        let last = last.strip_prefix("error: ").unwrap_or(last).to_string();
                        self.err(file, &format!("{wpath}.matches"), format!("invalid regular expression `{re}`: {last}"));
                    }).ok()?;
                    Some(Condition::Matches { param: c.param.clone(), pattern: re.clone() })
                }
                _ => {
                    let d = self.err(file, &wpath, format!("the condition of rule `{id}` needs exactly one of `in` and `matches`"));
                    Self::hint(d, "for example `when: { param: event_type, in: [Split Date] }`");
                    None
                }
            }
        });
        if self.errors.len() != before {
            return None;
        }
        Some(Rule {
            id: r.id.clone(),
            doc: r.doc.clone(),
            source: r.source,
            when,
            check,
        })
    }
}

struct TypeNames<'a> {
    records: BTreeSet<&'a str>,
    value_sets: BTreeSet<&'a str>,
}

fn is_instant(p: &Param) -> bool {
    matches!(
        (&p.kind, p.format),
        (ParamKind::Integer, Some(Format::UnixSeconds))
            | (ParamKind::String, Some(Format::Rfc3339))
    )
}

fn range_text(min: Option<i64>, max: Option<i64>) -> String {
    match (min, max) {
        (Some(a), Some(b)) => format!("{a}..={b}"),
        (Some(a), None) => format!(">= {a}"),
        (None, Some(b)) => format!("<= {b}"),
        (None, None) => "(none)".into(),
    }
}

/// The spec spelling of a format.
pub fn format_name(f: Format) -> &'static str {
    match f {
        Format::Date => "date",
        Format::Timestamp => "timestamp",
        Format::TimestampMillis => "timestamp_millis",
        Format::DateTime => "date_time",
        Format::Rfc3339 => "rfc3339",
        Format::UnixSeconds => "unix_seconds",
        Format::Uuid => "uuid",
        Format::Hex16 => "hex16",
        Format::NumericText => "numeric_text",
        Format::Url => "url",
    }
}

/// `YYYY-MM-DD` with a real month and day.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| {
        s.get(r)
            .filter(|t| t.bytes().all(|c| c.is_ascii_digit()))
            .and_then(|t| t.parse::<u32>().ok())
    };
    match (num(0..4), num(5..7), num(8..10)) {
        (Some(y), Some(m), Some(d)) => {
            let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
            let days = [
                31,
                if leap { 29 } else { 28 },
                31,
                30,
                31,
                30,
                31,
                31,
                30,
                31,
                30,
                31,
            ];
            (1..=12).contains(&m) && d >= 1 && d <= days[(m - 1) as usize]
        }
        _ => false,
    }
}

/// `vMAJOR.MINOR.PATCH`.
fn is_release_tag(s: &str) -> bool {
    s.strip_prefix('v').is_some_and(|rest| {
        let parts: Vec<_> = rest.split('.').collect();
        parts.len() == 3
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()))
    })
}

fn is_header_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
}

/// The `{name}` placeholders of a path, or why the path is malformed.
fn path_placeholders(path: &str) -> Result<Vec<String>, String> {
    if !path.starts_with("/v1/") {
        return Err("must start with `/v1/`".into());
    }
    if path.ends_with('/') || path.contains("//") || path.contains(['?', '#', ' ']) {
        return Err(
            "must not end with `/`, hold an empty segment, or hold `?`, `#` or spaces".into(),
        );
    }
    let mut out = Vec::new();
    for seg in path.split('/').skip(1) {
        if seg.starts_with('{') || seg.ends_with('}') {
            let name = seg
                .strip_prefix('{')
                .and_then(|s| s.strip_suffix('}'))
                .filter(|n| naming::is_identifier(n))
                .ok_or_else(|| format!("has a malformed placeholder segment `{seg}`"))?;
            if out.iter().any(|n| n == name) {
                return Err(format!("names placeholder `{{{name}}}` twice"));
            }
            out.push(name.to_string());
        } else if seg.contains(['{', '}']) {
            return Err(format!("has a malformed placeholder segment `{seg}`"));
        }
    }
    Ok(out)
}

/// A path with its placeholder names erased, so `/a/{x}` and `/a/{y}` count as one route.
fn normalize_route(path: &str) -> String {
    path.split('/')
        .map(|s| if s.starts_with('{') { "{}" } else { s })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_tags() {
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2023-02-29"));
        assert!(!is_date("2026-13-01"));
        assert!(!is_date("2026-1-01"));
        assert!(is_release_tag("v0.10.43"));
        assert!(!is_release_tag("0.10.43"));
        assert!(!is_release_tag("v0.10"));
    }

    #[test]
    fn placeholders() {
        assert_eq!(
            path_placeholders("/v1/persons/{person_id}/commentary").unwrap(),
            vec!["person_id"]
        );
        assert!(path_placeholders("/v1/a/{x").is_err());
        assert!(path_placeholders("/v1/a/{x}/{x}").is_err());
        assert!(path_placeholders("v1/a").is_err());
        assert_eq!(normalize_route("/v1/a/{x}/b"), "/v1/a/{}/b");
    }
}
