//! The sample data's selection engine (feature `samples`): how a request selects from an
//! endpoint's sample records: the sets it matches, then echo, filters, range, order, "latest
//! only", offset and limit, as the spec's `samples:` and the endpoint's `paging:` declare.
//!
//! Pure: tables in, records out, no server. The sample server (`mock`, feature `mock`) answers
//! with it; a tool with no generated crate builds the same tables from a spec's model and asks
//! it what an example request answers.

use std::cmp::Ordering;
use std::fmt;
use std::sync::OnceLock;

use serde_json::Value;

use crate::text::instant_seconds;

/// The sample data of one endpoint and its selection rules.
pub struct Samples {
    /// Answer 404 (not an empty array) when no set matches.
    pub not_found_when_missing: bool,
    /// Of these parameters only the first one given selects sets.
    pub first_of: &'static [&'static str],
    /// Parameters matched as a case-insensitive part of a spelling.
    pub contains: &'static [&'static str],
    /// (record field, input): the field echoes the caller's spelling of a parameter, or the
    /// value of a body field (`body.<field>`), with the kind of value the field held.
    pub echo: &'static [(&'static str, &'static str)],
    /// (input, record field): equality filters.
    pub filter: &'static [(&'static str, &'static str)],
    /// The range filter.
    pub range: Option<Range>,
    /// The order.
    pub order: Option<Order>,
    /// Only the first record when none of these is given.
    pub latest_without: &'static [&'static str],
    /// The limit parameter.
    pub limit: Option<&'static str>,
    /// The offset parameter.
    pub offset: Option<&'static str>,
    /// The sets.
    pub sets: &'static [Set],
    /// The sets' records, parsed once.
    pub parsed: OnceLock<Vec<Vec<Value>>>,
}

/// One sample set.
pub struct Set {
    /// (input, spellings): a given parameter or body field must be one of them.
    pub when: &'static [(&'static str, &'static [&'static str])],
    /// The records, as JSON array text.
    pub records: &'static str,
}

/// A record field, fixed or chosen by a parameter's value.
pub enum FieldChoice {
    /// Always this field.
    Fixed(&'static str),
    /// (parameter, [(value, field)]).
    By(&'static str, &'static [(&'static str, &'static str)]),
}

/// A range filter over instants (inclusive at both ends).
pub struct Range {
    /// Parameter of the earliest instant.
    pub from: Option<&'static str>,
    /// Parameter of the latest instant.
    pub to: Option<&'static str>,
    /// The field compared.
    pub field: FieldChoice,
}

/// An order.
pub struct Order {
    /// The field ordered by.
    pub field: FieldChoice,
    /// Descending unless `by` says `asc`.
    pub descending: bool,
    /// Parameter with `asc`/`desc`.
    pub by: Option<&'static str>,
}

/// The inputs of a request by name (a parameter's wire name, `body.<field>` for a field of the
/// body), `None` when not given.
pub type Given<'a> = [(&'a str, Option<String>)];

/// No sample set matches a request of an endpoint that answers 404 then (rather than no
/// records): what the sample server answers with `RESOURCE_NOT_FOUND`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoSampleSet {
    /// What was asked that nothing matches (`symbol=ZZZZ`).
    pub message: String,
}

impl fmt::Display for NoSampleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for NoSampleSet {}

fn value_of<'a>(given: &'a Given<'_>, name: &str) -> Option<&'a str> {
    given
        .iter()
        .find(|(n, _)| *n == name)
        .and_then(|(_, v)| v.as_deref())
}

