//! Requests derived from the resolved model, each with the answer the spec predicts.
//!
//! Starting from each endpoint's sample request (its `samples.example`), every parameter is
//! probed where its own rules put a boundary: missing and repeated, not of its type, at and
//! beyond its bounds, each value of its value set and one outside it, a value breaking its
//! pattern or format. A new parameter or bound in the spec yields new cases without any
//! hand-written test; the tests and the contract suite run them against a server.

use mrds_runtime::text::percent_encode;

use crate::model::*;

/// One request and what the spec says the answer is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// A stable id: `<endpoint>.<parameter>.<probe>` (`stock_dividends.limit.above_max`), or
    /// `<endpoint>.example` for the sample request itself.
    pub id: String,
    /// The endpoint id.
    pub endpoint: String,
    /// The path below the base path, path parameters percent-encoded.
    pub path: String,
    /// The query pairs, decoded, in order (a pair may repeat).
    pub query: Vec<(String, String)>,
    /// The answer the spec predicts.
    pub expect: Expect,
}

impl Case {
    /// The request target below the base path: path and percent-encoded query.
    pub fn target(&self) -> String {
        let query: Vec<String> = self
            .query
            .iter()
            .map(|(n, v)| format!("{}={}", percent_encode(n), percent_encode(v)))
            .collect();
        if query.is_empty() {
            self.path.clone()
        } else {
            format!("{}?{}", self.path, query.join("&"))
        }
    }
}

/// The answer a case expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// 200 with records.
    Success,
    /// No issue of `param`'s own rules: 200, or 400 naming only rules across parameters
    /// (changing one value may bring another rule into play).
    Accepted {
        /// The parameter probed (wire name).
        param: String,
    },
    /// 400 `INVALID_PARAMETER` with an issue naming `field` and rule `rule`.
    Rejected {
        /// The parameter at fault (wire name).
        field: String,
        /// The rule id the issue names.
        rule: String,
    },
}

/// Every case of every endpoint that has a sample request, sorted by endpoint as the model is.
pub fn derive(api: &Api) -> Vec<Case> {
    api.endpoints.iter().flat_map(endpoint_cases).collect()
}

/// The cases of one endpoint (none when it has no sample request).
pub fn endpoint_cases(e: &Endpoint) -> Vec<Case> {
    let Some(samples) = &e.samples else {
        return Vec::new();
    };
    let base = Request::of(e, &samples.example_values);
    let mut out = vec![base.case(e, "example".into(), Expect::Success)];
    for p in &e.params {
        for (probe, request, expect) in param_probes(e, p, &base) {
            out.push(request.case(e, format!("{}.{probe}", p.wire), expect));
        }
    }
    out
}

/// A request under construction: path parameter values and query pairs.
#[derive(Clone)]
struct Request {
    path: Vec<(String, String)>,
    query: Vec<(String, String)>,
}

impl Request {
    fn of(e: &Endpoint, values: &[(String, String)]) -> Self {
        let is_path = |name: &str| e.path.params().any(|p| p == name);
        let (path, query) = values.iter().cloned().partition(|(n, _)| is_path(n));
        Self { path, query }
    }

    /// The value the request gives `name`, if it gives one.
    fn value(&self, name: &str) -> Option<&str> {
        self.path
            .iter()
            .chain(&self.query)
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// This request with `name` set to `values` (none: left out; several: repeated).
    fn with(&self, name: &str, values: &[&str]) -> Self {
        let mut next = self.clone();
        if let Some(slot) = next.path.iter_mut().find(|(n, _)| n == name) {
            slot.1 = values.first().copied().unwrap_or_default().to_string();
            return next;
        }
        let at = next.query.iter().position(|(n, _)| n == name);
        next.query.retain(|(n, _)| n != name);
        let at = at.unwrap_or(next.query.len()).min(next.query.len());
        for (i, v) in values.iter().enumerate() {
            next.query.insert(at + i, (name.to_string(), v.to_string()));
        }
        next
    }

    fn case(&self, e: &Endpoint, probe: String, expect: Expect) -> Case {
        let mut path = String::new();
        for s in &e.path.segments {
            path.push('/');
            match s {
                Segment::Literal(l) => path.push_str(l),
                Segment::Param(name) => {
                    path.push_str(&percent_encode(self.value(name).unwrap_or_default()))
                }
            }
        }
        Case {
            id: format!("{}.{probe}", e.id),
            endpoint: e.id.clone(),
            path,
            query: self.query.clone(),
            expect,
        }
    }
}

/// A value `p`'s own rules accept: the sample request's, else its default, else one its type
/// makes obvious (`None` for text the sample request does not give).
fn valid_value(p: &Param, base: &Request) -> Option<String> {
    if let Some(v) = base.value(&p.wire) {
        return Some(v.to_string());
    }
    if let Some(d) = &p.default {
        return Some(d.wire());
    }
    match &p.ty {
        ParamType::Integer(t) => {
            let v = t.min.unwrap_or(0);
            Some(t.max.map_or(v, |max| v.min(max)).to_string())
        }
        ParamType::Boolean => Some("true".into()),
        ParamType::Enum(e) => e.values.first().cloned(),
        ParamType::String(_) => None,
    }
}

/// A text that does not match `regex`, when one of a few simple candidates does not.
fn non_matching(regex: &str) -> Option<String> {
    let re = regex::Regex::new(regex).ok()?;
    [
        "",
        "!",
        " ",
        "a b",
        "~~~~",
        "0",
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ]
    .into_iter()
    .find(|c| !re.is_match(c))
    .map(str::to_string)
}

/// A text that is not in `format`.
fn format_violation(format: StringFormat) -> &'static str {
    match format {
        StringFormat::Rfc3339 => "2026-07-01 00:00:00",
        StringFormat::Uuid => "not-a-uuid",
        StringFormat::Hex16 => "00ff00ff00ff00fg",
        StringFormat::Date => "2026-02-30",
    }
}

