//! Test-only crate; see the `tests/` directory.
