//! The `mock_body` target: its input and property are documented at `mrds_tests::fuzz::mock_body`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mrds_tests::fuzz::mock_body(data));
