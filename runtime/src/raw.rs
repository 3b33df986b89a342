//! The parameters of a request as received, and how one value is read from them.

use std::fmt;

use crate::param_value::{ListStyle, ParamValue};
use crate::text::percent_decode;
use crate::validate::{Issues, ValidationIssue};

/// The rule ids of one parameter's own checks on reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamRules {
    /// Missing although required.
    pub required: &'static str,
    /// Given more than once.
    pub repeated: &'static str,
    /// Not of its type (a letter in an integer, an integer past i64).
    pub ty: &'static str,
    /// Not one of its value set.
    pub values: &'static str,
}

/// The [`ParamRules`] of parameter `$param` of endpoint `$endpoint`, as a `&'static`
/// reference: `param_rules!("stock_dividends", "limit")` names `stock_dividends.limit.required`
/// and its siblings.
#[macro_export]
macro_rules! param_rules {
    ($endpoint:literal, $param:literal) => {
        &$crate::ParamRules {
            required: concat!($endpoint, ".", $param, ".required"),
            repeated: concat!($endpoint, ".", $param, ".repeated"),
            ty: concat!($endpoint, ".", $param, ".type"),
            values: concat!($endpoint, ".", $param, ".values"),
        }
    };
}

/// The parameters of one request as received: query pairs (percent-decoded) and path
/// segments. Parameter types read it with `from_raw`; unknown names are ignored.
///
/// All names and values live in one buffer (two allocations per request, whatever the
/// number of parameters).
#[derive(Clone, Default)]
pub struct RawParams {
    text: String,
    query: Vec<(Span, Span)>,
    path: Vec<(Span, Span)>,
    /// Path parameters whose segment is not UTF-8 once decoded: their value (in `path`) is
    /// the segment as it came, and reading them is a type issue.
    undecodable: Vec<Span>,
}

/// Where a name or value stands in [`RawParams`]'s buffer.
type Span = (usize, usize);

impl RawParams {
    /// Parses a raw query string (without `?`): `&`-separated `name=value` pairs,
    /// `+` as space, percent-decoded (invalid escapes are kept as text).
    pub fn from_query_string(query: &str) -> Self {
        let bytes = query.as_bytes();
        if memchr::memchr2(b'%', b'+', bytes).is_some() {
            return Self::from_escaped_query(query);
        }
        // Most queries carry no escape: the query is copied once and each name and value is
        // a span of it.
        let mut raw = Self {
            text: query.to_string(),
            query: Vec::with_capacity(8),
            path: Vec::new(),
            undecodable: Vec::new(),
        };
        let mut from = 0;
        for to in memchr::memchr_iter(b'&', bytes).chain([bytes.len()]) {
            if to > from {
                raw.query
                    .push(match memchr::memchr(b'=', &bytes[from..to]) {
                        Some(eq) => ((from, from + eq), (from + eq + 1, to)),
                        None => ((from, to), (to, to)),
                    });
            }
            from = to + 1;
        }
        raw
    }

