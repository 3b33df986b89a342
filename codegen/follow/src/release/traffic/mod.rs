//! The traffic of a drifted provider: the spec's example requests answered with the sample
//! records, changed as the provider changed its answers (a field missing, renamed, retyped, in
//! another format, a new field or value, a new error code), or the requests the provider now
//! refuses or accepts past a parameter's bound, or the requests of an endpoint the spec does
//! not have. Written as HAR entries, read back as recorded traffic is.

use serde_json::{Map, Value, json};

use mrds_spec::model::{Api, Endpoint, Method, Record};

use super::{Draw, Kind};

mod answers;
mod requests;

use answers::{
    field_added, field_optional, field_renamed, field_retyped, format_changed, value_added,
};
use requests::{bound, endpoint_with_path, error_code_added};

/// The key the drifted provider's requests carry (recorded traffic keeps it only redacted).
const KEY: &str = "release-provider-key";

/// A change of the records an endpoint answers with: record `i` of its samples changed.
type Transform = Box<dyn Fn(usize, &mut Map<String, Value>)>;

/// What a release's provider answers: the changes of each endpoint's records (every answer of
/// the endpoint shows all of them, as one provider's answers would), the requests answered
/// with those records or with a body of their own, and the exchanges of endpoints the spec
/// does not have.
#[derive(Default)]
pub(super) struct Traffic {
    transforms: Vec<(String, Transform)>,
    requests: Vec<Request>,
    entries: Vec<Value>,
}

/// A request of an endpoint of the spec: its target, the status, and the body answered.
pub(super) struct Request {
    endpoint: String,
    target: String,
    status: u16,
    body: Body,
}

pub(super) enum Body {
    /// The endpoint's records as the provider changed them, repeated to `n` when given.
    Records(Option<usize>),
    /// This body.
    Json(Value),
}

impl Traffic {
    pub(super) fn records(&mut self, endpoint: &str, transform: Transform) {
        self.transforms.push((endpoint.to_string(), transform));
    }

    pub(super) fn request(&mut self, endpoint: &str, target: String, status: u16, body: Body) {
        self.requests.push(Request {
            endpoint: endpoint.to_string(),
            target,
            status,
            body,
        });
    }

    /// The entries: each changed endpoint's example answered with its changed records, then
    /// the requests, then the other exchanges.
    pub(super) fn entries(self, api: &Api) -> Vec<Value> {
        let served = served(api);
        let records = |id: &str| -> Vec<Value> {
            let Some(s) = served.iter().find(|s| s.e.id == id) else {
                return Vec::new();
            };
            (s.records.iter().enumerate())
                .map(|(i, r)| {
                    let mut r = r.clone();
                    for (_, t) in self.transforms.iter().filter(|(e, _)| e == id) {
                        t(i, &mut r);
                    }
                    Value::Object(r)
                })
                .collect()
        };
        let mut out = Vec::new();
        let mut changed: Vec<&str> = Vec::new();
        for (e, _) in &self.transforms {
            if !changed.contains(&e.as_str()) {
                changed.push(e);
            }
        }
        for id in changed {
            if let Some(s) = served.iter().find(|s| s.e.id == id) {
                out.push(entry(api, "GET", s.example, 200, &envelope(records(id))));
            }
        }
        for r in &self.requests {
            let body = match &r.body {
                Body::Json(v) => v.clone(),
                Body::Records(n) => {
                    let all = records(&r.endpoint);
                    let n = n.unwrap_or(all.len());
                    envelope(all.iter().cycle().take(n).cloned().collect())
                }
            };
            out.push(entry(api, "GET", &r.target, r.status, &body));
        }
        out.extend(self.entries);
        out
    }
}

/// Adds `kind`'s change to `traffic` and says what it changed, or `None` when the spec has no
/// target.
pub(super) fn change(
    api: &Api,
    draw: &mut Draw,
    kind: Kind,
    traffic: &mut Traffic,
) -> Option<String> {
    match kind {
        Kind::FieldOptional => field_optional(api, draw, traffic),
        Kind::FieldAdded | Kind::NestedFieldAdded | Kind::ListFieldAdded => {
            field_added(api, draw, kind, traffic)
        }
        Kind::FieldRetyped => field_retyped(api, draw, traffic),
        Kind::FieldRenamed => field_renamed(api, draw, traffic),
        Kind::ValueAdded => value_added(api, draw, traffic),
        Kind::ErrorCodeAdded => error_code_added(api, draw, traffic),
        Kind::FormatChanged => format_changed(api, draw, traffic),
        Kind::BoundNarrowed | Kind::BoundWidened => bound(api, draw, kind, traffic),
        Kind::EndpointWithPath => endpoint_with_path(api, draw, traffic),
        _ => None,
    }
}

/// The HAR document of `entries`.
pub(super) fn har(entries: Vec<Value>) -> String {
    let doc = json!({
        "log": {
            "version": "1.2",
            "creator": { "name": "mrds-follow release", "version": "1" },
            "entries": entries,
        }
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

/// An endpoint of the spec the provider serves with records: a `GET` with a sample example
/// and the records of its first set that has some.
pub(super) struct Served<'a> {
    e: &'a Endpoint,
    record: &'a Record,
    example: &'a str,
    records: Vec<Map<String, Value>>,
}

pub(super) fn served(api: &Api) -> Vec<Served<'_>> {
    let error_records = [api.errors.object, api.errors.detail];
    (api.endpoints.iter())
        .filter(|e| e.removed.is_none() && e.method == Method::Get && e.body.is_none())
        .filter(|e| !error_records.contains(&e.returns))
        .filter_map(|e| {
            let samples = e.samples.as_ref()?;
            let records: Vec<Map<String, Value>> = (samples.sets.iter())
                .map(|set| serde_json::from_str::<Vec<Value>>(&set.records_json).ok())
                .find_map(|r| r.filter(|r| !r.is_empty()))?
                .into_iter()
                .filter_map(|r| match r {
                    Value::Object(m) => Some(m),
                    _ => None,
                })
                .collect();
            (!records.is_empty()).then_some(Served {
                e,
                record: api.record(e.returns),
                example: samples.example.as_str(),
                records,
            })
        })
        .collect()
}

/// An exchange: `method target` (below the base path) answered with `status` and `body`.
pub(super) fn entry(api: &Api, method: &str, target: &str, status: u16, body: &Value) -> Value {
    json!({
        "request": {
            "method": method,
            "url": format!("https://provider.example{}{}", api.base_path, target),
            "headers": [{ "name": api.auth.header, "value": KEY }],
        },
        "response": {
            "status": status,
            "headers": [{ "name": "Content-Type", "value": "application/json" }],
            "content": { "mimeType": "application/json", "text": body.to_string() },
        },
    })
}

/// The envelope of a successful answer holding `records`.
pub(super) fn envelope(records: Vec<Value>) -> Value {
    json!({ "success": true, "request_id": "release-answer", "data": records })
}
