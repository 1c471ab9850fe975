//! The fuzz targets' shared code: the properties every output must have
//! (`checks`, the same file the tests include) and what each target does
//! with its input (`targets`, which `tests/fuzz_regressions.rs` replays
//! saved inputs through). See docs/fuzzing.md.

#[path = "../../tests/support/checks.rs"]
pub mod checks;
pub mod targets;

/// Runs `target` on `data`; a broken property panics with what was wrong,
/// which libFuzzer reports as a crash and saves the input of.
pub fn run(target: targets::Target, data: &[u8]) {
    if let Err(broken) = target(data) {
        panic!("{broken}");
    }
}
