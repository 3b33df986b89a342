//! Recorded traffic as findings: a HAR 1.2 file (a browser's developer tools, another proxy,
//! `mrds-mock --proxy --har`) read exchange by exchange. Each request is routed by the one
//! router ([`mrds_runtime::route`]) over the spec's endpoints, judged by the spec
//! ([`mrds_spec::model::Endpoint::problems`], as the generated code judges it) and handed with its
//! answer to the recorder the proxy keeps ([`mrds_runtime::drift::Recorder`]) against the
//! spec's shapes: the findings are what the proxy would have found in the same traffic.

use mrds_runtime::drift::{Exchange, Finding, Judged, Recorder, Source};
use mrds_runtime::route::Routes;
use mrds_runtime::text::percent_decode;
use serde_json::Value;

use mrds_spec::model::{Api, Endpoint, ParamId};

/// Whether `text` is a HAR document (a JSON object with `log.entries`).
pub fn is_har(text: &str) -> bool {
    let start = text.trim_start();
    start.starts_with('{')
        && serde_json::from_str::<Value>(text).is_ok_and(|v| v["log"]["entries"].is_array())
}

/// The findings of the exchanges of a HAR document, read against `api`; entries of other
/// services (no base path in their URL) are left out.
pub fn findings(api: &Api, text: &str) -> Result<Vec<Finding>, String> {
    let doc: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let entries = doc["log"]["entries"]
        .as_array()
        .ok_or("no `log.entries`: not a HAR document")?;
    let shapes = mrds_spec::model::shapes::shapes(api);
    let endpoints = endpoints(api);
    let routes = Routes::new(endpoints);
    let recorder = Recorder::new(shapes, Source::Recorded);
    let base = api.base_path.as_str();
    let key_header = api.auth.header.to_ascii_lowercase();
    for entry in entries {
        let request = &entry["request"];
        let response = &entry["response"];
        let method = request["method"]
            .as_str()
            .unwrap_or("GET")
            .to_ascii_uppercase();
        let url = request["url"].as_str().unwrap_or_default();
        let Some((path, query)) = below_base(url, base) else {
            continue;
        };
        let keys: Vec<String> = (request["headers"].as_array().into_iter().flatten())
            .filter(|h| {
                h["name"]
                    .as_str()
                    .is_some_and(|n| n.eq_ignore_ascii_case(&key_header))
            })
            .filter_map(|h| h["value"].as_str().map(str::to_string))
            .filter(|k| !k.is_empty())
            .collect();
        let query: String = query
            .split('&')
            .filter(|p| !p.is_empty())
            .filter(|pair| {
                let value = percent_decode(pair.split_once('=').map_or("", |(_, v)| v));
                !keys.contains(&value) && value != "<redacted>"
            })
            .collect::<Vec<_>>()
            .join("&");
        let routed = routes.route_below(&method, &path);
        let endpoint = routed
            .endpoint()
            .and_then(|e| api.endpoints.iter().find(|m| m.id == e.id));
        let body = request["postData"]["text"].as_str();
        let judged = match endpoint {
            Some(e) if e.removed.is_none() => judge(api, e, &path, &query, body),
            _ => Judged::NotJudged,
        };
        let content = &response["content"];
        let text = content["text"].as_str().unwrap_or_default();
        let bytes = if content["encoding"].as_str() == Some("base64") {
            base64(text)
        } else {
            text.as_bytes().to_vec()
        };
        let coded = (response["headers"].as_array().into_iter().flatten()).any(|h| {
            h["name"]
                .as_str()
                .is_some_and(|n| n.eq_ignore_ascii_case("content-encoding"))
                && h["value"]
                    .as_str()
                    .is_some_and(|v| !v.eq_ignore_ascii_case("identity"))
                && content["encoding"].as_str() == Some("base64")
        });
        let status = u16::try_from(response["status"].as_u64().unwrap_or(0)).unwrap_or(0);
        let exchange = Exchange {
            endpoint: endpoint.map(|e| e.id.as_str()),
            method: &method,
            path: &path,
            query: &query,
            judged: &judged,
            status,
            body: &bytes,
            readable: !coded && method != "HEAD",
            keyed: !keys.is_empty(),
        };
        let scrub = |text: &str| {
            keys.iter()
                .filter(|k| k.len() >= 8)
                .fold(text.to_string(), |t, k| t.replace(k.as_str(), "<redacted>"))
        };
        if endpoint.is_some() || routed.endpoint().is_none() {
            recorder.exchange(&exchange, &scrub);
        }
    }
    Ok(recorder.findings())
}

