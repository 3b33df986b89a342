//! Checking and lowering of the `samples:` sections: the sample-data server's records and how a
//! request selects from them. Every parameter and field they name must exist, and every sample
//! record must have the shape of the record its endpoint returns.

use std::collections::BTreeMap;

use mrds_runtime::text::percent_decode;
use serde_yaml::Value;

use super::{Cx, Def, quoted};
use crate::ast;
use crate::load::LoadedFile;
use crate::model::*;

/// The resolved types a sample record is checked against.
pub(super) struct Types<'t> {
    pub records: &'t [Record],
    pub value_sets: &'t [ValueSet],
}

impl<'a> Cx<'a> {
    /// Checks every `samples` section and attaches it to its endpoint.
    /// Samples of an endpoint that did not check cleanly are skipped: its own problems are
    /// reported already.
    pub(super) fn samples(
        &mut self,
        endpoints: &mut [Endpoint],
        declared: &BTreeMap<&str, Def<'_, ast::Endpoint>>,
        types: &Types<'_>,
    ) {
        let defs = self.merge("samples", |f| &f.samples);
        for (id, def) in &defs {
            let Some(endpoint) = endpoints.iter_mut().find(|e| e.id == *id) else {
                if !declared.contains_key(id) {
                    let d = self.err_key(
                        def.file,
                        &def.path,
                        format!("samples are given for `{id}`, which is not an endpoint"),
                    );
                    Self::suggest(d, id, declared.keys().copied());
                }
                continue;
            };
            let Some(record) = types.records.iter().find(|r| r.name == endpoint.returns) else {
                continue;
            };
            endpoint.samples = self.sample_section(def, endpoint, record, types);
        }
    }

    fn sample_section(
        &mut self,
        def: &Def<'a, ast::Samples>,
        ep: &Endpoint,
        record: &Record,
        types: &Types<'_>,
    ) -> Option<Samples> {
        let before = self.errors.len();
        let (file, base, s) = (def.file, def.path.as_str(), def.item);
        let param = |cx: &mut Self, path: &str, name: &str| cx.sample_param(file, path, ep, name);
        let field =
            |cx: &mut Self, path: &str, name: &str| cx.sample_field(file, path, record, name);

        for (i, p) in s.first_of.iter().enumerate() {
            param(self, &format!("{base}.first_of[{i}]"), p);
        }
        for (i, p) in s.contains.iter().enumerate() {
            param(self, &format!("{base}.contains[{i}]"), p);
        }
        for (i, p) in s.latest_without.iter().enumerate() {
            param(self, &format!("{base}.latest_without[{i}]"), p);
        }
        for (f, p) in &s.echo {
            let path = format!("{base}.echo.{f}");
            field(self, &path, f);
            param(self, &path, p);
        }
        for (p, f) in &s.filter {
            let path = format!("{base}.filter.{p}");
            param(self, &path, p);
            field(self, &path, f);
        }

        let range = s.range.as_ref().and_then(|r| {
            let path = format!("{base}.range");
            for (key, name) in [("from", &r.from), ("to", &r.to)] {
                if let Some(name) = name {
                    param(self, &format!("{path}.{key}"), name);
                }
            }
            if r.from.is_none() && r.to.is_none() {
                let d = self.err(file, &path, "a range needs `from`, `to` or both");
                Self::hint(d, "name the parameters holding the range's ends");
            }
            let field = self.sample_range_field(file, &path, ep, record, r)?;
            Some(SampleRange {
                from: r.from.clone(),
                to: r.to.clone(),
                field,
            })
        });

        let order = s.order.as_ref().and_then(|o| {
            let path = format!("{base}.order");
            if let Some(by) = &o.by {
                param(self, &format!("{path}.by"), by);
            }
            let field = match (&o.field, &range) {
                (Some(f), _) => {
                    field(self, &format!("{path}.field"), f)?;
                    SampleField::Fixed(f.clone())
                }
                (None, Some(r)) => r.field.clone(),
                (None, None) => {
                    let d = self.err(
                        file,
                        &path,
                        "the order names no `field` and there is no range to take it from",
                    );
                    Self::hint(d, "add `field:` naming a field of the record");
                    return None;
                }
            };
            Some(SampleOrder {
                field,
                descending: o.descending,
                by: o.by.clone(),
            })
        });
        // Without an order of their own, the samples keep the endpoint's documented one.
        let order = order.or_else(|| {
            ep.order.as_ref().map(|o| SampleOrder {
                field: SampleField::Fixed(o.field.clone()),
                descending: o.descending,
                by: o.direction.clone(),
            })
        });

        if s.sets.is_empty() {
            let d = self.err(
                file,
                &format!("{base}.sets"),
                "samples need at least one set",
            );
            Self::hint(d, "add `sets:` with `records:`");
        }
        let mut sets = Vec::new();
        for (i, set) in s.sets.iter().enumerate() {
            let path = format!("{base}.sets[{i}]");
            let mut when = Vec::new();
            for (name, spellings) in &set.when {
                let at = format!("{path}.when.{name}");
                if let Some(p) = param(self, &at, name) {
                    self.sample_spellings(file, &at, p, spellings);
                }
                when.push((name.clone(), spellings.clone()));
            }
            for (j, value) in set.records.iter().enumerate() {
                let at = format!("{path}.records[{j}]");
                self.sample_record(file, &at, value, record, types);
            }
            let records_json = serde_json::to_string(&set.records).unwrap_or_else(|e| {
                self.err(
                    file,
                    &path,
                    format!("the records cannot be written as JSON: {e}"),
                );
                String::new()
            });
            sets.push(SampleSet { when, records_json });
        }

        self.sample_example(file, &format!("{base}.example"), ep, &s.example);

        (self.errors.len() == before).then(|| Samples {
            at: file.key_at(base),
            example: s.example.clone(),
            example_values: example_values(&ep.path.to_string(), &s.example),
            not_found_when_missing: s.missing == ast::Missing::NotFound || ep.lookup.is_some(),
            first_of: s.first_of.clone(),
            contains: s.contains.clone(),
            echo: s.echo.iter().map(|(f, p)| (f.clone(), p.clone())).collect(),
            filter: s
                .filter
                .iter()
                .map(|(p, f)| (p.clone(), f.clone()))
                .collect(),
            range,
            order,
            latest_without: s.latest_without.clone(),
            sets,
        })
    }