    /// [`from_query_string`](Self::from_query_string) for a query with escapes: each name and
    /// value is decoded into the buffer.
    fn from_escaped_query(query: &str) -> Self {
        let mut raw = Self {
            text: String::with_capacity(query.len()),
            query: Vec::with_capacity(8),
            path: Vec::new(),
            undecodable: Vec::new(),
        };
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let name = raw.push_decoded(name);
            let value = raw.push_decoded(value);
            raw.query.push((name, value));
        }
        raw
    }

    /// Query pairs already decoded.
    pub fn from_pairs<N: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (N, V)>,
    ) -> Self {
        let mut raw = Self::default();
        for (name, value) in pairs {
            let name = raw.push(name.as_ref());
            let value = raw.push(value.as_ref());
            raw.query.push((name, value));
        }
        raw
    }

    /// Adds a path parameter (already percent-decoded).
    pub fn with_path(mut self, name: impl AsRef<str>, value: impl AsRef<str>) -> Self {
        let name = self.push(name.as_ref());
        let value = self.push(value.as_ref());
        self.path.push((name, value));
        self
    }

    /// Adds a path parameter as the request's path carries it, percent-encoded: decoded here
    /// (`+` stays `+`); a segment that is not UTF-8 once decoded is refused by the parameter's
    /// type check when it is read.
    pub fn with_encoded_path(mut self, name: impl AsRef<str>, segment: impl AsRef<str>) -> Self {
        let segment = segment.as_ref();
        match crate::text::decode_segment(segment) {
            Some(decoded) => self.with_path(name, decoded),
            None => {
                let name = self.push(name.as_ref());
                let value = self.push(segment);
                self.path.push((name, value));
                self.undecodable.push(name);
                self
            }
        }
    }

    /// True when the request carries the parameter (valid or not), in the query or the path.
    pub fn has(&self, name: &str) -> bool {
        self.query
            .iter()
            .chain(&self.path)
            .any(|(n, _)| self.at(*n) == name)
    }

    /// The query pairs, in the order received.
    pub fn query_pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.query.iter().map(|(n, v)| (self.at(*n), self.at(*v)))
    }

    /// The path parameters.
    pub fn path_pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.path.iter().map(|(n, v)| (self.at(*n), self.at(*v)))
    }

    fn at(&self, (from, to): Span) -> &str {
        &self.text[from..to]
    }

    fn push(&mut self, text: &str) -> Span {
        let from = self.text.len();
        self.text.push_str(text);
        (from, self.text.len())
    }

    fn push_decoded(&mut self, text: &str) -> Span {
        // Most names and values carry no escape: copied as they are.
        if !text.bytes().any(|b| b == b'%' || b == b'+') {
            return self.push(text);
        }
        let decoded = percent_decode(text);
        self.push(&decoded)
    }

    fn one(
        &self,
        list: &[(Span, Span)],
        name: &'static str,
        rule: &'static str,
        issues: &mut Issues,
    ) -> Option<&str> {
        // Names compared as bytes, length first: most names differ in length.
        let text = self.text.as_bytes();
        let (mut first, mut more) = (None, 0);
        for &((from, to), value) in list {
            if to - from == name.len() && &text[from..to] == name.as_bytes() {
                match first {
                    None => first = Some(value),
                    Some(_) => more += 1,
                }
            }
        }
        let first = self.at(first?);
        if more > 0 {
            issues.push(ValidationIssue::new(
                rule,
                name,
                first,
                format!("is given {} times; give it once", more + 1),
            ));
            return None;
        }
        Some(first)
    }

    fn read<T: ParamValue>(
        text: Option<&str>,
        name: &'static str,
        rules: &ParamRules,
        issues: &mut Issues,
    ) -> Option<T> {
        match T::parse_param(text?) {
            Ok(v) => Some(v),
            Err((suffix, reason)) => {
                let rule = match suffix {
                    "values" => rules.values,
                    _ => rules.ty,
                };
                issues.push(ValidationIssue::new(rule, name, text.unwrap_or(""), reason));
                None
            }
        }
    }

    /// A query parameter that may be absent. `None` when absent or invalid (then an issue
    /// is recorded).
    pub fn optional<T: ParamValue>(
        &self,
        name: &'static str,
        rules: &ParamRules,
        issues: &mut Issues,
    ) -> Option<T> {
        let text = self.one(&self.query, name, rules.repeated, issues);
        Self::read(text, name, rules, issues)
    }

    /// A query parameter that must be given.
    pub fn required<T: ParamValue>(
        &self,
        name: &'static str,
        rules: &ParamRules,
        issues: &mut Issues,
    ) -> Option<T> {
        self.must(&self.query, name, rules, issues)
    }

    /// A list query parameter, its items in the form `style` says: comma-separated in one
    /// parameter (given twice, it is refused as repeated; empty, it is no item), or the
    /// parameter once per item. No item when absent; `None` when an item is not of the type
    /// (each such item recorded, named by its index: `fields[2]`) or the list is refused
    /// whole. Whether a list needs items, and how many, is the business of its checks.
    pub fn list<T: ParamValue>(
        &self,
        name: &'static str,
        rules: &ParamRules,
        style: ListStyle,
        issues: &mut Issues,
    ) -> Option<Vec<T>> {
        let texts: Vec<&str> = match style {
            ListStyle::Comma => {
                let before = issues.as_slice().len();
                match self.one(&self.query, name, rules.repeated, issues) {
                    Some("") => Vec::new(),
                    Some(text) => text.split(',').collect(),
                    None if issues.as_slice().len() > before => return None,
                    None => Vec::new(),
                }
            }
            ListStyle::Repeated => self
                .query
                .iter()
                .filter(|(n, _)| self.at(*n) == name)
                .map(|(_, v)| self.at(*v))
                .collect(),
        };
        let mut items = Vec::with_capacity(texts.len());
        let mut readable = true;
        for (i, text) in texts.into_iter().enumerate() {
            match T::parse_param(text) {
                Ok(v) => items.push(v),
                Err((suffix, reason)) => {
                    readable = false;
                    let rule = if suffix == "values" {
                        rules.values
                    } else {
                        rules.ty
                    };
                    issues.push(ValidationIssue::new(
                        rule,
                        format!("{name}[{i}]"),
                        text,
                        reason,
                    ));
                }
            }
        }
        readable.then_some(items)
    }

    /// A path parameter (always required).
    pub fn path<T: ParamValue>(
        &self,
        name: &'static str,
        rules: &ParamRules,
        issues: &mut Issues,
    ) -> Option<T> {
        self.must(&self.path, name, rules, issues)
    }

    fn must<T: ParamValue>(
        &self,
        list: &[(Span, Span)],
        name: &'static str,
        rules: &ParamRules,
        issues: &mut Issues,
    ) -> Option<T> {
        let before = issues.as_slice().len();
        let text = self.one(list, name, rules.repeated, issues);
        if text.is_some() && self.undecodable.iter().any(|n| self.at(*n) == name) {
            issues.push(ValidationIssue::new(
                rules.ty,
                name,
                text.unwrap_or_default(),
                "is not UTF-8 text once percent-decoded",
            ));
            return None;
        }
        if text.is_none() && issues.as_slice().len() == before {
            issues.push(ValidationIssue::new(
                rules.required,
                name,
                "",
                "is required",
            ));
        }
        Self::read(text, name, rules, issues)
    }
}

