//! The values of rule edits, from what the traffic showed: the bound a limit takes (the
//! service's reason, the most accepted, the least refused), durations, the points in time of
//! parameters and sample records, and the example request brought along a new bound.

use mrds_runtime::drift::Extent;
use mrds_runtime::text::{instant_seconds, percent_decode};

use mrds_spec::model::{Endpoint, IntegerFormat, ParamId, StringType, ValueType};

use super::cx::Cx;
use super::plural;
use super::scalar;
use super::splice::{Splice, value};

/// The extent of the integers among `values`.
pub(super) fn extent_of(values: &[String]) -> Option<Extent> {
    let mut out: Option<Extent> = None;
    for v in values.iter().filter_map(|v| v.parse::<i64>().ok()) {
        match &mut out {
            Some(e) => e.merge(Extent::of(v)),
            None => out = Some(Extent::of(v)),
        }
    }
    out
}

pub(super) fn extent_text(e: Extent) -> String {
    if e.min == e.max {
        e.min.to_string()
    } else {
        format!("{} to {}", e.min, e.max)
    }
}

/// `14 days`, `3 h`, `90 s`.
pub(super) fn duration(seconds: i64) -> String {
    if seconds % 86_400 == 0 {
        let days = seconds / 86_400;
        format!("{days} day{}", plural(days as usize))
    } else if seconds % 3600 == 0 {
        format!("{} h", seconds / 3600)
    } else {
        format!("{seconds} s")
    }
}

/// The numbers a reason names, each in seconds when a unit of time follows it (`14 days`:
/// 1209600), else as written.
pub(super) fn reason_numbers(reason: &str) -> Vec<(i64, bool)> {
    let words: Vec<&str> = reason
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let Ok(n) = w.parse::<i64>() else {
            continue;
        };
        let unit = words.get(i + 1).map(|u| u.to_ascii_lowercase());
        let seconds = match unit.as_deref() {
            Some("day" | "days" | "d") => Some(86_400),
            Some("week" | "weeks" | "w") => Some(7 * 86_400),
            Some("hour" | "hours" | "h") => Some(3600),
            Some("minute" | "minutes" | "min") => Some(60),
            Some("second" | "seconds" | "s") => Some(1),
            _ => None,
        };
        match seconds {
            Some(s) => out.push((n.saturating_mul(s), true)),
            None => out.push((n, false)),
        }
    }
    out
}

/// The bound a new or tightened upper limit takes: what the service's reason names when it
/// lies between the most accepted and the least refused, else one `unit` below the least
/// refused (the spec then refuses only what the service was seen to refuse).
pub(super) fn upper_bound(
    accepted: Option<Extent>,
    refused: Extent,
    reason: Option<&str>,
    unit: i64,
    time: bool,
) -> i64 {
    let lo = accepted.map_or(i64::MIN, |a| a.max);
    let hi = refused.min;
    let named = reason
        .map(reason_numbers)
        .unwrap_or_default()
        .into_iter()
        .filter(|(_, t)| *t == time)
        .map(|(n, _)| n)
        .find(|n| *n >= lo && *n < hi);
    named.unwrap_or_else(|| (hi - unit).max(lo))
}

/// The input `op` of `e`'s parameters, when it is a point in time, and whether it is a date.
pub(super) fn time_param(e: &Endpoint, name: &str) -> Option<(ParamId, bool)> {
    let p = e.param_named(name)?;
    match &p.ty {
        ValueType::Integer(t) if t.format == Some(IntegerFormat::UnixSeconds) => {
            Some((p.id, false))
        }
        ValueType::String(StringType {
            format: Some(f), ..
        }) => match f {
            mrds_runtime::TextFormat::Rfc3339 => Some((p.id, false)),
            mrds_runtime::TextFormat::Date => Some((p.id, true)),
            _ => None,
        },
        _ => None,
    }
}

/// The unit of a span bound: a day for dates and for spans of whole days, else a second.
pub(super) fn span_unit(date: bool, refused: Extent) -> i64 {
    if date || refused.min % 86_400 == 0 {
        86_400
    } else {
        1
    }
}

/// `example` with the value of `name` changed by `change` (the values it returns `Some` for).
pub(super) fn with_param(
    example: &str,
    name: &str,
    change: impl Fn(&str) -> Option<String>,
) -> Option<String> {
    let (path, query) = example.split_once('?')?;
    let mut changed = false;
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((n, v)) if percent_decode(n) == name => match change(&percent_decode(v)) {
                Some(new) => {
                    changed = true;
                    format!("{n}={new}")
                }
                None => pair.to_string(),
            },
            _ => pair.to_string(),
        })
        .collect();
    changed.then(|| format!("{path}?{}", pairs.join("&")))
}

