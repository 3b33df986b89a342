//! [`Traffic`]: what the requests and answers of an undocumented endpoint showed, sketched as
//! they pass (bounded, whatever the service answers): the query and path parameters' values,
//! the records' fields with their kinds, how often each was present or `null`, their distinct
//! texts (a few) and the formats every text fits; a few records and requests as they came.
//! `cargo xtask drift` drafts the endpoint's spec from it. A proxy keeps one per path template
//! ([`template`]); sketches of one endpoint merge.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::evidence::Extent;
use super::json::{JsonKind, REQUEST_EXAMPLE_LIMIT, cut};
use crate::Format;
use crate::text::percent_decode;

/// The most distinct texts one value keeps; more are only flagged (`many`).
pub const MAX_DISTINCT: usize = 16;

/// The most characters of a text kept as a distinct value; a longer one only flags `many`.
const MAX_TEXT: usize = 64;

/// The most fields of one object sketched; later new names are left out.
const MAX_FIELDS: usize = 64;

/// How deep objects and arrays are sketched.
const MAX_DEPTH: usize = 4;

/// The most records kept as they came (samples of the draft), and the longest one's JSON text.
const MAX_SAMPLES: usize = 4;
const SAMPLE_LIMIT: usize = 2000;

/// The most requests and paths kept as they came.
const MAX_REQUESTS: usize = 8;

/// The most query parameters sketched.
const MAX_PARAMS: usize = 32;

/// What the values of one place (a field, a parameter, the records) showed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Values {
    /// How many values of each JSON kind (`null` included); a parameter's text is read as the
    /// kind it spells (`12` an integer, `true` a boolean).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub kinds: BTreeMap<JsonKind, u64>,
    /// The distinct texts, up to 16 of at most 64 characters.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub texts: BTreeSet<String>,
    /// More distinct texts (or longer ones) came than are kept.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub many: bool,
    /// The formats (spec spellings) every text fits; `None` before the first text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formats: Option<BTreeSet<String>>,
    /// The least and most integer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub integers: Option<Extent>,
    /// Of objects: their fields (a field absent from some objects has fewer values than its
    /// parent has objects).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fields: BTreeMap<String, Values>,
    /// Of arrays: their elements.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<Values>>,
}

impl Values {
    /// How many values of `kind`.
    pub fn count(&self, kind: JsonKind) -> u64 {
        self.kinds.get(&kind).copied().unwrap_or(0)
    }

    /// How many values, `null` included.
    pub fn total(&self) -> u64 {
        self.kinds.values().sum()
    }

    /// Takes a JSON value in.
    pub fn observe(&mut self, value: &serde_json::Value) {
        self.observe_at(value, 0);
    }

    fn observe_at(&mut self, value: &serde_json::Value, depth: usize) {
        use serde_json::Value as V;
        let kind = match value {
            V::Null => JsonKind::Null,
            V::Bool(_) => JsonKind::Boolean,
            V::Number(n) => match n.as_i64() {
                Some(i) => {
                    self.integer(i);
                    JsonKind::Integer
                }
                None if n.is_u64() => JsonKind::Integer,
                None => JsonKind::Number,
            },
            V::String(s) => {
                self.text(s);
                JsonKind::String
            }
            V::Array(items) => {
                if depth < MAX_DEPTH {
                    let inner = self.items.get_or_insert_with(Box::default);
                    for item in items {
                        inner.observe_at(item, depth + 1);
                    }
                }
                JsonKind::Array
            }
            V::Object(members) => {
                if depth < MAX_DEPTH {
                    for (name, member) in members {
                        if !self.fields.contains_key(name) && self.fields.len() >= MAX_FIELDS {
                            continue;
                        }
                        let field = self.fields.entry(name.clone()).or_default();
                        field.observe_at(member, depth + 1);
                    }
                }
                JsonKind::Object
            }
        };
        *self.kinds.entry(kind).or_default() += 1;
    }

    /// Takes a parameter's text in, as the kind it spells.
    pub fn observe_text(&mut self, text: &str) {
        let kind = if let Ok(i) = text.parse::<i64>() {
            self.integer(i);
            JsonKind::Integer
        } else if text == "true" || text == "false" {
            JsonKind::Boolean
        } else if !text.is_empty() && text.parse::<f64>().is_ok_and(f64::is_finite) {
            JsonKind::Number
        } else {
            JsonKind::String
        };
        self.text(text);
        *self.kinds.entry(kind).or_default() += 1;
    }

