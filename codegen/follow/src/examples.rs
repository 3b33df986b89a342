//! Edits that keep the samples' meaning: after the edits, the example request of every served
//! endpoint that answered sample records before still answers some, as the sample server
//! selects them (the runtime's engine, `mrds_runtime::samples`, over the tables
//! `mrds_spec::model::samples` builds of the edited spec). An edit that leaves one answering
//! none (or 404) is named with the endpoint; when the cause is the range (the engine reads the
//! brought-along values as other instants: integers `YYYYMMDD` as Unix seconds of 1970), the
//! example's range is rewritten to span the instants the engine reads from the edited records,
//! within the endpoint's `max_span`, and checked against its rules; any other cause (a `when`
//! spelling, a filter) is to be written by hand.

use mrds_runtime::Format;
use mrds_runtime::samples::{self as engine, Samples};

use mrds_spec::model::samples::{example_answer, given, select, tables};
use mrds_spec::model::{
    Api, Endpoint, Operand, Param, ParamId, RecordId, Requirement, SampleField, StringType,
    TimeFormat, TypeRef, ValueType,
};

use super::bounds::with_param;
use super::cx::Cx;
use super::scalar;
use super::splice::{File, Splice};

/// An example request an edit left answering no records.
pub(crate) struct Lost {
    /// What the report says of it.
    pub(crate) text: String,
    /// Its rewriting, a splice of the edited text; `None`: to be written by hand.
    pub(crate) splice: Option<Splice>,
}

/// The examples of the served endpoints of `cx`'s spec that answered records and answer none
/// in `after`, the spec the edits make (its files `edited`); `applied`: the edits made, by
/// their number in the report, with their splices of `cx`'s files.
pub(crate) fn keep(
    cx: &Cx<'_>,
    after: &Api,
    edited: &[(String, String)],
    applied: &[(usize, Vec<Splice>)],
) -> Vec<Lost> {
    let mut files: Option<Vec<File>> = None;
    let mut out = Vec::new();
    for e in cx.api.endpoints.iter().filter(|e| e.removed.is_none()) {
        if !matches!(example_answer(cx.api, e), Some(Ok(r)) if !r.is_empty()) {
            continue;
        }
        let Some(now) = (after.endpoints.iter()).find(|n| n.id == e.id && n.removed.is_none())
        else {
            continue;
        };
        let what = match example_answer(after, now) {
            Some(Ok(r)) if r.is_empty() => "answering no records",
            Some(Err(_)) => "answering 404 (no sample set matching it)",
            _ => continue,
        };
        let Some(s) = &now.samples else {
            continue;
        };
        let by = match culprits(cx, e, applied).as_slice() {
            [] => "the edits".to_string(),
            [one] => format!("edit {one}"),
            [first @ .., last] => {
                let first: Vec<String> = first.iter().map(usize::to_string).collect();
                format!("edits {} and {last}", first.join(", "))
            }
        };
        let head = format!(
            "{by} leaves the example request of `{}` (`{}`) {what}",
            e.id, s.example
        );
        let files = files.get_or_insert_with(|| {
            (edited.iter())
                .map(|(name, text)| File::new(name, text))
                .collect()
        });
        let node = (files.iter()).find_map(|f| Some((f, f.at(&["samples", &e.id, "example"])?)));
        match (mend(after, now), node) {
            (Ok(mended), Some((file, node))) => out.push(Lost {
                text: format!(
                    "{head}: the sample server reads its records' `{}` as {}; the example's \
                     range is rewritten to span them: `{}`",
                    mended.field, mended.span, mended.example
                ),
                splice: Some(file.replace(node, &scalar(&mended.example))),
            }),
            (Ok(_), None) => out.push(Lost {
                text: format!("{head}, and its `example` is not found in the spec's files"),
                splice: None,
            }),
            (Err(why), _) => out.push(Lost {
                text: format!("{head}: {why}"),
                splice: None,
            }),
        }
    }
    out
}

