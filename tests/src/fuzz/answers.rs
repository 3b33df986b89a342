//! What a server wrote on a connection, read back as HTTP/1.x answers, and the envelope an
//! error answer must hold.

use std::io::Read;

/// One answer read from a connection.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, Vec<u8>)>,
    /// The body as sent (before any content coding is undone); empty for an answer without
    /// one (to `HEAD`, 204, 304).
    pub body: Vec<u8>,
    /// The answer had a body (a `HEAD` answer announces one it does not send).
    pub has_body: bool,
}

impl Answer {
    /// The first header `name` (any case), as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .and_then(|(_, v)| std::str::from_utf8(v).ok())
    }

    /// The body with its content coding undone (gzip, the one the serving path applies).
    pub fn decoded_body(&self) -> Vec<u8> {
        match self.header("content-encoding") {
            Some(coding) if coding.eq_ignore_ascii_case("gzip") => {
                let mut out = Vec::new();
                if let Err(e) = flate2::read::GzDecoder::new(&self.body[..]).read_to_end(&mut out) {
                    panic!("a gzip body that does not decode ({e}): {:?}", self.body);
                }
                out
            }
            Some(coding) if !coding.eq_ignore_ascii_case("identity") => {
                panic!("an answer in a content coding nobody asked for: {coding}")
            }
            _ => self.body.clone(),
        }
    }

    /// Interim (1xx): another answer to the same request follows.
    pub fn is_interim(&self) -> bool {
        (100..200).contains(&self.status)
    }

    /// The answer says the connection closes after it.
    pub fn closes(&self) -> bool {
        self.header("connection")
            .is_some_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case("close")))
    }
}

/// Reads every answer in `bytes` (all a connection carried, to its close); panics when the
/// bytes are not a sequence of HTTP/1.x answers (an HTTP/1.0 request is answered in 1.0). A `Content-Length` answer followed at once by
/// the next status line, or by the end, is taken for an answer to `HEAD` (a body of this
/// server is JSON or gzip, and never starts with `HTTP/1.`).
pub fn read_all(bytes: &[u8]) -> Vec<Answer> {
    let mut answers = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let (answer, taken) = read_one(&bytes[at..]);
        answers.push(answer);
        at += taken;
    }
    answers
}

fn read_one(bytes: &[u8]) -> (Answer, usize) {
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut response = httparse::Response::new(&mut headers);
    let head = match response.parse(bytes) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => panic!("a partial answer head: {}", show(bytes)),
        Err(e) => panic!("not an HTTP answer ({e}): {}", show(bytes)),
    };
    assert!(
        matches!(response.version, Some(0 | 1)),
        "HTTP/1.x: {}",
        show(bytes)
    );
    let status = response.code.expect("a complete head has a status");
    let headers: Vec<(String, Vec<u8>)> = response
        .headers
        .iter()
        .map(|h| (h.name.to_ascii_lowercase(), h.value.to_vec()))
        .collect();
    let value = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
    };
    let rest = &bytes[head..];
    let mut answer = Answer {
        status,
        headers: headers.clone(),
        body: Vec::new(),
        has_body: false,
    };
    if (100..200).contains(&status) || status == 204 || status == 304 {
        return (answer, head);
    }
    if value("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        let (body, taken) = dechunk(rest);
        answer.body = body;
        answer.has_body = true;
        return (answer, head + taken);
    }
    let length: usize = match value("content-length") {
        Some(text) => text
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("a Content-Length `{text}`: {}", show(bytes))),
        None => {
            // Delimited by the close.
            answer.body = rest.to_vec();
            answer.has_body = true;
            return (answer, bytes.len());
        }
    };
    if length > 0 && (rest.is_empty() || rest.starts_with(b"HTTP/1.")) {
        return (answer, head);
    }
    assert!(
        rest.len() >= length,
        "an answer cut short: {length} bytes announced, {} sent: {}",
        rest.len(),
        show(bytes)
    );
    answer.body = rest[..length].to_vec();
    answer.has_body = true;
    (answer, head + length)
}

/// A chunked body, and the bytes it took (trailers included).
fn dechunk(bytes: &[u8]) -> (Vec<u8>, usize) {
    let mut body = Vec::new();
    let mut at = 0;
    loop {
        let line_end = find(&bytes[at..], b"\r\n")
            .unwrap_or_else(|| panic!("a chunk size without its line end: {}", show(bytes)));
        let line = std::str::from_utf8(&bytes[at..at + line_end]).expect("a chunk size is text");
        let size = line.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size, 16)
            .unwrap_or_else(|_| panic!("a chunk size `{line}`: {}", show(bytes)));
        at += line_end + 2;
        if size == 0 {
            // Trailers, up to an empty line.
            loop {
                let end = find(&bytes[at..], b"\r\n")
                    .unwrap_or_else(|| panic!("a chunked body without its end: {}", show(bytes)));
                at += end + 2;
                if end == 0 {
                    return (body, at);
                }
            }
        }
        assert!(
            bytes.len() >= at + size + 2,
            "a chunk cut short: {}",
            show(bytes)
        );
        body.extend_from_slice(&bytes[at..at + size]);
        assert_eq!(&bytes[at + size..at + size + 2], b"\r\n", "a chunk's end");
        at += size + 2;
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Up to 2 KB of `bytes`, escaped, for a failure's message.
pub fn show(bytes: &[u8]) -> String {
    let cut = &bytes[..bytes.len().min(2048)];
    format!("{:?}", String::from_utf8_lossy(cut))
}

/// The error envelope of an answer (already without its content coding): JSON,
/// `success: false`, a `request_id` (and the same `x-request-id`, when `header` is given), an
/// `error` object with a `code`.
pub fn assert_error_envelope(status: u16, body: &[u8], header: Option<&str>) {
    let json: serde_json::Value = serde_json::from_slice(body).unwrap_or_else(|e| {
        panic!(
            "the body of a {status} answer is not JSON ({e}): {}",
            show(body)
        )
    });
    assert_eq!(json["success"], false, "{status}: {json}");
    let Some(id) = json["request_id"].as_str() else {
        panic!("{status}: no request id: {json}");
    };
    if let Some(header) = header {
        assert_eq!(
            header, id,
            "{status}: the header and the body name one request id"
        );
    }
    assert!(
        json["error"]["code"].is_string(),
        "{status}: an error object with a code: {json}"
    );
}
