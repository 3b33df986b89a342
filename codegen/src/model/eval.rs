//! What a request breaks, read from the model: the checks the generated `validate()` makes,
//! for checks made before anything is generated (each sample's example request) and for the
//! contract suite's predictions. Values are wire text; integers and booleans are read with the
//! runtime's own grammar, times with its own readers.

use std::borrow::Cow;

use mrds_runtime::ParamValue;
use mrds_runtime::text::rfc3339_seconds;

use super::*;

/// One problem of a request: the rule it breaks, the parameter it names, the value, why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The rule id (`stock_dividends.limit.range`, `stock_dividends.range_order`).
    pub rule: String,
    /// The parameter named (wire name).
    pub param: String,
    /// The value received (empty when missing).
    pub got: String,
    /// Why it is refused.
    pub reason: String,
}

impl Param {
    /// Which of the parameter's own checks `text` fails, and why; `None` when it is a value
    /// the parameter accepts.
    pub fn refuses(&self, text: &str) -> Option<(ParamCheck, String)> {
        refuses(&self.ty, text)
    }

    /// The value a request gives, or the default the parameter takes without one.
    fn effective<'v>(&self, given: Option<&'v str>) -> Option<Cow<'v, str>> {
        match given {
            Some(v) => Some(v.into()),
            None => self.default.as_ref().map(|d| d.wire().into()),
        }
    }
}

/// Which check of a value of type `ty` the text fails, and why.
fn refuses(ty: &ParamType, text: &str) -> Option<(ParamCheck, String)> {
    match ty {
        ParamType::Integer(t) => {
            let n = match i64::parse_param(text) {
                Ok(n) => n,
                Err((_, reason)) => return Some((ParamCheck::Type, reason)),
            };
            let out_of_range = t.min.is_some_and(|min| n < min) || t.max.is_some_and(|max| n > max);
            out_of_range.then(|| (ParamCheck::Range, mrds_runtime::range_reason(t.min, t.max)))
        }
        ParamType::Boolean => bool::parse_param(text)
            .err()
            .map(|(_, reason)| (ParamCheck::Type, reason)),
        ParamType::Enum(e) => (!e.values.iter().any(|v| v == text)).then(|| {
            let values: Vec<&str> = e.values.iter().map(String::as_str).collect();
            (ParamCheck::Values, mrds_runtime::values_reason(&values))
        }),
        ParamType::String(t) => {
            if let Some(p) = &t.pattern
                && !p.is_match(text)
            {
                let reason = mrds_runtime::pattern_reason(p.source(), t.pattern_doc.as_deref());
                return Some((ParamCheck::Pattern, reason));
            }
            let format = t.format?;
            (!format.runtime().holds(text))
                .then(|| (ParamCheck::Format, format.runtime().reason().to_string()))
        }
    }
}

impl<P: Copy> Condition<P> {
    /// True when the condition holds for `value` of its parameter.
    pub fn holds(&self, value: &str) -> bool {
        match self {
            Condition::In { values, .. } => values.iter().any(|l| l.wire() == value),
            Condition::Matches { pattern, .. } => pattern.is_match(value),
        }
    }
}

/// How the rules of a request read what they name (`P`): the value it has that its own
/// checks accept (a default included), whether it was sent at all, and its time format.
struct Reader<'a, P> {
    valid: &'a dyn Fn(P) -> Option<String>,
    sent: &'a dyn Fn(P) -> bool,
    time: &'a dyn Fn(P) -> Option<TimeFormat>,
    wire: &'a dyn Fn(P) -> String,
}