impl fmt::Debug for RawParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RawParams")
            .field("query", &self.query_pairs().collect::<Vec<_>>())
            .field("path", &self.path_pairs().collect::<Vec<_>>())
            .finish()
    }
}

impl PartialEq for RawParams {
    fn eq(&self, other: &Self) -> bool {
        self.query_pairs().eq(other.query_pairs()) && self.path_pairs().eq(other.path_pairs())
    }
}

impl Eq for RawParams {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_missing_and_mistyped() {
        let rules = crate::param_rules!("e", "p");
        assert_eq!(rules.required, "e.p.required");
        let raw = RawParams::from_query_string("p=1&p=2&q=x");
        let mut issues = Issues::new();
        assert_eq!(raw.required::<i64>("p", rules, &mut issues), None);
        assert_eq!(issues.as_slice()[0].rule, "e.p.repeated");
        assert_eq!(
            issues.as_slice()[0].reason,
            "is given 2 times; give it once"
        );
        let mut issues = Issues::new();
        assert_eq!(raw.required::<i64>("z", rules, &mut issues), None);
        assert_eq!(issues.as_slice()[0].rule, "e.p.required");
        let mut issues = Issues::new();
        assert_eq!(raw.optional::<i64>("z", rules, &mut issues), None);
        assert!(issues.is_empty());
        let raw = RawParams::from_query_string("p=99999999999999999999&b=yes");
        let mut issues = Issues::new();
        assert_eq!(raw.optional::<i64>("p", rules, &mut issues), None);
        assert_eq!(raw.optional::<bool>("b", rules, &mut issues), None);
        assert_eq!(issues.as_slice()[0].rule, "e.p.type");
        assert_eq!(issues.as_slice()[1].got, "yes");
    }

