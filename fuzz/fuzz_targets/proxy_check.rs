//! The `proxy_check` target: its input and property are documented at `mrds_tests::fuzz::proxy_check`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mrds_tests::fuzz::proxy_check(data));
