//! Endpoints: added, removed, marked removed, renamed, moved; their key requirement, the
//! record they return, paging and documentation; and their sample data (reported apart).

use super::checks::kind;
use super::types::{decodes, type_name};
use super::{Diff, Impact, Impacts, Places, Sides, changed_parts};
use mrds_spec::model::{
    Api, AuthMode, Endpoint, FieldId, Operand, ParamId, PathTemplate, SampleField, Samples,
    Segment, TypeRef,
};

/// The path with placeholders unnamed (`/v1/items/{}/notes`): what travels on the wire.
pub(super) fn shape(path: &PathTemplate) -> String {
    path.segments
        .iter()
        .map(|s| match s {
            Segment::Literal(l) => format!("/{l}"),
            Segment::Param { .. } => "/{}".to_owned(),
        })
        .collect()
}

/// The sample sets and the selection of `s` as text, inputs and fields named as they travel
/// (what two versions share).
fn sample_text(api: &Api, e: &Endpoint, s: &Samples) -> (Vec<String>, String) {
    let (record, inputs) = (api.returns(e), api.inputs(e));
    let p = |id: &ParamId| e.param(*id).wire.as_str();
    let op = |op: &Operand| inputs.get(*op).map(|i| i.name()).unwrap_or_default();
    let f = |id: &FieldId| record.field(*id).wire.as_str();
    let params = |ids: &[ParamId]| ids.iter().map(p).collect::<Vec<_>>();
    let choice = |c: &SampleField| match c {
        SampleField::Fixed(id) => f(id).to_string(),
        SampleField::By(by, fields) => {
            let pairs: Vec<String> = fields
                .iter()
                .map(|(v, id)| format!("{v}={}", f(id)))
                .collect();
            format!("{} {pairs:?}", p(by))
        }
    };
    let sets = s
        .sets
        .iter()
        .map(|set| {
            let when: Vec<(String, &Vec<String>)> =
                set.when.iter().map(|(id, v)| (op(id), v)).collect();
            format!("{when:?} {}", set.records_json)
        })
        .collect();
    let echo: Vec<(&str, String)> = s.echo.iter().map(|(fid, id)| (f(fid), op(id))).collect();
    let filter: Vec<(String, &str)> = s.filter.iter().map(|(id, fid)| (op(id), f(fid))).collect();
    let range = s.range.as_ref().map(|r| {
        (
            r.from.as_ref().map(p),
            r.to.as_ref().map(p),
            choice(&r.field),
        )
    });
    let order = s
        .order
        .as_ref()
        .map(|o| (choice(&o.field), o.descending, o.by.as_ref().map(p)));
    let selection = format!(
        "{:?} {:?} {:?} {echo:?} {filter:?} {range:?} {order:?} {:?}",
        s.not_found_when_missing,
        params(&s.first_of),
        params(&s.contains),
        params(&s.latest_without)
    );
    (sets, selection)
}

/// The Rust names of an endpoint's generated items (a source change for Rust users, nothing on
/// the wire).
fn rust_names(e: &Endpoint) -> [&str; 3] {
    [&e.names.method, &e.names.params_type, &e.names.constant]
}

/// `GET /v1/bars`.
pub(super) fn route(e: &Endpoint) -> String {
    format!("{} {}", e.method.as_str(), e.path)
}

