//! The tests of the generator and of the generated crates, in one binary (one link step):
//!
//! - the generator: the broken-spec corpus ([`broken_specs`]), the fixture snapshots
//!   ([`generated`]) and their compilation ([`fixtures_compile`]), the pipeline and the drift
//!   check ([`pipeline`], [`drift`]), the spec against the interface description
//!   ([`spec_coverage`]) and the OpenAPI document ([`openapi`]);
//! - the generated crates: validation cases derived from the resolved model
//!   ([`param_cases`]), hand-written validation and decoding tests ([`model_validation`],
//!   [`model_decode`]), the server and sample server over real HTTP ([`server_e2e`]), the
//!   serving path's limits, shutdown and logs over real sockets and as a child process
//!   ([`server_runtime`]), the client against canned servers and the sample server
//!   ([`client`], [`client_e2e`]).

mod broken_specs;
mod client;
mod client_e2e;
mod drift;
mod fixtures_compile;
mod generated;
mod model_decode;
mod model_validation;
mod openapi;
mod param_cases;
mod pipeline;
mod server_e2e;
mod server_runtime;
mod spec_coverage;
