//! Project automation: the library half of `cargo xtask` (the contract suite's runner and
//! reports, the spec-diff command, synthetic specs for benchmarks).

pub mod contract;
pub mod spec_diff;
pub mod synth;