impl<P: Copy> Reader<'_, P> {
    /// The problem of rule `r`, if it applies and its check fails.
    fn problem(&self, r: &Rule<P>) -> Option<Problem> {
        let applies = r
            .when
            .as_ref()
            .is_none_or(|c| (self.valid)(c.param()).is_some_and(|v| c.holds(&v)));
        if !applies {
            return None;
        }
        let (at, got) = self.broken(r)?;
        Some(Problem {
            rule: r.id.clone(),
            param: (self.wire)(at),
            got,
            reason: r.reason().to_string(),
        })
    }

    /// When rule `r`'s check fails: what it names and its value.
    fn broken(&self, r: &Rule<P>) -> Option<(P, String)> {
        let seconds = |p: P| {
            let v = (self.valid)(p)?;
            match (self.time)(p)? {
                TimeFormat::UnixSeconds => i64::parse_param(&v).ok(),
                TimeFormat::Rfc3339 => rfc3339_seconds(&v),
            }
        };
        let value = |p: P| (self.valid)(p).unwrap_or_default();
        // Presence: a value counts as given when it has one its checks accept (sent, or its
        // default) or was sent at all (a value they refuse is reported apart).
        let has = |p: P| (self.valid)(p).is_some() || (self.sent)(p);
        match &r.check {
            Check::Ordered { before, after } => {
                let (a, b) = (seconds(*before)?, seconds(*after)?);
                (a >= b).then(|| (*after, value(*after)))
            }
            Check::MaxSpan {
                from,
                to,
                seconds: span,
            } => {
                let (a, b) = (seconds(*from)?, seconds(*to)?);
                (i128::from(b) - i128::from(a) > i128::from(*span)).then(|| (*to, value(*to)))
            }
            Check::Requires { param, needs } => {
                ((self.valid)(*param).is_some() && !has(*needs)).then(|| (*param, value(*param)))
            }
            Check::AtLeastOne(params) => {
                (!params.iter().any(|p| has(*p))).then(|| (params[0], String::new()))
            }
            Check::AllowedValues { param, values } => {
                let v = (self.valid)(*param)?;
                (!values.iter().any(|l| l.wire() == v)).then_some((*param, v))
            }
            Check::Matches { param, pattern } => {
                let v = (self.valid)(*param)?;
                (!pattern.is_match(&v)).then_some((*param, v))
            }
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

impl Endpoint {
    /// Every problem of a request giving `values` (each parameter at most once, as wire text):
    /// a required parameter missing, a value its parameter refuses, a rule across parameters
    /// broken. A parameter left out takes its default, as on the server.
    pub fn problems(&self, values: &[(ParamId, String)]) -> Vec<Problem> {
        let given = |id: ParamId| {
            values
                .iter()
                .find(|(p, _)| *p == id)
                .map(|(_, v)| v.as_str())
        };
        let mut out = Vec::new();
        for p in &self.params {
            let problem = match given(p.id) {
                None if p.required => Some((
                    ParamCheck::Required,
                    String::new(),
                    "is required".to_string(),
                )),
                None => None,
                Some(v) => p
                    .refuses(v)
                    .map(|(check, reason)| (check, v.to_string(), reason)),
            };
            if let Some((check, got, reason)) = problem {
                out.push(Problem {
                    rule: self.param_rule(p, check),
                    param: p.wire.clone(),
                    got,
                    reason,
                });
            }
        }
        let valid = |id: ParamId| {
            let p = self.param(id);
            p.effective(given(id))
                .filter(|v| p.refuses(v).is_none())
                .map(Cow::into_owned)
        };
        let reader = Reader {
            valid: &valid,
            sent: &|id| given(id).is_some(),
            time: &|id| self.param(id).time_format(),
            wire: &|id| self.param(id).wire.clone(),
        };
        out.extend(self.rules.iter().filter_map(|r| reader.problem(r)));
        out
    }

    /// Every problem of `body` (a JSON object) as the body of this endpoint, whose record is
    /// `record`: a value its field's checks refuse, a rule across the body's fields broken
    /// (the rules that also read a parameter aside). Rule ids `<endpoint>.body.<field>.<check>`.
    pub fn body_problems(&self, record: &Record, body: &serde_json::Value) -> Vec<Problem> {
        let text = |id: FieldId| json_text(body.get(&record.field(id).wire));
        let mut out = Vec::new();
        for f in &record.fields {
            let (Some(ty), Some(v)) = (&f.checks, json_text(body.get(&f.wire))) else {
                continue;
            };
            if let Some((check, reason)) = refuses(ty, &v) {
                out.push(Problem {
                    rule: format!("{}.body.{}.{}", self.id, f.wire, check.as_str()),
                    param: format!("body.{}", f.wire),
                    got: v,
                    reason,
                });
            }
        }
        let field_of = |op: Operand| match op {
            Operand::Field(id) => Some(id),
            Operand::Param(_) => None,
        };
        let valid = |op: Operand| {
            let id = field_of(op)?;
            let ty = record.field(id).checks.as_ref()?;
            text(id).filter(|v| refuses(ty, v).is_none())
        };
        let time = |op: Operand| record.field(field_of(op)?).checks.as_ref()?.time_format();
        let reader = Reader {
            valid: &valid,
            sent: &|op| field_of(op).is_some_and(|id| text(id).is_some()),
            time: &time,
            wire: &|op| {
                field_of(op)
                    .map_or_else(String::new, |id| format!("body.{}", record.field(id).wire))
            },
        };
        let body_only = self
            .body
            .iter()
            .flat_map(|b| &b.rules)
            .filter(|r| r.params().iter().all(|op| matches!(op, Operand::Field(_))));
        out.extend(body_only.filter_map(|r| reader.problem(r)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The broken-spec corpus's valid base (a service, `bars` with every kind of check, and
    /// `item_notes`).
    fn bars() -> Endpoint {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/broken/_valid_base");
        let api = crate::load_spec(std::path::Path::new(dir)).unwrap_or_else(|d| panic!("{d}"));
        api.endpoint_named("bars").expect("bars").clone()
    }

    fn problems(e: &Endpoint, query: &[(&str, &str)]) -> Vec<String> {
        let values: Vec<(ParamId, String)> = query
            .iter()
            .map(|(n, v)| (e.param_named(n).expect("a parameter").id, v.to_string()))
            .collect();
        e.problems(&values).into_iter().map(|p| p.rule).collect()
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
        let p = e.problems(&[
            (e.param_named("symbol").unwrap().id, "AAPL".into()),
            (e.param_named("start_time").unwrap().id, "5".into()),
            (e.param_named("end_time").unwrap().id, "5".into()),
        ]);
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
