//! Project automation: the library half of `cargo xtask` (the codegen pipeline, the spec-diff
//! and drift commands, synthetic specs for benchmarks, and the generator's half of the watch:
//! applying its findings). The contract suite's runner is the `mrds-contract` package, the
//! watch's probing the `mrds-watch` package.

pub mod codegen;
pub mod drift;
pub mod spec_diff;
pub mod synth;
pub mod watch;
