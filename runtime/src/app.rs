//! What a generated sample-data crate tells the runtime of its spec ([`App`], its `APP`): the
//! command's name, the protocol, the endpoints, a request its sample data answers
//! ([`Example`]), the spec's error answers ([`ErrorAnswers`]), how the spec judges each
//! endpoint's requests ([`RequestCheck`]) and the router of its sample data. The sample
//! server (`mock`: its command line and the server in process) and the checking proxy
//! (`proxy`) are made from it.
//!
//! [`RequestCheck`]: crate::judge::RequestCheck

use axum::http::{HeaderValue, header};
use axum::response::Response;

use crate::judge::RequestCheck;
use crate::server::{ServerError, answer_error};
use crate::{ErrorBody, ErrorKind};

/// What the generated sample-data crate tells the runtime of its spec: what the sample
/// server's command line (`mock::run`), the server in process and the
/// checking proxy are made from.
#[derive(Clone, Copy)]
pub struct App {
    /// The command's name (`mrds-mock`).
    pub name: &'static str,
    /// One line saying what it serves.
    pub about: &'static str,
    /// Base path and key header.
    pub protocol: crate::Protocol,
    /// The key accepted when none is given on the command line.
    pub demo_key: &'static str,
    /// A request the sample data answers.
    pub example: Example,
    /// The router serving the sample data with `keys`; removed endpoints answer with
    /// their sample data when `serve_removed`, 410 otherwise.
    pub router: fn(serve_removed: bool, keys: crate::server::StaticKeys) -> axum::Router,
    /// Every endpoint of the spec: scenarios and the `Prefer` header apply to requests of
    /// them, and the journal names them.
    pub endpoints: &'static [crate::Endpoint],
    /// The spec's error answers, for the statuses scenarios and `Prefer: code=` ask for.
    pub errors: ErrorAnswers,
    /// How the spec judges the requests of each endpoint (the parameter types' checks): what
    /// the checking proxy (`--proxy`) compares with the service's answers.
    pub requests: fn() -> Vec<RequestCheck>,
}

/// A request of one endpoint that its sample data answers: what the spec's samples give as
/// `example` (and `example_body`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    /// The endpoint id.
    pub endpoint: &'static str,
    /// The HTTP method.
    pub method: crate::Method,
    /// The path below the base path, and the query.
    pub request: &'static str,
    /// The JSON body, for an endpoint that takes one.
    pub body: Option<&'static str>,
}

impl Example {
    /// A `curl` command sending this request to the service root `root` (scheme, host and
    /// base path), with the key header `header: key` when a key is given.
    pub fn curl(&self, root: &str, header: &str, key: Option<&str>) -> String {
        let mut out = String::from("curl");
        if self.method != crate::Method::Get {
            out.push_str(&format!(" -X {}", self.method));
        }
        if let Some(key) = key {
            out.push_str(&format!(" -H \"{header}: {key}\""));
        }
        if let Some(body) = self.body {
            out.push_str(&format!(
                " -H 'Content-Type: application/json' --data '{}'",
                body.replace('\'', "'\\''")
            ));
        }
        out.push_str(&format!(" '{root}{}'", self.request));
        out
    }
}

/// The spec's error answers, for the statuses scenarios and `Prefer: code=` ask for; made for
/// the spec's error object with [`ErrorAnswers::of`].
#[derive(Clone, Copy)]
pub struct ErrorAnswers {
    statuses: fn() -> Vec<(u16, String)>,
    status: fn(u16, String, String, Option<u64>) -> Option<Response>,
    invalid_parameter: fn(&str, &str, String, String, String) -> Response,
}

impl std::fmt::Debug for ErrorAnswers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries((self.statuses)()).finish()
    }
}

impl ErrorAnswers {
    /// The answers with the error object `E` (the spec's), whose codes are
    /// [`ErrorBody::codes`].
    pub const fn of<E: ErrorBody>() -> Self {
        Self {
            statuses: statuses::<E>,
            status: status_answer::<E>,
            invalid_parameter: invalid_parameter::<E>,
        }
    }

