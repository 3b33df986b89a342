//! The contract suite: requests derived from the resolved model, each with the answer the
//! spec predicts, to run against any server of the API.
//!
//! Starting from each endpoint's sample request (or one synthesised from its parameters), the
//! suite derives:
//!
//! - the sample request itself, whose records must decode strictly as the declared record
//!   (required fields present, values of value sets the spec lists) in the documented order;
//! - per input, a parameter or a field of the body ([`inputs`]): missing, repeated, empty, not of
//!   its type, at and beyond its bounds, each value of its set and one outside, a text its
//!   pattern matches and one it does not, a format violation;
//! - per rule ([`rules`]): one request on each side of it, and for a rule with a condition,
//!   the condition's other branch;
//! - per body ([`body`]): not JSON, empty, another content type, too large, each field missing
//!   and of another type;
//! - the documented behaviour ([`behaviour`]): the key (missing, wrong), `limit` capping the
//!   records, defaults applied, the documented order in each direction, 404 for a lookup of
//!   nothing, 410 for a removed endpoint (unless the server under test serves it:
//!   [`Removed`]), unknown parameters ignored.
//!
//! A new parameter, bound, rule or paging declaration in the spec yields new checks with no
//! code written. [`judge`] decides whether an answer is the predicted one, [`not_implemented`]
//! whether it says the server does not serve the endpoint; runners (the tests,
//! `cargo xtask contract`) only send requests.

use mrds_runtime::ErrorKind;
use mrds_runtime::text::percent_encode;

use mrds_spec::model::{
    Api, Endpoint, Input, Inputs, Method, Operand, Param, ParamId, ParamLocation, Place, Record,
    RecordId, Segment, TypeRef,
};

mod behaviour;
mod body;
mod inputs;
mod judge;
mod rules;
pub mod values;

pub use judge::{judge, not_implemented, record_problems, shape_problems};

/// One request and what the spec says the answer is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// A stable id: `<endpoint>.<parameter>.<probe>`, `<rule id>.<probe>` or
    /// `<endpoint>.<behaviour>` (`stock_dividends.limit.above_max`,
    /// `stock_dividends.range_order.broken`, `stock_dividends.auth.missing_key`).
    pub id: String,
    /// The endpoint id.
    pub endpoint: String,
    /// The request.
    pub request: Request,
    /// The answer the spec predicts.
    pub expect: Expect,
    /// The request selects none of the endpoint's sample sets, and the endpoint answers a
    /// request that matches nothing with 404 (`missing: not_found`: a lookup of something the
    /// samples do not hold): 404 `RESOURCE_NOT_FOUND` is as good as the answer predicted.
    pub not_found_allowed: bool,
}

/// A request: method, path and query below the base path, which key it sends, and its body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The HTTP method.
    pub method: Method,
    /// The path below the base path, path parameters percent-encoded.
    pub path: String,
    /// The query pairs, decoded, in order (a pair may repeat).
    pub query: Vec<(String, String)>,
    /// The key sent.
    pub key: Key,
    /// The body (a `POST`): its bytes and the `Content-Type` they are sent with.
    pub body: Option<SentBody>,
}

/// The body of a request as sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentBody {
    /// The bytes (JSON text, or on purpose not).
    pub text: String,
    /// The `Content-Type` header.
    pub content_type: &'static str,
}

/// The `Content-Type` of a JSON body.
pub const JSON: &str = "application/json";

impl Request {
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

/// Which key a request sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// The key the suite was given.
    Valid,
    /// None.
    Missing,
    /// One no server accepts.
    Wrong,
}

/// The key a [`Key::Wrong`] request sends.
pub const WRONG_KEY: &str = "contract-suite-wrong-key";

