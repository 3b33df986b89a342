//! The `client_decode` target: its input and property are documented at `mrds_tests::fuzz::client_decode`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mrds_tests::fuzz::client_decode(data));
