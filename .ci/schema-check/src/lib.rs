//! Nothing: the checks are the tests (`tests/schema.rs`).
