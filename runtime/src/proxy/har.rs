//! The proxy's record of traffic as HAR 1.2 (`--har FILE`): one entry per exchange with the
//! service, as browsers' developer tools and other proxies write them, so the traffic can be
//! read by any tool that reads HAR (and `cargo xtask drift`, which reads it back as
//! findings). Credentials are redacted: the key header, `Authorization`, `Cookie` and
//! `Proxy-Authorization` sent, `Set-Cookie` answered, a query value that is the key; the
//! key's text anywhere else (a URL, a body) is replaced as in the findings.
//!
//! The file is valid HAR after every entry: each is written before the closing `]}}`, which is
//! written again after it, so a proxy stopped at any moment leaves a file that reads.
//!
//! Public, as [`HarFile`] and [`HarEntry`], for the other tool that talks to the service
//! and records what it saw: `cargo xtask watch` (the `mrds-watch` package) writes its HAR
//! file with this writer, so both redact alike.

use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use axum::http::{HeaderMap, Method, header};
use serde_json::{Value, json};

use crate::redact::REDACTED;

/// What closes the entries and the document.
const TRAILER: &[u8] = b"\n]}}\n";

/// Headers whose values are credentials, whatever the service's key header is.
const CREDENTIALS: [&str; 4] = [
    "authorization",
    "cookie",
    "proxy-authorization",
    "set-cookie",
];

/// A HAR 1.2 file being written, an entry per exchange, credentials redacted (see the
/// module).
#[derive(Debug)]
pub struct HarFile {
    path: PathBuf,
    state: Mutex<HarState>,
}

#[derive(Debug)]
struct HarState {
    file: File,
    entries: u64,
}

/// One exchange, as its HAR entry records it ([`HarFile::record`]).
#[derive(Clone, Copy, Debug)]
pub struct HarEntry<'a> {
    /// When the request was sent.
    pub started: SystemTime,
    /// How long the answer took, in milliseconds.
    pub millis: f64,
    /// The request's method.
    pub method: &'a Method,
    /// The service's URL of the request (its root, path and query).
    pub url: &'a str,
    /// The request's query, as sent (percent-encoded).
    pub query: &'a str,
    /// The request's headers (the key header, credentials: redacted when written).
    pub request_headers: &'a HeaderMap,
    /// The request's body (empty: none).
    pub request_body: &'a [u8],
    /// The answer's status.
    pub status: u16,
    /// The answer's headers.
    pub response_headers: &'a HeaderMap,
    /// The answer's body, as it came.
    pub response_body: &'a [u8],
    /// The name of the key header.
    pub key_header: &'a str,
}

