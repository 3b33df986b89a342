//! Value sets, records and their fields (the envelope's too): what an answer carries, and
//! whether the other side still decodes it.

use std::collections::BTreeSet;

use super::checks::kind;
use super::{Diff, Impact, Impacts, Places, Sides, changed_parts, list};
use mrds_spec::model::{Api, Field, Format, Record, TypeRef, ValueSet, ValueType};

impl Diff<'_> {
    pub(super) fn value_sets(&mut self) {
        let (old, new) = (self.old, self.new);
        for o in &old.value_sets {
            let Some(n) = new.value_sets.iter().find(|n| n.spec_name == o.spec_name) else {
                self.push(kind::ValueSetRemoved, &o.spec_name, format!(
                        "value set `{}` is gone; the parameters and fields that used it are reported apart",
                        o.spec_name
                    ), Places { old: Some(&o.at), new: None });
                continue;
            };
            self.value_set(o, n);
        }
        for n in &new.value_sets {
            if !old.value_sets.iter().any(|o| o.spec_name == n.spec_name) {
                self.push(kind::ValueSetAdded, &n.spec_name, format!(
                        "new value set `{}`; the parameters and fields that use it are reported apart",
                        n.spec_name
                    ), Places { old: None, new: Some(&n.at) });
            }
        }
    }

    fn value_set(&mut self, o: &ValueSet, n: &ValueSet) {
        let requests = self.request_uses(o, n);
        let in_answers = o.tolerant && n.tolerant;
        let uses = match (requests.is_empty(), in_answers) {
            (false, true) => format!(
                "request and answer value set (parameters {})",
                list(&requests)
            ),
            (false, false) => format!("request value set (parameters {})", list(&requests)),
            (true, true) => "answer value set".to_owned(),
            (true, false) => "value set used on neither side".to_owned(),
        };
        let rules: Vec<String> = requests.iter().map(|p| format!("{p}.values")).collect();
        for ov in &o.values {
            let subject = format!("{}.{}", o.spec_name, ov.wire);
            let Some(nv) = n.values.iter().find(|nv| nv.wire == ov.wire) else {
                let mut why = Vec::new();
                if !requests.is_empty() {
                    why.push(format!(
                        "old clients may send it and new servers reject it ({})",
                        rules.join(", ")
                    ));
                }
                if in_answers {
                    why.push(
                        "old servers may still answer it and new clients decode it as an unknown value"
                            .to_owned(),
                    );
                }
                if why.is_empty() {
                    why.push("nothing sends or reads it".to_owned());
                }
                self.push(
                    kind::ValueSetValueRemoved.clients(Impact::breaking_if(!requests.is_empty())),
                    subject,
                    format!(
                        "value `{}` of {uses} `{}` is gone: {}",
                        ov.wire,
                        o.spec_name,
                        why.join("; ")
                    ),
                    Places {
                        old: Some(&ov.at),
                        new: Some(&n.at),
                    },
                );
                continue;
            };
            let at = Places {
                old: Some(&ov.at),
                new: Some(&nv.at),
            };
            if let Some(parts) = changed_parts(&[
                ("doc", ov.doc != nv.doc),
                ("provenance", ov.provenance != nv.provenance),
            ]) {
                self.push(
                    kind::ValueSetDocChanged,
                    &subject,
                    format!(
                        "the {parts} of value `{}` of `{}` changed",
                        ov.wire, o.spec_name
                    ),
                    at,
                );
            }
            self.rust_renamed(
                &subject,
                Sides {
                    old: &ov.ident,
                    new: &nv.ident,
                },
                at,
            );
        }
        for nv in &n.values {
            if o.values.iter().any(|ov| ov.wire == nv.wire) {
                continue;
            }
            let mut why = Vec::new();
            if !requests.is_empty() {
                why.push(format!(
                    "new clients may send it and old servers reject it ({})",
                    rules.join(", ")
                ));
            }
            if in_answers {
                why.push(
                    "old clients decode it in answers of new servers as an unknown value"
                        .to_owned(),
                );
            }
            if why.is_empty() {
                why.push("nothing sends or reads it".to_owned());
            }
            self.push(
                kind::ValueSetValueAdded.servers(Impact::breaking_if(!requests.is_empty())),
                format!("{}.{}", n.spec_name, nv.wire),
                format!(
                    "new value `{}` of {uses} `{}`: {}",
                    nv.wire,
                    n.spec_name,
                    why.join("; ")
                ),
                Places {
                    old: Some(&o.at),
                    new: Some(&nv.at),
                },
            );
        }
        let at = Places {
            old: Some(&o.at),
            new: Some(&n.at),
        };
        if let Some(parts) = changed_parts(&[
            ("doc", o.doc != n.doc),
            ("provenance", o.provenance != n.provenance),
        ]) {
            self.push(
                kind::ValueSetDocChanged,
                &o.spec_name,
                format!("the {parts} of value set `{}` changed", o.spec_name),
                at,
            );
        }
        self.rust_renamed(
            &o.spec_name,
            Sides {
                old: &o.name,
                new: &n.name,
            },
            at,
        );
    }

    /// The parameters and body fields (`endpoint.param`, `endpoint.body.field`) of value set
    /// `o`/`n` on both sides.
    fn request_uses(&self, o: &ValueSet, n: &ValueSet) -> Vec<String> {
        let uses = |api: &Api, set: &str| -> BTreeSet<String> {
            api.endpoints
                .iter()
                .flat_map(|e| {
                    api.inputs(e).all().filter_map(move |i| match i.ty {
                        ValueType::Enum(t) if t.name == set => {
                            Some(format!("{}.{}", e.id, i.name()))
                        }
                        _ => None,
                    })
                })
                .collect()
        };
        uses(self.old, &o.name)
            .intersection(&uses(self.new, &n.name))
            .cloned()
            .collect()
    }

    pub(super) fn records(&mut self) {
        let (old, new) = (self.old, self.new);
        for o in &old.records {
            let Some(n) = new.records.iter().find(|n| n.spec_name == o.spec_name) else {
                self.push(kind::RecordRemoved, &o.spec_name, format!(
                        "record `{}` is gone; the endpoints and fields that used it are reported apart",
                        o.spec_name
                    ), Places { old: Some(&o.at), new: None });
                continue;
            };
            let at = Places {
                old: Some(&o.at),
                new: Some(&n.at),
            };
            if let Some(parts) = changed_parts(&[
                ("doc", o.doc != n.doc),
                ("provenance", o.provenance != n.provenance),
            ]) {
                self.push(
                    kind::RecordDocChanged,
                    &o.spec_name,
                    format!("the {parts} of record `{}` changed", o.spec_name),
                    at,
                );
            }
            self.rust_renamed(
                &o.spec_name,
                Sides {
                    old: &o.name,
                    new: &n.name,
                },
                at,
            );
            // A body (and nothing answers hold) is compared with its endpoint, as a request.
            let body_only = |api, r| is_body(api, r) && !in_answers(api, r);
            if !(body_only(old, o) && body_only(new, n)) {
                let fields = Sides {
                    old: o.fields.as_slice(),
                    new: &n.fields,
                };
                self.fields(&o.spec_name, fields, at);
            }
        }
        for n in &new.records {
            if !old.records.iter().any(|o| o.spec_name == n.spec_name) {
                self.push(
                    kind::RecordAdded,
                    &n.spec_name,
                    format!(
                        "new record `{}`; the endpoints and fields that use it are reported apart",
                        n.spec_name
                    ),
                    Places {
                        old: None,
                        new: Some(&n.at),
                    },
                );
            }
        }
    }

    /// The fields of one record (or of the envelope), `owner` naming it and `owners` giving its
    /// places.
    pub(super) fn fields(&mut self, owner: &str, fields: Sides<&[Field]>, owners: Places<'_>) {
        let Sides { old, new } = fields;
        for o in old {
            let subject = format!("{owner}.{}", o.wire);
            let Some(n) = new.iter().find(|n| n.wire == o.wire) else {
                if o.optional {
                    self.push(kind::FieldRemovedOptional, subject, format!(
                            "optional field `{}` is gone: old clients do without it; new clients ignore it in answers of old servers",
                            o.wire
                        ), Places { old: Some(&o.at), new: owners.new });
                } else {
                    self.push(kind::FieldRemovedRequired, subject, format!(
                            "required field `{}` is gone: old clients fail to decode answers of new servers without it; new clients ignore it in answers of old servers",
                            o.wire
                        ), Places { old: Some(&o.at), new: owners.new });
                }
                continue;
            };
            self.field(&subject, o, n);
        }
        for n in new {
            if old.iter().any(|o| o.wire == n.wire) {
                continue;
            }
            let subject = format!("{owner}.{}", n.wire);
            if n.optional {
                self.push(kind::FieldAddedOptional, subject, format!(
                        "new optional field `{}`: old clients ignore it; new clients do without it in answers of old servers",
                        n.wire
                    ), Places { old: owners.old, new: Some(&n.at) });
            } else {
                self.push(kind::FieldAddedRequired, subject, format!(
                        "new required field `{}`: old clients ignore it; new clients fail to decode answers of old servers, which lack it",
                        n.wire
                    ), Places { old: owners.old, new: Some(&n.at) });
            }
        }
    }

    fn field(&mut self, subject: &str, o: &Field, n: &Field) {
        let at = Places {
            old: Some(&o.at),
            new: Some(&n.at),
        };
        match (o.optional, n.optional) {
            (false, true) => self.push(kind::FieldNowOptional, subject, format!(
                    "field `{}` became optional: new servers may leave it out, and old clients fail to decode such answers; new clients accept it from old servers",
                    o.wire
                ), at),
            (true, false) => self.push(kind::FieldNowRequired, subject, format!(
                    "field `{}` became required: old clients accept it; old servers may leave it out, and new clients fail to decode such answers",
                    o.wire
                ), at),
            _ => {}
        }
        // Types by what the spec writes (ids belong to one model).
        if type_name(self.old, &o.ty, o.array) != type_name(self.new, &n.ty, n.array) {
            let clients = decodes(self.old, (&o.ty, o.array), self.new, (&n.ty, n.array));
            let servers = decodes(self.new, (&n.ty, n.array), self.old, (&o.ty, o.array));
            let mut why = Vec::new();
            match &clients {
                Ok(()) => why.push("old clients still decode answers of new servers".to_owned()),
                Err(e) => why.push(format!(
                    "old clients fail to decode answers of new servers ({e})"
                )),
            }
            match &servers {
                Ok(()) => why.push("new clients still decode answers of old servers".to_owned()),
                Err(e) => why.push(format!(
                    "new clients fail to decode answers of old servers ({e})"
                )),
            }
            let impacts = Impacts {
                clients: Impact::breaking_if(clients.is_err()),
                servers: Impact::breaking_if(servers.is_err()),
            };
            self.push(
                kind::FieldTypeChanged.decided(impacts),
                subject,
                format!(
                    "field `{}` of type {} became {}: {}",
                    o.wire,
                    type_name(self.old, &o.ty, o.array),
                    type_name(self.new, &n.ty, n.array),
                    why.join("; ")
                ),
                at,
            );
        }
        if o.format != n.format {
            let name = |f: Option<Format>| f.map_or("none", Format::name);
            let (impact, why) = match (o.format, n.format) {
                (Some(_), Some(_)) => (
                    Impact::Breaking,
                    "decoding still succeeds, but the text has another shape, and code reading it in one shape misreads the other",
                ),
                _ => (
                    Impact::Documentation,
                    "formats of fields are documented, not checked: the values themselves do not change",
                ),
            };
            let impacts = Impacts {
                clients: impact,
                servers: impact,
            };
            self.push(
                kind::FieldFormatChanged.decided(impacts),
                subject,
                format!(
                    "format of field `{}` `{}` became `{}`: {why}",
                    o.wire,
                    name(o.format),
                    name(n.format)
                ),
                at,
            );
        }
        if let Some(parts) = changed_parts(&[
            ("doc", o.doc != n.doc),
            ("provenance", o.provenance != n.provenance),
        ]) {
            self.push(
                kind::FieldDocChanged,
                subject,
                format!("the {parts} of field `{}` changed", o.wire),
                at,
            );
        }
        self.rust_renamed(
            subject,
            Sides {
                old: &o.ident,
                new: &n.ident,
            },
            at,
        );
    }
}

