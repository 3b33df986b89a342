//! What an edit brings along: the sample records and example requests it would break, changed
//! with it so the spec still loads (and the sample server still answers in the new shape).
//! A field's values in the samples of every endpoint whose records hold it (nested records
//! included) are converted (a number written as text) or replaced by values the service sent.

use mrds_runtime::Format;
use mrds_spec::model::{RecordId, TypeRef};
use mrds_spec::yaml::{Node, NodeKind};

use super::cx::Cx;
use super::formats::IntegerTime;
use super::splice::{File, Splice, entries, items, value};

/// How a sample value of a changed field is brought along.
pub(super) enum Convert<'e> {
    /// A number becomes the same number written as text (`228.4` → `"228.4"`).
    ToText,
    /// A value `keeps` refuses is replaced by one the service sent (JSON texts, in turn).
    Replace {
        keeps: &'e dyn Fn(&Node) -> bool,
        values: &'e [String],
    },
    /// A point in time written in format `from` becomes the same instant written in `to` (a
    /// date `2026-11-20` a timestamp `2026-11-20T00:00:00Z`): the samples keep their meaning,
    /// every range and order over them selecting what it selected.
    Instant { from: Format, to: Format },
    /// A point in time written in format `from` becomes the same point as an integer in the
    /// service's spelling `to` (a date `2026-11-20` the day `20261120`): the samples keep
    /// their order and their days. A value not in `from` is replaced by one the service sent.
    Integer {
        from: Format,
        to: IntegerTime,
        values: &'e [String],
    },
}

/// The splices bringing the sample values of `field` of `record` along; when they change any,
/// a line of `brings` says how many, and `how` (`written as text`).
pub(super) fn field_values(
    cx: &Cx<'_>,
    record: &str,
    field: &str,
    convert: &Convert<'_>,
    how: &str,
    brings: &mut Vec<String>,
) -> Vec<Splice> {
    let (splices, n) = changed_values(cx, record, field, convert);
    if n > 0 {
        brings.push(format!(
            "{n} sample value{} of `{field}` {how}",
            super::plural(n)
        ));
    }
    splices
}

/// The splices bringing the sample values of `field` of `record` along, and how many values
/// they change.
fn changed_values(
    cx: &Cx<'_>,
    record: &str,
    field: &str,
    convert: &Convert<'_>,
) -> (Vec<Splice>, usize) {
    let api = cx.api;
    let Some(target) = api.records.iter().find(|r| r.spec_name == record) else {
        return (Vec::new(), 0);
    };
    let mut found: Vec<(&File, &Node)> = Vec::new();
    for e in &api.endpoints {
        let Some((file, samples)) = cx.samples(&e.id) else {
            continue;
        };
        for set in value(samples, "sets").map(items).unwrap_or_default() {
            for sample in value(set, "records").map(items).unwrap_or_default() {
                let want = (target.id, field);
                values_in(cx, (file, sample), e.returns, want, &mut found);
            }
        }
    }
    let mut splices = Vec::new();
    let mut next = 0;
    for (file, node) in found {
        let text = match convert {
            Convert::ToText => match &node.kind {
                NodeKind::Scalar { text, plain: true }
                    if !node.is_null() && text.parse::<f64>().is_ok() =>
                {
                    Some(serde_json::Value::String(text.to_string()).to_string())
                }
                _ => None,
            },
            Convert::Instant { from, to } => match &node.kind {
                NodeKind::Scalar { text, .. } if !node.is_null() => (from.instant(text))
                    .and_then(|seconds| to.write_instant(seconds))
                    .filter(|written| written != &**text)
                    .map(|written| match to.of_integers() {
                        true => written,
                        false => serde_json::Value::String(written).to_string(),
                    }),
                _ => None,
            },
            Convert::Integer { from, to, values } => match &node.kind {
                NodeKind::Scalar { text, plain } if !node.is_null() => {
                    match from.instant(text).map(|seconds| to.write(seconds)) {
                        Some(n) => Some(n.to_string()),
                        None if *plain && text.parse::<i64>().is_ok() => None,
                        None => (!values.is_empty()).then(|| {
                            let v = values[next % values.len()].clone();
                            next += 1;
                            v
                        }),
                    }
                }
                _ => None,
            },
            Convert::Replace { keeps, values } => {
                (!node.is_null() && !keeps(node) && !values.is_empty()).then(|| {
                    let v = values[next % values.len()].clone();
                    next += 1;
                    v
                })
            }
        };
        if let Some(text) = text {
            splices.push(file.replace(node, &text));
        }
    }
    let n = splices.len();
    (splices, n)
}

/// The value nodes of `field` of `target` records (`want`) in the sample `node` of `file`, a
/// record of `ty` (followed into nested records and arrays of them).
fn values_in<'f>(
    cx: &Cx<'_>,
    (file, node): (&'f File, &'f Node),
    ty: RecordId,
    want: (RecordId, &str),
    out: &mut Vec<(&'f File, &'f Node)>,
) {
    let (target, field) = want;
    let record = cx.api.record(ty);
    for (key, v) in entries(node) {
        let Some(name) = key.as_scalar() else {
            continue;
        };
        let Some(f) = record.field_named(name) else {
            continue;
        };
        let each: Vec<&Node> = if f.array {
            items(v).iter().collect()
        } else {
            vec![v]
        };
        if ty == target && name == field {
            out.extend(each.into_iter().map(|n| (file, n)));
        } else if let TypeRef::Record(inner) = f.ty {
            for n in each {
                values_in(cx, (file, n), inner, want, out);
            }
        }
    }
}
