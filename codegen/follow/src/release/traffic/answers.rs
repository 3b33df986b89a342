//! The changes of the records an endpoint answers with: a field missing, added (text, an
//! object, a list), retyped, renamed, in another format, a value outside its set.

use serde_json::{Value, json};

use mrds_spec::model::{Api, Field, Format, Record, TypeRef};

use super::{Served, Traffic, served};
use crate::release::{Draw, Kind};

/// Whether a field of the record `r` is read by the samples or the documented order of an
/// endpoint returning it (a change of it would change what a request selects).
fn referenced(api: &Api, r: &Record, wire: &str) -> bool {
    let Some(id) = r.field_id(wire) else {
        return false;
    };
    (api.endpoints.iter())
        .filter(|e| e.returns == r.id)
        .any(|e| {
            let ordered = e.order.as_ref().is_some_and(|o| o.field == id);
            let sampled = e.samples.as_ref().is_some_and(|s| {
                let field = |f: &mrds_spec::model::SampleField| match f {
                    mrds_spec::model::SampleField::Fixed(f) => *f == id,
                    mrds_spec::model::SampleField::By(_, fields) => {
                        fields.iter().any(|(_, f)| *f == id)
                    }
                };
                s.echo.iter().any(|(f, _)| *f == id)
                    || s.filter.iter().any(|(_, f)| *f == id)
                    || s.range.as_ref().is_some_and(|r| field(&r.field))
                    || s.order.as_ref().is_some_and(|o| field(&o.field))
            });
            ordered || sampled
        })
}

/// The served endpoints' fields `pick` takes, not taken by another change of the release:
/// (endpoint index in `served`, field). Only the records one served endpoint answers with: a
/// provider changing a record another endpoint answers with too changes both answers, which
/// one endpoint's traffic would not show (the other would then read as drift).
fn fields<'a>(
    served: &'a [Served<'a>],
    draw: &Draw,
    pick: impl Fn(&Served<'a>, &'a Field) -> bool,
) -> Vec<(usize, &'a Field)> {
    let alone = |s: &Served<'_>| served.iter().filter(|o| o.record.id == s.record.id).count() == 1;
    (served.iter().enumerate())
        .filter(|(_, s)| alone(s))
        .flat_map(|(i, s)| s.record.fields.iter().map(move |f| (i, s, f)))
        .filter(|(_, s, f)| {
            !draw
                .taken
                .contains(&format!("{}.{}", s.record.spec_name, f.wire))
        })
        .filter(|(_, s, f)| pick(s, f))
        .map(|(i, _, f)| (i, f))
        .collect()
}

/// A required single value of a scalar type.
fn required_scalar(f: &Field) -> bool {
    !f.optional
        && !f.array
        && matches!(
            f.ty,
            TypeRef::String
                | TypeRef::Integer
                | TypeRef::Number
                | TypeRef::Boolean
                | TypeRef::ValueSet(_)
        )
}

pub(super) fn field_optional(api: &Api, draw: &mut Draw, traffic: &mut Traffic) -> Option<String> {
    let served = served(api);
    let candidates = fields(&served, draw, |s, f| {
        required_scalar(f) && !referenced(api, s.record, &f.wire)
    });
    let (i, f) = draw.pick(candidates)?;
    let s = &served[i];
    draw.take(format!("{}.{}", s.record.spec_name, f.wire));
    let wire = f.wire.clone();
    traffic.records(
        &s.e.id,
        Box::new(move |_, r| {
            r.remove(&wire);
        }),
    );
    let what = format!(
        "`{}.{}` missing from the answers of `{}`",
        s.record.spec_name, f.wire, s.e.id
    );
    Some(what)
}

/// A name for a new field of `record`, not the record's nor another change's.
fn new_field(draw: &mut Draw, record: &Record, base: &str) -> String {
    let mut name = base.to_string();
    let mut n = 2;
    while record.field_named(&name).is_some() || !draw.take(format!("{}.{name}", record.spec_name))
    {
        name = format!("{base}_{n}");
        n += 1;
    }
    name
}

pub(super) fn field_added(
    api: &Api,
    draw: &mut Draw,
    kind: Kind,
    traffic: &mut Traffic,
) -> Option<String> {
    let served = served(api);
    let s = draw.pick((0..served.len()).collect())?;
    let s = &served[s];
    let bases = match kind {
        Kind::NestedFieldAdded => ["listing", "issuer", "provenance"],
        Kind::ListFieldAdded => ["tags", "aliases", "flags"],
        _ => ["venue_code", "region_tag", "revision"],
    };
    let base = bases[draw.below(3) as usize];
    let name = new_field(draw, s.record, base);
    let value = move |i: usize| -> Value {
        match kind {
            Kind::NestedFieldAdded => json!({
                "code": format!("C{}", 100 + i),
                "weight": 0.5 + i as f64,
                "active": i.is_multiple_of(2),
            }),
            Kind::ListFieldAdded => json!([format!("a{i}"), "b"]),
            _ => json!(format!("x-{i}")),
        }
    };
    let key = name.clone();
    traffic.records(
        &s.e.id,
        Box::new(move |i, r| {
            r.insert(key.clone(), value(i));
        }),
    );
    let what = format!(
        "new field `{}.{name}` in the answers of `{}`",
        s.record.spec_name, s.e.id
    );
    Some(what)
}

