//! Provider adapters end to end: every recorded-shape response in
//! `tests/fixtures/adapters/` (named `PROVIDER-CASE.json`) goes through
//! [`adapt`] and then [`render`], and
//! - the markdown, warnings, HTML and citation index are pinned by snapshots;
//! - a well-formed response adapts without warnings and every citation in it
//!   resolves; a response named `*-malformed*` or `*-partial*` yields at
//!   least one warning and still renders what it could use;
//! - no response, however it is mangled (each value in it replaced by a
//!   value of every other JSON type), makes an adapter panic.

use citemark::adapters::{adapt, Adapted, Provider};
use citemark::render;
use serde_json::{json, Value};

mod common;

struct Fixture {
    name: String,
    provider: Provider,
    response: Value,
}

impl Fixture {
    /// Fixtures that deliberately hold broken or incomplete payloads.
    fn is_damaged(&self) -> bool {
        self.name.contains("-malformed") || self.name.contains("-partial")
    }
}

fn fixtures() -> Vec<Fixture> {
    let paths = common::files("fixtures/adapters", "json");
    paths
        .into_iter()
        .map(|path| {
            let name = common::stem(&path);
            let provider_name = name.split('-').next().unwrap_or_default();
            let provider = provider_name
                .parse()
                .unwrap_or_else(|e| panic!("{name}: fixture names start with a provider: {e}"));
            let text = std::fs::read_to_string(&path).expect("fixture is UTF-8");
            let response = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{}: invalid JSON: {e}", path.display()));
            Fixture {
                name,
                provider,
                response,
            }
        })
        .collect()
}

#[test]
fn every_provider_has_a_typical_and_a_damaged_fixture() {
    let fixtures = fixtures();
    for provider in Provider::ALL {
        let of_provider: Vec<&Fixture> =
            fixtures.iter().filter(|f| f.provider == provider).collect();
        assert!(
            of_provider.iter().any(|f| !f.is_damaged()),
            "{}: no well-formed fixture",
            provider.name()
        );
        assert!(
            of_provider.iter().any(|f| f.is_damaged()),
            "{}: no malformed or partial fixture",
            provider.name()
        );
    }
}

#[test]
fn fixtures_adapt_and_render() {
    for fixture in fixtures() {
        let adapted = adapt(fixture.provider, &fixture.response);
        let rendered = render(&adapted.markdown, &adapted.options());
        let name = &fixture.name;
        if fixture.is_damaged() {
            assert!(!adapted.warnings.is_empty(), "{name}: expected warnings");
        } else {
            assert_eq!(adapted.warnings, [], "{name}: unexpected warnings");
            assert!(
                !rendered.citations.occurrences.is_empty(),
                "{name}: no citations rendered"
            );
            let unresolved: Vec<&str> = rendered
                .citations
                .occurrences
                .iter()
                .filter(|o| !o.resolved)
                .map(|o| o.key.as_str())
                .collect();
            assert_eq!(unresolved, Vec::<&str>::new(), "{name}: unresolved keys");
        }
        for warning in &adapted.warnings {
            assert!(!warning.path.is_empty(), "{name}: warning without a path");
            assert!(!warning.message.is_empty(), "{name}: warning without words");
        }
        insta::assert_snapshot!(format!("{name}.md"), adapted.markdown);
        insta::assert_snapshot!(format!("{name}.html"), rendered.html);
        insta::assert_json_snapshot!(
            format!("{name}.adapted"),
            json!({
                "sources": adapted.sources,
                "aliases": adapted.aliases,
                "warnings": adapted.warnings,
                "citations": rendered.citations,
            })
        );
    }
}

/// Values of every JSON type, including ones that trip careless code:
/// negative and huge numbers, non-ASCII strings, empty containers.
fn replacements() -> Vec<Value> {
    vec![
        Value::Null,
        json!(true),
        json!(-1),
        json!(1e300),
        json!(u64::MAX),
        json!(""),
        json!("é😀文"),
        json!([]),
        json!({}),
    ]
}

/// Calls `visit` with a copy of `root` for every node in it replaced by
/// every value of [`replacements`].
fn for_each_mutation(root: &Value, visit: &mut impl FnMut(&Value)) {
    fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
        match value {
            Value::Object(fields) => {
                for (key, child) in fields {
                    let escaped = key.replace('~', "~0").replace('/', "~1");
                    pointers(child, format!("{at}/{escaped}"), out);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    pointers(child, format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
        out.push(at);
    }
    let mut all = Vec::new();
    pointers(root, String::new(), &mut all);
    for pointer in all {
        for replacement in replacements() {
            let mut mutated = root.clone();
            if let Some(slot) = mutated.pointer_mut(&pointer) {
                *slot = replacement;
            }
            visit(&mutated);
        }
    }
}

#[test]
fn mangled_responses_never_panic() {
    let mut runs = 0;
    for fixture in fixtures() {
        for_each_mutation(&fixture.response, &mut |response| {
            let adapted: Adapted = adapt(fixture.provider, response);
            render(&adapted.markdown, &adapted.options());
            runs += 1;
        });
    }
    // Also every provider on inputs of the wrong shape altogether.
    for provider in Provider::ALL {
        for response in replacements() {
            adapt(provider, &response);
            runs += 1;
        }
    }
    assert!(runs > 1000, "only {runs} mangled responses tried");
}