/// The answer a check expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// 200 with records that decode strictly as `record` (the endpoint's), at most `at_most`
    /// of them, in `order` when given.
    Records {
        /// The record `data` holds.
        record: RecordId,
        /// Most records allowed.
        at_most: Option<usize>,
        /// The order they must come in.
        order: Option<Sorted>,
    },
    /// No issue of `param`'s own rules: 200, or 400 naming only other rules (changing one
    /// value may bring another rule into play).
    Accepted {
        /// The parameter probed (wire name).
        param: String,
    },
    /// Rule `rule` is not broken: 200, or 400 naming only other rules.
    Kept {
        /// The rule id.
        rule: String,
    },
    /// 400 `INVALID_PARAMETER` with an issue naming `field` and rule `rule`.
    Rejected {
        /// The parameter at fault (wire name).
        field: String,
        /// The rule id the issue names.
        rule: String,
    },
    /// An error envelope with this status and code.
    Error {
        /// HTTP status.
        status: u16,
        /// `error.code`.
        code: String,
    },
}

impl Expect {
    /// An error answer of the runtime's `kind`, with the code and at the status the spec gives
    /// it (500 for a code it does not define: the check then fails, naming the code).
    fn error(api: &Api, kind: ErrorKind) -> Self {
        let code = kind.code();
        let status = api
            .error_codes
            .iter()
            .find(|c| c.code == code)
            .map_or(500, |c| c.status);
        Expect::Error {
            status,
            code: code.to_string(),
        }
    }
}

/// An order records must come in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sorted {
    /// The record field (wire name).
    pub field: String,
    /// Largest first.
    pub descending: bool,
}

/// What a removed endpoint answers on the server under test.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Removed {
    /// 410 `ENDPOINT_REMOVED`, as the service does: the only check of the endpoint.
    #[default]
    Gone,
    /// It is still served (a sample server run with `--serve-removed`, say): checked as any
    /// other endpoint.
    Served,
}

/// Every check of the spec, endpoint by endpoint (sorted as the model is).
pub fn derive(api: &Api, removed: Removed) -> Vec<Probe> {
    api.endpoints
        .iter()
        .flat_map(|e| endpoint_checks(api, e, removed))
        .collect()
}

/// The checks of one endpoint.
pub fn endpoint_checks(api: &Api, e: &Endpoint, removed: Removed) -> Vec<Probe> {
    let base = Draft::base(api, e);
    let gone = e.removed.is_some() && removed == Removed::Gone;
    let mut out = behaviour::checks(api, e, &base, gone);
    if !gone {
        for input in api.inputs(e).all() {
            out.extend(inputs::checks(e, &input, &base));
        }
        for r in &e.rules {
            out.extend(rules::checks(e, r, &base));
        }
        if let Some(body) = &e.body {
            out.extend(body::checks(api, e, api.record(body.record), &base));
        }
    }
    out
}

/// A request under construction: path parameter values, query pairs and the body's fields,
/// set and read by the [`Operand`] they stand for.
#[derive(Clone, Debug)]
pub(crate) struct Draft<'m> {
    inputs: Inputs<'m>,
    path: Vec<(String, String)>,
    query: Vec<(String, String)>,
    key: Key,
    body: Option<DraftBody>,
}

/// The body of a request under construction.
#[derive(Clone, Debug)]
pub(crate) struct DraftBody {
    /// The fields (a JSON object).
    json: serde_json::Map<String, serde_json::Value>,
    /// Text sent as it is instead of the fields (a probe of the body itself).
    raw: Option<SentBody>,
}

/// A value of a body field of type `ty`, from its text: a number or boolean when the field
/// holds one and the text is one, else the text (a probe of the field's type sends text on
/// purpose).
fn typed(text: &str, ty: &TypeRef) -> serde_json::Value {
    let parsed = match ty {
        TypeRef::Integer => text.parse::<i64>().ok().map(serde_json::Value::from),
        TypeRef::Boolean => text.parse::<bool>().ok().map(serde_json::Value::from),
        _ => None,
    };
    parsed.unwrap_or_else(|| serde_json::Value::String(text.to_string()))
}

