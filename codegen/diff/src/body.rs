//! The body of a `POST`, `PUT` or `PATCH`: its record replaced, and its fields added, removed,
//! made required or optional, their types and constraints. A body travels the other way from
//! an answer: clients send it and servers decode it, so a field is compared as a parameter is
//! (old clients break when they may send a body new servers refuse, old servers when new
//! clients may), not as a field of an answer.

use super::checks::kind;
use super::types::{decodes, type_name};
use super::{Diff, Impact, Impacts, Places, Sides, changed_parts};
use mrds_spec::model::{Api, Endpoint, Field, Input, Operand, Record, ValueType, body_field_name};

impl Diff<'_> {
    /// The bodies of one endpoint on both sides (`n` is the new endpoint).
    pub(super) fn body(&mut self, o: &Endpoint, n: &Endpoint) {
        let old = o.body.as_ref().map(|b| (b, self.old.record(b.record)));
        let new = n.body.as_ref().map(|b| (b, self.new.record(b.record)));
        // The method decides whether a request has a body, and endpoints of two methods are
        // two endpoints: both sides have one, or neither.
        let (Some((ob, a)), Some((nb, b))) = (old, new) else {
            return;
        };
        // The record's name is not on the wire: its fields are.
        let names = Sides {
            old: a.name.as_str(),
            new: &b.name,
        };
        let at = Places {
            old: Some(&ob.at),
            new: Some(&nb.at),
        };
        self.rust_renamed(&n.body_rule(), names, at);
        self.body_fields(Sides { old: o, new: n }, Sides { old: a, new: b });
    }

    /// The fields of the body records of one endpoint on both sides.
    fn body_fields(&mut self, endpoints: Sides<&Endpoint>, records: Sides<&Record>) {
        let (n, Sides { old: a, new: b }) = (endpoints.new, records);
        // A missing field or one of another shape is refused with the body's own rule.
        let shape_rule = n.body_rule();
        for f in &a.fields {
            let subject = format!("{}.{}", n.id, body_field_name(&f.wire));
            let Some(g) = b.field_named(&f.wire) else {
                let at = Places {
                    old: Some(&f.at),
                    new: Some(&b.at),
                };
                if f.optional {
                    self.push(kind::BodyFieldRemovedOptional, &subject, format!(
                            "body field `{}` is gone: new servers ignore it from old clients; new clients leave it out, which old servers accept",
                            f.wire
                        ), at);
                } else {
                    self.push(kind::BodyFieldRemovedRequired, &subject, format!(
                            "body field `{}` is gone: new servers ignore it from old clients; new clients leave it out and old servers refuse their bodies ({shape_rule})",
                            f.wire
                        ), at);
                }
                continue;
            };
            let fields = Sides { old: f, new: g };
            self.body_field(&subject, endpoints, records, fields, &shape_rule);
        }
        for g in b.fields.iter().filter(|g| a.field_named(&g.wire).is_none()) {
            let subject = format!("{}.{}", n.id, body_field_name(&g.wire));
            let at = Places {
                old: Some(&a.at),
                new: Some(&g.at),
            };
            if g.optional {
                self.push(kind::BodyFieldAddedOptional, &subject, format!(
                        "new optional body field `{}`: old clients do not send it, which new servers accept; old servers ignore it",
                        g.wire
                    ), at);
            } else {
                self.push(kind::BodyFieldAddedRequired, &subject, format!(
                        "new required body field `{}`: old clients do not send it and new servers refuse their bodies ({shape_rule}); old servers ignore it",
                        g.wire
                    ), at);
            }
        }
    }

    /// One field of a body on both sides.
    fn body_field(
        &mut self,
        subject: &str,
        endpoints: Sides<&Endpoint>,
        records: Sides<&Record>,
        fields: Sides<&Field>,
        shape_rule: &str,
    ) {
        let (Sides { old: o, new: n }, Sides { old: a, new: b }) = (endpoints, records);
        let Sides { old: f, new: g } = fields;
        let at = Places {
            old: Some(&f.at),
            new: Some(&g.at),
        };
        match (f.optional, g.optional) {
            (true, false) => self.push(kind::BodyFieldNowRequired, subject, format!(
                    "body field `{}` became required: old clients may leave it out and new servers refuse that ({shape_rule}); new clients always send it",
                    g.wire
                ), at),
            (false, true) => self.push(kind::BodyFieldNowOptional, subject, format!(
                    "body field `{}` became optional: old clients still send it; new clients may leave it out and old servers refuse that ({shape_rule})",
                    g.wire
                ), at),
            _ => {}
        }
        // Values: as a parameter's when both sides check them, else by the types' shapes.
        fn checked<'m>(api: &'m Api, e: &'m Endpoint, r: &Record, f: &Field) -> Option<Input<'m>> {
            api.inputs(e).get(Operand::Field(r.field_id(&f.wire)?))
        }
        match (checked(self.old, o, a, f), checked(self.new, n, b, g)) {
            (Some(p), Some(q)) => self.param_values(n, subject, &p, &q),
            _ => {
                let (old, new) = (
                    type_name(self.old, &f.ty, f.array),
                    type_name(self.new, &g.ty, g.array),
                );
                if old != new {
                    // New servers decode what old clients send; old servers what new ones do.
                    let clients = decodes(self.new, (&g.ty, g.array), self.old, (&f.ty, f.array));
                    let servers = decodes(self.old, (&f.ty, f.array), self.new, (&g.ty, g.array));
                    let side = |r: &Result<(), String>, senders: &str, receivers: &str| match r {
                        Ok(()) => format!("{receivers} decode what {senders} send"),
                        Err(e) => format!("{receivers} cannot decode what {senders} send ({e})"),
                    };
                    let impacts = Impacts {
                        clients: Impact::breaking_if(clients.is_err()),
                        servers: Impact::breaking_if(servers.is_err()),
                    };
                    self.push(
                        kind::BodyFieldTypeChanged.decided(impacts),
                        subject,
                        format!(
                            "body field `{}` of type {old} became {new}: {}; {}",
                            g.wire,
                            side(&clients, "old clients", "new servers"),
                            side(&servers, "new clients", "old servers")
                        ),
                        at,
                    );
                }
            }
        }
        let pattern_doc = |field: &Field| match &field.checks {
            Some(ValueType::String(t)) => t.pattern_doc.clone(),
            _ => None,
        };
        if let Some(parts) = changed_parts(&[
            ("doc", f.doc != g.doc),
            ("provenance", f.provenance != g.provenance),
            ("pattern doc", pattern_doc(f) != pattern_doc(g)),
        ]) {
            self.push(
                kind::BodyFieldDocChanged,
                subject,
                format!("the {parts} of body field `{}` changed", g.wire),
                at,
            );
        }
    }
}
