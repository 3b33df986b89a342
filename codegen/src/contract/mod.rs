//! The contract suite: requests derived from the resolved model, each with the answer the
//! spec predicts, to run against any server of the API.
//!
//! Starting from each endpoint's sample request (or one synthesised from its parameters), the
//! suite derives:
//!
//! - the sample request itself, whose records must decode strictly as the declared record
//!   (required fields present, values of value sets the spec lists) in the documented order;
//! - per parameter ([`params`]): missing, repeated, empty, not of its type, at and beyond its
//!   bounds, each value of its set and one outside, pattern and format violations;
//! - per rule across parameters ([`rules`]): one request on each side of it, and for a rule
//!   with a condition, the condition's other branch;
//! - the documented behaviour ([`behaviour`]): the key (missing, wrong), `limit` capping the
//!   records, defaults applied, the documented order in each direction, 404 for a lookup of
//!   nothing, 410 for a removed endpoint, unknown parameters ignored.
//!
//! A new parameter, bound, rule or paging declaration in the spec yields new checks with no
//! code written. [`judge`] decides whether an answer is the predicted one, [`not_implemented`]
//! whether it says the server does not serve the endpoint; runners (the tests,
//! `cargo xtask contract`) only send requests.

use mrds_runtime::text::percent_encode;

use crate::model::*;

mod behaviour;
mod body;
mod judge;
pub mod params;
mod rules;
pub mod values;

pub use judge::{judge, not_implemented, record_problems};

/// One request and what the spec says the answer is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
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