/// A body of `record` with only its required fields, each given a value its checks accept
/// (for an endpoint with no example body): an empty array, the first value of a set, a
/// record's own minimal body (`depth` guards a record that contains itself).
fn minimal_body(
    api: &Api,
    record: &Record,
    depth: usize,
) -> serde_json::Map<String, serde_json::Value> {
    record
        .fields
        .iter()
        .filter(|f| !f.optional)
        .map(|f| {
            let accepted = f
                .checks
                .as_ref()
                .and_then(|ty| values::candidates(ty, None, None).into_iter().next());
            let value = match (&f.ty, accepted) {
                _ if f.array => serde_json::json!([]),
                (TypeRef::Record(id), _) if depth < 8 => {
                    serde_json::Value::Object(minimal_body(api, api.record(*id), depth + 1))
                }
                (TypeRef::ValueSet(id), _) => {
                    let set = api.value_set(*id);
                    serde_json::Value::from(set.values.first().map_or("", |v| v.wire.as_str()))
                }
                (ty, Some(v)) => typed(&v, ty),
                (TypeRef::Integer | TypeRef::Number, None) => serde_json::json!(0),
                (TypeRef::Boolean, None) => serde_json::json!(false),
                _ => serde_json::json!("contract"),
            };
            (f.wire.clone(), value)
        })
        .collect()
}

impl<'m> Draft<'m> {
    /// The endpoint's sample request, or one giving every required parameter a value its own
    /// rules accept.
    fn base(api: &'m Api, e: &'m Endpoint) -> Self {
        let inputs = api.inputs(e);
        let values: Vec<(ParamId, String)> = match &e.samples {
            Some(s) => s.example_values.clone(),
            None => e
                .params
                .iter()
                .filter(|p| p.required)
                .filter_map(|p| {
                    let v = values::candidates(&p.ty, p.default.as_ref(), None)
                        .into_iter()
                        .next()?;
                    Some((p.id, v))
                })
                .collect(),
        };
        // A request holds parameters by their names on the wire.
        let (path, query): (Vec<_>, Vec<_>) = values
            .into_iter()
            .map(|(id, v)| (e.param(id), v))
            .partition(|(p, _)| p.location == ParamLocation::Path);
        let named = |pairs: Vec<(&Param, String)>| -> Vec<(String, String)> {
            pairs
                .into_iter()
                .map(|(p, v)| (p.wire.clone(), v))
                .collect()
        };
        let body = inputs.body.map(|record| DraftBody {
            json: e
                .samples
                .as_ref()
                .and_then(|s| s.example_body.as_deref())
                .and_then(|text| serde_json::from_str(text).ok())
                .unwrap_or_else(|| minimal_body(api, record, 0)),
            raw: None,
        });
        Self {
            inputs,
            path: named(path),
            query: named(query),
            key: Key::Valid,
            body,
        }
    }

    /// This request with its body's fields set to `json` (a probe of the body's shape).
    pub(crate) fn with_body_json(&self, json: serde_json::Map<String, serde_json::Value>) -> Self {
        let mut next = self.clone();
        if let Some(body) = &mut next.body {
            body.json = json;
        }
        next
    }

    /// This request with a body of `text` sent as `content_type` instead of its fields.
    pub(crate) fn with_raw_body(&self, text: String, content_type: &'static str) -> Self {
        let mut next = self.clone();
        if let Some(body) = &mut next.body {
            body.raw = Some(SentBody { text, content_type });
        }
        next
    }

    /// The body's fields.
    pub(crate) fn body_json(&self) -> Option<&serde_json::Map<String, serde_json::Value>> {
        self.body.as_ref().map(|b| &b.json)
    }

