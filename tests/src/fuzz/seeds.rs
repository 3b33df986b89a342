//! The fuzz targets' seed corpora and dictionaries, made from the project's own sources:
//! `fuzz/seed.sh` writes them (`fuzz/corpus/<target>/seed-*`, `fuzz/dict/*.dict`). Every seed
//! is in its target's input format (see each target's module), so the spec's samples, its
//! files, the broken-spec corpus, the contract suite's probes (requests on each side of every
//! rule) and the hostile requests of the serving tests reach the targets as they would come.

use std::collections::{BTreeMap, BTreeSet};

use mrds_probes::{Key, Removed};
use mrds_runtime::server::{RequestId, StaticKeys};
use mrds_server::axum::Router;
use mrds_server::axum::body::Body;
use mrds_server::axum::http;
use tower::ServiceExt;

use super::endpoints;

/// One seed: its target, its file name (`seed-<what>`), its bytes.
pub struct Seed {
    pub target: &'static str,
    pub name: String,
    pub bytes: Vec<u8>,
}

/// The dictionaries, by file name (`yaml.dict`: the spec format; `http.dict`: requests;
/// `query.dict`: parameters; `json.dict`: answers), as libFuzzer reads them: one quoted token
/// a line.
pub fn dictionaries() -> Vec<(&'static str, String)> {
    let api = crate::real_spec();
    let mut yaml: BTreeSet<String> = [
        "---", "...", "- ", ": ", "? ", "{", "}", "[", "]", ", ", "&a ", "*a", "<<: ", "!!str ",
        "!!map", "|\n", ">-\n", "'", "\"", "# ", "~", "null", "true", "false", "\n  ", "\n- ",
        "\\u0000", "\t",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let schema: serde_json::Value =
        serde_json::from_str(&mrds_emit::schema::text()).expect("the schema is JSON");
    schema_words(&schema, &mut yaml);

    let mut query: BTreeSet<String> = ["&", "=", "%", "%25", "+", "%00", "%FF", "-", "0", "-1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for e in &api.endpoints {
        for p in &e.params {
            query.insert(format!("{}=", p.wire));
            if let mrds_spec::model::ValueType::Enum(set) = &p.ty {
                query.extend(set.values.iter().cloned());
            }
        }
    }
    query.extend(
        [
            "9223372036854775807",
            "-9223372036854775808",
            "1793491200",
            "2026-07-01T00:00:00Z",
            "2026-07-01",
            "00000000-0000-0000-0000-000000000000",
            "0123456789abcdef",
        ]
        .iter()
        .map(|s| s.to_string()),
    );

    let mut http: BTreeSet<String> = [
        "GET ",
        "HEAD ",
        "POST ",
        "OPTIONS ",
        "CONNECT ",
        " HTTP/1.1\r\n",
        " HTTP/1.0\r\n",
        "\r\n",
        "\r\n\r\n",
        "\n\n",
        "Host: x\r\n",
        "Content-Length: ",
        "Transfer-Encoding: chunked\r\n",
        "Connection: close\r\n",
        "Connection: keep-alive\r\n",
        "Expect: 100-continue\r\n",
        "Accept-Encoding: gzip\r\n",
        "Content-Type: application/json\r\n",
        "Prefer: ",
        "code=429",
        "delay=",
        "retry-after=",
        "x-request-id: ",
        "0\r\n\r\n",
        " chunked",
        "/api",
        "/api/openapi.json",
        "/api/fuzz",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    http.insert(format!("{}: ", mrds_model::api::AUTH_HEADER));
    http.insert(super::server::KEY.to_string());
    for e in mrds_model::api::ENDPOINTS {
        http.insert(e.path.to_string());
    }
    http.extend(query.iter().cloned());

    let shapes = mrds_model::api::PROTOCOL.shapes;
    let mut json: BTreeSet<String> = [
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "\"",
        "null",
        "true",
        "false",
        "0",
        "-1",
        "1.5e3",
        "1e400",
        "\\u0000",
        "\\ud800",
        "{\"success\":true,\"request_id\":\"r\",\"data\":[",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for record in std::iter::once(&shapes.envelope).chain(shapes.records) {
        json.extend(record.fields.iter().map(|f| format!("\"{}\":", f.name)));
    }
    for set in shapes.value_sets {
        json.extend(set.values.iter().map(|v| format!("\"{v}\"")));
    }

    let lines = |words: BTreeSet<String>| -> String {
        words
            .iter()
            .map(|w| format!("\"{}\"\n", escape(w.as_bytes())))
            .collect()
    };
    vec![
        ("yaml.dict", lines(yaml)),
        ("query.dict", lines(query)),
        ("http.dict", lines(http)),
        ("json.dict", lines(json)),
    ]
}

/// Keys and spellings of the spec format's JSON Schema.
fn schema_words(value: &serde_json::Value, out: &mut BTreeSet<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, value) in map {
                if key == "properties"
                    && let Some(properties) = value.as_object()
                {
                    out.extend(properties.keys().map(|k| format!("{k}: ")));
                }
                if key == "enum"
                    && let Some(values) = value.as_array()
                {
                    out.extend(values.iter().filter_map(|v| v.as_str().map(str::to_string)));
                }
                schema_words(value, out);
            }
        }
        serde_json::Value::Array(values) => values.iter().for_each(|v| schema_words(v, out)),
        _ => {}
    }
}