/// The runtime's endpoint table of `api` (for the one router), leaked: built once a run.
fn endpoints(api: &Api) -> &'static [mrds_runtime::Endpoint] {
    let leak = |s: &str| -> &'static str { Box::leak(s.to_string().into_boxed_str()) };
    let table: Vec<mrds_runtime::Endpoint> = (api.endpoints.iter())
        .map(|e| mrds_runtime::Endpoint {
            id: leak(&e.id),
            method: e.method,
            path: leak(&e.path.to_string()),
            summary: "",
            auth: mrds_runtime::Auth::Required,
            removed: None,
            idempotent: e.idempotent,
        })
        .collect();
    table.leak()
}

/// The path below the base path and the query of a URL, when its path holds the base path
/// (`https://host/gw/api/v1/x?a=1` with `/api`: `/v1/x`, `a=1`).
fn below_base(url: &str, base: &str) -> Option<(String, String)> {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path_start = after_scheme.find('/')?;
    let target = &after_scheme[path_start..];
    let target = target.split('#').next().unwrap_or(target);
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let at = path.find(&format!("{base}/"))?;
    Some((path[at + base.len()..].to_string(), query.to_string()))
}

/// The spec's judgement of a request of `e` (its `path` below the base path, percent-encoded
/// as sent; its `query` as sent, without the key's pairs; its body's text), as the generated
/// server judges it ([`Endpoint::problems`], a parameter given twice, a body not of the
/// record's shape): accepted, refused naming the rules its problems name, or not judged (a
/// path segment or a body that does not read). What the recorder needs beside the answer; the
/// HAR reader and `cargo xtask watch` judge with it.
pub fn judge(api: &Api, e: &Endpoint, path: &str, query: &str, body: Option<&str>) -> Judged {
    let mut params: Vec<(ParamId, String)> = Vec::new();
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    for (s, given) in e.path.segments.iter().zip(&segments) {
        if let mrds_spec::model::Segment::Param { param, .. } = s {
            match mrds_runtime::text::decode_segment(given) {
                Some(v) => params.push((*param, v)),
                None => return Judged::NotJudged,
            }
        }
    }
    let mut repeated: Vec<String> = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, v) = pair.split_once('=').unwrap_or((pair, ""));
        if let Some(p) = e.param_named(&percent_decode(name)) {
            // A parameter that is not a list is given once (the generated parsing's
            // `repeated` check).
            let twice = p.list.is_none() && params.iter().any(|(id, _)| *id == p.id);
            let rule = format!("{}.{}.repeated", e.id, p.wire);
            if twice && !repeated.contains(&rule) {
                repeated.push(rule);
            }
            params.push((p.id, percent_decode(v)));
        }
    }
    if !repeated.is_empty() {
        return Judged::Refused(repeated);
    }
    let record = e.body.as_ref().map(|b| api.record(b.record));
    let json = match (record, body) {
        (Some(_), Some(text)) => match serde_json::from_str::<Value>(text) {
            Ok(v) => Some(v),
            Err(_) => return Judged::NotJudged,
        },
        (Some(_), None) => return Judged::NotJudged,
        _ => None,
    };
    // A body that is not of the record's shape is refused as the generated server refuses it,
    // under the body's rule, before any other check of the body.
    if let (Some(record), Some(json)) = (record, &json)
        && !mrds_probes::shape_problems(api, record.id, json, "body").is_empty()
    {
        return Judged::Refused(vec![e.body_rule()]);
    }
    let problems = e.problems(record, &params, json.as_ref());
    if problems.is_empty() {
        return Judged::Accepted;
    }
    let mut rules: Vec<String> = Vec::new();
    for p in problems {
        if !rules.contains(&p.rule) {
            rules.push(p.rule);
        }
    }
    Judged::Refused(rules)
}

/// The bytes of base64 text (standard alphabet, padding optional); what does not decode is
/// left out.
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for v in text.bytes().filter_map(value) {
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_read_below_the_base_path() {
        assert_eq!(
            below_base("https://h.example/gw/api/v1/x?a=1#f", "/api"),
            Some(("/v1/x".into(), "a=1".into()))
        );
        assert_eq!(below_base("http://h/api", "/api"), None);
        assert_eq!(below_base("http://h/other/v1", "/api"), None);
        assert_eq!(base64("eyJhIjoxfQ=="), br#"{"a":1}"#);
        assert!(is_har(r#"{"log": {"entries": []}}"#));
        assert!(!is_har("{\"source\":\"proxy\"}\n"));
    }
}
