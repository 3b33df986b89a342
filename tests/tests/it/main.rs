//! The tests of the generator and of the generated crates, in one binary (one link step):
//!
//! - the generator: the broken-spec corpus ([`broken_specs`]), the fixture snapshots
//!   ([`generated`]) and their compilation ([`fixtures_compile`]), specs from a grammar
//!   ([`generated_specs`]), the pipeline and the drift
//!   check ([`pipeline`], [`drift`]), the docs' snippets of the generated API on other specs
//!   ([`doc_snippets`]), the spec against the interface description
//!   ([`spec_coverage`]), the JSON Schema of the spec format for editors ([`spec_schema`]), the OpenAPI document ([`openapi`]) and the breaking-change check
//!   between spec revisions ([`spec_diff`]), with its classifications shown against generated
//!   old and new crates talking to each other ([`spec_diff_e2e`]);
//! - the generated crates: the contract suite derived from the resolved model, against the
//!   sample server and deliberately broken implementations ([`contract`]), hand-written
//!   validation and decoding tests ([`model_validation`],
//!   [`model_decode`]), the server and sample server over real HTTP ([`server_e2e`]), the
//!   serving path's limits, shutdown and logs over real sockets and as a child process
//!   ([`server_runtime`]), its answers before a request reaches an implementation (bodies left
//!   unread, malformed heads: [`server_refusals`]), the client against canned servers and the
//!   sample server ([`client`], [`client_e2e`]), its paging streams ([`client_paging`]) and
//!   its traces ([`client_tracing`]), the client's examples that run on their own
//!   ([`client_examples`]), typed time ([`typed_time`]); the sample server in process, its
//!   scenarios, `Prefer` header and journal ([`mock_server`]);
//! - following the provider: what the client notices of a service's answers that the spec
//!   does not describe, and `cargo xtask drift`'s spec edits ([`provider_drift`]); the checking
//!   proxy in front of a drifted provider ([`provider_proxy`]); the watch of a live provider
//!   and its scheduled workflow ([`provider_watch`]);
//! - packaging: the shipped crates' manifests, READMEs and license files ([`packaging`]);
//!   what a test using the sample server in process compiles ([`weight`]).
//! - the hand-written crates' layout: no source file of the runtime or the generator over 600
//!   lines, and no module importing one that imports it back ([`module_graph`]); no two types
//!   of the shipped crates sharing a name ([`type_names`]).

// The tests reach endpoints the spec may mark removed (a removal is a change in spec/ alone): they still compile and run.
#![allow(deprecated)]

mod bodies;
mod broken_specs;
mod catalog;
mod client;
mod client_e2e;
mod client_examples;
mod client_paging;
mod client_tls;
mod client_tracing;
mod constructors;
mod contract;
mod contract_agreement;
mod doc_snippets;
mod docs;
mod drift;
mod fixtures_compile;
mod follow;
mod fuzz_regressions;
mod generated;
mod generated_specs;
mod http;
mod layering;
mod mock_admin;
mod mock_scenarios;
mod mock_server;
mod model_decode;
mod model_validation;
mod module_graph;
mod openapi;
mod packaging;
mod pattern_matchers;
mod pipeline;
mod provider_drafts;
mod provider_drift;
mod provider_loop;
mod provider_meaning;
mod provider_proxy;
mod provider_watch;
mod random_releases;
mod server_e2e;
mod server_refusals;
mod server_runtime;
mod spec_coverage;
mod spec_diff;
mod spec_diff_command;
mod spec_diff_e2e;
mod spec_schema;
mod type_names;
mod typed_time;
mod weight;