    /// Each status the spec's codes have, with its code (`429 RATE_LIMITED`), in the spec's
    /// order, a status once.
    pub fn statuses(&self) -> Vec<String> {
        (self.statuses)()
            .into_iter()
            .map(|(status, code)| format!("{status} {code}"))
            .collect()
    }

    /// `status` with the spec's error object of the first code answered with it, `message`,
    /// `hint` and `Retry-After: retry_after` when given; `None` when no code of the spec has
    /// the status.
    pub(crate) fn answer(
        &self,
        status: u16,
        message: String,
        hint: String,
        retry_after: Option<u64>,
    ) -> Option<Response> {
        (self.status)(status, message, hint, retry_after)
    }

    /// 400 `INVALID_PARAMETER` saying `message`, with one detail (the `field`, what it `got`
    /// and the `reason` it is refused) and `hint`.
    pub(crate) fn invalid_parameter(
        &self,
        message: &str,
        field: &str,
        (got, reason): (String, String),
        hint: String,
    ) -> Response {
        (self.invalid_parameter)(message, field, got, reason, hint)
    }

    /// Whether a code of the spec has `status`.
    pub(crate) fn has(&self, status: u16) -> bool {
        (self.statuses)().iter().any(|(s, _)| *s == status)
    }
}

/// The statuses of `E`'s codes, the first code of each.
fn statuses<E: ErrorBody>() -> Vec<(u16, String)> {
    let mut out: Vec<(u16, String)> = Vec::new();
    for code in E::codes() {
        let Some(status) = E::from_code(code.clone(), String::new()).http_status() else {
            continue;
        };
        if !out.iter().any(|(s, _)| *s == status) {
            out.push((status, code.to_string()));
        }
    }
    out
}

/// `status` with the error object of the first of `E`'s codes answered with it, `message`,
/// `hint` and `Retry-After`; `None` when no code has the status.
fn status_answer<E: ErrorBody>(
    status: u16,
    message: String,
    hint: String,
    retry_after: Option<u64>,
) -> Option<Response> {
    let code = E::codes()
        .iter()
        .find(|code| E::from_code((*code).clone(), String::new()).http_status() == Some(status))?;
    let mut error = ServerError::<E>::new(code.clone(), message).with_hint(hint);
    if let Some(seconds) = retry_after {
        error = error.with_header(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    Some(answer_error(&error))
}

/// 400 `INVALID_PARAMETER` with `E`'s error object saying `message`, one detail (`field`,
/// `got`, `reason`) and `hint`.
fn invalid_parameter<E: ErrorBody>(
    message: &str,
    field: &str,
    got: String,
    reason: String,
    hint: String,
) -> Response {
    let mut object = E::from_kind(ErrorKind::InvalidParameter, message.to_string());
    object.push_detail(field.to_string(), got, reason);
    let error = ServerError::from_object(object).with_hint(hint);
    answer_error(&error)
}

#[cfg(test)]
mod tests {
    use super::Example;

    #[test]
    fn an_example_is_repeated_with_its_method_and_body() {
        let get = Example {
            endpoint: "a",
            method: crate::Method::Get,
            request: "/v1/a?x=1&y=2",
            body: None,
        };
        assert_eq!(
            get.curl("http://h/api", "X-API-Key", Some("k")),
            "curl -H \"X-API-Key: k\" 'http://h/api/v1/a?x=1&y=2'"
        );
        let post = Example {
            method: crate::Method::Post,
            body: Some(r#"{"note":"it's"}"#),
            ..get
        };
        assert_eq!(
            post.curl("http://h/api", "X-API-Key", None),
            "curl -X POST -H 'Content-Type: application/json' --data '{\"note\":\"it'\\''s\"}' 'http://h/api/v1/a?x=1&y=2'"
        );
        let delete = Example {
            method: crate::Method::Delete,
            ..get
        };
        assert_eq!(
            delete.curl("http://h/api", "X-API-Key", None),
            "curl -X DELETE 'http://h/api/v1/a?x=1&y=2'"
        );
    }
}
