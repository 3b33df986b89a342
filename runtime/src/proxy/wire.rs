//! What passes between the caller, the proxy and the service: the service's URL, the path
//! parameters of a request, the headers forwarded each way, and the answer returned.

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::Response;

/// Request headers that concern one connection (RFC 9110 §7.6.1), and those the proxy sets
/// itself (`host` from the service's URL, `content-length` from the body it sends,
/// `accept-encoding`: it asks for answers it can read).
pub(super) const NOT_FORWARDED: [&str; 13] = [
    "host",
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authorization",
    "proxy-authenticate",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "expect",
    "content-length",
    "accept-encoding",
];

/// Answer headers that concern one connection; `content-length` is the serving path's to
/// write (it may compress the answer).
pub(super) const NOT_RETURNED: [&str; 9] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "content-length",
];

/// The service's root the request path is appended to, and the root as shown (with the base
/// path), from its URL: `http` or `https`, a host, no credentials, no query; the base path
/// appended when missing.
pub(super) fn provider_root(url: &str, base_path: &str) -> Result<(String, String), String> {
    let uri: Uri = url
        .trim()
        .parse()
        .map_err(|e| format!("`{}` is not a URL ({e})", url.trim()))?;
    let scheme = match uri.scheme_str() {
        Some(scheme @ ("http" | "https")) => scheme,
        _ => return Err("it must start with http:// or https://".to_string()),
    };
    let Some(authority) = uri.authority().filter(|a| !a.host().is_empty()) else {
        return Err("it names no host".to_string());
    };
    if authority.as_str().contains('@') {
        return Err(
            "it holds credentials; the caller's key travels in its header, the URL needs none"
                .to_string(),
        );
    }
    if uri.query().is_some() {
        return Err("it has a query; give the service's root".to_string());
    }
    let path = uri.path().trim_end_matches('/');
    let prefix = path.strip_suffix(base_path).unwrap_or(path);
    let root = format!("{scheme}://{authority}{prefix}");
    let shown = format!("{root}{base_path}");
    Ok((root, shown))
}

/// The request headers the service gets: all but those of one connection (and those the
/// `Connection` header names), and `Accept-Encoding: identity`.
pub(super) fn forwarded_headers(headers: &HeaderMap) -> HeaderMap {
    let named: Vec<String> = headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|name| name.trim().to_ascii_lowercase())
        .collect();
    let mut out = HeaderMap::with_capacity(headers.len() + 1);
    for (name, value) in headers {
        let name_text = name.as_str();
        if NOT_FORWARDED.contains(&name_text) || named.iter().any(|n| n == name_text) {
            continue;
        }
        out.append(name.clone(), value.clone());
    }
    out.insert(
        header::ACCEPT_ENCODING,
        HeaderValue::from_static("identity"),
    );
    out
}

/// `status` with an empty body and no envelope.
pub(super) fn bare(status: u16) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
    response
}

/// The service's answer as the caller gets it: its status, its headers but those of one
/// connection (a `HEAD`'s `Content-Length` kept: it describes the `GET`'s body), its body.
pub(super) fn answer_of(
    method: &Method,
    head: axum::http::response::Parts,
    body: Bytes,
) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = head.status;
    let headers = response.headers_mut();
    for (name, value) in &head.headers {
        let keep_length = name == header::CONTENT_LENGTH && method == Method::HEAD;
        if NOT_RETURNED.contains(&name.as_str()) && !keep_length {
            continue;
        }
        headers.append(HeaderName::clone(name), value.clone());
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_service_root_takes_the_base_path_when_missing() {
        let root = |url: &str| provider_root(url, "/api");
        assert_eq!(
            root("https://svc.example"),
            Ok((
                "https://svc.example".into(),
                "https://svc.example/api".into()
            ))
        );
        assert_eq!(
            root("https://svc.example/api/"),
            Ok((
                "https://svc.example".into(),
                "https://svc.example/api".into()
            ))
        );
        assert_eq!(
            root("http://127.0.0.1:9/gw"),
            Ok((
                "http://127.0.0.1:9/gw".into(),
                "http://127.0.0.1:9/gw/api".into()
            ))
        );
        for bad in [
            "svc.example",
            "ftp://svc.example",
            "https://user:pw@svc.example",
            "https://svc.example/?x=1",
            "",
        ] {
            assert!(root(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn connection_headers_stay_and_answers_are_asked_for_uncoded() {
        let mut headers = HeaderMap::new();
        headers.insert("x-api-key", HeaderValue::from_static("k"));
        headers.insert("host", HeaderValue::from_static("proxy"));
        headers.insert("connection", HeaderValue::from_static("keep-alive, x-hop"));
        headers.insert("x-hop", HeaderValue::from_static("1"));
        headers.insert("accept-encoding", HeaderValue::from_static("gzip"));
        headers.append("accept", HeaderValue::from_static("application/json"));
        let out = forwarded_headers(&headers);
        let names: Vec<&str> = out.keys().map(HeaderName::as_str).collect();
        assert_eq!(names, ["x-api-key", "accept", "accept-encoding"]);
        assert_eq!(out["accept-encoding"], "identity");
        assert_eq!(out["x-api-key"], "k");
    }
}
