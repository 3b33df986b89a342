//! A raw HTTP/1.1 client for the server tests: requests written by hand, so the exact bytes
//! reach the server, and answers read with their head, so every header can be checked.

use std::net::SocketAddr;

use futures_util::future::LocalBoxFuture;
use mrds_client::Client;
use mrds_model::api::RequestVisitor;
use mrds_model::{Envelope, ErrorCode, ErrorObject, RawParams, Request};
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One HTTP answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    /// The first header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "body is not JSON ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    /// The error envelope: status, JSON, code, a fresh request id in the body and the
    /// header, and `data` repeating the error object.
    pub fn error(&self, status: u16, code: ErrorCode) -> ErrorObject {
        assert_eq!(
            self.status,
            status,
            "{}",
            String::from_utf8_lossy(&self.body)
        );
        assert_eq!(self.header("content-type"), Some("application/json"));
        let envelope: Envelope<ErrorObject> = serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&self.body)));
        assert!(!envelope.success);
        assert_request_id(&envelope.request_id);
        assert_eq!(
            Some(envelope.request_id.as_str()),
            self.header("x-request-id")
        );
        let error = envelope.error.expect("error is filled in");
        assert_eq!(error.code, code);
        assert_eq!(
            envelope.data,
            vec![error.clone()],
            "data repeats the error object"
        );
        error
    }

    /// The records of a successful envelope.
    pub fn records<T: DeserializeOwned>(&self) -> Vec<T> {
        assert_eq!(self.status, 200, "{}", String::from_utf8_lossy(&self.body));
        let envelope: Envelope<T> = serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "does not decode ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        });
        assert!(envelope.success);
        assert!(envelope.error.is_none());
        assert_request_id(&envelope.request_id);
        assert_eq!(
            Some(envelope.request_id.as_str()),
            self.header("x-request-id")
        );
        envelope.data
    }
}

/// `req_` and 32 lowercase hex digits.
pub fn assert_request_id(id: &str) {
    let hex = id.strip_prefix("req_").unwrap_or_else(|| panic!("{id}"));
    assert_eq!(hex.len(), 32, "{id}");
    assert!(
        hex.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
        "{id}"
    );
}

/// Writes one request (`Connection: close`) and reads the whole answer.
pub async fn send(
    addr: SocketAddr,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
) -> Answer {
    send_body(addr, method, target, headers, &[]).await
}

/// [`send`] with `body` (sent with its `Content-Length` when not empty).
pub async fn send_body(
    addr: SocketAddr,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Answer {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let mut request = format!("{method} {target} HTTP/1.1\r\nHost: {addr}\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    if !body.is_empty() {
        request.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    request.push_str("Connection: close\r\n\r\n");
    let mut bytes = request.into_bytes();
    bytes.extend_from_slice(body);
    stream.write_all(&bytes).await.unwrap();
    // Read to the end; a server that refuses a request may reset the connection after its
    // answer (unread request bytes), so an error ends the answer too.
    let mut raw = Vec::new();
    let mut chunk = [0u8; 16384];
    while let Ok(n @ 1..) = stream.read(&mut chunk).await {
        raw.extend_from_slice(&chunk[..n]);
    }
    parse(&raw).0
}

/// The sample server's example request of endpoint `id` (its method, target and body).
pub fn example(id: &str) -> &'static mrds_mock::Example {
    mrds_mock::EXAMPLES
        .iter()
        .find(|x| x.endpoint == id)
        .unwrap_or_else(|| panic!("no sample example for {id}"))
}

/// The target of `endpoint`'s sample example: the base path, the path and the query.
pub fn target(endpoint: &mrds_model::api::Endpoint) -> String {
    format!("{}{}", mrds_mock::BASE_PATH, example(endpoint.id).request)
}

/// A client of the sample server `server` whose retries wait at most a few milliseconds.
pub fn client(server: &mrds_mock::MockServer, retries: u32) -> Client {
    Client::builder(server.base_url())
        .api_key(server.api_key())
        .retry(mrds_client::RetryPolicy {
            max_retries: retries,
            initial_backoff: std::time::Duration::from_millis(1),
            max_backoff: std::time::Duration::from_millis(5),
            ..mrds_client::RetryPolicy::default()
        })
        .build()
        .unwrap()
}

/// The first endpoint the sample server serves, taken from the model
/// (`mrds_tests::served_endpoints`): what the tests of its machinery (scenarios, the journal,
/// the admin API) stand on, so that a removal in `spec/` moves them on.
pub fn first() -> &'static mrds_model::api::Endpoint {
    mrds_tests::served_endpoints()[0]
}

