//! Likely renames: a required field gone from the answers (`field.missing`) while a field the
//! record does not declare appears in them (`field.undeclared`), its values of the gone
//! field's type and format. One item, not two: the edit renames the field in place (its
//! `name:`, the keys of the sample records, and the samples' and the endpoint's references
//! to it), with the verdict spec-diff will give (the old name gone and the new one required:
//! breaking for clients and servers).

use mrds_runtime::drift::{JsonKind, Observed};

use mrds_diff::ChangeKind;
use mrds_spec::model::{Field, Record, TypeRef};
use mrds_spec::naming;
use mrds_spec::yaml::Node;

use super::cx::Cx;
use super::splice::{Splice, entries, items, value};
use super::{Edit, Group, Item, scalar};

/// A likely rename: the record, the gone field, the new name.
pub(super) struct Rename {
    pub(super) record: String,
    pub(super) old: String,
    pub(super) new: String,
}

/// The renames among `groups` (each gone field paired with at most one new field, the one of
/// the closest name when several fit), and the indexes of the groups they stand for.
pub(super) fn find(cx: &Cx<'_>, groups: &[&Group]) -> Vec<(Rename, [usize; 2])> {
    let mut out: Vec<(Rename, [usize; 2])> = Vec::new();
    for (i, gone) in groups.iter().enumerate() {
        let Observed::RequiredMissing { record, field } = &gone.observed else {
            continue;
        };
        let Some(r) = cx.api.records.iter().find(|r| &r.spec_name == record) else {
            continue;
        };
        let Some(f) = r.field_named(field) else {
            continue;
        };
        let fits: Vec<(usize, &str)> = (groups.iter().enumerate())
            .filter_map(|(j, g)| match &g.observed {
                Observed::UndeclaredField {
                    record: r2,
                    field: new,
                } if r2 == record => Some((j, new.as_str())),
                _ => None,
            })
            .filter(|(j, new)| {
                r.field_named(new).is_none()
                    && naming::field_name(new).is_ok()
                    && holds(f, &groups[*j].examples)
                    && !out.iter().any(|(_, [_, k])| k == j)
            })
            .collect();
        let chosen = best(gone, fits.iter().map(|(j, n)| (*j, *n, groups[*j])), field);
        if let Some((j, new)) = chosen {
            let rename = Rename {
                record: record.clone(),
                old: field.clone(),
                new: new.to_string(),
            };
            out.push((rename, [i, j]));
        }
    }
    out
}

/// Of the fitting new fields, the one most like the gone field: seen on the same endpoints as
/// often as the gone one was missed, then of the closest name; none when two are alike.
fn best<'g>(
    gone: &Group,
    fits: impl Iterator<Item = (usize, &'g str, &'g Group)>,
    field: &str,
) -> Option<(usize, &'g str)> {
    let score = |g: &Group, name: &str| {
        let same_places = g.endpoints.keys().eq(gone.endpoints.keys());
        let same_counts = g.endpoints == gone.endpoints;
        let distance = strsim::levenshtein(&field.to_lowercase(), &name.to_lowercase());
        (!same_places, !same_counts, distance)
    };
    let mut scored: Vec<((bool, bool, usize), usize, &str)> =
        fits.map(|(j, n, g)| (score(g, n), j, n)).collect();
    scored.sort();
    match scored.as_slice() {
        [] => None,
        [(_, j, n)] => Some((*j, *n)),
        [(a, j, n), (b, ..), ..] => (a < b).then_some((*j, *n)),
    }
}

/// Whether every example (JSON text) is a value of `f`'s type and format.
fn holds(f: &Field, examples: &[String]) -> bool {
    !examples.is_empty()
        && examples.iter().all(|e| {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(e) else {
                return false;
            };
            let each: Vec<&serde_json::Value> = match (&v, f.array) {
                (serde_json::Value::Array(items), true) => items.iter().collect(),
                (_, true) => return false,
                _ => vec![&v],
            };
            each.iter().all(|v| value_fits(f, v))
        })
}

fn value_fits(f: &Field, v: &serde_json::Value) -> bool {
    use serde_json::Value as V;
    let kind = match v {
        V::Null => return true,
        V::Bool(_) => JsonKind::Boolean,
        V::Number(n) if n.is_i64() || n.is_u64() => JsonKind::Integer,
        V::Number(_) => JsonKind::Number,
        V::String(_) => JsonKind::String,
        V::Array(_) => JsonKind::Array,
        V::Object(_) => JsonKind::Object,
    };
    let typed = matches!(
        (&f.ty, kind),
        (TypeRef::Any, _)
            | (
                TypeRef::String | TypeRef::ValueSet(_) | TypeRef::ErrorCode,
                JsonKind::String
            )
            | (TypeRef::Integer | TypeRef::Number, JsonKind::Integer)
            | (TypeRef::Number, JsonKind::Number)
            | (TypeRef::Boolean, JsonKind::Boolean)
            | (TypeRef::Record(_), JsonKind::Object)
    );
    let formatted = match (f.format, v) {
        (Some(format), V::String(text)) => format.holds_text(text),
        (Some(format), V::Number(n)) => n.as_i64().is_some_and(|n| format.holds_integer(n)),
        _ => true,
    };
    typed && formatted
}

