//! What a request breaks, read from the model: the checks the generated `validate()` makes,
//! for checks made before anything is generated (each sample's example request) and for the
//! contract suite's predictions. Values are wire text (a body field's JSON value as text);
//! integers and booleans are read with the runtime's own grammar, times with its own readers,
//! and every rule is decided by the runtime's own predicate ([`mrds_runtime::holds`]), so the
//! generator judges a request as the generated crates do.

use mrds_runtime::{ParamValue, TimeValue, holds};

use super::rule::Reading;
use super::{
    Condition, Endpoint, Input, Inputs, ListForm, ListStyle, Operand, ParamId, Place, Record, Rule,
    TimeFormat, ValueCheck, ValueType,
};

/// One problem of a request: the rule it breaks, the input it names, the value, why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The rule id (`stock_dividends.limit.range`, `stock_dividends.range_order`).
    pub rule: String,
    /// The input named (`limit`, `body.handle`).
    pub param: String,
    /// The same input, resolved.
    pub operand: Operand,
    /// The value received (empty when missing).
    pub got: String,
    /// Why it is refused.
    pub reason: String,
}

impl ValueType {
    /// True when the type's own checks accept `text`.
    pub fn accepts(&self, text: &str) -> bool {
        self.refuses(text).is_none()
    }

    /// Which of the type's own checks `text` fails, and why; `None` when they accept it.
    pub fn refuses(&self, text: &str) -> Option<(ValueCheck, String)> {
        refuses(self, text)
    }
}

/// Which check of a value of type `ty` the text fails, and why.
fn refuses(ty: &ValueType, text: &str) -> Option<(ValueCheck, String)> {
    match ty {
        ValueType::Integer(t) => {
            let n = match i64::parse_param(text) {
                Ok(n) => n,
                Err((_, reason)) => return Some((ValueCheck::Type, reason)),
            };
            (!holds::in_range(n, t.min, t.max))
                .then(|| (ValueCheck::Range, mrds_runtime::range_reason(t.min, t.max)))
        }
        ValueType::Boolean => bool::parse_param(text)
            .err()
            .map(|(_, reason)| (ValueCheck::Type, reason)),
        ValueType::Enum(e) => (!e.values.iter().any(|v| v == text)).then(|| {
            let values: Vec<&str> = e.values.iter().map(String::as_str).collect();
            (ValueCheck::Values, mrds_runtime::values_reason(&values))
        }),
        ValueType::String(t) => {
            if let Some(p) = &t.pattern
                && !p.is_match(text)
            {
                let reason = mrds_runtime::pattern_reason(p.source(), t.pattern_doc.as_deref());
                return Some((ValueCheck::Pattern, reason));
            }
            let format = t.format?;
            (!format.holds(text)).then(|| (ValueCheck::Format, format.reason().to_string()))
        }
    }
}

/// True when the generated code reads `text` as a value of type `ty`: an integer or a boolean
/// in its one spelling, any text, a value of a strict value set (a tolerant one reads any
/// text, an unknown value included).
fn reads(ty: &ValueType, text: &str) -> bool {
    match ty {
        ValueType::Integer(_) => i64::parse_param(text).is_ok(),
        ValueType::Boolean => bool::parse_param(text).is_ok(),
        ValueType::Enum(e) => e.tolerant || e.values.iter().any(|v| v == text),
        ValueType::String(_) => true,
    }
}

impl<P: Copy> Condition<P> {
    /// True when the condition holds for `value` of its input.
    pub fn holds(&self, value: &str) -> bool {
        match self {
            Condition::In { values, .. } => values.iter().any(|l| l.wire() == value),
            Condition::Matches { pattern, .. } => pattern.is_match(value),
        }
    }
}

