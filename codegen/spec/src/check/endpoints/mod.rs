//! Endpoints: their paths, parameter lists, removal, paging, and what must be unique across
//! them (routes, rule ids).
//!
//! This module checks an endpoint's path, parameters, removal and rules, and what must be
//! unique across endpoints; [`body`] its body, [`listing`] its paging and ordering, and
//! [`path`] the reading of a path template.

use std::collections::{BTreeMap, BTreeSet};

use mrds_runtime::text::is_date;

use crate::ast::{self, ParamLocation, Spanned};
use crate::check::{Cx, Def, Types};
use crate::model::{
    Body, ChangeAction, Endpoint, HistoryEntry, Inputs, ParamId, PathTemplate, Provenance, Removal,
    Rule, Segment,
};
use crate::naming;

use path::{normalize_route, parse_path};

mod body;
mod listing;
mod path;

impl<'a> Cx<'a> {
    /// Every endpoint that checks cleanly, by id; a method and path, and a rule id, may be
    /// used once across the spec.
    pub(super) fn endpoints(
        &mut self,
        defs: &BTreeMap<&'a str, Def<'a, ast::Endpoint>>,
        types: &Types<'_>,
        history: &[HistoryEntry],
    ) -> Vec<Endpoint> {
        let mut seen_rules: BTreeMap<&str, &str> = BTreeMap::new();
        // Every template by its shape (placeholder names erased): two endpoints of one shape
        // match the same requests with the same specificity, which a router cannot tell apart
        // unless their methods differ; and then they name their placeholders alike (one path
        // of the OpenAPI document, one set of path parameters for the router).
        let mut shapes: BTreeMap<String, Vec<(&str, &Def<'a, ast::Endpoint>)>> = BTreeMap::new();
        let mut out = Vec::new();
        for (id, def) in defs {
            let ep = self.endpoint(id, def, types, history);
            let same_shape = shapes.entry(normalize_route(&def.path)).or_default();
            if let Some((other, o)) = same_shape.iter().find(|(_, o)| *o.method == *def.method) {
                let d = self.err(
                    def.path.at(),
                    format!(
                        "endpoints `{other}` ({}) and `{id}` have the same method and path: {} {}",
                        self.loc(o.path.at()),
                        *def.method,
                        def.path
                    ),
                );
                Self::hint(
                    d,
                    "each method and path may be defined once (paths that differ only in their placeholders' names are the same path)",
                );
            } else if let Some((other, o)) = same_shape.iter().find(|(_, o)| *o.path != *def.path) {
                let d = self.err(
                    def.path.at(),
                    format!(
                        "path `{}` of endpoint `{id}` is path `{}` of endpoint `{other}` ({}) with other placeholder names",
                        def.path,
                        o.path,
                        self.loc(o.path.at())
                    ),
                );
                Self::hint(
                    d,
                    format!(
                        "endpoints of one path name its placeholders alike: write `{}`",
                        o.path
                    ),
                );
            }
            same_shape.push((id, def));
            for rule in &def.rules {
                if let Some(other) = seen_rules.get(rule.id.as_str()) {
                    let d = self.err(rule.id.at(), format!("rule id `{}` is used twice", rule.id));
                    Self::hint(
                        d,
                        format!("it is also a rule of endpoint `{other}`; rule ids must be unique"),
                    );
                } else {
                    seen_rules.insert(&rule.id, id);
                }
            }
            out.extend(ep);
        }
        out
    }

    fn endpoint(
        &mut self,
        id: &str,
        def: &Def<'a, ast::Endpoint>,
        types: &Types<'_>,
        history: &[HistoryEntry],
    ) -> Option<Endpoint> {
        let ep = def;

        // Path and its placeholders.
        let template = match parse_path(&ep.path) {
            Ok(t) => Some(t),
            Err(msg) => {
                let d = self.err(
                    ep.path.at(),
                    format!("path `{}` of endpoint `{id}` {msg}", ep.path),
                );
                Self::hint(
                    d,
                    "paths look like `/v1/stocks/dividends` or `/v1/persons/{person_id}/commentary`",
                );
                None
            }
        };
        let placeholders: Vec<&str> = template
            .iter()
            .flatten()
            .filter_map(|s| s.as_ref().err().copied())
            .collect();

        let returns = types.names.records.get(ep.returns.as_str()).copied();
        if returns.is_none() {
            let d = self.err(
                ep.returns.at(),
                format!("endpoint `{id}` returns unknown record `{}`", ep.returns),
            );
            Self::suggest(d, &ep.returns, types.names.records.keys().copied());
        }

        // Parameters.
        let mut params = Vec::new();
        let mut wires = BTreeSet::new();
        let mut idents: BTreeMap<String, &str> = BTreeMap::new();
        for p in &ep.params {
            if !wires.insert(p.name.as_str()) {
                self.err(
                    p.name.at(),
                    format!("parameter `{}` of endpoint `{id}` is listed twice", p.name),
                );
                continue;
            }
            match naming::field_name(&p.name) {
                Ok(ident) => {
                    if let Some(other) = idents.get(&ident) {
                        self.err(p.name.at(), format!("parameters `{other}` and `{}` of endpoint `{id}` both become the Rust field `{ident}`", p.name));
                        continue;
                    }
                    idents.insert(ident.clone(), &p.name);
                    let pid = ParamId::new(params.len());
                    if let Some(param) = self.param(pid, p, ident, types.value_sets) {
                        params.push(param);
                    }
                }
                Err(msg) => {
                    self.err(p.name.at(), msg);
                }
            }
        }
        for ph in &placeholders {
            match ep.params.iter().find(|p| p.name == *ph) {
                None => {
                    let d = self.err(
                        ep.path.at(),
                        format!("path placeholder `{{{ph}}}` of endpoint `{id}` has no parameter"),
                    );
                    Self::hint(
                        d,
                        format!("add a parameter `{ph}` with `in: path` and `required: true`"),
                    );
                }
                Some(p) if *p.location != ParamLocation::Path => {
                    let d = self.err(p.location.at(), format!("parameter `{ph}` of endpoint `{id}` fills a path placeholder but is declared `in: query`"));
                    Self::hint(d, "declare it `in: path`");
                }
                Some(_) => {}
            }
        }
        for p in &ep.params {
            if *p.location == ParamLocation::Path {
                if !placeholders.contains(&p.name.as_str()) {
                    let d = self.err(p.name.at(), format!("path parameter `{}` of endpoint `{id}` does not appear in the path `{}`", p.name, ep.path));
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
                        p.at(),
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
            if !is_date(&r.date) {
                self.err(r.date.at(), format!("`{}` is not a date of the form YYYY-MM-DD", r.date));
            }
            let listed = history.iter().any(|h| {
                h.date == *r.date
                    && h.versions.contains(&r.version)
                    && h.changes.iter().any(|c| {
                        c.action == ChangeAction::Removed && c.path == *ep.path && c.method == *ep.method
                    })
            });
            if !listed {
                let d = self.err(r.at(), format!("endpoint `{id}` is marked removed on {} in {}, but the change history has no such removal of {} {}", r.date, r.version, ep.method.as_str(), ep.path));
                Self::hint(d, "add the removal to `history`, or correct the date and version");
            }
            Removal {
                date: r.date.to_string(),
                version: r.version.to_string(),
            }
        });

        let scope = Scope {
            id,
            declared: &ep.params,
            inputs: Inputs {
                params: &params,
                body: None,
            },
            body_fields: &[],
        };
        let paging = ep.paging.as_ref().and_then(|p| self.paging(&scope, p));
        let record = returns.map(|r| {
            let record = &types.records[r.index()];
            (record, types.record_defs[record.spec_name.as_str()])
        });
        let order = ep
            .order
            .as_ref()
            .and_then(|o| self.order(&scope, o, record));
        let lookup = ep.lookup.as_ref().and_then(|name| {
            let found = params.iter().find(|p| p.wire == **name);
            if found.is_some_and(|p| p.list.is_some()) {
                let d = self.err(
                    name.at(),
                    format!("`lookup` names `{name}`, a list parameter of endpoint `{id}`"),
                );
                Self::hint(d, "a lookup names the one thing asked for: a single value");
                return None;
            }
            let found = found.map(|p| p.id);
            if found.is_none() && !ep.params.iter().any(|p| p.name == **name) {
                let d = self.err(
                    name.at(),
                    format!("`lookup` names `{name}`, which endpoint `{id}` does not have"),
                );
                Self::suggest(d, name, ep.params.iter().map(|p| p.name.as_str()));
            }
            found
        });

        // The body, and the rules over the parameters and the body's fields.
        let body = self.body(id, ep, types);
        let body_record = body.as_ref().map(|(_, record)| *record);
        let body_fields = body_record.and_then(|r| {
            types
                .record_defs
                .get(r.spec_name.as_str())
                .map(|d| d.fields.as_slice())
        });
        let scope = Scope {
            id,
            declared: &ep.params,
            inputs: Inputs {
                params: &params,
                body: body_record,
            },
            body_fields: body_fields.unwrap_or_default(),
        };
        let rules: Vec<Rule> = (ep.rules.iter())
            .filter_map(|r| self.rule(&scope, r, types.value_sets))
            .collect();
        let idempotent = match &ep.idempotent {
            Some(flag) if ep.method.idempotent() => {
                let d = self.err(
                    flag.at(),
                    format!("`idempotent` on endpoint `{id}`, a {}", *ep.method),
                );
                Self::hint(
                    d,
                    "every GET, PUT and DELETE may be repeated; `idempotent` marks a POST or PATCH that may",
                );
                true
            }
            Some(flag) => **flag,
            None => ep.method.idempotent(),
        };
        let body = body.map(|(at, record)| Body {
            at,
            record: record.id,
        });

        // With problems reported, the endpoint still lowers as far as it checked (its samples
        // are checked against it too); the spec fails as a whole.
        let segments = template?
            .into_iter()
            .map(|s| match s {
                Ok(literal) => Some(Segment::Literal(literal.to_string())),
                Err(name) => Some(Segment::Param {
                    param: params.iter().find(|p| p.wire == name)?.id,
                    name: name.to_string(),
                }),
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Endpoint {
            at: self.loc(ep.key_at()),
            id: id.to_string(),
            names: naming::endpoint_names(id, ep.rust.as_ref().map(|r| r.as_str())).ok()?,
            method: *ep.method,
            path: PathTemplate { segments },
            summary: ep.summary.clone(),
            doc: ep.doc.clone(),
            ordering: ep.ordering.clone(),
            auth: *ep.auth,
            auth_provenance: Provenance::from_reason(ep.auth_assumed.as_ref()),
            returns: returns?,
            body,
            idempotent,
            provenance: Provenance::from_reason(ep.assumed.as_ref()),
            params,
            rules,
            paging,
            order,
            lookup,
            removed,
            samples: None,
        })
    }
}

/// What a check of one endpoint's declarations sees: its id, its parameters as declared, its
/// inputs that checked cleanly (the parameters, and the fields of its body), and the fields
/// of its body as declared.
#[derive(Clone, Copy)]
pub(super) struct Scope<'s> {
    pub id: &'s str,
    pub declared: &'s [Spanned<ast::Param>],
    pub inputs: Inputs<'s>,
    pub body_fields: &'s [Spanned<ast::Field>],
}
