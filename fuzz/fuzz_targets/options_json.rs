//! The `options_json` fuzz target: see `citemark_fuzz::targets::options_json_target`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    citemark_fuzz::run(citemark_fuzz::targets::options_json_target, data);
});