    fn integer(&mut self, i: i64) {
        match &mut self.integers {
            Some(extent) => extent.merge(Extent::of(i)),
            None => self.integers = Some(Extent::of(i)),
        }
    }

    fn text(&mut self, text: &str) {
        let fitting = self.formats.get_or_insert_with(|| {
            Format::all()
                .filter(|f| !f.of_integers())
                .map(|f| f.name().to_string())
                .collect()
        });
        fitting.retain(|name| Format::named(name).is_some_and(|f| f.holds_text(text)));
        if self.texts.contains(text) {
            return;
        }
        if text.chars().count() > MAX_TEXT || self.texts.len() >= MAX_DISTINCT {
            self.many = true;
        } else {
            self.texts.insert(text.to_string());
        }
    }

    /// Adds what `other` showed.
    pub fn merge(&mut self, other: &Values) {
        self.merge_at(other, 0);
    }

    fn merge_at(&mut self, other: &Values, depth: usize) {
        for (kind, n) in &other.kinds {
            *self.kinds.entry(*kind).or_default() += n;
        }
        for text in &other.texts {
            if self.texts.len() >= MAX_DISTINCT && !self.texts.contains(text) {
                self.many = true;
            } else {
                self.texts.insert(text.clone());
            }
        }
        self.many |= other.many;
        match (&mut self.formats, &other.formats) {
            (Some(ours), Some(theirs)) => ours.retain(|f| theirs.contains(f)),
            (None, Some(theirs)) => self.formats = Some(theirs.clone()),
            _ => {}
        }
        if let Some(theirs) = other.integers {
            match &mut self.integers {
                Some(ours) => ours.merge(theirs),
                None => self.integers = Some(theirs),
            }
        }
        if depth >= MAX_DEPTH {
            return;
        }
        for (name, theirs) in &other.fields {
            if let Some(ours) = self.fields.get_mut(name) {
                ours.merge_at(theirs, depth + 1);
            } else if self.fields.len() < MAX_FIELDS {
                self.fields.insert(name.clone(), theirs.clone());
            }
        }
        if let Some(theirs) = &other.items {
            self.items
                .get_or_insert_with(Box::default)
                .merge_at(theirs, depth + 1);
        }
    }
}

/// What the requests of one undocumented path template and their answers showed (see the
/// module).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Traffic {
    /// Answers by status.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub statuses: BTreeMap<u16, u64>,
    /// Answers with a 2xx status whose body was an envelope holding records: what the facts
    /// of a draft are inferred from.
    #[serde(default)]
    pub answers: u64,
    /// Of those, answers to requests that sent no key.
    #[serde(default)]
    pub keyless: u64,
    /// Of those, answers whose `data` was one object rather than an array.
    #[serde(default)]
    pub single: u64,
    /// The query parameters of the requests with such answers, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub query: BTreeMap<String, Values>,
    /// The values of the template's path parameters, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub path: BTreeMap<String, Values>,
    /// The records of `data`.
    #[serde(default)]
    pub records: Values,
    /// A few records as they came (JSON text).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples: Vec<String>,
    /// A few requests with such answers as they came (path below the base path, and query;
    /// without the caller's key).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests: Vec<String>,
}

