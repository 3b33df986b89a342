//! `mock_body`: one request with a body to the sample server in process (the router
//! `MockServer` serves, behind its middleware of scenarios, `Prefer` and the journal, which
//! reads the start of every body), with, for every endpoint, a route that takes the
//! endpoint's parameters and one of its records as a JSON body (`POST /api/fuzz<path>`,
//! through the runtime's body reading: `Shared::handle_with_body`; the spec itself has no
//! endpoint with a body yet).
//!
//! Input: the endpoint byte; a byte choosing the method and where the request goes (the
//! route with a body, the endpoint's own route, a path of the input); a byte of headers (the
//! key: given, none, another, twice; the content type; a `Content-Length`, true or not; a
//! `Prefer` header); a byte of how the body comes (in pieces of 1 to 64 bytes, with waits
//! between them, ending in an error); the path parameters' values (separated by `0xFE`), the
//! query, the `Prefer` header's value (each up to `0xFF`); then the body.
//!
//! Properties: answering never panics; an answer other than 2xx and 304 to anything but
//! `HEAD` is the error envelope.

use std::fmt::Debug;
use std::marker::PhantomData;
use std::sync::OnceLock;
use std::time::Duration;

use mrds_model::records::ErrorObject;
use mrds_runtime::app::App;
use mrds_runtime::mock::{MockServer, SampleServer};
pub use mrds_runtime::server::Answer;
use mrds_runtime::server::{BodyLimit, Shared, StaticKeys, dispatch};
use mrds_runtime::{
    BodyRecord, Endpoint, Issues, Method, RawParams, Request, ValidationError, WithBody,
};
use mrds_server::axum::body::{Body, Bytes};
use mrds_server::axum::extract::Request as HttpRequest;
use mrds_server::axum::http::{self, HeaderValue};
use mrds_server::axum::{Extension, Router};
use tower::ServiceExt;

use super::answers::assert_error_envelope;
use super::{Input, endpoints};

/// The key the sample server accepts.
const KEY: &str = "fuzz-key-0123456789";

/// The body limit of the routes with a body (small, so that the fuzzer goes past it).
const BODY_LIMIT: usize = 2048;

pub fn mock_body(data: &[u8]) {
    let mut input = Input::new(data);
    let typed = endpoints::pick(input.byte());
    let how = input.byte();
    let headers = input.byte();
    let pieces = input.byte();
    let path_values = input.until(0xFF);
    let query = input.until(0xFF);
    let prefer = input.until(0xFF);
    let body = input.rest().to_vec();

    let method = match how % 8 {
        0..=3 => http::Method::POST,
        4 => http::Method::GET,
        5 => http::Method::HEAD,
        6 => http::Method::PUT,
        _ => http::Method::DELETE,
    };
    let mut values = path_values.split(|&b| b == 0xFE);
    let mut path = String::new();
    for segment in typed.endpoint.path.split('/').skip(1) {
        path.push('/');
        if segment.starts_with('{') {
            let value = values.next().unwrap_or_default();
            path.push_str(&mrds_runtime::text::percent_encode(
                &String::from_utf8_lossy(value),
            ));
        } else {
            path.push_str(segment);
        }
    }
    let path = match (how >> 3) % 4 {
        0 | 1 => format!("/api/fuzz{path}"),
        2 => format!("/api{path}"),
        _ => String::from_utf8_lossy(path_values).into_owned(),
    };
    let target = if query.is_empty() {
        path
    } else {
        format!("{path}?{}", String::from_utf8_lossy(query))
    };
    let mut request = http::Request::builder().method(method.clone()).uri(target);
    request = match headers % 4 {
        0 => request.header("x-api-key", KEY),
        1 => request,
        2 => request.header("x-api-key", "not-the-key"),
        _ => request.header("x-api-key", KEY).header("x-api-key", KEY),
    };
    request = match (headers >> 2) % 4 {
        0 => request.header("content-type", "application/json"),
        1 => request.header("content-type", "Application/JSON; charset=utf-8"),
        2 => request.header("content-type", "text/plain"),
        _ => request,
    };
    request = match (headers >> 4) % 4 {
        0 => request.header("content-length", body.len()),
        1 => request,
        2 => request.header("content-length", u64::from(pieces) * 64),
        _ => request.header("content-length", "not a length"),
    };
    if headers & 0x40 != 0
        && let Ok(value) = HeaderValue::from_bytes(prefer)
    {
        request = request.header("prefer", value);
    }
    // A request the HTTP layer could not have made (a target that is no URI) is not sent.
    let Ok(request) = request.body(body_of(body, pieces)) else {
        return;
    };
    super::block_on(async {
        let response = router()
            .oneshot(request)
            .await
            .unwrap_or_else(|e| match e {});
        let status = response.status().as_u16();
        let body = match http_body_util_collect(response.into_body()).await {
            Ok(body) => body,
            Err(e) => panic!("{status}: the answer's body failed: {e}"),
        };
        if method != http::Method::HEAD && !(200..300).contains(&status) && status != 304 {
            assert_error_envelope(status, &body, None);
        }
    });
}