    /// The input `op` stands for.
    pub(crate) fn input(&self, op: Operand) -> Option<Input<'m>> {
        self.inputs.get(op)
    }

    /// The value the request gives input `op`, if it gives one.
    pub(crate) fn value(&self, op: Operand) -> Option<String> {
        let input = self.inputs.get(op)?;
        match input.place {
            Place::Body => match self.body.as_ref()?.json.get(input.wire)? {
                serde_json::Value::String(s) => Some(s.clone()),
                serde_json::Value::Null => None,
                other => Some(other.to_string()),
            },
            Place::Query | Place::Path => self.param_value(input.wire),
        }
    }

    /// The value the request gives the parameter `wire`, if it gives one.
    fn param_value(&self, wire: &str) -> Option<String> {
        (self.path.iter().chain(&self.query))
            .find(|(n, _)| n == wire)
            .map(|(_, v)| v.clone())
    }

    /// This request with input `op` set to `values` (none: left out; several: repeated, for
    /// a query parameter).
    pub(crate) fn with(&self, op: Operand, values: &[&str]) -> Self {
        let Some(input) = self.inputs.get(op) else {
            return self.clone();
        };
        if input.place != Place::Body {
            return self.with_param(input.wire, values);
        }
        let mut next = self.clone();
        let field = match op {
            Operand::Field(id) => self.inputs.body.map(|r| r.field(id)),
            Operand::Param(_) => None,
        };
        if let (Some(body), Some(field)) = (&mut next.body, field) {
            match values.first() {
                None => {
                    body.json.remove(&field.wire);
                }
                Some(v) => {
                    body.json.insert(field.wire.clone(), typed(v, &field.ty));
                }
            }
        }
        next
    }

    /// This request with the parameter `wire` (one of the endpoint's, or one it does not
    /// know) set to `values`.
    pub(crate) fn with_param(&self, wire: &str, values: &[&str]) -> Self {
        let mut next = self.clone();
        if let Some(slot) = next.path.iter_mut().find(|(n, _)| n == wire) {
            slot.1 = values.first().copied().unwrap_or_default().to_string();
            return next;
        }
        let at = next.query.iter().position(|(n, _)| n == wire);
        next.query.retain(|(n, _)| n != wire);
        let at = at.unwrap_or(next.query.len()).min(next.query.len());
        for (i, v) in values.iter().enumerate() {
            next.query.insert(at + i, (wire.to_string(), v.to_string()));
        }
        next
    }

    /// The value input `op` has in this request: its own, or its default.
    pub(crate) fn value_or_default(&self, op: Operand) -> Option<String> {
        self.value(op)
            .or_else(|| Some(self.inputs.get(op)?.default?.wire()))
    }

    /// True unless the endpoint answers this request 404 because its sample data holds
    /// nothing the request selects (`missing: not_found`).
    pub(crate) fn answered(&self, e: &Endpoint) -> bool {
        e.samples
            .as_ref()
            .is_none_or(|s| !s.not_found_when_missing || s.answer(|op| self.value_or_default(op)))
    }

    /// This request sending `key`.
    pub(crate) fn keyed(&self, key: Key) -> Self {
        Self {
            key,
            ..self.clone()
        }
    }

    /// The check `<endpoint>.<probe>` sending this request.
    pub(crate) fn check(&self, e: &Endpoint, probe: &str, expect: Expect) -> Probe {
        let mut path = String::new();
        for s in &e.path.segments {
            path.push('/');
            match s {
                Segment::Literal(l) => path.push_str(l),
                Segment::Param { param, .. } => path.push_str(&percent_encode(
                    &self.param_value(&e.param(*param).wire).unwrap_or_default(),
                )),
            }
        }
        let body = self.body.as_ref().map(|b| match &b.raw {
            Some(raw) => raw.clone(),
            None => SentBody {
                text: serde_json::Value::Object(b.json.clone()).to_string(),
                content_type: JSON,
            },
        });
        let not_found_allowed = matches!(
            expect,
            Expect::Records { .. } | Expect::Accepted { .. } | Expect::Kept { .. }
        ) && !self.answered(e);
        Probe {
            id: format!("{}.{probe}", e.id),
            endpoint: e.id.clone(),
            not_found_allowed,
            request: Request {
                method: e.method,
                path,
                query: self.query.clone(),
                key: self.key,
                body,
            },
            expect,
        }
    }
}