impl Traffic {
    /// Takes one exchange in: a request of `path` (below the base path, fitting the template
    /// whose path parameters are `params`) with `query`, answered (`status`, `body`);
    /// `keyed` when the request sent a key. The caller leaves the key out of `path`, `query`
    /// and `body` first.
    pub fn observe(
        &mut self,
        params: &[(String, String)],
        path: &str,
        query: &str,
        (status, body): (u16, &[u8]),
        keyed: bool,
    ) {
        *self.statuses.entry(status).or_default() += 1;
        if !(200..300).contains(&status) {
            return;
        }
        let Ok(envelope) = serde_json::from_slice::<serde_json::Value>(body) else {
            return;
        };
        let data = match envelope.get("data") {
            Some(data @ (serde_json::Value::Array(_) | serde_json::Value::Object(_))) => data,
            _ => return,
        };
        self.answers += 1;
        self.keyless += u64::from(!keyed);
        let records: &[serde_json::Value] = match data {
            serde_json::Value::Array(records) => records,
            one => {
                self.single += 1;
                std::slice::from_ref(one)
            }
        };
        for record in records {
            self.records.observe(record);
            if self.samples.len() < MAX_SAMPLES && record.is_object() {
                let text = record.to_string();
                if text.len() <= SAMPLE_LIMIT && !self.samples.contains(&text) {
                    self.samples.push(text);
                }
            }
        }
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let name = percent_decode(name);
            if !self.query.contains_key(&name) && self.query.len() >= MAX_PARAMS {
                continue;
            }
            self.query
                .entry(name)
                .or_default()
                .observe_text(&percent_decode(value));
        }
        for (name, value) in params {
            (self.path.entry(name.clone()).or_default()).observe_text(&percent_decode(value));
        }
        let request = if query.is_empty() {
            path.to_string()
        } else {
            format!("{path}?{query}")
        };
        let request = cut(request, REQUEST_EXAMPLE_LIMIT);
        if self.requests.len() < MAX_REQUESTS && !self.requests.contains(&request) {
            self.requests.push(request);
        }
    }

    /// Adds what `other` showed.
    pub fn merge(&mut self, other: &Traffic) {
        for (status, n) in &other.statuses {
            *self.statuses.entry(*status).or_default() += n;
        }
        self.answers += other.answers;
        self.keyless += other.keyless;
        self.single += other.single;
        for (name, values) in &other.query {
            if let Some(ours) = self.query.get_mut(name) {
                ours.merge(values);
            } else if self.query.len() < MAX_PARAMS {
                self.query.insert(name.clone(), values.clone());
            }
        }
        for (name, values) in &other.path {
            self.path.entry(name.clone()).or_default().merge(values);
        }
        self.records.merge(&other.records);
        for sample in &other.samples {
            if self.samples.len() < MAX_SAMPLES && !self.samples.contains(sample) {
                self.samples.push(sample.clone());
            }
        }
        for request in &other.requests {
            if self.requests.len() < MAX_REQUESTS && !self.requests.contains(request) {
                self.requests.push(request.clone());
            }
        }
    }
}

/// The path template of a concrete path below the base path, and its path parameters with
/// the segments that fill them: a segment that is identifier-like (it holds a digit, other
/// than a version segment `v1`; it is written in capitals, as a ticker `AAPL` or `BRK.B`;
/// it holds a percent-escape, a space or `@`) becomes a parameter named after the literal
/// segment before it (`/v1/stocks/AAPL/profile` is `/v1/stocks/{stock_id}/profile`).
pub fn template(path: &str) -> (String, Vec<(String, String)>) {
    let mut out = String::new();
    let mut params: Vec<(String, String)> = Vec::new();
    let mut previous = "";
    for (i, segment) in path.split('/').enumerate() {
        if i == 0 {
            continue;
        }
        out.push('/');
        if identifier_like(segment) && i > 1 {
            let name = param_name(previous, &params);
            out.push_str(&format!("{{{name}}}"));
            params.push((name, segment.to_string()));
        } else {
            out.push_str(segment);
            previous = segment;
        }
    }
    (out, params)
}

/// Whether a path segment names a thing rather than a resource (see [`template`]).
pub fn identifier_like(segment: &str) -> bool {
    let version = segment.len() >= 2
        && segment.starts_with('v')
        && segment[1..].bytes().all(|b| b.is_ascii_digit());
    if segment.is_empty() || version {
        return false;
    }
    let digit = segment.bytes().any(|b| b.is_ascii_digit());
    let capitals = segment.bytes().filter(u8::is_ascii_uppercase).count() >= 2
        && !segment.bytes().any(|b| b.is_ascii_lowercase());
    digit || capitals || segment.contains(['%', '@', ' ', '+', ':'])
}

/// The name of a path parameter after the literal segment `previous` (`stocks`: `stock_id`),
/// unique among `taken`.
pub fn param_name(previous: &str, taken: &[(String, String)]) -> String {
    let base: String = previous
        .trim_end_matches('s')
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let base = base.trim_matches('_');
    let base = if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) {
        "id".to_string()
    } else {
        format!("{base}_id")
    };
    let mut name = base.clone();
    let mut n = 2;
    while taken.iter().any(|(t, _)| *t == name) {
        name = format!("{base}{n}");
        n += 1;
    }
    name
}

