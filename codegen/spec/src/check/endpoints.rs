//! Endpoints: their paths, parameter lists, removal, paging, and what must be unique across
//! them (routes, rule ids).

use std::collections::{BTreeMap, BTreeSet};

use mrds_runtime::text::is_date;

use super::{Cx, Def, Types};
use crate::ast::{self, ParamLocation, Spanned};
use crate::model::{
    Body, ChangeAction, Endpoint, FieldId, HistoryEntry, Inputs, Location, Order, Paging, Param,
    ParamId, PathTemplate, Provenance, Record, Removal, Rule, Segment, ValueType,
};
use crate::naming;

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

    /// The body of endpoint `id`: a POST, PUT or PATCH names one, a GET or DELETE none; a record is the body of one
    /// endpoint (its checks' rule ids name it). Returns where it is named and the record.
    fn body<'t>(
        &mut self,
        id: &str,
        ep: &ast::Endpoint,
        types: &Types<'t>,
    ) -> Option<(Location, &'t Record)> {
        let method = *ep.method;
        let Some(name) = &ep.body else {
            if method.takes_body() {
                let d = self.err(
                    ep.method.at(),
                    format!("endpoint `{id}` is a {method} without a body"),
                );
                Self::hint(d, "name the record it sends with `body: <record>`");
            }
            return None;
        };
        if !method.takes_body() {
            let d = self.err(
                name.at(),
                format!("endpoint `{id}` is a {method}, which sends no body"),
            );
            Self::hint(
                d,
                "a request with a body is a `method: POST`, `PUT` or `PATCH`",
            );
            return None;
        }
        let Some(record) = types.names.records.get(name.as_str()) else {
            let d = self.err(
                name.at(),
                format!("the body of endpoint `{id}` is unknown record `{name}`"),
            );
            Self::suggest(d, name, types.names.records.keys().copied());
            return None;
        };
        let senders = &types.names.bodies[name.as_str()];
        if senders.len() > 1 && senders[0] != id {
            let d = self.err(
                name.at(),
                format!(
                    "record `{name}` is the body of endpoint `{}` already",
                    senders[0]
                ),
            );
            Self::hint(
                d,
                "a record is the body of one endpoint (its checks' rule ids name it); give this endpoint a record of its own",
            );
        }
        Some((self.loc(name.at()), &types.records[record.index()]))
    }

    /// The documented ordering: a field of the returned record, and a direction parameter of a
    /// value set `asc`/`desc`.
    fn order(
        &mut self,
        scope: &Scope<'_>,
        order: &Spanned<ast::EndpointOrder>,
        record: Option<(&Record, Def<'_, ast::Record>)>,
    ) -> Option<Order> {
        let before = self.errors.len();
        let id = scope.id;
        let field = record.and_then(|(record, def)| {
            let found = record.fields.iter().position(|f| f.wire == *order.field);
            // A declared field that did not check is reported already.
            if found.is_none() && !def.fields.iter().any(|f| f.name == order.field) {
                let d = self.err(
                    order.field.at(),
                    format!("`order.field` names `{}`, which the record endpoint `{id}` returns does not have", order.field),
                );
                Self::suggest(d, &order.field, record.fields.iter().map(|f| f.wire.as_str()));
            }
            found.map(FieldId::new)
        });
        let direction = order.direction.as_ref().and_then(|direction| {
            match scope.inputs.params.iter().find(|p| p.wire == **direction) {
                Some(Param {
                    ty: ValueType::Enum(e),
                    id,
                    list: None,
                    ..
                }) if e.values.len() == 2 && e.values.iter().all(|v| v == "asc" || v == "desc") => {
                    Some(*id)
                }
                Some(_) => {
                    let d = self.err(direction.at(), format!("`order.direction` names `{direction}`, which is not of a value set of `asc` and `desc`"));
                    Self::hint(d, "the direction parameter takes `asc` or `desc`");
                    None
                }
                None => {
                    if !scope.declared.iter().any(|p| p.name == *direction) {
                        self.err(direction.at(), format!("`order.direction` names `{direction}`, which endpoint `{id}` does not have"));
                    }
                    None
                }
            }
        });
        if self.errors.len() != before {
            return None;
        }
        Some(Order {
            at: self.loc(order.at()),
            field: field?,
            descending: order.descending,
            direction,
        })
    }

    /// The paging parameters: integer query parameters that always have a value, the page
    /// size at least 1 and the offset at least 0.
    fn paging(&mut self, scope: &Scope<'_>, paging: &Spanned<ast::Paging>) -> Option<Paging> {
        let before = self.errors.len();
        let Scope {
            id,
            declared,
            inputs,
            ..
        } = *scope;
        let params = inputs.params;
        let check = |cx: &mut Self, key: &str, name: &Spanned<String>, least: i64| {
            let at = name.at();
            let Some(p) = params.iter().find(|p| p.wire == **name) else {
                if !declared.iter().any(|p| p.name == *name) {
                    let d = cx.err(
                        at,
                        format!(
                            "`paging.{key}` names `{name}`, which endpoint `{id}` does not have"
                        ),
                    );
                    Self::suggest(d, name, declared.iter().map(|p| p.name.as_str()));
                }
                return;
            };
            let min = match &p.ty {
                ValueType::Integer(t) if p.location == ParamLocation::Query && p.list.is_none() => {
                    t.min
                }
                _ => {
                    cx.err(
                        at,
                        format!(
                            "`paging.{key}` names `{name}`, which is not an integer query parameter"
                        ),
                    );
                    return;
                }
            };
            if min.is_none_or(|m| m < least) {
                let d = cx.err(
                    at,
                    format!("`paging.{key}` names `{name}`, whose values may be below {least}"),
                );
                Self::hint(d, format!("give `{name}` `min: {least}` or more"));
            }
            if key == "offset" && !p.always() {
                let d = cx.err(
                    at,
                    format!("`paging.offset` names `{name}`, which has no value when absent"),
                );
                Self::hint(d, format!("give `{name}` a default, such as `default: 0`"));
            }
        };
        check(self, "limit", &paging.limit, 1);
        if let Some(offset) = &paging.offset {
            if *offset == paging.limit {
                self.err(offset.at(), "`paging` names the same parameter twice");
            }
            check(self, "offset", offset, 0);
            if let Some(limit) = params.iter().find(|p| p.wire == *paging.limit)
                && !limit.always()
            {
                let d = self.err(paging.limit.at(), format!("`paging.limit` names `{}`, which has no value when absent, so the pages have no size", paging.limit));
                Self::hint(d, format!("give `{}` a default", paging.limit));
            }
        }
        if self.errors.len() != before {
            return None;
        }
        let id_of = |name: &Spanned<String>| params.iter().find(|p| p.wire == **name).map(|p| p.id);
        Some(Paging {
            at: self.loc(paging.at()),
            limit: id_of(&paging.limit)?,
            offset: match &paging.offset {
                Some(offset) => Some(id_of(offset)?),
                None => None,
            },
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

/// The segments of a path (`Ok` a literal, `Err` a placeholder's name), or why the path is
/// malformed: it starts with `/v1/`, every literal segment is made of unreserved characters
/// (letters, digits, `-`, `.`, `_`, `~`), and every placeholder `{name}` fills a whole segment
/// and names a parameter once.
fn parse_path(path: &str) -> Result<Vec<RawSegment<'_>>, String> {
    if !path.starts_with("/v1/") {
        return Err("must start with `/v1/`".into());
    }
    if path.ends_with('/') || path.contains("//") {
        return Err("must not end with `/` or hold an empty segment".into());
    }
    let mut segments = Vec::new();
    for seg in path.split('/').skip(1) {
        if seg.starts_with('{') || seg.ends_with('}') {
            let name = seg
                .strip_prefix('{')
                .and_then(|s| s.strip_suffix('}'))
                .filter(|n| naming::is_identifier(n))
                .ok_or_else(|| format!("has a malformed placeholder segment `{seg}`"))?;
            if segments.contains(&Err(name)) {
                return Err(format!("names placeholder `{{{name}}}` twice"));
            }
            segments.push(Err(name));
        } else if let Some(c) = seg
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~')))
        {
            return Err(format!(
                "has the character `{c}` in segment `{seg}`; literal segments hold letters, digits, `-`, `.`, `_` and `~` only"
            ));
        } else {
            segments.push(Ok(seg));
        }
    }
    Ok(segments)
}

/// A segment of a path as written: `Ok` a literal, `Err` the name of a placeholder.
type RawSegment<'p> = Result<&'p str, &'p str>;

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
    fn paths() {
        let t = parse_path("/v1/persons/{person_id}/commentary").unwrap();
        assert_eq!(
            t,
            vec![Ok("v1"), Ok("persons"), Err("person_id"), Ok("commentary")]
        );
        assert!(parse_path("/v1/a/{x").is_err());
        assert!(parse_path("/v1/a/{x}/{x}").is_err());
        assert!(parse_path("v1/a").is_err());
        assert!(parse_path("/v1/a/:id").is_err());
        assert!(parse_path("/v1/a/*rest").is_err());
        assert!(parse_path("/v1/a b").is_err());
        assert!(parse_path("/v1/a?b").is_err());
        assert!(parse_path("/v1/semi-conductor/nand.v2_x~").is_ok());
        assert_eq!(normalize_route("/v1/a/{x}/b"), "/v1/a/{}/b");
    }
}
