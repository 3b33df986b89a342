//! Project automation: the library half of `cargo xtask` (the contract suite's runner and
//! reports, synthetic specs for benchmarks).

pub mod contract;
pub mod synth;
