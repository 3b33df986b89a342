//! Project automation: the library half of `cargo xtask` (synthetic specs for benchmarks).

pub mod synth;
