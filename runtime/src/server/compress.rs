//! gzip of large answers for the clients that accept it (feature `compression`), or, without
//! the feature, a stand-in that is never made: the serving path (`serve.rs`) names one set of
//! types either way, and a build that compresses nothing (a test serving the sample data in
//! process) compiles no compression library.

use axum::body::Body;
use axum::http::Response;

#[cfg(feature = "compression")]
pub(crate) use on::*;

#[cfg(not(feature = "compression"))]
pub(crate) use off::*;

#[cfg(feature = "compression")]
mod on {
    use super::*;
    use axum::Router;
    use tower_http::compression::predicate::{And, NotForContentType, Predicate, SizeAbove};
    use tower_http::compression::{
        Compression, CompressionBody, CompressionLayer, CompressionLevel,
    };

    /// When to compress: large answers, and none of the kinds that are compressed already or
    /// streamed.
    pub(crate) type When =
        And<And<And<SizeAbove, NotForContentType>, NotForContentType>, NotForContentType>;

    /// The router behind the compression layer.
    pub(crate) type Compressed = Compression<Router, When>;

    /// The body of an answer through the compression layer.
    pub(crate) type CompressedBody = CompressionBody<Body>;

    /// The router behind the compression layer, for answers of at least `min_bytes` (the size
    /// first: `And` stops at the first no, and most answers are small), with the rule of what
    /// it compresses.
    pub(crate) fn layer(router: &Router, min_bytes: u16) -> Option<(Compressed, When)> {
        let when = SizeAbove::new(min_bytes.max(1))
            .and(NotForContentType::GRPC)
            .and(NotForContentType::IMAGES)
            .and(NotForContentType::SSE);
        let layer = CompressionLayer::new()
            .quality(CompressionLevel::Fastest)
            .compress_when(when.clone());
        Some((tower::Layer::layer(&layer, router.clone()), when))
    }

    /// Whether the layer would compress `response` for a client that asked.
    pub(crate) fn should_compress(when: &When, response: &Response<Body>) -> bool {
        when.should_compress(response)
    }
}

#[cfg(not(feature = "compression"))]
mod off {
    use super::*;

    use axum::Router;

    /// No rule: nothing is compressed without the feature (never made).
    #[derive(Clone, Debug)]
    pub(crate) enum When {}

    /// The router as it is (never used: there is no rule to go with it).
    pub(crate) type Compressed = Router;

    /// The body of an answer: as the router made it.
    pub(crate) type CompressedBody = Body;

    /// None: without the feature answers are sent as the router makes them, whatever
    /// [`ServeConfig::compression`](crate::server::ServeConfig::compression) says.
    pub(crate) fn layer(_: &Router, _: u16) -> Option<(Compressed, When)> {
        None
    }

    pub(crate) fn should_compress(when: &When, _: &Response<Body>) -> bool {
        match *when {}
    }
}
