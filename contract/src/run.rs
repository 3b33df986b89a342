//! Running the suite: every selected check sent to the server in order, and its answer
//! judged.

use std::time::Duration;

use bytes::Bytes;
use mrds_probes::{Key, Probe};
use mrds_runtime::client::RawClient;
use mrds_spec::model::Api;

use crate::options::{Options, selected};
use crate::outcome::{Outcome, Verdict};

/// Bytes of a body kept in a report.
const BODY_PREFIX: usize = 400;

/// The service root: the base path appended unless the URL's path ends with it.
pub(crate) fn root(base_url: &str, base_path: &str) -> String {
    let trimmed = base_url.trim_end_matches('/');
    if trimmed.ends_with(base_path) {
        trimmed.to_string()
    } else {
        format!("{trimmed}{base_path}")
    }
}

/// Runs every selected check, in order, and returns what each found. Once an endpoint answers
/// 501 `NOT_IMPLEMENTED`, its remaining checks are not sent.
pub async fn run(api: &Api, options: &Options) -> Result<Vec<Outcome>, String> {
    let client = RawClient::new().map_err(|e| format!("cannot build the HTTP client: {e}"))?;
    let root = root(&options.base_url, &api.base_path);
    let pause = options
        .rate
        .filter(|r| *r > 0.0)
        .map(|r| Duration::from_secs_f64(1.0 / r));
    let mut out: Vec<Outcome> = Vec::new();
    for check in selected(api, options) {
        let skipped = out
            .iter()
            .any(|o| o.endpoint == check.endpoint && o.verdict == Verdict::NotImplemented);
        if skipped {
            continue;
        }
        if let (Some(pause), false) = (pause, out.is_empty()) {
            tokio::time::sleep(pause).await;
        }
        out.push(send(&client, api, &root, &check, options).await);
    }
    Ok(out)
}

/// Sends one check and judges the answer (the key and the timeout from `options`).
async fn send(
    client: &RawClient,
    api: &Api,
    root: &str,
    check: &Probe,
    options: &Options,
) -> Outcome {
    let url = format!("{root}{}", check.request.target());
    let mut request = http::Request::builder()
        .uri(&url)
        .method(http::Method::from(check.request.method));
    let mut body = Bytes::new();
    if let Some(sent) = &check.request.body {
        // A server may answer before it reads a body (413, 415, 401) and leave the rest of
        // it unread on the connection; the next check goes over a connection of its own
        // rather than after bytes the server may read as a request.
        request = request
            .header(http::header::CONTENT_TYPE, sent.content_type)
            .header(http::header::CONNECTION, "close");
        body = Bytes::from(sent.text.clone());
    }
    match (check.request.key, options.api_key.as_deref()) {
        (Key::Valid, Some(key)) => request = request.header(api.auth.header.as_str(), key),
        (Key::Wrong, _) => {
            request = request.header(api.auth.header.as_str(), mrds_probes::WRONG_KEY)
        }
        _ => {}
    }
    let mut outcome = Outcome {
        id: check.id.clone(),
        endpoint: check.endpoint.clone(),
        method: check.request.method,
        url,
        key: check.request.key,
        sent: check.request.body.clone(),
        status: None,
        body: String::new(),
        verdict: Verdict::Passed,
    };
    let answer = match request.body(body) {
        Ok(request) => client
            .send(request, options.timeout)
            .await
            .map_err(|e| format!("no answer: {e}")),
        Err(e) => Err(format!("the request cannot be made: {e}")),
    };
    outcome.verdict = match answer {
        Err(why) => Verdict::Failed(why),
        Ok(response) => {
            let status = response.status().as_u16();
            let body = response.into_body();
            let prefix = &body[..body.len().min(BODY_PREFIX)];
            outcome.body = String::from_utf8_lossy(prefix).into_owned();
            outcome.status = Some(status);
            if mrds_probes::not_implemented(status, &body) {
                Verdict::NotImplemented
            } else {
                match mrds_probes::judge(api, check, status, &body) {
                    Ok(()) => Verdict::Passed,
                    Err(why) => Verdict::Failed(why),
                }
            }
        }
    };
    outcome
}