/// The text a check reads of a JSON value: text as it is, integers and booleans as written;
/// `None` for null (and what no check reads).
fn json_text(v: Option<&serde_json::Value>) -> Option<String> {
    match v? {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A request as the rules read it: what each input was given, as text.
struct Given<'a> {
    inputs: Inputs<'a>,
    params: &'a [(ParamId, String)],
    body: Option<&'a serde_json::Value>,
}

impl Given<'_> {
    /// The text `input` was sent with, if any.
    fn sent(&self, input: &Input<'_>) -> Option<String> {
        match input.operand {
            Operand::Param(id) => (self.params.iter())
                .find(|(p, _)| *p == id)
                .map(|(_, v)| v.clone()),
            Operand::Field(_) => json_text(self.body?.get(input.wire)),
        }
    }

    /// The value the rules read of `op`, as the generated code hands it to them: the text sent
    /// when its type reads it ([`reads`]), else its default (the generated `from_raw` falls
    /// back to the default of a parameter whose text does not parse). Its range, pattern or
    /// format do not matter: what they refuse is reported apart, and the rules read the value
    /// all the same.
    fn value(&self, op: Operand) -> Option<String> {
        let input = self.inputs.get(op)?;
        match self.sent(&input) {
            Some(v) if reads(input.ty, &v) => Some(v),
            _ => Some(input.default?.wire()),
        }
    }

    /// Whether `op` counts as given to a presence rule: it has a value, or was sent at all
    /// (a value its type does not read is reported apart).
    fn has(&self, op: Operand) -> bool {
        self.value(op).is_some() || self.inputs.get(op).is_some_and(|i| self.sent(&i).is_some())
    }

    /// Unix seconds of the value of a time input (none for a text that is no instant).
    fn seconds(&self, op: Operand) -> Option<i64> {
        let v = self.value(op)?;
        match self.inputs.get(op)?.time_format()? {
            TimeFormat::UnixSeconds => i64::parse_param(&v).ok(),
            TimeFormat::Rfc3339 => v.as_str().seconds(),
        }
    }

    /// The problem of rule `r`, if it applies and its check fails.
    fn problem(&self, r: &Rule) -> Option<Problem> {
        let applies = r
            .when
            .as_ref()
            .is_none_or(|c| self.value(c.operand()).is_some_and(|v| c.holds(&v)));
        if !applies {
            return None;
        }
        let (at, got) = self.broken(r)?;
        Some(Problem {
            rule: r.id.clone(),
            param: self.inputs.get(at)?.name(),
            operand: at,
            got,
            reason: r.reason().to_string(),
        })
    }

    /// When rule `r`'s check fails: the input it names and its value.
    fn broken(&self, r: &Rule) -> Option<(Operand, String)> {
        let at = r.requirement.field();
        r.requirement
            .broken(self)?
            .then(|| (at, self.value(at).unwrap_or_default()))
    }
}

impl Reading for Given<'_> {
    fn value(&self, op: Operand) -> Option<String> {
        Given::value(self, op)
    }

    fn given(&self, op: Operand) -> bool {
        self.has(op)
    }

    fn seconds(&self, op: Operand) -> Option<i64> {
        Given::seconds(self, op)
    }
}

impl Endpoint {
    /// Every problem of a request giving `params` (each at most once, as wire text) and, for
    /// an endpoint with a body whose record is `body_record`, the JSON `body`: a required
    /// parameter missing, a value its input's own checks refuse, a rule broken. A parameter
    /// left out takes its default, as on the server. A body of the wrong shape (a required
    /// field missing, a value of another type) is the business of the body's decoding, not
    /// reported here.
    pub fn problems(
        &self,
        body_record: Option<&Record>,
        params: &[(ParamId, String)],
        body: Option<&serde_json::Value>,
    ) -> Vec<Problem> {
        let given = Given {
            inputs: Inputs {
                params: &self.params,
                body: body_record,
            },
            params,
            body,
        };
        let mut out = Vec::new();
        for input in given.inputs.all() {
            if let (Some(form), Operand::Param(id)) = (input.list, input.operand) {
                let texts: Vec<&str> = (params.iter())
                    .filter(|(p, _)| *p == id)
                    .map(|(_, v)| v.as_str())
                    .collect();
                out.extend(self.list_problems(&input, form, &texts));
                continue;
            }
            let problem = match (given.sent(&input), input.place) {
                (None, Place::Query | Place::Path) if input.required => Some((
                    ValueCheck::Required,
                    String::new(),
                    "is required".to_string(),
                )),
                (None, _) => None,
                (Some(v), _) => refuses(input.ty, &v).map(|(check, reason)| (check, v, reason)),
            };
            if let Some((check, got, reason)) = problem {
                out.push(Problem {
                    rule: self.value_rule(&input.name(), check),
                    param: input.name(),
                    operand: input.operand,
                    got,
                    reason,
                });
            }
        }
        out.extend(self.rules.iter().filter_map(|r| given.problem(r)));
        out
    }