    fn sample_range_field(
        &mut self,
        file: &LoadedFile,
        path: &str,
        ep: &Endpoint,
        record: &Record,
        r: &ast::SampleRange,
    ) -> Option<SampleField> {
        match (&r.field, &r.by) {
            (Some(f), None) if r.fields.is_empty() => {
                self.sample_field(file, &format!("{path}.field"), record, f)?;
                Some(SampleField::Fixed(f.clone()))
            }
            (None, Some(by)) => {
                let p = self.sample_param(file, &format!("{path}.by"), ep, by)?;
                let values: Vec<String> = match &p.ty {
                    ParamType::Enum(e) => e.values.clone(),
                    _ => {
                        self.err(
                            file,
                            &format!("{path}.by"),
                            format!("`by` names parameter `{by}`, which is not of a value set"),
                        );
                        return None;
                    }
                };
                let mut out = Vec::new();
                for (value, f) in &r.fields {
                    let at = format!("{path}.fields.{value}");
                    if !values.contains(value) {
                        let d = self.err_key(
                            file,
                            &at,
                            format!("`{value}` is not a value of parameter `{by}`"),
                        );
                        Self::suggest(d, value, values.iter().map(String::as_str));
                    }
                    self.sample_field(file, &at, record, f);
                    out.push((value.clone(), f.clone()));
                }
                let missing: Vec<&str> = values
                    .iter()
                    .filter(|v| !r.fields.contains_key(*v))
                    .map(String::as_str)
                    .collect();
                if !missing.is_empty() {
                    let d = self.err(
                        file,
                        &format!("{path}.fields"),
                        format!("`fields` names no field for {}", quoted(&missing)),
                    );
                    Self::hint(d, format!("every value of `{by}` needs a field"));
                }
                Some(SampleField::By(by.clone(), out))
            }
            _ => {
                let d = self.err(
                    file,
                    path,
                    "a range needs either `field`, or `by` with `fields`",
                );
                Self::hint(
                    d,
                    "`field: date`, or `by: time_type` with `fields: { RECORD_DATE: record_date }`",
                );
                None
            }
        }
    }