/// The endpoint id a draft of `method` `template` takes: its literal segments after the
/// version, `-` made `_` (`/v1/stocks/{stock_id}/profile`: `stocks_profile`), and the method
/// for any but `GET` (`post_orders`).
pub fn draft_id(method: &str, template: &str) -> String {
    let literal: Vec<String> = template
        .split('/')
        .filter(|s| !s.is_empty() && !s.starts_with('{'))
        .filter(|s| {
            !(s.starts_with('v') && s[1..].bytes().all(|b| b.is_ascii_digit()) && s.len() > 1)
        })
        .map(crate::text::name_part)
        .collect();
    let mut id = literal.join("_");
    if id.is_empty() || id.starts_with(|c: char| c.is_ascii_digit()) {
        id = format!("endpoint_{id}");
    }
    if !method.eq_ignore_ascii_case("GET") {
        id = format!("{}_{id}", method.to_ascii_lowercase());
    }
    id.trim_end_matches('_').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifier_like_segments_become_parameters() {
        let (t, params) = template("/v1/stocks/AAPL/profile");
        assert_eq!(t, "/v1/stocks/{stock_id}/profile");
        assert_eq!(params, [("stock_id".to_string(), "AAPL".to_string())]);
        assert_eq!(
            template("/v1/persons/p-17/commentary").0,
            "/v1/persons/{person_id}/commentary"
        );
        assert_eq!(template("/v1/persons/elon_musk").0, "/v1/persons/elon_musk");
        assert_eq!(template("/v1/a/12/34").0, "/v1/a/{a_id}/{a_id2}");
        assert_eq!(template("/v2/etf/flow").0, "/v2/etf/flow");
        assert_eq!(template("/v1/x/BRK.B").0, "/v1/x/{x_id}");
        assert_eq!(
            draft_id("GET", "/v1/stocks/{stock_id}/market-metrics"),
            "stocks_market_metrics"
        );
        assert_eq!(draft_id("POST", "/v1/orders"), "post_orders");
        assert_eq!(draft_id("GET", "/v1/{a_id}"), "endpoint");
    }

    #[test]
    fn answers_are_sketched_within_bounds() {
        let mut traffic = Traffic::default();
        for i in 0..40 {
            let kind = ["a", "b"][i % 2];
            let body = serde_json::json!({"success": true, "data": [
                {"symbol": "AAPL", "kind": kind, "price": 1.5, "count": i,
                 "day": "2026-11-16", "note": if i % 3 == 0 { serde_json::Value::Null } else { serde_json::json!(format!("n{i}")) }},
                {"symbol": "AAPL", "kind": "a", "price": 2, "count": 1, "day": "2026-11-17"}
            ]});
            traffic.observe(
                &[("stock_id".into(), "AAPL".into())],
                "/v1/s/AAPL",
                &format!("limit={i}&from=2026-11-01"),
                (200, body.to_string().as_bytes()),
                true,
            );
        }
        traffic.observe(&[], "/v1/s/AAPL", "limit=x", (400, b"{}"), true);
        assert_eq!(traffic.answers, 40);
        assert_eq!(traffic.statuses[&400], 1);
        let records = &traffic.records;
        assert_eq!(records.count(JsonKind::Object), 80);
        let kind = &records.fields["kind"];
        assert_eq!(kind.texts.iter().collect::<Vec<_>>(), ["a", "b"]);
        assert!(!kind.many);
        let note = &records.fields["note"];
        assert_eq!(note.count(JsonKind::Null), 14);
        assert_eq!(
            note.total(),
            40,
            "absent from the second record of each answer"
        );
        assert!(note.many);
        assert_eq!(records.fields["price"].count(JsonKind::Number), 40);
        assert_eq!(records.fields["price"].count(JsonKind::Integer), 40);
        let day = records.fields["day"].formats.as_ref().unwrap();
        assert!(day.contains("date") && !day.contains("timestamp"));
        assert_eq!(
            traffic.query["limit"].integers,
            Some(Extent { min: 0, max: 39 })
        );
        assert!(
            traffic.query["from"]
                .formats
                .as_ref()
                .unwrap()
                .contains("date")
        );
        assert_eq!(traffic.samples.len(), MAX_SAMPLES);
        assert_eq!(traffic.requests.len(), MAX_REQUESTS);
        let mut merged = traffic.clone();
        merged.merge(&traffic);
        assert_eq!(merged.answers, 80);
        assert_eq!(merged.records.fields["kind"].texts.len(), 2);
        let text = serde_json::to_string(&traffic).unwrap();
        assert_eq!(serde_json::from_str::<Traffic>(&text).unwrap(), traffic);
    }
}