/// The edit of a likely rename.
pub(super) fn item(cx: &Cx<'_>, rename: &Rename) -> Item {
    let Rename { record, old, new } = rename;
    let Some(r) = cx.api.records.iter().find(|r| &r.spec_name == record) else {
        return Item::Note(format!("`{record}` is not a record of the spec now"));
    };
    let Some((file, item)) = cx.field(record, old) else {
        return Item::Note(format!(
            "field `{old}` of `{record}` seems renamed `{new}`, but it is not found in the spec's files"
        ));
    };
    let Some(name) = value(item, "name") else {
        return Item::Note(format!(
            "field `{old}` of `{record}` has no `name` to rename"
        ));
    };
    let mut splices = vec![file.replace(name, &scalar(new))];
    let keys = renamed_keys(cx, r, old, new);
    let refs = references(cx, r, old, new);
    let mut brings = Vec::new();
    if !keys.is_empty() {
        brings.push(format!(
            "{} key{} of the sample records renamed",
            keys.len(),
            super::plural(keys.len())
        ));
    }
    if !refs.is_empty() {
        brings.push(format!(
            "{} reference{} to `{old}` in the samples and the endpoints' orders renamed",
            refs.len(),
            super::plural(refs.len())
        ));
    }
    splices.extend(keys);
    splices.extend(refs);
    Item::Edit(Edit {
        splices,
        brings,
        subjects: vec![format!("{record}.{old}"), format!("{record}.{new}")],
        ..Edit::new(
            format!(
                "field `{old}` of `{record}` is gone from every answer while `{new}`, of its type, appeared: likely renamed (the Rust field is renamed too)"
            ),
            vec![
                ChangeKind::FieldRemovedRequired,
                ChangeKind::FieldAddedRequired,
            ],
            format!(
                "{}: rename the field `{old}` (or, if the answers are wrong, tell the provider):",
                cx.line(file, item)
            ),
            vec![format!("name: {}", scalar(new))],
        )
    })
}

/// The splices renaming key `old` to `new` in every sample record of `r` (nested ones
/// included).
fn renamed_keys(cx: &Cx<'_>, r: &Record, old: &str, new: &str) -> Vec<Splice> {
    let mut out = Vec::new();
    for e in &cx.api.endpoints {
        let Some((file, samples)) = cx.samples(&e.id) else {
            continue;
        };
        let mut bodies: Vec<(&Node, mrds_spec::model::RecordId)> = Vec::new();
        for set in value(samples, "sets").map(items).unwrap_or_default() {
            for sample in value(set, "records").map(items).unwrap_or_default() {
                bodies.push((sample, e.returns));
            }
        }
        if let (Some(body), Some(b)) = (value(samples, "example_body"), &e.body) {
            bodies.push((body, b.record));
        }
        for (node, ty) in bodies {
            keys_in(cx, node, ty, (r.id, old), &mut |key| {
                out.push(file.rename_key(key, new));
            });
        }
    }
    out
}

/// Calls `found` with every key `old` of a `target` record in `node`, a value of record `ty`.
fn keys_in(
    cx: &Cx<'_>,
    node: &Node,
    ty: mrds_spec::model::RecordId,
    (target, old): (mrds_spec::model::RecordId, &str),
    found: &mut dyn FnMut(&Node),
) {
    let record = cx.api.record(ty);
    for (key, v) in entries(node) {
        let Some(name) = key.as_scalar() else {
            continue;
        };
        if ty == target && name == old {
            found(key);
        }
        let Some(f) = record.field_named(name) else {
            continue;
        };
        if let TypeRef::Record(inner) = f.ty {
            let each: Vec<&Node> = if f.array {
                items(v).iter().collect()
            } else {
                vec![v]
            };
            for n in each {
                keys_in(cx, n, inner, (target, old), found);
            }
        }
    }
}

/// The splices renaming the references to field `old` of `r` (as the returned record of an
/// endpoint): in its samples' `echo` keys, `filter` values, `range` and `order` fields, and in
/// the endpoint's documented `order`.
fn references(cx: &Cx<'_>, r: &Record, old: &str, new: &str) -> Vec<Splice> {
    let mut out = Vec::new();
    let is_old = |n: &Node| n.as_scalar() == Some(old);
    for e in cx.api.endpoints.iter().filter(|e| e.returns == r.id) {
        if let Some((file, samples)) = cx.samples(&e.id) {
            let mut nodes: Vec<&Node> = Vec::new();
            if let Some(echo) = value(samples, "echo") {
                nodes.extend(entries(echo).iter().map(|(k, _)| k).filter(|k| is_old(k)));
            }
            if let Some(filter) = value(samples, "filter") {
                nodes.extend(entries(filter).iter().map(|(_, v)| v).filter(|v| is_old(v)));
            }
            for section in ["range", "order"] {
                if let Some(map) = value(samples, section) {
                    nodes.extend(value(map, "field").filter(|v| is_old(v)));
                    if let Some(fields) = value(map, "fields") {
                        nodes.extend(entries(fields).iter().map(|(_, v)| v).filter(|v| is_old(v)));
                    }
                }
            }
            out.extend(nodes.into_iter().map(|n| file.replace(n, &scalar(new))));
        }
        if let Some((file, endpoint)) = cx.endpoint(&e.id)
            && let Some(order) = value(endpoint, "order")
            && let Some(field) = value(order, "field").filter(|v| is_old(v))
        {
            out.push(file.replace(field, &scalar(new)));
        }
    }
    out
}