    /// The example request must name the endpoint's path and give every required parameter.
    fn sample_example(&mut self, file: &LoadedFile, path: &str, ep: &Endpoint, example: &str) {
        let (route, query) = example.split_once('?').unwrap_or((example, ""));
        if !route_matches(&ep.path, route) {
            let d = self.err(
                file,
                path,
                format!("the example `{example}` is not a request of `{}`", ep.path),
            );
            Self::hint(
                d,
                format!("start it with the endpoint's path, e.g. `{}?...`", ep.path),
            );
            return;
        }
        let names: Vec<&str> = query
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| p.split_once('=').map_or(p, |(n, _)| n))
            .collect();
        for name in &names {
            if ep
                .param(name)
                .is_none_or(|p| p.location == ast::ParamLocation::Path)
            {
                let d = self.err(
                    file,
                    path,
                    format!(
                        "the example names `{name}`, which is not a query parameter of `{}`",
                        ep.id
                    ),
                );
                Self::suggest(d, name, ep.params.iter().map(|p| p.wire.as_str()));
            }
        }
        let missing: Vec<&str> = ep
            .params
            .iter()
            .filter(|p| p.required && p.location == ast::ParamLocation::Query)
            .map(|p| p.wire.as_str())
            .filter(|w| !names.contains(w))
            .collect();
        if !missing.is_empty() {
            let d = self.err(
                file,
                path,
                format!("the example lacks the required {}", quoted(&missing)),
            );
            Self::hint(d, "the example must be a valid request");
        }
    }

    fn sample_param<'e>(
        &mut self,
        file: &LoadedFile,
        path: &str,
        ep: &'e Endpoint,
        name: &str,
    ) -> Option<&'e Param> {
        let found = ep.param(name);
        if found.is_none() {
            let d = self.err(
                file,
                path,
                format!("endpoint `{}` has no parameter `{name}`", ep.id),
            );
            Self::suggest(d, name, ep.params.iter().map(|p| p.wire.as_str()));
        }
        found
    }

    fn sample_field(
        &mut self,
        file: &LoadedFile,
        path: &str,
        record: &Record,
        name: &str,
    ) -> Option<()> {
        if record.fields.iter().any(|f| f.wire == name) {
            return Some(());
        }
        let d = self.err(
            file,
            path,
            format!("record `{}` has no field `{name}`", record.spec_name),
        );
        Self::suggest(d, name, record.fields.iter().map(|f| f.wire.as_str()));
        None
    }

    fn sample_spellings(&mut self, file: &LoadedFile, path: &str, p: &Param, spellings: &[String]) {
        for (i, s) in spellings.iter().enumerate() {
            let at = format!("{path}[{i}]");
            match &p.ty {
                ParamType::Integer(_) if s.parse::<i64>().is_err() => {
                    self.err(
                        file,
                        &at,
                        format!("`{s}` is not an integer, but parameter `{}` is one", p.wire),
                    );
                }
                ParamType::Boolean if s != "true" && s != "false" => {
                    self.err(file, &at, format!("`{s}` is not `true` or `false`"));
                }
                ParamType::Enum(e) => {
                    let wires: Vec<&str> = e.values.iter().map(String::as_str).collect();
                    if !wires.contains(&s.as_str()) {
                        let d = self.err(
                            file,
                            &at,
                            format!("`{s}` is not a value of parameter `{}`", p.wire),
                        );
                        Self::suggest(d, s, wires);
                    }
                }
                _ => {}
            }
        }
    }

    /// Checks one sample record against its record type: known fields only, every required
    /// field present, every value of its field's type.
    fn sample_record(
        &mut self,
        file: &LoadedFile,
        path: &str,
        value: &Value,
        record: &Record,
        types: &Types<'_>,
    ) {
        let Value::Mapping(map) = value else {
            self.err(
                file,
                path,
                format!(
                    "a sample `{}` must be a mapping of its fields",
                    record.spec_name
                ),
            );
            return;
        };
        let mut given = BTreeMap::new();
        for (key, v) in map {
            let Some(key) = key.as_str() else {
                self.err(file, path, "sample record keys must be field names");
                continue;
            };
            given.insert(key, v);
            let at = format!("{path}.{key}");
            match record.fields.iter().find(|f| f.wire == key) {
                Some(f) => self.sample_value(file, &at, v, f, types),
                None => {
                    let d = self.err_key(
                        file,
                        &at,
                        format!("record `{}` has no field `{key}`", record.spec_name),
                    );
                    Self::suggest(d, key, record.fields.iter().map(|f| f.wire.as_str()));
                }
            }
        }
        let missing: Vec<&str> = record
            .fields
            .iter()
            .filter(|f| !f.optional && !given.contains_key(f.wire.as_str()))
            .map(|f| f.wire.as_str())
            .collect();
        if !missing.is_empty() {
            let d = self.err(
                file,
                path,
                format!(
                    "this sample `{}` lacks the required field{} {}",
                    record.spec_name,
                    if missing.len() == 1 { "" } else { "s" },
                    quoted(&missing)
                ),
            );
            Self::hint(d, "give every field that is not `optional: true`");
        }
    }

    fn sample_value(
        &mut self,
        file: &LoadedFile,
        path: &str,
        value: &Value,
        field: &Field,
        types: &Types<'_>,
    ) {
        if value.is_null() {
            if !field.optional {
                self.err(
                    file,
                    path,
                    format!("field `{}` may not be null", field.wire),
                );
            }
            return;
        }
        if field.array {
            match value {
                Value::Sequence(items) => {
                    for (i, item) in items.iter().enumerate() {
                        self.sample_scalar(file, &format!("{path}[{i}]"), item, field, types);
                    }
                }
                _ => {
                    self.err(file, path, format!("field `{}` is an array", field.wire));
                }
            }
        } else {
            self.sample_scalar(file, path, value, field, types);
        }
    }

    fn sample_scalar(
        &mut self,
        file: &LoadedFile,
        path: &str,
        value: &Value,
        field: &Field,
        types: &Types<'_>,
    ) {
        let ok = match &field.ty {
            TypeRef::String | TypeRef::ErrorCode => value.is_string(),
            TypeRef::Integer => value.is_i64(),
            TypeRef::Number => value.is_number(),
            TypeRef::Boolean => value.is_bool(),
            TypeRef::Any | TypeRef::Records => true,
            TypeRef::ValueSet(set) => {
                let wires = wires(types, set);
                match value.as_str() {
                    Some(s) if !wires.contains(&s) => {
                        let d = self.err(
                            file,
                            path,
                            format!("`{s}` is not a value of field `{}`", field.wire),
                        );
                        Self::suggest(d, s, wires);
                        return;
                    }
                    other => other.is_some(),
                }
            }
            TypeRef::Record(name) => {
                if let Some(r) = types.records.iter().find(|r| &r.name == name) {
                    self.sample_record(file, path, value, r, types);
                }
                return;
            }
        };
        if !ok {
            let d = self.err(
                file,
                path,
                format!(
                    "field `{}` is of type {}, but the sample gives {}",
                    field.wire,
                    type_text(&field.ty),
                    describe(value)
                ),
            );
            if matches!(field.ty, TypeRef::String) && !value.is_string() {
                Self::hint(d, "quote the value to make it text");
            }
        }
    }
}

