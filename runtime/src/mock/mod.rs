//! The sample-data server (feature `mock`): how a request selects from an endpoint's sample
//! records, and the server in process for tests ([`MockServer`]): scenarios set from Rust
//! ([`Scenario`]: any status, a body, a delay, a reset; matched by query parameter, path
//! parameter or body field; with expectations checked when the server is dropped), the
//! `Prefer` request header and the admin API (`/__admin/...`, for clients in any language and
//! the command line), and a journal of what was received and how it was answered
//! ([`ReceivedRequest`]); feature `cli`, the command line that serves them (`run`); and,
//! feature `proxy`, the checking proxy (`Proxy`): in front of the real service, it checks
//! requests and answers against the spec.

mod admin;
#[cfg(feature = "cli")]
mod cli;
mod control;
mod engine;
mod expectation;
mod journal;
mod judge;
mod plans;
mod prefer;
#[cfg(feature = "proxy")]
mod proxy;
mod scenario;
mod server;

#[cfg(feature = "cli")]
pub use cli::{LogFormat, run};
pub use control::ErrorAnswers;
pub use expectation::Expectation;
pub use journal::{AnsweredBy, JOURNAL_BODY_BYTES, KeySent, Outcome, REDACTED, ReceivedRequest};
pub use judge::{Judgement, RequestCheck};
pub use plans::{Unmet, UnmetExpectations};
pub use prefer::MAX_PREFER_DELAY;
#[cfg(feature = "proxy")]
pub use proxy::{
    DEFAULT_MAX_ANSWER_BYTES, DEFAULT_PROVIDER_TIMEOUT, KindCount, Proxy, ProxyBuilder, ProxyError,
    Summary,
};
pub use scenario::{Scenario, ScenarioError};
pub use server::{DEFAULT_JOURNAL_CAPACITY, MockServer, MockServerBuilder, SampleServer};

/// What the generated sample-data crate tells the command line.
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
pub use engine::{FieldChoice, Given, Order, Range, Samples, Set, answer, select};

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
