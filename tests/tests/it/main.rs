//! The tests of the generator and of the generated crates, in one binary (one link step):
//!
//! - the generator: the broken-spec corpus ([`broken_specs`]), the fixture snapshots
//!   ([`generated`]) and their compilation ([`fixtures_compile`]), specs from a grammar
//!   ([`generated_specs`]), the pipeline and the drift
//!   check ([`pipeline`], [`drift`]), the spec against the interface description
//!   ([`spec_coverage`]) and the OpenAPI document ([`openapi`]);
//! - the generated crates: validation cases derived from the resolved model
//!   ([`param_cases`]), hand-written validation and decoding tests ([`model_validation`],
//!   [`model_decode`]), the server and sample server over real HTTP ([`server_e2e`]), the
//!   client against canned servers and the sample server ([`client`], [`client_e2e`]), its
//!   paging streams ([`client_paging`]) and its traces ([`client_tracing`]).

mod broken_specs;
mod client;
mod client_e2e;
mod client_paging;
mod client_tracing;
mod drift;
mod fixtures_compile;
mod generated;
mod generated_specs;
mod model_decode;
mod model_validation;
mod openapi;
mod param_cases;
mod pipeline;
mod server_e2e;
mod spec_coverage;