/// The numbers of the edits in `applied` that change the samples of `e`, `e` itself, or a
/// record its answers hold.
fn culprits(cx: &Cx<'_>, e: &Endpoint, applied: &[(usize, Vec<Splice>)]) -> Vec<usize> {
    let mut places: Vec<(&File, &mrds_spec::yaml::Node)> = Vec::new();
    places.extend(cx.samples(&e.id));
    places.extend(cx.endpoint(&e.id));
    for r in records_of(cx.api, e.returns) {
        places.extend(cx.find(&["records", &cx.api.record(r).spec_name]));
    }
    let touches = |s: &Splice| {
        (places.iter()).any(|(f, n)| s.file == f.name && (f.start(n)..=f.end(n)).contains(&s.at))
    };
    (applied.iter())
        .filter(|(_, splices)| splices.iter().any(touches))
        .map(|(n, _)| *n)
        .collect()
}

/// `root` and the records its fields hold, nested ones included.
fn records_of(api: &Api, root: RecordId) -> Vec<RecordId> {
    let mut out = vec![root];
    let mut i = 0;
    while let Some(r) = out.get(i).copied() {
        for f in &api.record(r).fields {
            if let TypeRef::Record(inner) = f.ty
                && !out.contains(&inner)
            {
                out.push(inner);
            }
        }
        i += 1;
    }
    out
}

/// An example whose range was rewritten.
struct Mended {
    /// The new example request.
    example: String,
    /// The field the range compares.
    field: String,
    /// The instants read from it (`1970-08-23T12:11:56Z to 1970-08-23T12:12:00Z`).
    span: String,
}

