//! The fuzz targets' saved inputs (`fuzz/regressions/<target>/`), replayed
//! as ordinary tests on stable Rust: each input once made a target fail or
//! pins an input worth keeping (issue 23's examples), and each must now
//! pass every property the target checks (docs/fuzzing.md).

#[path = "support/checks.rs"]
mod checks;
#[path = "../fuzz/src/targets.rs"]
mod targets;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// Runs every saved input of `target`, reporting all failures together.
fn replay(target: &str) {
    let run = targets::TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .map(|(_, run)| *run)
        .unwrap_or_else(|| panic!("no fuzz target {target}"));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.is_file() && !path.ends_with("README.md"))
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "{}: no saved inputs", dir.display());
    let mut failures = Vec::new();
    for path in &inputs {
        let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let outcome = catch_unwind(AssertUnwindSafe(|| run(&data)));
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        match outcome {
            Ok(Ok(())) => {}
            Ok(Err(e)) => failures.push(format!("{target}/{name}: {e}")),
            Err(_) => failures.push(format!("{target}/{name}: panicked")),
        }
    }
    println!("{target}: {} saved inputs replayed", inputs.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn render_regressions_pass() {
    replay("render");
}

#[test]
fn stream_regressions_pass() {
    replay("stream");
}

#[test]
fn adapters_regressions_pass() {
    replay("adapters");
}

#[test]
fn options_json_regressions_pass() {
    replay("options_json");
}

/// The checks the targets run fail when they should: an unsafe renderer's
/// output, a stream fed differently from its render.
#[test]
fn targets_catch_what_they_should() {
    // Raw HTML passed through (header byte 1, bit 2) is allowed to hold
    // script; every URL allowed (bit 3) too: the target knows, and passes.
    let mut passed = vec![0, 0b1100, 0, 0, 0];
    passed.extend_from_slice(b"<script>alert(1)</script> [x](javascript:alert(1))");
    assert_eq!(targets::render_target(&passed), Ok(()));
    // The same script from the safe path would be flagged by the checks.
    let html = citemark::render(
        "<script>alert(1)</script>",
        &citemark::Options::dangerous_commonmark(),
    )
    .html;
    let expect = checks::Expect::of(&citemark::Options::default());
    assert!(checks::check_output(&html, &[], expect).is_err());
    assert!(checks::check_output("<p><em>a</p>", &[], expect).is_err());
    let cited = citemark::render("[1] [2]", &citemark::Options::default());
    assert!(checks::check_output(&cited.html, &cited.citations.occurrences, expect).is_ok());
    assert!(checks::check_output(&cited.html, &cited.citations.occurrences[..1], expect).is_err());
    // A budget is the size-scaled one-shot time, floored.
    let linear = checks::LinearTime::get();
    assert!(linear.ns_per_byte > 0.0);
    assert_eq!(linear.budget(1), linear.budget(checks::BUDGET_FLOOR_BYTES));
    assert!(linear.budget(10 * checks::BUDGET_FLOOR_BYTES) > linear.budget(1));
}