/// A field type as the spec writes it (`array of number`, `record Bar`).
pub(super) fn type_name(api: &Api, ty: &TypeRef, array: bool) -> String {
    let base = match ty {
        TypeRef::String => "string".to_owned(),
        TypeRef::Integer => "integer".to_owned(),
        TypeRef::Number => "number".to_owned(),
        TypeRef::Boolean => "boolean".to_owned(),
        TypeRef::Any => "any".to_owned(),
        TypeRef::ErrorCode => "ErrorCode".to_owned(),
        TypeRef::Records => "records".to_owned(),
        TypeRef::Record(id) => format!("record {}", api.record(*id).spec_name),
        TypeRef::ValueSet(id) => format!("value set {}", api.value_set(*id).spec_name),
    };
    if array {
        format!("array of {base}")
    } else {
        base
    }
}

/// Whether a reader typed `reader` (in `reader_api`) decodes every value a writer typed
/// `writer` (in `writer_api`) sends; the error says why not. Records decode structurally
/// (unknown fields are ignored; every required field of the reader must be there), value sets
/// read by records keep unknown values. A record of the same name on both sides decodes: its
/// own changes are reported at the record.
pub(super) fn decodes(
    reader_api: &Api,
    reader: (&TypeRef, bool),
    writer_api: &Api,
    writer: (&TypeRef, bool),
) -> Result<(), String> {
    let mut seen = BTreeSet::new();
    decodes_in(reader_api, reader, writer_api, writer, &mut seen)
}

