//! [`Evidence`]: what the traffic showed of the values a finding is about, beyond its
//! examples: the extent of each parameter's values and of the spans between time parameters,
//! for the requests the service accepted and for those it refused; the most records an
//! answer held; an error code's status. What a spec edit needs to be complete (the bound a
//! rule takes, a code's status) where the examples only show a few requests.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::text::{instant_seconds, percent_decode};

/// The most parameters of one request whose values are kept (and spans between them).
const MAX_VALUES: usize = 16;

/// The least and the most of some values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Extent {
    /// The least.
    pub min: i64,
    /// The most.
    pub max: i64,
}

impl Extent {
    /// The extent of one value.
    pub fn of(value: i64) -> Self {
        Self {
            min: value,
            max: value,
        }
    }

    /// Widened to take `other` in.
    pub fn merge(&mut self, other: Extent) {
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }
}

/// What the traffic showed of the values a finding is about (see the module). Of the rule
/// kinds: `accepted` and `refused` hold, by parameter (its wire name), the extent of the
/// values sent (an integer as itself; a date or an RFC 3339 timestamp as Unix seconds), and
/// by pair of time parameters (`start_time..end_time`, the second later than the first in the
/// request) the extent of the spans between them, in seconds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    /// Of the requests the service accepted (answered 2xx).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub accepted: BTreeMap<String, Extent>,
    /// Of the requests the service refused.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub refused: BTreeMap<String, Extent>,
    /// The most records one answer to such a request held: a service that caps a limit
    /// parameter is told from one that honours it by this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returned: Option<u64>,
    /// The status of the answers that carried it (an error code's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
}

impl Evidence {
    /// Nothing shown.
    pub fn is_empty(&self) -> bool {
        self.accepted.is_empty()
            && self.refused.is_empty()
            && self.returned.is_none()
            && self.status.is_none()
    }

    /// Adds what `other` showed.
    pub fn merge(&mut self, other: &Evidence) {
        merge_values(&mut self.accepted, &other.accepted);
        merge_values(&mut self.refused, &other.refused);
        self.returned = self.returned.max(other.returned);
        self.status = self.status.or(other.status);
    }

    /// Evidence of one request the service accepted, whose query is `query`, answered with
    /// `returned` records (when its body held them).
    pub fn accepted(query: &str, returned: Option<u64>) -> Self {
        Self {
            accepted: query_values(query).into_iter().collect(),
            returned,
            ..Self::default()
        }
    }

    /// Evidence of one request the service refused, whose query is `query`.
    pub fn refused(query: &str) -> Self {
        Self {
            refused: query_values(query).into_iter().collect(),
            ..Self::default()
        }
    }
}

/// Widens each extent of `into` by those of `from`, adding the keys it lacks.
pub(crate) fn merge_values(into: &mut BTreeMap<String, Extent>, from: &BTreeMap<String, Extent>) {
    for (key, extent) in from {
        into.entry(key.clone())
            .and_modify(|e| e.merge(*extent))
            .or_insert(*extent);
    }
}

/// The numbers of a query string: each parameter whose value is an integer, a date or an RFC
/// 3339 timestamp (a time: as Unix seconds) by its name, and for each two parameters holding
/// times of the Unix-seconds era (an integer of 10 digits, a date, a timestamp) the span from
/// the earlier to the later, by `earlier..later`. A repeated parameter gives the extent of its
/// values. At most 16 parameters are read.
pub fn query_values(query: &str) -> BTreeMap<String, Extent> {
    let mut values = BTreeMap::new();
    add_query_values(&mut values, query);
    values
}

/// Widens `values` by the numbers of `query` (see [`query_values`]), in place: what a proxy
/// does for every request the service accepts, so it allocates only the names of numbers.
pub(crate) fn add_query_values(values: &mut BTreeMap<String, Extent>, query: &str) {
    let mut times: Vec<(Cow<'_, str>, i64)> = Vec::new();
    let mut read = 0;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let Some((number, time)) = number_of(&decoded(value)) else {
            continue;
        };
        read += 1;
        if read > MAX_VALUES {
            break;
        }
        let name = decoded(name);
        if time && !times.iter().any(|(n, _)| *n == name) {
            times.push((name.clone(), number));
        }
        widen(values, &name, number);
    }
    for (i, (a, at)) in times.iter().enumerate() {
        for (b, bt) in &times[i + 1..] {
            let (key, span) = match at.cmp(bt) {
                std::cmp::Ordering::Less => (format!("{a}..{b}"), bt - at),
                std::cmp::Ordering::Greater => (format!("{b}..{a}"), at - bt),
                std::cmp::Ordering::Equal => continue,
            };
            widen(values, &key, span);
        }
    }
}

/// `values[key]` widened to take `value` in.
fn widen(values: &mut BTreeMap<String, Extent>, key: &str, value: i64) {
    match values.get_mut(key) {
        Some(extent) => extent.merge(Extent::of(value)),
        None => {
            values.insert(key.to_string(), Extent::of(value));
        }
    }
}

/// A query component percent-decoded, borrowed when it has nothing to decode.
fn decoded(text: &str) -> Cow<'_, str> {
    if text.contains(['%', '+']) {
        Cow::Owned(percent_decode(text))
    } else {
        Cow::Borrowed(text)
    }
}

/// A value as a number, and whether it is a time: an integer (a time when it has the ten
/// digits of a Unix-seconds instant of 2001 to 2286), a date or an RFC 3339 timestamp.
fn number_of(value: &str) -> Option<(i64, bool)> {
    if let Ok(n) = value.parse::<i64>() {
        return Some((n, (1_000_000_000..10_000_000_000).contains(&n)));
    }
    instant_seconds(value).map(|t| (t, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_gives_its_numbers_times_and_spans() {
        let values = query_values(
            "symbol=AAPL&start_time=2026-11-01&end_time=2026-11-16&limit=20000&limit=5&from=1700000000&to=1700003600&at=2026-11-01T00%3A00%3A00Z",
        );
        assert_eq!(values["limit"], Extent { min: 5, max: 20000 });
        assert_eq!(values["start_time..end_time"], Extent::of(15 * 86_400));
        assert_eq!(values["from..to"], Extent::of(3600));
        assert_eq!(values["at"], Extent::of(values["start_time"].min));
        assert!(!values.contains_key("symbol"));
        assert!(
            !values.contains_key("at..start_time"),
            "equal times make no span"
        );
        assert!(values.contains_key("start_time..from") || values.contains_key("from..start_time"));
    }

    #[test]
    fn evidence_merges_by_widening() {
        let mut a = Evidence::accepted("limit=10", Some(10));
        a.merge(&Evidence::accepted("limit=30", Some(20)));
        a.merge(&Evidence::refused("limit=99"));
        assert_eq!(a.accepted["limit"], Extent { min: 10, max: 30 });
        assert_eq!(a.refused["limit"], Extent::of(99));
        assert_eq!(a.returned, Some(20));
        let text = serde_json::to_string(&a).unwrap();
        assert_eq!(
            text,
            r#"{"accepted":{"limit":{"min":10,"max":30}},"refused":{"limit":{"min":99,"max":99}},"returned":20}"#
        );
        assert_eq!(serde_json::from_str::<Evidence>(&text).unwrap(), a);
    }
}