pub(super) fn field_retyped(api: &Api, draw: &mut Draw, traffic: &mut Traffic) -> Option<String> {
    let served = served(api);
    let candidates = fields(&served, draw, |s, f| {
        !f.array
            && f.format.is_none()
            && matches!(f.ty, TypeRef::Integer | TypeRef::Number)
            && !referenced(api, s.record, &f.wire)
            && s.records
                .iter()
                .any(|r| r.get(&f.wire).is_some_and(Value::is_number))
    });
    let (i, f) = draw.pick(candidates)?;
    let s = &served[i];
    draw.take(format!("{}.{}", s.record.spec_name, f.wire));
    let (wire, integer) = (f.wire.clone(), f.ty == TypeRef::Integer);
    traffic.records(
        &s.e.id,
        Box::new(move |_, r| {
            if let Some(Value::Number(n)) = r.get(&wire).cloned() {
                let v = n.as_f64().unwrap_or(0.0);
                let new = if integer {
                    json!(v + 0.5)
                } else {
                    json!(format!("{v}"))
                };
                r.insert(wire.clone(), new);
            }
        }),
    );
    let to = if integer {
        "numbers with fractions"
    } else {
        "numbers as text"
    };
    let what = format!(
        "`{}.{}` as {to} in the answers of `{}`",
        s.record.spec_name, f.wire, s.e.id
    );
    Some(what)
}

pub(super) fn field_renamed(api: &Api, draw: &mut Draw, traffic: &mut Traffic) -> Option<String> {
    let served = served(api);
    let candidates = fields(&served, draw, |s, f| {
        required_scalar(f)
            // The record of one endpoint: a rename shows on every endpoint returning it.
            && api.endpoints.iter().filter(|e| e.returns == s.record.id && e.removed.is_none()).count() == 1
    });
    let (i, f) = draw.pick(candidates)?;
    let s = &served[i];
    draw.take(format!("{}.{}", s.record.spec_name, f.wire));
    let new = new_field(draw, s.record, &format!("{}_v2", f.wire));
    let (old, renamed) = (f.wire.clone(), new.clone());
    traffic.records(
        &s.e.id,
        Box::new(move |_, r| {
            if let Some(v) = r.remove(&old) {
                r.insert(renamed.clone(), v);
            }
        }),
    );
    let what = format!(
        "`{}.{}` renamed `{new}` in the answers of `{}`",
        s.record.spec_name, f.wire, s.e.id
    );
    Some(what)
}

pub(super) fn value_added(api: &Api, draw: &mut Draw, traffic: &mut Traffic) -> Option<String> {
    let served = served(api);
    let candidates = fields(&served, draw, |s, f| {
        !f.array
            && matches!(f.ty, TypeRef::ValueSet(_))
            && !referenced(api, s.record, &f.wire)
            && s.records
                .iter()
                .any(|r| r.get(&f.wire).is_some_and(Value::is_string))
    });
    let (i, f) = draw.pick(candidates)?;
    let s = &served[i];
    let TypeRef::ValueSet(set) = f.ty else {
        return None;
    };
    let set = api.value_set(set);
    draw.take(format!("{}.{}", s.record.spec_name, f.wire));
    let mut value = format!("rel{}_new", draw.tag);
    while set.values.iter().any(|v| v.wire == value) {
        value.push('x');
    }
    let (wire, new) = (f.wire.clone(), value.clone());
    traffic.records(
        &s.e.id,
        Box::new(move |i, r| {
            if i == 0 {
                r.insert(wire.clone(), json!(new));
            }
        }),
    );
    let what = format!(
        "`{value}` of `{}` in `{}.{}`",
        set.spec_name, s.record.spec_name, f.wire
    );
    Some(what)
}

pub(super) fn format_changed(api: &Api, draw: &mut Draw, traffic: &mut Traffic) -> Option<String> {
    let served = served(api);
    let candidates = fields(&served, draw, |s, f| {
        !f.array
            && f.format == Some(Format::Text(mrds_runtime::TextFormat::Date))
            && s.records
                .iter()
                .any(|r| r.get(&f.wire).is_some_and(Value::is_string))
    });
    let (i, f) = draw.pick(candidates)?;
    let s = &served[i];
    draw.take(format!("{}.{}", s.record.spec_name, f.wire));
    let wire = f.wire.clone();
    // The same days, as timestamps at midnight UTC.
    traffic.records(
        &s.e.id,
        Box::new(move |_, r| {
            if let Some(Value::String(day)) = r.get(&wire).cloned() {
                r.insert(wire.clone(), json!(format!("{day}T00:00:00Z")));
            }
        }),
    );
    let what = format!(
        "`{}.{}` as timestamps in the answers of `{}`",
        s.record.spec_name, f.wire, s.e.id
    );
    Some(what)
}