/// The example of `e` (of `api`, the edited spec) with its range spanning the instants the
/// engine reads from the records its sets and filters keep, within `e`'s `max_span`; why not,
/// when the range is not the cause or cannot be written.
fn mend(api: &Api, e: &Endpoint) -> Result<Mended, String> {
    const BY_HAND: &str = "to be written by hand";
    let s = e.samples.as_ref().ok_or("it has no samples now")?;
    let Some(range) = &s.range else {
        return Err(format!(
            "its samples have no range, so a `when` spelling or a filter no longer matches: \
             {BY_HAND}"
        ));
    };
    let t = tables(api, e).ok_or("it has no samples now")?;
    let body = (s.example_body.as_deref()).and_then(|b| serde_json::from_str(b).ok());
    let given = given(api, e, &s.example_values, body.as_ref());
    let given: Vec<(&str, Option<String>)> = (given.iter())
        .map(|(n, v)| (n.as_str(), v.clone()))
        .collect();
    // What its sets, echo and filters keep, before the range, the order and the paging.
    let unranged = Samples {
        range: None,
        order: None,
        latest_without: &[],
        limit: None,
        offset: None,
        parsed: Default::default(),
        ..*t
    };
    let kept = engine::select(&unranged, &given).unwrap_or_default();
    if kept.is_empty() {
        return Err(format!(
            "no sample set or filter keeps a record for it (a `when` spelling or a filter \
             changed): {BY_HAND}"
        ));
    }
    let value = |p: ParamId| {
        let wire = e.param(p).wire.as_str();
        given.iter().find(|(n, _)| *n == wire)?.1.clone()
    };
    let record = api.returns(e);
    let field = match &range.field {
        SampleField::Fixed(f) => Some(record.field(*f).wire.as_str()),
        SampleField::By(p, fields) => {
            let chosen = value(*p);
            (fields.iter())
                .find(|(v, _)| Some(v) == chosen.as_ref())
                .map(|(_, f)| record.field(*f).wire.as_str())
        }
    }
    .ok_or_else(|| format!("the example chooses no field for its range: {BY_HAND}"))?;
    let instants: Vec<i64> = (kept.iter())
        .filter_map(|r| engine::instant(r.get(field)?))
        .collect();
    let (Some(&lo), Some(&hi)) = (instants.iter().min(), instants.iter().max()) else {
        return Err(format!(
            "the sample server reads no point in time from its records' `{field}`: {BY_HAND}"
        ));
    };
    let (from, to) = (range.from, range.to);
    let sent = |p: Option<ParamId>| p.filter(|p| s.example_values.iter().any(|(id, _)| id == p));
    if sent(from).is_none() && sent(to).is_none() {
        return Err(format!(
            "the example gives no end of its range, so a `when` spelling or a filter no longer \
             matches: {BY_HAND}"
        ));
    }
    // The latest records when a `max_span` rule bounds the range.
    let span = (e.rules.iter())
        .filter_map(|r| match &r.requirement {
            Requirement::MaxSpan {
                from: Operand::Param(f),
                to: Operand::Param(t),
                seconds,
            } if Some(*f) == from && Some(*t) == to => Some(*seconds),
            _ => None,
        })
        .min();
    let start = match span {
        Some(seconds) if hi.saturating_sub(lo) > seconds => hi.saturating_sub(seconds),
        // A range of one instant opens a day before it (a strict `ordered` rule).
        _ if lo == hi && sent(from).is_some() && sent(to).is_some() => lo.saturating_sub(86_400),
        _ => lo,
    };
    let mut example = s.example.clone();
    let mut values = s.example_values.clone();
    for (p, at, up) in [(sent(from), start, false), (sent(to), hi, true)] {
        let Some(p) = p else {
            continue;
        };
        let param = e.param(p);
        let format = time_format(param).ok_or_else(|| {
            format!(
                "its range parameter `{}` is not a point in time: {BY_HAND}",
                param.wire
            )
        })?;
        // The end rounded up to a day a date parameter can name.
        let at = match (up, format) {
            (true, Format::Text(mrds_runtime::TextFormat::Date)) => {
                at.saturating_add(86_399).div_euclid(86_400) * 86_400
            }
            _ => at,
        };
        let text = format
            .write_instant(at)
            .ok_or_else(|| format!("`{}` cannot be written: {BY_HAND}", param.wire))?;
        example = with_param(&example, &param.wire, |_| Some(text.clone())).unwrap_or(example);
        for v in values.iter_mut().filter(|(id, _)| *id == p) {
            v.1 = text.clone();
        }
    }
    let refused = e.problems(
        e.body.as_ref().map(|b| api.record(b.record)),
        &values,
        body.as_ref(),
    );
    if let Some(problem) = refused.first() {
        return Err(format!(
            "a range spanning its records is refused: `{}` {} (rule `{}`): {BY_HAND}",
            problem.param, problem.reason, problem.rule
        ));
    }
    match select(api, e, &values, body.as_ref()) {
        Some(Ok(records)) if !records.is_empty() => {}
        _ => {
            return Err(format!(
                "a range spanning its records answers none: {BY_HAND}"
            ));
        }
    }
    let write = |t: i64| Format::Text(mrds_runtime::TextFormat::Rfc3339).write_instant(t);
    let span = match (write(lo), write(hi)) {
        (Some(a), Some(_)) if lo == hi => a,
        (Some(a), Some(b)) => format!("{a} to {b}"),
        _ => format!("{lo} to {hi} (Unix seconds)"),
    };
    Ok(Mended {
        example,
        field: field.to_string(),
        span,
    })
}

/// How a range parameter writes a point in time: Unix seconds, RFC 3339 text or a date.
fn time_format(p: &Param) -> Option<Format> {
    match (p.time_format(), &p.ty) {
        (Some(TimeFormat::UnixSeconds), _) => Some(Format::UnixSeconds),
        (Some(TimeFormat::Rfc3339), _) => Some(Format::Text(mrds_runtime::TextFormat::Rfc3339)),
        (
            None,
            ValueType::String(StringType {
                format: Some(f), ..
            }),
        ) if f.info().time.is_some() => Some(Format::Text(*f)),
        _ => None,
    }
}