/// The wire values of value set `set`.
fn wires<'t>(types: &Types<'t>, set: &str) -> Vec<&'t str> {
    types
        .value_sets
        .iter()
        .find(|v| v.name == set)
        .map(|v| v.values.iter().map(|x| x.wire.as_str()).collect())
        .unwrap_or_default()
}

/// The decoded parameters of an example request of `template`: path parameters, then the
/// query's pairs (`+` is a space, `%XX` an escaped byte).
fn example_values(template: &str, example: &str) -> Vec<(String, String)> {
    let (route, query) = example.split_once('?').unwrap_or((example, ""));
    let path = template
        .split('/')
        .zip(route.split('/'))
        .filter_map(|(t, r)| {
            let name = t.strip_prefix('{')?.strip_suffix('}')?;
            Some((name.to_string(), percent_decode(r)))
        });
    let query = query.split('&').filter(|p| !p.is_empty()).map(|p| {
        let (n, v) = p.split_once('=').unwrap_or((p, ""));
        (percent_decode(n), percent_decode(v))
    });
    path.chain(query).collect()
}

/// True when `route` is `template` with every placeholder filled by one non-empty segment.
fn route_matches(template: &PathTemplate, route: &str) -> bool {
    let Some(rest) = route.strip_prefix('/') else {
        return false;
    };
    let parts: Vec<&str> = rest.split('/').collect();
    parts.len() == template.segments.len()
        && template.segments.iter().zip(&parts).all(|(t, r)| match t {
            Segment::Param(_) => !r.is_empty(),
            Segment::Literal(l) => l == r,
        })
}

fn type_text(ty: &TypeRef) -> &'static str {
    match ty {
        TypeRef::String | TypeRef::ErrorCode | TypeRef::ValueSet(_) => "string",
        TypeRef::Integer => "integer",
        TypeRef::Number => "number",
        TypeRef::Boolean => "boolean",
        _ => "any",
    }
}

fn describe(value: &Value) -> &'static str {
    match value {
        Value::String(_) => "text",
        Value::Number(n) if n.is_i64() || n.is_u64() => "an integer",
        Value::Number(_) => "a number",
        Value::Bool(_) => "a boolean",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Null => "null",
        Value::Tagged(_) => "a tagged value",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_values_are_decoded() {
        let got = example_values(
            "/v1/persons/{person_id}/commentary",
            "/v1/persons/ab%2Dc/commentary?a=1&name=MLC%2064Gb+x&t=2026-01-01T00:00:00%2B02:00&bad=%zz&end=%4",
        );
        let want = [
            ("person_id", "ab-c"),
            ("a", "1"),
            ("name", "MLC 64Gb x"),
            ("t", "2026-01-01T00:00:00+02:00"),
            ("bad", "%zz"),
            ("end", "%4"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(got, want);
    }
}
