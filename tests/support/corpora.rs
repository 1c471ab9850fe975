//! Finding and loading the shared test corpora (see `SOURCES.md` next to them).
//!
//! The corpora live outside the crate (`../shared/corpora` by default, or
//! wherever `$CITEMARK_CORPORA` points). A developer checkout without them
//! skips the corpus-driven tests loudly; CI (`CI=true`) must have them, so
//! there a missing corpus is a failure rather than a silent pass.

// Each test binary includes this module and uses a different subset of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The corpora directory, or `None` (after saying so on stderr) when it is
/// missing outside CI.
///
/// # Panics
/// When the directory is missing and `CI` is `true`.
pub fn corpora_dir() -> Option<PathBuf> {
    let dir = configured_dir();
    if dir.is_dir() {
        return Some(dir);
    }
    if running_in_ci() {
        panic!(
            "corpora not found at {} and CI=true: the corpus-driven tests must run in CI \
             (set CITEMARK_CORPORA to the corpora directory)",
            dir.display()
        );
    }
    eprintln!("corpora not found at {}, skipped", dir.display());
    None
}

/// Loads `<corpora>/<name>` as JSON; `None` when the corpora are missing
/// (see [`corpora_dir`]).
///
/// # Panics
/// When the directory exists but the file is missing or is not valid JSON:
/// that is a broken checkout, not an absent one.
pub fn load_json(name: &str) -> Option<serde_json::Value> {
    let path = corpora_dir()?.join(name);
    Some(read_json(&path))
}

/// Reads and parses one JSON file, panicking with the path on any error.
pub fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read corpus file {}: {e}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("corpus file {} is not valid JSON: {e}", path.display()))
}

/// `$CITEMARK_CORPORA`, else `../shared/corpora` relative to the crate root.
fn configured_dir() -> PathBuf {
    match std::env::var_os("CITEMARK_CORPORA") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora"),
    }
}

fn running_in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true"))
}

/// A string field of a JSON object, or `""` when it is absent or not a string.
pub fn str_field<'a>(value: &'a serde_json::Value, field: &str) -> &'a str {
    value.get(field).and_then(|v| v.as_str()).unwrap_or("")
}

/// A boolean field of a JSON object, `false` when absent.
pub fn bool_field(value: &serde_json::Value, field: &str) -> bool {
    value.get(field).and_then(|v| v.as_bool()).unwrap_or(false)
}

/// The elements of a JSON array (empty when it is not one).
pub fn array(value: &serde_json::Value) -> &[serde_json::Value] {
    value.as_array().map(Vec::as_slice).unwrap_or(&[])
}