    #[test]
    fn queries_with_and_without_escapes_split_alike() {
        for (plain, escaped) in [
            ("a=1&b=2", "a=1&b=%32"),
            ("&&a=1&&", "&&a=%31&&"),
            ("a&b=&=c&d==e", "a&b=&=c&d==%65"),
            ("x", "%78"),
            ("", ""),
        ] {
            let pairs = |q| {
                RawParams::from_query_string(q)
                    .query_pairs()
                    .map(|(n, v)| (n.to_string(), v.to_string()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(pairs(plain), pairs(escaped));
        }
        assert_eq!(
            RawParams::from_query_string("a&b=&=c&d==e")
                .query_pairs()
                .collect::<Vec<_>>(),
            vec![("a", ""), ("b", ""), ("", "c"), ("d", "=e")]
        );
    }

    #[test]
    fn decoding_and_paths() {
        let raw = RawParams::from_query_string("a=x+y&b=%2B1&&c&d=%zz").with_path("id", "7");
        assert_eq!(
            raw.query_pairs().collect::<Vec<_>>(),
            vec![("a", "x y"), ("b", "+1"), ("c", ""), ("d", "%zz")]
        );
        assert!(raw.has("id") && raw.has("c") && !raw.has("e"));
        let mut issues = Issues::new();
        let rules = crate::param_rules!("e", "id");
        assert_eq!(raw.path::<i64>("id", rules, &mut issues), Some(7));
        assert_eq!(
            RawParams::from_pairs([("a", "x y")]),
            RawParams::from_query_string("a=x%20y")
        );
    }

    #[test]
    fn lists_in_each_style() {
        let rules = crate::param_rules!("e", "n");
        let read = |query: &str, style| {
            let mut issues = Issues::new();
            let items =
                RawParams::from_query_string(query).list::<i64>("n", rules, style, &mut issues);
            let named: Vec<(String, String)> = (issues.as_slice().iter())
                .map(|i| (i.field.to_string(), i.rule.to_string()))
                .collect();
            (items, named)
        };
        assert_eq!(
            read("n=1,2,3", ListStyle::Comma),
            (Some(vec![1, 2, 3]), vec![])
        );
        assert_eq!(read("n=", ListStyle::Comma), (Some(vec![]), vec![]));
        assert_eq!(read("x=1", ListStyle::Comma), (Some(vec![]), vec![]));
        assert_eq!(
            read("n=1,x,3,", ListStyle::Comma),
            (
                None,
                vec![
                    ("n[1]".into(), "e.n.type".into()),
                    ("n[3]".into(), "e.n.type".into())
                ]
            )
        );
        assert_eq!(
            read("n=1&n=2", ListStyle::Comma),
            (None, vec![("n".into(), "e.n.repeated".into())])
        );
        assert_eq!(
            read("n=1&x=0&n=2", ListStyle::Repeated),
            (Some(vec![1, 2]), vec![])
        );
        assert_eq!(read("n=1,2", ListStyle::Repeated).1[0].0, "n[0]");
        assert_eq!(read("", ListStyle::Repeated), (Some(vec![]), vec![]));
        for style in ListStyle::ALL {
            let pairs = style.pairs("n", &[1i64, 2]);
            let query: Vec<String> = pairs.iter().map(|(n, v)| format!("{n}={v}")).collect();
            assert_eq!(
                read(&query.join("&"), style).0,
                Some(vec![1, 2]),
                "{style:?}"
            );
            assert!(style.pairs::<i64>("n", &[]).is_empty());
        }
    }

    #[test]
    fn encoded_path_segments() {
        let rules = crate::param_rules!("e", "id");
        let raw = RawParams::default().with_encoded_path("id", "a%20b+c");
        let mut issues = Issues::new();
        assert_eq!(
            raw.path::<String>("id", rules, &mut issues).as_deref(),
            Some("a b+c")
        );
        let raw = RawParams::default().with_encoded_path("id", "%ff");
        assert_eq!(raw.path::<String>("id", rules, &mut issues), None);
        let issue = &issues.as_slice()[0];
        assert_eq!((issue.rule, issue.got.as_str()), ("e.id.type", "%ff"));
        assert!(issue.reason.contains("UTF-8"), "{}", issue.reason);
    }
}