/// The second endpoint the sample server serves (see [`first`]).
pub fn second() -> &'static mrds_model::api::Endpoint {
    mrds_tests::served_endpoints()[1]
}

/// The parameters of the sample server's example request of `P`'s endpoint.
pub fn example_params<P: Request>() -> P {
    let id = P::ENDPOINT.id;
    let target = example(id).request;
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut raw = RawParams::from_query_string(query);
    for (template, value) in P::ENDPOINT.path.split('/').zip(path.split('/')) {
        if let Some(name) = template.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
            raw = raw.with_path(name, value);
        }
    }
    P::from_raw(&raw).unwrap_or_else(|e| panic!("example of {id} is invalid: {e}"))
}

/// One call of endpoint `id`'s sample request through `client`'s typed path (the endpoint's
/// parameter type, found by `mrds_model::api::visit_requests`): its number of records, or the
/// error.
pub async fn call_example(client: &Client, id: &str) -> Result<usize, mrds_client::Error> {
    struct Find<'a> {
        id: &'a str,
        client: Client,
        call: Option<LocalBoxFuture<'static, Result<usize, mrds_client::Error>>>,
    }
    impl RequestVisitor for Find<'_> {
        fn visit<P>(&mut self)
        where
            P: Request + Clone + std::fmt::Debug + Send + Sync + 'static,
        {
            if P::ENDPOINT.id == self.id {
                let client = self.client.clone();
                let params = example_params::<P>();
                let call = async move { client.send(&params).await.map(|p| p.data.len()) };
                self.call = Some(Box::pin(call));
            }
        }
    }
    let mut find = Find {
        id,
        client: client.clone(),
        call: None,
    };
    mrds_model::api::visit_requests(&mut find);
    let call = find.call.unwrap_or_else(|| panic!("no endpoint {id}"));
    call.await
}

/// Sends `example` below `base` (`/api`) with `key` in `X-API-Key` when given: its method,
/// and its body as JSON when it has one.
pub async fn call(
    addr: SocketAddr,
    base: &str,
    example: &mrds_mock::Example,
    key: Option<&str>,
) -> Answer {
    let target = format!("{base}{}", example.request);
    let mut headers: Vec<(&str, &str)> = key.map(|k| ("X-API-Key", k)).into_iter().collect();
    if example.body.is_some() {
        headers.push(("Content-Type", "application/json"));
    }
    let body = example.body.unwrap_or_default().as_bytes();
    send_body(addr, example.method.as_str(), &target, &headers, body).await
}

/// `GET target` with `key` in `X-API-Key` when given.
pub async fn get(addr: SocketAddr, target: &str, key: Option<&str>) -> Answer {
    match key {
        Some(key) => send(addr, "GET", target, &[("X-API-Key", key)]).await,
        None => send(addr, "GET", target, &[]).await,
    }
}

/// Parses one answer at the start of `raw` (its body by `Content-Length`, chunked, or the
/// rest); returns it and the bytes it took.
pub fn parse(raw: &[u8]) -> (Answer, usize) {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no complete head in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8(raw[..split].to_vec()).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(": "))
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    let start = split + 4;
    let chunked = headers
        .iter()
        .any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v == "chunked");
    let (body, end) = if chunked {
        let (body, taken) = dechunk(&raw[start..]);
        (body, start + taken)
    } else {
        let end = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
            .map_or(raw.len(), |(_, v)| start + v.parse::<usize>().unwrap());
        (raw[start..end].to_vec(), end)
    };
    let answer = Answer {
        status,
        headers,
        body,
    };
    (answer, end)
}

/// A chunked body and the bytes it took.
fn dechunk(raw: &[u8]) -> (Vec<u8>, usize) {
    let mut body = Vec::new();
    let mut at = 0;
    loop {
        let line = raw[at..]
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("a chunk size line");
        let size = std::str::from_utf8(&raw[at..at + line]).unwrap();
        let size = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16).unwrap();
        at += line + 2;
        if size == 0 {
            return (body, at + 2);
        }
        body.extend_from_slice(&raw[at..at + size]);
        at += size + 2;
    }
}

/// Reads one answer of a kept-alive connection.
pub async fn read_answer(stream: &mut TcpStream) -> Answer {
    let mut raw = Vec::new();
    let mut chunk = [0u8; 16384];
    loop {
        let n = stream.read(&mut chunk).await.unwrap();
        assert!(n > 0, "closed before a complete answer");
        raw.extend_from_slice(&chunk[..n]);
        if let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let (answer, end) = parse(&raw);
            if end <= raw.len() && end > split {
                return answer;
            }
        }
    }
}
