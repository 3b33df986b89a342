//! The body of a `POST`: its record added, removed or replaced, and its fields added, removed,
//! made required or optional, their types and constraints. A body travels the other way from
//! an answer: clients send it and servers decode it, so a field is compared as a parameter is
//! (old clients break when they may send a body new servers refuse, old servers when new
//! clients may), not as a field of an answer.

use super::ChangeKind;
use super::impact::*;
use super::types::{decodes, type_name};
use super::{Diff, changed_parts};
use crate::model::{
    Api, Endpoint, Field, FieldId, Input, Operand, Record, ValueType, body_field_name,
};

impl Diff<'_> {
    /// The bodies of one endpoint on both sides (`n` is the new endpoint).
    pub(super) fn body(&mut self, o: &Endpoint, n: &Endpoint) {
        let old = o.body.as_ref().map(|b| (b, self.old.record(b.record)));
        let new = n.body.as_ref().map(|b| (b, self.new.record(b.record)));
        match (old, new) {
            (None, None) => {}
            // The record's name is not on the wire: its fields are.
            (Some((ob, a)), Some((nb, b))) => {
                self.rust_renamed(
                    &n.body_rule(),
                    (&a.name, &b.name),
                    (Some(&ob.at), Some(&nb.at)),
                );
                self.body_fields((o, n), a, b);
            }
            (a, b) => {
                let name = |side: Option<(_, &Record)>| {
                    side.map_or("no body".to_owned(), |(_, r)| {
                        format!("a body `{}`", r.spec_name)
                    })
                };
                // Added or removed (a record replaced by another is compared field by field).
                self.push(
                    ChangeKind::BodyChanged,
                    &n.id,
                    BOTH_BREAK,
                    format!(
                        "`{}` took {} and takes {}: neither side sends what the other reads",
                        n.id,
                        name(a),
                        name(b)
                    ),
                    (a.map(|(b, _)| &b.at), b.map(|(b, _)| &b.at)),
                );
            }
        }
    }

    /// The fields of body record `a` (old) and `b` (new) of endpoint `n`.
    fn body_fields(&mut self, (o, n): (&Endpoint, &Endpoint), a: &Record, b: &Record) {
        // A missing field or one of another shape is refused with the body's own rule.
        let shape_rule = n.body_rule();
        for f in &a.fields {
            let subject = format!("{}.{}", n.id, body_field_name(&f.wire));
            let Some(g) = b.field_named(&f.wire) else {
                let (check, impacts, why) = if f.optional {
                    (
                        ChangeKind::BodyFieldRemovedOptional,
                        COMPATIBLE,
                        "new servers ignore it from old clients; new clients leave it out, which old servers accept",
                    )
                } else {
                    (
                        ChangeKind::BodyFieldRemovedRequired,
                        SERVERS_BREAK,
                        "new servers ignore it from old clients; new clients leave it out and old servers refuse their bodies",
                    )
                };
                let why = if f.optional {
                    why.to_owned()
                } else {
                    format!("{why} ({shape_rule})")
                };
                self.push(
                    check,
                    &subject,
                    impacts,
                    format!("body field `{}` is gone: {why}", f.wire),
                    (Some(&f.at), Some(&b.at)),
                );
                continue;
            };
            self.body_field((o, n), &subject, (a, f), (b, g), &shape_rule);
        }
        for g in b.fields.iter().filter(|g| a.field_named(&g.wire).is_none()) {
            let subject = format!("{}.{}", n.id, body_field_name(&g.wire));
            let (check, impacts, why) = if g.optional {
                (
                    ChangeKind::BodyFieldAddedOptional,
                    COMPATIBLE,
                    "old clients do not send it, which new servers accept; old servers ignore it"
                        .to_owned(),
                )
            } else {
                (
                    ChangeKind::BodyFieldAddedRequired,
                    CLIENTS_BREAK,
                    format!(
                        "old clients do not send it and new servers refuse their bodies ({shape_rule}); old servers ignore it"
                    ),
                )
            };
            let kind = if g.optional { "optional" } else { "required" };
            self.push(
                check,
                &subject,
                impacts,
                format!("new {kind} body field `{}`: {why}", g.wire),
                (Some(&a.at), Some(&g.at)),
            );
        }
    }

    /// One field of a body on both sides.
    fn body_field(
        &mut self,
        (o, n): (&Endpoint, &Endpoint),
        subject: &str,
        (a, f): (&Record, &Field),
        (b, g): (&Record, &Field),
        shape_rule: &str,
    ) {
        let at = (Some(&f.at), Some(&g.at));
        match (f.optional, g.optional) {
            (true, false) => self.push(ChangeKind::BodyFieldNowRequired, subject, CLIENTS_BREAK, format!(
                    "body field `{}` became required: old clients may leave it out and new servers refuse that ({shape_rule}); new clients always send it",
                    g.wire
                ), at),
            (false, true) => self.push(ChangeKind::BodyFieldNowOptional, subject, SERVERS_BREAK, format!(
                    "body field `{}` became optional: old clients still send it; new clients may leave it out and old servers refuse that ({shape_rule})",
                    g.wire
                ), at),
            _ => {}
        }
        // Values: as a parameter's when both sides check them, else by the types' shapes.
        fn checked<'m>(api: &'m Api, e: &'m Endpoint, r: &Record, f: &Field) -> Option<Input<'m>> {
            let id = r.fields.iter().position(|x| x.wire == f.wire)?;
            api.inputs(e).get(Operand::Field(FieldId::new(id)))
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
                    self.push(
                        ChangeKind::BodyFieldTypeChanged,
                        subject,
                        (breaks(clients.is_err()), breaks(servers.is_err())),
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
                ChangeKind::BodyFieldDocChanged,
                subject,
                DOCS,
                format!("the {parts} of body field `{}` changed", g.wire),
                at,
            );
        }
    }
}