impl Diff<'_> {
    pub(super) fn endpoints(&mut self) {
        let (old, new) = (self.old, self.new);
        let mut pairs: Vec<(&Endpoint, &Endpoint)> = Vec::new();
        let mut gone: Vec<&Endpoint> = Vec::new();
        // An endpoint is its method and path on the wire: one whose method changed is gone, and
        // another one is new (they need a history row each), whatever their ids.
        let same = |o: &Endpoint, n: &Endpoint| o.method == n.method;
        for o in &old.endpoints {
            match new.endpoint_named(&o.id).filter(|n| same(o, n)) {
                Some(n) => pairs.push((o, n)),
                None => gone.push(o),
            }
        }
        let mut fresh: Vec<&Endpoint> = new
            .endpoints
            .iter()
            .filter(|n| old.endpoint_named(&n.id).is_none_or(|o| !same(o, n)))
            .collect();
        // An id that changed at the same method and path is the same endpoint on the wire.
        gone.retain(|o| {
            let same = fresh
                .iter()
                .position(|n| n.method == o.method && shape(&n.path) == shape(&o.path));
            match same {
                Some(i) => {
                    let n = fresh.remove(i);
                    self.push(kind::EndpointRenamed, &n.id, format!(
                            "endpoint `{}` is now called `{}` at the same `{}`: the generated Rust names change, the wire does not",
                            o.id,
                            n.id,
                            route(n)
                        ), Places { old: Some(&o.at), new: Some(&n.at) });
                    pairs.push((o, n));
                    false
                }
                None => true,
            }
        });
        for o in gone {
            let (clients, why) = if o.removed.is_some() {
                (
                    Impact::Compatible,
                    "it was already marked removed: old clients got 410 from old servers and get 404 now",
                )
            } else {
                (
                    Impact::Breaking,
                    "old clients calling it get 404 from new servers; new clients do not call it",
                )
            };
            self.push(
                kind::EndpointRemoved.clients(clients),
                &o.id,
                format!("endpoint `{}` ({}) is gone: {why}", o.id, route(o)),
                Places {
                    old: Some(&o.at),
                    new: None,
                },
            );
            if let Some(s) = &o.samples {
                self.push_sample(
                    kind::SamplesRemoved,
                    &o.id,
                    format!("the sample data of `{}` is gone with it", o.id),
                    Places {
                        old: Some(&s.at),
                        new: None,
                    },
                );
            }
        }
        for n in fresh {
            let (servers, why) = if n.removed.is_some() {
                (
                    Impact::Compatible,
                    "it is marked removed: new clients do not call it, and old clients cannot",
                )
            } else {
                (
                    Impact::Breaking,
                    "old clients do not call it; new clients calling it get 404 from old servers",
                )
            };
            self.push(
                kind::EndpointAdded.servers(servers),
                &n.id,
                format!("new endpoint `{}` ({}): {why}", n.id, route(n)),
                Places {
                    old: None,
                    new: Some(&n.at),
                },
            );
            if let Some(s) = &n.samples {
                self.push_sample(
                    kind::SamplesAdded,
                    &n.id,
                    format!("sample data for the new endpoint `{}`", n.id),
                    Places {
                        old: None,
                        new: Some(&s.at),
                    },
                );
            }
        }
        for (o, n) in pairs {
            self.endpoint(o, n);
        }
    }

    fn endpoint(&mut self, o: &Endpoint, n: &Endpoint) {
        let id = n.id.clone();
        let at = Places {
            old: Some(&o.at),
            new: Some(&n.at),
        };
        if shape(&o.path) != shape(&n.path) {
            self.push(kind::EndpointPathChanged, &id, format!(
                    "path `{}` became `{}`: old clients get 404 from new servers, new clients get 404 from old servers",
                    o.path, n.path
                ), at);
        }
        match (&o.removed, &n.removed) {
            (None, Some(r)) => self.push(kind::EndpointMarkedRemoved, &id, format!(
                    "`{}` is marked removed ({}, {}): new servers answer old clients 410 ENDPOINT_REMOVED; new clients do not call it",
                    route(n),
                    r.date,
                    r.version
                ), at),
            (Some(_), None) => self.push(kind::EndpointRestored, &id, format!(
                    "`{}` is no longer marked removed: old clients may call it again; old servers answer new clients 410 ENDPOINT_REMOVED",
                    route(n)
                ), at),
            _ => {}
        }
        match (o.auth, n.auth) {
            (AuthMode::Optional, AuthMode::Required) => self.push(kind::EndpointAuthRequired, &id, "a key is now required: old clients may call without one and new servers answer 401 UNAUTHORIZED; new clients always send one", at),
            (AuthMode::Required, AuthMode::Optional) => self.push(kind::EndpointAuthOptional, &id, "a key is no longer required: old clients still send one; new clients may call without one and old servers answer 401 UNAUTHORIZED", at),
            _ => {}
        }
        if self.old.returns(o).spec_name != self.new.returns(n).spec_name {
            let old_ty = TypeRef::Record(o.returns);
            let new_ty = TypeRef::Record(n.returns);
            let clients = decodes(self.old, (&old_ty, false), self.new, (&new_ty, false));
            let servers = decodes(self.new, (&new_ty, false), self.old, (&old_ty, false));
            let side = |r: &Result<(), String>, who: &str, from: &str| match r {
                Ok(()) => format!("{who} still decode records of {from}"),
                Err(e) => format!("{who} fail to decode records of {from} ({e})"),
            };
            let impacts = Impacts {
                clients: Impact::breaking_if(clients.is_err()),
                servers: Impact::breaking_if(servers.is_err()),
            };
            self.push(
                kind::EndpointReturnsChanged.decided(impacts),
                &id,
                format!(
                    "`data` holds {} instead of {}: {}; {}",
                    type_name(self.new, &new_ty, false),
                    type_name(self.old, &old_ty, false),
                    side(&clients, "old clients", "new servers"),
                    side(&servers, "new clients", "old servers")
                ),
                at,
            );
        }
        let paging = |e: &Endpoint| {
            e.paging.as_ref().map(|p| {
                let name = |id| e.param(id).wire.clone();
                (name(p.limit), p.offset.map(name))
            })
        };
        if paging(o) != paging(n) {
            let describe = |p: Option<(String, Option<String>)>| match p {
                None => "none".to_owned(),
                Some((limit, None)) => format!("limit `{limit}`"),
                Some((limit, Some(offset))) => format!("limit `{limit}`, offset `{offset}`"),
            };
            self.push(kind::EndpointPagingChanged, &id, format!(
                    "paging {} became {}: the parameters themselves are compared apart; the generated client's paging stream follows",
                    describe(paging(o)),
                    describe(paging(n))
                ), Places { old: o.paging.as_ref().map(|p| &p.at).or(at.old), new: n.paging.as_ref().map(|p| &p.at).or(at.new) });
        }
        self.order(o, n);
        self.lookup(o, n);
        let removal = |e: &Endpoint| {
            e.removed
                .as_ref()
                .map(|r| (r.date.clone(), r.version.clone()))
        };
        if let Some(parts) = changed_parts(&[
            ("summary", o.summary != n.summary),
            ("doc", o.doc != n.doc),
            ("ordering", o.ordering != n.ordering),
            ("provenance", o.provenance != n.provenance),
            ("key provenance", o.auth_provenance != n.auth_provenance),
            (
                "removal date",
                o.removed.is_some() && n.removed.is_some() && removal(o) != removal(n),
            ),
        ]) {
            self.push(
                kind::EndpointDocChanged,
                &id,
                format!("the {parts} of `{id}` changed"),
                at,
            );
        }
        // A renamed endpoint's names follow its id; `endpoint.renamed` says so.
        if o.id == n.id && rust_names(o) != rust_names(n) {
            let names = Sides {
                old: o.names.method.as_str(),
                new: &n.names.method,
            };
            self.rust_renamed(&id, names, at);
        }
        self.params(o, n);
        self.body(o, n);
        self.rules(o, n);
        self.samples(o, n);
    }

    /// The documented order of the records: clients may rely on it (the first record is the
    /// latest), so a change breaks whoever relies on the side that changed.
    fn order(&mut self, o: &Endpoint, n: &Endpoint) {
        // The field by its name: what the two versions share.
        let field = |api: &Api, e: &Endpoint| {
            (e.order.as_ref()).map(|r| (api.returns(e).field(r.field).wire.clone(), r.descending))
        };
        let (old_key, new_key) = (field(self.old, o), field(self.new, n));
        let describe = |key: &Option<(String, bool)>| match key {
            None => "no order".to_owned(),
            Some((field, descending)) => format!(
                "`{}` {}",
                field,
                if *descending {
                    "descending"
                } else {
                    "ascending"
                }
            ),
        };
        if old_key == new_key {
            return;
        }
        let (clients, servers, why) = match (&o.order, &n.order) {
            (None, Some(_)) => (
                Impact::Compatible,
                Impact::Breaking,
                "old clients relied on no order; new clients rely on one old servers need not keep",
            ),
            (Some(_), None) => (
                Impact::Breaking,
                Impact::Compatible,
                "old clients rely on an order new servers need not keep; new clients rely on none",
            ),
            _ => (
                Impact::Breaking,
                Impact::Breaking,
                "each side relies on an order the other does not keep",
            ),
        };
        self.push(
            kind::EndpointOrderChanged.decided(Impacts { clients, servers }),
            &n.id,
            format!(
                "records in {} became {}: {why}",
                describe(&old_key),
                describe(&new_key)
            ),
            Places {
                old: o.order.as_ref().map(|r| &r.at).or(Some(&o.at)),
                new: n.order.as_ref().map(|r| &r.at).or(Some(&n.at)),
            },
        );
    }

    /// The lookup parameter: a value naming nothing answers 404 instead of an empty `data`.
    fn lookup(&mut self, o: &Endpoint, n: &Endpoint) {
        let name = |e: &Endpoint| e.lookup.map(|id| e.param(id).wire.clone());
        let (old_lookup, new_lookup) = (name(o), name(n));
        if old_lookup == new_lookup {
            return;
        }
        let (clients, servers, why) = match (&o.lookup, &n.lookup) {
            (None, Some(_)) => (
                Impact::Breaking,
                Impact::Compatible,
                "new servers answer 404 NOT_FOUND where old clients expect an empty `data`",
            ),
            (Some(_), None) => (
                Impact::Compatible,
                Impact::Breaking,
                "old servers answer 404 NOT_FOUND where new clients expect an empty `data`",
            ),
            _ => (
                Impact::Breaking,
                Impact::Breaking,
                "each side answers 404 NOT_FOUND for a parameter the other does not look up by",
            ),
        };
        let describe = |l: &Option<String>| match l {
            None => "none".to_owned(),
            Some(p) => format!("`{p}`"),
        };
        self.push(
            kind::EndpointLookupChanged.decided(Impacts { clients, servers }),
            &n.id,
            format!(
                "the lookup parameter {} became {}: {why}",
                describe(&old_lookup),
                describe(&new_lookup)
            ),
            Places {
                old: Some(&o.at),
                new: Some(&n.at),
            },
        );
    }

    fn samples(&mut self, o: &Endpoint, n: &Endpoint) {
        match (&o.samples, &n.samples) {
            (None, None) => {}
            (Some(s), None) => self.push_sample(
                kind::SamplesRemoved,
                &n.id,
                format!("`{}` has no sample data any more", n.id),
                Places {
                    old: Some(&s.at),
                    new: None,
                },
            ),
            (None, Some(s)) => self.push_sample(
                kind::SamplesAdded,
                &n.id,
                format!("`{}` has sample data now", n.id),
                Places {
                    old: None,
                    new: Some(&s.at),
                },
            ),
            (Some(a), Some(b)) => {
                let (old_text, new_text) =
                    (sample_text(self.old, o, a), sample_text(self.new, n, b));
                if let Some(parts) = changed_parts(&[
                    (
                        "example",
                        (&a.example, &a.example_body) != (&b.example, &b.example_body),
                    ),
                    ("sets", old_text.0 != new_text.0),
                    ("selection", old_text.1 != new_text.1),
                ]) {
                    self.push_sample(
                        kind::SamplesChanged,
                        &n.id,
                        format!("the sample data of `{}` changed: {parts}", n.id),
                        Places {
                            old: Some(&a.at),
                            new: Some(&b.at),
                        },
                    );
                }
            }
        }
    }
}