/// A value of a body field of `kind`, from its text: a number or boolean when the text is
/// one, else the text (a probe of the field's type sends text on purpose).
fn typed(text: &str, kind: BodyKind) -> serde_json::Value {
    let parsed = match kind {
        BodyKind::Integer => text.parse::<i64>().ok().map(serde_json::Value::from),
        BodyKind::Boolean => text.parse::<bool>().ok().map(serde_json::Value::from),
        BodyKind::Text => None,
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
    let fields = record.body_params(0);
    record
        .fields
        .iter()
        .filter(|f| !f.optional)
        .map(|f| {
            let checked = fields
                .iter()
                .find(|p| p.wire.strip_prefix("body.") == Some(&f.wire));
            let value = match (&f.ty, checked) {
                _ if f.array => serde_json::json!([]),
                (TypeRef::Record(id), _) if depth < 8 => {
                    serde_json::Value::Object(minimal_body(api, api.record(*id), depth + 1))
                }
                (TypeRef::ValueSet(id), _) => {
                    let set = api.value_set(*id);
                    serde_json::Value::from(set.values.first().map_or("", |v| v.wire.as_str()))
                }
                (TypeRef::Integer, Some(p)) => typed(
                    &values::candidates(p, None)
                        .into_iter()
                        .next()
                        .unwrap_or_default(),
                    BodyKind::Integer,
                ),
                (TypeRef::Integer | TypeRef::Number, _) => serde_json::json!(0),
                (TypeRef::Boolean, _) => serde_json::json!(false),
                (_, Some(p)) => serde_json::Value::from(
                    values::candidates(p, None)
                        .into_iter()
                        .next()
                        .unwrap_or_default(),
                ),
                _ => serde_json::json!("contract"),
            };
            (f.wire.clone(), value)
        })
        .collect()
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
    /// An error answer with `code`, at the status the spec gives it (500 for a code it does not
    /// define: the check then fails, naming the code).
    fn error(api: &Api, code: &str) -> Self {
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

/// Every check of the spec, endpoint by endpoint (sorted as the model is).
pub fn derive(api: &Api) -> Vec<Check> {
    api.endpoints
        .iter()
        .flat_map(|e| endpoint_checks(api, e))
        .collect()
}

/// The checks of one endpoint.
pub fn endpoint_checks(api: &Api, e: &Endpoint) -> Vec<Check> {
    let base = Draft::base(api, e);
    let mut out = behaviour::checks(api, e, &base);
    if e.removed.is_none() {
        for p in &e.params {
            out.extend(params::checks(e, p, &base));
        }
        for r in &e.rules {
            out.extend(rules::checks(e, r, &base));
        }
        if let Some(body) = &e.body {
            out.extend(body::checks(api, e, body, &base));
        }
    }
    out
}

/// A request under construction: path parameter values, query pairs and the body's fields.
/// A field of the body is named `body.<field>` like a parameter, so the probes of rules treat
/// both alike.
#[derive(Clone, Debug)]
pub(crate) struct Draft {
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
    /// How each field holds its value (a value set from text is typed by its field).
    kinds: std::collections::BTreeMap<String, BodyKind>,
}

/// How a field of the body holds its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BodyKind {
    Text,
    Integer,
    Boolean,
}

impl Draft {
    /// The endpoint's sample request, or one giving every required parameter a value its own
    /// rules accept.
    fn base(api: &Api, e: &Endpoint) -> Self {
        let values: Vec<(ParamId, String)> = match &e.samples {
            Some(s) => s.example_values.clone(),
            None => e
                .params
                .iter()
                .filter(|p| p.required)
                .filter_map(|p| {
                    let v = values::candidates(p, None).into_iter().next()?;
                    Some((p.id, v))
                })
                .collect(),
        };
        // A request holds parameters by their names on the wire.
        let (path, query) = values
            .into_iter()
            .map(|(id, v)| (id, e.param(id).wire.clone(), v))
            .partition::<Vec<_>, _>(|(id, _, _)| e.param(*id).location == ParamLocation::Path);
        let named = |pairs: Vec<(ParamId, String, String)>| -> Vec<(String, String)> {
            pairs.into_iter().map(|(_, n, v)| (n, v)).collect()
        };
        let (path, query) = (named(path), named(query));
        let body = e.body.as_ref().map(|b| {
            let record = api.record(b.record);
            let json = e
                .samples
                .as_ref()
                .and_then(|s| s.example_body.as_deref())
                .and_then(|text| serde_json::from_str(text).ok())
                .unwrap_or_else(|| minimal_body(api, record, 0));
            let kinds = record
                .fields
                .iter()
                .map(|f| {
                    let kind = match f.ty {
                        TypeRef::Integer => BodyKind::Integer,
                        TypeRef::Boolean => BodyKind::Boolean,
                        _ => BodyKind::Text,
                    };
                    (f.wire.clone(), kind)
                })
                .collect();
            DraftBody {
                json,
                raw: None,
                kinds,
            }
        });
        Self {
            path,
            query,
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

    /// The value the request gives `name` (a parameter, or `body.<field>`), if it gives one.
    pub(crate) fn value(&self, name: &str) -> Option<String> {
        if let Some(field) = name.strip_prefix("body.") {
            return match self.body.as_ref()?.json.get(field)? {
                serde_json::Value::String(s) => Some(s.clone()),
                serde_json::Value::Null => None,
                other => Some(other.to_string()),
            };
        }
        self.path
            .iter()
            .chain(&self.query)
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    }

    /// This request with `name` (a parameter, or `body.<field>`) set to `values` (none: left
    /// out; several: repeated, for a parameter).
    pub(crate) fn with(&self, name: &str, values: &[&str]) -> Self {
        let mut next = self.clone();
        if let Some(field) = name.strip_prefix("body.") {
            if let Some(body) = &mut next.body {
                match values.first() {
                    None => {
                        body.json.remove(field);
                    }
                    Some(v) => {
                        let kind = body.kinds.get(field).copied().unwrap_or(BodyKind::Text);
                        body.json.insert(field.to_string(), typed(v, kind));
                    }
                }
            }
            return next;
        }
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

    /// This request sending `key`.
    pub(crate) fn keyed(&self, key: Key) -> Self {
        Self {
            key,
            ..self.clone()
        }
    }

    /// The check `<endpoint>.<probe>` sending this request.
    pub(crate) fn check(&self, e: &Endpoint, probe: &str, expect: Expect) -> Check {
        let mut path = String::new();
        for s in &e.path.segments {
            path.push('/');
            match s {
                Segment::Literal(l) => path.push_str(l),
                Segment::Param { param, .. } => path.push_str(&percent_encode(
                    &self.value(&e.param(*param).wire).unwrap_or_default(),
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
        Check {
            id: format!("{}.{probe}", e.id),
            endpoint: e.id.clone(),
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