/// A dictionary entry's escapes: `\\`, `\"` and `\xNN` for anything not printable ASCII.
fn escape(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            0x20..=0x7e => out.push(char::from(b)),
            _ => out.push_str(&format!("\\x{b:02X}")),
        }
    }
    out
}

/// Every seed.
pub fn all() -> Vec<Seed> {
    let mut seeds = Vec::new();
    spec_loader(&mut seeds);
    let answers = super::block_on(sample_answers());
    requests(&mut seeds);
    decoding(&mut seeds, &answers);
    seeds
}

fn seed(target: &'static str, name: impl Into<String>, bytes: Vec<u8>) -> Seed {
    Seed {
        target,
        name: format!("seed-{}", name.into()),
        bytes,
    }
}

/// `spec_loader`: the base's files as they are, each file of `spec/` and of the fixtures added
/// to it, and the files each broken-spec case writes.
fn spec_loader(seeds: &mut Vec<Seed>) {
    let root = crate::workspace_root();
    let with = |which: u8, text: &str| {
        let mut bytes = vec![which];
        bytes.extend_from_slice(text.as_bytes());
        bytes
    };
    let base_dir = root.join("tests/broken/_valid_base");
    let base = mrds_spec::load::read_dir(&base_dir).expect("the base is readable");
    let index: BTreeMap<String, u8> = base
        .iter()
        .enumerate()
        .map(|(i, (name, _))| {
            let file = name.rsplit('/').next().unwrap_or(name).to_string();
            (file, u8::try_from(i).expect("three files"))
        })
        .collect();
    for (name, text) in &base {
        let file = name.rsplit('/').next().unwrap_or(name);
        seeds.push(seed(
            "spec_loader",
            format!("base-{file}"),
            with(index[file], text),
        ));
    }
    for dir in ["spec", "tests/fixtures"] {
        let files = mrds_spec::load::read_dir(&root.join(dir)).expect("readable");
        for (name, text) in files {
            let name = name.replace('/', "-");
            seeds.push(seed("spec_loader", format!("added-{name}"), with(3, &text)));
        }
    }
    let bases: BTreeMap<String, String> = base
        .iter()
        .map(|(name, text)| {
            let file = name.rsplit('/').next().unwrap_or(name).to_string();
            let body = text.split_once('\n').map_or(text.as_str(), |(_, b)| b);
            (file, body.to_string())
        })
        .collect();
    let mut cases: Vec<_> = std::fs::read_dir(root.join("tests/broken"))
        .expect("tests/broken is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    cases.sort();
    for case in cases {
        let Ok(source) = std::fs::read_to_string(&case) else {
            continue;
        };
        let Ok(raw) = mrds_spec::yaml::from_str::<Vec<crate::overlay::RawStep>>(&source) else {
            continue;
        };
        let Ok(steps) = crate::overlay::parse_steps(raw) else {
            continue;
        };
        let mut files = bases.clone();
        let Ok(written) = crate::overlay::apply(&mut files, &steps) else {
            continue;
        };
        let stem = case.file_stem().unwrap_or_default().to_string_lossy();
        for file in written {
            let which = index.get(&file).copied().unwrap_or(3);
            let name = format!("broken-{stem}-{}", file.trim_end_matches(".yaml"));
            seeds.push(seed("spec_loader", name, with(which, &files[&file])));
        }
    }
}

/// An answer of the sample server: endpoint, status, body.
struct Sampled {
    endpoint: &'static str,
    what: &'static str,
    status: u16,
    body: Vec<u8>,
}

/// The sample server's answers to each example request, and to it with values refused.
async fn sample_answers() -> Vec<Sampled> {
    let router = mrds_mock::router(StaticKeys::new([super::server::KEY]));
    let mut out = Vec::new();
    for example in mrds_mock::EXAMPLES {
        let target = format!("{}{}", mrds_model::api::BASE_PATH, example.request);
        let broken = format!("{target}&limit=-1&limit=x");
        for (what, target) in [("ok", &target), ("refused", &broken)] {
            let (status, body) = get(&router, target).await;
            out.push(Sampled {
                endpoint: example.endpoint,
                what,
                status,
                body,
            });
        }
    }
    out
}

async fn get(router: &Router, target: &str) -> (u16, Vec<u8>) {
    let mut request = http::Request::get(target)
        .header(mrds_model::api::AUTH_HEADER, super::server::KEY)
        .body(Body::empty())
        .expect("a valid request");
    // A fixed request id, so that the seeds are the same every time they are made.
    let id = RequestId(format!("req_{}", "0".repeat(32)));
    request.extensions_mut().insert(id);
    let response = router
        .clone()
        .oneshot(request)
        .await
        .unwrap_or_else(|e| match e {});
    let status = response.status().as_u16();
    let body = mrds_server::axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("a body");
    (status, body.to_vec())
}

/// The byte that picks `endpoint` in the targets that read one.
fn endpoint_byte(endpoint: &str) -> u8 {
    let at = endpoints::all()
        .iter()
        .position(|t| t.endpoint.id == endpoint)
        .expect("an endpoint of the table");
    u8::try_from(at).expect("fewer than 256 endpoints")
}

/// `params` and `server`: the example requests, and a sample of the contract suite's probes
/// (every eighth: requests on each side of every check and rule).
fn requests(seeds: &mut Vec<Seed>) {
    let api = crate::real_spec();
    let probes = mrds_probes::derive(api, Removed::Served);
    // (name, endpoint, path, query pairs, key)
    type Sent = (String, &'static str, String, Vec<(String, String)>, Key);
    let mut requests: Vec<Sent> = Vec::new();
    for example in mrds_mock::EXAMPLES {
        let (path, query) = example
            .request
            .split_once('?')
            .unwrap_or((example.request, ""));
        let pairs = mrds_runtime::RawParams::from_query_string(query)
            .query_pairs()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        requests.push((
            format!("example-{}", example.endpoint),
            example.endpoint,
            path.to_string(),
            pairs,
            Key::Valid,
        ));
    }
    for probe in probes.iter().step_by(8) {
        let Some(typed) = endpoints::all()
            .iter()
            .find(|t| t.endpoint.id == probe.endpoint)
        else {
            continue;
        };
        requests.push((
            format!("probe-{}", probe.id),
            typed.endpoint.id,
            probe.request.path.clone(),
            probe.request.query.clone(),
            probe.request.key,
        ));
    }
    let mut pipelined = vec![0u8];
    for (name, endpoint, path, pairs, key) in &requests {
        let typed = endpoints::all()
            .iter()
            .find(|t| t.endpoint.id == *endpoint)
            .expect("an endpoint of the table");
        let query: Vec<String> = pairs
            .iter()
            .map(|(n, v)| {
                let e = mrds_runtime::text::percent_encode;
                format!("{}={}", e(n), e(v))
            })
            .collect();
        let query = query.join("&");
        let values: Vec<Vec<u8>> = endpoints::path_params(typed.endpoint.path, path)
            .unwrap_or_default()
            .into_iter()
            .map(|(_, v)| v.into_bytes())
            .collect();

        let mut bytes = vec![endpoint_byte(endpoint)];
        bytes.extend_from_slice(&values.join(&0xFE));
        bytes.push(0xFF);
        bytes.extend_from_slice(query.as_bytes());
        seeds.push(seed("params", name.clone(), bytes));

        let target = if query.is_empty() {
            format!("/api{path}")
        } else {
            format!("/api{path}?{query}")
        };
        let key = match key {
            Key::Valid => format!("X-API-Key: {}\r\n", super::server::KEY),
            Key::Missing => String::new(),
            Key::Wrong => "X-API-Key: wrong\r\n".to_string(),
        };
        let head = format!("GET {target} HTTP/1.1\r\nHost: x\r\n{key}\r\n");
        if name.starts_with("example-") {
            let mut bytes = vec![0u8];
            bytes.extend_from_slice(head.as_bytes());
            seeds.push(seed("server", name.clone(), bytes));
            pipelined.extend_from_slice(head.as_bytes());
        }
    }
    seeds.push(seed("server", "pipelined-examples", pipelined));
    hostile(seeds);
}

/// `server`: the serving tests' hostile requests (tests/it/server_refusals.rs), raw, and
/// framed requests whose bodies hold requests.
fn hostile(seeds: &mut Vec<Seed>) {
    let key = super::server::KEY;
    let get = format!(
        "GET /api/v1/macro/treasury-rates?start_time=1793491200&end_time=1795996800 HTTP/1.1\r\nHost: x\r\nX-API-Key: {key}\r\n\r\n"
    );
    let raw: Vec<(&str, Vec<u8>)> = vec![
        ("raw-ff-in-target", b"GET /api/v1/\xffx HTTP/1.1\r\nHost: x\r\n\r\n".to_vec()),
        ("raw-nul-in-target", b"GET /api/v1/\x00x HTTP/1.1\r\nHost: x\r\n\r\n".to_vec()),
        ("raw-obs-fold", b"GET /api/v1/x HTTP/1.1\r\nHost: x\r\nX-F: a\r\n b\r\n\r\n".to_vec()),
        (
            "raw-two-lengths",
            b"GET /api/v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"
                .to_vec(),
        ),
        ("raw-http2", b"GET /api/v1/x HTTP/2.0\r\nHost: x\r\n\r\n".to_vec()),
        ("raw-bad-method", b"G(T /api/v1/x HTTP/1.1\r\nHost: x\r\n\r\n".to_vec()),
        (
            "raw-gzip-te",
            b"GET /api/v1/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n".to_vec(),
        ),
        (
            "raw-body-holding-a-request",
            format!(
                "GET /api/v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{get}{get}",
                get.len()
            )
            .into_bytes(),
        ),
        (
            "raw-chunked-body",
            format!(
                "POST /api/v1/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n{get}"
            )
            .into_bytes(),
        ),
        (
            "raw-head-and-gzip",
            format!(
                "HEAD /api/v1/macro/treasury-rates HTTP/1.1\r\nHost: x\r\nX-API-Key: {key}\r\n\r\n\
                 GET /api/openapi.json HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n"
            )
            .into_bytes(),
        ),
        (
            "raw-expect-continue",
            format!(
                "POST /api/v1/x HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n{{}}{get}"
            )
            .into_bytes(),
        ),
        ("raw-long-line", format!("GET /api/v1/x?p={} HTTP/1.1\r\n\r\n", "a".repeat(17000)).into_bytes()),
    ];
    for (name, bytes) in raw {
        let mut input = vec![0u8];
        input.extend_from_slice(&bytes);
        seeds.push(seed("server", name, input));
    }
    let framed = |requests: &[(&str, &str, &[&str], &[u8])]| {
        let mut bytes = vec![1u8];
        for (n, (method, target, headers, body)) in requests.iter().enumerate() {
            if n > 0 {
                bytes.push(0xFF);
            }
            bytes.extend_from_slice(method.as_bytes());
            bytes.push(0xFE);
            bytes.extend_from_slice(target.as_bytes());
            bytes.push(0xFE);
            for (i, line) in headers.iter().enumerate() {
                if i > 0 {
                    bytes.push(0xFD);
                }
                bytes.extend_from_slice(line.as_bytes());
            }
            bytes.push(0xFE);
            bytes.extend_from_slice(body);
        }
        bytes
    };
    let treasury = "/api/v1/macro/treasury-rates?start_time=1793491200&end_time=1795996800";
    seeds.push(seed(
        "server",
        "framed-body-holding-requests",
        framed(&[
            (
                "POST",
                treasury,
                &["Content-Type: application/json"],
                get.as_bytes(),
            ),
            ("GET", treasury, &[], get.as_bytes()),
            ("HEAD", treasury, &[], b""),
            ("GET", "/api/openapi.json", &["Accept-Encoding: gzip"], b""),
        ]),
    ));
    seeds.push(seed(
        "server",
        "framed-close-and-expect",
        framed(&[
            ("GET", treasury, &["Expect: 100-continue"], b"{}"),
            ("GET", "/api/v1/nothing", &["Connection: close"], b""),
            ("GET", treasury, &[], b""),
        ]),
    ));
}

/// `client_decode`, `proxy_check` and `mock_body`: the sample server's answers (each as it
/// came, and drifted: a field the spec does not declare, a value outside its set), and each
/// record posted back.
fn decoding(seeds: &mut Vec<Seed>, answers: &[Sampled]) {
    for answer in answers {
        let byte = endpoint_byte(answer.endpoint);
        let name = format!("{}-{}", answer.endpoint, answer.what);
        let mut bodies = vec![(name.clone(), answer.body.clone())];
        if answer.what == "ok"
            && let Ok(mut json) = serde_json::from_slice::<serde_json::Value>(&answer.body)
        {
            json["trace"] = serde_json::json!({"id": 7});
            if let Some(first) = json["data"].get_mut(0).and_then(|r| r.as_object_mut()) {
                first.insert("zz_undeclared".into(), serde_json::json!([1, "x"]));
                for value in first.values_mut() {
                    if value.is_string() {
                        *value = serde_json::json!("NOT_A_KNOWN_VALUE");
                        break;
                    }
                }
            }
            bodies.push((format!("{name}-drifted"), json.to_string().into_bytes()));
        }
        for (name, body) in bodies {
            let mut bytes = vec![byte];
            bytes.extend_from_slice(&(answer.status - 100).to_be_bytes());
            bytes.extend_from_slice(&body);
            seeds.push(seed("client_decode", name.clone(), bytes));

            let mut bytes = vec![byte];
            bytes.extend_from_slice(&(answer.status - 100).to_be_bytes());
            bytes.extend_from_slice(b"limit=-1&limit=x");
            bytes.push(0xFF);
            bytes.extend_from_slice(&body);
            seeds.push(seed("proxy_check", name, bytes));
        }
        if answer.what == "ok"
            && let Ok(json) = serde_json::from_slice::<serde_json::Value>(&answer.body)
            && let Some(record) = json["data"].get(0)
        {
            let example = mrds_mock::EXAMPLES
                .iter()
                .find(|e| e.endpoint == answer.endpoint)
                .expect("an example of the endpoint");
            let (path, query) = example
                .request
                .split_once('?')
                .unwrap_or((example.request, ""));
            let typed = &endpoints::all()[usize::from(byte)];
            let values: Vec<Vec<u8>> = endpoints::path_params(typed.endpoint.path, path)
                .unwrap_or_default()
                .into_iter()
                .map(|(_, v)| v.into_bytes())
                .collect();
            for (what, how, headers, prefer) in [
                ("posted-in-pieces", 0u8, 0u8, ""),
                ("posted-text-prefer-429", 0, 0x48, "code=429, retry-after=3"),
                ("get-with-body", 4 | 2 << 3, 0x40, "delay=100"),
            ] {
                let mut bytes = vec![
                    byte,
                    how,
                    headers,
                    if what.ends_with("pieces") { 0x47 } else { 0x3F },
                ];
                bytes.extend_from_slice(&values.join(&0xFE));
                bytes.push(0xFF);
                bytes.extend_from_slice(query.as_bytes());
                bytes.push(0xFF);
                bytes.extend_from_slice(prefer.as_bytes());
                bytes.push(0xFF);
                bytes.extend_from_slice(record.to_string().as_bytes());
                seeds.push(seed(
                    "mock_body",
                    format!("{}-{what}", answer.endpoint),
                    bytes,
                ));
            }
        }
    }
}