/// The records answering `given`, as JSON values; [`NoSampleSet`] when no set matches and the
/// endpoint answers 404 then.
pub fn select(samples: &Samples, given: &Given<'_>) -> Result<Vec<Value>, NoSampleSet> {
    let parsed = samples.parsed.get_or_init(|| {
        samples
            .sets
            .iter()
            .map(|set| serde_json::from_str(set.records).unwrap_or_default())
            .collect()
    });
    // Of `first_of`, only the first parameter given takes part in matching.
    let chosen = samples
        .first_of
        .iter()
        .find(|p| value_of(given, p).is_some());
    let considered = |param: &str| !samples.first_of.contains(&param) || chosen == Some(&param);

    let mut records: Vec<Value> = Vec::new();
    let mut matched = false;
    for (set, parsed) in samples.sets.iter().zip(parsed) {
        let fits = set
            .when
            .iter()
            .all(|(param, spellings)| match value_of(given, param) {
                Some(value) if considered(param) => spellings
                    .iter()
                    .any(|s| spelling_matches(samples, param, s, value)),
                _ => true,
            });
        if fits {
            matched = true;
            records.extend(parsed.iter().cloned());
        }
    }
    if !matched && samples.not_found_when_missing {
        let asked: Vec<String> = given
            .iter()
            .filter(|(p, v)| {
                v.is_some()
                    && samples
                        .sets
                        .iter()
                        .any(|s| s.when.iter().any(|(w, _)| w == p))
            })
            .map(|(p, v)| format!("{p}={}", v.as_deref().unwrap_or_default()))
            .collect();
        return Err(NoSampleSet {
            message: format!("nothing matches {}", asked.join(", ")),
        });
    }

    for (field, input) in samples.echo {
        if let Some(value) = value_of(given, input) {
            for record in records.iter_mut().filter_map(Value::as_object_mut) {
                let echoed = typed_like(record.get(*field), value);
                record.insert(field.to_string(), echoed);
            }
        }
    }
    for (param, field) in samples.filter {
        if let Some(value) = value_of(given, param) {
            records.retain(|r| r.get(field).map(text).as_deref() == Some(value));
        }
    }
    if let Some(range) = &samples.range {
        let from = range
            .from
            .and_then(|p| value_of(given, p))
            .and_then(instant_seconds);
        let to = range
            .to
            .and_then(|p| value_of(given, p))
            .and_then(instant_seconds);
        if (from.is_some() || to.is_some())
            && let Some(field) = choose(&range.field, given)
        {
            records.retain(|r| match r.get(field).and_then(instant) {
                Some(t) => from.is_none_or(|f| t >= f) && to.is_none_or(|e| t <= e),
                None => false,
            });
        }
    }
    if let Some(order) = &samples.order
        && let Some(field) = choose(&order.field, given)
    {
        let descending = match order.by.and_then(|p| value_of(given, p)) {
            Some(direction) => direction == "desc",
            None => order.descending,
        };
        records.sort_by(|a, b| {
            let ordering = compare(a.get(field), b.get(field));
            if descending {
                ordering.reverse()
            } else {
                ordering
            }
        });
    }
    if !samples.latest_without.is_empty()
        && samples
            .latest_without
            .iter()
            .all(|p| value_of(given, p).is_none())
    {
        records.truncate(1);
    }
    let number = |param: Option<&str>| {
        param
            .and_then(|p| value_of(given, p))
            .and_then(|v| v.parse::<usize>().ok())
    };
    if let Some(offset) = number(samples.offset) {
        records = records.into_iter().skip(offset).collect();
    }
    if let Some(limit) = number(samples.limit) {
        records.truncate(limit);
    }
    Ok(records)
}

fn spelling_matches(samples: &Samples, param: &str, spelling: &str, value: &str) -> bool {
    if samples.contains.contains(&param) {
        !value.is_empty() && spelling.to_lowercase().contains(&value.to_lowercase())
    } else {
        spelling == value
    }
}

fn choose(field: &FieldChoice, given: &Given<'_>) -> Option<&'static str> {
    match field {
        FieldChoice::Fixed(f) => Some(f),
        FieldChoice::By(param, fields) => {
            let value = value_of(given, param)?;
            fields.iter().find(|(v, _)| *v == value).map(|(_, f)| *f)
        }
    }
}

/// `text` as a JSON value of the kind `like` is (a number, a boolean), else as text: what a
/// record field echoing an input holds.
fn typed_like(like: Option<&Value>, text: &str) -> Value {
    let parsed = match like {
        Some(Value::Number(_)) => text.parse::<serde_json::Number>().ok().map(Value::Number),
        Some(Value::Bool(_)) => text.parse::<bool>().ok().map(Value::Bool),
        _ => None,
    };
    parsed.unwrap_or_else(|| Value::String(text.to_owned()))
}

fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Unix seconds of a record value, as the range filter and the order read it: a number, or
/// text that is one, a date, a date and time, or an RFC 3339 timestamp; `None` for another
/// value.
pub fn instant(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().map(|f| f.floor() as i64)),
        Value::String(s) => instant_seconds(s),
        _ => None,
    }
}

