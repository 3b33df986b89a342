//! Project automation: the library half of `cargo xtask` (the codegen pipeline, the spec-diff
//! and drift commands, synthetic specs for benchmarks). The contract suite's runner is the `mrds-contract` package.

pub mod codegen;
pub mod drift;
pub mod spec_diff;
pub mod synth;