/// Brings the example request of `e` along a span bound of `seconds` on `key` (`from..to`):
/// when its range is longer, one end moves so the range spans `seconds`, keeping the end
/// whose window holds more of the sample records.
pub(super) fn span_example(
    cx: &Cx<'_>,
    e: &Endpoint,
    key: &str,
    seconds: i64,
    splices: &mut Vec<Splice>,
    brings: &mut Vec<String>,
) {
    let Some((from, to)) = key.split_once("..") else {
        return;
    };
    let (Some((_, from_date)), Some((_, to_date))) = (time_param(e, from), time_param(e, to))
    else {
        return;
    };
    let Some((file, samples)) = cx.samples(&e.id) else {
        return;
    };
    let Some(example) = value(samples, "example") else {
        return;
    };
    let Some(text) = example.as_scalar() else {
        return;
    };
    let values = |name: &str| {
        let query = text.split_once('?')?.1;
        query.split('&').find_map(|pair| {
            let (n, v) = pair.split_once('=')?;
            (percent_decode(n) == name).then(|| percent_decode(v))
        })
    };
    let (Some(a), Some(b)) = (values(from), values(to)) else {
        return;
    };
    let (Some(start), Some(end)) = (instant_seconds(&a), instant_seconds(&b)) else {
        return;
    };
    if end - start <= seconds {
        return;
    }
    // The window at either end of the range holding more sample records (the later one on a
    // tie): the example is to be answered with records.
    let held = |lo: i64, hi: i64| {
        sample_times(cx, e)
            .iter()
            .filter(|t| (lo..=hi).contains(*t))
            .count()
    };
    let keep_end = held(end - seconds, end) >= held(start, start + seconds);
    let fixed = if keep_end {
        with_param(text, from, |_| Some(spell(end - seconds, &a, from_date)))
    } else {
        with_param(text, to, |_| Some(spell(start + seconds, &b, to_date)))
    };
    if let Some(fixed) = fixed {
        splices.push(file.replace(example, &scalar(&fixed)));
        brings.push(format!(
            "the example request of `{}`, its range shortened to {}",
            e.id,
            duration(seconds)
        ));
    }
}

/// The instants of the sample records of `e`'s range field, when its samples filter by a
/// range.
pub(super) fn sample_times(cx: &Cx<'_>, e: &Endpoint) -> Vec<i64> {
    let Some(samples) = &e.samples else {
        return Vec::new();
    };
    let Some(range) = &samples.range else {
        return Vec::new();
    };
    let record = cx.api.record(e.returns);
    let fields: Vec<&str> = match &range.field {
        mrds_spec::model::SampleField::Fixed(f) => vec![record.field(*f).wire.as_str()],
        mrds_spec::model::SampleField::By(_, fields) => fields
            .iter()
            .map(|(_, f)| record.field(*f).wire.as_str())
            .collect(),
    };
    let mut out = Vec::new();
    for set in &samples.sets {
        let Ok(records) = serde_json::from_str::<Vec<serde_json::Value>>(&set.records_json) else {
            continue;
        };
        for r in &records {
            for f in &fields {
                let t = match &r[*f] {
                    serde_json::Value::String(s) => instant_seconds(s),
                    serde_json::Value::Number(n) => n.as_i64(),
                    _ => None,
                };
                out.extend(t);
            }
        }
    }
    out
}

/// An instant written as `like` is (Unix seconds, a date, or an RFC 3339 timestamp).
pub(super) fn spell(seconds: i64, like: &str, date: bool) -> String {
    if like.parse::<i64>().is_ok() {
        return seconds.to_string();
    }
    let days = seconds.div_euclid(86_400);
    let (y, m, d) = mrds_runtime::text::civil_from_days(days);
    if date || like.len() == 10 {
        return format!("{y:04}-{m:02}-{d:02}");
    }
    let s = seconds.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_take_the_reason_when_it_fits_the_evidence() {
        let refused = Extent {
            min: 15 * 86_400,
            max: 29 * 86_400,
        };
        let accepted = Some(Extent::of(3600));
        let reason = Some("the range must span at most 14 days");
        assert_eq!(
            upper_bound(accepted, refused, reason, 86_400, true),
            14 * 86_400
        );
        assert_eq!(
            upper_bound(accepted, refused, None, 86_400, true),
            14 * 86_400
        );
        assert_eq!(
            upper_bound(accepted, refused, Some("at most 40 days"), 86_400, true),
            14 * 86_400
        );
        assert_eq!(
            upper_bound(
                None,
                Extent::of(101),
                Some("limit must be at most 100"),
                1,
                false
            ),
            100
        );
        assert_eq!(
            reason_numbers("at most 2 hours or 100 rows"),
            [(7200, true), (100, false)]
        );
    }

    #[test]
    fn instants_are_spelt_as_the_example_spells_them() {
        assert_eq!(mrds_runtime::text::civil_from_days(0), (1970, 1, 1));
        assert_eq!(mrds_runtime::text::civil_from_days(20_773), (2026, 11, 16));
        assert_eq!(spell(1_795_996_800, "1793491200", false), "1795996800");
        assert_eq!(spell(20_773 * 86_400, "2026-11-01", true), "2026-11-16");
        assert_eq!(
            spell(20_773 * 86_400 + 3661, "2026-11-01T00:00:00Z", false),
            "2026-11-16T01:01:01Z"
        );
        assert_eq!(
            with_param("/v1/x?a=1&b=5", "b", |v| (v == "5").then(|| "3".into())),
            Some("/v1/x?a=1&b=3".into())
        );
    }
}