/// The probes of one parameter: (probe name, request, expected answer).
fn param_probes(e: &Endpoint, p: &Param, base: &Request) -> Vec<(String, Request, Expect)> {
    let rejected = |check: ParamCheck| Expect::Rejected {
        field: p.wire.clone(),
        rule: e.param_rule(p, check),
    };
    let accepted = || Expect::Accepted {
        param: p.wire.clone(),
    };
    let is_query = p.location == ParamLocation::Query;
    let mut out: Vec<(String, Request, Expect)> = Vec::new();
    let mut probe = |name: &str, values: &[&str], expect: Expect| {
        out.push((name.to_string(), base.with(&p.wire, values), expect));
    };
    if p.required && is_query {
        probe("missing", &[], rejected(ParamCheck::Required));
    }
    let valid = valid_value(p, base);
    if let (Some(v), true) = (&valid, is_query) {
        probe("repeated", &[v, v], rejected(ParamCheck::Repeated));
    }
    match &p.ty {
        ParamType::Integer(t) => {
            probe("not_an_integer", &["12x"], rejected(ParamCheck::Type));
            probe(
                "past_i64",
                &["9223372036854775808"],
                rejected(ParamCheck::Type),
            );
            if let Some(min) = t.min {
                probe("at_min", &[&min.to_string()], accepted());
                if let Some(below) = min.checked_sub(1) {
                    probe(
                        "below_min",
                        &[&below.to_string()],
                        rejected(ParamCheck::Range),
                    );
                }
            }
            if let Some(max) = t.max {
                probe("at_max", &[&max.to_string()], accepted());
                if let Some(above) = max.checked_add(1) {
                    probe(
                        "above_max",
                        &[&above.to_string()],
                        rejected(ParamCheck::Range),
                    );
                }
            }
        }
        ParamType::Boolean => {
            probe("not_a_boolean", &["yes"], rejected(ParamCheck::Type));
        }
        ParamType::Enum(set) => {
            for v in &set.values {
                probe(&format!("value_{}", probe_name(v)), &[v], accepted());
            }
            probe(
                "not_a_value",
                &["not-a-value"],
                rejected(ParamCheck::Values),
            );
        }
        ParamType::String(t) => {
            if let Some(pattern) = &t.pattern {
                if let Some(v) = &valid {
                    probe("matching", &[v], accepted());
                }
                if let Some(bad) = non_matching(&pattern.regex)
                    && (is_query || !bad.is_empty())
                {
                    probe("not_matching", &[&bad], rejected(ParamCheck::Pattern));
                }
            }
            if let Some(format) = t.format {
                probe(
                    "bad_format",
                    &[format_violation(format)],
                    rejected(ParamCheck::Format),
                );
            }
        }
    }
    out
}

/// A value as part of a probe name: lowercase letters, digits and `_`.
fn probe_name(value: &str) -> String {
    value
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_names_and_violations() {
        assert_eq!(probe_name("MLC 128Gb"), "mlc_128gb");
        assert_eq!(non_matching("^[A-Z]{6}$").as_deref(), Some(""));
        assert_eq!(non_matching("^.*$").as_deref(), None);
        assert_eq!(non_matching("^.*\\S.*$").as_deref(), Some(""));
        for f in [
            StringFormat::Rfc3339,
            StringFormat::Uuid,
            StringFormat::Hex16,
            StringFormat::Date,
        ] {
            assert!(!f.runtime().holds(format_violation(f)), "{f:?}");
        }
    }
}