    /// The problems of list `input` sent as `texts` (each time the parameter is given): a
    /// comma list given twice, an item its type refuses (named by its index), no item when
    /// it is required, a number of items outside its bounds.
    fn list_problems(&self, input: &Input<'_>, form: &ListForm, texts: &[&str]) -> Vec<Problem> {
        let name = input.name();
        let problem = |param: String, check: ValueCheck, got: &str, reason: String| Problem {
            rule: self.value_rule(&name, check),
            param,
            operand: input.operand,
            got: got.to_owned(),
            reason,
        };
        let items: Vec<&str> = match (form.style, texts) {
            (ListStyle::Comma, [] | [""]) => Vec::new(),
            (ListStyle::Comma, [one]) => one.split(',').collect(),
            (ListStyle::Comma, [first, more @ ..]) => {
                let reason = format!("is given {} times; give it once", more.len() + 1);
                return vec![problem(name.clone(), ValueCheck::Repeated, first, reason)];
            }
            (ListStyle::Repeated, texts) => texts.to_vec(),
        };
        let mut out = Vec::new();
        if items.is_empty() {
            if input.required {
                let reason = "is required: give at least one item".to_owned();
                out.push(problem(name.clone(), ValueCheck::Required, "", reason));
            }
            return out;
        }
        let count = i64::try_from(items.len()).unwrap_or(i64::MAX);
        if !holds::in_range(count, form.min_items, form.max_items) {
            let reason = mrds_runtime::items_reason(form.min_items, form.max_items);
            out.push(problem(
                name.clone(),
                ValueCheck::Items,
                &format!("{count} items"),
                reason,
            ));
        }
        for (i, item) in items.iter().enumerate() {
            let at = format!("{name}[{i}]");
            if form.style == ListStyle::Comma && !holds::comma_item(item) {
                let reason = mrds_runtime::COMMA_ITEM_REASON.to_owned();
                out.push(problem(at, ValueCheck::Type, item, reason));
            } else if let Some((check, reason)) = refuses(input.ty, item) {
                out.push(problem(at, check, item, reason));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The broken-spec corpus's valid base (a service, `bars` with every kind of check, and
    /// `item_notes`).
    fn bars() -> Endpoint {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/broken/_valid_base"
        );
        let api = crate::load_spec(std::path::Path::new(dir)).unwrap_or_else(|d| panic!("{d}"));
        api.endpoint_named("bars").expect("bars").clone()
    }

    /// The base's `bars` with one more rule, `bars.short_symbol`, reading `symbol`.
    fn bars_with_a_rule_on_symbol() -> Endpoint {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/broken/_valid_base"
        );
        let mut sources = crate::load::read_dir(std::path::Path::new(dir)).expect("the base");
        let api = sources
            .iter_mut()
            .find(|(name, _)| name.ends_with("api.yaml"))
            .expect("api.yaml");
        api.1 = api.1.replacen(
            "    paging: { limit: limit }",
            "      - id: bars.short_symbol\n        doc: At most four letters.\n        \
             matches: { param: symbol, pattern: '^[A-Z]{1,4}$' }\n    paging: { limit: limit }",
            1,
        );
        let api = crate::load_sources(&sources).unwrap_or_else(|d| panic!("{d}"));
        api.endpoint_named("bars").expect("bars").clone()
    }

    fn problems(e: &Endpoint, query: &[(&str, &str)]) -> Vec<String> {
        let values: Vec<(ParamId, String)> = query
            .iter()
            .map(|(n, v)| (e.param_named(n).expect("a parameter").id, v.to_string()))
            .collect();
        e.problems(None, &values, None)
            .into_iter()
            .map(|p| p.rule)
            .collect()
    }

    #[test]
    fn rules_read_what_the_type_reads_as_the_generated_code_does() {
        let e = bars_with_a_rule_on_symbol();
        // A symbol its own pattern refuses is read by the rule all the same.
        assert_eq!(
            problems(&e, &[("symbol", "abcde")]),
            ["bars.symbol.pattern", "bars.short_symbol"]
        );
        assert_eq!(problems(&e, &[("symbol", "ABCD")]), Vec::<String>::new());
        // A value its type does not read leaves the default to the rules, as the generated
        // `from_raw` does: `interval` falls back to `1d`, which trade bars allow.
        assert_eq!(
            problems(
                &e,
                &[("symbol", "A"), ("kind", "trade"), ("interval", "1h")]
            ),
            ["bars.interval.values"]
        );
    }

    #[test]
    fn a_request_is_judged_as_the_generated_validate_does() {
        let e = bars();
        assert!(problems(&e, &[("symbol", "AAPL")]).is_empty());
        assert_eq!(problems(&e, &[]), ["bars.symbol.required"]);
        assert_eq!(
            problems(
                &e,
                &[
                    ("symbol", "aapl"),
                    ("limit", "0"),
                    ("kind", "x"),
                    ("start_time", "01")
                ]
            ),
            [
                "bars.symbol.pattern",
                "bars.start_time.type",
                "bars.kind.values",
                "bars.limit.range"
            ]
        );
        // Ordered: equal instants break it; the issue names the later parameter.
        let p = e.problems(
            None,
            &[
                (e.param_named("symbol").unwrap().id, "AAPL".into()),
                (e.param_named("start_time").unwrap().id, "5".into()),
                (e.param_named("end_time").unwrap().id, "5".into()),
            ],
            None,
        );
        assert_eq!(
            (p[0].rule.as_str(), p[0].param.as_str(), p[0].got.as_str()),
            ("bars.range_order", "end_time", "5")
        );
        // Requires: end_time alone; a start_time that was sent (even refused) counts as given.
        assert_eq!(
            problems(&e, &[("symbol", "A"), ("end_time", "5")]),
            ["bars.end_requires_start"]
        );
        assert_eq!(
            problems(
                &e,
                &[("symbol", "A"), ("end_time", "5"), ("start_time", "x")]
            ),
            ["bars.start_time.type"]
        );
        // A condition on a value, with the default of the restricted parameter: `interval`
        // defaults to `1d`, which trade bars allow; `1min` they do not.
        assert!(problems(&e, &[("symbol", "A"), ("kind", "trade")]).is_empty());
        assert_eq!(
            problems(
                &e,
                &[("symbol", "A"), ("kind", "trade"), ("interval", "1min")]
            ),
            ["bars.trade_daily_only"]
        );
        assert!(
            problems(
                &e,
                &[("symbol", "A"), ("kind", "quote"), ("interval", "1min")]
            )
            .is_empty()
        );
    }
}