fn decodes_in(
    reader_api: &Api,
    (r, r_array): (&TypeRef, bool),
    writer_api: &Api,
    (w, w_array): (&TypeRef, bool),
    seen: &mut BTreeSet<(String, String)>,
) -> Result<(), String> {
    use TypeRef::*;
    if r_array != w_array {
        return Err(if r_array {
            "a single value where an array is expected".into()
        } else {
            "an array where a single value is expected".into()
        });
    }
    match (r, w) {
        (Any, _) => Ok(()),
        (Record(a), Record(b)) => {
            let (ra, wb) = (reader_api.record(*a), writer_api.record(*b));
            if ra.spec_name == wb.spec_name
                || !seen.insert((ra.spec_name.clone(), wb.spec_name.clone()))
            {
                return Ok(());
            }
            for f in &ra.fields {
                match wb.fields.iter().find(|g| g.wire == f.wire) {
                    None if f.optional => {}
                    None => return Err(format!("`{}` is missing", f.wire)),
                    Some(g) => {
                        if g.optional && !f.optional {
                            return Err(format!("`{}` may be missing", f.wire));
                        }
                        decodes_in(
                            reader_api,
                            (&f.ty, f.array),
                            writer_api,
                            (&g.ty, g.array),
                            seen,
                        )
                        .map_err(|e| format!("`{}`: {e}", f.wire))?;
                    }
                }
            }
            Ok(())
        }
        (a, b) if a == b => Ok(()),
        (Number, Integer) => Ok(()),
        (String, ValueSet(_) | ErrorCode) => Ok(()),
        (ValueSet(_) | ErrorCode, String | ValueSet(_) | ErrorCode) => Ok(()),
        (_, Any) => Err("any JSON value may arrive".into()),
        (Integer, Number) => Err("a number with a fraction is not an integer".into()),
        _ => Err(format!(
            "a {} is not a {}",
            type_name(writer_api, w, false),
            type_name(reader_api, r, false)
        )),
    }
}

/// True when record `r` of `api` is read in answers: an endpoint returns it or a field holds it.
fn in_answers(api: &Api, r: &Record) -> bool {
    api.endpoints.iter().any(|e| e.returns == r.id)
        || (api.records.iter())
            .flat_map(|other| &other.fields)
            .any(|f| f.ty == TypeRef::Record(r.id))
}

/// True when record `r` of `api` is the body of an endpoint.
fn is_body(api: &Api, r: &Record) -> bool {
    (api.endpoints.iter())
        .filter_map(|e| e.body.as_ref())
        .any(|b| b.record == r.id)
}