impl HarFile {
    /// Creates (or truncates) the file at `path` with no entry; `creator` names the tool in
    /// the document's `log.creator`.
    pub fn create(path: &Path, creator: &str) -> io::Result<Self> {
        let mut file = File::create(path)?;
        let head = json!({
            "version": "1.2",
            "creator": { "name": creator, "version": env!("CARGO_PKG_VERSION") },
        });
        let mut text = head.to_string();
        // `{"creator":...,"version":"1.2"` then the entries.
        text.pop();
        text.push_str(",\"entries\":[");
        file.write_all(format!("{{\"log\":{text}").as_bytes())?;
        file.write_all(TRAILER)?;
        file.flush()?;
        Ok(Self {
            path: path.to_path_buf(),
            state: Mutex::new(HarState { file, entries: 0 }),
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Adds the entry of one exchange; `scrub` replaces the key's text in a text (the URL,
    /// header values, bodies; a query value it changes is redacted whole).
    pub fn record(&self, r: &HarEntry<'_>, scrub: &dyn Fn(&str) -> String) -> io::Result<()> {
        let entry = entry(r, scrub);
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let separator = if state.entries == 0 { "\n" } else { ",\n" };
        let file = &mut state.file;
        file.seek(SeekFrom::End(-(TRAILER.len() as i64)))?;
        file.write_all(separator.as_bytes())?;
        file.write_all(entry.to_string().as_bytes())?;
        file.write_all(TRAILER)?;
        file.flush()?;
        state.entries += 1;
        Ok(())
    }
}

/// The HAR entry of an exchange.
fn entry(r: &HarEntry<'_>, scrub: &dyn Fn(&str) -> String) -> Value {
    let headers = |map: &HeaderMap| -> Vec<Value> {
        map.iter()
            .map(|(name, value)| {
                let secret = CREDENTIALS.contains(&name.as_str())
                    || name.as_str().eq_ignore_ascii_case(r.key_header);
                let value = if secret {
                    REDACTED.to_string()
                } else {
                    scrub(&String::from_utf8_lossy(value.as_bytes()))
                };
                json!({ "name": name.as_str(), "value": value })
            })
            .collect()
    };
    let query: Vec<Value> = (r.query.split('&').filter(|p| !p.is_empty()))
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let decoded = crate::text::percent_decode(value);
            let value = if scrub(&decoded) != decoded {
                REDACTED.to_string()
            } else {
                decoded
            };
            json!({ "name": crate::text::percent_decode(name), "value": value })
        })
        .collect();
    let mime = |map: &HeaderMap| {
        map.get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("application/octet-stream")
            .to_string()
    };
    let mut request = json!({
        "method": r.method.as_str(),
        "url": scrub(r.url),
        "httpVersion": "HTTP/1.1",
        "cookies": [],
        "headers": headers(r.request_headers),
        "queryString": query,
        "headersSize": -1,
        "bodySize": r.request_body.len(),
    });
    if !r.request_body.is_empty() {
        request["postData"] = json!({
            "mimeType": mime(r.request_headers),
            "text": scrub(&String::from_utf8_lossy(r.request_body)),
        });
    }
    let text = String::from_utf8_lossy(r.response_body);
    json!({
        "startedDateTime": rfc3339_millis(r.started),
        "time": r.millis,
        "request": request,
        "response": {
            "status": r.status,
            "statusText": axum::http::StatusCode::from_u16(r.status)
                .ok()
                .and_then(|s| s.canonical_reason())
                .unwrap_or(""),
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": headers(r.response_headers),
            "content": {
                "size": r.response_body.len(),
                "mimeType": mime(r.response_headers),
                "text": scrub(&text),
            },
            "redirectURL": "",
            "headersSize": -1,
            "bodySize": r.response_body.len(),
        },
        "cache": {},
        "timings": { "send": 0, "wait": r.millis, "receive": 0 },
    })
}

/// `2026-11-16T10:00:00.250Z`.
fn rfc3339_millis(at: SystemTime) -> String {
    let since = at
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    let seconds = since.as_secs() as i64;
    let days = seconds.div_euclid(86_400);
    let s = seconds.rem_euclid(86_400);
    let (y, m, d) = crate::text::civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        s / 3600,
        s / 60 % 60,
        s % 60,
        since.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn every_entry_leaves_a_file_that_reads_without_credentials() {
        let dir = std::env::temp_dir().join(format!("mrds-har-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.har");
        let har = HarFile::create(&path, "mrds-mock").unwrap();
        let read =
            || serde_json::from_str::<Value>(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(read()["log"]["entries"], json!([]));
        let mut sent = HeaderMap::new();
        sent.insert("x-api-key", HeaderValue::from_static("secret-key-1234"));
        sent.insert("cookie", HeaderValue::from_static("session=1"));
        sent.insert("accept", HeaderValue::from_static("application/json"));
        let mut answered = HeaderMap::new();
        answered.insert("content-type", HeaderValue::from_static("application/json"));
        let scrub = |t: &str| t.replace("secret-key-1234", REDACTED);
        for i in 0..2 {
            let body = format!(r#"{{"success":true,"data":[{{"n":{i}}}]}}"#);
            let recorded = HarEntry {
                started: SystemTime::UNIX_EPOCH
                    + std::time::Duration::from_millis(1_795_996_800_250),
                millis: 1.5,
                method: &Method::GET,
                url: "http://svc/api/v1/rows?a=1&key=secret-key-1234",
                query: "a=1&key=secret-key-1234",
                request_headers: &sent,
                request_body: b"",
                status: 200,
                response_headers: &answered,
                response_body: body.as_bytes(),
                key_header: "X-API-Key",
            };
            har.record(&recorded, &scrub).unwrap();
        }
        let doc = read();
        let entries = doc["log"]["entries"].as_array().unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(doc["log"]["version"], "1.2");
        let e = &entries[1];
        assert_eq!(e["startedDateTime"], "2026-11-30T00:00:00.250Z");
        assert_eq!(
            e["response"]["content"]["text"],
            r#"{"success":true,"data":[{"n":1}]}"#
        );
        assert_eq!(e["request"]["queryString"][1]["value"], REDACTED);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains("secret-key-1234") && !text.contains("session=1"),
            "{text}"
        );
        assert_eq!(har.path(), path);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
