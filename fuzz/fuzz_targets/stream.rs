//! The `stream` fuzz target: see `citemark_fuzz::targets::stream_target`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    citemark_fuzz::run(citemark_fuzz::targets::stream_target, data);
});
