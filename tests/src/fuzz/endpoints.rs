//! Every endpoint of the generated model, with what the targets do to its parameter type,
//! collected once with `mrds_model::api::visit_requests` (never a list of this module's).

use std::fmt::Debug;
use std::sync::OnceLock;

use mrds_model::api::{RequestVisitor, visit_requests};
use mrds_runtime::{Endpoint, Request};
use mrds_server::axum::extract::Request as HttpRequest;

use super::mock_body::Answer;

/// One endpoint: its table entry and the targets' code instantiated for its parameter type.
pub struct Typed {
    pub endpoint: &'static Endpoint,
    /// [`super::params`]'s checks of one request (query and path parameters).
    pub params: fn(&mrds_runtime::RawParams),
    /// Of those, the generator judging a request as the server does.
    pub judged: fn(&mrds_runtime::RawParams),
    /// Of those, a request encoded and decoded.
    pub read_back: fn(&mrds_runtime::RawParams),
    /// Of those, the client and the server agreeing on every rule.
    pub agreed: fn(&mrds_runtime::RawParams),
    /// An answer the spec describes, decoded and encoded ([`super::records`]).
    pub records: fn(&serde_json::Value),
    /// [`super::client_decode`]'s checks of one answer.
    pub decode: fn(u16, &[u8]),
    /// The generated server's judgement of a request: `from_raw`.
    pub from_raw: fn(&mrds_runtime::RawParams) -> Result<(), mrds_runtime::ValidationError>,
    /// [`super::mock_body`]'s handler of the endpoint's parameters with a body.
    pub post: fn(HttpRequest) -> Answer,
}

/// Every endpoint, in the order of `mrds_model::api::ENDPOINTS`.
pub fn all() -> &'static [Typed] {
    static ALL: OnceLock<Vec<Typed>> = OnceLock::new();
    ALL.get_or_init(|| {
        struct Collect(Vec<Typed>);
        impl RequestVisitor for Collect {
            fn visit<P>(&mut self)
            where
                P: Request + Clone + Debug + Send + Sync + 'static,
            {
                self.0.push(Typed {
                    endpoint: P::ENDPOINT,
                    params: super::params::check::<P>,
                    judged: super::params::judged::<P>,
                    read_back: super::params::read_back::<P>,
                    agreed: super::params::agreed::<P>,
                    records: super::records::round_trip::<P>,
                    decode: super::client_decode::check::<P>,
                    from_raw: |raw| P::from_raw(raw).map(drop),
                    post: super::mock_body::handle::<P>,
                });
            }
        }
        let mut all = Collect(Vec::new());
        visit_requests(&mut all);
        assert!(!all.0.is_empty(), "the spec has endpoints");
        all.0
    })
}

/// The endpoint a byte of the input picks.
pub fn pick(byte: u8) -> &'static Typed {
    let all = all();
    &all[usize::from(byte) % all.len()]
}

/// The path parameters' names of `template` (`/v1/persons/{person_id}/commentary`), in order.
pub fn path_names(template: &'static str) -> Vec<&'static str> {
    template
        .split('/')
        .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'))
        .collect()
}

/// The path parameters of `path` (percent-encoded, below the base path) read back against
/// `template`, decoded as the server decodes them; `None` when the path does not fill the
/// template.
pub fn path_params(template: &'static str, path: &str) -> Option<Vec<(&'static str, String)>> {
    let (mut given, mut params) = (path.split('/'), Vec::new());
    for expected in template.split('/') {
        let segment = given.next()?;
        match expected.strip_prefix('{').and_then(|e| e.strip_suffix('}')) {
            Some(name) => params.push((name, percent_decode_path(segment)?)),
            None if segment != expected => return None,
            None => {}
        }
    }
    given.next().is_none().then_some(params)
}

/// A path segment decoded as axum's router decodes it (escapes only, `+` kept; `None` when
/// the bytes are not UTF-8).
fn percent_decode_path(segment: &str) -> Option<String> {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}
