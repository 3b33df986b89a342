//! Project automation: the library half of `cargo xtask` (synthetic specs for benchmarks, the
//! spec-diff command).

pub mod spec_diff;
pub mod synth;