/// Reads a whole body.
async fn http_body_util_collect(body: Body) -> Result<Vec<u8>, mrds_server::axum::Error> {
    let bytes = mrds_server::axum::body::to_bytes(body, usize::MAX).await?;
    Ok(bytes.to_vec())
}

/// `bytes` as a body that comes in pieces (`how`: their size, 1 to 64 bytes; a wait of a
/// second before each; an error after the last).
fn body_of(bytes: Vec<u8>, how: u8) -> Body {
    let size = usize::from(how & 0x3F) + 1;
    let wait = how & 0x40 != 0;
    let fail = how & 0x80 != 0;
    let mut pieces: Vec<Result<Bytes, std::io::Error>> = bytes
        .chunks(size)
        .map(|piece| Ok(Bytes::copy_from_slice(piece)))
        .collect();
    if fail {
        pieces.push(Err(std::io::Error::other("the connection broke")));
    }
    let stream = futures_util::stream::unfold(pieces.into_iter(), move |mut rest| async move {
        let next = rest.next()?;
        if wait {
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        Some((next, rest))
    });
    Body::from_stream(stream)
}

/// The sample server's router with the routes with a body, behind the middleware, made once
/// per thread.
fn router() -> Router {
    thread_local! {
        static ROUTER: Router = MockServer::<Fuzzed>::builder().api_key(KEY).router();
    }
    ROUTER.with(Router::clone)
}

/// The sample server of the spec, with the routes with a body.
struct Fuzzed;

impl SampleServer for Fuzzed {
    const APP: App = App {
        router: |serve_removed, keys| {
            // The routes with a body, routed as the generated router routes (405 in the
            // envelope for another method), below their own prefix.
            let posted = dispatch::<ErrorObject, _>("", posted_endpoints(), None, {
                |index: usize, request: HttpRequest| (endpoints::all()[index].post)(request)
            })
            .layer(Extension(BodyLimit(BODY_LIMIT)));
            Router::new()
                .nest("/api/fuzz", posted)
                .merge((mrds_mock::APP.router)(serve_removed, keys))
        },
        ..mrds_mock::APP
    };
}

/// Every endpoint of the spec taking its parameters and a body (`POST`), in the order of
/// [`endpoints::all`].
fn posted_endpoints() -> &'static [Endpoint] {
    static POSTED: OnceLock<Vec<Endpoint>> = OnceLock::new();
    POSTED.get_or_init(|| {
        (endpoints::all().iter())
            .map(|typed| Endpoint {
                method: Method::Post,
                removed: None,
                ..*typed.endpoint
            })
            .collect()
    })
}

/// `POST /api/fuzz<path>` of `P`'s endpoint: its parameters, and one of its records as the
/// body, answered with the record (as JSON: a record type need not be `Send`, which an
/// answer's future must be).
pub(super) fn handle<P: Request + Clone + Debug + Send + Sync + 'static>(
    request: HttpRequest,
) -> Answer {
    /// The pipeline's state of every route with a body, made once.
    static SHARED: OnceLock<Shared<(), StaticKeys>> = OnceLock::new();
    let shared = SHARED
        .get_or_init(|| Shared::new((), StaticKeys::new([KEY]), mrds_model::api::AUTH_HEADER));
    Box::pin(async move {
        let call = |_, _: Posted<P>, body: Record<P::Record>| async move {
            Ok::<_, mrds_runtime::server::ServerError<ErrorObject>>(vec![body.json])
        };
        shared
            .handle_with_body::<Posted<P>, ErrorObject, _, _>(request, call)
            .await
    })
}

/// An endpoint's parameters, taking a body.
#[derive(Clone, Debug)]
pub(super) struct Posted<P>(P);

impl<P: Request> Request for Posted<P> {
    type Record = serde_json::Value;
    const ENDPOINT: &'static mrds_runtime::Endpoint = P::ENDPOINT;
    fn validate(&self) -> Result<(), ValidationError> {
        self.0.validate()
    }
    fn to_query(&self) -> Vec<(&'static str, String)> {
        self.0.to_query()
    }
    fn path(&self) -> String {
        self.0.path()
    }
    fn from_raw(raw: &RawParams) -> Result<Self, ValidationError> {
        P::from_raw(raw).map(Posted)
    }
}

impl<P: Request> WithBody for Posted<P> {
    type Body = Record<P::Record>;
    const BODY_RULE: &'static str = "fuzz.body";
    fn validate_body(&self, _: &Self::Body) -> Result<(), ValidationError> {
        Ok(())
    }
}

/// A body that is one record of type `T` (its shape checked as it is read), kept as JSON.
pub(super) struct Record<T> {
    json: serde_json::Value,
    shape: PhantomData<fn() -> T>,
}

impl<'de, T: serde::de::DeserializeOwned + serde::Serialize> serde::Deserialize<'de> for Record<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let record = T::deserialize(deserializer)?;
        let json = serde_json::to_value(&record).map_err(serde::de::Error::custom)?;
        Ok(Self {
            json,
            shape: PhantomData,
        })
    }
}

impl<T> serde::Serialize for Record<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(serializer)
    }
}

impl<T: serde::de::DeserializeOwned + serde::Serialize> BodyRecord for Record<T> {
    fn check(&self, _: &mut Issues) {}
}