fn compare(a: Option<&Value>, b: Option<&Value>) -> Ordering {
    match (a.and_then(instant), b.and_then(instant)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => a.map(text).cmp(&b.map(text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records chosen by a body field and echoing body fields, as the samples of a `POST`
    /// declare them: `when: { body.symbol: [...] }`, `echo: { handle: body.handle, ... }`.
    static BY_BODY: Samples = Samples {
        not_found_when_missing: false,
        first_of: &[],
        contains: &[],
        echo: &[
            ("handle", "body.handle"),
            ("label", "body.label"),
            ("shares", "body.shares"),
        ],
        filter: &[],
        range: None,
        order: None,
        latest_without: &[],
        limit: None,
        offset: None,
        sets: &[
            Set {
                when: &[("body.symbol", &["AAPL"])],
                records: r#"[{"symbol":"AAPL","handle":"tim","shares":1}]"#,
            },
            Set {
                when: &[("body.symbol", &["MSFT"])],
                records: r#"[{"symbol":"MSFT","handle":"satya","shares":1}]"#,
            },
        ],
        parsed: OnceLock::new(),
    };

    /// Daily records under a range, newest first, only the latest without a range, paged.
    static DAILY: Samples = Samples {
        not_found_when_missing: true,
        first_of: &[],
        contains: &[],
        echo: &[],
        filter: &[],
        range: Some(Range {
            from: Some("start_time"),
            to: Some("end_time"),
            field: FieldChoice::Fixed("date"),
        }),
        order: Some(Order {
            field: FieldChoice::Fixed("date"),
            descending: true,
            by: None,
        }),
        latest_without: &["start_time", "end_time"],
        limit: Some("limit"),
        offset: Some("offset"),
        sets: &[
            Set {
                when: &[("symbol", &["SPY"])],
                records: r#"[{"date":"2026-11-16"},{"date":"2026-11-18"},{"date":"2026-11-17"}]"#,
            },
            Set {
                when: &[("symbol", &["QQQ"])],
                records: r#"[{"date":20261116},{"date":20261117}]"#,
            },
        ],
        parsed: OnceLock::new(),
    };

    #[test]
    fn a_range_compares_instants_and_the_order_and_paging_follow() {
        let given = |symbol: &str, range: Option<(&str, &str)>, page: Option<(&str, &str)>| {
            vec![
                ("symbol", Some(symbol.to_owned())),
                ("start_time", range.map(|r| r.0.to_owned())),
                ("end_time", range.map(|r| r.1.to_owned())),
                ("limit", page.map(|p| p.0.to_owned())),
                ("offset", page.map(|p| p.1.to_owned())),
            ]
        };
        let dates = |records: Vec<Value>| -> Vec<Value> {
            records.into_iter().map(|r| r["date"].clone()).collect()
        };
        // 2026-11-17 and 2026-11-18 (Unix seconds, and RFC 3339 text), newest first.
        let range = Some(("1794873600", "2026-11-18T00:00:00Z"));
        let got = dates(select(&DAILY, &given("SPY", range, None)).unwrap());
        assert_eq!(got, ["2026-11-18", "2026-11-17"]);
        let got = dates(select(&DAILY, &given("SPY", range, Some(("1", "1")))).unwrap());
        assert_eq!(got, ["2026-11-17"]);
        // Without a range, only the latest.
        let got = dates(select(&DAILY, &given("SPY", None, None)).unwrap());
        assert_eq!(got, ["2026-11-18"]);
        // An integer is Unix seconds: 20261116 is in August 1970, outside a range of 2026, and
        // inside one around it.
        assert_eq!(instant(&serde_json::json!(20261116)), Some(20_261_116));
        assert!(
            select(&DAILY, &given("QQQ", range, None))
                .unwrap()
                .is_empty()
        );
        let got =
            dates(select(&DAILY, &given("QQQ", Some(("20261116", "20261117")), None)).unwrap());
        assert_eq!(
            got,
            [serde_json::json!(20261117), serde_json::json!(20261116)]
        );
        // No set matching: a 404's message.
        let err = select(&DAILY, &given("ZZZ", range, None)).unwrap_err();
        assert_eq!(err.to_string(), "nothing matches symbol=ZZZ");
    }

    #[test]
    fn a_body_selects_sets_and_its_fields_are_echoed_as_the_fields_hold_them() {
        let given = |symbol: &str, label: Option<&str>| -> Vec<(&'static str, Option<String>)> {
            vec![
                ("body.symbol", Some(symbol.to_owned())),
                ("body.handle", Some("someone".to_owned())),
                ("body.label", label.map(str::to_owned)),
                ("body.shares", Some("250".to_owned())),
            ]
        };
        let records = select(&BY_BODY, &given("MSFT", Some("CEO"))).unwrap();
        assert_eq!(
            records,
            [serde_json::json!({
                "symbol": "MSFT", "handle": "someone", "label": "CEO", "shares": 250
            })]
        );
        // A field the body leaves out is not echoed; another body selects another set.
        let records = select(&BY_BODY, &given("AAPL", None)).unwrap();
        assert_eq!(
            records,
            [serde_json::json!({ "symbol": "AAPL", "handle": "someone", "shares": 250 })]
        );
    }
}
