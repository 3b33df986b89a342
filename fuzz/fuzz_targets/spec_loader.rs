//! The `spec_loader` target: its input and property are documented at `mrds_tests::fuzz::spec_loader`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mrds_tests::fuzz::spec_loader(data));
